"""The one exception family of the package."""

from __future__ import annotations


class FideInputError(ValueError):
    """Bad input to a FIDE calculation. The message names the problem and ends with the value."""


def bad(what: str, value: object) -> FideInputError:
    """``bad("expected a whole-number rating", 1800.5)`` -> "expected ..., got: 1800.5"."""
    return FideInputError(f"{what}, got: {value!r}")
