"""The one rounding rule of the regulations, and exact numbers from user input."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from .errors import bad

Number = int | Fraction | Decimal


def fide_round(x: int | Fraction | Decimal) -> int:
    """Round to a whole number, 0.5 away from zero.

    B.02 2024-03 8.3.4 ("0.5 is rounded away from zero"); 2012-07 8.57 and 2005-07 10.53 ("0.5 is
    rounded up, whether positive or negative"), which FIDE's published calculations apply the same
    way (-2.5 -> -3). Also used for Ru, Rc and p (in hundredths), which are never negative.
    """
    if isinstance(x, int):
        return x
    f = Fraction(x)
    return fide_round_ratio(f.numerator, f.denominator)


def fide_round_ratio(numerator: int, denominator: int) -> int:
    """:func:`fide_round` of numerator / denominator, in integers (the hot loops' form)."""
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    if numerator < 0:
        return -((-2 * numerator + denominator) // (2 * denominator))
    return (2 * numerator + denominator) // (2 * denominator)


def percent(score: Fraction, games: int) -> int:
    """p = score / games in whole hundredths, 0.005 rounded up (the note under 8.1.1)."""
    if games <= 0:
        raise bad("expected at least one game to compute a fractional score", games)
    return fide_round(Fraction(score) * 100 / games)


def exact(value: object, what: str = "number") -> Fraction:
    """An exact Fraction from int, Fraction, Decimal or a float (taken at its decimal repr)."""
    if isinstance(value, bool):
        raise bad(f"expected a {what}", value)
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise bad(f"expected a finite {what}", value)
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise bad(f"expected a finite {what}", value)
        # 0.29 means 29/100 to a user, not the nearest binary fraction
        return Fraction(repr(value))
    raise bad(f"expected a {what}", value)
