"""Excel's rules for math, trigonometry, text, engineering and information functions, each case
an input and the value Excel gave for it: from the function's page of Excel's documentation,
or saved by Excel in one of IronCalc's test workbooks (ironcalc 0.9.1, ``xlsx/tests/...``,
named in each test)."""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from fide_rating.engine.book import Book
from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula import col_letters
from fide_rating.engine.formula.coerce import CODE_PAGE
from fide_rating.engine.formula.values import DIV0, NA, NAME, NUM, VALUE, XlError
from fide_rating.engine.package.cells import rich_errors
from fide_rating.engine.recalc import recalc_file
from test_excel_lookup import ev_array
from test_formula import ev

# --- GCD and LCM (calc_tests/MATH_AND_TRIGONOMETRY/GCD_LCM.xlsx) ----------------------------


@pytest.mark.parametrize(
    ("formula", "cells", "expected"),
    [
        ("=LCM(A1,B1)", {"A1": "8", "B1": 2}, 8.0),  # a text in a cell is read as a number
        ("=GCD(A1:B1)", {"A1": 2, "B1": "8"}, 2.0),
        ("=LCM(A1,B1)", {"A1": " 10 ", "B1": 3}, 30.0),
        ("=LCM(A1,B1)", {"A1": "2024-01-10", "B1": 7}, 317107.0),  # a date: 45301 x 7
        ("=LCM(A1,B1)", {"A1": " 2024-01-10 ", "B1": 7}, VALUE),  # not with spaces around
        ("=LCM(A1,B1)", {"A1": "", "B1": 3}, VALUE),
        ("=GCD(A1,B1)", {"A1": "eight", "B1": 2}, VALUE),
        ("=GCD(A1,B1)", {"A1": True, "B1": 2}, VALUE),  # a logical is not a number here
        ('=LCM({4,"8",12})', {}, 24.0),
        ("=GCD({4,TRUE,12})", {}, VALUE),
        ("=LCM(A1,B1,C1)", {"B1": 5}, 5.0),  # blank cells named alone: left out
        ("=LCM(A1,B1,C1)", {"Z1": 5}, VALUE),  # nothing at all
        ("=LCM(A1:B1)", {"B1": 5}, 0.0),  # a blank in a range: 0
        ("=GCD(A1:B1)", {"B1": 5}, 5.0),
        ("=GCD(A1:B1)", {"Z1": 5}, 0.0),
        ("=LCM(,5)", {}, NA),  # an argument left out
        ("=GCD(,5)", {}, NA),
        ("=LCM(7.9,4.9)", {}, 28.0),  # truncated
        ("=GCD(0.00037,0.0001)", {}, 0.0),
        ("=GCD(-7.5,5)", {}, NUM),
        ("=GCD(1E+100,5)", {}, NUM),
        ("=LCM(9999999999999,10)", {}, 99999999999990.0),
        ("=LCM(2^31-1,2^30-1)", {}, NUM),  # the multiple is 2^53 or more
        ("=GCD(2^31-1,2^30-1)", {}, 1.0),
    ],
)
def test_gcd_and_lcm_read_their_arguments_as_excel(
    formula: str, cells: dict[str, object], expected: object
) -> None:
    assert ev(formula, cells) == expected


def test_lcm_of_the_largest_numbers_allowed() -> None:
    """Excel's documentation: a multiple of 2^53 or more is #NUM!; one below it is computed."""
    assert ev("=LCM(2^52,3)") == NUM
    assert ev("=LCM(2^51,3)") == 3.0 * 2**51
    assert ev("=GCD(2^53-1,2)") == 1.0
    assert ev("=GCD(2^53,2)") == NUM


# --- TEXTBEFORE and TEXTAFTER (calc_tests/TEXT/TEXTBEFORE_TEXTAFTER.xlsx) ---------------------

THE = "123 the 456 the 891"


