"""A crosstable template as a macro workbook for classic xlwings (Excel on Windows).

The workbook is xlwings' own standalone quickstart workbook (``quickstart_standalone.xlsm``)
with the template's sheets in place of its own: its VBA project is kept byte for byte, so the
module ``xlwings`` is in the workbook (no add-in and no *Tools > References* needed), and its
macro ``ImportPythonUDFs`` writes the FIDE functions into it. The ``xlwings.conf`` sheet names
the functions' module and the Python the README's set-up makes; xlwings reads it as it reads
every setting (the names in column A from A1 down, upper-cased: ``UDF MODULES``).

The workbook carries the VBA of one xlwings version, which calls that version's DLL: Python
needs the same xlwings (:func:`xlwings_version`, written on the Instructions sheet).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import zipfile
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment

from ..files import atomic
from ..rules.errors import FideInputError
from . import templates
from .book_style import saved

STANDALONE = "quickstart_standalone.xlsm"
CONF_SHEET = "xlwings.conf"
UDF_MODULE = "fide_rating.excel"
INTERPRETER = r"%USERPROFILE%\fide-rating-venv\Scripts\python.exe"
#: The settings, as the quickstart workbook's own settings sheet spells them (column A, B)
SETTINGS = (("UDF Modules", UDF_MODULE), ("Interpreter_Win", INTERPRETER))
NOTES = (
    "The functions' module: the FIDE_* functions come from the Python package fide-rating.",
    "The Python that has fide-rating and xlwings (the README's set-up); change it if yours is "
    "elsewhere. %USERPROFILE% is your user folder.",
)
#: The document modules of the quickstart workbook's VBA project, in sheet order: the sheets
#: take their code names, so that every module has its sheet
CODE_NAMES = ("Sheet1", "Sheet2")


NO_XLWINGS = (
    "a macro workbook for classic xlwings is made from xlwings' own: install xlwings in this "
    "Python (pip install xlwings), got: no xlwings"
)


def standalone() -> Path:
    """xlwings' standalone quickstart workbook, from the installed xlwings package."""
    spec = importlib.util.find_spec("xlwings")
    if spec is None or spec.origin is None:
        raise FideInputError(NO_XLWINGS)
    path = Path(spec.origin).parent / STANDALONE
    if not path.is_file():
        raise FideInputError(f"expected xlwings' standalone workbook, got no file: {path}")
    return path


def xlwings_version() -> str:
    try:
        return importlib.metadata.version("xlwings")
    except importlib.metadata.PackageNotFoundError:
        raise FideInputError(NO_XLWINGS) from None


def build(spec: templates.Spec) -> Workbook:
    """The template for ``spec`` as a macro workbook (open the VBA archive only while saving:
    :func:`write`)."""
    standalone()  # before anything is built: without xlwings there is nothing to build on
    wb = templates.build(spec)
    wb.code_name = "ThisWorkbook"
    for ws, code_name in zip(wb.worksheets, CODE_NAMES, strict=False):
        ws.sheet_properties.codeName = code_name
    ws = wb["Instructions"]
    last = ws.max_row
    for offset, line in enumerate(
        (
            "",
            "Excel with classic xlwings (this .xlsm): Python with fide-rating and "
            f"xlwings {xlwings_version()} (the version of this workbook's xlwings module), "
            "then Alt+F8 > ImportPythonUDFs > Run once; the xlwings.conf sheet holds the "
            "settings. The README's section 'Excel on Windows with classic xlwings' has "
            "every step.",
        ),
        start=1,
    ):
        ws.cell(last + offset, 1, line).alignment = Alignment(wrap_text=True, vertical="top")
    conf = wb.create_sheet(CONF_SHEET)
    for row, ((key, value), note) in enumerate(zip(SETTINGS, NOTES, strict=True), start=1):
        conf.cell(row, 1, key)
        conf.cell(row, 2, value)
        conf.cell(row, 4, note)
    conf.column_dimensions["A"].width = 16
    conf.column_dimensions["B"].width = 52
    return wb


def package(wb: Workbook) -> bytes:
    """The macro workbook's bytes: the template's parts with xlwings' VBA project."""
    with zipfile.ZipFile(standalone()) as vba:
        return saved(wb, vba)


def write(spec: templates.Spec, path: Path) -> Path:
    """The macro workbook for ``spec``, saved atomically."""
    data = package(build(spec))
    with atomic(path) as out:
        out.write(data)
    return path


def write_all(folder: Path) -> list[Path]:
    """Every shipped template as a macro workbook."""
    return [write(spec, folder / f"{spec.name}.xlsm") for spec in templates.SHIPPED]
