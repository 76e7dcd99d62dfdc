"""The formula engine on its own: syntax, values and the standard functions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import pytest

from fide_rating.engine.book import Book
from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula import Unsupported, XlError
from fide_rating.engine.formula.parser import parse
from fide_rating.engine.formula.values import DIV0, NA, NAME, NULL, NUM, REF, VALUE


def book(cells: Mapping[str, object], formulas: dict[str, str] | None = None) -> Book:
    """A one-sheet book "S": constants and formulas by A1 address."""
    b = Book()
    b.sheets["S"] = "S"
    compiler = Compiler({"RATE": "S!$A$1", "TWICE": "2*S!$A$1"})
    max_r = max_c = 0
    for ref, value in cells.items():
        r, c = _rc(ref)
        plain_int = isinstance(value, int) and not isinstance(value, bool)
        b.results[("S", r, c)] = float(value) if plain_int else value  # type: ignore[arg-type,assignment]
        max_r, max_c = max(max_r, r), max(max_c, c)
    for ref, text in (formulas or {}).items():
        r, c = _rc(ref)
        b.compiled[("S", r, c)] = compiler.compile(text.lstrip("="), r, c)
        max_r, max_c = max(max_r, r), max(max_c, c)
    b.extents["S"] = (max_r, max_c)
    return b


def _rc(ref: str) -> tuple[int, int]:
    letters = ref.rstrip("0123456789")
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    return int(ref[len(letters) :]), col


def ev(text: str, cells: Mapping[str, object] | None = None) -> object:
    b = book(cells or {}, {"Z99": text})
    return b.value("S", 99, 26)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=1+2*3^2", 19.0),
        ("=-2^2", 4.0),
        ("=2^3^2", 64.0),
        ("=(1+2)*3", 9.0),
        ("=10%", 0.1),
        ('="a"&1&TRUE', "a1TRUE"),
        ("=1/0", DIV0),
        ('=1+"x"', VALUE),
        ('="2"+3', 5.0),
        ("=1=1.0", True),
        ('="abc"="ABC"', True),
        ('=1<"a"', True),
        ("=#N/A", NA),
        ("=IF(1>2,1/0,7)", 7.0),
        ("=IF(FALSE,1)", False),
        ("=IFERROR(1/0,5)", 5.0),
        ("=IFNA(NA(),3)", 3.0),
        ("=AND(TRUE,1,2>1)", True),
        ("=OR(FALSE,0)", False),
        ("=NOT(0)", True),
        ("=ROUND(2.5,0)", 3.0),
        ("=ROUND(-2.5,0)", -3.0),
        ("=ROUND(1.005,2)", 1.01),
        ("=ROUNDDOWN(-1.99,0)", -1.0),
        ("=INT(-1.5)", -2.0),
        ("=MOD(-7,3)", 2.0),
        ("=ABS(-3)", 3.0),
        ('=LEN("abcd")&LEFT("abc",2)&RIGHT("abc")&MID("abcdef",2,3)', "4abcbcd"),
        ('=UPPER("a")&LOWER("B")&TRIM("  x  y ")', "Abx y"),
        ("=YEAR(DATE(2024,3,1))*100+MONTH(DATE(2024,14,1))", 202402.0),
        ("=DATE(2024,3,1)", float((dt.date(2024, 3, 1) - dt.date(1899, 12, 30)).days)),
        ("=CHOOSE(2,10,20,30)", 20.0),
        ("=RATE*2", 3.0),
        ("=TWICE+1", 4.0),
        ('=FIDE_EXPECT(2600,2500,,"2012-07")', 0.64),
        ("=FIDE_ROUND(-2.5)", -3.0),
        ('=FIDE_DP("x")', "#FIDE! p: expected a fractional score from 0 to 1, got 'x'"),
        ("=FIDE_DP(1/0)", DIV0),
    ],
)
def test_expressions(formula: str, expected: object) -> None:
    assert ev(formula, {"A1": 1.5}) == expected


def test_ranges_and_aggregates() -> None:
    cells: dict[str, object] = {
        "A1": 1,
        "A2": 2,
        "A3": "x",
        "A4": True,
        "B1": 10,
        "B2": 20,
        "B3": 30,
        "B4": 40,
    }
    assert ev("=SUM(A1:A4)", cells) == 3.0  # texts and logicals in a range are skipped
    # a reference, even to one cell, skips texts and logicals (Excel's SUM: "only numbers in
    # that array or reference are counted"); values typed into the formula count
    assert ev('=SUM(A1,A4,"3")', cells) == 4.0
    assert ev('=SUM(1,TRUE,"3")', cells) == 5.0
    assert ev("=COUNT(A1:A4)", cells) == 2.0
    assert ev("=COUNTA(A1:A5)", cells) == 4.0
    assert ev("=COUNTBLANK(A1:A5)", cells) == 1.0
    assert ev("=AVERAGE(B1:B4)", cells) == 25.0
    assert ev("=AVERAGE(C1:C3)", cells) == DIV0
    assert ev("=MAX(B1:B4)-MIN(B1:B4)", cells) == 30.0
    assert ev('=COUNTIF(B1:B4,">15")', cells) == 3.0
    assert ev('=COUNTIF(A1:A4,"x")', cells) == 1.0
    assert ev('=SUMIF(B1:B4,">=20")', cells) == 90.0
    assert ev('=SUMIF(A1:A4,"<>x",B1:B4)', cells) == 70.0
    assert ev('=COUNTIFS(B1:B4,">10",B1:B4,"<40")', cells) == 2.0
    assert ev("=SUMPRODUCT(A1:A2,B1:B2)", cells) == 50.0
    assert ev("=SUMPRODUCT((B1:B4>15)*B1:B4)", cells) == 90.0
    assert ev("=INDEX(B1:B4,3)", cells) == 30.0
    assert ev("=INDEX(A1:B4,2,2)", cells) == 20.0
    assert ev("=INDEX(B1:B4,9)", cells) == REF
    assert ev("=MATCH(30,B1:B4,0)", cells) == 3.0
    assert ev("=MATCH(25,B1:B4)", cells) == 2.0
    assert ev("=MATCH(5,B1:B4,0)", cells) == NA
    assert ev("=VLOOKUP(2,A1:B4,2,FALSE)", cells) == 20.0
    assert ev("=ROWS(A1:B4)*10+COLUMNS(A1:B4)", cells) == 42.0
    assert ev("=LARGE(B1:B4,2)+SMALL(B1:B4,1)", cells) == 40.0
    assert ev("=RANK(30,B1:B4)", cells) == 2.0
    assert ev("=MEDIAN(B1:B4)", cells) == 25.0
    assert ev("=SUM(B:B)", cells) == 100.0
    assert ev("=ISBLANK(C1)", cells) is True
    assert ev("=ISNUMBER(A3)", cells) is False
    assert ev("=ISTEXT(A3)", cells) is True
    assert ev("=ISERROR(1/0)", cells) is True
    assert ev("=N(A4)+N(A3)", cells) == 1.0
    assert ev("=C1", cells) == 0.0  # a formula showing an empty cell shows 0


def test_relative_formulas_share_one_closure() -> None:
    compiler = Compiler()
    first = compiler.compile("B5*2+$A$1", 5, 3)
    assert compiler.compile("B6*2+$A$1", 6, 3) is first
    assert compiler.compile("B6*2+$A$1", 5, 3) is not first  # another shape
    assert compiler.compile('IF(B5="","",B5)', 5, 3) is compiler.compile('IF(B9="","",B9)', 9, 3)
    b = book({"A1": 1, "B5": 3, "B6": 4}, {"C5": "=B5*2+$A$1", "C6": "=B6*2+$A$1"})
    assert (b.value("S", 5, 3), b.value("S", 6, 3)) == (7.0, 9.0)
    # whole columns are not shifted by the shape
    b = book({"A1": 1, "A2": 2, "B1": 5}, {"D1": "=SUM(A:A)", "E1": "=SUM(B:B)"})
    assert (b.value("S", 1, 4), b.value("S", 1, 5)) == (3.0, 5.0)


def test_sheets_and_errors() -> None:
    b = book({"A1": 2}, {"B1": "=S!A1*2", "B2": "='S'!$A$1+1", "B3": "=Nope!A1"})
    assert b.value("S", 1, 2) == 4.0
    assert b.value("S", 2, 2) == 3.0
    assert b.value("S", 3, 2) == REF
    assert isinstance(REF, XlError) and str(REF) == "#REF!"


@pytest.mark.parametrize(
    "formula", ["=CUBEVALUE(1)", "=Table1[Col]", "=SUMIF((A1,A2),1)", "=1+", '=SUM(A1:"x")']
)
def test_unsupported_is_reported_at_compile_time(formula: str) -> None:
    with pytest.raises(Unsupported):
        Compiler().compile(formula.lstrip("="), 1, 1)


def test_a_function_excel_does_not_know_is_a_name_error_unless_macros_may_define_it() -> None:
    """Excel shows #NAME? for a function it does not know; a workbook with macros (or an
    add-in's function, _xll.) may define one: reported, never taken for #NAME?."""
    assert ev("=FOO(1)") == NAME
    assert ev("=ISERROR(FOO(1))") is True
    with pytest.raises(Unsupported, match="FOO is not an Excel function"):
        Compiler(macros=True).compile("FOO(1)", 1, 1)
    with pytest.raises(Unsupported, match="FOO is a function of an add-in"):
        Compiler().compile("_xll.FOO(1)", 1, 1)
    with pytest.raises(Unsupported, match="CUBEVALUE is an Excel function recalc does not"):
        Compiler(macros=True).compile('CUBEVALUE("x")', 1, 1)
    # another workbook's function, as xlwings' udfs/dynamic_array_tests.xlsm calls its add-in's
    with pytest.raises(Unsupported, match=r"^SQL is a function of an add-in or of another"):
        Compiler().compile("[1]!sql(A14,A1:D11)", 1, 1)


