"""Lookup and reference functions (Excel's category): CHOOSE, INDEX, MATCH, VLOOKUP, LOOKUP,
XLOOKUP, XMATCH, OFFSET, INDIRECT, ROW.

May import: :mod:`fide_rating.engine.formula.values` (and its parser, for INDIRECT), :mod:`.base`
and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.parser import parse
from ..formula.values import (
    MAX_COLS,
    MAX_ROWS,
    NA,
    REF,
    VALUE,
    Area,
    Book,
    Fn,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
    compare,
    number,
    rank_key,
    scalar,
    text_of,
    truth,
)
from .base import Impl, number_arg, one_value, optional_number, register, wildcards


@register("CHOOSE", lazy=True)
def _choose(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    i = number(scalar(book, args[0](book, sh, r, c), r, c))
    if isinstance(i, XlError):
        return i
    k = int(i)
    return args[k](book, sh, r, c) if 1 <= k < len(args) else VALUE


@register("INDEX")
def _index(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    area = args[0]
    row = optional_number(book, args, 1, r, c, 0.0)
    col = optional_number(book, args, 2, r, c, 0.0)
    if isinstance(row, XlError):
        return row
    if isinstance(col, XlError):
        return col
    i, j = int(row), int(col)
    if i < 0 or j < 0:
        return VALUE  # a negative row or column (Excel's saved values)
    if isinstance(area, Area):
        if area.rows == 1 and len(args) == 2:
            i, j = 1, i
        elif area.cols == 1 and j == 0:
            j = 1
        if i > area.rows or j > area.cols:
            return REF
        if i == 0 or j == 0:  # a whole row or column of the area
            top, bottom = (area.r1, area.r2) if i == 0 else (area.r1 + i - 1, area.r1 + i - 1)
            left, right = (area.c1, area.c2) if j == 0 else (area.c1 + j - 1, area.c1 + j - 1)
            return Area(area.sheet, top, left, bottom, right)
        return Area(area.sheet, area.r1 + i - 1, area.c1 + j - 1, area.r1 + i - 1, area.c1 + j - 1)
    grid = as_grid(book, area)
    if len(grid) == 1 and len(args) == 2:
        i, j = 1, i
    elif len(grid[0]) == 1 and j == 0:
        j = 1
    if i > len(grid) or j > len(grid[0]):
        return REF
    if i == 0 and j == 0:
        return grid
    if i == 0:  # a whole column or row of the array
        return [[line[j - 1]] for line in grid]
    if j == 0:
        return [grid[i - 1]]
    return grid[i - 1][j - 1]


def _lookup_line(book: Book, v: Result) -> list[Value]:
    return [x for line in as_grid(book, v) for x in line]


def _match_pos(goal: Value, line: list[Value], mode: float) -> int | None:
    if mode == 0:  # exact: a text matches texts only (wildcards allowed), a number numbers
        test: Callable[[Value], bool]
        if isinstance(goal, str) and any(ch in goal for ch in "*?"):
            pattern = wildcards(goal)
            test = lambda v: isinstance(v, str) and pattern.fullmatch(v) is not None  # noqa: E731
        else:
            test = lambda v: compare("=", v, goal) is True  # noqa: E731
        for k, v in enumerate(line):
            if v is not None and test(v):
                return k
        return None
    if goal is None:
        goal = 0.0  # an empty cell looked up approximately is 0 (Excel's cached values)
    best = None
    for k, v in enumerate(line):
        if v is None or isinstance(v, XlError) or rank_key(v)[0] != rank_key(goal)[0]:
            continue
        ok = compare("<=", v, goal) if mode > 0 else compare(">=", v, goal)
        if ok is True:
            best = k
        else:
            break
    return best


@register("MATCH")
def _match(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    goal = one_value(book, args[0], r, c)
    if isinstance(goal, XlError):
        return goal
    mode = optional_number(book, args, 2, r, c, 1.0)
    if isinstance(mode, XlError):
        return mode
    k = _match_pos(goal, _lookup_line(book, args[1]), mode)
    return NA if k is None else float(k + 1)


def _lookup(vertical: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        goal = one_value(book, args[0], r, c)
        if isinstance(goal, XlError):
            return goal
        grid = as_grid(book, args[1])
        if not vertical:
            grid = [list(t) for t in zip(*grid, strict=True)]
        idx = number_arg(book, args[2], r, c)
        if isinstance(idx, XlError):
            return idx
        approx = True
        if len(args) > 3:  # written but empty (VLOOKUP(x, A:B, 2, )): FALSE, an exact match
            t = truth(one_value(book, args[3], r, c))
            if isinstance(t, XlError):
                return t
            approx = t
        k = _match_pos(goal, [line[0] for line in grid], 1.0 if approx else 0.0)
        if k is None:
            return NA
        j = int(idx)
        if not 1 <= j <= len(grid[k]):
            return REF
        return grid[k][j - 1]

    return impl


register("VLOOKUP")(_lookup(True))
register("HLOOKUP")(_lookup(False))


@register("LOOKUP", arrays=True)
def _lookup_vector(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The vector form (a value in one row or column, the result from another at the same
    place) and the array form (the first row or column of a wider or taller array, the result
    from its last). Approximate, errors passed over: LOOKUP(2, 1/(A1:A9="x"), B1:B9) gives the
    last B whose A is "x", Excel's idiom."""
    goal = one_value(book, args[0], r, c)
    if isinstance(goal, XlError):
        return goal
    grid = as_grid(book, args[1])
    if not grid or not grid[0]:
        return NA
    wide = len(grid[0]) > len(grid)  # searched along its first row, else its first column
    keys = grid[0] if wide else [line[0] for line in grid]
    if len(args) > 2:
        given = as_grid(book, args[2])
        if len(given) > 1 and len(given[0]) > 1:
            return NA  # a result "vector" of several rows and columns
        results = [v for line in given for v in line]
    else:
        results = grid[-1] if wide else [line[-1] for line in grid]
    k = _match_pos(goal, keys, 1.0)
    return NA if k is None or k >= len(results) else results[k]