@pytest.mark.parametrize(
    ("formula", "cells", "expected"),
    [
        ("=TEXTAFTER(A1,B1,C1)", {"A1": THE, "B1": "the", "C1": 1.6}, " 456 the 891"),
        ("=TEXTBEFORE(A1,B1,C1)", {"A1": THE, "B1": "the", "C1": 1.2}, "123 "),
        ("=TEXTAFTER(A1,B1,C1)", {"A1": THE, "B1": "the", "C1": -1.2}, " 456 the 891"),
        ("=TEXTAFTER(A1,B1,C1)", {"A1": THE, "B1": "the", "C1": -1}, " 891"),
        # if_not_found is only looked at when the delimiter is not found
        ("=TEXTAFTER(A1,B1,2,1,0,F1)", {"A1": THE, "B1": "THE", "F1": DIV0}, " 891"),
        ("=TEXTAFTER(A1,B1,3,1,0,F1)", {"A1": THE, "B1": "THE", "F1": DIV0}, DIV0),
        ("=TEXTAFTER(A1,B1,1,0,0,C1)", {"A1": "TRUE", "B1": "r"}, ""),  # an empty cell
        ("=TEXTAFTER(A1,B1,1,0,0)", {"A1": "TRUE", "B1": "r"}, NA),
        # a delimiter longer than the text: #VALUE! with three arguments or more
        ('=TEXTAFTER("del","deli",1)', {}, VALUE),
        ('=TEXTBEFORE("hi","Hello Good Morning",1,1,0,"@")', {}, VALUE),
        ('=TEXTAFTER("del","deli")', {}, NA),
        # match_end: the end of the text is one more delimiter, on the searching side
        ('=TEXTAFTER(A1,"the",1,1,1)', {"A1": THE}, " 456 the 891"),
        ('=TEXTAFTER(A1,"Hello",1,1,1)', {"A1": THE}, ""),
        ('=TEXTBEFORE(A1,"Hello",1,1,1)', {"A1": THE}, THE),
        ('=TEXTAFTER(A1,"Hello",-1,1,1)', {"A1": THE}, THE),
        ('=TEXTBEFORE(A1,"Hello",-1,1,1)', {"A1": THE}, ""),
        ('=TEXTAFTER(A1,"Hello",2,1,1,"Failed")', {"A1": THE}, "Failed"),
        ('=TEXTAFTER("Email - me@example.com","- ",-1,,1)', {}, "me@example.com"),
        ('=TEXTBEFORE("Email - me@example.com","- ",-1,,1)', {}, "Email "),
        ('=TEXTAFTER(A1,"Hello",-1,1,2,"Failed")', {"A1": THE}, VALUE),  # 0 or 1 only
        ('=TEXTAFTER(A1,"Hello",-1,1,TRUE,"Failed")', {"A1": THE}, THE),
    ],
)
def test_textbefore_and_textafter(formula: str, cells: dict[str, object], expected: object) -> None:
    assert ev(formula, cells) == expected


# --- trigonometry (calc_tests/MATH_AND_TRIGONOMETRY/TRIGONOMETRIC.xlsx, docs/TAN.xlsx) --------


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=SIN(PI())", 1.22514845490862e-16),  # pi/2 taken to 64 bits, not the exact pi
        ("=SIN(2*PI())", -2.45029690981724e-16),
        ("=COS(PI()/2)", 6.1257422745431e-17),
        ("=TAN(PI()/2)", 1.6324552277619072e16),
        ("=TAN(-3*PI()/2)", -5441517425873024.0),
        ("=SIN(PI()-0.000000000001)", 1.0002114154278319e-12),
        ("=TAN(PI()/2-0.000000000001)", 999849864538.9548),
        ("=COT(PI()/2+0.000000000001)", -1.0000276431595956e-12),
        ("=CSC(PI()-0.000000000001)", 999788629259.2037),
        ("=SIN(2^20)", 0.33049314002171887),
        ("=COT(2^20)", 2.855757895123916),
        ("=SIN(3.14159265358979)", 3.2311393144413003e-15),  # a typed-in pi, 15 digits
        ("=SIN(1)", 0.8414709848078965),
        ("=TAN(PI()/4)", 0.9999999999999999),
        ("=ACOS(0.9999999999)", 1.4142136208761258e-05),  # pi/2 - ASIN
        ("=ACOSH(1.0000000001)", 1.4142136208289859e-05),  # Excel's logarithm
        ("=ASINH(0.000000000001)", 1.000088900581841e-12),
        ("=ASINH(-0.000000000001)", -1.000088900581841e-12),
        ("=ACOT(9999999999999)", 1.0000000000001e-13),
        ("=ACOT(-1)", 2.356194490192345),
        ("=ACOT(0)", 1.5707963267948966),
        ("=ACOTH(9999999999999)", 1.0000000000001e-13),
        ("=ACOTH(-1.0000000001)", -11.859499013905017),
        ("=ACOTH(2^20)", 9.53674316406539e-07),
        ("=CSCH(9999999999999)", 0.0),  # the sine overflows: 0, not #NUM!
        ("=SECH(-9999999999999)", 0.0),
        ("=CSCH(100)", 7.440151952041671e-44),
        ("=SINH(9999999999999)", NUM),
    ],
)
def test_trigonometry_as_excel_computes_it(formula: str, expected: object) -> None:
    got = ev(formula)
    if isinstance(expected, float):
        assert isinstance(got, float)
        assert got == pytest.approx(expected, rel=1e-15, abs=0.0)
    else:
        assert got == expected


