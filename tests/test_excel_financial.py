"""Excel's rules for the time-value, cash-flow and depreciation functions: each case an input
and the value Excel saved for it, in IronCalc's function tests (the PyPI sdist ironcalc 0.9.1,
``xlsx/tests/calc_tests/FINANCIAL/<file>`` or ``xlsx/tests/docs/<file>``, workbooks saved by
Excel; the cells a formula reads written in as cells or numbers), or the example of Excel's
function reference. Both sides of every boundary."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from fide_rating.engine.formula.values import DIV0, NUM, VALUE, XlError
from test_formula import ev


def _agrees(found: object, expected: float | XlError) -> bool:
    """Excel's figure to one unit in the 15th significant digit, an error exactly."""
    if isinstance(expected, XlError):
        return found == expected
    if not isinstance(found, float):
        return False
    return found == expected or abs(found - expected) <= 1e-14 * abs(expected)


def _row(*values: object) -> dict[str, object]:
    """Cells A1, B1, ... holding ``values`` (None: a blank cell)."""
    return {f"{chr(65 + i)}1": v for i, v in enumerate(values) if v is not None}


CASES: list[tuple[str, Mapping[str, object], float | XlError, str]] = [
    # MIRR: nothing paid back is -100 %, nothing paid out #DIV/0!, a reinvestment rate below
    # -100 % turning the sum negative #NUM!
    ("=MIRR(A1:C1,0.1,0.2)", _row(-6, -1, -2), -1.0, "MIRR.xlsx Three parameters!F18"),
    ("=MIRR(A1:C1,0.2,0.1)", _row(-100, -20, -80), -1.0, "MIRR.xlsx Three parameters!F19"),
    ("=MIRR(A1:B1,0.1,0.2)", _row(5, 6), DIV0, "MIRR.xlsx Two Parameters!E8"),
    ("=MIRR(A1:C1,0.5,-12)", _row(-50, 25, 30), NUM, "MIRR.xlsx Three parameters!F31"),
    ("=MIRR(A1:C1,12,-0.4)", _row(-50, 25, 30), -0.05131670194948612, "F29 there"),
    ("=MIRR(A1:C1,0.1,0.2)", _row(-5, 1, 4), 0.01980390271855703, "F2 there"),
    # EFFECT and NOMINAL: a logical is #VALUE!, the periods truncated, fewer than 1 #NUM!
    ("=NOMINAL(A1,B1)", _row(10, True), VALUE, "NOMINAL_EFFECT.xlsx C20"),
    ("=EFFECT(A1,B1)", _row(10, True), VALUE, "NOMINAL_EFFECT.xlsx D20"),
    ("=EFFECT(A1,B1)", _row(False, 2.9), VALUE, "NOMINAL_EFFECT.xlsx D21"),
    ("=NOMINAL(A1,B1)", _row(False, 2.9), VALUE, "NOMINAL_EFFECT.xlsx C21"),
    ("=EFFECT(0.5,4.5)", {}, 0.601806640625, "NOMINAL_EFFECT.xlsx D8"),
    ("=NOMINAL(0.5,4.5)", {}, 0.4267276788012868, "NOMINAL_EFFECT.xlsx C8"),
    ("=EFFECT(0.2,-1)", {}, NUM, "NOMINAL_EFFECT.xlsx D9"),
    # FV and PV below -100 %: a whole number of periods has its power, -100 % none for a
    # negative one; PMT takes no such rate
    ("=FV(-3,5,100,300,1)", {}, 11800.0, "FV.xlsx Sheet1!F8"),
    ("=FV(-3,5,100)", {}, -1100.0, "FV.xlsx Sheet1!G8"),
    ("=FV(-1,-2,1)", {}, DIV0, "FV.xlsx Sheet2!A1"),
    ("=FV(-1,-1,1)", {}, DIV0, "docs/FV.xlsx FV!A13"),
    ("=FV(-3,-3.5,1)", {}, NUM, "FV.xlsx Sheet2!B1"),
    ("=FV(-0.9,1,100,300,1)", {}, -39.99999999999999, "FV.xlsx Sheet1!F23"),
    ("=PV(-3,5,100,12,1)", {}, -68.375, "PV.xlsx Sheet1!F8"),
    ("=PV(-3,5,100)", {}, 34.375, "PV.xlsx Sheet1!G8"),
    ("=PV(-1,20,300)", {}, DIV0, "docs/PV.xlsx PV!A14"),
    ("=PV(-0.9,1,100,300,1)", {}, -3100.000000000001, "PV.xlsx Sheet1!F23"),
    ("=PMT(-3,5,100,300,1)", {}, NUM, "PMT.xlsx Sheet1!F8"),
    ("=PMT(0,3,100,300,1)", {}, -133.33333333333334, "PMT.xlsx Sheet1!F9"),
    # CUMIPMT: each period's interest on its balance, r·pv·((1+r)^n - (1+r)^(k-1)) /
    # ((1+r)^n - 1): to the 15th digit at a low rate (where the payment less the principal
    # misses it) and at a high one (where the balance as a future value misses it)
    ("=CUMIPMT(0.0083,36,8000,1,10,1)", {}, -520.1181191021385, "CUMPRINC_CUMIPMT.xlsx G2"),
    ("=CUMIPMT(0.0083,36,8000,3,10,0)", {}, -459.6252739600568, "CUMPRINC_CUMIPMT.xlsx G29"),
    ("=CUMIPMT(0.0083,36,8000,3,10,1)", {}, -455.8417871269037, "CUMPRINC_CUMIPMT.xlsx G31"),
    ("=CUMIPMT(0.3,36,8000,3,30,1)", {}, -50422.18667857409, "CUMPRINC_CUMIPMT.xlsx G4"),
    # FV: the value and the payments cancelling to their last bits are 0 (a sum's rule)
    ("=FV(1,3,-57.142857142857146,100,1)", {}, 0.0, "PMT.xlsx L3 (-1.1E-13 in doubles)"),
    ("=FV(1,3,-114.28571428571429,100)", {}, 0.0, "PMT.xlsx L5"),
    ("=FV(1,3,-78.57142857142858,100,1)", {}, 300.0000000000002, "PMT.xlsx L2"),
    # IPMT and PPMT in closed form, Excel's figures to the 15th digit at high rates (where
    # the balance less the payments, or the payment less the interest, cancels) and at low
    ("=IPMT(0.7,10,36,8000)", {}, -5599.996670420361, "IPMT_PPMT.xlsx H5"),
    ("=IPMT(0.8,10,36,18000,0,1)", {}, -7999.998980147468, "IPMT_PPMT.xlsx G7"),
    ("=IPMT(0.8,10,36,18000)", {}, -14399.998164265444, "IPMT_PPMT.xlsx H7"),
    ("=PPMT(0.3,5,36,8000,0,1)", {}, -0.4169797444000284, "IPMT_PPMT.xlsx I4"),
    ("=PPMT(0.3,5,36,8000)", {}, -0.542073667720037, "IPMT_PPMT.xlsx J4"),
    ("=IPMT(0.0083,1,36,8000)", {}, -66.4, "IPMT_PPMT.xlsx H2"),
    ("=PPMT(0.0083,1,36,8000,0,1)", {}, -255.86361744160234, "IPMT_PPMT.xlsx I2"),
    ("=PPMT(0.0083,1,36,8000)", {}, -191.5872854663676, "IPMT_PPMT.xlsx J2"),
    # IPMT and PPMT: a fraction of a period past nper is computed, nper + 1 is #NUM!
    ("=IPMT(0.1,3.9,3,8000,10,1)", {}, -26.866364667656377, "IPMT_PPMT.xlsx G17"),
    ("=PPMT(0.1,3.9,3,8000)", {}, -3186.4035714405527, "IPMT_PPMT.xlsx J17"),
    ("=IPMT(0.1,4,3,8000,10,1)", {}, NUM, "IPMT_PPMT.xlsx G18"),
    ("=PPMT(0.1,4,3,8000)", {}, NUM, "IPMT_PPMT.xlsx J18"),
    # RATE: a rate of -100 % or below is no answer
    ("=RATE(10,-1200,2000,0,1)", {}, NUM, "RATE.xlsx F17"),
    ("=RATE(10,-1200,2000)", {}, NUM, "RATE.xlsx G17"),
    ("=RATE(12,-200,8000)", {}, -0.1494854996186651, "RATE.xlsx G3"),
    # ... and more than Excel's documented 20 steps (300 periods), but not 3300 periods
    ("=RATE(300,-200,8000,0,1)", {}, 0.025627751816686105, "RATE.xlsx F19"),
    ("=RATE(300,-200,8000)", {}, 0.024984769422422157, "RATE.xlsx G19"),
    ("=RATE(3300,-200,8000,0,1)", {}, NUM, "RATE.xlsx F20"),
    ("=RATE(3300,-200,8000)", {}, NUM, "RATE.xlsx G20"),
    # XNPV: a blank, a text or a logical among the payments is #NUM!, so are a negative
    # rate and a date before 0; XIRR reads a blank as 0, a text or logical as #VALUE!
    ("=XNPV(0.1,A1:C1,D1:F1)", _row(20, None, 5, 44958, 44986, 45017), NUM, "XNPV.xlsx Q7"),
    ("=XNPV(0.1,A1:C1,D1:F1)", _row(-70, "hello", 5, 44958, 44986, 45017), NUM, "Q8 there"),
    ("=XNPV(0.1,A1:C1,D1:F1)", _row(-20, True, 6, 44958, 44986, 45017), NUM, "Q9 there"),
    ("=XIRR(A1:C1,D1:F1)", _row(-70, "hello", 50, 44958, 44986, 45017), VALUE, "R8 there"),
    ("=XIRR(A1:C1,D1:F1)", _row(-20, True, 50, 44958, 44986, 45017), VALUE, "R9 there"),
    ("=XNPV(-0.3,A1:C1,D1:F1)", _row(-100, 23, 30, 44958, 44986, 45017), NUM, "XIRR.xlsx Q14"),
    ("=XNPV(0.1,A1:B1,C1:D1)", _row(-20, 8, -100, 1), NUM, "XNPV.xlsx Q11"),
    ("=XIRR(A1:B1,C1:D1)", _row(-20, 8, -100, 1), NUM, "XNPV.xlsx R11"),
    (
        "=XNPV(0.2,A1:F1,G1:L1)",
        _row(-55, 10, 5, 5, 5, 5, 100, 120, 300, 101, 200, 150),
        -25.944223901397258,
        "XNPV.xlsx Q4",
    ),
    ("=XNPV(0,A1:C1,D1:F1)", _row(-20, 8, 5, 44958, 44986, 45017), -7.0, "at 0 %: the sum"),
    # IRR: a guess of -100 % or below is #VALUE!
    ("=IRR(A1:F1,-1)", _row(-20, 5, 5, -10, 5), VALUE, "IRR.xlsx General!N5"),
    ("=IRR(A1:F1,-10)", _row(-1000, 230, 200, 125, 200, 10), VALUE, "General!N3 there"),
    ("=IRR(A1:B1)", _row(-2, 5), 1.5, "IRR.xlsx Two Values!C2"),
    # AMORLINC and AMORDEGRC: Excel's reference examples, then the schedule around its end
    ("=AMORDEGRC(2400,39679,39813,300,1,0.15,1)", {}, 776.0, "Excel's AMORDEGRC page"),
    ("=AMORLINC(2400,39679,39813,300,1,0.15,1)", {}, 360.0, "Excel's AMORLINC page"),
]


