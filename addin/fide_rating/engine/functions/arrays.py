"""Dynamic arrays (Excel's lookup and reference category): TRANSPOSE, FILTER, SORT, SORTBY,
UNIQUE, TAKE, DROP, CHOOSEROWS, CHOOSECOLS, VSTACK, HSTACK, TOCOL, TOROW, WRAPCOLS, WRAPROWS,
EXPAND, TRIMRANGE, and ``@`` (SINGLE).

May import: :mod:`fide_rating.engine.formula` (values, coercions), :mod:`.base`,
:mod:`.lambdas` (function values) and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.coerce import number, rank_key
from ..formula.values import (
    MAX_COLS,
    MAX_ROWS,
    NA,
    NUM,
    VALUE,
    Area,
    Array,
    Book,
    Result,
    Value,
    XlError,
    as_grid,
    check_size,
    scalar,
    size,
)
from .base import define
from .lambdas import Lambda

CALC = XlError("#CALC!")


def _whole(book: Book, v: Result) -> Array:
    """An array's values, or a range's in its full size: the blank rows and columns past its
    sheet's used end too (``UNIQUE(A1:A13)`` lists a blank when A13 is one)."""
    grid = as_grid(book, v)
    if isinstance(v, Area) and (len(grid) < v.rows or len(grid[0]) < v.cols):
        check_size(v.rows, v.cols, "a range of")
        pad = [None] * (v.cols - len(grid[0]))
        grid = [[*line, *pad] for line in grid]
        grid += [[None] * v.cols for _ in range(v.rows - len(grid))]
    return grid


