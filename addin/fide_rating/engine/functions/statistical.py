"""Statistical functions (Excel's category): AVERAGE, MIN, MAX, COUNT(IF/S), RANK, SLOPE,
INTERCEPT, FORECAST, LINEST, TREND, VAR, STDEV and the rest; and SUBTOTAL.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..formula.values import (
    DIV0,
    NA,
    NUM,
    REF,
    VALUE,
    Area,
    Book,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
    number,
)
from .base import (
    FUNCTIONS,
    Impl,
    criterion_hits,
    flatten,
    number_arg,
    numbers_of,
    one_value,
    register,
)


@register("AVERAGE")
def _average(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    if isinstance(nums, XlError):
        return nums
    return math.fsum(nums) / len(nums) if nums else DIV0


@register("MIN")
def _min(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else min(nums, default=0.0)


@register("MAX")
def _max(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else max(nums, default=0.0)


@register("MEDIAN")
def _median(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    if isinstance(nums, XlError):
        return nums
    if not nums:
        return NUM
    s = sorted(nums)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


@register("COUNT")
def _count(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    n = 0
    for v, from_range in flatten(book, args):
        if (isinstance(v, float | int) and not isinstance(v, bool)) or (
            not from_range and v is not None and not isinstance(number(v), XlError)
        ):
            n += 1
    return float(n)


@register("COUNTA")
def _counta(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(v is not None for v, _ in flatten(book, args)))


@register("COUNTBLANK")
def _countblank(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(v is None or v == "" for v, _ in flatten(book, args)))


@register("COUNTIF")
def _countif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(criterion_hits(book, args[0], args[1], r, c)))


@register("COUNTIFS")
def _countifs(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    hits = [all(t) for t in zip(*(criterion_hits(book, args[i], args[i + 1], r, c)
                                  for i in range(0, len(args), 2)), strict=True)]  # fmt: skip
    return float(sum(hits))


@register("AVERAGEIF")
def _averageif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    hits = criterion_hits(book, args[0], args[1], r, c)
    area = args[2] if len(args) > 2 else args[0]
    cells = (v for line in as_grid(book, area) for v in line)
    vals = []
    for hit, v in zip(hits, cells, strict=False):
        if hit and isinstance(v, XlError):
            return v  # an error where the criteria hold is the result, as in SUMIF
        if hit and isinstance(v, float | int) and not isinstance(v, bool):
            vals.append(float(v))
    return math.fsum(vals) / len(vals) if vals else DIV0


def _nth(largest: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = numbers_of(book, [args[0]])
        k = number_arg(book, args[1], r, c)
        if isinstance(nums, XlError):
            return nums
        if isinstance(k, XlError):
            return k
        s = sorted(nums, reverse=largest)
        return s[int(k) - 1] if 1 <= k <= len(s) else NUM

    return impl


register("LARGE")(_nth(True))
register("SMALL")(_nth(False))


@register("RANK", "RANK.EQ")
def _rankfn(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x = number_arg(book, args[0], r, c)
    if isinstance(x, XlError):
        return x
    nums = numbers_of(book, [args[1]])
    if isinstance(nums, XlError):
        return nums
    asc = (
        len(args) > 2
        and args[2] is not None
        and number(one_value(book, args[2], r, c)) not in (0.0, VALUE)
    )
    if x not in nums:
        return NA
    return float(1 + sum((v < x) if asc else (v > x) for v in nums))


def _pairs(book: Book, ys: Result, xs: Result) -> tuple[list[float], list[float]] | XlError:
    """The points of two ranges where both hold numbers (Excel skips the others)."""
    ya = [v for line in as_grid(book, ys) for v in line]
    xa = [v for line in as_grid(book, xs) for v in line]
    if len(ya) != len(xa):
        return NA
    out_y, out_x = [], []
    for y, x in zip(ya, xa, strict=True):
        for v in (y, x):
            if isinstance(v, XlError):
                return v
        if _is_number(y) and _is_number(x):
            out_y.append(float(y))  # type: ignore[arg-type]
            out_x.append(float(x))  # type: ignore[arg-type]
    return out_y, out_x


def _is_number(v: object) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


def _line(book: Book, ys: Result, xs: Result) -> tuple[float, float] | XlError:
    """The least-squares line's slope and intercept."""
    found = _pairs(book, ys, xs)
    if isinstance(found, XlError):
        return found
    y, x = found
    if len(x) < 2:
        return DIV0
    mx, my = math.fsum(x) / len(x), math.fsum(y) / len(y)
    sxx = math.fsum((a - mx) ** 2 for a in x)
    if sxx == 0:
        return DIV0
    slope = math.fsum((a - mx) * (b - my) for a, b in zip(x, y, strict=True)) / sxx
    return slope, my - slope * mx


