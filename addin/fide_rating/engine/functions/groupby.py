"""GROUPBY and PIVOTBY (Excel's lookup and reference category): a summary of a table by a
formula, its rows (and, with PIVOTBY, its columns) grouped by fields and each group's values
aggregated by a function value (an eta-reduced function such as ``SUM``, or a LAMBDA).

Excel's rules, after its GROUPBY and PIVOTBY pages (support.microsoft.com) and its saved
values:

* the groups are the distinct keys of ``row_fields`` (``col_fields``), texts compared without
  regard to case as UNIQUE compares them (the first one met is shown), sorted ascending by
  default in SORT's order (numbers, texts, logicals); a ``sort_order`` of -1 sorts descending,
  one naming a column of ``values`` (GROUPBY: the row fields' columns come first) sorts the
  groups by their aggregates; several row fields group hierarchically, sorted field by field;
* each group's values (a column of them) go to the function; a function taking two values
  (PERCENTOF, ``LAMBDA(x, y, ...)``) gets the values it is measured against second: GROUPBY's
  whole values, PIVOTBY's per ``relative_to`` (0 the column's, 1 the row's, 2 all of them);
  an intersection of PIVOTBY with no values is empty;
* ``total_depth`` 1 (the default, as Excel's saved values show for several row fields too)
  adds a grand total row ``Total`` at the bottom, -1 at the top, 0 none; a total aggregates
  all the values of its row or column, not the aggregates;
* ``field_headers``: 0 no headers, 1 a first row of headers not shown, 3 headers shown;
  left out, the first row is a header row when the first column of ``values`` holds a text
  first and a number second, shown only with several row fields;
* ``filter_array`` (a column as long as the fields) keeps the rows where it is TRUE;
* fields and values of different lengths, an option out of its range: #VALUE!.

What this module cannot yet do as Excel does is reported, never guessed: subtotals
(``total_depth`` 2), generated headers (``field_headers`` 2), several functions at once
(``HSTACK(SUM,AVERAGE)``), blank or error keys, blank values (Excel's array of a group's
values may hold them as blanks or as 0: only SUM and PERCENTOF read both alike), a table
``field_relationship``, fields written empty, PIVOTBY with several fields, several value
columns, headers shown or sorted by its values, and ``relative_to`` 3 and 4. Several row
fields are shown on every row, the upper ones repeated.

May import: :mod:`fide_rating.engine.formula` (values, coercion), :mod:`.base`,
:mod:`.lambdas` and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..formula.coerce import number, rank_key
from ..formula.values import (
    VALUE,
    Area,
    Array,
    Book,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
    check_size,
    size,
)
from .base import define
from .lambdas import Lambda, one

TOTAL = "Total"  # the label of a grand total row or column, as Excel shows it
# an empty place of the result (PIVOTBY's corner, an intersection without values, a total's
# lower fields): Excel saves it without a value and shows it empty, where a blank a formula
# gives shows 0; an empty text shows as Excel shows it
EMPTY = ""
_ERROR_ORDER = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6,
                "#N/A": 7}  # fmt: skip

Key = tuple[Any, ...]
_BLANKS_ALIKE = frozenset({"SUM", "PERCENTOF"})  # a blank value and 0 give them one result


def _table(book: Book, v: Result, what: str, blanks: bool = False) -> Array:
    """An argument's values in its full shape; a range reaching past its sheet's used cells
    has blanks there: refused for fields and values (``blanks`` False), kept for a filter."""
    if isinstance(v, XlError):
        raise _Error(v)
    if v is None:  # written empty: PIVOTBY grouping one way only
        raise Unsupported(f"GROUPBY or PIVOTBY without {what}")
    grid = as_grid(book, v)
    if isinstance(v, Area) and (len(grid) < v.rows or len(grid[0]) < v.cols):
        if not blanks:
            raise Unsupported(f"{what} with blank cells")
        check_size(v.rows, v.cols, "a range of")
        pad = [None] * (v.cols - len(grid[0]))
        grid = [[*line, *pad] for line in grid]
        grid += [[None] * v.cols for _ in range(v.rows - len(grid))]
    return grid


class _Error(Exception):
    """An error value that is the function's result."""

    def __init__(self, error: XlError) -> None:
        super().__init__(error.code)
        self.error = error