def test_a_function_value_called_where_it_is_made_parses() -> None:
    """Excel's grammar lets a call or a bracket be called: ``LAMBDA(x,x+1)(5)`` (IronCalc's
    LOGICAL/LAMBDA.xlsx), ``IFERROR(LAMBDA(...)(K1:M1), 0)`` (INFORMATION/error_broadcast.xlsx),
    ``LAMBDA(x,LAMBDA(y,x-y))(10)(3)``; a space before the bracket stays the intersection."""
    lam = ("call", "LAMBDA", [("name", "x"), ("name", "x")])
    assert parse("LAMBDA(x,x)(5)", 1, 1) == ("invoke", lam, [("num", 5.0)])
    assert parse("(LAMBDA(x,x))(5)", 1, 1) == ("invoke", lam, [("num", 5.0)])
    assert parse("LAMBDA(x,x)(5)(1,)", 1, 1) == (
        "invoke", ("invoke", lam, [("num", 5.0)]), [("num", 1.0), ("missing",)])  # fmt: skip
    assert parse("LAMBDA(x,x)()", 1, 1) == ("invoke", lam, [])
    assert parse("IFERROR(LAMBDA(x,x)(A1:B1),0)", 1, 1)[2][0][0] == "invoke"
    assert parse("SUM(A1) (A1)", 1, 1)[0] == "isect"
    assert parse("S!Fn(2)", 1, 1) == ("invoke", ("name", "S!Fn"), [("num", 2.0)])
    assert parse("Rate (A1)", 1, 1)[0] == "isect"
    assert parse("A1:LAMBDA(x,x)(B2)", 1, 1)[0] == "range"  # a call may give a reference
    with pytest.raises(Unsupported, match="expected , or \\) in the arguments of the LAMBDA"):
        parse("LAMBDA(x,x)(5 6", 1, 1)
    assert ev("=LAMBDA(x,x+1)(5)") == 6.0


