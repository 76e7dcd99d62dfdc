"""Lookup functions (Excel's category, its searching half): CHOOSE, INDEX, MATCH, VLOOKUP,
HLOOKUP, LOOKUP, XLOOKUP, XMATCH. The references (OFFSET, INDIRECT, ROW ...) are
:mod:`.reference`'s, the dynamic arrays (FILTER, SORT ...) :mod:`.arrays`'.

Every lookup searches with :func:`search` (one implementation): an exact match scans from the
first (or last) value, texts regardless of case, ``*``, ``?`` and ``~`` as wildcards where
the function allows them; an approximate match (MATCH's 1 and -1, VLOOKUP's and HLOOKUP's
TRUE, LOOKUP) is Excel's binary search, which on unsorted data gives another answer than a
scan, and workbooks rely on it: a value of another type than the one looked up (a blank, an
error, a text among numbers) is stepped over to the next one of the right type. XLOOKUP and
XMATCH search otherwise, as Excel's saved values show: their binary search and their next
smaller or larger value order all values, numbers before texts before logicals. A whole
column is read up to the sheet's last used row; the blanks beyond are found by the search
without being read.

May import: :mod:`fide_rating.engine.formula` (values, coercions), :mod:`.base`, :mod:`.text`
(its regular expressions) and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..formula.coerce import rank_key, text_of
from ..formula.values import (
    NA,
    REF,
    VALUE,
    Area,
    Book,
    Fn,
    Result,
    Value,
    XlError,
    as_grid,
    size,
)
from .base import define, wildcards
from .regex import _regex as regex


class Line:
    """A row or column searched: its values up to the sheet's used end, and its full length
    (the cells beyond are blank)."""

    def __init__(self, values: list[Value], length: int, vertical: bool) -> None:
        self.values = values
        self.length = length
        self.vertical = vertical

    def __getitem__(self, k: int) -> Value:
        return self.values[k] if k < len(self.values) else None


def line_of(book: Book, v: Result) -> Line | XlError:
    """A lookup vector: one row or one column of a range or array; #VALUE! for a block."""
    if isinstance(v, Area):
        if v.rows > 1 and v.cols > 1:
            return VALUE
        grid = as_grid(book, v)
        values = [x for line in grid for x in line]
        return Line(values, max(v.rows, v.cols), v.rows > 1)
    grid = as_grid(book, v)
    if len(grid) > 1 and len(grid[0]) > 1:
        return VALUE
    values = [x for line in grid for x in line]
    return Line(values, len(values), len(grid) > 1)


def _kind(v: Value) -> int:
    """The type a lookup compares within: 1 numbers, 2 texts, 3 logicals; 0 anything else."""
    if v is None or isinstance(v, XlError):
        return 0
    kind: int = rank_key(v)[0]
    return kind


def _exact_test(goal: Value, wild: bool) -> Callable[[Value], bool]:
    if wild and isinstance(goal, str) and any(ch in goal for ch in "*?~"):
        pattern = wildcards(goal)
        return lambda v: isinstance(v, str) and pattern.fullmatch(v)
    kind = _kind(goal)
    key = rank_key(goal)
    return lambda v: _kind(v) == kind and rank_key(v) == key


def binary_search(goal: Value, line: Line, descending: bool = False) -> int | None:
    """Excel's binary search for the last value not above ``goal`` (not below it, with
    ``descending``): the bounds start outside the line; a middle value of another type is
    passed over to the next of the goal's type (none before the upper bound: the upper bound
    comes down to the middle); an equal value is followed to the last of its run."""
    if goal is None:
        goal = 0.0  # a blank looked up approximately is 0
    kind, key = _kind(goal), rank_key(goal)
    used = len(line.values)

    def order(k: int) -> int:
        """-1: the goal comes before value k, 0: equal, 1: after; 2: another type."""
        v = line[k]
        if _kind(v) != kind:
            return 2
        other = rank_key(v)
        if other == key:
            return 0
        before = key < other
        if descending:
            before = not before
        return -1 if before else 1

    low, high = -1, line.length
    while high - low >= 2:
        mid = low + (high - low) // 2
        if mid >= used:  # blank to the end: nothing of the goal's type up there
            high = mid
            continue
        found = order(mid)
        if found == 2:
            k = mid + 1
            while k < high and k < used and order(k) == 2:
                k += 1
            if k >= high or k >= used:
                high = mid
                continue
            found = order(k)
            if found == -1 and k == high - 1:
                high = mid
                continue
            if found != 0:
                if found == -1:
                    high = k
                else:
                    low = k
                continue
            mid = k
        if found == 0:
            while mid + 1 < high and mid + 1 < used and order(mid + 1) == 0:
                mid += 1
            return mid
        if found == -1:
            high = mid
        else:
            low = mid
    return low if low >= 0 else None


