"""A recalculated workbook shows its values where the add-in is not installed: opened in real
LibreOffice 25.2 *without* the add-in, every formula cell shows what `recalc` computed (a cell
LibreOffice recomputes, such as one whose cached text is empty, must not reach a FIDE function
it does not know), and Excel is not told to recompute on opening."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from fide_rating.cells.calc import office as lo
from fide_rating.engine.formula import XlError
from fide_rating.engine.package import CALC_ID, settle_calculation
from fide_rating.engine.recalc import recalc_file
from fide_rating.formats import templates as tpl
from filled import seed_round_robin, small_swiss

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "karl-mala-gedenkturnier-2005.xlsx"


def _names_only(system: str) -> Workbook:
    """Players entered, no result yet: every figure is still to come."""
    spec = tpl.spec_for(system, 6, 5 if system == "swiss" else None)
    players = [tpl.Player(name=f"P{i}", rating=None if i % 3 == 0 else 1800 + 50 * i)
               for i in range(6)]  # fmt: skip
    event = tpl.Event(name="Not started", start=dt.date(2025, 11, 10))
    if system == "swiss":
        return tpl.fill_swiss(spec, event, players, [[] for _ in players])
    return tpl.fill_round_robin(spec, event, players, [[None] * 6 for _ in players])


WORKBOOKS: dict[str, Callable[[], Workbook] | Path] = {
    "karl-mala-2005": EXAMPLE,
    "round-robin-2006": lambda: seed_round_robin(dt.date(2006, 3, 1)),
    "round-robin-2012": seed_round_robin,
    "round-robin-2025": lambda: seed_round_robin(dt.date(2025, 11, 1)),
    "swiss-small": small_swiss,
    "names-only-rr": lambda: _names_only("rr"),
    "names-only-swiss": lambda: _names_only("swiss"),
}


@pytest.mark.libreoffice
@pytest.mark.filterwarnings("ignore:Sparkline Group extension is not supported")
@pytest.mark.parametrize("name", list(WORKBOOKS))
def test_every_value_shows_without_the_addin(
    bare_office: lo.Office, tmp_path: Path, name: str
) -> None:
    source = tmp_path / f"{name}.xlsx"
    made = WORKBOOKS[name]
    if isinstance(made, Path):
        source.write_bytes(made.read_bytes())
    else:
        made().save(source)
    outcome = recalc_file(source, out_dir=tmp_path / "out")
    assert outcome.problems == [] and outcome.computed == outcome.formulas > 0
    assert outcome.output is not None
    with zipfile.ZipFile(outcome.output) as z:
        calc = re.search(rb"<calcPr[^>]*>", z.read("xl/workbook.xml"))
    assert calc is not None and b"fullCalcOnLoad" not in calc.group()
    assert b'calcId="' + CALC_ID + b'"' in calc.group()
    doc = bare_office.open(outcome.output)
    wrong = {}
    try:
        for (sheet, row, col), value in outcome.values.items():
            cell = doc.Sheets.getByName(sheet).getCellByPosition(col - 1, row - 1)
            seen: object
            if cell.getError():
                seen = f"error {cell.getError()}"
            elif cell.FormulaResultType2 == 2:  # com.sun.star.sheet.FormulaResult.STRING
                seen = cell.getString()
            else:
                seen = cell.getValue()
            if isinstance(value, XlError):
                ok = isinstance(seen, str) and seen.startswith("error")
            elif isinstance(value, bool):
                ok = seen == float(value)
            elif isinstance(value, str):
                ok = seen == value
            else:
                ok = seen == (0.0 if value is None else value)
            if not ok:
                wrong[f"{sheet}!{cell.AbsoluteName.split('.')[-1]}"] = (value, seen)
    finally:
        doc.close(True)
    assert wrong == {}, f"{len(wrong)} cells differ, e.g. {list(wrong.items())[:5]}"


@pytest.mark.parametrize(
    ("book", "settled"),
    [
        (b'<workbook><sheets/><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>',
         b'<workbook><sheets/><calcPr calcId="191029"/></workbook>'),
        (b'<x:workbook><x:sheets></x:sheets><x:calcPr fullCalcOnLoad="1" iterate="1"></x:calcPr>'
         b"</x:workbook>",
         b'<x:workbook><x:sheets></x:sheets><x:calcPr iterate="1" calcId="191029"/></x:workbook>'),
        (b"<workbook><sheets/><definedNames><definedName/></definedNames></workbook>",
         b"<workbook><sheets/><definedNames><definedName/></definedNames>"
         b'<calcPr calcId="191029"/></workbook>'),
        (b"<workbook><sheets></sheets><extLst/></workbook>",
         b'<workbook><sheets></sheets><calcPr calcId="191029"/><extLst/></workbook>'),
    ],
)  # fmt: skip
def test_no_recalculation_is_forced_once_every_value_is_computed(
    book: bytes, settled: bytes
) -> None:
    assert settle_calculation(book) == settled


def test_a_workbook_with_formulas_left_keeps_excels_recalculation(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"] = "=CUBEVALUE(1)"  # not computed here: Excel must compute it on opening
    ws["A2"] = "=1+1"
    wb.save(tmp_path / "left.xlsx")
    outcome = recalc_file(tmp_path / "left.xlsx", out_dir=tmp_path / "out")
    assert outcome.problems and outcome.output is not None
    with zipfile.ZipFile(outcome.output) as z:
        assert b'fullCalcOnLoad="1"' in z.read("xl/workbook.xml")


def _ratable_book(path: Path) -> Path:
    wb = tpl.build(tpl.spec_for("rr", 4))
    wb["Event"]["B12"] = "90+30"
    wb["Event"]["B5"] = dt.date(2025, 5, 1)
    wb.save(path)
    return path


@pytest.mark.libreoffice
@pytest.mark.parametrize("with_addin", [True, False])
def test_ratable_shows_true(
    office: lo.Office, bare_office: lo.Office, tmp_path: Path, with_addin: bool
) -> None:
    """FIDE_RATABLE's TRUE is the number 1 in LibreOffice's add-in and in recalc (a cached
    logical LibreOffice would recompute, and show #NAME? without the add-in): the cell's format
    shows it as TRUE, with the add-in and without it."""
    book = _ratable_book(tmp_path / "r.xlsx")
    if not with_addin:
        outcome = recalc_file(book, out_dir=tmp_path / "out")
        assert outcome.values[("Event", 13, 2)] == 1.0 and outcome.output is not None
        book = outcome.output
    doc = (office if with_addin else bare_office).open(book)
    try:
        if with_addin:
            doc.calculateAll()
        cell = doc.Sheets.getByName("Event").getCellByPosition(1, 12)
        assert (cell.getValue(), cell.getString()) == (1.0, "TRUE")
    finally:
        doc.close(True)
