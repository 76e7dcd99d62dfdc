"""LAMBDA and its family (ISOMITTED, MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY), SHEET and
SHEETS, RANDARRAY: each case an input and Excel's value, from Excel's function pages or from
a workbook Excel saved (IronCalc 0.9.1's test workbooks, xlsx/tests/calc_tests/..., named at
each case)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from fide_rating.engine.book import Book
from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula.values import DIV0, NA, NUM, REF, VALUE, Result, XlError
from fide_rating.engine.functions import FUNCTIONS
from fide_rating.engine.package import defined_names
from fide_rating.engine.recalc import recalc_file
from test_formula import _rc

CALC = XlError("#CALC!")

# the inputs of IronCalc's LOGICAL/MAP_REDUCE.xlsx, LOGICAL/LAMBDA.xlsx and
# INFORMATION/ISOMITTED.xlsx, where they do not overlap
CELLS: dict[str, object] = {
    "A1": 34.0, "B1": 2.0, "C1": 3.0, "A2": 4.0, "B2": 5.0, "C2": 6.0,
    "A5": 2.0, "B5": 12.0, "C5": 3.0, "A6": 3.0, "B6": 23.0, "C6": 4.0,
    "D1": 7.0, "E1": 6.0, "F1": "Because it's in the Impossible that you find reality",
    "K1": "text", "K2": 12.0, "L2": 3.0,
}  # fmt: skip
NAMES = {
    "CountWords": "_xlfn.LAMBDA(_xlpm.text, LEN(TRIM(_xlpm.text)) - LEN(SUBSTITUTE("
    'TRIM(_xlpm.text), " ", "")) + 1)',
    "Temperature": "_xlfn.LAMBDA(_xlpm.temp, (5/9) * (_xlpm.temp-32))",
    "Fact": "_xlfn.LAMBDA(_xlpm.n, IF(_xlpm.n<2, 1, _xlpm.n*Fact(_xlpm.n-1)))",
    "Seven": "7",
    "Week": '_xlfn.LAMBDA(LEFT(TEXT(2+_xlfn.SEQUENCE(1,7,0),"ddd")))',
    "Celsius": "Temperature",  # another name for a LAMBDA
    "_xleta.SUM": "#NAME?",  # as Excel defines the functions a formula names as LAMBDAs
}


def _book(cells: Mapping[str, object], formulas: dict[str, str], *, array: bool) -> Book:
    b = Book()
    for title in ("S", "T", "U"):
        b.sheets[title] = title
        b.extents[title] = (0, 0)
    compiler = Compiler(NAMES, sheets=["S", "T", "U"])
    compile_ = compiler.compile_array if array else compiler.compile
    max_r = max_c = 0
    for ref, value in cells.items():
        r, c = _rc(ref)
        b.results[("S", r, c)] = value  # type: ignore[assignment]
        max_r, max_c = max(max_r, r), max(max_c, c)
    for ref, text in formulas.items():
        r, c = _rc(ref)
        b.compiled[("S", r, c)] = compile_(text.lstrip("="), r, c)
        max_r, max_c = max(max_r, r), max(max_c, c)
    b.extents["S"] = (max_r, max_c)
    return b


def ev(text: str, cells: Mapping[str, object] | None = None) -> object:
    """An ordinary formula's value in S!Z99."""
    return _book(CELLS if cells is None else cells, {"Z99": text}, array=False).value("S", 99, 26)


