"""LAMBDA's function values and the functions that call them (Excel's LAMBDA helper
functions): MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY.

The compiler makes a :class:`Lambda` where a formula computes ``LAMBDA(x, y, calculation)``
(:mod:`fide_rating.engine.compiler`); calling it binds the arguments to its parameters and
computes the calculation. Excel's rules, after its LAMBDA page:

* a call with more arguments than parameters, or fewer than the parameters up to the last
  one that is not optional (``[b]``, saved as ``_xlop.b``), is #VALUE!; a parameter left out,
  or written empty (``LAMBDA(x,y,...)(1,)``), is omitted: ISOMITTED says so, it reads as a
  blank;
* a LAMBDA left uncalled as a cell's value is #CALC!;
* a LAMBDA calling itself through its name too deep is #NUM! (:data:`MAX_DEPTH` calls within
  one another here: Excel's own limit depends on the formula and is not documented).

The helper functions take the LAMBDA as their last argument: one that is not a LAMBDA, or
takes another number of parameters than the function passes, is #VALUE!; a LAMBDA giving an
array where the function keeps one value gives #CALC! there (Excel's "nested arrays").

May import: :mod:`fide_rating.engine.formula` (values, coercion) and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..formula.coerce import number
from ..formula.values import (
    NUM,
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
    check_size,
    element,
)

CALC = XlError("#CALC!")
MAX_DEPTH = 1_000  # LAMBDA calls within one another: deeper is #NUM!
MAX_CALLS = 1_000_000  # calls made within one outermost call: more is not followed


class Omitted:
    """A LAMBDA's parameter given no argument (ISOMITTED is TRUE for it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED = Omitted()

Frames = list[list[Any]]  # one list of values per call under way, the innermost last


