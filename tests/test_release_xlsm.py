"""The shipped macro workbooks for classic xlwings, release/xlwings-classic/*.xlsm: a
crosstable template each, on xlwings' own standalone quickstart workbook.

Checked with classic xlwings' own code, as tests/test_xlwings_classic.py checks the rest of its
set-up: the VBA project in each file is the installed xlwings' (its module ``xlwings`` is
``xlwings.bas`` of that version, read out of the file's compound document), the settings sheet
is read as that VBA reads it (``GetConfigFromSheet``: the sheet ``xlwings.conf``, names from A1
down, upper-cased), the module xlwings' ``import_udfs`` writes calls only what the file's own
VBA defines (no add-in, no reference needed), and every document module has its sheet. Refresh
the files with ``bash scripts/build-release.sh``.
"""

from __future__ import annotations

import io
import re
import zipfile
from functools import cache
from pathlib import Path

import openpyxl
import pytest
import xlwings

import vba_project
from fide_rating.formats import templates as tpl
from fide_rating.formats import xlsm
from test_xlwings_classic import UDF_MODULE, compiled, run, syntax_errors

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "release" / "xlwings-classic"
XLWINGS = Path(xlwings.__file__).parent
REFRESH = "bash scripts/build-release.sh"
# one of each kind is enough for the slower checks; the freshness check takes every file
SAMPLE = ["rr-9", "drr-6", "swiss-100x9"]


@cache
def vba_of(path: Path) -> bytes:
    with zipfile.ZipFile(path) as book:
        return book.read("xl/vbaProject.bin")


@cache
def modules(path: Path) -> dict[str, vba_project.Module]:
    return {m.name: m for m in vba_project.modules(vba_of(path))}


def settings_as_xlwings_reads_them(path: Path) -> dict[str, object]:
    """GetConfigFromSheet (xlwings.bas): column A from A1 down to the first blank, each name
    upper-cased, its value in column B; the sheet is PROJECT_NAME & ".conf"."""
    source = modules(path)["xlwings"].source
    project = re.search(r'PROJECT_NAME As String = "([^"]+)"', source)
    assert project is not None
    assert 'Set sht = wb.Sheets(PROJECT_NAME & ".conf")' in source
    assert "d.Add UCase(cell.Value), cell.Offset(0, 1).Value" in source
    book = openpyxl.load_workbook(path)
    name = f"{project.group(1)}.conf"
    if name not in book.sheetnames:
        return {}
    sheet = book[name]
    found: dict[str, object] = {}
    row = 1
    while sheet.cell(row, 1).value not in (None, ""):
        found[str(sheet.cell(row, 1).value).upper()] = sheet.cell(row, 2).value
        row += 1
    return found


def test_every_template_is_shipped_and_fresh() -> None:
    shipped = sorted(p.name for p in FOLDER.glob("*.xlsm"))
    assert shipped == sorted(f"{s.name}.xlsm" for s in tpl.SHIPPED), f"run {REFRESH}"
    for spec in tpl.SHIPPED:
        fresh = xlsm.package(xlsm.build(spec))
        with (
            zipfile.ZipFile(FOLDER / f"{spec.name}.xlsm") as a,
            zipfile.ZipFile(io.BytesIO(fresh)) as b,
        ):
            assert a.namelist() == b.namelist(), f"{spec.name}: run {REFRESH}"
            stale = [n for n in a.namelist() if a.read(n) != b.read(n)]
            assert stale == [], f"{spec.name}.xlsm: {stale} stale: run {REFRESH}"


@pytest.mark.parametrize("name", SAMPLE)
def test_the_vba_project_is_xlwings_own(name: str) -> None:
    path = FOLDER / f"{name}.xlsm"
    with zipfile.ZipFile(XLWINGS / xlsm.STANDALONE) as quickstart:
        assert vba_of(path) == quickstart.read("xl/vbaProject.bin")
    bas = (XLWINGS / "xlwings.bas").read_text(encoding="cp1252")
    source = modules(path)["xlwings"].source
    assert source.replace("\r\n", "\n") == bas.replace("\r\n", "\n")
    # the DLL it calls is the installed xlwings' (Python must have this very version)
    assert f'XLWINGS_VERSION As String = "{xlwings.__version__}"' in source
    assert f'"xlwings64-{xlwings.__version__}.dll"' in source
    assert xlsm.xlwings_version() == xlwings.__version__


def test_the_reader_of_the_vba_can_fail() -> None:
    """The compound-document reader finds the modules it should, and refuses what is not one."""
    with zipfile.ZipFile(XLWINGS / "quickstart.xlsm") as book:
        names = {m.name for m in vba_project.modules(book.read("xl/vbaProject.bin"))}
    assert "xlwings" not in names  # the plain quickstart refers to the add-in instead
    assert {"ThisWorkbook", "Sheet1"} <= names
    with pytest.raises(ValueError, match="not a compound file"):
        vba_project.modules(b"PK\x03\x04 not a compound file")
    # MS-OVBA 3.2.1 (literals only), and a copy token: 3 back, 6 long
    literal = (
        "01 19 B0 00 61 62 63 64 65 66 67 68 00 69 6A 6B 6C 6D 6E 6F 70 00 71 72 73 74 75 76 2E"
    )
    assert vba_project.decompress(bytes.fromhex(literal)) == b"abcdefghijklmnopqrstuv."
    assert vba_project.decompress(bytes.fromhex("01 05 B0 08 61 62 63 03 20")) == b"abcabcabc"
    assert vba_project.decompress(bytes.fromhex("01 05 B0 08 61 62 63 03 10")) == b"abcbcbcbc"