def ev_array(text: str) -> Result:
    """An array formula's whole result, written in S!Z99."""
    b = _book(CELLS, {}, array=True)
    closure = Compiler(NAMES, sheets=["S", "T", "U"]).compile_array(text.lstrip("="), 99, 26)
    return closure(b, "S", 99, 26)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # Excel's LAMBDA page: "=LAMBDA(number, number + 1)(1)" returns 2
        ("=LAMBDA(number, number + 1)(1)", 2.0),
        # LOGICAL/LAMBDA.xlsx: A1, A2, F2, F4, B5
        ("=_xlfn.LAMBDA(_xlpm.x, _xlpm.x+1)(5)", 6.0),
        ("=_xlfn.LAMBDA(_xlpm.x,_xlpm.y, SQRT(_xlpm.x*_xlpm.x+_xlpm.y*_xlpm.y))(3,4)", 5.0),
        ("=CountWords(F1)", 9.0),
        (
            "=_xlfn.LET(_xlpm.area, _xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x*_xlpm.y), "
            "_xlpm.area(D1,E1))",
            42.0,
        ),
        ("=Temperature(0)", -17.77777777777778),
        ("=Temperature(100)", 37.77777777777778),
        ("=Celsius(212)", 100.0),
        ("=Celsius", CALC),
        # INFORMATION/ISOMITTED.xlsx: A1, A6, A7 (A5 is 12, B5 3 there: K2 and L2 here)
        (
            '=_xlfn.LAMBDA(_xlpm.x,_xlpm.y, IF(_xlfn.ISOMITTED(_xlpm.y),"Missing second argument",'
            "_xlpm.x+_xlpm.y))(1,)",
            "Missing second argument",
        ),
        (
            "=_xlfn.LAMBDA(_xlpm.a,_xlop.b,IF(_xlfn.ISOMITTED(_xlpm.b),_xlpm.a/2,"
            "_xlpm.a*_xlpm.b))(K2)",
            6.0,
        ),
        (
            "=_xlfn.LAMBDA(_xlpm.a,_xlop.b,IF(_xlfn.ISOMITTED(_xlpm.b),_xlpm.a/2,"
            "_xlpm.a*_xlpm.b))(K2, L2)",
            36.0,
        ),
        ("=LAMBDA(x,y,IF(ISOMITTED(y),1,2))(5,6)", 2.0),  # given: not omitted
        ("=LAMBDA(a,_xlop.b,ISOMITTED(b))(1,)", True),  # written empty: omitted too
        ("=LET(x,1,ISOMITTED(x))", False),  # a LET name is never omitted
        ("=ISOMITTED(A1)", False),
        ("=LAMBDA(x,y,x+y)(1,)", 1.0),  # an omitted argument reads as a blank
        # INFORMATION/ISREF.xlsx A19, A21, A23: a reference stays one through a parameter
        ("=_xlfn.LAMBDA(_xlpm.x, ISREF(_xlpm.x))(K1)", True),
        ("=_xlfn.LAMBDA(_xlpm.x, ISREF(_xlpm.x))(K1:K2)", True),
        ("=_xlfn.LAMBDA(_xlpm.x, ISREF(_xlpm.x))(5)", False),
        ("=_xlfn.LAMBDA(_xlpm.x, ISREF(_xlpm.x))(K1+1)", False),
        ("=_xlfn.LET(_xlpm.x, K1, ISREF(_xlpm.x))", True),
        # MATH_AND_TRIGONOMETRY/MAX_MIN.xlsx H55: an error inside the body is the result
        ('=_xlfn.LAMBDA(_xlpm.x, MAX(_xlpm.x))("h")', VALUE),
        # Excel's LAMBDA page, errors: a wrong number of arguments is #VALUE!, a LAMBDA left
        # uncalled in a cell #CALC!
        ("=LAMBDA(x,y,x+y)(1)", VALUE),
        ("=LAMBDA(x,x)(1,2)", VALUE),
        ("=LAMBDA(a,_xlop.b,a)(1,2,3)", VALUE),
        ("=LAMBDA(a,_xlop.b,a)()", VALUE),
        ("=LAMBDA(x,x+1)", CALC),
        # a LAMBDA used where a value goes is that error value, #CALC!
        ("=LAMBDA(x,x)+1", CALC),
        ("=SUM(LAMBDA(x,x))", CALC),
        ("=ISERROR(LAMBDA(x,x))", True),
        ("=IF(TRUE,LAMBDA(x,x*2))(4)", 8.0),  # a LAMBDA chosen, then called
        ("=CHOOSE(2,LAMBDA(x,x),LAMBDA(x,x*3))(2)", 6.0),
        ("=Temperature", CALC),
        ("=LAMBDA(x,x)(1/0)+1", DIV0),  # the error given is the body's to judge
        # the values around a LAMBDA when it was made stay with it
        ("=LET(n, 10, f, LAMBDA(x, x+n), f(1))", 11.0),
        ("=LET(n, 10, LAMBDA(x, x+n))(1)", 11.0),
        ("=LAMBDA(x, LAMBDA(y, x-y))(10)(3)", 7.0),
        ("=LET(x, 5, LAMBDA(x, x*2)(1))", 2.0),  # a parameter hides a LET name
        ("=(LAMBDA(x, x*3))(2)", 6.0),
        # a name defined as a LAMBDA calling itself
        ("=Fact(5)", 120.0),
        ("=Fact(1)", 1.0),
        ("=1+Week()", VALUE),  # an array's first element, "M", in an ordinary formula
    ],
)
def test_lambda(formula: str, expected: object) -> None:
    assert ev(formula) == expected


