"""Math and trigonometry (Excel's category): SUM, SUMIF(S), SUMPRODUCT, ROUND, EXP, LN, LOG and
the rest.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation

from ..formula.values import DIV0, NUM, VALUE, Book, Result, XlError, arith, as_grid
from .base import (
    Impl,
    criterion_hits,
    number_arg,
    numbers_of,
    one_value,
    optional_number,
    register,
    sum_where,
    two_numbers,
)


@register("SUM")
def _sum(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else math.fsum(nums)


@register("PRODUCT")
def _product(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = numbers_of(book, args)
    return nums if isinstance(nums, XlError) else math.prod(nums) if nums else 0.0


@register("SUMIF")
def _sumif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return sum_where(
        book, criterion_hits(book, args[0], args[1], r, c), args[2] if len(args) > 2 else args[0]
    )


@register("SUMIFS")
def _sumifs(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    hits = [all(t) for t in zip(*(criterion_hits(book, args[i], args[i + 1], r, c)
                                  for i in range(1, len(args), 2)), strict=True)]  # fmt: skip
    return sum_where(book, hits, args[0])


@register("SUMPRODUCT", arrays=True)
def _sumproduct(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    grids = [as_grid(book, a) for a in args]
    flat = [[v for line in g for v in line] for g in grids]
    if len({len(f) for f in flat}) > 1:
        return VALUE
    total = []
    for items in zip(*flat, strict=True):
        prod = 1.0
        for v in items:
            if isinstance(v, XlError):
                return v
            prod *= float(v) if isinstance(v, float | int) else 0.0
        total.append(prod)
    return math.fsum(total)


def _decimal_round(x: float, digits: float, mode: str) -> float:
    """Rounding as Excel does it: on the number as it shows it, 15 significant digits
    (TRUNC(-0.8999999999999999, 1) is -0.9: Excel sees -0.900000000000000)."""
    try:
        q = Decimal(1).scaleb(-int(digits))
        return float(Decimal(f"{x:.15g}").quantize(q, rounding=mode))
    except (InvalidOperation, ValueError, OverflowError):
        return x


def _rounder(mode: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x = number_arg(book, args[0], r, c)
        d = number_arg(book, args[1], r, c) if len(args) > 1 else 0.0
        if isinstance(x, XlError):
            return x
        if isinstance(d, XlError):
            return d
        return _decimal_round(x, d, mode)

    return impl


register("ROUND")(_rounder(ROUND_HALF_UP))
register("ROUNDUP")(_rounder(ROUND_UP))
register("ROUNDDOWN", "TRUNC")(_rounder(ROUND_DOWN))


def _math1(f: Callable[[float], float]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x = number_arg(book, args[0], r, c)
        if isinstance(x, XlError):
            return x
        try:
            return float(f(x))
        except (ValueError, OverflowError):
            return NUM

    return impl


register("ABS")(_math1(abs))
register("INT")(_math1(lambda x: float(math.floor(x))))
register("SIGN")(_math1(lambda x: float((x > 0) - (x < 0))))
register("SQRT")(_math1(math.sqrt))
register("EXP")(_math1(math.exp))
register("LN")(_math1(math.log))  # 0 or below: math's domain error, #NUM!
register("LOG10")(_math1(math.log10))
register("SIN")(_math1(math.sin))
register("COS")(_math1(math.cos))
register("TAN")(_math1(math.tan))
register("ASIN")(_math1(math.asin))  # outside -1 to 1: math's domain error, #NUM!
register("ACOS")(_math1(math.acos))
register("ATAN")(_math1(math.atan))
register("SINH")(_math1(math.sinh))
register("COSH")(_math1(math.cosh))
register("TANH")(_math1(math.tanh))
register("DEGREES")(_math1(math.degrees))
register("RADIANS")(_math1(math.radians))


@register("ATAN2")
def _atan2(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    both = two_numbers(book, args, r, c)
    if isinstance(both, XlError):
        return both
    x, y = both
    return DIV0 if x == 0 == y else math.atan2(y, x)  # Excel's order: x first


def _multiple(up: bool) -> Impl:
    """CEILING and FLOOR (Excel's compatibility forms): ``number`` to a multiple of
    ``significance``; a positive number with a negative significance is #NUM!, and a negative
    number goes away from zero only with a negative significance."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        both = two_numbers(book, args, r, c)
        if isinstance(both, XlError):
            return both
        x, s = both
        if s == 0:
            return 0.0 if up else DIV0
        if x > 0 and s < 0:
            return NUM
        q = float(format(x / s, ".15g"))  # 0.3/0.1 is 3, as Excel's 15 digits show it
        return (math.ceil(q) if up else math.floor(q)) * s

    return impl


register("CEILING")(_multiple(True))
register("FLOOR")(_multiple(False))


@register("LOG")
def _log(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x = number_arg(book, args[0], r, c)
    base = optional_number(book, args, 1, r, c, 10.0)
    if isinstance(x, XlError):
        return x
    if isinstance(base, XlError):
        return base
    if x <= 0 or base <= 0:
        return NUM
    return DIV0 if base == 1 else math.log(x) / math.log(base)


@register("PI")
def _pi(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return math.pi


@register("MOD")
def _mod(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    both = two_numbers(book, args, r, c)
    if isinstance(both, XlError):
        return both
    x, y = both
    return DIV0 if y == 0 else x - y * math.floor(x / y)


@register("POWER")
def _power(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return arith("^", one_value(book, args[0], r, c), one_value(book, args[1], r, c))