def test_a_name_the_workbook_does_not_define_is_a_name_error() -> None:
    assert ev("=UNKNOWNNAME+1") == NAME  # as Excel saves it (=na, for NA(), is #NAME?)
    assert ev("=ISERROR(na)") is True


def test_reference_operators() -> None:
    """Excel's reference operators: the range ``:`` between any two references (INDEX and
    OFFSET give references) and the space, their intersection (#NULL! where they do not
    meet); both bind tighter than any other operator."""
    cells = {"A1": 1, "A2": 2, "A3": 3, "A4": 4, "B1": 10, "B2": 20}
    assert ev("=SUM(A1:B2 B1:C3)", cells) == 30.0
    assert ev("=SUM(A1:A2 C1:C2)", cells) == NULL
    assert ev("=SUM(INDEX(A1:A4,2):INDEX(A1:A4,4))", cells) == 9.0
    assert ev("=SUM(A1:INDEX(A1:A4,3))", cells) == 6.0
    assert ev("=SUM(OFFSET(A1,1,0):A4)", cells) == 9.0
    assert ev("=A1:A4 A3", cells) == 3.0
    assert ev("=-A1:A2 A2", cells) == -2.0  # -(A1:A2 A2)
    assert ev("=ROWS(A2:A3 A1:A4)", cells) == 2.0
    assert ev("=SUM(s!A1:INDEX(S!A1:A4,3))", cells) == 6.0  # a sheet's name in any case
    assert ev("=SUM((A1:A2,B1:B2),A4)", cells) == 37.0  # a union, where Excel takes one
    assert ev("=COUNT((A1,A3,B1))", cells) == 3.0
    assert ev('=IF( A1 = 1 , "y" , "n" )', cells) == "y"  # spaces elsewhere: nothing


def test_references_as_excel_takes_them() -> None:
    """ROW and COLUMN of a reference are its row and column (not the formula's); a taller or
    wider range gives them all; texts in referenced cells are skipped by MIN, MAX, AVERAGE,
    MEDIAN, AND and OR."""
    cells: dict[str, object] = {"A1": 5, "A2": "text", "A3": 2, "B1": True, "B2": "x"}
    assert ev("=COLUMN(C12)", cells) == 3.0
    assert ev("=ROW(A7)", cells) == 7.0
    assert ev("=INDEX(ROW(A1:A3),2)", cells) == 2.0
    assert ev("=INDEX(COLUMN(B1:D1),1,3)", cells) == 4.0
    assert ev("=MIN(A1,A2,A3)", cells) == 2.0
    assert ev("=MAX(A2,A3)", cells) == 2.0
    assert ev("=AVERAGE(A1,A2,A3)", cells) == 3.5
    assert ev("=MEDIAN(A1,A2,A3)", cells) == 3.5
    assert ev("=AND(B1,B2)", cells) is True
    assert ev("=OR(B2,B1)", cells) is True
    assert ev('=MIN(A1,"text")', cells) == VALUE  # a text typed in is not skipped


def test_errors_and_blanks_as_excel_takes_them() -> None:
    cells: dict[str, object] = {"K20": DIV0, "B1": 1, "B2": NA, "B3": 3, "A1": "a", "A2": "b",
                                "A3": "a"}  # fmt: skip
    assert ev('=LEFT("ciao",K20)', cells) == DIV0  # an error argument is the result
    assert ev('=MID("ciao",K20,2)', cells) == DIV0
    assert ev('=EXACT(K20,"x")', cells) == DIV0
    assert ev('=SUMIF(A1:A3,"b",B1:B3)', cells) == NA  # the error where the criterion holds
    assert ev('=SUMIF(A1:A3,"a",B1:B3)', cells) == 4.0  # elsewhere it is not summed
    assert ev('=SUMIFS(B1:B3,A1:A3,"b")', cells) == NA
    assert ev('=AVERAGEIF(A1:A3,"b",B1:B3)', cells) == NA
    assert ev("=VALUE(C9)", cells) == 0.0  # a blank cell is 0


