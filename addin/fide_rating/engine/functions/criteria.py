"""Criteria, as COUNTIF, COUNTIFS, SUMIF(S), AVERAGEIF(S), MINIFS, MAXIFS and the database
functions apply them: one implementation for all of them.

A criterion (Excel's COUNTIF reference) is a value or a text with an operator in front:

* a number (``3``) or a text that reads as one (``"3"``, ``"1,000"``, ``"1987-08-26"``):
  equal numbers, and texts that read as an equal number (Excel counts the text "3" where it
  counts 3); ``"<>3"`` everything but the number 3 (the text "3" too); ``">2"``, ``"<=5"``
  ... numbers only;
* a text: equal texts regardless of case, with the wildcards ``*``, ``?`` and ``~``;
  ``">b"`` ... texts by their order; ``"<>x"`` every cell but those, blank cells too;
* ``TRUE``, ``"FALSE"``: those logicals; ``"#N/A"``: that error;
* ``""``: blank cells and empty texts; ``"="``: blank cells only; ``"<>"``: cells not empty
  (a formula's empty text counts);
* an error (``#N/A`` in the criterion's cell): that error;
* a reference to an empty cell: 0 ("the COUNTIFS function treats the empty cell as a 0").

Ranges are read up to their sheet's last used row and column; the cells beyond, all blank, are
counted without being read (``COUNTIF(H:H,"<>x")`` counts a million cells).

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..formula.coerce import compare, number, read_number
from ..formula.values import (
    ERRORS,
    VALUE,
    Area,
    Book,
    Result,
    Value,
    XlError,
    as_grid,
    check_size,
)
from .base import wildcards

Test = Callable[[Value], bool]
_OPERATOR = re.compile(r"^(<=|>=|<>|<|>|=)?(.*)$", re.S)


_ORDERED: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge
}  # fmt: skip


def _is_number(v: Value) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


def criterion(crit: Value) -> Test:
    """The test a criterion makes of each cell's value."""
    if crit is None:
        crit = 0.0
    if isinstance(crit, bool):
        return lambda v: isinstance(v, bool) and v == crit
    if isinstance(crit, XlError):
        return lambda v: v == crit
    if isinstance(crit, float | int):
        return _equal_number(float(crit))
    m = _OPERATOR.match(crit)
    assert m is not None
    op, rest = m.group(1) or "=", m.group(2)
    if crit == "=":
        return lambda v: v is None
    if rest == "":
        if op == "=":
            return lambda v: v is None or v == ""
        if op == "<>":  # any cell not empty, a formula's "" too
            return lambda v: v is not None
        return lambda v: False
    goal: Value = read_number(rest)
    if goal is None:
        upper = rest.upper()
        goal = (upper == "TRUE") if upper in ("TRUE", "FALSE") else ERRORS.get(upper, rest)
    if isinstance(goal, XlError):
        error = goal
        if op in ("=", "<>"):
            return (lambda v: v == error) if op == "=" else (lambda v: v != error)
        return lambda v: False  # an error is not ordered
    if isinstance(goal, float):
        if op == "=":
            return _equal_number(goal)
        if op == "<>":  # a text "3" is not the number 3 here: only numbers are left out
            other = goal
            return lambda v: not (_is_number(v) and v == other)
        target, ordered = goal, _ORDERED[op]
        # a number against a number: the plain comparison (criteria compare exactly), as
        # compare() has it, without its ranks of types (COUNTIFS over long columns)
        return lambda v: (ordered(v, target) if v.__class__ is float
                          else _is_number(v) and ordered(float(v), target))  # type: ignore[arg-type]  # fmt: skip
    if isinstance(goal, bool):
        flag = goal
        if op in ("=", "<>"):
            return (lambda v: v is flag) if op == "=" else (lambda v: v is not flag)
        return lambda v: isinstance(v, bool) and compare(op, v, flag) is True
    text = goal
    if op in ("=", "<>"):
        if any(ch in text for ch in "*?~"):
            pattern = wildcards(text)

            def hit(v: Value) -> bool:
                return isinstance(v, str) and pattern.fullmatch(v)

        else:
            low = text.lower()

            def hit(v: Value) -> bool:
                return isinstance(v, str) and v.lower() == low

        return hit if op == "=" else (lambda v: not hit(v))
    return lambda v: isinstance(v, str) and compare(op, v, text) is True


