"""Data tables (Excel's What-If Analysis, ``{=TABLE(row_input, column_input)}``): each cell of
a table is its formula computed again with the input cell set to the value that heads the
cell's row or column, as Excel computes it ("Calculate multiple results by using a data
table"): everything the formula depends on is computed anew under the substitution, and
nothing computed there is kept.

Where a table keeps its parts (ECMA-376 Part 1, 18.3.1.40, the ``f`` element's ``ref``,
``dt2D``, ``dtr``, ``r1``, ``r2``), for the table's cells ``ref``:

* one variable, the inputs down a column (``dtr`` false): the values in the column left of
  the table, the formulas in the row above it, one a column; ``r1`` the input cell;
* one variable, the inputs across a row (``dtr`` true): the values in the row above, the
  formulas in the column left, one a row; ``r1`` the input cell;
* two variables (``dt2D``): the formula in the corner above and left of the table; ``r1`` the
  row input cell (its values across the row above), ``r2`` the column input cell (its values
  down the column left).

May import: :mod:`.book`, :mod:`fide_rating.engine.formula` and the standard library.
"""

from __future__ import annotations

import re
from collections import ChainMap
from dataclasses import dataclass

from .book import Book
from .formula import Fn, Unsupported, Value, col_number

Key = tuple[str, int, int]
_CELL = re.compile(r"\$?([A-Z]{1,3})\$?([0-9]+)")
MAX_TABLE = 100_000  # cells of one data table


@dataclass(frozen=True, slots=True)
class DataTable:
    """Where a data table is: its cells, and its input cells (row input, column input)."""

    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int
    row_input: tuple[int, int] | None  # the cell the values across the row above go into
    col_input: tuple[int, int] | None  # the cell the values down the column left go into

    def cells(self) -> list[Key]:
        return [(self.sheet, r, c) for r in range(self.r1, self.r2 + 1)
                for c in range(self.c1, self.c2 + 1)]  # fmt: skip

    def formula(self, row: int, col: int) -> Key:
        """The formula computed for the table's cell (row, col)."""
        if self.row_input is not None and self.col_input is not None:
            return (self.sheet, self.r1 - 1, self.c1 - 1)
        if self.row_input is not None:  # inputs across: a formula a row, in the column left
            return (self.sheet, row, self.c1 - 1)
        return (self.sheet, self.r1 - 1, col)  # inputs down: a formula a column, above

    def inputs(self, book: Book, row: int, col: int) -> dict[Key, Value]:
        """The input cells set for the table's cell (row, col), with their values."""
        out: dict[Key, Value] = {}
        if self.row_input is not None:
            out[(self.sheet, *self.row_input)] = book.value(self.sheet, self.r1 - 1, col)
        if self.col_input is not None:
            out[(self.sheet, *self.col_input)] = book.value(self.sheet, row, self.c1 - 1)
        return out


def data_table(sheet: str, attrs: dict[str, str]) -> DataTable:
    """A data table from its ``f`` element's attributes; Unsupported where it cannot be one
    (an input cell deleted, a table in the first row or column, too many cells)."""
    span = [_CELL.fullmatch(part) for part in attrs.get("ref", "").split(":")]
    if not span or None in span:
        raise Unsupported("a data table without its range")
    (c1, r1), (c2, r2) = [(col_number(m.group(1)), int(m.group(2))) for m in (span[0], span[-1])]  # type: ignore[union-attr]
    if r1 < 2 or c1 < 2:
        raise Unsupported("a data table without a row above it and a column left of it")
    if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_TABLE:
        raise Unsupported(f"a data table of more than {MAX_TABLE:,} cells")

    def cell(name: str, deleted: str) -> tuple[int, int]:
        m = _CELL.fullmatch(attrs.get(name, ""))
        if attrs.get(deleted) in ("1", "true") or m is None:
            raise Unsupported("a data table whose input cell was deleted")
        return int(m.group(2)), col_number(m.group(1))

    first = cell("r1", "del1")
    if attrs.get("dt2D") in ("1", "true"):
        return DataTable(sheet, r1, c1, r2, c2, first, cell("r2", "del2"))
    if attrs.get("dtr") in ("1", "true"):
        return DataTable(sheet, r1, c1, r2, c2, first, None)
    return DataTable(sheet, r1, c1, r2, c2, None, first)


def table_cell(table: DataTable) -> Fn:
    """The closure computing one cell of a data table."""

    def cell(book: Book, sheet: str, row: int, col: int) -> Value:
        return what_if(book, table.formula(row, col), table.inputs(book, row, col))

    return cell  # type: ignore[return-value]


def what_if(book: Book, target: Key, inputs: dict[Key, Value]) -> Value:
    """``target``'s value with the ``inputs`` cells holding the values given: every formula it
    depends on computed anew (on the cells that hold no formula, and on the inputs), and
    forgotten after. Inside another table's computation its inputs stay set."""
    saved = book.results, book.blocks, book.arrays, book.substituted
    substituted = {**book.substituted, **inputs}
    book.results = ChainMap(dict(substituted), book.constants())
    book.blocks, book.arrays, book.substituted = {}, {}, substituted
    try:
        return book.value(*target)
    finally:
        book.results, book.blocks, book.arrays, book.substituted = saved
