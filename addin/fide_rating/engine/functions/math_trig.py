"""Math and trigonometry (Excel's category): SUM, SUMIF(S), SUMPRODUCT, the roundings (ROUND,
CEILING, FLOOR and their .MATH and .PRECISE forms, MROUND ...), EXP, LN, LOG, MOD, RAND,
SEQUENCE and the rest (the trigonometric functions: :mod:`.trig`; FACT, COMBIN, GCD, LCM,
ROMAN ...: :mod:`.whole`).

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.criteria` and the standard library.
"""

from __future__ import annotations

import functools
import math
import operator
import sys
from collections.abc import Callable
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation

from ..formula.coerce import exact, number, power
from ..formula.values import (
    DIV0,
    NA,
    NUM,
    VALUE,
    Area,
    Book,
    Result,
    Unsupported,
    Value,
    XlError,
)
from .base import Impl, define, draws, numbers_of, one_cell, running_sum
from .criteria import numbers_picked, picked, select, shape


def _is_number(v: object) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


@define("SUM", "r", union=True)
def _sum(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else running_sum(nums)


@define("PRODUCT", "r", union=True)
def _product(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else math.prod(nums) if nums else 0.0


@define("SUMSQ", "r", union=True)
def _sumsq(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else math.fsum(x * x for x in nums)


def sum_of(values: list[Value]) -> Result:
    """The sum of the numbers among values picked by criteria; an error there is the result."""
    total = numbers_picked(values)
    return total if isinstance(total, XlError) else running_sum(total)


@define("SUMIF", "r e r")
def _sumif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The cells of ``sum_range`` (of the criteria range's size, from its first cell; the
    range itself when left out) where the criterion holds."""
    area, crit, target = args
    chosen = select(book, [(area, crit)])  # type: ignore[list-item]
    if isinstance(chosen, XlError):
        return chosen
    return sum_of(picked(book, chosen, area if target is None else target))


@define("SUMIFS", "r r e", repeat=2)
def _sumifs(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    if len(args) % 2 == 0:
        return VALUE  # a range without its criterion
    chosen = select(book, list(zip(args[1::2], args[2::2], strict=True)))  # type: ignore[arg-type]
    if isinstance(chosen, XlError):
        return chosen
    if shape(book, args[0])[:2] != shape(book, args[1])[:2]:
        return VALUE  # the sum range and the criteria ranges must have one size
    return sum_of(picked(book, chosen, args[0]))


@define("SUMPRODUCT", "a")
def _sumproduct(book: Book, sh: str, r: int, c: int, args: list[list[list[Value]]]) -> Result:
    """The sum of the products of the arrays' elements (a non-number counts 0); arrays of
    different sizes are #VALUE!."""
    shapes = {(len(g), len(g[0])) for g in args}
    if len(shapes) > 1:
        return VALUE
    flat = [[v for line in g for v in line] for g in args]
    total = []
    for items in zip(*flat, strict=True):
        prod = 1.0
        for v in items:
            if isinstance(v, XlError):
                return v
            prod *= float(v) if _is_number(v) else 0.0
        total.append(prod)
    return running_sum(total)


def _pairs_sum(f: Callable[[float, float], float]) -> Impl:
    """SUMX2MY2, SUMX2PY2, SUMXMY2: a sum over the pairs of two arrays where both are
    numbers."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[list[list[Value]]]) -> Result:
        xs = [v for line in args[0] for v in line]
        ys = [v for line in args[1] for v in line]
        if len(xs) != len(ys):
            return NA
        for v in (*xs, *ys):
            if isinstance(v, XlError):
                return v
        pairs = [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)  # type: ignore[arg-type]
                 if _is_number(x) and _is_number(y)]  # fmt: skip
        return math.fsum(f(x, y) for x, y in pairs) if pairs else DIV0

    return impl


define("SUMX2MY2", "a a")(_pairs_sum(lambda x, y: x * x - y * y))
define("SUMX2PY2", "a a")(_pairs_sum(lambda x, y: x * x + y * y))
define("SUMXMY2", "a a")(_pairs_sum(lambda x, y: (x - y) ** 2))


# --- rounding ---------------------------------------------------------------------------------


def _decimal_round(x: float, digits: float, mode: str) -> float:
    """Rounding as Excel does it: on the number as it shows it, 15 significant digits
    (TRUNC(-0.8999999999999999, 1) is -0.9: Excel sees -0.900000000000000)."""
    try:
        q = Decimal(1).scaleb(-int(digits))
        return float(exact(x).quantize(q, rounding=mode))
    except (InvalidOperation, ValueError, OverflowError):
        return x


def _rounder(mode: str, default: float | None) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
        x, d = args
        digits = default if d is None else d
        assert x is not None and digits is not None
        return _decimal_round(x, digits, mode)

    return impl


define("ROUND", "n n")(_rounder(ROUND_HALF_UP, None))
define("ROUNDUP", "n n")(_rounder(ROUND_UP, None))
define("ROUNDDOWN", "n n")(_rounder(ROUND_DOWN, None))
define("TRUNC", "n n")(_rounder(ROUND_DOWN, 0.0))


def _times(k: float, s: float) -> float:
    """k multiples of s, as the decimal Excel shows (3 x 0.1 is 0.3)."""
    return float(Decimal(repr(float(k))) * exact(s))


def _quotient(x: float, s: float) -> float:
    return float(format(x / s, ".15g"))  # 0.3/0.1 is 3, as Excel's 15 digits show it


def _multiple(up: bool) -> Impl:
    """CEILING and FLOOR (Excel's compatibility forms): ``number`` to a multiple of
    ``significance``; a positive number with a negative significance is #NUM!, and a negative
    number goes away from zero only with a negative significance. A significance of 0 gives
    0 for CEILING; FLOOR of 0 is 0, of anything else #DIV/0!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        x, s = args
        if s == 0:
            return 0.0 if up or x == 0 else DIV0
        if x > 0 and s < 0:
            return NUM
        q = _quotient(x, s)
        return _times(math.ceil(q) if up else math.floor(q), s)

    return impl


define("CEILING", "n n")(_multiple(True))
define("FLOOR", "n n")(_multiple(False))


def _math_multiple(up: bool) -> Impl:
    """CEILING.MATH and FLOOR.MATH: to a multiple of ``significance`` (1 when left out; its
    sign ignored) up or down; a negative number with a ``mode`` other than 0 goes the other
    way (away from zero for CEILING.MATH, toward it for FLOOR.MATH)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
        x, s, mode = args
        assert x is not None
        step = abs(1.0 if s is None else s)
        if step == 0 or x == 0:
            return 0.0
        q = _quotient(x, step)
        toward_up = up
        if x < 0 and mode:
            toward_up = not up
        return _times(math.ceil(q) if toward_up else math.floor(q), step)

    return impl


define("CEILING.MATH", "n n? n?")(_math_multiple(True))
define("FLOOR.MATH", "n n? n?")(_math_multiple(False))


def _precise(up: bool) -> Impl:
    """CEILING.PRECISE, ISO.CEILING and FLOOR.PRECISE: up (toward plus infinity) or down to a
    multiple of the significance's absolute value (1 when left out), whatever the signs."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
        x, s = args
        assert x is not None
        step = abs(1.0 if s is None else s)
        if step == 0:
            return 0.0
        q = _quotient(x, step)
        return _times(math.ceil(q) if up else math.floor(q), step)

    return impl


define("CEILING.PRECISE", "n n?", also=("ISO.CEILING",))(_precise(True))
define("FLOOR.PRECISE", "n n?")(_precise(False))


def toolpak_numbers(book: Book, args: list[Result]) -> list[float] | XlError:
    """The numbers of a function that came from the Analysis ToolPak (MROUND, QUOTIENT), as
    Excel's cached values in IronCalc's MROUND_TRUNC_INT.xlsx and MOD_QUOTIENT.xlsx show
    them: an argument written empty is #N/A, a logical #VALUE!, a range of several cells
    #VALUE!, a blank cell 0, a text read as arithmetic reads it; errors from the left."""
    out: list[float] = []
    for a in args:
        if a is None:
            return NA
        v = one_cell(book, a) if isinstance(a, Area | list) else a
        if isinstance(v, bool):
            return VALUE
        x = number(v)
        if isinstance(x, XlError):
            return x
        out.append(x)
    return out


@define("MROUND", "x x")
def _mround(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """``number`` to the nearest multiple of ``multiple`` (halves away from zero); different
    signs are #NUM!; a quotient too large to have a fraction is taken as it is
    (MROUND(10,1E-100) is 10)."""
    nums = toolpak_numbers(book, args)
    if isinstance(nums, XlError):
        return nums
    x, m = nums
    if m == 0:
        return 0.0
    if x * m < 0:
        return NUM
    q = x / m
    if abs(q) >= 2.0**53:
        return x
    k = Decimal(format(q, ".15g")).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return _times(float(k), m)


def _to_integer(away: bool, odd: bool | None) -> Impl:
    """INT (down), EVEN and ODD (away from zero to the next even or odd integer)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        x = args[0]
        if not away:
            return float(math.floor(x))
        k = math.ceil(abs(x))
        if odd is not None and k % 2 != (1 if odd else 0):
            k += 1
        if odd and k == 0:
            k = 1
        return float(k if x >= 0 else -k)

    return impl


define("INT", "n")(_to_integer(False, None))
define("EVEN", "n")(_to_integer(True, False))
define("ODD", "n")(_to_integer(True, True))


# --- functions of one number --------------------------------------------------------------


def _math1(f: Callable[[float], float]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        try:
            return float(f(args[0]))
        except (ValueError, OverflowError):
            return NUM
        except ZeroDivisionError:
            return DIV0

    return impl


def _exp(x: float) -> float:
    """e^x; below the least normal double, 0 (EXP(-745) is 0 in Excel, not 5E-324)."""
    y = math.exp(x)
    return y if y >= sys.float_info.min else 0.0


define("ABS", "n")(_math1(abs))
define("SIGN", "n")(_math1(lambda x: float((x > 0) - (x < 0))))
define("SQRT", "n")(_math1(math.sqrt))
define("SQRTPI", "n", single=True)(_math1(lambda x: math.sqrt(x * math.pi)))
define("EXP", "n")(_math1(_exp))
define("LN", "n")(_math1(math.log))  # 0 or below: math's domain error, #NUM!
define("LOG10", "n")(_math1(math.log10))


@define("QUOTIENT", "x x")
def _quotient_fn(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The integer part of ``numerator / denominator`` (a function of the Analysis ToolPak:
    :func:`toolpak_numbers`)."""
    nums = toolpak_numbers(book, args)
    if isinstance(nums, XlError):
        return nums
    x, y = nums
    return DIV0 if y == 0 else float(math.trunc(x / y))


@define("ATAN2", "n n")
def _atan2(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    x, y = args
    return DIV0 if x == 0 == y else math.atan2(y, x)  # Excel's order: x first


@define("LOG", "n n?")
def _log(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    x, base = args
    base = 10.0 if base is None else base
    assert x is not None
    if x <= 0 or base <= 0:
        return NUM
    return DIV0 if base == 1 else math.log(x) / math.log(base)


@define("PI", "")
def _pi(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return math.pi


@define("MOD", "n n")
def _mod(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The remainder of ``number / divisor`` with the divisor's sign, exact as C's fmod
    (MOD(5,1E-10) is 9.999981783901343E-11, Excel's cached value in IronCalc's
    MOD_QUOTIENT.xlsx, where 5 - 1E-10 x INT(5/1E-10) is 0)."""
    x, y = args
    if y == 0:
        return DIV0
    rest = math.fmod(x, y)
    return rest + y if rest and (rest < 0) != (y < 0) else rest


@define("POWER", "n n")
def _power(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """``number ^ power``: POWER(0,0) is #NUM! and POWER(0,-1) #DIV/0!, as the operator."""
    return power(args[0], args[1])


# --- volatile: computed at each recalculation, never compared with a saved value ---------------


@define("RAND", "")
def _rand(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """A random number from 0 (included) to 1 (excluded), new at every recalculation."""
    return draws().random()


@define("RANDBETWEEN", "n n", single=True)
def _randbetween(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """A random whole number from ``bottom`` (rounded up) to ``top`` (rounded down)."""
    low, high = math.ceil(args[0]), math.floor(args[1])
    if low > high:
        return NUM
    return float(draws().randint(low, high))


@define("PERCENTOF", "r r")
def _percentof(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """SUM(data_subset)/SUM(data_all), as Excel's documentation defines it: a range's texts
    and logicals left out; a total of 0 #DIV/0!."""
    part, whole = numbers_of(book, [args[0]]), numbers_of(book, [args[1]])
    if isinstance(part, XlError):
        return part
    if isinstance(whole, XlError):
        return whole
    total = running_sum(whole)
    return DIV0 if total == 0 else running_sum(part) / total


@define("SEQUENCE", "n? n? n? n?")
def _sequence(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    """An array of ``rows`` x ``columns`` numbers (1 row, 1 column when left out or written
    empty) from ``start`` by ``step`` (both 1 when left out), row by row; a negative size is
    #VALUE!, a size of 0 (0.3 too) an empty array, #CALC! (Excel's saved values)."""
    rows, cols, start, step = args
    n, m = int(1 if rows is None else rows), int(1 if cols is None else cols)
    first = 1.0 if start is None else start
    by = 1.0 if step is None else step
    if n < 0 or m < 0:
        return VALUE
    if n < 1 or m < 1:
        return XlError("#CALC!")
    if n * m > 1_048_576:
        return NUM
    return [[first + by * (i * m + j) for j in range(m)] for i in range(n)]


def _numbers_in(grid: list[list[Value]]) -> list[list[float]] | XlError:
    for line in grid:
        for v in line:
            if isinstance(v, XlError):
                return v
            if not _is_number(v):
                return VALUE
    return [[float(v) for v in line] for line in grid]  # type: ignore[arg-type]


MAX_PRODUCTS = 1 << 25  # MMULT's multiplications: 33,554,432, a few seconds


@define("MMULT", "a a")
def _mmult(book: Book, sh: str, r: int, c: int, args: list[list[list[Value]]]) -> Result:
    a, b = _numbers_in(args[0]), _numbers_in(args[1])
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    if len(a[0]) != len(b):
        return VALUE
    work = len(a) * len(b) * len(b[0])
    if work > MAX_PRODUCTS:  # 1000 x 1000 by 1000 x 1000: a billion, minutes of Python
        raise Unsupported(
            f"MMULT of {len(a):,} x {len(b):,} by {len(b):,} x {len(b[0]):,} arrays: {work:,} "
            f"products, more than the {MAX_PRODUCTS:,} recalc computes in a formula"
        )
    # each element summed in order, as Excel sums it (not math.fsum, nor the compensated sum()
    # of Python 3.12): the digits of an ill-conditioned model's MMULT(MINVERSE(...)) depend on
    # it; the products and the sum made in C
    columns = list(zip(*b, strict=True))
    return [[functools.reduce(operator.add, map(operator.mul, row, col), 0.0) for col in columns]
            for row in a]  # fmt: skip
