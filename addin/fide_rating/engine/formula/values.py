"""Spreadsheet values: errors, areas, the workbook protocol, ranges read as arrays.

The conversions between values and the operators are :mod:`.coerce`'s.

May import: the standard library only.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class Unsupported(Exception):  # noqa: N818 - reads as what it reports
    """A formula the engine cannot evaluate; the message says why."""


@dataclass(frozen=True, slots=True)
class XlError:
    """A spreadsheet error value such as ``#DIV/0!``."""

    code: str

    def __str__(self) -> str:
        return self.code


DIV0 = XlError("#DIV/0!")
VALUE = XlError("#VALUE!")
REF = XlError("#REF!")
NAME = XlError("#NAME?")
NUM = XlError("#NUM!")
NA = XlError("#N/A")
NULL = XlError("#NULL!")
ERRORS = {e.code: e for e in (DIV0, VALUE, REF, NAME, NUM, NA, NULL)}

Value = float | str | bool | XlError | None
MAX_ROWS = 1_048_576
MAX_COLS = 16_384
# characters in a text (Excel's specifications and limits): a longer result is #VALUE!
MAX_TEXT = 32_767
# the most values a range read whole, or an array computed, may hold: four times Excel's
# 1,048,576 rows (a whole sheet read cell by cell would be 17,179,869,184 values, 550 GB)
MAX_ARRAY = 1 << 22
EPOCH = _dt.date(1899, 12, 30)


@dataclass(frozen=True, slots=True)
class Area:
    """A rectangular reference: sheet name, first and last row and column (1-based)."""

    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int

    @property
    def rows(self) -> int:
        return self.r2 - self.r1 + 1

    @property
    def cols(self) -> int:
        return self.c2 - self.c1 + 1


class Book(Protocol):
    """What the engine needs from a workbook."""

    def value(self, sheet: str, row: int, col: int) -> Value: ...

    def extent(self, sheet: str) -> tuple[int, int]: ...

    def computed(self, sheet: str, row: int, col: int) -> bool:
        """Whether the cell holds a formula (its value computed, not typed in)."""
        ...

    def left_out(
        self, sheet: str, row: int, col: int, *, nested: bool, filtered: bool, manual: bool
    ) -> bool:
        """Whether SUBTOTAL or AGGREGATE leaves a cell out: one holding a SUBTOTAL or an
        AGGREGATE itself (with ``nested``), in a row a filter hides (``filtered``), in a row
        hidden by hand (``manual``)."""
        ...


Array = list[list[Value]]


class Cut(list[list[Value]]):
    """A large range's values read only up to its sheet's last used row and column: ``full``
    is the range's whole shape, and every element past what is held is ``tail`` (a blank for
    the range; for an operator's result over it, that operator's result over a blank). The
    operators look past what is held, and so do the functions whose result the tail changes
    (:func:`fide_rating.engine.functions.base.whole`); to anything else it is the values
    held."""

    __slots__ = ("full", "tail")

    def __init__(self, rows: list[list[Value]], full: tuple[int, int], tail: Value = None):
        super().__init__(rows)
        self.full = full
        self.tail = tail

    def padded(self, rows: int, cols: int) -> Array:
        """The values held, with ``tail`` past them up to ``rows`` x ``cols`` (at most its
        whole shape)."""
        rows, cols = min(rows, self.full[0]), min(cols, self.full[1])
        check_size(rows, cols)
        tail = self.tail
        have = len(self[0]) if self else 0
        grid = [
            line + [tail] * (cols - have) if have < cols else line[:cols] for line in self[:rows]
        ]
        grid += [[tail] * cols for _ in range(rows - len(grid))]
        return grid


Result = Value | Area | Array
Fn = Callable[[Book, str, int, int], Result]  # (book, host sheet, host row, host col)

# --- values ---------------------------------------------------------------------------------


# a range of up to this many cells keeps its shape, blanks past its sheet's last used cell
# included, as an operation element by element needs it ((C1:C20<>"")*ROW(C1:C20))
WHOLE_UP_TO = 1 << 16


def values_of(book: Book, area: Area) -> Array:
    """A range's values row by row, read up to its sheet's last used row and column (the
    cells beyond are blank): a range of up to :data:`WHOLE_UP_TO` cells is given its whole
    shape, a larger one is cut there; a range of more cells than :data:`MAX_ARRAY` is not
    read."""
    rows, cols = book.extent(area.sheet)
    r2, c2 = min(area.r2, max(rows, area.r1)), min(area.c2, max(cols, area.c1))
    check_size(r2 - area.r1 + 1, c2 - area.c1 + 1, "a range of")
    block = getattr(book, "block", None)
    if block is not None:
        grid: Array = block(area.sheet, area.r1, area.c1, r2, c2)
    else:
        get, sheet = book.value, area.sheet
        grid = [[get(sheet, r, c) for c in range(area.c1, c2 + 1)]
                for r in range(area.r1, r2 + 1)]  # fmt: skip
    if (r2 < area.r2 or c2 < area.c2) and area.rows * area.cols <= WHOLE_UP_TO:
        if rows == cols == 0 and grid[0][0] == REF:  # a sheet not there: #REF! all over
            return [[REF] * area.cols for _ in range(area.rows)]
        wide = [line + [None] * (area.c2 - c2) for line in grid] if c2 < area.c2 else grid[:]
        wide += [[None] * area.cols for _ in range(area.r2 - r2)]
        return wide
    if r2 < area.r2 or c2 < area.c2:  # cut: what lies past it is blank
        return Cut(grid, (area.rows, area.cols))
    return grid


def check_size(rows: int, cols: int, what: str = "an array of") -> None:
    """Refuse to build a range's or an array's values beyond :data:`MAX_ARRAY` (Excel runs out
    of memory long before; recalc reports the formula)."""
    if rows * cols > MAX_ARRAY:
        raise Unsupported(
            f"{what} {rows:,} x {cols:,} values: more than the {MAX_ARRAY:,} recalc holds at "
            "once (Excel: out of resources)"
        )


def scalar(book: Book, value: Result, row: int, col: int) -> Value:
    """A result as one value: a one-cell range is its cell, a range in the formula's own row or
    column gives the cell there (implicit intersection), anything else #VALUE!."""
    if isinstance(value, Area):
        if value.rows == 1 and value.cols == 1:
            return book.value(value.sheet, value.r1, value.c1)
        if value.cols == 1 and value.r1 <= row <= value.r2:
            return book.value(value.sheet, row, value.c1)
        if value.rows == 1 and value.c1 <= col <= value.c2:
            return book.value(value.sheet, value.r1, col)
        return VALUE
    if isinstance(value, list):
        return value[0][0] if value and value[0] else VALUE
    return value


def as_grid(book: Book, value: Result) -> Array:
    if isinstance(value, Area):
        return values_of(book, value)
    if isinstance(value, list):
        return value
    return [[value]]


def size(book: Book, v: Result) -> tuple[int, int]:
    """The rows and columns of a range (without reading its cells) or of an array."""
    if isinstance(v, Area):
        return v.rows, v.cols
    grid = as_grid(book, v)
    return len(grid), len(grid[0])


def element(g: Array, r: int, c: int) -> Value:
    """Element (r, c) of an array stretched to a larger one, as Excel stretches it: a single
    value everywhere, a single row down, a single column across; beyond that, #N/A."""
    if len(g) == 1 and len(g[0]) == 1:
        return g[0][0]
    if r < len(g) and c < len(g[0]):
        return g[r][c]
    if len(g) == 1 and c < len(g[0]):
        return g[0][c]
    if len(g[0]) == 1 and r < len(g):
        return g[r][0]
    return NA
