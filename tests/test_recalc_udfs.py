"""recalc --udfs: the workbook's own xlwings functions, from the modules the user names,
computed as classic xlwings computes them in Excel (what COM hands a function, xlwings'
converters, the result as one value or an array); a function that raises shows a short error
text and is reported; what only Excel has is reported not computed; a module that does not
import is exit status 2 with its error in one line; without --udfs nothing is imported."""

from __future__ import annotations

import datetime as dt
import os
import sys
import types
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest

from fide_rating.commands.cli import main
from fide_rating.engine.formula import XlError, col_letters, col_number
from fide_rating.engine.recalc import Recalculated, recalc_file
from fide_rating.engine.udfs import arg, func, is_date_format, load, ret, sub
from fide_rating.rules.errors import FideInputError

MODULE = """
import datetime as dt

import xlwings as xw


@xw.func
def double(x):
    return 2 * x


@xw.func
def kind(x):
    return type(x).__name__


@xw.func
def total(values):
    return sum(v for row in values for v in row)


@xw.func
@xw.arg("x", ndim=2)
def shape(x):
    return f"{len(x)}x{len(x[0])}"


@xw.func
@xw.arg("x", transpose=True)
def first_row(x):
    return repr(x[0])


@xw.func
@xw.arg("x", dates=dt.date)
def day_of(x):
    return repr(x)


@xw.func
def moment(x):
    return repr(x)


@xw.func
@xw.arg("x", numbers=int)
def whole(x):
    return repr(x)


@xw.func
@xw.arg("x", empty="-")
def blanks(x):
    return repr(x)


@xw.func
@xw.arg("table", dict)
def pick(table, key):
    return table[key]


@xw.func
def greet(name, greeting="hello", times=2):
    return f"{greeting} {name} " * int(times)


@xw.func
def count_args(first, *rest):
    return f"{first!r}+{rest!r}"


@xw.func
def grid(n):
    return [[i * 10 + j for j in range(2)] for i in range(int(n))]


@xw.func
@xw.ret(transpose=True)
def as_column(n):
    return [list(range(int(n)))]


@xw.func
def pairs():
    return {"a": 1, "b": "c"}


@xw.func
def fails(x):
    raise ValueError(f"no good: {x}\\nsecond line")


@xw.func
def a_date():
    return dt.date(2024, 3, 1)


@xw.func
def nothing():
    return None


@xw.func
async def later(x):
    return x + 1


@xw.sub
def macro():
    pass


@xw.func
def needs_excel():
    xw.Book.caller()
    return 1


@xw.func
def calling(caller):
    return 1


@xw.func
@xw.arg("xl", vba="Application")
def with_excel(xl, x):
    return x


@xw.func
def leaves():
    raise SystemExit(1)


@xw.func
def lookup(x, y):
    return "the module's"


@xw.func
def talks(x):
    print("computing", x)
    return x
"""

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
RNS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
# cellXfs: 0 General, 1 a built-in date (14), 2 a custom date and time, 3 a number format
STYLES = (
    f'<styleSheet {NS}><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd '
    'hh:mm"/><numFmt numFmtId="165" formatCode="&quot;day &quot;0.00"/></numFmts>'
    '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/>'
    '<xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165"/></cellXfs></styleSheet>'
)


def _value(ref: str, v: object, style: int = 0) -> str:
    s = f' s="{style}"' if style else ""
    if isinstance(v, bool):
        return f'<c r="{ref}"{s} t="b"><v>{int(v)}</v></c>'
    if isinstance(v, str) and v.startswith("#"):
        return f'<c r="{ref}"{s} t="e"><v>{v}</v></c>'
    if isinstance(v, str):
        return f'<c r="{ref}"{s} t="inlineStr"><is><t>{v}</t></is></c>'
    return f'<c r="{ref}"{s}><v>{v}</v></c>'