@pytest.mark.parametrize("name", ["SIN", "COS", "TAN", "COT", "CSC", "SEC"])
def test_an_angle_of_2_to_27_or_more_is_refused(name: str) -> None:
    """COS(2^27-1) is computed, COS(2^27) is #NUM! (Excel, either sign)."""
    assert isinstance(ev(f"={name}(2^27-1)"), float)
    assert ev(f"={name}(2^27)") == NUM
    assert ev(f"={name}(-2^27)") == NUM
    assert isinstance(ev(f"={name}(-(2^27-1))"), float)


def test_the_poles() -> None:
    assert ev("=COT(0)") == DIV0
    assert ev("=CSC(0)") == DIV0
    assert ev("=COTH(0)") == DIV0
    assert ev("=ACOTH(1)") == NUM
    assert ev("=ACOTH(-0.5)") == NUM
    assert ev("=SEC(0)") == 1.0
    assert ev("=COS(0)") == 1.0
    assert ev("=SIN(0.5)") == math.sin(0.5)  # below pi/4 the angle is not reduced


def test_no_infinity_comes_out() -> None:
    """Where x*x overflows, ASINH and ACOSH are ln(2x) (the same to the last digit); an
    overflow is #NUM!, never an infinity in a cell."""
    assert ev("=ASINH(1E+200)") == pytest.approx(math.asinh(1e200), rel=1e-15)
    assert ev("=ACOSH(1E+200)") == pytest.approx(math.acosh(1e200), rel=1e-15)
    assert ev("=ASINH(-1E+300)") == pytest.approx(-math.asinh(1e300), rel=1e-15)
    assert ev("=ASINH(1E+100)") == pytest.approx(math.asinh(1e100), rel=1e-15)
    assert ev("=SINH(1000)") == NUM
    assert ev("=COSH(-1000)") == NUM
    assert ev("=TANH(1000)") == 1.0


# --- the rest of the math functions ---------------------------------------------------------