def test_a_lambda_named_for_one_sheet_or_in_another_alphabet() -> None:
    compiler = Compiler({"μFn": "LAMBDA(x,x*2)"}, local={"Twice": {"S": "LAMBDA(x,x*3)"}},
                        sheets=["S", "T"])  # fmt: skip
    b = Book()
    for title in ("S", "T"):
        b.sheets[title] = title
        b.extents[title] = (3, 1)
    for i, text in enumerate(["μFn(21)", "S!Twice(4)", "Twice(5)"], start=1):
        b.compiled[("S", i, 1)] = compiler.compile(text, i, 1)
    b.compiled[("T", 1, 1)] = compiler.compile("Twice(5)", 1, 1)
    assert [b.value("S", i, 1) for i in (1, 2, 3)] == [42.0, 12.0, 15.0]
    assert b.value("T", 1, 1) == XlError("#NAME?")  # the name is S's alone


def test_a_name_not_a_lambda_called_is_reported() -> None:
    from fide_rating.engine.formula.values import Unsupported

    with pytest.raises(Unsupported, match="SEVEN is a defined name that is not a LAMBDA"):
        Compiler(NAMES).compile("Seven(1)", 1, 1)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # LOGICAL/MAP_REDUCE.xlsx G1:I2 and E1
        (
            "=_xlfn.MAP(A1:C2,A5:C6,_xlfn.LAMBDA(_xlpm.x,_xlpm.y, _xlpm.x*_xlpm.y))",
            [[68.0, 24.0, 9.0], [12.0, 115.0, 24.0]],
        ),
        (
            "=_xlfn.REDUCE(0,A1:C2, _xlfn.LAMBDA(_xlpm.x,_xlpm.y, "
            "SQRT(_xlpm.x*_xlpm.x+_xlpm.y*_xlpm.y)))",
            35.298725189445584,
        ),
        # LOGICAL/SCAN.xlsx E1:G2 (A1:C2 3,4,7;4,5,8 there: here written as an array)
        (
            "=_xlfn.SCAN(1,{3,4,7;4,5,8}, _xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x+8*_xlpm.y))",
            [[25.0, 57.0, 113.0], [145.0, 185.0, 249.0]],
        ),
        (
            '=SCAN("Days: ", {"Monday","Tuesday"}, LAMBDA(x,y, CONCAT(x, " AND ", y)))',
            [["Days:  AND Monday", "Days:  AND Monday AND Tuesday"]],
        ),
        # LOGICAL/BYCOL_BYROW.xlsx A6:A7 and D8:F8 (A1:C2 1,2,3;4,5,6 there)
        ("=_xlfn.BYROW({1,2,3;4,5,6},_xlfn.LAMBDA(_xlpm.x,MAX(_xlpm.x)))", [[3.0], [6.0]]),
        ("=_xlfn.BYCOL({1,2,3;4,5,6}, _xlfn.LAMBDA(_xlpm.x, SUM(_xlpm.x)))", [[5.0, 7.0, 9.0]]),
        # LOGICAL/MAKEARRAY.xlsx A1:C3
        (
            "=_xlfn.MAKEARRAY(3,3, _xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x*_xlpm.y))",
            [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]],
        ),
        # Excel's REDUCE page: the initial value left out starts as a blank
        ("=REDUCE(, {1,2,3}, LAMBDA(a,b,a+b^2))", 14.0),
        ("=MAP({1,2}, LAMBDA(x, {1,2}))", [[CALC, CALC]]),  # an array in an array
        ("=BYROW({1,2;3,4}, LAMBDA(r, r*2))", [[CALC], [CALC]]),
        ("=MAP({1,2}, 5)", VALUE),  # no LAMBDA
        ("=MAP({1,2}, LAMBDA(x, y, x))", VALUE),  # a LAMBDA of another number of parameters
        ("=REDUCE(0, {1,2}, LAMBDA(a, a))", VALUE),
        ("=MAKEARRAY(0, 2, LAMBDA(r, c, 1))", VALUE),
        ("=MAKEARRAY(1, 1, LAMBDA(r, c, 1))", [[1.0]]),
        ("=LET(f, LAMBDA(x, x+1), MAP({1,2}, f))", [[2.0, 3.0]]),  # a LET name's LAMBDA
        ("=MAP({32,212}, Temperature)", [[0.0, 100.0]]),  # a defined name's LAMBDA
        ("=MAKEARRAY(1/0, 2, LAMBDA(r, c, 1))", DIV0),
        ("=LAMBDA(a, MAP({1,2}, LAMBDA(x, x*a)))(3)", [[3.0, 6.0]]),
        # percentages element by element (TEXT/MINUS_MINUS.xlsx D44: {={10,20}%})
        ("={10,20}%", [[0.1, 0.2]]),
        # TEXT/MINUS_MINUS.xlsx F27:F30 (A1:A4 is "h" in A1 only there)
        ('=_xlfn.LAMBDA(_xlpm.x, --_xlpm.x)({"h";"a";"b";"c"}="h")', [[1.0], [0.0], [0.0], [0.0]]),
        # a function named where a LAMBDA goes (BYROW(A1:C3, SUM), saved _xleta.SUM)
        ("=BYROW({1,2;3,4}, _xleta.SUM)", [[3.0], [7.0]]),
        ("=MAP({1,-2}, _xleta.ABS)", [[1.0, 2.0]]),
        ("=MAP({1,2}, {3,0}, _xleta.MAX)", [[3.0, 2.0]]),
        ("=SCAN(0, {1,2,3}, _xleta.SUM)", [[1.0, 3.0, 6.0]]),
        ("=BYCOL({1,2;3,4}, _xleta.PI)", VALUE),  # PI takes no argument
        ("=MAP({1,2}, _xleta.NOSUCH)", XlError("#NAME?")),
        # yearly_calendar.xlsx's week(): the first letters of the days, Monday first
        ("=Week()", [["M", "T", "W", "T", "F", "S", "S"]]),
    ],
)
def test_lambda_in_array_formulas(formula: str, expected: object) -> None:
    assert ev_array(formula) == expected


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # INFORMATION/SHEET_SHEETS.xlsx B2, C2, B3, B10, B11 (four sheets there, three here)
        ("=_xlfn.SHEET()", 1.0),
        ("=_xlfn.SHEETS()", 3.0),
        ("=_xlfn.SHEET(0)", NA),
        ("=_xlfn.SHEET(1/0)", DIV0),
        ('=_xlfn.SHEET("")', NA),
        # Excel's SHEET and SHEETS pages
        ('=SHEET("t")', 2.0),  # a sheet's name, in any case
        ("=SHEET(T!A1)", 2.0),
        ("=SHEET(U!A1:B2)", 3.0),
        ('=SHEET("nosuch")', NA),
        ("=SHEET(Nosuch!A1)", REF),
        ("=SHEETS(S:U!A1)", 3.0),
        ("=SHEETS(T:U!A1:B2)", 2.0),
        ("=SHEETS(A1)", 1.0),
        ("=SHEETS(5)", VALUE),
        ("=SHEET(T:U!A1)", 2.0),
    ],
)
def test_sheet_and_sheets(formula: str, expected: object) -> None:
    assert ev(formula) == expected