def test_fifteen_digits_and_dates_as_excel_takes_them() -> None:
    assert ev("=TRUNC(-0.8999999999999999,1)", {}) == -0.9
    assert ev("=ROUNDDOWN(2.9999999999999996,0)", {}) == 3.0
    assert ev("=ROUND(2.675,2)", {}) == 2.68
    assert ev("=DATE(0.9,0.9,0.9)", {}) == NUM
    assert ev("=DATE(1900,1,0)", {}) == 0.0
    assert ev("=DATE(2024,14,1)", {}) == ev("=DATE(2025,2,1)", {})
    assert ev("=DATE(-1,1,1)", {}) == NUM


# the examples of Excel's own function reference (support.microsoft.com), function by function
# LINEST's multiple regression example: assessed value by floor space, offices, entrances, age
_OFFICES = (
    "LINEST({142000;144000;151000;150000;139000;169000;126000;142900;163000;169000;149000},"
    "{2310,2,2,20;2333,2,2,12;2356,3,1.5,33;2379,3,2,43;2402,2,3,53;2425,4,2,23;2448,2,1.5,99;"
    "2471,2,2,34;2494,3,3,23;2517,4,4,55;2540,2,3,22},TRUE,TRUE)"
)
EXCEL_REFERENCE_EXAMPLES = [
    ('=FIND("M",A1)', 1.0),
    ('=FIND("m",A1)', 6.0),
    ('=FIND("M",A1,3)', 8.0),
    ('=SEARCH("e","Statements",6)', 7.0),
    ('=SEARCH("margin","Profit Margin")', 8.0),
    ('=SEARCH("m?r",A1)', 1.0),
    ('=SUBSTITUTE("Sales Data","Sales","Cost")', "Cost Data"),
    ('=SUBSTITUTE("Quarter 1, 2008","1","2",1)', "Quarter 2, 2008"),
    ('=SUBSTITUTE("Quarter 1, 2011","1","2",3)', "Quarter 1, 2012"),
    ('=REPT("*-",3)', "*-*-*-"),
    ('=CODE("A")', 65.0),
    ('=CODE("!")', 33.0),
    ("=CHAR(65)", "A"),
    ("=CHAR(33)", "!"),
    ('=UNICODE(" ")', 32.0),
    ('=UNICODE("B")', 66.0),
    ("=UNICHAR(66)", "B"),
    ("=UNICHAR(32)", " "),
    ("=WEEKDAY(DATE(2008,2,14))", 5.0),
    ("=WEEKDAY(DATE(2008,2,14),2)", 4.0),
    ("=WEEKDAY(DATE(2008,2,14),3)", 3.0),
    ("=EDATE(DATE(2011,1,15),1)", 40589.0),
    ("=EDATE(DATE(2011,1,15),-1)", 40527.0),
    ("=EDATE(DATE(2011,1,15),2)", 40617.0),
    ("=EOMONTH(DATE(2011,1,1),1)", 40602.0),
    ("=EOMONTH(DATE(2011,1,1),-3)", 40482.0),
    ("=LOG(10)", 1.0),
    ("=LOG(8,2)", 3.0),
    ("=ROUND(LOG(86,2.7182818),7)", 4.4543473),
    ("=ROUND(LN(86),7)", 4.4543473),
    ("=ROUND(EXP(1),8)", 2.71828183),
    ("=ROUND(PI(),9)", 3.141592654),
    ('=IFS(A2>89,"A",A2>79,"B",A2>69,"C",TRUE,"F")', "B"),
    ('=SWITCH(WEEKDAY(DATE(2008,2,14)),1,"Sunday",5,"Thursday","No match")', "Thursday"),
    ('=SWITCH(99,1,"Sunday",2,"Monday","No match")', "No match"),
    ('=SWITCH(99,1,"Sunday",2,"Monday")', NA),
    ('=DATEDIF(DATE(2001,1,1),DATE(2003,1,1),"Y")', 2.0),
    ('=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"D")', 440.0),
    ('=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"YD")', 75.0),
    ("=LOOKUP(4.19,B1:B5,C1:C5)", "orange"),
    ("=LOOKUP(5.75,B1:B5,C1:C5)", "yellow"),
    ("=LOOKUP(7.66,B1:B5,C1:C5)", "blue"),
    ("=LOOKUP(0,B1:B5,C1:C5)", NA),
    ('=LOOKUP("C",{"a","b","c","d";1,2,3,4})', 3.0),
    ('=LOOKUP("bump",{"a",1;"b",2;"c",3})', 2.0),
    ("=DEC2BIN(9,4)", "1001"),
    ("=DEC2BIN(-100)", "1110011100"),
    ("=DEC2OCT(58,3)", "072"),
    ("=DEC2OCT(-100)", "7777777634"),
    ("=DEC2HEX(100,4)", "0064"),
    ("=DEC2HEX(-54)", "FFFFFFFFCA"),
    ("=DEC2HEX(28)", "1C"),
    ("=DEC2HEX(64,1)", NUM),
    ("=BIN2DEC(1100100)", 100.0),
    ("=BIN2DEC(1111111111)", -1.0),
    ("=BIN2DEC(1000000000)", -512.0),
    ("=BIN2HEX(11111011,4)", "00FB"),
    ("=BIN2HEX(1110)", "E"),
    ("=BIN2OCT(1001,3)", "011"),
    ("=BIN2OCT(1111111111)", "7777777777"),
    ('=HEX2BIN("F",8)', "00001111"),
    ('=HEX2BIN("FFFFFFFE00")', "1000000000"),
    ('=HEX2DEC("A5")', 165.0),
    ('=HEX2DEC("FFFFFFFF5B")', -165.0),
    ('=HEX2OCT("F",3)', "017"),
    ('=HEX2OCT("FFFFFFFF00")', "7777777400"),
    ("=OCT2BIN(3,3)", "011"),
    ("=OCT2BIN(7777777000)", "1000000000"),
    ("=OCT2DEC(54)", 44.0),
    ("=OCT2DEC(7777777533)", -165.0),
    ("=OCT2HEX(100,4)", "0040"),
    ("=OCT2HEX(7777777533)", "FFFFFFFF5B"),
    ("=BIN2DEC(12)", NUM),
    ('=HEX2DEC("0x1F")', NUM),
    ('=BIN2DEC("0b1")', NUM),
    ('=OCT2DEC("-7")', NUM),
    ("=DEC2BIN(-1,0)", NUM),  # places is checked before the number's sign
    ("=CEILING(2.5,1)", 3.0),
    ("=CEILING(-2.5,-2)", -4.0),
    ("=CEILING(-2.5,2)", -2.0),
    ("=CEILING(1.5,0.1)", 1.5),
    ("=CEILING(0.234,0.01)", 0.24),
    ("=FLOOR(3.7,2)", 2.0),
    ("=FLOOR(-2.5,-2)", -2.0),
    ("=FLOOR(2.5,-2)", NUM),
    ("=FLOOR(1.58,0.1)", 1.5),
    ("=FLOOR(0.234,0.01)", 0.23),
    ("=DEGREES(PI())", 180.0),
    ("=XOR(3>0,2<9)", False),
    ("=XOR(3>12,4>6)", False),
    ("=XOR(TRUE,FALSE,FALSE)", True),
    ("=ISEVEN(-1)", False),
    ("=ISEVEN(2.5)", True),
    ("=ISEVEN(5)", False),
    ("=ISODD(-1)", True),
    ("=ISODD(2.5)", False),
    ("=ISODD(5)", True),
    ('=REPLACE("abcdefghijk",6,5,"*")', "abcde*k"),
    ('=REPLACE("2009",3,2,"10")', "2010"),
    ('=REPLACE("123456",1,3,"@")', "@456"),
    ("=HOUR(0.75)", 18.0),
    ('=HOUR("2011-07-18 7:45")', 7.0),
    ('=MINUTE("12:45:00 PM")', 45.0),
    ('=SECOND("4:48:18 PM")', 18.0),
    ('=SECOND("4:48 PM")', 0.0),
    ('=TIMEVALUE("2:24 AM")', 0.1),
    ("=DAYS(DATE(2021,3,15),DATE(2021,2,1))", 42.0),
    ("=SLN(30000,7500,10)", 2250.0),
    ("=ROUND(DB(1000000,100000,6,1,7),2)", 186083.33),
    ("=ROUND(DB(1000000,100000,6,7,7),2)", 15845.10),
    ("=ROUND(PMT(0.08/12,10,10000),2)", -1037.03),
    ("=ROUND(PMT(0.08/12,10,10000,0,1),2)", -1030.16),
    ("=ROUND(PV(0.08/12,12*20,500,,0),2)", -59777.15),
    ("=ROUND(FV(0.06/12,10,-200,-500,1),2)", 2581.40),
    ("=ROUND(NPV(0.1,-10000,3000,4200,6800),2)", 1188.44),
    ("=ROUND(YEARFRAC(DATE(2012,1,1),DATE(2012,7,30)),8)", 0.58055556),
    ("=ROUND(YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),1),8)", 0.57650273),
    ("=ROUND(YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),3),8)", 0.57808219),
    ("=ROUND(SLOPE({2,3,9,1,8,7,5},{6,5,11,7,5,4,4}),6)", 0.305556),
    ("=ROUND(INTERCEPT({2,3,9,1,8},{6,5,11,7,5}),7)", 0.0483871),
    ("=ROUND(FORECAST(30,{6,7,9,15,21},{20,28,31,38,40}),6)", 10.607253),
    ("=ROUND(STDEV(1345,1301,1368,1322,1310,1370,1318,1350,1303,1299),8)", 27.46391572),
    ("=ROUND(STDEVP(1345,1301,1368,1322,1310,1370,1318,1350,1303,1299),8)", 26.05455814),
    ("=ROUND(VAR(1345,1301,1368,1322,1310,1370,1318,1350,1303,1299),7)", 754.2666667),
    ("=ROUND(VARP(1345,1301,1368,1322,1310,1370,1318,1350,1303,1299),2)", 678.84),
    ("=ROUND(SUBTOTAL(9,B1:B5),2)", 25.66),
    ("=ROUND(SUBTOTAL(101,B1:B5),3)", 5.132),
    ("=SUBTOTAL(3,B1:C5)", 10.0),
    ("=SUBTOTAL(12,B1:B5)", VALUE),
    ("=XMATCH(4,{5,4,3,2,1})", 2.0),
    ("=XMATCH(4.5,{5,4,3,2,1},1)", 1.0),
    ('=XMATCH("Gra?e",{"Apple","Grape","Pear","Banana","Cherry"},2)', 2.0),
    ('=XLOOKUP("green",C1:C5,B1:B5)', 5.77),
    ('=XLOOKUP("violet",C1:C5,B1:B5,"not listed")', "not listed"),
    ("=XLOOKUP(5,B1:B5,C1:C5,,-1)", "orange"),
    ("=XLOOKUP(5,B1:B5,C1:C5,,1)", "yellow"),
    ('=XLOOKUP("*e",C1:C5,B1:B5,,2,-1)', 6.39),
    ("=ROUND(VDB(2400,300,10*365,0,1),2)", 1.32),
    ("=ROUND(VDB(2400,300,10*12,0,1),2)", 40.0),
    ("=ROUND(VDB(2400,300,10,0,1),2)", 480.0),
    ("=ROUND(VDB(2400,300,10*12,6,18),2)", 396.31),
    ("=ROUND(VDB(2400,300,10*12,6,18,1.5),2)", 311.81),
    ("=ROUND(VDB(2400,300,10,0,0.875,1.5),2)", 315.0),
    ("=VDB(2400,300,10,2,1)", NUM),
    ("=INDEX(LINEST({1,9,5,7},{0,4,2,3}),1)", 2.0),
    ("=INDEX(LINEST({1,9,5,7},{0,4,2,3}),2)", 1.0),
    ("=TREND({1,9,5,7},{0,4,2,3},5)", 11.0),
    ("=SUM(TREND({1,9,5,7},{0,4,2,3},{5,6}))", 24.0),
    (f"=ROUND(INDEX({_OFFICES},1,1),7)", -234.2371645),
    (f"=ROUND(INDEX({_OFFICES},1,2),5)", 2553.21066),
    (f"=ROUND(INDEX({_OFFICES},1,3),5)", 12529.76817),
    (f"=ROUND(INDEX({_OFFICES},1,4),8)", 27.64138737),
    (f"=ROUND(INDEX({_OFFICES},1,5),5)", 52317.83051),
    (f"=ROUND(INDEX({_OFFICES},3,1),9)", 0.996747993),
    (f"=ROUND(INDEX({_OFFICES},3,2),7)", 970.5784629),
    (f"=ROUND(INDEX({_OFFICES},4,1),7)", 459.7536742),
    (f"=INDEX({_OFFICES},4,2)", 6.0),
    ("=ROUND(XNPV(0.09,{-10000,2750,4250,3250,2750},{39448,39508,39751,39859,39904}),2)", 2086.65),
]