def _formula(ref: str, text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return f'<c r="{ref}"><f>{text}</f><v>0</v></c>'


def _array(first: str, last: str, text: str, dynamic: bool = False) -> list[str]:
    """An array formula over first:last: its formula in the first cell, values in the rest."""
    cm = ' cm="1"' if dynamic else ""
    (c1, r1), (c2, r2) = (_at(first), _at(last))
    cells = [f'<c r="{first}"{cm}><f t="array" ref="{first}:{last}">{text}</f><v>0</v></c>']
    for r in range(r1, r2 + 1):
        for c in range(c1, c2 + 1):
            if (c, r) != (c1, r1):
                cells.append(f'<c r="{col_letters(c)}{r}"><v>0</v></c>')
    return cells


def _at(ref: str) -> tuple[int, int]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    return col_number(letters), int(ref[len(letters) :])


def _book(path: Path, cells: list[str], *, macros: bool = False) -> Path:
    """A workbook of one sheet S holding ``cells`` (XML of c elements), rows in order."""
    rows: dict[int, dict[int, str]] = {}
    for c in cells:
        col, row = _at(c.split('r="', 1)[1].split('"', 1)[0])
        rows.setdefault(row, {})[col] = c
    data = "".join(f'<row r="{r}">{"".join(v for _, v in sorted(rows[r].items()))}</row>'
                   for r in sorted(rows))  # fmt: skip
    parts = {
        "[Content_Types].xml": "<Types/>",
        "xl/workbook.xml": f'<workbook {NS} {RNS}><sheets><sheet name="S" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": "<Relationships>"
        '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/>'
        "</Relationships>",
        "xl/styles.xml": STYLES,
        "xl/worksheets/sheet1.xml": f"<worksheet {NS}><sheetData>{data}</sheetData></worksheet>",
    }
    if macros:
        parts["xl/vbaProject.bin"] = "vba"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in parts.items():
            z.writestr(name, text)
    return path


INPUTS = [
    _value("A1", 2),
    _value("A2", "text"),
    _value("A4", "#N/A"),
    _value("A5", 45352, style=1),  # 2024-03-01
    _value("A6", True),
    _value("A7", 45352.75, style=2),  # 2024-03-01 18:00
    _value("A8", 45352, style=3),  # a number format that is no date
    _value("A9", 2.6),
    _value("C1", 1),
    _value("D1", 2),
    _value("C2", 3),
    _value("D2", 4),
    _value("E1", "a"),
    _value("F1", 1),
    _value("E2", "b"),
    _value("F2", "two"),
    _value("C4", 5),
    _value("D5", 6),
]

FORMULAS = {
    "B1": "double(A1)",
    "B2": "kind(A2)",
    "B3": "kind(A3)",  # blank
    "B4": "kind(A4)",  # an error cell
    "B5": "kind(A5)",  # a date
    "B6": "kind(A6)",
    "B7": "kind(A1)",
    "B8": "total(C1:D2)",
    "B9": "shape(A1)",
    "B10": "first_row(C1:D2)",
    "B11": "day_of(A5)",
    "B12": "moment(A7)",
    "B13": "moment(A8)",
    "B14": "whole(A9)",
    "B15": "blanks(C4:D5)",
    "B16": 'pick(E1:F2, "b")',
    "B17": 'greet("Ann")',
    "B18": 'greet("Ann",,1)',
    "B19": 'greet("Ann","hi",1)',
    "B20": "count_args(1,2,3)",
    "B21": "count_args(1)",
    "B22": "fails(A1)",
    "B23": "a_date()",
    "B24": "double(B1)",  # a chain: a function's cell read by a function
    "B25": "B1+1",  # and by a formula
    "B26": "_xludf.double(A1)",
    "B27": "Double(A1)",
    "B28": "double()",  # too few arguments
    "B29": "double(1,2)",  # too many
    "B30": "nothing()",
    "B31": "later(A1)",
    "B32": "as_column(3)",  # an array in one cell: its first value
    "B33": "kind({1,2;3,4})",  # an array: a tuple of rows, then a list of lists
    "B34": "talks(A1)",
    "B35": "kind(1/0)",  # an error value: None
    "B36": "kind(#N/A)",
    "B37": "lookup(2, C1:D1)",  # Excel's own LOOKUP, not the module's
}
LEFT = {
    "B40": "macro()",
    "B41": "needs_excel()",
    "B42": "calling()",
    "B43": "with_excel(1)",
    "B44": "kind(A10)",  # a cell not computed: neither is the function's
}


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "functions.py"
    path.write_text(MODULE)
    return path


@pytest.fixture
def book(tmp_path: Path) -> Path:
    cells = [*INPUTS, _formula("A10", 'CUBEVALUE("x")'), _formula("B38", "leaves()")]
    cells += [_formula(ref, text) for ref, text in {**FORMULAS, **LEFT}.items()]
    cells += [
        *_array("G1", "H2", "grid(2)"),  # a legacy array formula (CSE)
        *_array("G4", "H6", "grid(3)", dynamic=True),  # a dynamic spill
        *_array("G8", "H10", "grid(2)"),  # a range larger than the result
        *_array("J1", "J3", "as_column(3)"),
        *_array("K1", "L2", "pairs()"),
        _formula("M1", "SUM(G4:H6)"),  # a formula reading a spill
    ]
    return _book(tmp_path / "book.xlsx", cells)


def _values(out: Recalculated) -> dict[str, Any]:
    return {f"{col_letters(c)}{r}": v for (_, r, c), v in out.values.items()}


def _computed(book: Path, module: Path) -> Recalculated:
    return recalc_file(book, out_dir=book.parent / "out", udfs=load([module]), force=True)


def test_cells_get_what_classic_xlwings_gives_them(
    book: Path, module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _computed(book, module)
    got = _values(out)
    assert got["B1"] == 4.0
    # what COM hands a classic function: texts, blank and error cells as None, dates as
    # datetimes (a cell's date format, built-in or custom), logicals, numbers as float
    assert [got[f"B{r}"] for r in range(2, 8)] == ["str", "NoneType", "NoneType",
                                                   "datetime", "bool", "float"]  # fmt: skip
    assert got["B8"] == 10.0  # a range as a list of rows
    assert got["B9"] == "1x1"  # ndim=2
    assert got["B10"] == "[1.0, 3.0]"  # transpose=True
    assert got["B11"] == "datetime.date(2024, 3, 1)"  # dates=date
    assert got["B12"] == "datetime.datetime(2024, 3, 1, 18, 0)"
    assert got["B13"] == "45352.0"  # a number format without a date: the number
    assert got["B14"] == "3"  # numbers=int rounds
    assert got["B15"] == "[[5.0, '-'], ['-', 6.0]]"  # empty="-"
    assert got["B16"] == "two"  # dict
    assert got["B17"] == "hello Ann hello Ann "  # defaults of the arguments left out
    assert got["B18"] == "hello Ann "  # one left out between two given
    assert got["B19"] == "hi Ann "
    assert got["B20"] == "1.0+(2.0, 3.0)"  # *args
    assert got["B21"] == "1.0+()"
    assert got["B23"] == 45352.0  # a date returned: its serial number
    assert got["B24"] == 8.0 and got["B25"] == 5.0  # a chain through the function's cell
    assert got["B26"] == 4.0 and got["B27"] == 4.0  # _xludf. and any case: the same function
    assert got["B28"] == XlError("#VALUE!") and got["B29"] == XlError("#VALUE!")
    assert got["B30"] == ""  # None: an empty text, as xlwings writes it
    assert got["B31"] == 3.0  # a coroutine, awaited
    assert got["B32"] == 0.0
    assert got["B33"] == "list"
    assert got["B34"] == 2.0
    assert got["B35"] == got["B36"] == "NoneType"
    assert got["B37"] == 2.0
    # arrays: a legacy array formula, a dynamic one, a range larger than the result
    assert [got[k] for k in ("G1", "H1", "G2", "H2")] == [0.0, 1.0, 10.0, 11.0]
    assert [got[k] for k in ("G4", "H4", "G6", "H6")] == [0.0, 1.0, 20.0, 21.0]
    assert got["G10"] == XlError("#N/A") and got["H9"] == 11.0
    assert [got["J1"], got["J2"], got["J3"]] == [0.0, 1.0, 2.0]  # ret transpose=True
    assert [got[k] for k in ("K1", "L1", "K2", "L2")] == ["a", 1.0, "b", "c"]  # a dict
    assert got["M1"] == 63.0
    assert "computing 2.0" in capsys.readouterr().err  # what it prints: not the report


def test_a_function_that_raises_shows_its_error_and_is_reported(book: Path, module: Path
                                                                 ) -> None:  # fmt: skip
    out = _computed(book, module)
    assert _values(out)["B22"] == "#PYTHON! ValueError: no good: 2.0"
    assert _values(out)["B38"] == "#PYTHON! SystemExit: 1"
    assert [str(p) for p in out.raised] == [
        "S!B22: fails raised ValueError: no good: 2.0",
        "S!B38: leaves raised SystemExit: 1",
    ]
    assert "B22" not in {p.cell for p in out.problems}  # computed: its text is its value


def test_what_only_excel_has_is_not_computed_with_the_reason(book: Path, module: Path) -> None:
    out = _computed(book, module)
    reasons = {p.cell: p.reason for p in out.problems}
    assert reasons == {
        "B40": "macro is a macro (@xw.sub), which Excel runs, not a cell",
        "B41": "needs_excel calls xw.Book.caller(), which needs Excel",
        "B42": "calling takes the calling cell as an Excel range (caller)",
        "B43": "with_excel takes Excel's Application object (vba=) as xl",
        "A10": "CUBEVALUE is an Excel function recalc does not compute",
        "B44": "depends on S!A10 (CUBEVALUE is an Excel function recalc does not compute), "
        "which is not computed",  # the root cause named
    }
    assert not set(reasons) & set(_values(out))


def test_the_command_names_its_modules_and_reports(
    book: Path, module: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recalc", str(book), "-o", str(tmp_path / "o"), "--udfs", str(module)]) == 0
    said = capsys.readouterr().out
    assert "S!B22: fails raised ValueError: no good: 2.0" in said
    assert "S!B41: needs_excel calls xw.Book.caller(), which needs Excel" in said
    assert "Traceback" not in said


def test_a_batch_computes_them_in_every_workbook(
    book: Path, module: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    books = []
    for i in range(4):  # enough for worker processes where there are processors for them
        books.append(tmp_path / f"b{i}.xlsx")
        books[-1].write_bytes(book.read_bytes())
    out = tmp_path / "o"
    assert main(["recalc", *map(str, books), "-o", str(out), "--udfs", str(module), "-q"]) == 0
    assert capsys.readouterr().out.count("fails raised ValueError") == 4
    for b in books:
        assert _values(recalc_file(out / b.name, out_dir=tmp_path / "again", force=True,
                                   udfs=load([module])))["B1"] == 4.0  # fmt: skip


def test_without_udfs_they_are_reported_as_macros_and_nothing_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "imported"
    (tmp_path / "book.py").write_text(  # the module classic xlwings would use: never run
        f"open({str(marker)!r}, 'w').close()\nimport xlwings as xw\n\n@xw.func\n"
        "def double(x):\n    return 2 * x\n"
    )
    path = _book(tmp_path / "book.xlsm", [_value("A1", 2), _formula("B1", "double(A1)")],
                 macros=True)  # fmt: skip
    assert main(["recalc", str(path), "-o", str(tmp_path / "o")]) == 0
    said = capsys.readouterr().out
    assert "S!B1: DOUBLE is not an Excel function (one of the workbook's macros?)" in said
    assert not marker.exists()
    assert main(["recalc", str(path), "-o", str(tmp_path / "o"), "--force",
                 "--udfs", str(tmp_path / "book.py")]) == 0  # fmt: skip
    assert marker.exists()
    assert "1 of 1 formulas computed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("raise RuntimeError('broken\\nsecond line')", "RuntimeError: broken"),
        ("import no_such_module_here", "ModuleNotFoundError: No module named 'no_such_module_here'"),
        ("def f(:\n    pass", "SyntaxError: invalid syntax"),
        ("import sys\nsys.exit(3)", "SystemExit: 3"),
        ("import xlwings as xw\n\n@xw.func(category=15)\ndef f():\n    pass",
         "Exception: There is only 14 build-in categories available in Excel. Please use a "
         "string value to specify a custom category."),
    ],
)  # fmt: skip
def test_a_module_that_does_not_import_is_exit_status_2_in_one_line(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(text)
    assert main(["recalc", str(book), "--udfs", str(bad)]) == 2
    said = capsys.readouterr()
    assert said.err.startswith(f"fide-rating: {bad} cannot be imported: {message}")
    assert len(said.err.strip().splitlines()) == 1
    assert "Traceback" not in said.err + said.out
    assert not (tmp_path / "book.recalc.xlsx").exists()


def test_a_missing_module_is_exit_status_2(book: Path, tmp_path: Path) -> None:
    assert main(["recalc", str(book), "--udfs", str(tmp_path / "none.py")]) == 2


def test_two_modules_of_one_function_are_refused(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(
            "import xlwings as xw\n\n@xw.func\ndef Twice(x):\n    return 2 * x\n"
        )
    with pytest.raises(FideInputError, match="two modules define the function Twice"):
        load([tmp_path / "a.py", tmp_path / "b.py"])
    assert set(load([tmp_path / "a.py"])) == {"TWICE"}
    assert set(load([tmp_path / "a.py", tmp_path / ".." / tmp_path.name / "a.py"])) == {"TWICE"}


def test_dates_in_the_1904_date_system(tmp_path: Path, module: Path) -> None:
    path = _book(tmp_path / "mac.xlsx", [_value("A1", 1, style=1), _formula("B1", "moment(A1)"),
                                         _formula("B2", "a_date()")])  # fmt: skip
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
        b"<sheets>", b'<workbookPr date1904="1"/><sheets>'
    )
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    got = _values(_computed(path, module))
    assert got["B1"] == "datetime.datetime(1904, 1, 2, 0, 0)"
    assert got["B2"] == 45352.0 - 1462


def test_xlwings_decorators_are_its_own_again_after_an_import(module: Path) -> None:
    import xlwings as xw

    before = (xw.func, xw.arg, xw.ret, getattr(xw, "sub", None))
    load([module])
    assert (xw.func, xw.arg, xw.ret, getattr(xw, "sub", None)) == before

    def f(x: float) -> float:
        return x

    assert xw.func(f) is f


def test_date_formats_are_told_from_numbers() -> None:
    assert is_date_format(14, None) and is_date_format(22, None) and is_date_format(47, None)
    assert not is_date_format(0, None) and not is_date_format(4, None)
    assert not is_date_format(11, None) and not is_date_format(49, None)
    assert is_date_format(164, "dd/mm/yyyy") and is_date_format(164, "[h]:mm")
    assert not is_date_format(164, '"day "0.00') and not is_date_format(164, "#,##0\\d")
    assert not is_date_format(164, "[$€-407]#,##0.00") and not is_date_format(164, "General")
    assert is_date_format(164, "[$-409]mmm yy")


# --- the metadata: the same as classic xlwings' own decorators write --------------------------


@pytest.fixture
def classic(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """xlwings' classic module (xlwings/udfs.py), imported with pywin32's modules stood in:
    only its decorators are used, which never call them."""
    for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules["pythoncom"].CoInitialize = lambda: None  # type: ignore[attr-defined]
    sys.modules["win32com.client"].Dispatch = object  # type: ignore[attr-defined]
    monkeypatch.delitem(sys.modules, "xlwings.udfs", raising=False)
    import xlwings.udfs

    yield xlwings.udfs
    xlwings.udfs.com_executor.shutdown()
    sys.modules.pop("xlwings.udfs", None)


def _decorated(func_: Any, arg_: Any, ret_: Any, sub_: Any) -> list[Any]:
    def plain(x, y=2):  # type: ignore[no-untyped-def]
        return x

    def hinted(x: dict, when: dt.date, n: Annotated[int, {"numbers": int, "doc": "n"}]) -> list:  # type: ignore[type-arg]
        """Its help."""
        return []

    def varargs(x, *rest):  # type: ignore[no-untyped-def]
        return x

    def annotated() -> Annotated[list, {"transpose": True}]:  # type: ignore[type-arg]
        return []

    def macro(x):  # type: ignore[no-untyped-def]
        return x

    def again(x, y=2):  # type: ignore[no-untyped-def]
        return x

    return [
        func_(plain),
        func_(category=3, volatile=True)(arg_("x", ndim=2, doc="the x")(hinted)),
        func_(async_mode="threading")(arg_("*rest", numbers=int)(varargs)),
        ret_(expand="table")(func_(category="mine")(annotated)),
        arg_("x", vba="Application")(func_(call_in_wizard=False)(again)),
        sub_(macro),
    ]


def test_the_metadata_is_classic_xlwings_own(classic: types.ModuleType) -> None:
    theirs = _decorated(classic.xlfunc, classic.xlarg, classic.xlret, classic.xlsub)
    mine = _decorated(func, arg, ret, sub)
    for a, b in zip(theirs, mine, strict=True):
        assert a.__xlfunc__ == b.__xlfunc__


@pytest.mark.parametrize("options", [{"category": 0}, {"category": 1.5}, {"async_mode": "x"},
                                     {"volatile": "yes"}])  # fmt: skip
def test_classic_refusals_are_classic_xlwings_own(
    classic: types.ModuleType, options: dict[str, Any]
) -> None:
    def f() -> None:
        pass

    with pytest.raises(Exception) as theirs:  # classic xlwings raises Exception
        classic.xlfunc(**options)(f)
    with pytest.raises(Exception) as mine:
        func(**options)(lambda: None)
    assert str(mine.value) == str(theirs.value)


# --- xlwings' own UDF tests, in the conformance corpus ----------------------------------------

CORPUS_UDFS = Path(__file__).resolve().parent.parent / ".cache/corpus/xlwings-0.37.8/tests/udfs"


def test_xlwings_own_udf_tests_give_the_values_excel_saved() -> None:
    """udf_tests.xlsm and its module (classic xlwings' tests, saved by Excel on Windows): every
    cell computed agrees with Excel's value; what only Excel has is left, with its reason."""
    import conformance

    book = CORPUS_UDFS / "udf_tests.xlsm"
    if not (book.exists() and book.with_suffix(".py").exists()):
        if os.environ.get("CI") == "true":
            pytest.fail(f"the corpus is not in {CORPUS_UDFS}: run tests/conformance.py")
        pytest.skip(f"the corpus is not in {CORPUS_UDFS}: run tests/conformance.py")
    outcome = conformance.check(book, "udf_tests.xlsm", "xlwings")
    assert outcome.error == "" and outcome.disagree == {}
    assert outcome.computed >= 820 and outcome.formulas - outcome.computed <= 13
    assert outcome.reasons["read_workbook_caller calls xw.Book.caller(), which needs Excel"] == 1


def test_the_corpus_without_the_modules_needs_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import conformance

    book = _book(tmp_path / "tests.xlsm", [_value("A1", 1)])
    (tmp_path / "tests.py").write_text("import xlwings as xw\n")
    monkeypatch.setattr(conformance, "MODULES_NEED", ("numpy", "no_such_package_here"))
    with pytest.raises(FideInputError) as said:
        conformance.functions_of(book, "xlwings")
    assert str(said.value) == ("tests.py needs no_such_package_here: pip install -e '.[corpus]'")
    assert conformance.functions_of(book, "another source") is None
    monkeypatch.setattr(conformance, "MODULES_NEED", ())
    assert conformance.functions_of(book, "xlwings") == {}
