"""A worksheet's cells read and written a span of the part at a time, the attributes of a cell
and of its formula read to the tag's end, the totals bounded before the tags are counted, and
a sum with a number on its right: each the same as one pass over the whole part would give."""

from __future__ import annotations

import pytest

from fide_rating.engine.formula import ERRORS, Value
from fide_rating.engine.package import WorkbookError, archive, cells, check_totals, patch_part
from fide_rating.engine.package.cells import read_sheet
from test_formula import ev

# one cell of each shape: a number, a shared string, an empty styled cell (an empty element),
# a shared formula's first cell and followers (empty elements), a formula with its text, a text
# result (t="str"), an inline string and a follower with more in it (read the general way)
SHEET = (
    b'<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1" t="s"><v>0</v></c>'
    b'<c r="C1" s="2"/><c r="D1"><f t="shared" ref="D1:D3" si="0">A1+1</f><v>0</v></c></row>'
    b'<row r="2"><c r="A2"><v>2</v></c><c r="D2"><f t="shared" si="0"/><v>0</v></c>'
    b'<c r="E2" t="str"><f>B1&amp;"!"</f><v>old</v></c></row>'
    b'<row r="3"><c r="A3" t="inlineStr"><is><t>in line</t></is></c>'
    b'<c r="D3"><f t="shared" si="0"/><v>3</v><extLst><ext uri="x"/></extLst></c>'
    b'<c r="F3"><f>1+1</f><v>2</v></c></row></sheetData></worksheet>'
)


def _read(part: bytes) -> tuple[object, ...]:
    constants, formulas, stored, rows, cols = read_sheet(part, ["text"])
    shown = {key: (f.text, f.kind, f.shared, f.ref) for key, f in formulas.items()}
    return constants, shown, stored, rows, cols


def test_a_sheet_read_a_span_at_a_time_reads_as_in_one_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = _read(SHEET)
    constants, formulas, stored, rows, cols = whole
    assert constants == {(1, 1): 1.0, (1, 2): "text", (2, 1): 2.0, (3, 1): "in line"}
    assert formulas == {
        (1, 4): ("A1+1", "shared", "0", "D1:D3"),
        (2, 4): (None, "shared", "0", None),  # <f t="shared" si="0"/>: a follower
        (2, 5): ('B1&"!"', "", None, None),
        (3, 4): (None, "shared", "0", None),  # read the general way: a follower all the same
        (3, 6): ("1+1", "", None, None),
    }
    assert stored == {(1, 4): 0.0, (2, 4): 0.0, (2, 5): "old", (3, 4): 3.0, (3, 6): 2.0}
    assert (rows, cols) == (3, 6)  # the empty C1 holds nothing
    monkeypatch.setattr(cells, "CHUNK", 1)  # every cell a span of its own
    assert len(cells.chunks(SHEET)) == 11
    assert _read(SHEET) == whole
    monkeypatch.setattr(cells, "CHUNK", 150)  # spans of several cells
    assert 1 < len(cells.chunks(SHEET)) < 11
    assert _read(SHEET) == whole


def test_a_cell_written_twice_across_spans_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    twice = SHEET.replace(b'<c r="F3">', b'<c r="A1">')
    monkeypatch.setattr(cells, "CHUNK", 1)
    with pytest.raises(WorkbookError, match="the cell A1 is written twice"):
        read_sheet(twice, ["text"])


VALUES: dict[tuple[int, int], Value] = {(1, 4): 2.0, (2, 4): 3.0, (2, 5): "text!", (3, 6): 2.0}


