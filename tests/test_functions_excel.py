"""The functions added in the second round, on the examples of Excel's function reference
(support.microsoft.com: each function's page), the figures as the page shows them."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from fide_rating.engine.formula import col_letters
from fide_rating.engine.formula.values import DIV0, NA, NUM, VALUE, XlError
from fide_rating.engine.functions.base import DRAWS, MOMENT
from fide_rating.engine.recalc import evaluate, recalc_file
from test_formula import book, ev

CALC = XlError("#CALC!")


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=FLOOR.MATH(24.3,5)", 20.0),
        ("=FLOOR.MATH(6.7)", 6.0),
        ("=FLOOR.MATH(-8.1,2)", -10.0),
        ("=FLOOR.MATH(-5.5,2,-1)", -4.0),
        ("=CEILING.MATH(24.3,5)", 25.0),
        ("=CEILING.MATH(6.7)", 7.0),
        ("=CEILING.MATH(-8.1,2)", -8.0),
        ("=CEILING.MATH(-5.5,2,-1)", -6.0),
        ("=FLOOR.PRECISE(-3.2,-1)", -4.0),
        ("=FLOOR.PRECISE(3.2,1)", 3.0),
        ("=FLOOR.PRECISE(-3.2,1)", -4.0),
        ("=FLOOR.PRECISE(3.2,-1)", 3.0),
        ("=FLOOR.PRECISE(3.2)", 3.0),
        ("=CEILING.PRECISE(4.3)", 5.0),
        ("=CEILING.PRECISE(-4.3)", -4.0),
        ("=CEILING.PRECISE(4.3,2)", 6.0),
        ("=CEILING.PRECISE(4.3,-2)", 6.0),
        ("=CEILING.PRECISE(-4.3,2)", -4.0),
        ("=CEILING.PRECISE(-4.3,-2)", -4.0),
        ("=ISO.CEILING(4.3)", 5.0),
        ("=ISO.CEILING(-4.3,-2)", -4.0),
        ("=CEILING.MATH(0.3,0.1)", 0.3),  # 15 digits: 0.3/0.1 is 3
        ("=TIME(12,0,0)", 0.5),
        ("=TIME(27,0,0)", 0.125),  # past 24 hours it wraps
        ("=TIME(0,750,0)", 750 / 1440),  # 750 minutes: 12:30 PM
        ("=TIME(-1,0,0)", NUM),
        ("=GCD(5,2)", 1.0),
        ("=GCD(24,36)", 12.0),
        ("=GCD(5,0)", 5.0),
        ("=GCD(-1,2)", NUM),
        ("=LCM(5,2)", 10.0),
        ("=LCM(24,36)", 72.0),
        ('=NUMBERVALUE("2.500,27",",",".")', 2500.27),
        ('=NUMBERVALUE("3.5%")', 0.035),
        ('=NUMBERVALUE(" 3 000 ")', 3000.0),
        ('=NUMBERVALUE("1.5.5")', VALUE),
        ("=FIXED(1234.567,1)", "1,234.6"),
        ("=FIXED(1234.567,-1)", "1,230"),
        ("=FIXED(-1234.567,-1,TRUE)", "-1230"),
        ("=FIXED(44.332)", "44.33"),
        (
            '=TEXTJOIN(" ",TRUE,"The","sun","will","come","up","tomorrow.")',
            "The sun will come up tomorrow.",
        ),
        ('=TEXTJOIN(",",FALSE,"a","","b")', "a,,b"),
        ('=TEXTJOIN(",",TRUE,"a","","b")', "a,b"),
        ('=VALUETOTEXT("Seattle",1)', '"Seattle"'),
        ('=VALUETOTEXT("Seattle",0)', "Seattle"),
        (
            '=ARRAYTOTEXT({TRUE,#VALUE!;1234.01234,"Seattle"},0)',
            "TRUE, #VALUE!, 1234.01234, Seattle",
        ),
        (
            '=ARRAYTOTEXT({TRUE,#VALUE!;1234.01234,"Seattle"},1)',
            '{TRUE,#VALUE!;1234.01234,"Seattle"}',
        ),
        ('=REGEXEXTRACT("DylanWilliams","[A-Z][a-z]+")', "Dylan"),
        ('=REGEXTEST("alpha","^a")', True),
        ('=REGEXREPLACE("2024-05-01","(\\d+)-(\\d+)-(\\d+)","$3/$2/$1")', "01/05/2024"),
        ('=REGEXEXTRACT("abc","\\d")', NA),
        ("=GEOMEAN(4,5,8,7,11,4,3)", pytest.approx(5.476987, abs=5e-7)),
        ("=GEOMEAN(1,0)", NUM),
        ("=HARMEAN(4,5,8,7,11,4,3)", pytest.approx(5.028375962, abs=5e-10)),
        ("=NPER(0.12/12,-100,-1000,10000,1)", pytest.approx(59.6738657, abs=5e-8)),
        ("=NPER(0.12/12,-100,-1000,10000)", pytest.approx(60.0821229, abs=5e-8)),
        ("=NPER(0.12/12,-100,-1000)", pytest.approx(-9.57859404, abs=5e-9)),
        ("=RATE(4*12,-200,8000)", pytest.approx(0.0077014725, abs=5e-11)),
        ("=IPMT(0.1/12,1,3*12,8000)", pytest.approx(-66.67, abs=5e-3)),
        ("=PPMT(0.1/12,1,2*12,2000)", pytest.approx(-75.62, abs=5e-3)),
        ("=LET(x,1,x+1)", 2.0),
        ("=LET(total,SUM(1,2),total*total)", 9.0),
        ("=ERROR.TYPE(#N/A)", 7.0),
        ("=ERROR.TYPE(1)", NA),
        ('=TEXT(FIXED(1,0),"0")', "1"),
        ("=ODD(1.5)", 3.0),
        ("=EVEN(-1)", -2.0),
        ("=MROUND(10,3)", 9.0),
        ("=MROUND(-10,-3)", -9.0),
        ("=MROUND(5,-2)", NUM),
        ("=QUOTIENT(-10,3)", -3.0),
        ("=FACT(5)", 120.0),
        ("=COMBIN(8,2)", 28.0),
        ("=ROMAN(499)", "CDXCIX"),
        ('=DAYS360("2011-01-30","2011-12-31")', 330.0),  # the page's 1/30/2011
        ("=WEEKNUM(DATE(2012,3,9))", 10.0),
        ("=WEEKNUM(DATE(2012,3,9),2)", 11.0),
        ("=ISOWEEKNUM(DATE(2012,3,9))", 10.0),
        ("=NETWORKDAYS(DATE(2012,10,1),DATE(2013,3,1))", 110.0),
        ("=WORKDAY(DATE(2008,10,1),151)", 39933.0),  # 30 April 2009
        ("=NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31))", 22.0),
        ("=NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,2,1),7)", 24.0),  # Friday, Saturday off
        ("=NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,2,1),7,{38719,38733})", 22.0),
        ("=WORKDAY.INTL(DATE(2012,1,1),30,0)", NUM),
        ('=DATEVALUE("22-Aug-2011")', 40777.0),
        ("=EFFECT(0.0525,4)", pytest.approx(0.053542667, abs=5e-10)),
        ("=NOMINAL(0.053543,4)", pytest.approx(0.05250032, abs=5e-9)),
        ("=SYD(300000,75000,10,1)", pytest.approx(40909.09, abs=5e-3)),
        ("=DDB(2400,300,10*365,1)", pytest.approx(1.32, abs=5e-3)),
        ("=TRIMMEAN({4,5,6,7,2,3,4,5,1,2,3},0.2)", pytest.approx(3.777777778, abs=5e-10)),
        ("=PERCENTILE({1,3,2,4},0.3)", 1.9),
        ("=QUARTILE({1,2,4,7,8,9,10,12},1)", 3.5),
        ("=PERCENTILE.EXC({1,2,3,6,6,6,7,8,9},0.25)", 2.5),
        ("=MEDIAN(1,2,3,4,5,6)", 3.5),
        ("=MODE.SNGL(5.6,4,4,3,2,4)", 4.0),
        ("=RANK.AVG(94,{89,88,92,101,94,97,95})", 4.0),
        ("=CORREL({3,2,4,5,6},{9,7,12,15,17})", pytest.approx(0.997054486, abs=5e-10)),
        ("=SUMX2MY2({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", -55.0),
    ],
)
def test_excels_examples(formula: str, expected: object) -> None:
    got = ev(formula)
    assert got == expected, formula


def test_criteria_aggregates_on_excels_examples() -> None:
    """MINIFS, MAXIFS, AVERAGEIFS: the rows where every criterion holds; none: 0 for MINIFS
    and MAXIFS, #DIV/0! for AVERAGEIFS."""
    cells = {"A2": 89, "A3": 93, "A4": 96, "A5": 85, "A6": 91, "A7": 88,
             "B2": 1, "B3": 2, "B4": 2, "B5": 3, "B6": 1, "B7": 1}  # fmt: skip
    assert ev("=MAXIFS(A2:A7,B2:B7,1)", cells) == 91.0
    assert ev("=MINIFS(A2:A7,B2:B7,1)", cells) == 88.0
    assert ev("=MINIFS(A2:A7,B2:B7,9)", cells) == 0.0
    assert ev('=AVERAGEIFS(A2:A7,B2:B7,">1")', cells) == pytest.approx(274 / 3)
    assert ev("=AVERAGEIFS(A2:A7,B2:B7,9)", cells) == DIV0
    assert ev("=MAXIFS(A2:A7,B2:B6,1)", cells) == VALUE  # ranges of different sizes