def _equal_number(goal: float) -> Test:
    def test(v: Value) -> bool:
        if _is_number(v):
            return v == goal
        if isinstance(v, str):  # "3" counts where 3 does
            x = number(v)
            return not isinstance(x, XlError) and x == goal
        return False

    return test


@dataclass
class Selection:
    """Where criteria hold: a flag for each cell of the ranges' used part (row by row), and how
    many of the blank cells beyond it hold too."""

    rows: int
    cols: int
    hits: list[bool]
    beyond: int

    def count(self) -> int:
        return sum(self.hits) + self.beyond


def shape(book: Book, v: Result) -> tuple[int, int, int, int]:
    """A range's size, and the size of its used part (up to its sheet's last row and column)."""
    if isinstance(v, Area):
        rows, cols = book.extent(v.sheet)
        used_rows = max(0, min(v.r2, rows) - v.r1 + 1)
        used_cols = max(0, min(v.c2, cols) - v.c1 + 1)
        return v.rows, v.cols, used_rows, used_cols
    grid = as_grid(book, v)
    return len(grid), len(grid[0]), len(grid), len(grid[0])


def block(book: Book, v: Result, rows: int, cols: int) -> list[Value]:
    """The first ``rows`` x ``cols`` cells of a range (from its first cell: a sum range is
    taken in the criteria range's size, as SUMIF documents), row by row, blanks where the
    range or its sheet ends."""
    if isinstance(v, Area):
        grid = as_grid(book, Area(v.sheet, v.r1, v.c1, v.r1 + max(rows, 1) - 1,
                                  v.c1 + max(cols, 1) - 1))  # fmt: skip
    else:
        grid = as_grid(book, v)
    if cols == 1:  # a column: its first values, blanks below its end
        out = [line[0] if line else None for line in grid[:rows]]
        return out + [None] * (rows - len(out))
    out = []
    for i in range(rows):
        line = grid[i] if i < len(grid) else []
        out += [line[j] if j < len(line) else None for j in range(cols)]
    return out


def select(book: Book, pairs: list[tuple[Result, Value]]) -> Selection | XlError:
    """The cells where every (range, criterion) pair holds; #VALUE! when the ranges differ in
    size (COUNTIFS, SUMIFS ...)."""
    shapes = [shape(book, area) for area, _ in pairs]
    size = shapes[0][:2]
    if any(s[:2] != size for s in shapes):
        return VALUE
    rows, cols = max(s[2] for s in shapes), max(s[3] for s in shapes)
    check_size(rows, cols, "a range of")
    hits = [True] * (rows * cols)
    beyond = True
    for area, crit in pairs:
        test = criterion(crit)
        values = block(book, area, rows, cols)
        hits = [bool(hit and test(v)) for hit, v in zip(hits, values, strict=True)]
        beyond = beyond and test(None)
    rest = size[0] * size[1] - rows * cols
    return Selection(rows, cols, hits, rest if beyond else 0)


def picked(book: Book, chosen: Selection, target: Result) -> list[Value]:
    """The values of ``target`` where the criteria hold (the blank cells beyond not listed:
    no aggregate counts them)."""
    values = block(book, target, chosen.rows, chosen.cols)
    return [v for v, hit in zip(values, chosen.hits, strict=True) if hit]


def numbers_picked(values: list[Value]) -> list[float] | XlError:
    """The numbers among the values criteria picked (texts, logicals, blanks ignored); an error
    there is the result (Excel's SUMIF and AVERAGEIF do not skip it)."""
    out = []
    for v in values:
        if isinstance(v, XlError):
            return v
        if _is_number(v):
            out.append(float(v))  # type: ignore[arg-type]
    return out