LOOKUP_TABLE: dict[str, float | str] = {"B1": 4.14, "B2": 4.19, "B3": 5.17, "B4": 5.77, "B5": 6.39, "C1": "red",
                "C2": "orange", "C3": "yellow", "C4": "green", "C5": "blue"}  # fmt: skip


# CONVERT: Excel's reference examples and the units' exact definitions; not cross-checked with
# LibreOffice, whose factors for some units are older ones (1 lbm is 453.592309748811 g there)
CONVERT_EXAMPLES = [
    ('=ROUND(CONVERT(1,"lbm","kg"),7)', 0.4535924),
    ('=CONVERT(68,"F","C")', 20.0),
    ('=CONVERT(2.5,"ft","sec")', NA),
    ('=ROUND(CONVERT(CONVERT(100,"ft","m"),"ft","m"),6)', 9.290304),
    ('=CONVERT(6,"tsp","tbs")', 2.0),
    ('=CONVERT(6,"gal","l")', 22.712470704),
    ('=ROUND(CONVERT(6,"mi","km"),6)', 9.656064),
    ('=ROUND(CONVERT(6,"km","mi"),9)', 3.728227153),
    ('=CONVERT(6,"in","ft")', 0.5),
    ('=ROUND(CONVERT(6,"cm","in"),9)', 2.362204724),
    ('=CONVERT(1,"km2","m2")', 1000000.0),
    ('=CONVERT(1,"kibyte","bit")', 8192.0),
    ('=CONVERT(1,"hr","mn")', 60.0),
    ('=CONVERT(1,"Lbm","kg")', NA),  # units are case-sensitive
]