def test_a_sheet_written_a_span_at_a_time_writes_as_in_one_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the formula cells' values change (a text result keeps its t="str", a number
    written where a text was loses it); a cell's value the same as before is not counted."""
    out, changed = patch_part(SHEET, VALUES)
    expected = SHEET
    for before, after in [
        (b'si="0">A1+1</f><v>0</v>', b'si="0">A1+1</f><v>2</v>'),
        (b'<c r="D2"><f t="shared" si="0"/><v>0</v>', b'<c r="D2"><f t="shared" si="0"/><v>3</v>'),
        (b"<v>old</v>", b"<v>text!</v>"),
    ]:
        assert expected.count(before) == 1
        expected = expected.replace(before, after)
    assert out == expected
    assert changed == 3  # F3 holds 2 already
    monkeypatch.setattr(cells, "CHUNK", 1)
    assert patch_part(SHEET, VALUES) == (out, 3)
    as_number = {**VALUES, (2, 5): 5.0}
    number, _ = patch_part(SHEET, as_number)
    assert b'<c r="E2"><f>B1&amp;"!"</f><v>5</v></c>' in number  # t="str" gone
    # D3 holds more than a formula and a value: every cell written the general way
    more, changed = patch_part(SHEET, {**VALUES, (3, 4): 4.0})
    assert b'<v>4</v><extLst><ext uri="x"/></extLst></c>' in more and changed == 5


def _sheet_with(cells_count: int, formulas_count: int) -> bytes:
    """A part whose tags beginning as cells and formulas do (``<cols>``, ``<cfRule>``,
    ``<filters>``) are not cells or formulas: the quick bound is above the true counts."""
    row = "".join(
        f'<c r="A{r}"><f>1+1</f><v>2</v></c>' if r <= formulas_count else f'<c r="A{r}"><v>1</v></c>'
        for r in range(1, cells_count + 1)
    )  # fmt: skip
    return (
        f"<worksheet><cols><col min='1' max='2'/></cols><sheetData><row r='1'>{row}</row>"
        "</sheetData><conditionalFormatting><cfRule type='expression'><formula>1</formula>"
        "</cfRule></conditionalFormatting><autoFilter><filterColumn colId='0'><filters/>"
        "</filterColumn></autoFilter></worksheet>"
    ).encode()


def test_the_totals_are_counted_exactly_where_the_quick_bound_passes_a_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parts = {"xl/worksheets/sheet1.xml": _sheet_with(5, 3)}
    sheets = {"S": "xl/worksheets/sheet1.xml"}
    monkeypatch.setattr(archive, "MAX_CELLS", 5)
    monkeypatch.setattr(archive, "MAX_FORMULAS", 3)
    check_totals(parts, sheets)  # 5 cells, 3 formulas: at the limits, not over them
    monkeypatch.setattr(archive, "MAX_CELLS", 4)
    with pytest.raises(WorkbookError, match="5 cells in 1 sheets, more than the limit of 4"):
        check_totals(parts, sheets)
    monkeypatch.setattr(archive, "MAX_CELLS", 5)
    monkeypatch.setattr(archive, "MAX_FORMULAS", 2)
    with pytest.raises(WorkbookError, match="3 formulas in 1 sheets, more than the limit of 2"):
        check_totals(parts, sheets)


@pytest.mark.parametrize(
    ("formula", "cells_", "expected"),
    [
        ("=A1+1", {"A1": 2.0}, 3.0),
        ("=A1+1", {"A1": "2"}, 3.0),  # a text read as a number
        ("=A1+1", {"A1": True}, 2.0),
        ("=A1+1", {}, 1.0),  # an empty cell is 0
        ("=A1+1", {"A1": "x"}, ERRORS["#VALUE!"]),
        ("=A1+1", {"A1": ERRORS["#N/A"]}, ERRORS["#N/A"]),
        ("=A1-1", {"A1": 3.0}, 2.0),
        ("=$A$1-1", {"A1": 3.0}, 2.0),  # an absolute reference through its own closure
        ("=A1-0.1", {"A1": 0.5 - 0.4}, 0.0),  # cancels to 0 as the last operation
        ("=A1*1-0.1", {"A1": 0.5 - 0.4}, 0.0),
        ("=(A1-0.1)*1", {"A1": 0.5 - 0.4}, 0.5 - 0.4 - 0.1),  # not the last operation
        ("=A1+1E+308", {"A1": 1.7e308}, ERRORS["#NUM!"]),  # beyond a double: #NUM!
    ],
)
def test_a_sum_with_a_number_on_its_right(
    formula: str, cells_: dict[str, object], expected: object
) -> None:
    assert ev(formula, cells_) == expected