@pytest.mark.parametrize(
    ("formula", "cells", "expected"),
    [
        # calc_tests/MATH_AND_TRIGONOMETRY/MROUND_TRUNC_INT.xlsx
        ("=MROUND(,B1)", {"B1": 5}, NA),  # an argument written empty
        ("=MROUND(A1, )", {"A1": 5}, NA),
        ("=MROUND(A1,B1)", {"B1": 5}, 0.0),  # a blank cell is 0
        ("=MROUND(A1,B1)", {"A1": True, "B1": 2}, VALUE),
        ("=MROUND(A1,B1)", {"A1": 2, "B1": False}, VALUE),
        ("=MROUND(10,1E-100)", {}, 10.0),
        ("=MROUND(1E+100,1E+50)", {}, 1e100),
        ("=MROUND(9.99999E+307,5)", {}, 9.99999e307),
        ("=MROUND(5,9.99999E+307)", {}, 0.0),
        ("=MROUND(10,3)", {}, 9.0),
        ("=MROUND(-10,3)", {}, NUM),
        # calc_tests/MATH_AND_TRIGONOMETRY/MOD_QUOTIENT.xlsx
        ("=QUOTIENT(A1,B1)", {"A1": True, "B1": True}, VALUE),
        ("=MOD(A1,B1)", {"A1": True, "B1": True}, 0.0),  # MOD takes logicals
        ("=QUOTIENT(A1,B1)", {"A1": 1}, DIV0),
        ("=QUOTIENT(10.0000000001,0.1)", {}, 100.0),
        ("=MOD(10.0000000001,0.1)", {}, 9.999945316252479e-11),
        ("=MOD(5,1E-10)", {}, 9.999981783901343e-11),
        ("=MOD(5,-1E-10)", {}, -1.821609865774887e-16),
        ("=MOD(-5.3,2)", {}, 0.7000000000000002),
        ("=MOD(-7.8,-2.3)", {}, -0.9000000000000004),
        ("=MOD(-10000000000,3)", {}, 2.0),
        ("=MOD(3,0)", {}, DIV0),
        # calc_tests/MATH_AND_TRIGONOMETRY/COMBIN_COMBINA.xlsx
        ("=COMBINA(3,10)", {}, 66.0),
        ("=COMBINA(A1,3)", {"A1": True}, 1.0),
        ("=COMBINA(A1,3)", {"A1": False}, NUM),
        ("=COMBINA(0,0)", {}, 1.0),
        ("=COMBIN(3,10)", {}, NUM),
        # calc_tests/MATH_AND_TRIGONOMETRY/POWER.xlsx: an odd root of a negative number
        ("=POWER(-8,1/3)", {}, -1.9999999999999998),
        ("=(-8)^(1/3)", {}, -1.9999999999999998),
        ("=(-8)^(1/2)", {}, NUM),
        ("=(-8)^0.333333333333333", {}, NUM),
        ("=(-1)^0", {}, 1.0),  # SERIESSUM.xlsx: SERIESSUM(-1,0,2,{1,2,3}) is 6
        ("=SERIESSUM(-1,0,2,{1,2,3})", {}, 6.0),
        # calc_tests/MATH_AND_TRIGONOMETRY/EXP_SIGN.xlsx
        ("=EXP(-745)", {}, 0.0),  # below the least normal double
        ("=EXP(-700)", {}, math.exp(-700)),
        ("=EXP(A1)", {"A1": "€100"}, math.exp(100)),
        ("=SIGN(A1)", {"A1": "100€"}, 1.0),
        ("=SIGN(A1)", {"A1": " €100 "}, 1.0),
        ("=SIGN(A1)", {"A1": "€100€"}, VALUE),
        # calc_tests/arithmetic.xlsx and TEXT/T_VALUE_VALUETOTEXT.xlsx
        ('=VALUE("1e400")', {}, VALUE),
        ('=VALUE("1e300")', {}, 1e300),
        ("=A1+1", {"A1": "1e400"}, VALUE),
        ('=VALUE("23€")', {}, 23.0),
        ('=VALUE("$23")', {}, 23.0),
    ],
)
def test_math_rules(formula: str, cells: dict[str, object], expected: object) -> None:
    assert ev(formula, cells) == expected


@pytest.mark.parametrize(
    ("formula", "cells", "expected"),
    [
        # calc_tests/ENGINEERING/NUMBER_SYSTEMS.xlsx
        ("=BIN2HEX(A1,B1)", {"A1": 1100011011, "B1": True}, VALUE),
        ("=BIN2HEX(A1,B1)", {"A1": 1100011011, "B1": 2.3}, "FFFFFFFF1B"),
        ("=DEC2BIN(A1)", {"A1": True}, VALUE),
        ("=DEC2HEX(A1)", {"A1": False}, VALUE),
        ("=DEC2BIN(A1,B1)", {"A1": 2}, NUM),  # a blank cell for places: 0
        ("=DEC2BIN(A1)", {"A1": 2}, "10"),
        ("=DEC2OCT(A1,B1)", {"A1": 12, "B1": 4}, "0014"),
        # calc_tests/ENGINEERING/BESSEL.xlsx: Excel's own J0 from 8 on
        ("=BESSELJ(10,0)", {}, -0.2459357644412996),
        ("=BESSELJ(32,0)", {}, 0.13807900971253675),
        ("=BESSELJ(-10,0)", {}, -0.2459357644412996),
        ("=BESSELY(10,0)", {}, 0.05567116743095123),  # Y0 keeps Numerical Recipes'
        ("=BESSELJ(3.5,0)", {}, -0.3801277406664696),
        # and its J1 from 8 on, a term more than Numerical Recipes' (0.0434727463393427)
        ("=BESSELJ(10,1)", {}, 0.04347224965225415),
        ("=BESSELJ(32,1)", {}, -0.0265890283162847),
        ("=BESSELJ(-10,1)", {}, -0.04347224965225415),
        ("=BESSELJ(3.5,1)", {}, 0.13737752717818574),  # below 8: Numerical Recipes'
        ("=BESSELJ(10,7)", {}, 0.2167104380031489),  # upward from J0 and J1
        ("=BESSELJ(32,10)", {}, -0.028941015632886966),
        ("=BESSELJ(10,10)", {}, 0.20748610663402065),  # downward: J1 not used
        ("=BESSELY(10,1)", {}, 0.24901542405799407),  # Y1 keeps Numerical Recipes' P
        ("=BESSELY(32,1)", {}, -0.13854483144881607),
    ],
)
def test_engineering_rules(formula: str, cells: dict[str, object], expected: object) -> None:
    assert ev(formula, cells) == expected


