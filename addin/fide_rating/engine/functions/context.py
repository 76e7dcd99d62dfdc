"""Functions that read the workbook beyond its cells' values (Excel's lookup and reference
category): FORMULATEXT (a cell's formula), ANCHORARRAY (``A1#``, the range an array formula
spills into) and GETPIVOTDATA (a value of a pivot table, from the cache saved with it).

The book answers them (``formula_text``, ``spill``, ``pivot``): a book that cannot has the
formula reported.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`.base` and the standard library.
"""

from __future__ import annotations

from typing import Any

from ..formula.values import NA, REF, VALUE, Area, Book, Result, Unsupported, XlError
from .base import define


def _asks(book: Book, what: str, function: str) -> Any:
    found = getattr(book, what, None)
    if found is None:
        raise Unsupported(f"{function} outside a workbook")
    return found


@define("FORMULATEXT", "r")
def _formulatext(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The formula of the reference's first cell as Excel shows it; #N/A for a cell holding
    none. The cell's value is not read: a formula showing its own text is no circle."""
    ref = args[0]
    if not isinstance(ref, Area):
        return VALUE
    text = _asks(book, "formula_text", "FORMULATEXT")(ref.sheet, ref.r1, ref.c1)
    return NA if text is None else text


@define("ANCHORARRAY", "r")
def _anchorarray(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """``A1#``: the range of the array formula written in the reference's cell (its range as
    the file holds it); #REF! for a cell holding none."""
    ref = args[0]
    if not isinstance(ref, Area):
        return VALUE
    found = _asks(book, "spill", "ANCHORARRAY")(ref.sheet, ref.r1, ref.c1)
    return REF if found is None else found


@define("GETPIVOTDATA", "v r v v", repeat=2)
def _getpivotdata(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """A value of the pivot table that holds ``pivot_table``: the data field named (its
    caption, "Sum of Sales", or its source field, "Sales") summarised over the records whose
    fields hold the items given in pairs; #REF! for no such pivot table, field or item."""
    field, where, *pairs = args
    if not isinstance(where, Area):
        return REF
    pivot = _asks(book, "pivot", "GETPIVOTDATA")(where.sheet, where.r1, where.c1)
    if pivot is None:
        return REF
    if isinstance(field, XlError):
        return field
    if len(pairs) % 2:
        return REF
    chosen = []
    for name, item in zip(pairs[::2], pairs[1::2], strict=True):
        if name is None and item is None:  # a pair left out
            continue
        if isinstance(name, XlError):
            return name
        if isinstance(item, XlError):
            return item
        chosen.append((name, item))
    return pivot.value(field, chosen)  # type: ignore[no-any-return]