def search(goal: Value, line: Line, mode: int, *, wild: bool = True, last: bool = False
           ) -> int | None:  # fmt: skip
    """Where ``goal`` is in ``line`` (0-based), or None: ``mode`` 0 an exact match (the first,
    or with ``last`` the last), 1 Excel's binary search for the last value not above the goal
    (ascending data), -1 for the last not below it (descending data)."""
    if mode == 0:
        test = _exact_test(goal, wild)
        order = range(len(line.values) - 1, -1, -1) if last else range(len(line.values))
        return next((k for k in order if line.values[k] is not None and test(line.values[k])),
                    None)  # fmt: skip
    return binary_search(goal, line, descending=mode < 0)


def _nearest(goal: Value, line: Line, match: int, last: bool) -> int | None:
    """XMATCH's and XLOOKUP's match modes -1 and 1 by a scan: an exact match, else the next
    smaller (-1) or larger (1) value in Excel's order of all values (numbers, texts,
    logicals: FALSE finds the last text below it; Excel's saved values); blanks and errors
    are passed over, and of equal values the first met wins."""
    key = rank_key(goal)
    best: int | None = None
    best_key: tuple[int, object] = key
    order = range(len(line.values) - 1, -1, -1) if last else range(len(line.values))
    for k in order:
        v = line.values[k]
        if v is None or isinstance(v, XlError):
            continue
        found = rank_key(v)
        if found == key:
            return k
        if match < 0:
            if found < key and (best is None or found > best_key):
                best, best_key = k, found
        elif found > key and (best is None or found < best_key):
            best, best_key = k, found
    return best


@define("CHOOSE", "n f")
def _choose(book: Book, sh: str, r: int, c: int, args: list[float | Fn]) -> Result:
    k = int(args[0])  # type: ignore[arg-type]
    return args[k](book, sh, r, c) if 1 <= k < len(args) else VALUE  # type: ignore[operator]


