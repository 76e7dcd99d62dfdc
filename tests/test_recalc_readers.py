"""Which formulas read a cell, however indirectly: the index of the rectangles the formulas
read (order.AreaIndex) against a plain search, and the cells marked as resting on a volatile
function through references of every shape (a cell, a column, a row, a whole column, a block,
another sheet)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter

from fide_rating.engine.order import AreaIndex
from fide_rating.engine.recalc import recalc_file

Rect = tuple[str, int, int, int, int]

_rects = st.lists(
    st.tuples(
        st.sampled_from(["S", "T"]),
        st.integers(1, 12),
        st.integers(1, 6),
        st.integers(0, 9),
        st.integers(0, 4),
    ).map(lambda t: (t[0], t[1], t[2], t[1] + t[3], t[2] + t[4])),
    max_size=30,
)
_cells = st.lists(
    st.tuples(st.sampled_from(["S", "T"]), st.integers(1, 22), st.integers(1, 11)),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_rects, _cells)
def test_the_index_gives_every_rectangle_holding_a_cell(
    rects: list[Rect], cells: list[tuple[str, int, int]]
) -> None:
    index: AreaIndex[int] = AreaIndex()
    for key, (sheet, r1, c1, r2, c2) in enumerate(rects):
        index.add(sheet, r1, c1, r2, c2, key)
    given_before: set[int] = set()
    for sheet, row, col in cells:
        expected = sorted(
            key
            for key, (s, r1, c1, r2, c2) in enumerate(rects)
            if s == sheet and r1 <= row <= r2 and c1 <= col <= c2 and key not in given_before
        )
        got = index.take(sheet, row, col)
        assert set(expected) <= set(got)  # none missed
        for key in got:  # and none that does not hold the cell
            s, r1, c1, r2, c2 = rects[key]
            assert s == sheet and r1 <= row <= r2 and c1 <= col <= c2
        given_before.update(got)


def test_a_rectangle_of_a_million_rows_is_one_entry() -> None:
    """A whole column read by many formulas: each formula is found once, at any row, and the
    index does not hold a million entries for it."""
    index: AreaIndex[int] = AreaIndex()
    for key in range(1000):
        index.add("S", 1, 1, 1_048_576, 1, key)
    index.add("S", 5, 1, 5, 16384, -1)  # a whole row, across
    assert sorted(index.take("S", 700_000, 1)) == list(range(1000))
    assert index.take("S", 3, 1) == []  # given already
    assert index.take("S", 5, 9000) == [-1]


def test_cells_resting_on_a_volatile_function_through_every_shape_of_reference(
    tmp_path: Path,
) -> None:
    """NOW reaches a cell by a plain reference, a column range, a row range, a whole column,
    a block and another sheet; the cells reading none of them are not marked."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    other = wb.create_sheet("T")
    ws["A1"] = "=NOW()"
    ws["A2"] = "=A1+1"  # a cell
    ws["B1"], ws["B2"], ws["B3"] = 1, 2, 3
    ws["C1"] = "=SUM(A2:A3)"  # a column range holding A2
    ws["C2"] = "=SUM(A3:A9)"  # a column range below it: not marked
    ws["D1"] = "=SUM(B1:C1)"  # a row range holding C1
    ws["D2"] = "=SUM(B2:C2)"  # not marked
    ws["E1"] = "=COUNT(D:D)"  # a whole column holding D1
    ws["E2"] = "=COUNT(B:B)"  # not marked
    ws["F5"] = "=SUM(A1:B3)*0"  # a block holding A1
    other["A1"] = "=S!F5"  # another sheet
    other["A2"] = "=S!E2"  # not marked
    ws["G1"] = "=T!A1"  # and back
    path = tmp_path / "volatile.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    marked = {(s, f"{get_column_letter(c)}{r}") for s, r, c in out.volatile}
    assert marked == {("S", "A1"), ("S", "A2"), ("S", "C1"), ("S", "D1"), ("S", "E1"),
                      ("S", "F5"), ("T", "A1"), ("S", "G1")}  # fmt: skip
    assert not out.problems