def _whole(book: Book, v: Result) -> int | None:
    """An option given as a number: a whole number (truncated), None when left out."""
    if v is None:
        return None
    if isinstance(v, Area | list):
        grid = as_grid(book, v)
        if len(grid) != 1 or len(grid[0]) != 1:
            raise _Error(VALUE)
        v = grid[0][0]  # a blank cell: 0
    x = number(v)
    if isinstance(x, XlError):
        raise _Error(x)
    return int(x)


def _choice(book: Book, v: Result, allowed: tuple[int, ...]) -> int | None:
    k = _whole(book, v)
    if k is not None and k not in allowed:
        raise _Error(VALUE)
    return k


def _function(v: Result) -> Lambda:
    """The aggregating function: one function value; several (a row or column of them) are
    reported, anything else is #VALUE!."""
    if isinstance(v, list) and any(isinstance(x, Lambda) for line in v for x in line):
        if len(v) > 1 or len(v[0]) > 1:
            raise Unsupported("several functions at once in GROUPBY or PIVOTBY")
        v = v[0][0]
    if isinstance(v, Lambda):
        return v
    if isinstance(v, XlError):
        raise _Error(v)
    raise _Error(VALUE)


def _key(v: Value) -> Key:
    """A key's place in the grouping: texts without regard to case, as UNIQUE compares."""
    if v is None:
        raise Unsupported("a blank among the fields of GROUPBY or PIVOTBY")
    if isinstance(v, XlError):
        raise Unsupported("an error among the fields of GROUPBY or PIVOTBY")
    return rank_key(v)


def _value_key(v: Value) -> Key:
    """An aggregate's place when the groups are sorted by their values (SORT's order)."""
    if v is None:
        return (5, 0)
    if isinstance(v, XlError):
        return (4, _ERROR_ORDER.get(v.code, 99))
    return rank_key(v)


def _headers(book: Book, mode: Result, values: Array, levels: int) -> tuple[bool, bool]:
    """Whether the first row holds headers, and whether they are shown."""
    k = _choice(book, mode, (0, 1, 2, 3))
    if k == 2:
        raise Unsupported("headers generated by GROUPBY or PIVOTBY (field_headers 2)")
    if k is not None:
        return k in (1, 3), k == 3
    first = [line[0] for line in values[:2]]
    found = (len(first) == 2 and isinstance(first[0], str) and isinstance(first[1], float | int)
             and not isinstance(first[1], bool))  # fmt: skip
    return found, found and levels > 1


def _kept(book: Book, flags: Result, n: int, start: int) -> list[int]:
    """The data rows (from ``start``) the filter keeps; all without one."""
    if flags is None:
        return list(range(start, n))
    grid = _table(book, flags, "a filter", blanks=True)
    if len(grid) != n or len(grid[0]) != 1:
        raise _Error(VALUE)
    kept = []
    for i in range(start, n):
        f = grid[i][0]
        if isinstance(f, XlError):
            raise _Error(f)
        x = number(f) if not isinstance(f, str) else VALUE
        if isinstance(x, XlError):
            raise _Error(VALUE)
        if x:
            kept.append(i)
    if not kept:
        raise Unsupported("GROUPBY or PIVOTBY with every row filtered out")
    return kept


def _groups(keys: Array, rows: list[int]) -> dict[Key, tuple[list[Value], list[int]]]:
    """The distinct keys of the rows, each with its first spelling and its rows."""
    out: dict[Key, tuple[list[Value], list[int]]] = {}
    for i in rows:
        line = keys[i]
        key = tuple(_key(v) for v in line)
        if key not in out:
            out[key] = (list(line), [])
        out[key][1].append(i)
    return out


def _call(book: Book, sh: str, r: int, c: int, f: Lambda, part: Array, whole: Array) -> Value:
    """The function of one group's values (and, for a function of two, the values it is
    measured against)."""
    args: list[Any] = [part, whole] if f.required >= 2 else [part]
    if not f.accepts(len(args)):
        return VALUE
    return one(book, f(book, sh, r, c, args))