@define("INDEX", "x n n n?")  # a column written empty is 0: the whole row
def _index(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The cell (or the row or column, with 0) of a range or array at ``row`` and ``column``
    (``area_num`` other than 1 is #REF!: a union of ranges is not taken here); a range of
    one row or column takes its one index; a block of several rows and columns given one
    index is #REF!, as Excel saves it."""
    area, row, col, which = args[0], args[1], args[2], args[3]
    if isinstance(area, XlError):
        return area
    if which is not None and int(which) != 1:  # type: ignore[arg-type]
        return REF  # an area the reference does not have (one range, one array: area 1)
    assert isinstance(row, float)
    i, j = int(row), (None if col is None else int(col))  # type: ignore[arg-type]
    if i < 0 or (j is not None and j < 0):
        return VALUE  # a negative row or column (Excel's saved values)
    rows, cols = size(book, area)
    if j is None:
        if rows == 1:
            i, j = 1, i
        elif cols == 1:
            j = 1
        elif isinstance(area, Area):
            return REF
        else:
            j = 0
    if i > rows or j > cols:
        return REF
    if isinstance(area, Area):
        top, bottom = (area.r1, area.r2) if i == 0 else (area.r1 + i - 1, area.r1 + i - 1)
        left, right = (area.c1, area.c2) if j == 0 else (area.c1 + j - 1, area.c1 + j - 1)
        return Area(area.sheet, top, left, bottom, right)
    grid = as_grid(book, area)
    if i == 0 and j == 0:
        return grid
    if i == 0:
        return [[line[j - 1]] for line in grid]
    if j == 0:
        return [grid[i - 1]]
    return grid[i - 1][j - 1]


@define("MATCH", "v r n")
def _match(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The position of a value in a row or column: ``match_type`` 1 (when left out) the last
    value not above it in ascending data, 0 the first equal one (wildcards allowed), -1 the
    last value not below it in descending data."""
    goal, within, kind = args
    line = line_of(book, within)
    if isinstance(line, XlError):
        return NA if line is VALUE else line
    mode = 1 if kind is None else (0 if kind == 0 else (1 if kind > 0 else -1))  # type: ignore[operator]
    k = search(goal, line, mode)  # type: ignore[arg-type]
    return NA if k is None else float(k + 1)


def _table_lookup(vertical: bool) -> Callable[..., Result]:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        goal, table, index, approx = args
        assert isinstance(index, float)
        j = int(index)
        if isinstance(table, Area):
            t = table
            keys: Result = Area(t.sheet, t.r1, t.c1, t.r2 if vertical else t.r1,
                                t.c1 if vertical else t.c2)  # fmt: skip
            width = table.cols if vertical else table.rows
        elif isinstance(table, str):
            return VALUE  # a text for a table (a number is a table of one: Excel's values)
        else:
            grid = as_grid(book, table)
            keys = [[line[0]] for line in grid] if vertical else [grid[0]]
            width = len(grid[0]) if vertical else len(grid)
        if j < 1:
            return VALUE
        if j > width:
            return REF
        line = line_of(book, keys)
        if isinstance(line, XlError):
            return line
        k = search(goal, line, 1 if approx is None or approx else 0)  # type: ignore[arg-type]
        if k is None:
            return NA
        if isinstance(table, Area):
            at = (table.r1 + k, table.c1 + j - 1) if vertical else (table.r1 + j - 1, table.c1 + k)
            return book.value(table.sheet, *at)
        grid = as_grid(book, table)
        return grid[k][j - 1] if vertical else grid[j - 1][k]

    return impl


define("VLOOKUP", "v r n b")(_table_lookup(True))


define("HLOOKUP", "v r n b")(_table_lookup(False))


@define("LOOKUP", "v x x")
def _lookup(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The vector form (a value in one row or column, the result from another at the same
    place) and the array form (the first row or column of a wider or taller array, the result
    from its last), by Excel's binary search: LOOKUP(2, 1/(A1:A9="x"), B1:B9) gives the last B
    whose A is "x", Excel's idiom."""
    goal, where, results = args
    if isinstance(where, XlError):
        return where
    rows, cols = size(book, where)
    wide = cols > rows  # searched along its first row, else its first column
    if results is None:
        if isinstance(where, Area):
            w = where
            keys: Result = Area(w.sheet, w.r1, w.c1, w.r1 if wide else w.r2,
                                w.c2 if wide else w.c1)  # fmt: skip
            answers: Result = Area(w.sheet, w.r2 if wide else w.r1, w.c1 if wide else w.c2,
                                   w.r2, w.c2)  # fmt: skip
        else:
            grid = as_grid(book, where)
            keys = [grid[0]] if wide else [[line[0]] for line in grid]
            answers = [grid[-1]] if wide else [[line[-1]] for line in grid]
    elif isinstance(where, Area) and rows > 1 and cols > 1:  # a block: its first row or column
        w = where
        keys = Area(w.sheet, w.r1, w.c1, w.r1 if wide else w.r2, w.c2 if wide else w.c1)
        answers = results
    elif rows > 1 and cols > 1:
        grid = as_grid(book, where)
        keys, answers = ([grid[0]] if wide else [[line[0]] for line in grid]), results
    else:
        keys, answers = where, results
    line = line_of(book, keys)
    result_line = line_of(book, answers)
    if isinstance(line, XlError):
        return line
    if isinstance(result_line, XlError):
        return NA
    k = search(goal, line, 1)  # type: ignore[arg-type]
    if k is None or k >= result_line.length:
        return NA
    return result_line[k]


def _x_modes(args: list[Value], at: int) -> tuple[int, int] | XlError:
    """The match and search modes; a wildcard or regular expression match with a binary
    search is #VALUE! (Excel's saved values), as is a mode Excel does not have."""
    match = 0 if args[at] is None else int(args[at])  # type: ignore[arg-type]
    way = 1 if args[at + 1] is None else int(args[at + 1])  # type: ignore[arg-type]
    if match not in (0, -1, 1, 2, 3) or way not in (1, -1, 2, -2):
        return VALUE
    if match >= 2 and abs(way) == 2:
        return VALUE
    return match, way


def _ordered(v: Value, goal: Value) -> tuple[int, object]:
    """A value's place in Excel's order of all values, a blank as 0, "" or FALSE."""
    if v is None:
        v = "" if isinstance(goal, str) else False if isinstance(goal, bool) else 0.0
    return rank_key(v)


def _x_binary(goal: Value, line: Line, match: int, descending: bool) -> int | None:
    """XMATCH's and XLOOKUP's binary search (search modes 2 and -2), in Excel's order of all
    values (numbers, texts, logicals): the first value not below the goal in ascending data
    (the first of equal ones), the first value below it in descending data (after the last of
    equal ones); the exact match, else the neighbour ``match`` asks for (-1 smaller, 1
    larger), found there (Excel's saved values). The blanks at the line's end are not
    searched (a whole column's)."""
    values = line.values
    n = len(values)
    while n and values[n - 1] is None:
        n -= 1
    key = rank_key(goal)
    low, high = 0, n
    while low < high:
        mid = (low + high) // 2
        found = _ordered(values[mid], goal)
        if (found >= key) if descending else (found < key):
            low = mid + 1
        else:
            high = mid
    at = low
    if descending:
        if at > 0 and _ordered(values[at - 1], goal) == key:
            return at - 1
        if match == 1:
            return at - 1 if at > 0 else None
        return at if match == -1 and at < n else None
    if at < n and _ordered(values[at], goal) == key:
        return at
    if match == 1:
        return at if at < n else None
    return at - 1 if match == -1 and at > 0 else None


def _x_search(goal: Value, line: Line, match: int, way: int) -> int | XlError | None:
    """XMATCH's and XLOOKUP's search: ``match`` 0 exact, -1 exact or the next smaller, 1 exact
    or the next larger, 2 wildcards, 3 a regular expression found in a text; ``way`` 1 from
    the first, -1 from the last, 2 and -2 a binary search on data sorted up or down. An empty
    lookup value finds the first empty cell (Excel's cached values)."""
    if goal is None:
        k = next((i for i, v in enumerate(line.values) if v is None), None)
        if k is None and line.length > len(line.values):
            k = len(line.values)  # the first blank past the sheet's used rows
        return k
    if abs(way) == 2:
        return _x_binary(goal, line, match, way < 0)
    if match == 3:
        return _regex_search(goal, line, way < 0)
    if match in (0, 2):
        return search(goal, line, 0, wild=match == 2, last=way < 0)
    return _nearest(goal, line, match, way < 0)


def _regex_search(goal: Value, line: Line, last: bool) -> int | XlError | None:
    """Match mode 3: the first (last) text in which the lookup value, as text, finds a match
    as a regular expression (case counts, as in REGEXTEST); a pattern that is not one is
    #VALUE!."""
    pattern = text_of(goal)
    if isinstance(pattern, XlError):
        return pattern
    try:
        re.compile(pattern)
    except re.error:
        return VALUE
    found = regex(pattern, False)  # one that may take exponential time is reported
    order = range(len(line.values) - 1, -1, -1) if last else range(len(line.values))
    return next((k for k in order if isinstance(line.values[k], str)
                 and found.search(line.values[k]) is not None), None)  # type: ignore[arg-type]  # fmt: skip


@define("XMATCH", "v x n? n?")
def _xmatch(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    line = line_of(book, args[1])
    modes = _x_modes(args, 2)  # type: ignore[arg-type]
    if isinstance(line, XlError):
        return line
    if isinstance(modes, XlError):
        return modes
    k = _x_search(args[0], line, *modes)  # type: ignore[arg-type]
    if isinstance(k, XlError):
        return k
    return NA if k is None else float(k + 1)


@define("XLOOKUP", "v x x e? n? n?")
def _xlookup(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The row (of a column searched) or column (of a row searched) of ``return_array`` where
    ``lookup_value`` is found in ``lookup_array``; ``if_not_found`` (else #N/A) when it is not."""
    goal, where, results, missing = args[0], args[1], args[2], args[3]
    line = line_of(book, where)
    modes = _x_modes(args, 4)  # type: ignore[arg-type]
    if isinstance(line, XlError):
        return line
    if isinstance(modes, XlError):
        return modes
    rows, cols = size(book, results)
    if (rows if line.vertical else cols) != line.length and line.length > 1:
        return VALUE  # the two arrays do not line up
    k = _x_search(goal, line, *modes)  # type: ignore[arg-type]
    if isinstance(k, XlError):
        return k
    if k is None:
        return NA if missing is None else missing
    if isinstance(results, Area):
        if line.vertical or (line.length == 1 and rows > 1 and cols == 1):
            return Area(results.sheet, results.r1 + k, results.c1, results.r1 + k, results.c2)
        return Area(results.sheet, results.r1, results.c1 + k, results.r2, results.c1 + k)
    grid = as_grid(book, results)
    return [grid[k]] if line.vertical else [[row[k]] for row in grid]