@register("SLOPE")
def _slope(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    line = _line(book, args[0], args[1])
    return line if isinstance(line, XlError) else line[0]


@register("INTERCEPT")
def _intercept(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    line = _line(book, args[0], args[1])
    return line if isinstance(line, XlError) else line[1]


@register("FORECAST", "FORECAST.LINEAR")
def _forecast(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x = number_arg(book, args[0], r, c)
    if isinstance(x, XlError):
        return x
    line = _line(book, args[1], args[2])
    return line if isinstance(line, XlError) else line[1] + line[0] * x


def _spread(squares: bool, sample: bool) -> Impl:
    """VAR, VAR.S, VARP, VAR.P and the STDEVs: the mean square deviation, over n - 1 for a
    sample; its square root for the standard deviation."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = numbers_of(book, args)
        if isinstance(nums, XlError):
            return nums
        n = len(nums)
        if n < (2 if sample else 1):
            return DIV0
        mean = math.fsum(nums) / n
        var = math.fsum((x - mean) ** 2 for x in nums) / (n - 1 if sample else n)
        return var if squares else math.sqrt(var)

    return impl


register("VAR", "VAR.S")(_spread(True, True))
register("VARP", "VAR.P")(_spread(True, False))
register("STDEV", "STDEV.S")(_spread(False, True))
register("STDEVP", "STDEV.P")(_spread(False, False))

# SUBTOTAL's function numbers (Excel lists SUBTOTAL under Math & Trig; it is kept here, with
# the aggregates it chooses among)
_SUBTOTALS = {1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT",
              7: "STDEV", 8: "STDEVP", 9: "SUM", 10: "VAR", 11: "VARP"}  # fmt: skip


@register("SUBTOTAL")
def _subtotal(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """One of eleven aggregates over references, leaving out the cells that hold a SUBTOTAL
    themselves (no double counting) and the rows a filter hides; 101 to 111 also leave out
    rows hidden by hand."""
    which = number_arg(book, args[0], r, c)
    if isinstance(which, XlError):
        return which
    number_of = int(which)
    name = _SUBTOTALS.get(number_of % 100 if number_of > 100 else number_of)
    if name is None or not (1 <= number_of <= 11 or 101 <= number_of <= 111):
        return VALUE
    hidden_too = number_of > 100
    kept: list[Result] = []
    for a in args[1:]:
        if not isinstance(a, Area):
            kept.append(a)
            continue
        grid = as_grid(book, a)
        kept.append([[v for j, v in enumerate(line)
                      if not book.left_out(a.sheet, a.r1 + i, a.c1 + j, hidden_too)]
                     for i, line in enumerate(grid)])  # fmt: skip
    return FUNCTIONS[name][0](book, sh, r, c, kept)


@dataclass
class _Fit:
    """A least-squares fit of y on k x variables, in exact arithmetic (the floats given are
    exact binary fractions; the answer is rounded once, at the end)."""

    slopes: list[Fraction]  # one an x variable, in the order given
    intercept: Fraction
    inverse: list[list[Fraction]]  # (X'X)^-1 of the (centred, with a constant) x's
    means: list[Fraction]
    n: int
    k: int
    const: bool
    ss_reg: Fraction
    ss_resid: Fraction


def _variables(book: Book, ys_arg: Result, xs_arg: Result | None
               ) -> tuple[list[float], list[list[float]], bool] | XlError:  # fmt: skip
    """The known y's, the x variables (each a list as long as the y's) and whether the y's are
    a column; the x's 1, 2, 3 ... when left out. With the y's in a column each column of the
    x's is a variable, in a row each row; x's shaped like the y's are one variable."""
    ys_grid = as_grid(book, ys_arg)
    column = len(ys_grid[0]) == 1
    ys = [v for line in ys_grid for v in line]
    if xs_arg is None:
        variables: list[list[Value]] = [[float(i) for i in range(1, len(ys) + 1)]]
    else:
        xs_grid = as_grid(book, xs_arg)
        if (len(xs_grid), len(xs_grid[0])) == (len(ys_grid), len(ys_grid[0])):
            variables = [[v for line in xs_grid for v in line]]
        elif column and len(ys_grid) > 1 and len(xs_grid) == len(ys_grid):
            variables = [[line[j] for line in xs_grid] for j in range(len(xs_grid[0]))]
        elif len(ys_grid) == 1 and len(ys_grid[0]) > 1 and len(xs_grid[0]) == len(ys):
            variables = [list(line) for line in xs_grid]
        else:
            return REF
    for v in (*ys, *(x for var in variables for x in var)):
        if isinstance(v, XlError):
            return v
        if not _is_number(v):
            return VALUE
    return ([float(y) for y in ys],  # type: ignore[arg-type]
            [[float(x) for x in var] for var in variables], column)  # type: ignore[arg-type]  # fmt: skip


def _inverse(a: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """The inverse of a square matrix by Gauss-Jordan elimination; None when singular."""
    k = len(a)
    m = [[*row, *(Fraction(int(i == j)) for j in range(k))] for i, row in enumerate(a)]
    for col in range(k):
        pivot = next((r for r in range(col, k) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        lead = m[col][col]
        m[col] = [v / lead for v in m[col]]
        for r in range(k):
            if r != col and m[r][col] != 0:
                factor = m[r][col]
                m[r] = [v - factor * w for v, w in zip(m[r], m[col], strict=True)]
    return [row[k:] for row in m]


def _fit(ys: list[float], variables: list[list[float]], const: bool) -> _Fit:
    n, k = len(ys), len(variables)
    y = [Fraction(v) for v in ys]
    xs = [[Fraction(v) for v in var] for var in variables]
    means = [sum(var, Fraction(0)) / n for var in xs] if const else [Fraction(0)] * k
    y_mean = sum(y, Fraction(0)) / n if const else Fraction(0)
    centred = [[v - mean for v in var] for var, mean in zip(xs, means, strict=True)]
    a = [[sum((p * q for p, q in zip(u, w, strict=True)), Fraction(0)) for w in centred]
         for u in centred]  # fmt: skip
    inverse = _inverse(a)
    if inverse is None:  # Excel leaves some out; which, its reference does not say
        raise Unsupported("LINEST or TREND of x variables that depend on each other")
    b = [sum(((p * (q - y_mean)) for p, q in zip(u, y, strict=True)), Fraction(0))
         for u in centred]  # fmt: skip
    slopes = [sum((inverse[i][j] * b[j] for j in range(k)), Fraction(0)) for i in range(k)]
    intercept = y_mean - sum((m * mean for m, mean in zip(slopes, means, strict=True)),
                             Fraction(0))  # fmt: skip
    fitted = [intercept + sum((m * var[i] for m, var in zip(slopes, xs, strict=True)),
                              Fraction(0)) for i in range(n)]  # fmt: skip
    ss_resid = sum(((v - f) ** 2 for v, f in zip(y, fitted, strict=True)), Fraction(0))
    ss_reg = sum(((f - y_mean) ** 2 for f in fitted), Fraction(0))
    return _Fit(slopes, intercept, inverse, means, n, k, const, ss_reg, ss_resid)


def _flag(book: Book, args: list[Result], i: int, r: int, c: int, default: bool) -> bool | XlError:
    if len(args) <= i or args[i] is None:
        return default
    x = number_arg(book, args[i], r, c)
    return x if isinstance(x, XlError) else x != 0


@register("LINEST", arrays=True)
def _linest(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The least-squares fit: the slopes (the last x variable's first) and the intercept, and
    with ``stats`` their standard errors, r² and the standard error of y, F and the degrees of
    freedom, the regression and residual sums of squares, in Excel's five rows."""
    found = _variables(book, args[0], args[1] if len(args) > 1 and args[1] is not None else None)
    const = _flag(book, args, 2, r, c, True)
    stats = _flag(book, args, 3, r, c, False)
    for v in (found, const, stats):
        if isinstance(v, XlError):
            return v
    assert not isinstance(found, XlError) and isinstance(const, bool)
    ys, variables, _ = found
    fit = _fit(ys, variables, const)
    top: list[Value] = [*(float(m) for m in reversed(fit.slopes)), float(fit.intercept)]
    if not stats:
        return [top]
    width = len(fit.slopes) + 1
    df = fit.n - fit.k - (1 if const else 0)

    def row(*values: Value) -> list[Value]:
        return [*values, *([NA] * (width - len(values)))]

    if df <= 0:
        return [top, row(*([NUM] * width)), row(1.0, NUM), row(NUM, float(df)),
                row(float(fit.ss_reg), float(fit.ss_resid))]  # fmt: skip
    variance = fit.ss_resid / df
    errors: list[Value] = [math.sqrt(float(fit.inverse[i][i] * variance))
                           for i in reversed(range(len(fit.slopes)))]  # fmt: skip
    if const:
        spread = Fraction(1, fit.n) + sum(
            (fit.means[i] * fit.inverse[i][j] * fit.means[j]
             for i in range(width - 1) for j in range(width - 1)), Fraction(0))  # fmt: skip
        errors.append(math.sqrt(float(spread * variance)))
    else:
        errors.append(NA)
    total = fit.ss_reg + fit.ss_resid
    r2 = float(fit.ss_reg / total) if total else 1.0
    f_stat: Value = float(fit.ss_reg / fit.k / variance) if variance and fit.k else NUM
    return [top, errors, row(r2, math.sqrt(float(variance))), row(f_stat, float(df)),
            row(float(fit.ss_reg), float(fit.ss_resid))]  # fmt: skip


@register("TREND", arrays=True)
def _trend(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The least-squares fit's values at ``new_x`` (the known x's when left out): one value a
    point, a point being a row of the x's (y's in a column) or a column (y's in a row)."""
    known_x = args[1] if len(args) > 1 and args[1] is not None else None
    found = _variables(book, args[0], known_x)
    const = _flag(book, args, 3, r, c, True)
    for v in (found, const):
        if isinstance(v, XlError):
            return v
    assert not isinstance(found, XlError) and isinstance(const, bool)
    ys, variables, column = found
    fit = _fit(ys, variables, const)
    if len(args) > 2 and args[2] is not None:
        new = as_grid(book, args[2])
    elif known_x is not None:
        new = as_grid(book, known_x)
    else:
        new = [[x] for x in variables[0]] if column else [list(variables[0])]
    for line in new:
        for x in line:
            if isinstance(x, XlError):
                return x
            if not _is_number(x):
                return VALUE

    def at(point: list[Value]) -> Value:
        total = fit.intercept + sum((m * Fraction(float(x))  # type: ignore[arg-type]
                                     for m, x in zip(fit.slopes, point, strict=True)),
                                    Fraction(0))  # fmt: skip
        return float(total)

    if len(fit.slopes) == 1:
        return [[at([x]) for x in line] for line in new]
    if column:
        if len(new[0]) != len(fit.slopes):
            return REF
        return [[at(list(line))] for line in new]
    if len(new) != len(fit.slopes):
        return REF
    return [[at([line[j] for line in new]) for j in range(len(new[0]))]]
