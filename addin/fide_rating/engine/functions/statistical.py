"""Statistical functions (Excel's category): AVERAGE, MIN, MAX, COUNT(IF/S), RANK, SLOPE,
INTERCEPT, FORECAST, VAR, STDEV and the rest; and SUBTOTAL.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math

from ..formula.values import (
    DIV0,
    NA,
    NUM,
    VALUE,
    Area,
    Book,
    Result,
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