@pytest.mark.parametrize(("formula", "cells", "expected", "where"), CASES)
def test_excel_saved_values(
    formula: str, cells: Mapping[str, object], expected: float | XlError, where: str
) -> None:
    found = ev(formula, cells)
    assert _agrees(found, expected), (where, found)


def test_irr_from_a_guess_just_above_minus_one_converges() -> None:
    # IRR.xlsx General!N4: Excel's -0.18845644425120334 from a guess of -0.9
    found = ev("=IRR(A1:F1,-0.9)", _row(-55, 10, 5, 5, 5, 5))
    assert isinstance(found, float) and abs(found + 0.18845644425120334) < 1e-9


def test_xirr_reads_a_blank_payment_as_zero() -> None:
    # XIRR.xlsx R20 and R21: Excel's one figure for a blank and for 0
    days = (45292, 45323, 45353, 45386, 45782, 46179)
    blank = ev("=XIRR(A1:F1,G1:L1)", _row(-20, 5, 5, None, None, 5, *days))
    zero = ev("=XIRR(A1:F1,G1:L1)", _row(-20, 5, 5, 0, 0, 5, *days))
    assert isinstance(blank, float) and blank == zero
    assert abs(blank + 0.2371315099298954) < 1e-7


# AMORDEGRC's schedule for Excel's example: 330 prorated, then 37.5 % of the value left,
# rounded, half what is left in the period before the last and nothing after.
@pytest.mark.parametrize(
    ("period", "degressive", "linear"),
    [
        (0, 330.0, 131.8032786885246),
        (2, 485.0, 360.0),
        (4, 190.0, 360.0),
        (5, 158.0, 360.0),
        (6, 0.0, 168.1967213114754),
        (7, 0.0, 0.0),
    ],
)
def test_amortisation_schedules(period: int, degressive: float, linear: float) -> None:
    assert ev(f"=AMORDEGRC(2400,39679,39813,300,{period},0.15,1)") == degressive
    assert _agrees(ev(f"=AMORLINC(2400,39679,39813,300,{period},0.15,1)"), linear)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=AMORLINC(2400,39813,39679,300,1,0.15,1)", NUM),  # bought after the first period
        ("=AMORLINC(2400,39679,39679,300,1,0.15,1)", 360.0),  # bought on its last day
        ("=AMORLINC(2400,39679,39813,2401,1,0.15,1)", NUM),  # salvage above the cost
        ("=AMORLINC(2400,39679,39813,-1,1,0.15,1)", NUM),
        ("=AMORLINC(2400,39679,39813,300,-1,0.15,1)", NUM),
        ("=AMORLINC(2400,39679,39813,300,1,0,1)", NUM),
        ("=AMORLINC(2400,39679,39813,300,1,0.15,2)", NUM),  # basis 2 is not Excel's
        ("=AMORLINC(2400,39679,39813,300,1,0.15,5)", NUM),
        ("=AMORLINC(2400,39679,39813,300,1,0.15)", 360.0),  # basis 0
        ("=AMORLINC(2400,39679,39813,300,TRUE,0.15,1)", VALUE),
        ("=AMORLINC(0,39679,39813,0,1,0.15,1)", 0.0),  # nothing to write off
        ("=AMORDEGRC(0,39679,39813,0,1,0.15,1)", 0.0),
        ("=AMORDEGRC(2400,39679,39813,300,1,0.25,1)", 776.0),  # a life of 4: 1.5
        ("=AMORDEGRC(2400,39679,39813,300,1,0.22,1)", NUM),  # 4.5 years: none
        ("=AMORDEGRC(2400,39679,39813,300,1,0.4,1)", NUM),  # 2.5 years: none
        ("=AMORDEGRC(2400,39679,39813,300,1,0.2,1)", 820.0),  # 5 years: 2, 0.4 of 2049
    ],
)
def test_amortisation_arguments(formula: str, expected: float | XlError) -> None:
    assert ev(formula) == expected