@pytest.mark.parametrize("name", SAMPLE)
def test_xlwings_reads_the_settings_sheet(name: str) -> None:
    path = FOLDER / f"{name}.xlsm"
    settings = settings_as_xlwings_reads_them(path)
    assert settings == {"UDF MODULES": UDF_MODULE, "INTERPRETER_WIN": xlsm.INTERPRETER}
    source = modules(path)["xlwings"].source
    for key in settings:
        assert f'GetConfig("{key}"' in source, key
    # what GetUdfModules hands to Python's import_udfs, and the interpreter it loads the DLL
    # beside (a virtual environment's: the folder above Scripts)
    assert 'GetUdfModules = GetConfig("UDF MODULES")' in source
    assert "ParentFolder(ParentFolder(PYTHON_WIN))" in source
    assert xlsm.INTERPRETER.endswith(r"\Scripts\python.exe")
    assert "GetConfig = ExpandEnvironmentStrings(GetConfig)" in source  # %USERPROFILE%


def test_the_quickstart_sheet_as_shipped_by_xlwings_is_not_read(tmp_path: Path) -> None:
    """The other side: xlwings' own settings sheet, named _xlwings.conf, is not read (which is
    why the README once had users rename it), and a gap in column A ends the settings."""
    path = tmp_path / "renamed.xlsm"
    book = xlsm.build(tpl.spec_for("rr", 4))
    book[xlsm.CONF_SHEET].title = "_xlwings.conf"
    path.write_bytes(xlsm.package(book))
    assert settings_as_xlwings_reads_them(path) == {}
    book = xlsm.build(tpl.spec_for("rr", 4))
    book[xlsm.CONF_SHEET].insert_rows(2)
    path.write_bytes(xlsm.package(book))
    assert settings_as_xlwings_reads_them(path) == {"UDF MODULES": UDF_MODULE}


@pytest.mark.parametrize("name", SAMPLE)
def test_the_imported_functions_call_only_what_the_workbook_defines(name: str) -> None:
    """The module xlwings' import_udfs writes (tests/hosts/classic_driver.py runs it) calls
    XLPy.CallUDF: XLPy is a function of the workbook's own module xlwings, so the functions
    run without xlwings' add-in; the macro that imports them is one Alt+F8 lists."""
    path = FOLDER / f"{name}.xlsm"
    vba = run()["vba"]
    assert f'XLPy.CallUDF("{UDF_MODULE}", "FIDE_EXPECT"' in vba
    called = set(re.findall(r"(\w+)\.CallUDF\(", vba))
    assert called == {"XLPy"}
    own = modules(path)
    assert not own["xlwings"].document
    defined = set(re.findall(r"^(?:Public )?Function (\w+)\(", own["xlwings"].source, re.M))
    assert called <= defined
    # Alt+F8 lists a workbook's public Subs without arguments in standard modules
    assert re.search(r"^Sub ImportPythonUDFs\(\)$", own["xlwings"].source, re.M)
    assert re.search(r"^Sub ImportXlwingsUdfsModule\(tf As String\)$", own["xlwings"].source, re.M)
    # the module xlwings writes compiles on its own (the VBA grammar, as in the classic tests)
    assert syntax_errors(compiled(vba, excel=True)) == []


@pytest.mark.parametrize("name", SAMPLE)
def test_every_document_module_has_its_sheet(name: str) -> None:
    path = FOLDER / f"{name}.xlsm"
    project = vba_project.project_text(vba_of(path))
    documents = re.findall(r"^Document=(\w+)/", project, re.M)
    assert documents[0] == "ThisWorkbook"
    with zipfile.ZipFile(path) as book:
        workbook = book.read("xl/workbook.xml").decode()
        types = book.read("[Content_Types].xml").decode()
        rels = book.read("xl/_rels/workbook.xml.rels").decode()
        sheets = [book.read(n).decode() for n in book.namelist() if n.startswith("xl/worksheets/s")]
    assert '<workbookPr codeName="ThisWorkbook"' in workbook
    code_names = set(re.findall(r'<sheetPr codeName="(\w+)"', "".join(sheets)))
    assert set(documents[1:]) == code_names
    assert "application/vnd.ms-excel.sheet.macroEnabled.main+xml" in types
    assert 'Target="vbaProject.bin"' in rels


@pytest.mark.parametrize("name", SAMPLE)
def test_the_sheets_are_the_templates(name: str) -> None:
    macro = openpyxl.load_workbook(FOLDER / f"{name}.xlsm")
    plain = openpyxl.load_workbook(ROOT / "templates" / f"{name}.xlsx")
    assert macro.sheetnames == [*plain.sheetnames, xlsm.CONF_SHEET]
    for title in ("Event", "Players"):
        a, b = macro[title], plain[title]
        assert [[c.value for c in row] for row in a.iter_rows()] == [
            [c.value for c in row] for row in b.iter_rows()
        ]
    text = " ".join(str(c.value) for c in macro["Instructions"]["A"] if c.value)
    assert f"xlwings {xlwings.__version__}" in text and "ImportPythonUDFs" in text
