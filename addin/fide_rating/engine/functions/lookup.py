"""Lookup and reference functions (Excel's category): CHOOSE, INDEX, MATCH, VLOOKUP, HLOOKUP,
LOOKUP, XLOOKUP, XMATCH, OFFSET, INDIRECT, ROW(S), COLUMN(S), ADDRESS, TRANSPOSE, and the
dynamic arrays FILTER, SORT, UNIQUE, TAKE, DROP, CHOOSEROWS, CHOOSECOLS, VSTACK, HSTACK,
TOCOL, TOROW.

Every lookup searches with :func:`search` (one implementation): an exact match scans from the
first (or last) value, texts regardless of case, ``*``, ``?`` and ``~`` as wildcards where
the function allows them; an approximate match (MATCH's 1 and -1, VLOOKUP's and HLOOKUP's
TRUE, LOOKUP, XLOOKUP's binary search modes) is Excel's binary search, which on unsorted data
gives another answer than a scan, and workbooks rely on it: a value of another type than the
one looked up (a blank, an error, a text among numbers) is stepped over to the next one of the
right type. A whole column is read up to the sheet's last used row; the blanks beyond are
found by the search without being read.

May import: :mod:`fide_rating.engine.formula` (values, coercions, the parser for INDIRECT),
:mod:`.base` and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.coerce import compare, number, rank_key
from ..formula.parser import col_letters, parse
from ..formula.values import (
    MAX_COLS,
    MAX_ROWS,
    NA,
    REF,
    VALUE,
    Area,
    Array,
    Book,
    Fn,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
)
from .base import define, wildcards

CALC = XlError("#CALC!")

# --- the search ------------------------------------------------------------------------------


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
    return rank_key(v)[0]


def _exact_test(goal: Value, wild: bool) -> Callable[[Value], bool]:
    if wild and isinstance(goal, str) and any(ch in goal for ch in "*?~"):
        pattern = wildcards(goal)
        return lambda v: isinstance(v, str) and pattern.fullmatch(v) is not None
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
    smaller (-1) or larger (1) value of the goal's type."""
    kind = _kind(goal)
    best: int | None = None
    order = range(len(line.values) - 1, -1, -1) if last else range(len(line.values))
    for k in order:
        v = line.values[k]
        if _kind(v) != kind:
            continue
        if compare("=", v, goal) is True:
            return k
        nearer = compare("<" if match < 0 else ">", v, goal) is True
        if nearer and (best is None or compare(">" if match < 0 else "<", v,
                                               line.values[best]) is True):  # fmt: skip
            best = k
    return best


# --- CHOOSE, INDEX, MATCH, the LOOKUPs ------------------------------------------------------


@define("CHOOSE", "n f")
def _choose(book: Book, sh: str, r: int, c: int, args: list[float | Fn]) -> Result:
    k = int(args[0])  # type: ignore[arg-type]
    return args[k](book, sh, r, c) if 1 <= k < len(args) else VALUE  # type: ignore[operator]


@define("INDEX", "x n n? n?")
def _index(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The cell (or the row or column, with 0) of a range or array at ``row`` and ``column``;
    a range of one row or column takes its one index; a block of several rows and columns
    given one index is #REF!, as Excel saves it."""
    area, row, col = args[0], args[1], args[2]
    if isinstance(area, XlError):
        return area
    assert isinstance(row, float)
    i, j = int(row), (None if col is None else int(col))  # type: ignore[arg-type]
    if i < 0 or (j is not None and j < 0):
        return VALUE  # a negative row or column (Excel's saved values)
    rows, cols = _size(book, area)
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
    rows, cols = _size(book, where)
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
    match = 0 if args[at] is None else int(args[at])  # type: ignore[arg-type]
    way = 1 if args[at + 1] is None else int(args[at + 1])  # type: ignore[arg-type]
    if match not in (0, -1, 1, 2) or way not in (1, -1, 2, -2):
        return VALUE
    return match, way


def _x_search(goal: Value, line: Line, match: int, way: int) -> int | None:
    """XMATCH's and XLOOKUP's search: ``match`` 0 exact, -1 exact or the next smaller, 1 exact
    or the next larger, 2 wildcards; ``way`` 1 from the first, -1 from the last, 2 and -2
    Excel's binary search on data sorted up or down. An empty lookup value finds the first
    empty cell (Excel's cached values)."""
    if goal is None:
        k = next((i for i, v in enumerate(line.values) if v is None), None)
        if k is None and line.length > len(line.values):
            k = len(line.values)  # the first blank past the sheet's used rows
        return k
    if abs(way) == 2:
        # the last value on the goal's side of the order: not above it sorted up, not below it
        # sorted down; the neighbour after it is the nearest on the other side
        k = binary_search(goal, line, descending=way < 0)
        equal = k is not None and compare("=", line[k], goal) is True
        if match in (0, 2) or equal:
            return k if equal else None
        toward = -1 if way > 0 else 1  # the side k stands on
        if match == toward:
            return k
        after = 0 if k is None else k + 1
        if after < len(line.values) and _kind(line[after]) == _kind(goal):
            return after
        return None
    if match in (0, 2):
        return search(goal, line, 0, wild=match == 2, last=way < 0)
    return _nearest(goal, line, match, way < 0)


@define("XMATCH", "v x n? n?")
def _xmatch(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    line = line_of(book, args[1])
    modes = _x_modes(args, 2)  # type: ignore[arg-type]
    if isinstance(line, XlError):
        return line
    if isinstance(modes, XlError):
        return modes
    k = _x_search(args[0], line, *modes)  # type: ignore[arg-type]
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
    rows, cols = _size(book, results)
    if (rows if line.vertical else cols) != line.length and line.length > 1:
        return VALUE  # the two arrays do not line up
    k = _x_search(goal, line, *modes)  # type: ignore[arg-type]
    if k is None:
        return NA if missing is None else missing
    if isinstance(results, Area):
        if line.vertical or (line.length == 1 and rows > 1 and cols == 1):
            return Area(results.sheet, results.r1 + k, results.c1, results.r1 + k, results.c2)
        return Area(results.sheet, results.r1, results.c1 + k, results.r2, results.c1 + k)
    grid = as_grid(book, results)
    return [grid[k]] if line.vertical else [[row[k]] for row in grid]


# --- references ------------------------------------------------------------------------------


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


def _size(book: Book, v: Result) -> tuple[int, int]:
    """The rows and columns of a range (without reading its cells) or of an array."""
    if isinstance(v, Area):
        return v.rows, v.cols
    grid = as_grid(book, v)
    return len(grid), len(grid[0])


@define("ROWS", "x")
def _rows(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return a if isinstance(a, XlError) else float(_size(book, a)[0])


@define("COLUMNS", "x")
def _columns(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return a if isinstance(a, XlError) else float(_size(book, a)[1])


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


# --- dynamic arrays ------------------------------------------------------------------------


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