@pytest.mark.parametrize(
    ("formula", "cells", "expected"),
    [
        # calc_tests/TEXT/FIND_SEARCH.xlsx: a tilde before another character, or at the end
        ('=SEARCH("~","Hi ~Bang!")', {}, 1.0),
        ('=SEARCH("~","Hello")', {}, 1.0),
        ('=SEARCH("~d","My dear")', {}, 4.0),
        ('=SEARCH("~~","Hi ~Bang!")', {}, 4.0),
        ('=SEARCH("~~*","Ho*la")', {}, VALUE),
        ('=SEARCH("~*","x*y")', {}, 2.0),
        ('=FIND("~","Hi ~Bang!")', {}, 4.0),  # FIND has no wildcards
        # calc_tests/TEXT/REGEX.xlsx: every match in a row
        ('=INDEX(REGEXEXTRACT("LonelyPlanet","[A-Z][a-z]+",1),1,2)', {}, "Planet"),
        ('=COLUMNS(REGEXEXTRACT("LonelyPlanet","[A-Z][a-z]+",1))', {}, 2.0),
        ('=ROWS(REGEXEXTRACT("LonelyPlanet","[A-Z][a-z]+",1))', {}, 1.0),
    ],
)
def test_text_rules(formula: str, cells: dict[str, object], expected: object) -> None:
    assert ev(formula, cells) == expected


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        # calc_tests/TEXT/TEXT.xlsx, sheet NUMBERS, format General
        (123456789012.0, "1.23457E+11"),
        (1.2e-16, "1.2E-16"),
        (1.23456e19, "1.23456E+19"),
        (25000000000.0, "25000000000"),  # 11 digits: plain
        (250000000000.0, "2.5E+11"),  # 12 digits: scientific
        (1e16, "1E+16"),
        (-2.7e-18, "-2.7E-18"),
        (-2.5e-10, "-2.5E-10"),
        (-2.5e-09, "-2.5E-09"),  # plain would show one digit of two
        (-1e-08, "-0.00000001"),  # plain shows all there is
        (-1 / 3, "-0.333333333"),
        (12345.6789, "12345.6789"),
        (99999999999.4, "99999999999"),
        (99999999999.5, "1E+11"),  # rounded, it would need 12 digits
        (1.23456789012e-200, "1.2346E-200"),  # a three-digit exponent leaves 5 digits
    ],
)
def test_general_in_text(x: float, expected: str) -> None:
    assert ev('=TEXT(A1,"General")', {"A1": x}) == expected


def test_names_ending_in_digits_are_not_references() -> None:
    """templates/invoice.xlsx: =AddressLine1 in B10 and =AddressLine2 in B11 are two names,
    not the same relative reference (L1 one row up from each): each its own cell."""
    b = Book()
    b.sheets["S"] = "S"
    compiler = Compiler({"ADDRESSLINE1": "S!$C$6", "ADDRESSLINE2": "S!$C$7"})
    b.results[("S", 6, 3)] = "Alexanderpl. 1"
    b.results[("S", 7, 3)] = "10178 Berlin, Germany"
    b.compiled[("S", 10, 2)] = compiler.compile("AddressLine1", 10, 2)
    b.compiled[("S", 11, 2)] = compiler.compile("AddressLine2", 11, 2)
    b.extents["S"] = (11, 3)
    assert b.value("S", 10, 2) == "Alexanderpl. 1"
    assert b.value("S", 11, 2) == "10178 Berlin, Germany"
    # a real relative reference filled down still shares one closure
    assert compiler.compile("C6", 10, 2) is compiler.compile("C7", 11, 2)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # Excel's documentation: in a single-byte language each character counts 1 byte, and
        # a workbook does not record its editing language: the byte functions are the others
        ('=LEFTB("Sale Price",4)', "Sale"),
        ('=RIGHTB("Sale Price",5)', "Price"),
        ('=MIDB("Fluid Flow",7,20)', "Flow"),
        ('=LENB("Phoenix, AZ")', 11.0),
        ('=LENB("日本")', 2.0),
        ('=FINDB("M","Miriam McGovern",3)', 8.0),
        ('=SEARCHB("e","Statements",6)', 7.0),
        ('=SEARCHB("?c","abc")', 2.0),
        ('=REPLACEB("abcdefghijk",6,5,"*")', "abcde*k"),
        ('=LEFTB("abc",-1)', VALUE),
    ],
)
def test_the_byte_functions_count_characters(formula: str, expected: object) -> None:
    assert ev(formula) == expected