def test_irr_xirr_frequency_aggregate() -> None:
    flows = {"A2": -70000, "A3": 12000, "A4": 15000, "A5": 18000, "A6": 21000, "A7": 26000}
    assert ev("=IRR(A2:A6)", flows) == pytest.approx(-0.021244848, abs=5e-10)
    assert ev("=IRR(A2:A7)", flows) == pytest.approx(0.086630948, abs=5e-10)
    assert ev("=IRR(A2:A4,-0.1)", flows) == pytest.approx(-0.443506941, abs=5e-10)
    assert ev("=IRR(A3:A4)", flows) == NUM  # no negative flow
    day = {k: float((d - dt.date(1899, 12, 30)).days) for k, d in (
        ("B1", dt.date(2008, 1, 1)), ("B2", dt.date(2008, 3, 1)), ("B3", dt.date(2008, 10, 30)),
        ("B4", dt.date(2009, 2, 15)), ("B5", dt.date(2009, 4, 1)))}  # fmt: skip
    values = {"A1": -10000, "A2": 2750, "A3": 4250, "A4": 3250, "A5": 2750}
    assert ev("=XIRR(A1:A5,B1:B5,0.1)", {**values, **day}) == pytest.approx(0.373362535, 5e-9)
    scores = {f"A{i}": v for i, v in enumerate([79, 85, 78, 85, 50, 81, 95, 88, 97], 1)}
    b = book({**scores, "B1": 70, "B2": 79, "B3": 89}, {"C1": "=FREQUENCY(A1:A9,B1:B3)"})
    assert b.value("S", 1, 3) == 1.0
    grid = {**scores, "A10": DIV0}
    assert ev("=AGGREGATE(9,6,A1:A10)", grid) == 738.0  # option 6: errors left out
    assert ev("=AGGREGATE(9,4,A1:A10)", grid) == DIV0
    assert ev("=AGGREGATE(14,6,A1:A10,2)", grid) == 95.0  # LARGE, errors left out
    assert ev("=AGGREGATE(15,6,A1:A10/(A1:A10>80),1)", grid) == 81.0  # an array: computed


