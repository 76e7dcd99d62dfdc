"""The one exception family of the package."""

from __future__ import annotations

from fractions import Fraction


class FideInputError(ValueError):
    """Bad input to a FIDE calculation. The message names the problem and ends with the value."""


def show(value: object) -> str:
    """A value as a user wrote it: texts quoted, exact fractions as decimals."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(float(value))
    return repr(value)


def bad(what: str, value: object) -> FideInputError:
    """``bad("expected a whole-number rating", 1800.5)`` -> "expected ..., got: 1800.5"."""
    return FideInputError(f"{what}, got: {show(value)}")