def test_randarray_shapes_ranges_and_errors() -> None:
    grid = ev_array("=RANDARRAY(2,3)")
    assert isinstance(grid, list) and len(grid) == 2 and all(len(line) == 3 for line in grid)
    assert all(isinstance(v, float) and 0 <= v < 1 for line in grid for v in line)
    whole = ev_array("=RANDARRAY(20,20,1,3,TRUE)")
    assert isinstance(whole, list)
    assert {v for line in whole for v in line} <= {1.0, 2.0, 3.0}
    spread = ev_array("=RANDARRAY(5,5,-10,-5)")
    assert isinstance(spread, list)
    assert all(isinstance(v, float) and -10 <= v < -5 for line in spread for v in line)
    one = ev("=RANDARRAY()")
    assert isinstance(one, float) and 0 <= one < 1
    assert ev_array("=RANDARRAY(0)") == CALC
    assert ev_array("=RANDARRAY(1,0)") == CALC
    assert ev_array("=RANDARRAY(1,1,5,1)") == VALUE  # max below min
    assert ev_array("=RANDARRAY(1,1,1.2,1.8,TRUE)") == VALUE  # no whole number between
    assert ev_array("=RANDARRAY(1,1,2,2,TRUE)") == [[2.0]]
    assert ev_array("=RANDARRAY(1025,1024)") == NUM  # more than 1,048,576 values
    assert FUNCTIONS["RANDARRAY"].volatile