def test_spilling_functions(tmp_path: Path) -> None:
    """FILTER, SORT, UNIQUE, SEQUENCE, TEXTSPLIT and FREQUENCY spill over the range Excel saved
    for them (an array formula's ``ref``), each cell its element."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    for r, (name, score) in enumerate([("b", 3), ("a", 1), ("b", 3), ("c", 2)], 1):
        ws.cell(r, 1, name)
        ws.cell(r, 2, score)
    spills = {
        "D1": ("D1:D4", "=_xlfn._xlws.SORT(B1:B4)"),
        "E1": ("E1:E3", "=_xlfn.UNIQUE(A1:A4)"),
        "F1": ("F1:F2", '=_xlfn._xlws.FILTER(B1:B4,A1:A4="b")'),
        "G1": ("G1:I2", "=_xlfn.SEQUENCE(2,3,3,2)"),
        "J1": ("J1:K1", '=_xlfn.TEXTSPLIT("Dakota Lennox"," ")'),
        "L1": ("L1:M2", '=_xlfn.TEXTSPLIT("1,2;3",",",";")'),
        "N1": ("N1:N2", '=_xlfn._xlws.FILTER(B1:B4,A1:A4="z","none")'),
        "O1": ("O1:O4", "=_xlfn._xlws.SORT(A1:B4,2,-1)"),
    }
    for at, (ref, text) in spills.items():
        for line in ws[ref]:
            for cell in line:  # Excel writes each cell of a spilled range with its value
                cell.value = 0
        ws[at] = ArrayFormula(ref, text)
    path = tmp_path / "spill.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {f"{col_letters(c)}{r}": v for (_, r, c), v in out.values.items()}
    assert [got[f"D{r}"] for r in range(1, 5)] == [1.0, 2.0, 3.0, 3.0]
    assert [got[f"E{r}"] for r in range(1, 4)] == ["b", "a", "c"]
    assert [got["F1"], got["F2"]] == [3.0, 3.0]
    assert [got[c] for c in ("G1", "H1", "I1", "G2", "H2", "I2")] == [3.0, 5.0, 7.0, 9.0, 11.0,
                                                                      13.0]  # fmt: skip
    assert [got["J1"], got["K1"]] == ["Dakota", "Lennox"]
    assert [got["L1"], got["M1"], got["L2"], got["M2"]] == ["1", "2", "3", NA]
    assert got["N1"] == "none"
    assert [got[f"O{r}"] for r in range(1, 5)] == ["b", "b", "c", "a"]  # stable: b's first
    assert not out.problems


def test_volatile_functions_are_computed_and_marked(tmp_path: Path) -> None:
    """RAND, RANDBETWEEN, NOW and TODAY are computed at each recalculation, as Excel does on
    saving; the cells that rest on them are marked, never compared with an older value."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["A3"] = "=RAND()", "=RANDBETWEEN(1,6)", "=TODAY()"
    ws["A4"], ws["A5"], ws["A6"] = "=NOW()", "=A1*2", "=1+1"
    ws["A7"] = "=INT(A4)-A3"
    path = tmp_path / "volatile.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {r: out.values[("Sheet", r, 1)] for r in range(1, 8)}
    assert 0 <= got[1] < 1 and got[5] == 2 * got[1]  # type: ignore[operator]
    assert got[2] in {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    assert got[3] == (dt.date.today() - dt.date(1899, 12, 30)).days
    assert got[7] in (0.0, 1.0)  # NOW's day is TODAY's (1 across midnight)
    assert out.volatile == {("Sheet", r, 1) for r in (1, 2, 3, 4, 5, 7)}


def test_the_volatile_functions_as_of_a_moment_and_with_repeatable_draws(tmp_path: Path) -> None:
    """TODAY and NOW give the moment set (MOMENT), RAND, RANDBETWEEN and RANDARRAY the draws of
    the generator set (DRAWS): the same generator seeded alike gives the same figures."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["A3"] = "=TODAY()", "=NOW()", "=RAND()"
    ws["A4"], ws["A5"] = "=RANDBETWEEN(1,1000000)", "=SUM(_xlfn.RANDARRAY(3,1))"
    path = tmp_path / "volatile.xlsx"
    wb.save(path)

    def run(seed: int) -> list[object]:
        tokens = MOMENT.set(dt.datetime(2024, 3, 1, 18)), DRAWS.set(random.Random(seed))
        try:
            out = evaluate(path.read_bytes(), path)[0]
        finally:
            MOMENT.reset(tokens[0])
            DRAWS.reset(tokens[1])
        return [out.values[("Sheet", r, 1)] for r in range(1, 6)]

    first, again, other = run(7), run(7), run(8)
    assert first[:2] == [45352.0, 45352.75]  # 2024-03-01, 18:00
    assert first == again
    assert first[2:] != other[2:] and other[:2] == first[:2]
    assert first[2] == random.Random(7).random()


def test_the_1904_date_system(tmp_path: Path) -> None:
    """In a workbook of the 1904 date system day 0 is 1904-01-01: DATE, YEAR, WEEKDAY, TEXT
    and a date written as text all count from there (Excel's date systems)."""
    wb = openpyxl.Workbook()
    wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904  # type: ignore[attr-defined]
    ws = wb.active
    assert ws is not None
    ws["A1"] = "=DATE(1904,1,1)"
    ws["A2"] = "=DATE(2024,3,1)"
    ws["A3"] = '=YEAR(A2)&"-"&MONTH(A2)&"-"&DAY(A2)'
    ws["A4"] = "=WEEKDAY(A2)"  # a Friday
    ws["A5"] = '=TEXT(A2,"dddd d mmmm yyyy")'
    ws["A6"] = '=VALUE("2024-03-01")'
    ws["A7"] = "=EOMONTH(A2,0)"
    path = tmp_path / "mac.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {r: out.values[("Sheet", r, 1)] for r in range(1, 8)}
    serial = float((dt.date(2024, 3, 1) - dt.date(1904, 1, 1)).days)
    assert (got[1], got[2], got[6]) == (0.0, serial, serial)
    assert (got[3], got[4], got[5]) == ("2024-3-1", 6.0, "Friday 1 March 2024")
    assert got[7] == serial + 30
    assert not out.problems


def _iterative(path: Path, count: int, circle: str) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    wb.calculation.iterate = True
    wb.calculation.iterateCount = count
    wb.calculation.iterateDelta = 0.001
    ws["A1"] = circle
    ws["A2"] = "=A1"
    ws["A3"] = "=A1*2"
    wb.save(path)
    return path


def test_iterative_calculation_of_circular_references(tmp_path: Path) -> None:
    """With iterative calculation on, a circle is computed again and again from the values
    the file holds, up to iterateCount passes or until no value moves by iterateDelta, and the
    last values are kept, settled or not, as Excel keeps them; the cells after the circle show
    its last values (A2 = A1). With it off, the circle is reported, its cells named."""
    # climbs by 10 to a fixed point, 100, whatever the order; in 5 passes, to 50; a circle that
    # never settles, after 100 passes; one that settles to within iterateDelta (p = 100 + 0.2p:
    # Excel stops short of 125, once a pass moves it by less than 0.001)
    for name, count, circle, a1 in (("a", 100, "=MIN(100,A2+10)", 100.0),
                                    ("b", 5, "=MIN(100,A2+10)", 50.0),
                                    ("c", 100, "=A2+1", 100.0),
                                    ("d", 100, "=100+0.2*A2", 124.999936)):  # fmt: skip
        out = recalc_file(_iterative(tmp_path / f"{name}.xlsx", count, circle),
                          out_dir=tmp_path / "o")  # fmt: skip
        values = [out.values[("Sheet", r, 1)] for r in (1, 2, 3)]
        assert values == pytest.approx([a1, a1, 2 * a1], rel=1e-12), name
        assert not out.problems, name
    wb = openpyxl.load_workbook(tmp_path / "a.xlsx")
    wb.calculation.iterate = False
    wb.save(tmp_path / "e.xlsx")
    out = recalc_file(tmp_path / "e.xlsx", out_dir=tmp_path / "o")
    circle = "Sheet!A1 -> Sheet!A2 -> Sheet!A1"
    assert {p.cell: p.reason for p in out.problems} == {
        "A1": f"circular reference: {circle}",
        "A2": f"circular reference: {circle}",
        "A3": f"depends on the circular reference {circle}",
    }


def test_database_functions_on_excels_example() -> None:
    """DSUM and the others: criteria rows OR'ed, conditions in a row AND'ed; a text matches
    the texts that begin with it; DGET of several records is #NUM!."""
    cells: dict[str, object] = {"G1": "Tree", "H1": "Height", "I1": "Height", "G2": "=Apple",
                                "H2": ">10", "I2": "<16", "G3": "=Pear"}  # fmt: skip
    rows = [("Tree", "Height", "Age", "Yield", "Profit"), ("Apple", 18, 20, 14, 105),
            ("Pear", 12, 12, 10, 96), ("Cherry", 13, 14, 9, 105), ("Apple", 14, 15, 10, 75),
            ("Pear", 9, 8, 8, 76.8), ("Apple", 8, 9, 6, 45)]  # fmt: skip
    for r, row in enumerate(rows, 1):
        for c, v in enumerate(row):
            cells[f"{'ABCDE'[c]}{r}"] = v
    assert ev('=DCOUNT(A1:E7,"Age",G1:I2)', cells) == 1.0
    assert ev('=DMAX(A1:E7,"Profit",G1:I3)', cells) == 96.0
    assert ev('=DSUM(A1:E7,"Profit",G1:G2)', cells) == 225.0
    assert ev('=DSUM(A1:E7,"Profit",G1:I2)', cells) == 75.0
    assert ev('=DAVERAGE(A1:E7,"Yield",G1:H2)', cells) == 12.0
    assert ev('=DGET(A1:E7,"Yield",G1:I3)', cells) == NUM
    assert ev('=DSUM(A1:E7,"Profit",J1:J2)', {**cells, "J1": "Tree", "J2": "Ch"}) == 105.0
    assert ev('=DSUM(A1:E7,"Nope",G1:G2)', cells) == VALUE


def test_cell_function() -> None:
    assert ev('=CELL("address",B7)') == "$B$7"
    assert ev('=CELL("row",B7:C9)') == 7.0
    assert ev('=CELL("col",C1)') == 3.0
    assert ev('=CELL("contents",A1)', {"A1": "x"}) == "x"
    assert ev('=CELL("type",A1)', {"A1": "x"}) == "l"
    assert ev('=CELL("type",A2)', {"A1": "x"}) == "b"
    assert ev('=CELL("type",A1)', {"A1": 1}) == "v"
    assert ev('=CELL("nonsense",A1)') == VALUE
    assert CALC.code == "#CALC!"
