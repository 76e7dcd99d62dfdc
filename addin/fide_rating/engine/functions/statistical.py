"""Statistical functions (Excel's category): AVERAGE, MIN, MAX, MEDIAN, the COUNTs, the
criteria aggregates (COUNTIF(S), AVERAGEIF(S), MINIFS, MAXIFS), LARGE, SMALL, RANK,
PERCENTILE, QUARTILE, MODE, GEOMEAN, FREQUENCY, SLOPE, CORREL, VAR, STDEV and the rest; and
SUBTOTAL and AGGREGATE, which choose among them. The least-squares fits are :mod:`.regression`.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.criteria` and the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..formula.coerce import number
from ..formula.values import DIV0, NA, NUM, VALUE, Area, Book, Result, XlError, as_grid
from .base import FUNCTIONS, Impl, define, flatten, numbers_of, running_sum
from .criteria import numbers_picked, picked, select, shape


def _is_number(v: object) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


def _over(f: Callable[[list[float]], Result]) -> Impl:
    """A function of the numbers of its arguments (numbers_of's rules)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = numbers_of(book, args)
        return nums if isinstance(nums, XlError) else f(nums)

    return impl


def _average(nums: list[float]) -> Result:
    return running_sum(nums) / len(nums) if nums else DIV0


def _median(nums: list[float]) -> Result:
    if not nums:
        return NUM
    s = sorted(nums)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def _geomean(nums: list[float]) -> Result:
    if not nums or any(x <= 0 for x in nums):
        return NUM
    return math.exp(math.fsum(math.log(x) for x in nums) / len(nums))


def _harmean(nums: list[float]) -> Result:
    if not nums or any(x <= 0 for x in nums):
        return NUM
    return len(nums) / math.fsum(1 / x for x in nums)


def _mode(nums: list[float]) -> Result:
    """The most frequent number, the first of them to appear; none repeated: #N/A."""
    counts: dict[float, int] = {}
    for x in nums:
        counts[x] = counts.get(x, 0) + 1
    best = max(counts.values(), default=0)
    if best < 2:
        return NA
    return next(x for x in nums if counts[x] == best)


def _devsq(nums: list[float]) -> Result:
    if not nums:
        return NUM
    mean = math.fsum(nums) / len(nums)
    return math.fsum((x - mean) ** 2 for x in nums)


def _avedev(nums: list[float]) -> Result:
    if not nums:
        return NUM
    mean = math.fsum(nums) / len(nums)
    return math.fsum(abs(x - mean) for x in nums) / len(nums)


def _spread(squares: bool, sample: bool) -> Callable[[list[float]], Result]:
    """The variances and standard deviations: the mean square deviation, over n - 1 for a
    sample; its square root for the standard deviation. Computed as Excel's saved values show
    it computes them, to the bit: the sum and the sum of squares added in order, then
    (sum of squares - sum * sum / n); where that cancels to below 1 % of the sum of squares,
    the deviations from the mean squared and added in order instead (each way gives Excel's
    digits on its side of the bound, in 105 of 106 STDEVs of two Excel-saved models, where
    either way alone misses a third)."""

    def f(nums: list[float]) -> Result:
        n = len(nums)
        if n < (2 if sample else 1):
            return DIV0
        total = sumsq = 0.0
        for x in nums:
            total += x
            sumsq += x * x
        deviations = sumsq - total * total / n
        if deviations < sumsq * 0.01:
            mean, deviations = total / n, 0.0
            for x in nums:
                deviations += (x - mean) * (x - mean)
        var = max(deviations, 0.0) / (n - 1 if sample else n)
        return var if squares else math.sqrt(var)

    return f


_AGGREGATES: dict[str, Callable[[list[float]], Result]] = {
    "AVERAGE": _average,
    "MIN": lambda nums: min(nums, default=0.0),
    "MAX": lambda nums: max(nums, default=0.0),
    "MEDIAN": _median,
    "GEOMEAN": _geomean,
    "HARMEAN": _harmean,
    "MODE": _mode,
    "DEVSQ": _devsq,
    "AVEDEV": _avedev,
    "VAR": _spread(True, True),
    "VARP": _spread(True, False),
    "STDEV": _spread(False, True),
    "STDEVP": _spread(False, False),
}
_ALSO = {"MODE": ("MODE.SNGL",), "VAR": ("VAR.S",), "VARP": ("VAR.P",),
         "STDEV": ("STDEV.S",), "STDEVP": ("STDEV.P",)}  # fmt: skip
for _name, _f in _AGGREGATES.items():
    if _name not in ("MIN", "MAX"):
        define(_name, "r", also=_ALSO.get(_name, ()), union=True)(_over(_f))


def _extreme(f: Callable[[list[float]], Result]) -> Impl:
    """MIN and MAX as Excel's saved values show them: the values given as such first, from
    the left, the first error or text that is not a number the result (``MAX("abc",NA())``
    is #VALUE!, ``MAX(NA(),"abc")`` #N/A), an argument written empty a 0 (``MAX(,-1)`` is
    0); then the ranges and arrays (``MAX(H3,1/0)`` is #DIV/0! where H3 holds #N/A)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        values: list[Result] = [
            0.0 if a is None else a for a in args if not isinstance(a, Area | list)
        ]
        nums = numbers_of(book, values)
        if isinstance(nums, XlError):
            return nums
        ranges = numbers_of(book, [a for a in args if isinstance(a, Area | list)])
        return ranges if isinstance(ranges, XlError) else f(nums + ranges)

    return impl


define("MIN", "r", union=True, errors=True)(_extreme(_AGGREGATES["MIN"]))
define("MAX", "r", union=True, errors=True)(_extreme(_AGGREGATES["MAX"]))


def _values_a(book: Book, args: list[Result]) -> list[float] | XlError:
    """The numbers of AVERAGEA, MAXA, MINA and the ...A variances: in a range a text counts 0
    and a logical 1 or 0 (blanks skipped); typed in, as arithmetic reads them."""
    out: list[float] = []
    for v, from_range in flatten(book, args):
        if isinstance(v, XlError):
            return v
        if v is None:
            continue
        if from_range and isinstance(v, str):
            out.append(0.0)
            continue
        x = number(v)
        if isinstance(x, XlError):
            return x
        out.append(x)
    return out


def _over_a(f: Callable[[list[float]], Result]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = _values_a(book, args)
        return nums if isinstance(nums, XlError) else f(nums)

    return impl


define("AVERAGEA", "r", union=True)(_over_a(_average))
define("MAXA", "r", union=True)(_over_a(lambda nums: max(nums, default=0.0)))
define("MINA", "r", union=True)(_over_a(lambda nums: min(nums, default=0.0)))
define("VARA", "r", union=True)(_over_a(_spread(True, True)))
define("VARPA", "r", union=True)(_over_a(_spread(True, False)))
define("STDEVA", "r", union=True)(_over_a(_spread(False, True)))
define("STDEVPA", "r", union=True)(_over_a(_spread(False, False)))


@define("COUNT", "r", union=True, errors=True)
def _count(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    n = 0
    for v, from_range in flatten(book, args):
        if _is_number(v) or (
            not from_range and v is not None and not isinstance(number(v), XlError)
        ):
            n += 1
    return float(n)


@define("COUNTA", "r", union=True, errors=True)
def _counta(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(v is not None for v, _ in flatten(book, args)))


@define("COUNTBLANK", "r")
def _countblank(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Empty cells and empty texts, the empty cells beyond the sheet's end included."""
    chosen = select(book, [(args[0], "")])
    return chosen if isinstance(chosen, XlError) else float(chosen.count())


# --- with criteria (one implementation: :mod:`.criteria`) ---------------------------------


@define("COUNTIF", "r e")
def _countif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    chosen = select(book, [(args[0], args[1])])  # type: ignore[list-item]
    return chosen if isinstance(chosen, XlError) else float(chosen.count())


@define("COUNTIFS", "r e", repeat=2)
def _countifs(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    if len(args) % 2:
        return VALUE
    chosen = select(book, list(zip(args[::2], args[1::2], strict=True)))  # type: ignore[arg-type]
    return chosen if isinstance(chosen, XlError) else float(chosen.count())


@define("AVERAGEIF", "r e r")
def _averageif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The average of ``average_range`` (the range itself when left out) where the criterion
    holds; none: #DIV/0!."""
    area, crit, target = args
    chosen = select(book, [(area, crit)])  # type: ignore[list-item]
    if isinstance(chosen, XlError):
        return chosen
    nums = numbers_picked(picked(book, chosen, area if target is None else target))
    return nums if isinstance(nums, XlError) else _average(nums)


def _ifs(f: Callable[[list[float]], Result]) -> Impl:
    """AVERAGEIFS, MINIFS and MAXIFS: the first range's numbers where every criterion holds."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        if len(args) % 2 == 0:
            return VALUE
        pairs = list(zip(args[1::2], args[2::2], strict=True))
        chosen = select(book, pairs)  # type: ignore[arg-type]
        if isinstance(chosen, XlError):
            return chosen
        if shape(book, args[0])[:2] != shape(book, args[1])[:2]:
            return VALUE
        nums = numbers_picked(picked(book, chosen, args[0]))
        return nums if isinstance(nums, XlError) else f(nums)

    return impl


define("AVERAGEIFS", "r r e", repeat=2)(_ifs(_average))
define("MINIFS", "r r e", repeat=2)(_ifs(lambda nums: min(nums, default=0.0)))
define("MAXIFS", "r r e", repeat=2)(_ifs(lambda nums: max(nums, default=0.0)))


# --- order statistics ------------------------------------------------------------------------


def _nth(largest: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = numbers_of(book, [args[0]])
        k = args[1]
        if isinstance(nums, XlError):
            return nums
        assert isinstance(k, float)
        s = sorted(nums, reverse=largest)
        n = math.ceil(k)  # LARGE(x, 1.5) is LARGE(x, 2), as Excel rounds k up
        return s[n - 1] if 1 <= n <= len(s) else NUM

    return impl


define("LARGE", "x n")(_nth(True))
define("SMALL", "x n")(_nth(False))


def _rank(average: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x, ref, order = args
        nums = numbers_of(book, [ref])
        if isinstance(nums, XlError):
            return nums
        assert isinstance(x, float)
        if x not in nums:
            return NA
        ascending = order is not None and order != 0
        before = sum((v < x) if ascending else (v > x) for v in nums)
        if not average:
            return float(1 + before)
        ties = sum(v == x for v in nums)
        return before + (ties + 1) / 2

    return impl


define("RANK", "n r n?", also=("RANK.EQ",))(_rank(False))
define("RANK.AVG", "n r n?")(_rank(True))


def _percentile(exclusive: bool, quartile: bool) -> Impl:
    """PERCENTILE(.INC), PERCENTILE.EXC and the QUARTILEs: the k-th percentile interpolated
    between the sorted numbers, at rank (n-1)k+1 (inclusive) or (n+1)k (exclusive)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = numbers_of(book, [args[0]])
        if isinstance(nums, XlError):
            return nums
        k = args[1]
        assert isinstance(k, float)
        if quartile:
            q = math.trunc(k)
            if not (1 if exclusive else 0) <= q <= (3 if exclusive else 4):
                return NUM
            k = q / 4
        if not nums or not 0 <= k <= 1:
            return NUM
        s = sorted(nums)
        n = len(s)
        rank = (n + 1) * k if exclusive else (n - 1) * k + 1
        if rank < 1 or rank > n:
            return NUM
        low = math.floor(rank)
        if low == n:
            return s[-1]
        return s[low - 1] + (rank - low) * (s[low] - s[low - 1])

    return impl


define("PERCENTILE", "x n", also=("PERCENTILE.INC",))(_percentile(False, False))
define("PERCENTILE.EXC", "x n")(_percentile(True, False))
define("QUARTILE", "x n", also=("QUARTILE.INC",))(_percentile(False, True))
define("QUARTILE.EXC", "x n")(_percentile(True, True))


@define("TRIMMEAN", "x n")
def _trimmean(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The mean without ``percent`` of the numbers, half from each end (the count left out
    rounded down to an even number)."""
    nums = numbers_of(book, [args[0]])
    if isinstance(nums, XlError):
        return nums
    p = args[1]
    assert isinstance(p, float)
    if not nums or not 0 <= p < 1:
        return NUM
    cut = int(len(nums) * p / 2)
    s = sorted(nums)[cut : len(nums) - cut]
    return math.fsum(s) / len(s)


@define("FREQUENCY", "x x")
def _frequency(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """How many numbers fall in each bin (above the bin before, up to this one), and a last
    count for those above every bin: a column one longer than the bins."""
    data = numbers_of(book, [args[0]])
    bins = numbers_of(book, [args[1]])
    if isinstance(data, XlError):
        return data
    if isinstance(bins, XlError):
        return bins
    order = sorted(range(len(bins)), key=lambda i: bins[i])
    counts = [0] * (len(bins) + 1)
    for x in data:
        for i in order:
            if x <= bins[i]:
                counts[i] += 1
                break
        else:
            counts[-1] += 1
    return [[float(n)] for n in counts]


# --- pairs of arrays ---------------------------------------------------------------------------


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


def _moments(book: Book, ys: Result, xs: Result) -> tuple[int, float, float, float] | XlError:
    """n, the sums of squared deviations of x and of y, and of their products."""
    found = _pairs(book, ys, xs)
    if isinstance(found, XlError):
        return found
    y, x = found
    n = len(x)
    if n == 0:
        return DIV0
    mx, my = math.fsum(x) / n, math.fsum(y) / n
    sxx = math.fsum((a - mx) ** 2 for a in x)
    syy = math.fsum((b - my) ** 2 for b in y)
    sxy = math.fsum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    return n, sxx, syy, sxy


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


@define("SLOPE", "x x")
def _slope(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    line = _line(book, args[0], args[1])
    return line if isinstance(line, XlError) else line[0]


@define("INTERCEPT", "x x")
def _intercept(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    line = _line(book, args[0], args[1])
    return line if isinstance(line, XlError) else line[1]


@define("FORECAST", "n x x", also=("FORECAST.LINEAR",))
def _forecast(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x = args[0]
    assert isinstance(x, float)
    line = _line(book, args[1], args[2])
    return line if isinstance(line, XlError) else line[1] + line[0] * x


@define("CORREL", "x x", also=("PEARSON",))
def _correl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _moments(book, args[0], args[1])
    if isinstance(found, XlError):
        return found
    _, sxx, syy, sxy = found
    return DIV0 if sxx == 0 or syy == 0 else sxy / math.sqrt(sxx * syy)


@define("RSQ", "x x")
def _rsq(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _moments(book, args[0], args[1])
    if isinstance(found, XlError):
        return found
    _, sxx, syy, sxy = found
    return DIV0 if sxx == 0 or syy == 0 else sxy * sxy / (sxx * syy)


def _covariance(sample: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        found = _moments(book, args[0], args[1])
        if isinstance(found, XlError):
            return found
        n, _, _, sxy = found
        if sample and n < 2:
            return DIV0
        return sxy / (n - 1 if sample else n)

    return impl


define("COVAR", "x x", also=("COVARIANCE.P",))(_covariance(False))
define("COVARIANCE.S", "x x")(_covariance(True))


@define("STANDARDIZE", "n n n")
def _standardize(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    x, mean, sd = args
    return NUM if sd <= 0 else (x - mean) / sd


# --- SUBTOTAL and AGGREGATE ------------------------------------------------------------------

# SUBTOTAL's function numbers (Excel lists SUBTOTAL and AGGREGATE under Math & Trig; they are
# kept here, with the aggregates they choose among)
_SUBTOTALS = {1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT",
              7: "STDEV", 8: "STDEVP", 9: "SUM", 10: "VAR", 11: "VARP"}  # fmt: skip
_AGGREGATE = {**_SUBTOTALS, 7: "STDEV.S", 8: "STDEV.P", 10: "VAR.S", 11: "VAR.P",
              12: "MEDIAN", 13: "MODE.SNGL", 14: "LARGE", 15: "SMALL", 16: "PERCENTILE.INC",
              17: "QUARTILE.INC", 18: "PERCENTILE.EXC", 19: "QUARTILE.EXC"}  # fmt: skip


def _kept(book: Book, args: list[Result], *, nested: bool, filtered: bool, manual: bool,
          errors: bool) -> list[Result]:  # fmt: skip
    """The arguments without the cells SUBTOTAL and AGGREGATE leave out: cells holding a
    SUBTOTAL or AGGREGATE (``nested``), rows a filter hides (``filtered``), rows hidden by
    hand (``manual``), errors (``errors``)."""
    out: list[Result] = []
    for a in args:
        grid = as_grid(book, a)
        if not isinstance(a, Area):
            out.append([[v for v in line if not (errors and isinstance(v, XlError))]
                        for line in grid])  # fmt: skip
            continue
        left_out = book.left_out
        out.append([[v for j, v in enumerate(line)
                     if not (errors and isinstance(v, XlError))
                     and not left_out(a.sheet, a.r1 + i, a.c1 + j, nested=nested,
                                      filtered=filtered, manual=manual)]
                    for i, line in enumerate(grid)])  # fmt: skip
    return out


@define("SUBTOTAL", "n r")
def _subtotal(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """One of eleven aggregates over references, leaving out the cells that hold a SUBTOTAL
    (or AGGREGATE) themselves and the rows a filter hides; 101 to 111 also leave out rows
    hidden by hand (Excel's SUBTOTAL reference)."""
    which = args[0]
    assert isinstance(which, float)
    number_of = int(which)
    name = _SUBTOTALS.get(number_of % 100 if number_of > 100 else number_of)
    if name is None or not (1 <= number_of <= 11 or 101 <= number_of <= 111):
        return VALUE
    kept = _kept(book, args[1:], nested=True, filtered=True, manual=number_of > 100, errors=False)
    impl = FUNCTIONS[name].impl
    assert impl is not None
    return impl(book, sh, r, c, kept)


@define("AGGREGATE", "n n x x")
def _aggregate(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """One of nineteen aggregates (AGGREGATE's function numbers), leaving out what ``options``
    says: 0 nested SUBTOTALs and AGGREGATEs, 1 those and hidden rows, 2 those and errors,
    3 all three, 4 nothing, 5 hidden rows, 6 errors, 7 hidden rows and errors. 14 to 19 take
    an array and k."""
    which, options = args[0], args[1]
    assert isinstance(which, float) and isinstance(options, float)
    name = _AGGREGATE.get(int(which))
    option = int(options)
    if name is None or not 0 <= option <= 7:
        return VALUE
    nested = option in (0, 1, 2, 3)
    hidden = option in (1, 3, 5, 7)
    errors = option in (2, 3, 6, 7)
    impl = FUNCTIONS[name].impl
    assert impl is not None
    if int(which) >= 14:
        if len(args) < 4 or args[3] is None:
            return VALUE
        k = number(as_grid(book, args[3])[0][0])
        if isinstance(k, XlError):
            return k
        kept = _kept(book, [args[2]], nested=nested, filtered=hidden, manual=hidden, errors=errors)
        return impl(book, sh, r, c, [kept[0], k])
    kept = _kept(
        book,
        [a for a in args[2:] if a is not None],
        nested=nested,
        filtered=hidden,
        manual=hidden,
        errors=errors,
    )
    return impl(book, sh, r, c, kept)
