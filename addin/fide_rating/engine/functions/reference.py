"""Reference functions (Excel's lookup and reference category, its other half): OFFSET,
INDIRECT, ROW(S), COLUMN(S), AREAS, ADDRESS, HYPERLINK: ranges made, measured and named.
INDIRECT reads A1 and R1C1 references, and defined names through the workbook's
``compile_name`` (a book without one has such a formula reported).

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
    scalar,
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
    height = base.rows if args[3] is None else _extent(args[3])  # type: ignore[arg-type]
    width = base.cols if args[4] is None else _extent(args[4])  # type: ignore[arg-type]
    if height == 0 or width == 0:
        return REF
    top, left = base.r1 + down, base.c1 + across
    r1, r2 = sorted((top, top + height - (1 if height > 0 else -1)))
    c1, c2 = sorted((left, left + width - (1 if width > 0 else -1)))
    if r1 < 1 or c1 < 1 or r2 > MAX_ROWS or c2 > MAX_COLS:
        return REF
    return Area(base.sheet, r1, c1, r2, c2)


def _extent(x: float) -> int:
    """OFFSET's height or width: truncated, a fraction between 0 and 1 one cell (Excel's
    saved values: a width of 0.9 is one column, of 3.99 three)."""
    k = int(x)
    return 1 if k == 0 and x > 0 else k


@define("INDIRECT", "s b")
def _indirect(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The range a text names: in A1 style (``"B2"``, ``"Sheet 2!A1:C3"``), or in R1C1 style
    with ``a1`` FALSE (written empty too: ``"R2C3"``, ``"R[-1]C"`` relative to the formula's
    cell, ``"R2"`` a whole row, ``"C[1]"`` a whole column); a defined name that stands for a
    range. A text that is none of these, a sheet the workbook does not have, a name it does
    not define, is #REF!."""
    text, a1 = args
    assert isinstance(text, str)
    text = text.strip()
    if a1 is False:
        found = r1c1(text, r, c)
        if found is None:
            return _named(book, sh, r, c, text)
        if isinstance(found, XlError):
            return found
        return _on_sheet(book, found, sh)
    try:
        node = parse(text, 0, 0)  # from A0: offsets are places
    except Unsupported:
        return REF
    if node[0] == "name":
        if _PAST_GRID.fullmatch(node[1]):
            return REF  # a cell past Excel's grid (XFE1, A1048577)
        return _named(book, sh, r, c, node[1])
    if node[0] == "cell":
        _, sheet, row, _, col, _ = node
        if row < 1 or col < 1:
            return REF
        return _on_sheet(book, Area(sheet or "", row, col, row, col), sh)
    if node[0] == "area":
        (ra, _, ca, _), (rb, _, cb, _) = node[2], node[3]
        area = Area(node[1] or "", min(ra, rb), min(ca, cb), max(ra, rb), max(ca, cb))
        return _on_sheet(book, area, sh)
    return REF


def _on_sheet(book: Book, area: Area, sh: str) -> Result:
    """The area on the sheet it names (the formula's own when none), as the workbook spells
    it; #REF! for a sheet the workbook does not have."""
    if not area.sheet:
        return Area(sh, area.r1, area.c1, area.r2, area.c2)
    sheets = getattr(book, "sheets", None)
    if sheets is None:
        return area
    name = sheets.get(area.sheet.upper())
    if name is None:
        return REF
    return Area(name, area.r1, area.c1, area.r2, area.c2)


def _named(book: Book, sh: str, r: int, c: int, text: str) -> Result:
    """A defined name given to INDIRECT: the range it stands for; #REF! for a name the
    workbook does not define or one that stands for a value."""
    if not _NAME.fullmatch(text):
        return REF
    compile_name = getattr(book, "compile_name", None)
    if compile_name is None:
        raise Unsupported(f"INDIRECT of the name {text!r} outside a workbook")
    found = compile_name(text)(book, sh, r, c)
    return found if isinstance(found, Area) else REF


_NAME = re.compile(r"(?:(?:'(?:[^']|'')+'|[^'!\s]+)!)?(?:[^\W\d]|\\)[\w.\\?]*")
_SHEET_PART = re.compile(r"(?:(?P<sheet>'(?:[^']|'')+'|[^'!]+)!)?(?P<ref>[^!]*)")
_R1C1_PART = re.compile(
    r"(?:R(?:(?P<r>\d+)|\[(?P<dr>-?\d+)\])?)?(?:C(?:(?P<c>\d+)|\[(?P<dc>-?\d+)\])?)?", re.I
)


def r1c1(text: str, row: int, col: int) -> Area | XlError | None:
    """An R1C1-style reference written in cell (row, col): ``R2C3``, ``R[-1]C[2]``, ``RC``,
    rows ``R2``, ``R[1]:R[3]``, columns ``C2``, ``C``, each with ``Sheet!`` in front or not (the
    area's sheet is then empty). A relative place before the first row or column, or past the
    last, wraps round the sheet, as Excel's does; an offset of a whole sheet or more, a row or
    column 0, or a cell joined to a row is #REF!. None for a text that is not R1C1 at all."""
    m = _SHEET_PART.fullmatch(text)
    if m is None:
        return None
    sheet = m.group("sheet") or ""
    if sheet.startswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    parts = m.group("ref").split(":")
    if len(parts) > 2:
        return None
    places = []
    for part in parts:
        found = _R1C1_PART.fullmatch(part)
        if found is None or not part:
            return None
        has_row, has_col = part[:1].upper() == "R", "C" in part.upper()
        at_row = _place(found.group("r"), found.group("dr"), row, MAX_ROWS) if has_row else None
        at_col = _place(found.group("c"), found.group("dc"), col, MAX_COLS) if has_col else None
        if isinstance(at_row, XlError):
            return at_row
        if isinstance(at_col, XlError):
            return at_col
        places.append((at_row, at_col))
    if len({(a is None, b is None) for a, b in places}) > 1:
        return REF  # a cell joined to a row or a column (R1C1:R2)
    rows = [a for a, _ in places if a is not None] or [1, MAX_ROWS]
    cols = [b for _, b in places if b is not None] or [1, MAX_COLS]
    return Area(sheet, min(rows), min(cols), max(rows), max(cols))


def _place(fixed: str | None, offset: str | None, here: int, last: int) -> int | XlError:
    """A row or column of an R1C1 reference: a number, or an offset from the formula's own
    (wrapping round the sheet; one of a whole sheet or more is #REF!)."""
    if fixed is not None:
        k = int(fixed)
        return k if 1 <= k <= last else REF
    step = 0 if offset is None else int(offset)
    if abs(step) >= last:
        return REF
    return (here - 1 + step) % last + 1


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


@define("HYPERLINK", "v r")
def _hyperlink(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """What the cell shows: ``friendly_name``, else the link; a blank cell given for the name
    shows 0, as any formula showing a blank does (Excel's saved values)."""
    link, name = args
    if name is None:
        return link
    shown = scalar(book, name, r, c)
    return 0.0 if shown is None else shown
