"""The Calc add-in in a real headless LibreOffice: .xlsx and .ods, every function, good and
bad inputs, and .xlsx saved back with FIDE_* formulas and cached values."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from calc_cases import CASES, expected, workbook
from fide_rating.cells.calc import office as lo
from fide_rating.cells.calc.build import COMPONENT, IDENTIFIER, generated

pytestmark = pytest.mark.libreoffice


def _check(doc: Any) -> None:
    doc.calculateAll()
    sheet = doc.Sheets.getByName("Calc")
    for row, ((formula, _), want) in enumerate(zip(CASES, expected(), strict=True)):
        cell = sheet.getCellByPosition(0, row)
        assert cell.getError() == 0, f"{formula}: error {cell.getError()}"
        if isinstance(want, str):
            assert cell.getString() == want, formula
        else:
            assert cell.getValue() == want, formula
            assert not cell.getString().startswith("#FIDE"), formula


def test_oxt_contents(oxt: Path) -> None:
    with zipfile.ZipFile(oxt) as z:
        names = set(z.namelist())
        assert {"META-INF/manifest.xml", "description.xml", "CalcAddIns.xcu", COMPONENT,
                "FideRating.rdb", "pythonpath/fide_rating/cells/registry.py",
                "pythonpath/fide_rating/rules/tables.py"} <= names  # fmt: skip
        # the hosts and everything above the cell layer stay out: no xlwings, no openpyxl
        assert not any(n.endswith(("excel.py", "cli.py")) for n in names)
        assert not any(f"/{layer}/" in n for n in names for layer in ("engine", "commands"))
        for path, text in generated().items():
            if path.suffix in (".xcu", ".py"):
                assert z.read(path.name).decode() == text


def test_xlsx_every_function(office: lo.Office, tmp_path: Path) -> None:
    path = tmp_path / "cases.xlsx"
    workbook().save(path)
    doc = office.open(path)
    try:
        _check(doc)
    finally:
        doc.close(True)


def test_ods_every_function(office: lo.Office, tmp_path: Path) -> None:
    source = tmp_path / "cases.xlsx"
    workbook().save(source)
    doc = office.open(source)
    ods = tmp_path / "cases.ods"
    office.store(doc, ods, "calc8")
    doc.close(True)
    doc = office.open(ods)
    try:
        _check(doc)
    finally:
        doc.close(True)


def test_xlsx_saved_back_keeps_fide_formulas_and_values(office: lo.Office, tmp_path: Path) -> None:
    source = tmp_path / "cases.xlsx"
    workbook().save(source)
    doc = office.open(source)
    doc.calculateAll()
    saved = tmp_path / "saved.xlsx"
    office.store(doc, saved, "Calc MS Excel 2007 XML")
    doc.close(True)
    formulas = openpyxl.load_workbook(saved)["Calc"]
    values = openpyxl.load_workbook(saved, data_only=True)["Calc"]
    for row, ((formula, _), want) in enumerate(zip(CASES, expected(), strict=True), start=1):
        text = formulas[f"A{row}"].value
        assert isinstance(text, str)
        assert text.replace(";", ",").upper() == f"={formula}".upper(), text
        cached = values[f"A{row}"].value
        assert cached == want, formula


def test_errors_never_become_numbers(office: lo.Office, tmp_path: Path) -> None:
    """An error cell in a range: LibreOffice itself refuses the call (Err:504), so no number
    is computed without that cell; an error argument propagates; a one-cell reference (INDEX)
    is its value; a bad input shows our #FIDE! text, which arithmetic turns into an error."""
    wb = openpyxl.Workbook()
    calc = wb.active
    assert calc is not None
    calc.title = "Calc"
    data = wb.create_sheet("Data")
    for i, v in enumerate([1063, 1299, 1413, "=NA()", 1851, 1427, 1682], start=1):
        data[f"A{i}"] = v
    for i, v in enumerate([1, 1, 1, 0.5, 0, 1, 1], start=1):
        data[f"B{i}"] = v
    for i, v in enumerate([1, "=1/0", 0.5], start=1):
        data[f"C{i}"] = v
    data["D1"] = 1800
    cases = [
        ('=FIDE_CHANGE(2000,Data!A1:A7,Data!B1:B7,20,"2022-01")', 504, "Err:504"),
        ("=FIDE_POINTS(Data!C1:C3)", 504, "Err:504"),
        ("=SUM(Data!B1:B7)+FIDE_POINTS(Data!C1:C3)", 504, "Err:504"),
        ("=FIDE_ROUND(NA())", 32767, "#N/A"),
        ('=FIDE_K(INDEX(Data!D1:D3,1),10,1990,FALSE(),5,"2024-01-01")', 0, "40"),
        ("=FIDE_POINTS(Data!C1)", 0, "1"),
        ('=FIDE_K(2000,10,1990,"maybe")', 0,
         "#FIDE! reached_2400: expected TRUE or FALSE, got 'maybe'"),
        ('=FIDE_K(2000,10,1990,"maybe")+1', 519, "#VALUE!"),
    ]  # fmt: skip
    for row, (formula, _, _) in enumerate(cases, start=1):
        calc[f"A{row}"] = formula
    path = tmp_path / "errors.xlsx"
    wb.save(path)
    doc = office.open(path)
    try:
        doc.calculateAll()
        sheet = doc.Sheets.getByName("Calc")
        for row, (formula, error, text) in enumerate(cases):
            cell = sheet.getCellByPosition(0, row)
            assert (cell.getError(), cell.getString()) == (error, text), formula
    finally:
        doc.close(True)


def test_an_activated_virtual_environment_does_not_reach_libreoffice(
    libreoffice: tuple[int, ...], oxt: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a virtual environment's bin first on PATH (as after ``activate``), LibreOffice's
    Python took that environment for its own and the install threw std::bad_alloc: soffice
    is started without it, and the install succeeds."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(f"home = {Path(sys.base_prefix) / 'bin'}\n")
    (venv / "bin" / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    env = lo.office_environment()
    assert str(venv / "bin") not in env["PATH"].split(os.pathsep)
    assert "VIRTUAL_ENV" not in env
    with lo.office_with_addin(tmp_path / "profile", oxt) as running:
        assert [e["identifier"] for e in running.extensions()] == [IDENTIFIER]