class Lambda(XlError):  # noqa: N818 - a value, an error only where it is not called
    """A function value: its parameters (how many, how many of them required), its
    calculation, and the values of the LET names and LAMBDA parameters around it when it was
    made (each scope's frame, put back while it runs).

    Anywhere but where it is called (a cell's value, an operand, a function's argument) it
    is Excel's #CALC!: it is that error value to everything that is not a call."""

    __slots__ = ("body", "captured", "frames", "name", "params", "required")
    params: int
    required: int
    body: Fn
    frames: Frames
    captured: list[tuple[Frames, list[Any]]]
    name: str  # the function an eta-reduced LAMBDA stands for (``SUM``), else ""
    depth = 0  # calls under way, within one another
    calls = 0  # calls made since the outermost one began

    def __init__(
        self,
        params: int,
        required: int,
        body: Fn,
        frames: Frames,
        captured: list[tuple[Frames, list[Any]]],
        name: str = "",
    ) -> None:
        # an XlError is frozen: its fields are set as the dataclass sets them
        fields = {"code": "#CALC!", "params": params, "required": required, "body": body,
                  "frames": frames, "captured": captured, "name": name}  # fmt: skip
        for field, value in fields.items():
            object.__setattr__(self, field, value)

    def accepts(self, n: int) -> bool:
        """Whether a call with ``n`` arguments is one Excel computes."""
        return self.required <= n <= self.params

    def __call__(self, book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
        """The calculation with ``args`` (values, ranges, arrays or :data:`OMITTED`) for the
        parameters; #VALUE! for a wrong number of them."""
        if not self.accepts(len(args)):
            return VALUE
        cls = Lambda
        if cls.depth >= MAX_DEPTH:
            return NUM
        if cls.depth == 0:
            cls.calls = 0
        cls.calls += 1
        if cls.calls > MAX_CALLS:
            raise Unsupported(f"more than {MAX_CALLS:,} LAMBDA calls in one formula")
        frame = list(args) + [OMITTED] * (self.params - len(args))
        for frames, outer in self.captured:
            frames.append(outer)
        self.frames.append(frame)
        cls.depth += 1
        try:
            return self.body(book, sh, r, c)
        except RecursionError:
            if cls.depth > 1:  # calls within calls deeper than Python's stack: not guessed
                raise Unsupported("LAMBDA calls nested deeper than recalc follows") from None
            raise
        finally:
            cls.depth -= 1
            self.frames.pop()
            for frames, _ in self.captured:
                frames.pop()


def one(book: Book, v: Result) -> Value:
    """A LAMBDA's result where one value is kept: a single value, or the one value of a
    range or array of one cell; #CALC! for more (an array in an array)."""
    if isinstance(v, Lambda):
        return CALC
    if isinstance(v, Area):
        if v.rows == 1 and v.cols == 1:
            return book.value(v.sheet, v.r1, v.c1)
        return CALC
    if isinstance(v, list):
        return v[0][0] if len(v) == 1 and len(v[0]) == 1 else CALC
    return v


def _grid(book: Book, v: Result) -> Array:
    return as_grid(book, v)


Helper = Callable[[Book, str, int, int, list[Any]], Result]


def _map(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
    """MAP(array1, [array2, ...], lambda): the LAMBDA of the arrays' elements, element by
    element; arrays of other sizes stretched as Excel stretches them (#N/A beyond)."""
    *arrays, f = args
    if not arrays or not isinstance(f, Lambda) or not f.accepts(len(arrays)):
        return VALUE
    grids = [_grid(book, a) for a in arrays]
    rows, cols = max(len(g) for g in grids), max(len(g[0]) for g in grids)
    check_size(rows, cols)
    return [[one(book, f(book, sh, r, c, [element(g, i, j) for g in grids]))
             for j in range(cols)] for i in range(rows)]  # fmt: skip


def _start(v: Any) -> Any:
    return None if v is OMITTED else v


def _reduce(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
    """REDUCE([initial_value], array, lambda(accumulator, value)): the accumulator after the
    LAMBDA of each element in turn, row by row."""
    start, array, f = args
    if not isinstance(f, Lambda) or not f.accepts(2):
        return VALUE
    acc: Result = _start(start)
    for line in _grid(book, array):
        for v in line:
            acc = f(book, sh, r, c, [acc, v])
    return CALC if isinstance(acc, Lambda) else acc


def _scan(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
    """SCAN([initial_value], array, lambda(accumulator, value)): each accumulator on the way,
    in the array's shape."""
    start, array, f = args
    if not isinstance(f, Lambda) or not f.accepts(2):
        return VALUE
    acc: Result = _start(start)
    out: Array = []
    for line in _grid(book, array):
        row: list[Value] = []
        for v in line:
            acc = one(book, f(book, sh, r, c, [acc, v]))
            row.append(acc)
        out.append(row)
    return out


def _by(rows: bool) -> Helper:
    def run(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
        array, f = args
        if not isinstance(f, Lambda) or not f.accepts(1):
            return VALUE
        grid = _grid(book, array)
        if rows:
            return [[one(book, f(book, sh, r, c, [[line]]))] for line in grid]
        columns = [[[line[j]] for line in grid] for j in range(len(grid[0]))]
        return [[one(book, f(book, sh, r, c, [col])) for col in columns]]

    run.__doc__ = (
        f"BY{'ROW' if rows else 'COL'}(array, lambda): the LAMBDA of each "
        f"{'row' if rows else 'column'} (an array of one {'row' if rows else 'column'}), "
        f"one value each, as a {'column' if rows else 'row'}."
    )
    return run


def _makearray(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
    """MAKEARRAY(rows, columns, lambda(row, column)): the array of the LAMBDA of each place's
    row and column numbers (from 1); #VALUE! for fewer than one row or column."""
    n_rows, n_cols, f = (one(book, args[0]), one(book, args[1]), args[2])
    sizes = []
    for v in (n_rows, n_cols):
        if isinstance(v, XlError):
            return v
        x = number(v)
        if isinstance(x, XlError):
            return x
        sizes.append(int(x))
    if not isinstance(f, Lambda) or not f.accepts(2) or min(sizes) < 1:
        return VALUE
    check_size(sizes[0], sizes[1])
    return [[one(book, f(book, sh, r, c, [float(i), float(j)]))
             for j in range(1, sizes[1] + 1)] for i in range(1, sizes[0] + 1)]  # fmt: skip


# name -> (least, most arguments, implementation); the compiler evaluates their arguments
# (ranges stay ranges) and hands them over
HELPERS: dict[str, tuple[int, int, Helper]] = {
    "MAP": (2, 254, _map),
    "REDUCE": (3, 3, _reduce),
    "SCAN": (3, 3, _scan),
    "BYROW": (2, 2, _by(rows=True)),
    "BYCOL": (2, 2, _by(rows=False)),
    "MAKEARRAY": (3, 3, _makearray),
}
