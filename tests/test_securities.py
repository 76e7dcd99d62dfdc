"""The securities' functions (bonds, bills, discounted securities): against the values Excel
saved in IronCalc's function tests (the PyPI sdist ironcalc 0.9.1,
``xlsx/tests/calc_tests/FINANCIAL/<file>``, workbooks saved by Excel; each formula with its
arguments written in from the cells it reads), Excel's reference examples and both sides of
each domain boundary."""

from __future__ import annotations

import math

import pytest

from fide_rating.engine.formula.values import NUM, VALUE, XlError
from test_formula import ev

OK = object()  # a finite number

EXCEL_SAVED: list[tuple[str, float | str, str, str]] = [
    (
        "=PRICE(43891.0,47543.0,0.06,0.07,130.0,1.0,0.0)",
        108.22689722310892,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H2",
    ),
    (
        "=PRICE(43891.0,47543.0,0.05,0.065,15.0,1.0,1.0)",
        43.93504164661344,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H3",
    ),
    (
        "=PRICE(43891.0,47543.0,0.04,0.05,155.0,1.0,2.0)",
        126.04349401555694,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H4",
    ),
    (
        "=PRICE(43891.0,47543.0,0.06,0.07,23.0,1.0,3.0)",
        53.83352296469412,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H5",
    ),
    (
        "=PRICE(43891.0,51210.0,0.06,0.07876,1000.0,1.0,4.0)",
        278.38557902933076,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H6",
    ),
    (
        "=PRICE(43891.0,47543.0,0.06,0.07,130.0,2.0,0.0)",
        107.9707748819741,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H8",
    ),
    (
        "=ODDFPRICE(43891.0,47543.0,43845.0,44256.0,0.075,0.05,120.0,1.0,1.0)",
        131.5377155865953,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDFPRICE_ODDFYIELD!J2",
    ),
    (
        "=ODDFPRICE(43891.0,47543.0,43845.0,44256.0,0.075,0.067,120.0,1.0,2.0)",
        115.98854775223758,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDFPRICE_ODDFYIELD!J3",
    ),
    (
        "=ODDFPRICE(43891.0,47543.0,43845.0,44256.0,0.08,0.06,120.0,1.0,3.0)",
        125.83100063105158,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDFPRICE_ODDFYIELD!J4",
    ),
    (
        "=ODDFPRICE(43891.0,47543.0,43845.0,44256.0,0.075,0.03,120.0,1.0,4.0)",
        153.2398784420665,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDFPRICE_ODDFYIELD!J5",
    ),
    (
        "=ODDFPRICE(43891.0,51210.0,43845.0,44256.0,0.075,0.06,120.0,1.0,5.0)",
        "#NUM!",
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDFPRICE_ODDFYIELD!J6",
    ),
    (
        "=ODDFPRICE(43891.0,47543.0,43845.0,44256.0,0.075,0.05,120.0,2.0,1.0)",
        131.55696869340122,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDFPRICE_ODDFYIELD!J8",
    ),
    (
        "=ODDLPRICE(43891.0,47543.0,43845.0,0.075,0.06,120.0,2.0,1.0)",
        121.51937811334447,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!I2",
    ),
    (
        "=ODDLYIELD(43891.0,47543.0,43845.0,0.075,121.51937811334447,120.0,2.0,1.0)",
        0.05999999999999999,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!J2",
    ),
    (
        "=ODDLPRICE(43891.0,47543.0,43845.0,0.075,0.0589,120.0,2.0,2.0)",
        122.36705839417525,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!I3",
    ),
    (
        "=ODDLYIELD(43891.0,47543.0,43845.0,0.075,122.36705839417525,120.0,2.0,2.0)",
        0.058899999999999994,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!J3",
    ),
    (
        "=ODDLPRICE(43891.0,47543.0,43845.0,0.08,0.0711,120.0,2.0,3.0)",
        116.47102012136368,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!I4",
    ),
    (
        "=ODDLYIELD(43891.0,47543.0,43845.0,0.08,116.47102012136368,120.0,2.0,3.0)",
        0.0711,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!J4",
    ),
    (
        "=ODDLPRICE(43891.0,47543.0,43845.0,0.075,0.02,120.0,2.0,4.0)",
        162.34027777777777,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!I5",
    ),
    (
        "=ODDLYIELD(43891.0,47543.0,43845.0,0.075,162.34027777777777,120.0,2.0,4.0)",
        0.020000000000000004,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!J5",
    ),
    (
        "=ODDLPRICE(43891.0,51210.0,43845.0,0.075,0.06,120.0,2.0,5.0)",
        "#NUM!",
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!I6",
    ),
    (
        "=ODDLPRICE(43891.0,47543.0,43845.0,0.075,0.06,120.0,1.0,1.0)",
        121.52128858401393,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!I8",
    ),
    (
        "=ODDLYIELD(43891.0,47543.0,43845.0,0.075,121.52128858401393,120.0,1.0,1.0)",
        0.059999999999999984,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!J8",
    ),
    (
        "=ODDLYIELD(43891.0,47543.0,43845.0,0.075,122.3689285685928,120.0,1.0,2.0)",
        0.0589,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "ODDLPRICE_ODDLYIELD!J9",
    ),
    (
        "=ACCRINT(39508, 39691, 39569, 0.1, 1000, 2, 0)",
        16.666666666666664,
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B1",
    ),
    (
        "=ACCRINT(DATE(2008,3,5), 39691, 39569, 0.1, 1000, 2, 0, FALSE)",
        15.555555555555555,
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B2",
    ),
    (
        "=ACCRINT(DATE(2008,4,5), 39691, 39569, 0.1, 1000, 2, 0, TRUE)",
        7.222222222222221,
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B3",
    ),
    (
        "=ACCRINT(DATE(2007,3,1), DATE(2008,8,31), DATE(2008,5,1), 0.1, 1000, 2, 0)",
        116.94444444444446,
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B4",
    ),
    (
        "=ACCRINT(DATE(2007,3,1), DATE(2008,8,31), DATE(2008,5,1), 0.1, 1000, 2, 0, FALSE)",
        66.94444444444446,
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B5",
    ),
    (
        "=ACCRINT(DATE(2008,3,1), DATE(2008,9,1), DATE(2008,9,1), 0.1, 1000, 2, 0)",
        50.0,
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B6",
    ),
    (
        "=ACCRINT(DATE(2008,3,1), DATE(2008,9,1), DATE(2008,5,1), 0, 1000, 2, 0)",
        "#NUM!",
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B7",
    ),
    (
        "=ACCRINT(DATE(2008,3,1), DATE(2008,9,1), DATE(2008,5,1), -0.05, 1000, 2, 0)",
        "#NUM!",
        "FINANCIAL/ACCRINT.xlsx",
        "Sheet1!B8",
    ),
    (
        "=ACCRINTM(39539, 39614, 0.1, 1000, 3)",
        20.54794520547945,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B2",
    ),
    (
        "=ACCRINTM(DATE(2024,1,15), DATE(2024,3,15), 0.1, 1000, 0)",
        16.666666666666664,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B4",
    ),
    (
        "=ACCRINTM(DATE(2024,1,15), DATE(2024,3,15), 0.1, 1000, 1)",
        16.39344262295082,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B5",
    ),
    (
        "=ACCRINTM(DATE(2024,1,15), DATE(2024,3,15), 0.1, 1000, 2)",
        16.666666666666664,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B6",
    ),
    (
        "=ACCRINTM(DATE(2024,1,15), DATE(2024,3,15), 0.1, 1000, 3)",
        16.43835616438356,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B7",
    ),
    (
        "=ACCRINTM(DATE(2024,1,15), DATE(2024,3,15), 0.1, 1000, 4)",
        16.666666666666664,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B8",
    ),
    (
        "=ACCRINTM(DATE(2023,1,15), DATE(2023,3,31), 0.1, 1000, 0)",
        21.11111111111111,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B9",
    ),
    (
        "=ACCRINTM(DATE(2023,2,28), DATE(2023,6,15), 0.1, 1000, 0)",
        29.166666666666668,
        "FINANCIAL/ACCRINTM.xlsx",
        "Sheet1!B10",
    ),
    ("=COUPDAYS(43831.0,44197.0,1.0,0.0)", 360.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E2"),
    ("=COUPDAYBS(43831.0,44197.0,1.0,0.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F2"),
    ("=COUPDAYSNC(43831.0,44197.0,1.0,0.0)", 360.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G2"),
    ("=COUPNCD(43831.0,44197.0,1.0,0.0)", 44197.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H2"),
    ("=COUPNUM(43831.0,44197.0,1.0,0.0)", 1.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I2"),
    ("=COUPPCD(43831.0,44197.0,1.0,0.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J2"),
    ("=COUPDAYS(43831.0,44197.0,1.0,1.0)", 366.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E3"),
    ("=COUPDAYBS(43831.0,44197.0,1.0,1.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F3"),
    ("=COUPDAYSNC(43831.0,44197.0,1.0,1.0)", 366.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G3"),
    ("=COUPNCD(43831.0,44197.0,1.0,1.0)", 44197.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H3"),
    ("=COUPNUM(43831.0,44197.0,1.0,1.0)", 1.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I3"),
    ("=COUPPCD(43831.0,44197.0,1.0,1.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J3"),
    ("=COUPDAYS(43831.0,44197.0,1.0,2.0)", 360.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E4"),
    ("=COUPDAYBS(43831.0,44197.0,1.0,2.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F4"),
    ("=COUPDAYSNC(43831.0,44197.0,1.0,2.0)", 366.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G4"),
    ("=COUPNCD(43831.0,44197.0,1.0,2.0)", 44197.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H4"),
    ("=COUPNUM(43831.0,44197.0,1.0,2.0)", 1.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I4"),
    ("=COUPPCD(43831.0,44197.0,1.0,2.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J4"),
    ("=COUPDAYS(43831.0,44197.0,1.0,3.0)", 365.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E5"),
    ("=COUPDAYBS(43831.0,44197.0,1.0,3.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F5"),
    ("=COUPDAYSNC(43831.0,44197.0,1.0,3.0)", 366.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G5"),
    ("=COUPNCD(43831.0,44197.0,1.0,3.0)", 44197.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H5"),
    ("=COUPNUM(43831.0,44197.0,1.0,3.0)", 1.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I5"),
    ("=COUPPCD(43831.0,44197.0,1.0,3.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J5"),
    ("=COUPDAYS(43831.0,44197.0,1.0,4.0)", 360.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E6"),
    ("=COUPDAYBS(43831.0,44197.0,1.0,4.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F6"),
    ("=COUPDAYSNC(43831.0,44197.0,1.0,4.0)", 360.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G6"),
    ("=COUPNCD(43831.0,44197.0,1.0,4.0)", 44197.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H6"),
    ("=COUPNUM(43831.0,44197.0,1.0,4.0)", 1.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I6"),
    ("=COUPPCD(43831.0,44197.0,1.0,4.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J6"),
    ("=COUPDAYS(43831.0,44197.0,2.0,0.0)", 180.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E8"),
    ("=COUPDAYBS(43831.0,44197.0,2.0,0.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F8"),
    ("=COUPDAYSNC(43831.0,44197.0,2.0,0.0)", 180.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G8"),
    ("=COUPNCD(43831.0,44197.0,2.0,0.0)", 44013.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H8"),
    ("=COUPNUM(43831.0,44197.0,2.0,0.0)", 2.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I8"),
    ("=COUPPCD(43831.0,44197.0,2.0,0.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J8"),
    ("=COUPDAYS(43831.0,44197.0,2.0,1.0)", 182.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E9"),
    ("=COUPDAYBS(43831.0,44197.0,2.0,1.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F9"),
    ("=COUPDAYSNC(43831.0,44197.0,2.0,1.0)", 182.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G9"),
    ("=COUPNCD(43831.0,44197.0,2.0,1.0)", 44013.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H9"),
    ("=COUPNUM(43831.0,44197.0,2.0,1.0)", 2.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I9"),
    ("=COUPPCD(43831.0,44197.0,2.0,1.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J9"),
    ("=COUPDAYS(43831.0,44197.0,2.0,2.0)", 180.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!E10"),
    ("=COUPDAYBS(43831.0,44197.0,2.0,2.0)", 0.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!F10"),
    ("=COUPDAYSNC(43831.0,44197.0,2.0,2.0)", 182.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!G10"),
    ("=COUPNCD(43831.0,44197.0,2.0,2.0)", 44013.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!H10"),
    ("=COUPNUM(43831.0,44197.0,2.0,2.0)", 2.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!I10"),
    ("=COUPPCD(43831.0,44197.0,2.0,2.0)", 43831.0, "FINANCIAL/COUPDAYS.xlsx", "Sheet1!J10"),
    (
        "=DISC(39472.0,39614.0,97.975,100.0,0.0)",
        0.05207142857142884,
        "FINANCIAL/DISC.xlsx",
        "Sheet1!F2",
    ),
    (
        "=DISC(39472.0,39614.0,97.975,100.0,1.0)",
        0.05219366197183125,
        "FINANCIAL/DISC.xlsx",
        "Sheet1!F3",
    ),
    (
        "=DISC(39472.0,39614.0,97.975,100.0,2.0)",
        0.051338028169014345,
        "FINANCIAL/DISC.xlsx",
        "Sheet1!F4",
    ),
    (
        "=DISC(39472.0,39614.0,97.975,100.0,3.0)",
        0.05205105633802843,
        "FINANCIAL/DISC.xlsx",
        "Sheet1!F5",
    ),
    (
        "=DISC(39472.0,39614.0,97.975,100.0,4.0)",
        0.05207142857142884,
        "FINANCIAL/DISC.xlsx",
        "Sheet1!F6",
    ),
    ("=DISC(39472.0,39614.0,97.975,100.0,5.0)", "#NUM!", "FINANCIAL/DISC.xlsx", "Sheet1!F7"),
    ("=DISC(39472.0,39614.0,97.975,100.0,(-1.0))", "#NUM!", "FINANCIAL/DISC.xlsx", "Sheet1!F8"),
    (
        "=DISC(39472.0,39614.0,97.975,100.0,2.4)",
        0.051338028169014345,
        "FINANCIAL/DISC.xlsx",
        "Sheet1!F9",
    ),
    (
        "=INTRATE(46433.0,46522.0,2000000.0,2040000.0,0.0)",
        0.08,
        "FINANCIAL/INTRATE.xlsx",
        "Sheet1!F2",
    ),
    (
        "=INTRATE(46433.0,46522.0,2000001.0,2040001.02,1.0)",
        0.0820224719101124,
        "FINANCIAL/INTRATE.xlsx",
        "Sheet1!F3",
    ),
    (
        "=INTRATE(46433.0,46522.0,2000002.0,2040002.04,2.0)",
        0.08089887640449446,
        "FINANCIAL/INTRATE.xlsx",
        "Sheet1!F4",
    ),
    (
        "=INTRATE(46433.0,46522.0,2000003.0,2040003.06,3.0)",
        0.08202247191011247,
        "FINANCIAL/INTRATE.xlsx",
        "Sheet1!F5",
    ),
    (
        "=INTRATE(46433.0,46522.0,2000004.0,2040004.08,4.0)",
        0.08000000000000015,
        "FINANCIAL/INTRATE.xlsx",
        "Sheet1!F6",
    ),
    (
        "=PRICE(43891.0,47543.0,0.05,0.065,15.0,2.0,1.0)",
        44.26043412070515,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H9",
    ),
    (
        "=PRICE(43891.0,47543.0,0.04,0.05,155.0,2.0,2.0)",
        125.77032071441235,
        "FINANCIAL/PRICE_YIELD.xlsx",
        "PRICE_YIELD!H10",
    ),
    ("=TBILLEQ(20000.0,20182.0,0.5)", 0.6784386617100372, "FINANCIAL/TBILLs.xlsx", "Sheet1!D2"),
    ("=TBILLPRICE(20000.0,20182.0,0.5)", 74.72222222222223, "FINANCIAL/TBILLs.xlsx", "Sheet1!N2"),
    (
        "=TBILLYIELD(20000.0,20182.0,200.0)",
        -0.989010989010989,
        "FINANCIAL/TBILLs.xlsx",
        "Sheet1!R2",
    ),
    ("=TBILLEQ(100.0,200.0,1.0)", 1.4038461538461537, "FINANCIAL/TBILLs.xlsx", "Sheet1!D3"),
    ("=TBILLPRICE(100.0,200.0,1.0)", 72.22222222222221, "FINANCIAL/TBILLs.xlsx", "Sheet1!N3"),
    ("=TBILLYIELD(100.0,200.0,100.0)", 0.0, "FINANCIAL/TBILLs.xlsx", "Sheet1!R3"),
    ("=TBILLEQ(2040.0,2400.0,0.8)", 2.5066048253748145, "FINANCIAL/TBILLs.xlsx", "Sheet1!D4"),
    ("=TBILLPRICE(2040.0,2400.0,0.8)", 19.999999999999996, "FINANCIAL/TBILLs.xlsx", "Sheet1!N4"),
    ("=TBILLYIELD(2040.0,2400.0,(-2.0))", "#NUM!", "FINANCIAL/TBILLs.xlsx", "Sheet1!R4"),
    ("=TBILLEQ(14640.0,15005.0,0.5)", 0.8482759796652481, "FINANCIAL/TBILLs.xlsx", "Sheet1!D5"),
    ("=TBILLPRICE(14640.0,15005.0,0.5)", 49.30555555555556, "FINANCIAL/TBILLs.xlsx", "Sheet1!N5"),
    ("=TBILLYIELD(14640.0,15005.0,0.0)", "#NUM!", "FINANCIAL/TBILLs.xlsx", "Sheet1!R5"),
    ("=TBILLEQ(14640.0,15006.0,0.5)", 0.8522961312491701, "FINANCIAL/TBILLs.xlsx", "Sheet1!D6"),
    ("=TBILLPRICE(14640.0,15006.0,0.5)", 49.16666666666667, "FINANCIAL/TBILLs.xlsx", "Sheet1!N6"),
    (
        "=TBILLYIELD(14640.0,15006.0,3000.0)",
        -0.9508196721311475,
        "FINANCIAL/TBILLs.xlsx",
        "Sheet1!R6",
    ),
    ("=TBILLEQ(1000.0,1365.0,0.5)", 0.8482759796652481, "FINANCIAL/TBILLs.xlsx", "Sheet1!D7"),
    ("=TBILLPRICE(1000.0,1365.0,0.5)", 49.30555555555556, "FINANCIAL/TBILLs.xlsx", "Sheet1!N7"),
    ("=TBILLYIELD(1000.0,1365.0,45.0)", 1.2054794520547945, "FINANCIAL/TBILLs.xlsx", "Sheet1!R7"),
    ("=TBILLEQ(1000.0,1366.0,0.5)", "#NUM!", "FINANCIAL/TBILLs.xlsx", "Sheet1!D8"),
    ("=TBILLPRICE(1000.0,1366.0,0.5)", "#NUM!", "FINANCIAL/TBILLs.xlsx", "Sheet1!N8"),
    ("=TBILLYIELD(1000.0,1366.0,120.0)", "#NUM!", "FINANCIAL/TBILLs.xlsx", "Sheet1!R8"),
    ("=TBILLEQ(45332.0,45650.0,0.5)", 0.7787541318484793, "FINANCIAL/TBILLs.xlsx", "Sheet1!D9"),
    ("=TBILLPRICE(45332.0,45650.0,0.5)", 55.833333333333336, "FINANCIAL/TBILLs.xlsx", "Sheet1!N9"),
    (
        "=TBILLYIELD(45332.0,45650.0,2000.0)",
        -1.0754716981132075,
        "FINANCIAL/TBILLs.xlsx",
        "Sheet1!R9",
    ),
]


@pytest.mark.parametrize(("formula", "expected", "workbook", "cell"), EXCEL_SAVED)
def test_the_values_excel_saved(formula: str, expected: float | str, workbook: str,
                                cell: str) -> None:  # fmt: skip
    got = ev(formula)
    if isinstance(expected, str):
        assert isinstance(got, XlError) and got.code == expected, f"{cell}: {got}"
    else:
        assert isinstance(got, float), f"{cell}: {got}"
        assert abs(got - expected) <= 1e-14 * max(abs(got), abs(expected)), f"{cell}: {got}"


# Excel's reference examples (support.microsoft.com), to the digits the page prints
REFERENCE: list[tuple[str, float]] = [
    ("=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)", 16.66666667),
    ("=ACCRINTM(DATE(2008,4,1),DATE(2008,6,15),0.1,1000,3)", 20.54794521),
    ("=COUPDAYBS(DATE(2011,1,25),DATE(2011,11,15),2,1)", 71.0),
    ("=COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),2,1)", 181.0),
    ("=COUPDAYSNC(DATE(2011,1,25),DATE(2011,11,15),2,1)", 110.0),
    ("=COUPNCD(DATE(2011,1,25),DATE(2011,11,15),2,1)", 40678.0),
    ("=COUPNUM(DATE(2007,1,25),DATE(2008,11,15),2,1)", 4.0),
    ("=COUPPCD(DATE(2011,1,25),DATE(2011,11,15),2,1)", 40497.0),
    ("=INTRATE(DATE(2008,2,15),DATE(2008,5,15),1000000,1014420,2)", 0.05768),
    ("=PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,0.065,100,2,0)", 94.63436),
    ("=YIELD(DATE(2008,2,15),DATE(2016,11,15),0.0575,95.04287,100,2,0)", 0.065),
    ("=DURATION(DATE(2018,7,1),DATE(2048,1,1),0.08,0.09,2,1)", 10.9191453),
    ("=MDURATION(DATE(2008,1,1),DATE(2016,1,1),0.08,0.09,2,1)", 5.73567),
    ("=PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),0.0525,100,2)", 99.79583),
    ("=PRICEMAT(DATE(2008,2,15),DATE(2008,4,13),DATE(2007,11,11),0.061,0.061,0)", 99.98449888),
    ("=RECEIVED(DATE(2008,2,15),DATE(2008,5,15),1000000,0.0575,2)", 1014584.654),
    ("=TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),0.0914)", 0.094151),
    ("=TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0.09)", 98.45),
    ("=TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),98.45)", 0.091417),
    ("=YIELDDISC(DATE(2008,2,16),DATE(2008,3,1),99.795,100,2)", 0.052823),
    ("=YIELDMAT(DATE(2008,3,15),DATE(2008,11,3),DATE(2007,11,8),0.0625,100.0123,0)", 0.060954),
    (
        "=ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.0785,"
        "0.0625,100,2,1)",
        113.597717,
    ),
    ("=ODDLPRICE(DATE(2008,2,7),DATE(2008,6,15),DATE(2007,10,15),0.0375,0.0405,100,2,0)", 99.87829),
    (
        "=ODDLYIELD(DATE(2008,4,20),DATE(2008,6,15),DATE(2007,12,24),0.0375,99.875,100,2,0)",
        0.045192,
    ),
]


@pytest.mark.parametrize(("formula", "expected"), REFERENCE)
def test_excels_reference_examples(formula: str, expected: float) -> None:
    got = ev(formula)
    assert isinstance(got, float), formula
    assert got == pytest.approx(expected, rel=1e-5), formula


def test_oddfyield_on_excels_example() -> None:
    """The page shows the yield as a percentage to two decimals, 7.72 %."""
    formula = "=ODDFYIELD(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.0575,"
    assert ev(formula + "84.5,100,2,0)") == pytest.approx(0.0772, abs=5e-5)


BOUNDARIES: list[tuple[str, object]] = [
    # settlement before maturity
    ("=COUPNUM(DATE(2011,11,15),DATE(2011,11,15),2)", NUM),
    ("=COUPNUM(DATE(2011,11,14),DATE(2011,11,15),2)", 1.0),
    # frequency 1, 2 or 4
    ("=COUPNUM(DATE(2011,1,25),DATE(2011,11,15),3)", NUM),
    ("=COUPNUM(DATE(2011,1,25),DATE(2011,11,15),4)", 4.0),
    # basis 0 to 4
    ("=COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),2,-1)", NUM),
    ("=COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),2,4)", 180.0),
    ("=COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),2,5)", NUM),
    ("=COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),TRUE,1)", VALUE),
    # rates and amounts above 0
    ("=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0,1000,2,0)", NUM),
    ("=ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,0,2,0)", NUM),
    ("=ACCRINT(DATE(2008,5,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)", NUM),
    ("=ACCRINT(DATE(2008,4,30),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)", OK),
    ("=ACCRINTM(DATE(2008,4,1),DATE(2008,6,15),0,1000,3)", NUM),
    ("=DISC(DATE(2008,2,16),DATE(2008,3,1),0,100,2)", NUM),
    ("=DISC(DATE(2008,2,16),DATE(2008,3,1),99,100,2)", OK),
    ("=PRICE(DATE(2008,2,15),DATE(2017,11,15),-0.01,0.065,100,2,0)", NUM),
    ("=PRICE(DATE(2008,2,15),DATE(2017,11,15),0,0.065,100,2,0)", OK),
    ("=PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,0.065,0,2,0)", NUM),
    ("=YIELD(DATE(2008,2,15),DATE(2016,11,15),0.0575,0,100,2,0)", NUM),
    ("=DURATION(DATE(2018,7,1),DATE(2048,1,1),-0.01,0.09,2,1)", NUM),
    # a Treasury bill of at most a year
    ("=TBILLPRICE(DATE(2008,3,31),DATE(2009,3,31),0.09)", OK),
    ("=TBILLPRICE(DATE(2008,3,31),DATE(2009,4,1),0.09)", NUM),
    ("=TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0)", NUM),
    ("=TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),0)", NUM),
    # the dates of an odd first period in order: issue, settlement, first coupon, maturity
    (
        "=ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,11,11),DATE(2009,3,1),0.0785,"
        "0.0625,100,2,1)",
        NUM,
    ),
    (
        "=ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,11,10),DATE(2009,3,1),0.0785,"
        "0.0625,100,2,1)",
        OK,
    ),
    ("=ODDLPRICE(DATE(2008,2,7),DATE(2008,6,15),DATE(2008,2,7),0.0375,0.0405,100,2,0)", NUM),
    ("=ODDLPRICE(DATE(2008,2,7),DATE(2008,6,15),DATE(2008,2,6),0.0375,0.0405,100,2,0)", OK),
]


@pytest.mark.parametrize(("formula", "expected"), BOUNDARIES)
def test_each_side_of_the_domain_boundaries(formula: str, expected: object) -> None:
    got = ev(formula)
    if expected is OK:
        assert isinstance(got, float) and math.isfinite(got), f"{formula} -> {got}"
    else:
        assert got == expected, f"{formula} -> {got}"