@pytest.mark.parametrize(("formula", "expected"), CONVERT_EXAMPLES)
def test_convert_as_excel_documents_it(formula: str, expected: object) -> None:
    assert ev(formula) == expected


@pytest.mark.parametrize(("formula", "expected"), EXCEL_REFERENCE_EXAMPLES)
def test_functions_as_excel_documents_them(formula: str, expected: object) -> None:
    assert ev(formula, {"A1": "Miriam McGovern", "A2": 85, **LOOKUP_TABLE}) == expected


def test_lookup_of_the_last_match_excel_idiom() -> None:
    cells = {**LOOKUP_TABLE, "D1": "x", "D2": "y", "D3": "x", "D4": "z", "D5": "y"}
    assert ev('=LOOKUP(2,1/(D1:D5="x"),C1:C5)', cells) == "yellow"  # the last x: D3
    assert ev('=LOOKUP(2,1/(D1:D5="y"),B1:B5)', cells) == 6.39
    assert ev('=LOOKUP(2,1/(D1:D5="w"),B1:B5)', cells) == NA


def test_datedif_counts_whole_units() -> None:
    assert ev('=DATEDIF(DATE(1990,5,20),DATE(2025,5,19),"Y")', {}) == 34.0  # the day before
    assert ev('=DATEDIF(DATE(1990,5,20),DATE(2025,5,20),"y")', {}) == 35.0
    assert ev('=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"YM")', {}) == 2.0
    assert ev('=DATEDIF(DATE(2015,1,31),DATE(2015,3,1),"MD")', {}) == -2.0  # Excel's own
    assert ev('=DATEDIF(DATE(2003,1,1),DATE(2001,1,1),"Y")', {}) == NUM
    assert ev('=DATEDIF(DATE(2001,1,1),DATE(2003,1,1),"W")', {}) == NUM