def _column(f: Lambda, values: Array, rows: list[int], j: int) -> Array:
    """Column ``j`` of ``rows``, as the array the function is given. A blank there is
    reported (Excel's array may hold it as a blank or as 0), but for the functions that read
    both alike (SUM, PERCENTOF)."""
    out: Array = [[values[i][j]] for i in rows]
    if f.name not in _BLANKS_ALIKE and any(line[0] is None for line in out):
        raise Unsupported("a blank among the values of GROUPBY or PIVOTBY")
    return out


def _fields(book: Book, fields: Result, values: Result, what: str) -> tuple[Array, Array]:
    """The keys and the values (blanks kept: :func:`_column` judges them), as long as each
    other, else #VALUE!."""
    keys = _table(book, fields, what)
    known = not isinstance(values, XlError) and values is not None
    if known and size(book, values)[0] != len(keys):  # before reading a range's blanks
        raise _Error(VALUE)
    vals = _table(book, values, "values", blanks=True)
    if len(keys) != len(vals):
        raise _Error(VALUE)
    return keys, vals


def _guarded(impl: Callable[..., Result]) -> Callable[..., Result]:
    def run(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        try:
            return impl(book, sh, r, c, args)
        except _Error as e:
            return e.error

    run.__doc__ = impl.__doc__
    return run


@define("GROUPBY", "x x x x? x? x? x? x?", errors=True)
@_guarded
def _groupby(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """GROUPBY(row_fields, values, function, [field_headers], [total_depth], [sort_order],
    [filter_array], [field_relationship])."""
    fields, values, function, headers, depth, order, flags, relation = args
    keys, vals = _fields(book, fields, values, "row fields")
    f = _function(function)
    levels, width = len(keys[0]), len(vals[0])
    has, shown = _headers(book, headers, vals, levels)
    total = _choice(book, depth, (-2, -1, 0, 1, 2))
    total = 1 if total is None else total
    if abs(total) == 2:
        raise Unsupported("subtotals in GROUPBY (total_depth 2)")
    if _choice(book, relation, (0, 1)) == 1 and levels > 1:
        raise Unsupported("GROUPBY with a table field_relationship")
    rows = _kept(book, flags, len(keys), 1 if has else 0)
    groups = _groups(keys, rows)
    whole = [_column(f, vals, rows, j) for j in range(width)]
    out: list[tuple[Key, list[Value]]] = []
    for key, (shown_key, members) in groups.items():
        aggs = [_call(book, sh, r, c, f, _column(f, vals, members, j), whole[j])
                for j in range(width)]  # fmt: skip
        out.append((key, [*shown_key, *aggs]))
    _sort(book, out, order, levels, width)
    lines = [line for _, line in out]
    if total:
        grand = [TOTAL, *([EMPTY] * (levels - 1)),
                 *(_call(book, sh, r, c, f, whole[j], whole[j]) for j in range(width))]  # fmt: skip
        lines = [grand, *lines] if total < 0 else [*lines, grand]
    if shown:
        lines = [[*keys[0], *vals[0]], *lines]
    return lines


def _sort(book: Book, out: list[tuple[Key, list[Value]]], order: Result, levels: int,
          width: int) -> None:  # fmt: skip
    """GROUPBY's rows in ``sort_order``: ascending by the row fields by default; a number
    naming a column, negative for descending; several row fields: one number for each, in
    their order."""
    if order is None:
        out.sort(key=lambda item: item[0])
        return
    grid = as_grid(book, order)
    picks = []
    for line in grid:
        for v in line:
            if isinstance(v, XlError):
                raise _Error(v)
            x = number(v)
            if isinstance(x, XlError):
                raise _Error(x)
            k = int(x)
            if k == 0 or abs(k) > levels + width:
                raise _Error(VALUE)
            picks.append(k)
    if levels == 1 and len(picks) == 1:
        k = picks[0]
        out.sort(key=lambda item: item[0])
        if abs(k) == 1:
            out.sort(key=lambda item: item[0], reverse=k < 0)
        else:
            out.sort(key=lambda item: _value_key(item[1][abs(k) - 1]), reverse=k < 0)
        return
    if [abs(k) for k in picks] != list(range(1, levels + 1)):
        raise Unsupported("this sort_order of GROUPBY with several row fields")
    for level in reversed(range(levels)):  # the last field first: the sorts are stable
        out.sort(key=lambda item: item[0][level], reverse=picks[level] < 0)


def _axis(book: Book, groups: dict[Key, Any], order: Result) -> list[Key]:
    """PIVOTBY's groups of one axis in its sort order: ascending, or descending with -1; a
    number naming a column of values (sorting by the aggregates) is reported, 0 #VALUE!."""
    if isinstance(order, list | Area):
        picks = as_grid(book, order)
        if len(picks) != 1 or len(picks[0]) != 1:
            raise Unsupported("a sort order of PIVOTBY by several numbers")
        order = picks[0][0]
    k = _whole(book, order)
    if k == 0:
        raise _Error(VALUE)
    if k is not None and abs(k) != 1:
        raise Unsupported("PIVOTBY sorted by its values")
    return sorted(groups, reverse=k == -1)


@define("PIVOTBY", "x x x x x? x? x? x? x? x? x?", errors=True)
@_guarded
def _pivotby(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """PIVOTBY(row_fields, col_fields, values, function, [field_headers], [row_total_depth],
    [row_sort_order], [col_total_depth], [col_sort_order], [filter_array], [relative_to])."""
    rfields, cfields, values, function, headers, rdepth, rorder, cdepth, corder, flags, rel = args
    rkeys, vals = _fields(book, rfields, values, "row fields")
    ckeys = _table(book, cfields, "column fields")
    if len(ckeys) != len(vals):
        raise _Error(VALUE)
    f = _function(function)
    if len(rkeys[0]) > 1 or len(ckeys[0]) > 1:
        raise Unsupported("PIVOTBY with several row or column fields")
    if len(vals[0]) > 1:
        raise Unsupported("PIVOTBY with several columns of values")
    has, shown = _headers(book, headers, vals, 1)
    if shown:
        raise Unsupported("PIVOTBY with its headers shown")
    totals = []
    for depth in (rdepth, cdepth):
        t = _choice(book, depth, (-2, -1, 0, 1, 2))
        t = 1 if t is None else t
        if abs(t) == 2:
            raise Unsupported("subtotals in PIVOTBY (total_depth 2)")
        totals.append(t)
    relative = _choice(book, rel, (0, 1, 2, 3, 4))
    relative = 0 if relative is None else relative
    if relative > 2 and f.required >= 2:
        raise Unsupported("PIVOTBY relative to a parent total (relative_to 3 or 4)")
    rows = _kept(book, flags, len(vals), 1 if has else 0)
    by_row, by_col = _groups(rkeys, rows), _groups(ckeys, rows)
    row_order, col_order = _axis(book, by_row, rorder), _axis(book, by_col, corder)

    def cell(members: list[int], row: list[int], col: list[int]) -> Value:
        if not members:
            return EMPTY
        against = (col, row, rows)[relative] if relative <= 2 else rows
        return _call(book, sh, r, c, f, _column(f, vals, members, 0), _column(f, vals, against, 0))

    col_lines = [(by_col[k][0][0], by_col[k][1]) for k in col_order]
    if totals[1]:
        grand_col = (TOTAL, rows)
        col_lines = [grand_col, *col_lines] if totals[1] < 0 else [*col_lines, grand_col]
    lines: Array = [[EMPTY, *(label for label, _ in col_lines)]]
    sets = [set(col) for _, col in col_lines]
    body = []
    for key in row_order:
        label, members = by_row[key]
        cells = (
            cell([i for i in members if i in s], members, col)
            for s, (_, col) in zip(sets, col_lines, strict=True)
        )
        body.append([label[0], *cells])
    if totals[0]:
        grand = [TOTAL, *(cell(col, rows, col) for _, col in col_lines)]
        body = [grand, *body] if totals[0] < 0 else [*body, grand]
    return [*lines, *body]