def test_sheet_and_sheets(tmp_path: Path) -> None:
    """SHEET of the formula's own sheet, of a reference, of a sheet's name (any case); hidden
    sheets count; a number or a text naming no sheet #N/A (Excel's cached values in IronCalc's
    SHEET_SHEETS.xlsx and tables.xlsx). A name defined for one sheet is #NAME? on another."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "T"
    hidden = wb.create_sheet("Hidden")
    hidden.sheet_state = "hidden"
    last = wb.create_sheet("V")
    last["A1"] = 1
    formulas = ["=SHEET()", "=SHEET(V!A1)", '=SHEET("hidden")', "=SHEET(0)", '=SHEET("")',
                '=SHEET("W")', "=SHEETS()", "=SHEETS(V!A1)", "=SHEET(1/0)", "=Here",
                "=SHEET(Everywhere)"]  # fmt: skip
    for row, formula in enumerate(formulas, 1):
        first[f"B{row}"] = formula
        last[f"B{row}"] = formula
    wb.defined_names["Everywhere"] = DefinedName("Everywhere", attr_text="Hidden!$A$1")
    last.defined_names["Here"] = DefinedName("Here", attr_text="V!$A$1")
    path = tmp_path / "sheets.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out", force=True)
    got = {f"{s}!{col_letters(c)}{r}": v for (s, r, c), v in out.values.items()}
    assert [got[f"T!B{row}"] for row in range(1, 12)] == [
        1.0, 3.0, 2.0, NA, NA, NA, 3.0, 1.0, DIV0, NAME, 2.0]  # fmt: skip
    assert got["V!B1"] == 3.0
    assert got["V!B10"] == 1.0  # its own sheet's name


def test_errors_kept_as_rich_values(tmp_path: Path) -> None:
    """#CALC! and #SPILL! typed into a cell are saved as #VALUE! with a ``vm`` pointing to a
    rich value of type ``_error`` (errorType 13 and 8): ERROR.TYPE gives 14 and 9 (Excel's
    cached values in IronCalc's INFORMATION/ERROR.TYPE.xlsx, whose parts these follow); a
    plain #VALUE! stays 3."""
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    rd = 'xmlns="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata"'
    ext = '<extLst><ext uri="{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}"><xlrd:rvb i="{}"/></ext></extLst>'
    parts = {
        "[Content_Types].xml": "<Types/>",
        "xl/workbook.xml": f'<workbook {ns} {rns}><sheets><sheet name="S" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": "<Relationships>"
        '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/>'
        "</Relationships>",
        "xl/worksheets/sheet1.xml": f"<worksheet {ns}><sheetData>"
        '<row r="1"><c r="A1" t="e" vm="1"><v>#VALUE!</v></c><c r="B1"><f>ERROR.TYPE(A1)</f>'
        "<v>0</v></c></row>"
        '<row r="2"><c r="A2" t="e" vm="2"><v>#VALUE!</v></c><c r="B2"><f>ERROR.TYPE(A2)</f>'
        "<v>0</v></c></row>"
        '<row r="3"><c r="A3" t="e"><v>#VALUE!</v></c><c r="B3"><f>ERROR.TYPE(A3)</f>'
        "<v>0</v></c></row></sheetData></worksheet>",
        "xl/metadata.xml": f"<metadata {ns} "
        'xmlns:xlrd="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata">'
        '<metadataTypes count="1"><metadataType name="XLRICHVALUE"/></metadataTypes>'
        f'<futureMetadata name="XLRICHVALUE" count="2"><bk>{ext.replace("{}", "0")}</bk>'
        f"<bk>{ext.replace('{}', '1')}</bk></futureMetadata>"
        '<valueMetadata count="2"><bk><rc t="1" v="0"/></bk><bk><rc t="1" v="1"/></bk>'
        "</valueMetadata></metadata>",
        "xl/richData/rdrichvalue.xml": f'<rvData {rd} count="2"><rv s="0"><v>13</v><v>0</v>'
        '</rv><rv s="0"><v>8</v><v>0</v></rv></rvData>',
        "xl/richData/rdrichvaluestructure.xml": f'<rvStructures {rd} count="1">'
        '<s t="_error"><k n="errorType" t="i"/><k n="subType" t="i"/></s></rvStructures>',
    }
    path = tmp_path / "rich.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in parts.items():
            z.writestr(name, text)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {f"{s}!{col_letters(c)}{r}": v for (s, r, c), v in out.values.items()}
    assert (got["S!B1"], got["S!B2"], got["S!B3"]) == (14.0, 9.0, 3.0)


def test_cos_of_excel_for_the_mac() -> None:
    """docs/COS.xlsx and docs/TAN.xlsx, saved by Excel for the Mac: its COS takes the angle as
    it is, its TAN reduces it as Excel for Windows does."""
    token = CODE_PAGE.set("mac_roman")
    try:
        assert ev("=COS(PI()/2)") == 6.123233995736766e-17
        assert ev("=COS(-PI()/2)") == 6.123233995736766e-17
        assert ev("=TAN(PI()/2)") == 1.6324552277619072e16
        assert ev("=TAN(PI())") == -1.22514845490862e-16
    finally:
        CODE_PAGE.reset(token)
    assert ev("=COS(PI()/2)") == 6.1257422745431e-17  # Excel for Windows


def test_percentof() -> None:
    """PERCENTOF as SUM over SUM (Excel's documentation): a range's texts left out."""
    assert ev("=PERCENTOF({1,2},{1,2,3,4})") == pytest.approx(0.3)
    assert ev("=PERCENTOF(A1:A2,A1:A3)", {"A1": 1, "A2": "x", "A3": 3}) == 0.25
    assert ev("=PERCENTOF(1,0)") == DIV0


# --- MAX and MIN (calc_tests/MATH_AND_TRIGONOMETRY/MAX_MIN.xlsx) ----------------------------


@pytest.mark.parametrize(
    ("formula", "cells", "expected"),
    [
        ('=MAX("abc", NA())', {}, VALUE),  # H49: the first bad argument from the left
        ('=MAX(NA(), "abc")', {}, NA),  # H48
        ('=MIN(1, "abc")', {}, VALUE),  # H15
        # the values given as such before the ranges (cellproof 0.2.1's examples/functions.xlsx
        # G35 and G59, saved by Excel: H3 holds #N/A)
        ("=MAX(H3,1/0)", {"H3": NA}, DIV0),
        ("=MIN(H3,1/0)", {"H3": NA}, DIV0),
        ("=MIN(H3,1)", {"H3": NA}, NA),
        ('=MAX(B1:C1, "abc")', {"B1": 5, "C1": DIV0}, VALUE),
        ('=MAX("abc", B1:C1)', {"B1": 5, "C1": DIV0}, VALUE),
        ("=MAX(B1:C1, 7)", {"B1": 5, "C1": DIV0}, DIV0),
        ("=MAX(,-1)", {}, 0.0),  # H51: an argument written empty is a 0
        ("=MIN(5,)", {}, 0.0),  # H52
        ("=MIN(-5,)", {}, -5.0),
        ("=MAX(A7,-3)", {}, -3.0),  # H9: an empty cell is left out, not a 0
        ("=MAX(-1,2)", {}, 2.0),
    ],
)
def test_max_and_min_read_their_values_then_their_ranges(
    formula: str, cells: dict[str, object], expected: object
) -> None:
    assert ev(formula, cells) == expected


def test_rich_errors_after_the_dynamic_array_metadata() -> None:
    """Excel writes the dynamic arrays' metadata type (XLDAPR) before the rich values' in
    xl/metadata.xml, both in ``metadataTypes`` and in ``futureMetadata``: the ``vm`` of a cell
    still names the rich value's error (DROP(A2:A8,7) in IronCalc's
    LOOKUP_AND_REFERENCE/DROP_TAKE.xlsx, saved #VALUE! with vm="1", is #CALC!)."""
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rd = 'xmlns="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata"'
    rvb = '<extLst><ext uri="{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}"><xlrd:rvb i="0"/></ext>'
    dapr = '<extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties'
    meta = (
        f'<metadata {ns} xmlns:xlrd="x" xmlns:xda="y"><metadataTypes count="2">'
        '<metadataType name="XLDAPR"/><metadataType name="XLRICHVALUE"/></metadataTypes>'
        f'<futureMetadata name="XLDAPR" count="1"><bk>{dapr} fDynamic="1"/></ext></extLst></bk>'
        f'</futureMetadata><futureMetadata name="XLRICHVALUE" count="1"><bk>{rvb}</extLst></bk>'
        '</futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>'
        '<valueMetadata count="1"><bk><rc t="2" v="0"/></bk></valueMetadata></metadata>'
    )
    parts = {
        "xl/metadata.xml": meta.encode(),
        "xl/richData/rdrichvalue.xml": f'<rvData {rd} count="1"><rv s="0"><v>13</v><v>3</v>'
        "</rv></rvData>".encode(),
        "xl/richData/rdrichvaluestructure.xml": f'<rvStructures {rd} count="1"><s t="_error">'
        '<k n="errorType" t="i"/><k n="subType" t="i"/></s></rvStructures>'.encode(),
    }
    assert rich_errors(parts) == {1: XlError("#CALC!")}
    parts["xl/richData/rdrichvalue.xml"] = parts["xl/richData/rdrichvalue.xml"].replace(
        b"<v>13</v>", b"<v>8</v>"
    )
    assert rich_errors(parts) == {1: XlError("#SPILL!")}


def test_single_intersects_in_an_array_formula_too() -> None:
    """``@`` (_xlfn.SINGLE) takes the range's cell in the formula's row, in an array formula
    as in any other: {=POWER(@A1:A3,3)} in C2 is 8 (MATH_AND_TRIGONOMETRY/POWER.xlsx); out of
    the range's rows, #VALUE!; an array's first value."""
    cells = {"A1": 1, "A2": 2, "A3": 3}
    assert ev_array("=POWER(_xlfn.SINGLE(A1:A3), 3)", cells, at="C2") == [[8.0]]
    assert ev_array("=POWER(_xlfn.SINGLE(A1:A3), 3)", cells, at="C3") == [[27.0]]
    assert ev_array("=POWER(_xlfn.SINGLE(A1:A3), 3)", cells, at="C4") == VALUE
    assert ev("=POWER(_xlfn.SINGLE(A1:A3), 3)", cells) == VALUE  # row 99: none of its rows
    assert ev("=_xlfn.SINGLE({5,6})") == 5.0


def test_a_dynamic_array_that_cannot_spill_is_a_spill_error(tmp_path: Path) -> None:
    """A dynamic array formula (cell metadata, ``cm``) whose result is larger than the range
    it spilled into when saved, where a cell it would spill into holds something, is #SPILL!
    (IronCalc's INFORMATION/ISREF.xlsx: FILTER(L1:L2, M1:M2, {1,2,3}) in D9, with a text in
    E9, saved #SPILL!); with those cells free, or as a legacy array formula (no ``cm``), its
    range gets its first values."""
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    fx = "_xlfn._xlws.FILTER(L1:L2, M1:M2, {1,2,3})"

    def array(cell: str, dynamic: bool) -> str:
        cm = ' cm="1"' if dynamic else ""
        return f'<c r="{cell}"{cm}><f t="array" ref="{cell}">{fx}</f><v>0</v></c>'

    rows = (
        '<row r="1"><c r="L1"><v>10</v></c><c r="M1" t="b"><v>0</v></c></row>'
        '<row r="2"><c r="L2"><v>20</v></c><c r="M2" t="b"><v>0</v></c></row>'
        f'<row r="3">{array("D3", True)}<c r="E3" t="str"><v>x</v></c></row>'
        f'<row r="4">{array("D4", True)}<c r="G4"><v>5</v></c></row>'
        f'<row r="5">{array("D5", False)}<c r="E5" t="str"><v>x</v></c></row>'
        f'<row r="6">{array("D6", True)}<c r="F6"><f>1+1</f><v>2</v></c></row>'
    )
    parts = {
        "[Content_Types].xml": "<Types/>",
        "xl/workbook.xml": f'<workbook {ns} {rns}><sheets><sheet name="S" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": "<Relationships>"
        '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/>'
        "</Relationships>",
        "xl/worksheets/sheet1.xml": f"<worksheet {ns}><sheetData>{rows}</sheetData></worksheet>",
    }
    path = tmp_path / "spill.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in parts.items():
            z.writestr(name, text)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {f"{s}!{col_letters(c)}{r}": v for (s, r, c), v in out.values.items()}
    assert got["S!D3"] == XlError("#SPILL!")  # E3 holds a text
    assert got["S!D4"] == 1.0  # E4 and F4 free (G4 is beyond the three values)
    assert got["S!D5"] == 1.0  # a legacy array formula does not spill
    assert got["S!D6"] == XlError("#SPILL!")  # F6 holds a formula