@define("TRANSPOSE", "x")
def _transpose(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    grid = _whole(book, args[0])
    return [list(line) for line in zip(*grid, strict=True)]


@define("FILTER", "x x e?")
def _filter(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The rows (or columns) of an array where ``include`` is TRUE (or a number not 0);
    none: ``if_empty``, else #CALC!."""
    include = as_grid(book, args[1])
    grid = as_grid(book, args[0])  # the used part, as an include computed from a whole column
    whole = args[0]
    if isinstance(whole, Area) and (len(grid) < len(include) <= whole.rows
                                    or len(grid[0]) < len(include[0]) <= whole.cols):  # fmt: skip
        grid = _whole(book, whole)  # an include computed from the whole range
    empty = args[2]
    by_rows = len(include[0]) == 1 and len(include) == len(grid)
    by_cols = len(include) == 1 and len(include[0]) == len(grid[0])
    if not by_rows and not by_cols:
        return VALUE
    flags = [line[0] for line in include] if by_rows else include[0]
    keep = []
    for f in flags:
        if isinstance(f, XlError):
            return f
        x = number(f) if not isinstance(f, str) else VALUE
        if isinstance(x, XlError):
            return VALUE
        keep.append(x != 0)
    if by_rows:
        out = [line for line, k in zip(grid, keep, strict=True) if k]
    else:
        out = [[v for v, k in zip(line, keep, strict=True) if k] for line in grid]
        out = out if out and out[0] else []
    if not out:
        return CALC if empty is None else empty
    return out


def _sort_key(v: Value) -> tuple[int, object]:
    """SORT's order: numbers, texts (any case), logicals, errors (by their ERROR.TYPE
    number), then blanks."""
    if v is None:
        return (5, 0)
    if isinstance(v, XlError):
        return (4, _ERROR_ORDER.get(v.code, 99))
    return rank_key(v)


_ERROR_ORDER = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6,
                "#N/A": 7}  # fmt: skip


@define("SORT", "x n? n? b?")
def _sort(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The array's rows sorted by column ``sort_index`` (1), ascending (``sort_order`` 1) or
    descending (-1); its columns by a row with ``by_col``. Equal keys keep their order."""
    grid = _whole(book, args[0])
    index = 1 if args[1] is None else int(args[1])  # type: ignore[arg-type]
    order = 1 if args[2] is None else int(args[2])  # type: ignore[arg-type]
    by_col = bool(args[3])
    lines = [list(t) for t in zip(*grid, strict=True)] if by_col else [list(x) for x in grid]
    if order not in (1, -1) or not 1 <= index <= len(lines[0]):
        return VALUE
    # Python's sort keeps equal keys in their order, descending too, as SORT does; blanks
    # come last either way (Excel's saved values)
    filled = [line for line in lines if line[index - 1] is not None]
    ranked = sorted(filled, key=lambda line: _sort_key(line[index - 1]), reverse=order < 0)
    ranked += [line for line in lines if line[index - 1] is None]
    return [list(t) for t in zip(*ranked, strict=True)] if by_col else ranked


@define("UNIQUE", "x b? b?")
def _unique(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The distinct rows (columns, with ``by_col``) of an array in their first order (texts
    regardless of case); with ``exactly_once`` those that appear once only."""
    grid = _whole(book, args[0])
    by_col, once = bool(args[1]), bool(args[2])
    lines = [list(t) for t in zip(*grid, strict=True)] if by_col else [list(x) for x in grid]
    counts: dict[tuple[object, ...], int] = {}
    first: dict[tuple[object, ...], list[Value]] = {}
    for line in lines:
        key = tuple(_sort_key(v) if not isinstance(v, XlError) else (4, v.code) for v in line)
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, line)
    out = [first[k] for k in first if not once or counts[k] == 1]
    if not out:
        return CALC
    return [list(t) for t in zip(*out, strict=True)] if by_col else out


@define("TAKE", "x n? n?")
def _take(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The first (last, when negative) ``rows`` and ``columns`` of an array."""
    grid = _whole(book, args[0])
    n = len(grid) if args[1] is None else int(args[1])  # type: ignore[arg-type]
    m = len(grid[0]) if args[2] is None else int(args[2])  # type: ignore[arg-type]
    if n == 0 or m == 0:
        return CALC
    lines = grid[:n] if n > 0 else grid[n:]
    return [line[:m] if m > 0 else line[m:] for line in lines]


@define("DROP", "x n? n?")
def _drop(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The array without its first (last, when negative) ``rows`` and ``columns``."""
    grid = _whole(book, args[0])
    n = 0 if args[1] is None else int(args[1])  # type: ignore[arg-type]
    m = 0 if args[2] is None else int(args[2])  # type: ignore[arg-type]
    lines = grid[n:] if n >= 0 else grid[:n]
    out = [line[m:] if m >= 0 else line[:m] for line in lines]
    return out if out and out[0] else CALC


def _choose_lines(columns: bool) -> Callable[..., Result]:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        grid = _whole(book, args[0])
        lines = [list(t) for t in zip(*grid, strict=True)] if columns else grid
        picked = []
        for v in args[1:]:
            k = int(v)  # type: ignore[arg-type]
            if k == 0 or abs(k) > len(lines):
                return VALUE
            picked.append(lines[k - 1] if k > 0 else lines[k])
        return [list(t) for t in zip(*picked, strict=True)] if columns else picked

    return impl


define("CHOOSEROWS", "x n")(_choose_lines(False))


define("CHOOSECOLS", "x n")(_choose_lines(True))


def _stack(vertical: bool) -> Callable[..., Result]:
    """VSTACK and HSTACK: the arrays one below (beside) the other, short ones padded with
    #N/A; an error given itself is the result, but function values are stacked as values
    (``HSTACK(SUM,AVERAGE)``, GROUPBY's several functions)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        for a in args:
            if isinstance(a, XlError) and not isinstance(a, Lambda):
                return a
        grids = [_whole(book, a) for a in args]
        if not vertical:
            grids = [[list(t) for t in zip(*g, strict=True)] for g in grids]
        width = max(len(g[0]) for g in grids)
        out = [[*line, *([NA] * (width - len(line)))] for g in grids for line in g]
        return out if vertical else [list(t) for t in zip(*out, strict=True)]

    return impl


define("VSTACK", "x", errors=True)(_stack(True))


define("HSTACK", "x", errors=True)(_stack(False))


def _to_line(column: bool) -> Callable[..., Result]:
    """TOCOL and TOROW: the array's values in one column (row), row by row (column by column
    with ``scan_by_column``), blanks (1), errors (2) or both (3) left out with ``ignore``."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        grid = _whole(book, args[0])
        ignore = 0 if args[1] is None else int(args[1])  # type: ignore[arg-type]
        by_col = bool(args[2])
        lines = [list(t) for t in zip(*grid, strict=True)] if by_col else grid
        values = [v for line in lines for v in line
                  if not (ignore in (1, 3) and v is None)
                  and not (ignore in (2, 3) and isinstance(v, XlError))]  # fmt: skip
        if not values:
            return CALC
        return [[v] for v in values] if column else [values]

    return impl


define("TOCOL", "x n? b?")(_to_line(True))


define("TOROW", "x n? b?")(_to_line(False))


@define("SINGLE", "r")
def _single(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Excel's ``@`` (implicit intersection), written ``_xlfn.SINGLE`` in the file: a range's
    cell in the formula's row or column, in an array formula too (POWER(@A1:A3,3) in row 2 is
    8 in IronCalc's MATH_AND_TRIGONOMETRY/POWER.xlsx); an array's first value."""
    return scalar(book, args[0], r, c)


def _ranked(lines: list[list[Value]], key: list[Value], descending: bool) -> list[int]:
    """The places of ``lines`` in SORT's order of their ``key`` values (equal ones keeping
    their order, blanks last either way)."""
    filled = [k for k in range(len(lines)) if key[k] is not None]
    ranked = sorted(filled, key=lambda k: _sort_key(key[k]), reverse=descending)
    return ranked + [k for k in range(len(lines)) if key[k] is None]


@define("SORTBY", "x x n?", repeat=2)
def _sortby(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The array's rows (columns) sorted by the values of ``by_array1`` (a column as tall, or
    a row as wide, as the array), ``sort_order1`` 1 ascending (when left out) or -1, then by
    each further pair; equal keys keep their order. A by-array of another size or shape, or
    an order other than 1 or -1, is #VALUE!."""
    grid = _whole(book, args[0])
    pairs = args[1:]
    if len(pairs) % 2:
        pairs = [*pairs, None]
    keys: list[tuple[list[Value], bool]] = []
    by_col: bool | None = None
    for by, order in zip(pairs[::2], pairs[1::2], strict=True):
        if isinstance(by, XlError):
            return by
        way = 1 if order is None else int(order)  # type: ignore[arg-type]
        if way not in (1, -1):
            return VALUE
        values = _whole(book, by)
        if len(values[0]) == 1 and len(values) == len(grid) and by_col is not True:
            by_col = False
            keys.append(([line[0] for line in values], way < 0))
        elif len(values) == 1 and len(values[0]) == len(grid[0]) and by_col is not False:
            by_col = True
            keys.append((values[0], way < 0))
        else:
            return VALUE
    lines = [list(t) for t in zip(*grid, strict=True)] if by_col else [list(x) for x in grid]
    places = list(range(len(lines)))
    for key, descending in reversed(keys):  # the last key first: each sort keeps the order
        ordered = _ranked(lines, [key[k] for k in places], descending)
        places = [places[k] for k in ordered]
    ranked = [lines[k] for k in places]
    return [list(t) for t in zip(*ranked, strict=True)] if by_col else ranked


def _vector(book: Book, v: Result) -> list[Value] | XlError:
    """A row's or column's values in order; #VALUE! for a block of several of each."""
    if isinstance(v, Area) and v.rows > 1 and v.cols > 1:
        return VALUE  # however little of it is used
    grid = _whole(book, v)
    if len(grid) > 1 and len(grid[0]) > 1:
        return VALUE
    return [x for line in grid for x in line]


def _wrap(by_columns: bool) -> Callable[..., Result]:
    """WRAPCOLS and WRAPROWS: a row or column of values in columns (rows) of ``wrap_count``,
    the last padded with ``pad_with`` (#N/A when left out), fewer values than the count in
    one column (row) as long as they are (Excel's saved values); a block is #VALUE!, a count
    below 1 #NUM!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        values = _vector(book, args[0])
        if isinstance(values, XlError):
            return values
        count = int(args[1])  # type: ignore[arg-type]
        if count < 1:
            return NUM
        pad: Value = NA if args[2] is None else args[2]  # type: ignore[assignment]
        count = min(count, len(values))  # fewer values than the count: one line, unpadded
        lines = [values[k : k + count] for k in range(0, len(values), count)]
        lines[-1] += [pad] * (count - len(lines[-1]))
        return [list(t) for t in zip(*lines, strict=True)] if by_columns else lines

    return impl


define("WRAPCOLS", "x n e?")(_wrap(True))


define("WRAPROWS", "x n e?")(_wrap(False))


@define("EXPAND", "x n? n? e?")
def _expand(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The array grown to ``rows`` by ``columns`` (its own size when left out), the new cells
    ``pad_with`` (#N/A when left out); a size smaller than the array's is #VALUE!, one larger
    than a sheet #NUM!."""
    grid = _whole(book, args[0])
    rows = len(grid) if args[1] is None else int(args[1])  # type: ignore[arg-type]
    cols = len(grid[0]) if args[2] is None else int(args[2])  # type: ignore[arg-type]
    if rows < len(grid) or cols < len(grid[0]):
        return VALUE
    if rows > MAX_ROWS or cols > MAX_COLS:
        return NUM  # larger than a sheet (Excel's reference: "too large")
    check_size(rows, cols)
    pad: Value = NA if args[3] is None else args[3]  # type: ignore[assignment]
    out = [[*line, *([pad] * (cols - len(line)))] for line in grid]
    return out + [[pad] * cols for _ in range(rows - len(grid))]


@define("TRIMRANGE", "x n? n?")
def _trimrange(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The range (a range still) or array without its blank rows and columns at the edges:
    ``trim_rows`` and ``trim_cols`` 0 none, 1 the leading ones, 2 the trailing ones, 3 both
    (when left out); all blank is #REF!, another mode #VALUE!."""
    target = args[0]
    modes = [3 if m is None else int(m) for m in args[1:]]  # type: ignore[arg-type]
    if any(m not in (0, 1, 2, 3) for m in modes):
        return VALUE
    grid = as_grid(book, target)  # a range's cells past its sheet's used end are blank
    used = [(i, j) for i, line in enumerate(grid) for j, v in enumerate(line) if v is not None]
    if not used:
        return XlError("#REF!")
    rows, cols = size(book, target)
    top = min(i for i, _ in used) if modes[0] & 1 else 0
    bottom = max(i for i, _ in used) if modes[0] & 2 else rows - 1
    left = min(j for _, j in used) if modes[1] & 1 else 0
    right = max(j for _, j in used) if modes[1] & 2 else cols - 1
    if isinstance(target, Area):
        t = target
        return Area(t.sheet, t.r1 + top, t.c1 + left, t.r1 + bottom, t.c1 + right)
    return [line[left : right + 1] for line in grid[top : bottom + 1]]