@register("OFFSET")
def _offset(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The range ``rows`` down and ``cols`` across from ``reference``, of ``height`` by
    ``width`` (the reference's own size when left out; a negative size extends up or left)."""
    base = args[0]
    if isinstance(base, XlError):
        return base
    if not isinstance(base, Area):
        return VALUE
    found = []
    for i, default in ((1, 0), (2, 0), (3, base.rows), (4, base.cols)):
        given = i < len(args) and (i < 3 or args[i] is not None)
        x = number_arg(book, args[i], r, c) if given else float(default)
        if isinstance(x, XlError):
            return x
        found.append(int(x))
    down, across, height, width = found
    if height == 0 or width == 0:
        return REF
    top, left = base.r1 + down, base.c1 + across
    r1, r2 = sorted((top, top + height - (1 if height > 0 else -1)))
    c1, c2 = sorted((left, left + width - (1 if width > 0 else -1)))
    if r1 < 1 or c1 < 1 or r2 > MAX_ROWS or c2 > MAX_COLS:
        return REF
    return Area(base.sheet, r1, c1, r2, c2)


@register("INDIRECT")
def _indirect(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The range a text names, in A1 style (``"B2"``, ``"Sheet 2!A1:C3"``); a text that is
    not a reference is #REF!. R1C1 style and defined names are not read: the cell is reported."""
    text = text_of(one_value(book, args[0], r, c))
    if isinstance(text, XlError):
        return text
    if len(args) > 1 and truth(one_value(book, args[1], r, c)) is False:
        raise Unsupported("INDIRECT with an R1C1 reference")
    try:
        node = parse(text.strip(), 0, 0)  # from A0: offsets are places
    except Unsupported:
        return REF
    if node[0] == "name":
        raise Unsupported(f"INDIRECT of the name {text!r}")
    if node[0] == "cell":
        _, sheet, row, _, col, _ = node
        return Area(sheet or sh, row, col, row, col)
    if node[0] == "area":
        (ra, _, ca, _), (rb, _, cb, _) = node[2], node[3]
        return Area(node[1] or sh, min(ra, rb), min(ca, cb), max(ra, rb), max(ca, cb))
    return REF


@register("ROWS")
def _rows(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return float(a.rows) if isinstance(a, Area) else float(len(as_grid(book, a)))


@register("COLUMNS")
def _columns(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return float(a.cols) if isinstance(a, Area) else float(len(as_grid(book, a)[0]))


@register("ROW")
def _row(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The reference's row (its rows, a column of them, for a taller range); the formula's
    own row without one."""
    if not args or args[0] is None:
        return float(r)
    a = args[0]
    if not isinstance(a, Area):
        return VALUE
    return float(a.r1) if a.rows == 1 else [[float(x)] for x in range(a.r1, a.r2 + 1)]


@register("COLUMN")
def _column(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The reference's column (its columns, a row of them, for a wider range)."""
    if not args or args[0] is None:
        return float(c)
    a = args[0]
    if not isinstance(a, Area):
        return VALUE
    return float(a.c1) if a.cols == 1 else [[float(x) for x in range(a.c1, a.c2 + 1)]]


def _x_position(goal: Value, line: list[Value], match: int, search: int) -> int | None:
    """XMATCH's and XLOOKUP's search: ``match`` 0 exact, -1 exact or the next smaller, 1 exact
    or the next larger, 2 wildcards; ``search`` 1 (or 2, binary on sorted data: the same
    answer) from the first, -1 (or -2) from the last. Texts match without regard to case;
    numbers, texts and logicals are kept apart."""
    order = range(len(line)) if search > 0 else range(len(line) - 1, -1, -1)
    if match in (0, 2):
        test: Callable[[Value], bool]
        if match == 2 and isinstance(goal, str):
            pattern = wildcards(goal)
            test = lambda v: isinstance(v, str) and pattern.fullmatch(v) is not None  # noqa: E731
        else:
            test = lambda v: compare("=", v, goal) is True  # noqa: E731
        return next((k for k in order if line[k] is not None and test(line[k])), None)
    kind = rank_key(goal)[0]
    best: int | None = None
    for k in order:
        v = line[k]
        if v is None or isinstance(v, XlError) or rank_key(v)[0] != kind:
            continue
        if compare("=", v, goal) is True:
            return k
        nearer = compare("<" if match < 0 else ">", v, goal) is True
        if nearer and (best is None or compare(">" if match < 0 else "<", v, line[best]) is True):
            best = k
    return best


def _x_modes(book: Book, args: list[Result], at: int, r: int, c: int) -> tuple[int, int] | XlError:
    found = []
    for i, default, allowed in ((at, 0.0, (0, -1, 1, 2)), (at + 1, 1.0, (1, -1, 2, -2))):
        given = i < len(args) and args[i] is not None
        x = number_arg(book, args[i], r, c) if given else default
        if isinstance(x, XlError):
            return x
        if int(x) not in allowed:
            return VALUE
        found.append(int(x))
    return found[0], found[1]


def _one_line(book: Book, v: Result) -> tuple[list[Value], bool] | XlError:
    """A lookup array's values and whether it is a column; #VALUE! for a block."""
    grid = as_grid(book, v)
    if len(grid) > 1 and len(grid[0]) > 1:
        return VALUE
    return [x for line in grid for x in line], len(grid) > 1


def _x_search(book: Book, args: list[Result], modes_at: int, r: int, c: int
              ) -> tuple[int | None, int, bool] | XlError:  # fmt: skip
    """XMATCH's and XLOOKUP's search of ``args[0]`` in ``args[1]`` with the match and search
    modes from ``args[modes_at]``: the position found (or None), the lookup array's length and
    whether it is a column."""
    goal = one_value(book, args[0], r, c)
    modes = _x_modes(book, args, modes_at, r, c)
    line = _one_line(book, args[1])
    for v in (goal, modes, line):
        if isinstance(v, XlError):
            return v
    assert not isinstance(modes, XlError) and not isinstance(line, XlError)
    keys, column = line
    return _x_position(goal, keys, *modes), len(keys), column


@register("XMATCH")
def _xmatch(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _x_search(book, args, 2, r, c)
    if isinstance(found, XlError):
        return found
    return NA if found[0] is None else float(found[0] + 1)


@register("XLOOKUP")
def _xlookup(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The row (of a column searched) or column (of a row searched) of ``return_array`` where
    ``lookup_value`` is found in ``lookup_array``; ``if_not_found`` (else #N/A) when it is not."""
    found = _x_search(book, args, 4, r, c)
    if isinstance(found, XlError):
        return found
    k, length, column = found
    results = args[2]
    if isinstance(results, Area):
        grid, rows, cols = None, results.rows, results.cols
    else:
        grid = as_grid(book, results)
        rows, cols = len(grid), len(grid[0])
    if (rows if column else cols) != length and length > 1:
        return VALUE  # the two arrays do not line up
    if k is None:
        return args[3] if len(args) > 3 and args[3] is not None else NA
    if grid is not None:
        return [grid[k]] if column else [[line[k]] for line in grid]
    assert isinstance(results, Area)
    if column:
        return Area(results.sheet, results.r1 + k, results.c1, results.r1 + k, results.c2)
    return Area(results.sheet, results.r1, results.c1 + k, results.r2, results.c1 + k)