# a sheet as Excel writes it: the other cells of an array formula's range hold an empty
# formula and the value they showed
_SHEET = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    b'<row r="1"><c r="A1"><f t="array" ref="A1:B2">CUBEVALUE(1)</f><v>1</v></c>'
    b'<c r="B1"><f ca="1"/><v>1</v></c>'
    b'<c r="D1"><f t="array" ref="D1:D2">CountWords({"a b";"c"})</f><v>0</v></c>'
    b'<c r="F1"><f>Temperature(212)</f><v>0</v></c></row>'
    b'<row r="2"><c r="A2"><f/><v>1</v></c><c r="B2"><v>1</v></c>'
    b'<c r="D2"><v>0</v></c><c r="F2"><f>LAMBDA(x,x)</f><v>0</v></c></row>'
    b"</sheetData></worksheet>"
)


def _workbook(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    for name, target in NAMES.items():
        wb.defined_names[name] = DefinedName(name, attr_text=target)
    path = tmp_path / "lambda.xlsx"
    wb.save(path)
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
    parts["xl/worksheets/sheet1.xml"] = _SHEET
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    path.write_bytes(buffer.getvalue())
    return path


def test_a_workbook_with_lambdas_is_computed_and_its_array_cells_say_why(tmp_path: Path) -> None:
    path = _workbook(tmp_path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    values = {f"{chr(64 + c)}{r}": v for (_, r, c), v in out.values.items()}
    assert values["D1"] == 2.0 and values["D2"] == 1.0  # CountWords of each element
    assert values["F1"] == 100.0
    assert values["F2"] == CALC
    reasons = {p.cell: p.reason for p in out.problems}
    assert reasons["A1"] == "CUBEVALUE is an Excel function recalc does not compute"
    for cell in ("B1", "A2"):  # the range's formula cells name the array formula and its reason
        assert reasons[cell] == (
            "in the array formula at A1, not computed: "
            "CUBEVALUE is an Excel function recalc does not compute"
        )
    assert "an empty formula" not in reasons.values()


def test_a_user_defined_functions_argument_descriptions_define_no_name() -> None:
    # as xlwings' udfs/dynamic_array_tests.xlsm keeps them (Excel's x14 extension)
    book = (
        b'<workbook><definedNames><definedName name="Rate">S!$A$1</definedName>'
        b'</definedNames><extLst><ext><x14:definedNames><x14:definedName name="test_bdh">'
        b'<x14:argumentDescriptions count="1"><x14:argumentDescription index="0">Positional'
        b" argument 1</x14:argumentDescription></x14:argumentDescriptions></x14:definedName>"
        b"</x14:definedNames></ext></extLst></workbook>"
    )
    assert defined_names({"xl/workbook.xml": book}) == {"Rate": "S!$A$1"}


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # IronCalc's LOOKUP_AND_REFERENCE/CHOOSE.xlsx (SUM(A9:CHOOSE(2,A10,A11,A12)) is 68
        # there) and range_operator.xlsx (SUM(CHOOSE(1,A1,...):CHOOSE(4,A1,...)) is 15)
        ("=SUM(A1:CHOOSE(2,A2,A3))", 6.0),
        ("=SUM(CHOOSE(1,A1,A2):CHOOSE(2,A1,A4))", 10.0),
        ("=SUM(IF(TRUE,A2,A1):A3)", 5.0),
        ("=CHOOSE(2,A1,A2)+1", 3.0),  # where a value goes, the value
    ],
)
def test_a_branch_chosen_where_a_reference_goes_stays_a_reference(
    formula: str, expected: object
) -> None:
    assert ev(formula, {"A1": 1.0, "A2": 2.0, "A3": 3.0, "A4": 4.0}) == expected


def test_a_range_keeps_its_shape_past_the_last_used_cell() -> None:
    """IronCalc's LOOKUP_AND_REFERENCE/ROW_COLUM.xlsx, Sheet2!A1: {=MAX((C1:C20<>"")*
    ROW(C1:C20))} is 6 with C1:C6 filled: the range's blanks below the sheet's last used row
    are elements too, lined up with ROW's twenty."""
    cells = {f"C{r}": float(r) for r in range(1, 7)}
    b = _book(cells, {}, array=True)
    closure = Compiler().compile_array('MAX((C1:C20<>"")*ROW(C1:C20))', 1, 1)
    assert closure(b, "S", 1, 1) == 6.0
    rows = Compiler().compile_array('ROWS(IF(C1:C20="",0,1))', 1, 1)
    assert rows(b, "S", 1, 1) == 20.0
