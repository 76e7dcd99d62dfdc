"""Dynamic arrays (Excel's lookup and reference category): TRANSPOSE, FILTER, SORT, UNIQUE,
TAKE, DROP, CHOOSEROWS, CHOOSECOLS, VSTACK, HSTACK, TOCOL, TOROW, and ``@`` (SINGLE).

May import: :mod:`fide_rating.engine.formula` (values, coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.coerce import number, rank_key
from ..formula.values import NA, VALUE, Array, Book, Result, Value, XlError, as_grid
from .base import define

CALC = XlError("#CALC!")


def _grid(book: Book, v: Result) -> Array:
    return as_grid(book, v)


@define("TRANSPOSE", "x")
def _transpose(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    grid = _grid(book, args[0])
    return [list(line) for line in zip(*grid, strict=True)]


@define("FILTER", "x x e?")
def _filter(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The rows (or columns) of an array where ``include`` is TRUE (or a number not 0);
    none: ``if_empty``, else #CALC!."""
    grid = _grid(book, args[0])
    include = _grid(book, args[1])
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
    grid = _grid(book, args[0])
    index = 1 if args[1] is None else int(args[1])  # type: ignore[arg-type]
    order = 1 if args[2] is None else int(args[2])  # type: ignore[arg-type]
    by_col = bool(args[3])
    lines = [list(t) for t in zip(*grid, strict=True)] if by_col else [list(x) for x in grid]
    if order not in (1, -1) or not 1 <= index <= len(lines[0]):
        return VALUE
    # Python's sort keeps equal keys in their order, descending too, as SORT does
    ranked = sorted(lines, key=lambda line: _sort_key(line[index - 1]), reverse=order < 0)
    return [list(t) for t in zip(*ranked, strict=True)] if by_col else ranked


@define("UNIQUE", "x b? b?")
def _unique(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The distinct rows (columns, with ``by_col``) of an array in their first order (texts
    regardless of case); with ``exactly_once`` those that appear once only."""
    grid = _grid(book, args[0])
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
    grid = _grid(book, args[0])
    n = len(grid) if args[1] is None else int(args[1])  # type: ignore[arg-type]
    m = len(grid[0]) if args[2] is None else int(args[2])  # type: ignore[arg-type]
    if n == 0 or m == 0:
        return CALC
    lines = grid[:n] if n > 0 else grid[n:]
    return [line[:m] if m > 0 else line[m:] for line in lines]


@define("DROP", "x n? n?")
def _drop(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The array without its first (last, when negative) ``rows`` and ``columns``."""
    grid = _grid(book, args[0])
    n = 0 if args[1] is None else int(args[1])  # type: ignore[arg-type]
    m = 0 if args[2] is None else int(args[2])  # type: ignore[arg-type]
    lines = grid[n:] if n >= 0 else grid[:n]
    out = [line[m:] if m >= 0 else line[:m] for line in lines]
    return out if out and out[0] else CALC


def _choose_lines(columns: bool) -> Callable[..., Result]:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        grid = _grid(book, args[0])
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
    #N/A."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        grids = [_grid(book, a) for a in args]
        if not vertical:
            grids = [[list(t) for t in zip(*g, strict=True)] for g in grids]
        width = max(len(g[0]) for g in grids)
        out = [[*line, *([NA] * (width - len(line)))] for g in grids for line in g]
        return out if vertical else [list(t) for t in zip(*out, strict=True)]

    return impl


define("VSTACK", "x")(_stack(True))


define("HSTACK", "x")(_stack(False))


def _to_line(column: bool) -> Callable[..., Result]:
    """TOCOL and TOROW: the array's values in one column (row), row by row (column by column
    with ``scan_by_column``), blanks (1), errors (2) or both (3) left out with ``ignore``."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        grid = _grid(book, args[0])
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


@define("SINGLE", "v")
def _single(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """Excel's ``@`` (implicit intersection), written ``_xlfn.SINGLE`` in the file."""
    return args[0]
