"""Reference functions (Excel's lookup and reference category, its other half): OFFSET,
INDIRECT, ROW(S), COLUMN(S), AREAS, ADDRESS, HYPERLINK: ranges made, measured and named.

May import: :mod:`fide_rating.engine.formula` (values, the parser for INDIRECT), :mod:`.base`
and the standard library.
"""

from __future__ import annotations

import re

from ..formula.parser import col_letters, parse
from ..formula.values import (
    MAX_COLS,
    MAX_ROWS,
    REF,
    VALUE,
    Area,
    Book,
    Result,
    Unsupported,
    Value,
    XlError,
    size,
)
from .base import define

_PAST_GRID = re.compile(r"(?:.*!)?\$?[A-Za-z]{1,3}\$?[0-9]+")


@define("OFFSET", "r n n n? n?")
def _offset(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The range ``rows`` down and ``cols`` across from ``reference``, of ``height`` by
    ``width`` (the reference's own size when left out; a negative size extends up or left)."""
    base = args[0]
    if isinstance(base, XlError):
        return base
    if not isinstance(base, Area):
        return VALUE
    down, across = int(args[1]), int(args[2])  # type: ignore[arg-type]
    height = base.rows if args[3] is None else int(args[3])  # type: ignore[arg-type]
    width = base.cols if args[4] is None else int(args[4])  # type: ignore[arg-type]
    if height == 0 or width == 0:
        return REF
    top, left = base.r1 + down, base.c1 + across
    r1, r2 = sorted((top, top + height - (1 if height > 0 else -1)))
    c1, c2 = sorted((left, left + width - (1 if width > 0 else -1)))
    if r1 < 1 or c1 < 1 or r2 > MAX_ROWS or c2 > MAX_COLS:
        return REF
    return Area(base.sheet, r1, c1, r2, c2)


@define("INDIRECT", "s b?")
def _indirect(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The range a text names, in A1 style (``"B2"``, ``"Sheet 2!A1:C3"``); a text that is
    not a reference is #REF!. R1C1 style and defined names are reported."""
    text, a1 = args
    assert isinstance(text, str)
    if a1 is False:
        raise Unsupported("INDIRECT with an R1C1 reference")
    try:
        node = parse(text.strip(), 0, 0)  # from A0: offsets are places
    except Unsupported:
        return REF
    if node[0] == "name":
        if _PAST_GRID.fullmatch(node[1]):
            return REF  # a cell past Excel's grid (XFE1, A1048577)
        raise Unsupported(f"INDIRECT of the name {text!r}")
    if node[0] == "cell":
        _, sheet, row, _, col, _ = node
        if row < 1 or col < 1:
            return REF
        return Area(sheet or sh, row, col, row, col)
    if node[0] == "area":
        (ra, _, ca, _), (rb, _, cb, _) = node[2], node[3]
        return Area(node[1] or sh, min(ra, rb), min(ca, cb), max(ra, rb), max(ca, cb))
    return REF


@define("ROWS", "x")
def _rows(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return a if isinstance(a, XlError) else float(size(book, a)[0])


@define("COLUMNS", "x")
def _columns(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return a if isinstance(a, XlError) else float(size(book, a)[1])


@define("ROW", "r")
def _row(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The reference's row (its rows, a column of them, for a taller range); the formula's
    own row without one."""
    a = args[0]
    if a is None:
        return float(r)
    if not isinstance(a, Area):
        return a if isinstance(a, XlError) else VALUE
    return float(a.r1) if a.rows == 1 else [[float(x)] for x in range(a.r1, a.r2 + 1)]


@define("COLUMN", "r")
def _column(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The reference's column (its columns, a row of them, for a wider range)."""
    a = args[0]
    if a is None:
        return float(c)
    if not isinstance(a, Area):
        return a if isinstance(a, XlError) else VALUE
    return float(a.c1) if a.cols == 1 else [[float(x) for x in range(a.c1, a.c2 + 1)]]


@define("AREAS", "r")
def _areas(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return 1.0 if isinstance(args[0], Area) else VALUE


@define("ADDRESS", "n n n? b? s?")
def _address(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A cell's address as text: ``abs_num`` 1 ``$A$1`` (when left out), 2 ``A$1``, 3
    ``$A1``, 4 ``A1``; R1C1 style with ``a1`` FALSE; ``sheet!`` in front when given."""
    row, col, kind, a1, sheet = args
    i, j = int(row), int(col)  # type: ignore[arg-type]
    how = 1 if kind is None else int(kind)  # type: ignore[arg-type]
    if not 1 <= i <= MAX_ROWS or not 1 <= j <= MAX_COLS or how not in (1, 2, 3, 4):
        return VALUE
    if a1 is False:
        rs = f"R{i}" if how in (1, 2) else f"R[{i}]"
        cs = f"C{j}" if how in (1, 3) else f"C[{j}]"
        place = rs + cs
    else:
        place = ("$" if how in (1, 3) else "") + col_letters(j) + ("$" if how in (1, 2) else "")
        place += str(i)
    if sheet:
        name = str(sheet)
        if not name.replace("_", "").replace(".", "").isalnum() or name[0].isdigit():
            name = "'" + name.replace("'", "''") + "'"
        place = f"{name}!{place}"
    return place


@define("HYPERLINK", "v v?")
def _hyperlink(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """What the cell shows: ``friendly_name``, else the link."""
    link, name = args
    return link if name is None else name