def test_error_and_edge_cases_of_the_newer_functions() -> None:
    assert ev('=FIND("o","Hello",9)', {}) == VALUE  # a start beyond the text
    assert ev('=FIND("x","Hello")', {}) == VALUE  # not found
    assert ev('=SEARCH("~*","x*y")', {}) == 2.0  # a tilde makes the wildcard itself
    assert ev("=FIND(A1,B1)", {"A1": "a", "B1": DIV0}) == DIV0  # an error argument: the result
    assert ev('=SUBSTITUTE("abc","b","x",0)', {}) == VALUE
    assert ev('=REPT("ab",-1)', {}) == VALUE
    assert ev('=CODE("")', {}) == VALUE
    assert ev('=CODE("€")', {}) == 128.0  # Windows' Western code page, as Excel on Windows
    assert ev("=CHAR(0)", {}) == VALUE and ev("=CHAR(256)", {}) == VALUE
    assert ev("=UNICHAR(55296)", {}) == NA  # a lone surrogate half
    assert ev("=LN(0)", {}) == NUM and ev("=LOG(1,1)", {}) == DIV0 and ev("=EXP(1000)", {}) == NUM
    assert ev("=WEEKDAY(1)", {}) == 1.0  # Excel's 1900-01-01 is a Sunday
    assert ev("=WEEKDAY(45000,4)", {}) == NUM
    assert ev('=IFS(1/0,"a")', {}) == DIV0
    assert ev("=IFS(FALSE,1)", {}) == NA
    assert ev("=EDATE(DATE(2024,1,31),1)", {}) == ev("=DATE(2024,2,29)", {})  # the month's end
    assert ev("=EDATE(-1,1)", {}) == NUM


def test_the_1900_leap_day_as_excel_counts_it() -> None:
    assert ev("=DATE(1900,1,1)", {}) == 1.0
    assert ev("=DATE(1900,2,29)", {}) == 60.0 and ev("=DATE(1900,3,0)", {}) == 60.0
    assert ev("=DATE(1900,3,1)", {}) == 61.0
    assert (ev("=YEAR(60)", {}), ev("=MONTH(60)", {}), ev("=DAY(60)", {})) == (1900.0, 2.0, 29.0)
    assert ev("=DAY(1)", {}) == 1.0 and ev("=DAY(0)", {}) == 0.0 and ev("=MONTH(0)", {}) == 1.0
    assert ev("=EOMONTH(DATE(1900,1,5),1)", {}) == 60.0
    assert ev("=DATE(1899,12,31)", {}) == ev("=DATE(3799,12,31)", {})  # years below 1900: + 1900
    assert ev("=DATE(9999,12,32)", {}) == NUM


@pytest.mark.parametrize(
    ("formula", "message"),
    [("=MOD(1)", "MOD takes 2 arguments"), ("=LEFT()", "LEFT takes 1 to 2"),
     ("=ABS(1,2)", "ABS takes 1 argument,"), ("=PI(1)", "PI takes 0")],
)  # fmt: skip
def test_a_wrong_number_of_arguments_is_reported(formula: str, message: str) -> None:
    with pytest.raises(Unsupported, match=message):
        ev(formula, {})


def test_exact_match_and_criteria_keep_types_apart() -> None:
    """MATCH type 0 finds a text among texts only and reads no operator in it; a criterion in
    an empty cell is 0 (Excel's COUNTIFS reference), and matches the text "0" as the number;
    "TRUE" in a criterion is the logical."""
    cells = {"A1": 1, "A2": "1", "A3": True, "A4": "b", "E1": 0, "E3": "0", "D2": True}
    assert ev('=MATCH("1",A1:A4,0)', cells) == 2.0  # the text, not the number 1
    assert ev("=MATCH(1,A1:A4,0)", cells) == 1.0
    assert ev("=MATCH(TRUE,A1:A4,0)", cells) == 3.0  # the logical, not the number 1
    assert ev('=MATCH("B",A1:A4,0)', cells) == 4.0  # any case
    assert ev('=MATCH("?",A1:A4,0)', cells) == 2.0  # a wildcard: texts of one character
    assert ev('=MATCH(">0",A1:A4,0)', cells) == NA  # no operators in MATCH
    # the empty B9 is 0: E1, and the text "0" in E3 (a number and a numeric text alike), not
    # the blank E2
    assert ev("=COUNTIF(E1:E3,B9)", cells) == 2.0
    assert ev('=COUNTIF(D1:D3,"TRUE")', cells) == 1.0
    assert ev('=COUNTIF(D1:D3,"<=TRUE")', cells) == 1.0  # logicals compared with logicals
    assert ev('=COUNTIF(A1:A4,"#N/A")', {**cells, "A4": NA}) == 1.0


