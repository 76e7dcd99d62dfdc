"""`fide-rating recalc` and LibreOffice 25.2 with the add-in give the same value in every
formula cell of the same workbooks."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from fide_rating.cells.calc import office as lo
from fide_rating.engine.formula import Value, XlError, col_letters
from fide_rating.engine.recalc import recalc_file
from fide_rating.formats import templates as tpl
from filled import seed_round_robin, small_swiss
from test_workbook import user_workbook

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "karl-mala-gedenkturnier-2005.xlsx"

pytestmark = [
    pytest.mark.libreoffice,
    pytest.mark.filterwarnings("ignore:Sparkline Group extension is not supported"),
]


def _swiss_30() -> Workbook:
    import random

    rnd = random.Random(5)
    players = [tpl.Player(name=f"P{i:02d}", rating=None if i % 7 == 3 else rnd.randint(1500, 2500),
                        born=rnd.randint(1960, 2012), games_before=rnd.choice((5, 50)))
               for i in range(30)]  # fmt: skip
    rounds: list[list[tpl.Pairing]] = [[] for _ in range(30)]
    for _ in range(5):
        order = list(range(30))
        rnd.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            result = rnd.choice(("1", "½", "0", "+"))
            back = {"1": "0", "½": "½", "0": "1", "+": "-"}[result]
            rounds[a].append((b + 1, "w", result))
            rounds[b].append((a + 1, "b", back))
    event = tpl.Event(name="Thirty", start=dt.date(2013, 3, 1))
    return tpl.fill_swiss(tpl.spec_for("swiss", 30, 5), event, players, rounds)


# functions where LibreOffice gives what Excel documents (not: CODE/CHAR above 127, which
# follow the system's code page there, and serials before 1900-03-01, Excel's leap day)
_NEWER = {
    "IFS",
    "SWITCH",
    "UNICODE",
    "UNICHAR",
    "XOR",
    "DAYS",
    "XLOOKUP",
    "XMATCH",
}  # saved with _xlfn.


def _functions(path: Path) -> None:
    from test_formula import EXCEL_REFERENCE_EXAMPLES, LOOKUP_TABLE

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"] = "Miriam McGovern", 85
    for ref, value in LOOKUP_TABLE.items():
        ws[ref] = value
    extra = ['=FIND("o","Hello",9)', '=SEARCH("~*","x*y")', '=SUBSTITUTE("abc","b","x",0)',
             '=REPT("ab",-1)', "=LN(0)", "=LOG(1,1)", "=WEEKDAY(45000,4)", '=IFS(1/0,"a")',
             "=EDATE(DATE(2024,1,31),1)", "=EOMONTH(DATE(2024,3,15),-13)", "=DATE(2024,14,-3)",
             "=YEAR(45351)", "=WEEKDAY(45351,16)", '=SEARCH("b*d","abcde")',
             '=DATEDIF(DATE(1990,5,20),DATE(2025,5,19),"Y")', '=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"YM")',
             "=DEC2BIN(9,3)", "=DEC2BIN(512)"]  # fmt: skip
    for i, written in enumerate([f for f, _ in EXCEL_REFERENCE_EXAMPLES] + extra, start=1):
        ws.cell(i, 3, re.sub(rf"\b({'|'.join(_NEWER)})\(", r"_xlfn.\1(", written))
    wb.save(path)


WORKBOOKS: dict[str, Callable[[Path], object]] = {
    "functions": _functions,
    "seed-2012": lambda p: seed_round_robin().save(p),
    "seed-2005": lambda p: seed_round_robin(dt.date(2006, 3, 1)).save(p),
    "swiss-small": lambda p: small_swiss().save(p),
    "swiss-30-2013": lambda p: _swiss_30().save(p),
    "user": user_workbook,
    "empty-template": lambda p: tpl.build(tpl.spec_for("drr", 6)).save(p),
    "karl-mala-2005": lambda p: p.write_bytes(EXAMPLE.read_bytes()),
}


@pytest.mark.parametrize("name", list(WORKBOOKS))
def test_same_values_as_libreoffice(office: lo.Office, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.xlsx"
    WORKBOOKS[name](path)
    ours = recalc_file(path, out_dir=tmp_path / "out")
    skipped = {(p.sheet, p.cell) for p in ours.problems}
    assert name != "functions" or not skipped, ours.problems  # every one computed, then compared
    doc = office.open(path)
    try:
        doc.calculateAll()
        mismatches: list[tuple[str, object, object]] = []
        by_sheet: dict[str, dict[tuple[int, int], Value]] = {}
        for (sheet, row, col), value in ours.values.items():
            by_sheet.setdefault(sheet, {})[(row, col)] = value
        for sheet, values in by_sheet.items():
            rows = [r for r, _ in values]
            cols = [c for _, c in values]
            r0, c0 = min(rows), min(cols)
            area = doc.Sheets.getByName(sheet).getCellRangeByPosition(
                c0 - 1, r0 - 1, max(cols) - 1, max(rows) - 1
            )
            data = area.getDataArray()  # one call for the whole sheet's values
            for (row, col), value in values.items():
                where = f"{sheet}!{col_letters(col)}{row}"
                if (sheet, f"{col_letters(col)}{row}") in skipped:
                    continue
                theirs = data[row - r0][col - c0]
                if isinstance(value, XlError):
                    cell = area.getCellByPosition(col - c0, row - r0)
                    if cell.getError() == 0:
                        mismatches.append((where, value, theirs))
                elif isinstance(value, str):
                    if theirs != value:
                        mismatches.append((where, value, theirs))
                else:
                    number = float(value) if value is not None else 0.0
                    if not isinstance(theirs, float) or theirs != number:
                        mismatches.append((where, value, theirs))
        assert mismatches == [], mismatches[:10]
        assert len(ours.values) >= 5
    finally:
        doc.close(True)


def test_workbook_saved_by_libreoffice_recalculates_the_same(
    office: lo.Office, tmp_path: Path
) -> None:
    """A crosstable LibreOffice wrote (its own XML, its cached values): recalc agrees."""
    import openpyxl

    source = tmp_path / "seed.xlsx"
    seed_round_robin().save(source)
    doc = office.open(source)
    doc.calculateAll()
    saved = tmp_path / "by-libreoffice.xlsx"
    office.store(doc, saved, "Calc MS Excel 2007 XML")
    doc.close(True)
    cached = openpyxl.load_workbook(saved, data_only=True)
    ours = recalc_file(saved, out_dir=tmp_path / "out")
    assert ours.problems == [] and ours.computed > 100
    for (sheet, row, col), value in ours.values.items():
        theirs = cached[sheet].cell(row, col).value
        if isinstance(value, float):
            # LibreOffice writes 15 significant digits into the file
            assert isinstance(theirs, int | float), (sheet, row, col)
            assert float(f"{value:.15g}") == theirs, (sheet, row, col)
        else:
            assert (theirs if theirs is not None else "") == value, (sheet, row, col)