def test_text_as_a_number_as_excel_reads_it() -> None:
    assert ev('=1+"50%"', {}) == 1.5
    assert ev('="1e3"*1', {}) == 1000.0
    for text in ("inf", "nan", "1_000", "infinity", ""):
        assert ev(f'=1+"{text}"', {}) == VALUE, text  # Python reads some of them; Excel none


def test_an_empty_argument_is_zero_an_omitted_one_its_default() -> None:
    """VLOOKUP(x, A:B, 2, ) is Excel's common idiom for an exact look-up (LibreOffice agrees)."""
    cells = {"A1": 1, "A2": 2, "A3": 3, "B1": "a", "B2": "b", "B3": "c"}
    assert ev("=VLOOKUP(2.5,A1:B3,2,)", cells) == NA
    assert ev("=VLOOKUP(2.5,A1:B3,2)", cells) == "b"
    assert ev("=VLOOKUP(2,A1:B3,2,)", cells) == "b"
    assert ev("=MATCH(2.5,A1:A3,)", cells) == NA
    assert ev("=MATCH(2.5,A1:A3,C9)", cells) == NA  # an empty cell: 0 as well
    assert ev("=MATCH(2.5,A1:A3)", cells) == 2.0


# cells of pycel's test workbook tests/fixtures/lookup.xlsx (saved by Excel), with the values
# Excel cached for its formulas: the expectations below are Excel's, not ours
PYCEL_LOOKUP: dict[str, object] = {
    "B5": 0, "C5": "a", "E5": DIV0, "B6": 1, "C6": "e", "D6": "plugh", "B7": 2, "C7": "i",
    "D7": True, "E7": XlError("#NULL!"), "B8": 3, "C8": "o", "D8": VALUE, "E8": NUM, "B9": 4,
    "C9": "u", "D9": NA, "E9": REF, "B11": 0, "C11": 1, "D11": 2, "E11": 3, "F11": 4,
    "B12": "a", "C12": "e", "D12": "i", "E12": "o", "F12": "u", "C13": "plugh", "D13": True,
    "E13": VALUE, "F13": NA, "B14": DIV0, "C14": XlError("#NAME?"), "D14": XlError("#NULL!"),
    "E14": NUM, "F14": REF, "D3": 2, "E3": 3, "F3": 4.5,
}  # fmt: skip


@pytest.mark.parametrize(
    ("formula", "cached"),
    [
        ("=HLOOKUP(G3,B11:F14,2)", "a"),  # G3 empty: looked up as 0
        ("=LOOKUP(G3,B11:F12)", "a"),
        ("=LOOKUP(G3,B5:C9)", "a"),
        ("=VLOOKUP(G3,B5:E9,2)", "a"),
        ("=LOOKUP(D3,B5:C9,C5:C9)", "i"),  # a two-column lookup vector: its first column
        ("=LOOKUP(E3,B5:C9,C5:C9)", "o"),
        ("=LOOKUP(F3,B5:C9,C5:C9)", "u"),
        ("=LOOKUP(D3,B5:C9,D5:D9)", True),
        ("=LOOKUP(D3,B5:C9,E5:E9)", XlError("#NULL!")),
        ("=LOOKUP(2,B5:C9,E5:F9)", NA),  # a result range of two columns
    ],
)
def test_lookups_as_excel_cached_them(formula: str, cached: object) -> None:
    assert ev(formula, PYCEL_LOOKUP) == cached


def test_edate_refuses_logicals_as_excel_cached_it() -> None:
    """pycel's tests/fixtures/date-time.xlsx: Excel cached #VALUE! for each of these."""
    assert ev("=EDATE(366,K3)", {"K3": False}) == VALUE
    assert ev("=EOMONTH(367,L3)", {"L3": True}) == VALUE
    assert ev("=EDATE(N1,N3)", {"N1": False}) == VALUE
    assert ev("=EDATE(366,N3)", {}) == 366.0  # an empty cell is 0 months


def test_offset_and_indirect_are_references() -> None:
    """Excel's examples: OFFSET(D3,3,-2,1,1) is B6, SUM(OFFSET(D3:F5,3,-2,3,3)) sums B6:D8,
    INDIRECT(A2) with "B2" in A2 is B2's value; both serve where a range is taken."""
    cells: dict[str, object] = {"B6": 7, "C6": 1, "D7": 2, "E8": 3, "A2": "B2", "B2": 1.333}
    cells |= {"A3": "B3", "B3": 45, "A5": 62}
    assert ev("=OFFSET(D3,3,-2,1,1)", cells) == 7.0
    assert ev("=SUM(OFFSET(D3:F5,3,-2,3,3))", cells) == 10.0  # B6:D8
    assert ev("=OFFSET(D3:F5,-3,-3)", cells) == REF  # before row 1
    assert ev("=OFFSET(D3,0,0,0,1)", cells) == REF
    assert ev("=ROWS(OFFSET(A1,2,0,-2,1))", cells) == 2.0  # a negative height goes up
    assert ev("=INDIRECT(A2)", cells) == 1.333
    assert ev("=INDIRECT(A3)", cells) == 45.0
    assert ev('=INDIRECT("B"&A5)', cells) == 0.0  # B62: empty
    assert ev('=SUM(INDIRECT("C6:E8"))', cells) == 6.0
    assert ev('=INDIRECT("not a ref")', cells) == REF
