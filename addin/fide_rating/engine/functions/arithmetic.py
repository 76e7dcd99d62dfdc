"""More of Excel's Math and trigonometry category: BASE and DECIMAL (a number in any base
from 2 to 36), MULTINOMIAL and SERIESSUM.

Excel's function reference is the specification: whole numbers are truncated; a number
outside its range (BASE: 0 to 2^53 - 1; a base outside 2 to 36; a length past 255) is
``#NUM!``.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

import math

from ..formula.coerce import number, power
from ..formula.values import NUM, VALUE, Book, Result, Value, XlError, as_grid
from .base import define, flatten

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@define("BASE", "n n n?")
def _base(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    """A number written in ``radix``, padded with zeros to ``min_length``."""
    n, radix, length = args
    assert n is not None and radix is not None
    whole, base = math.trunc(n), math.trunc(radix)
    width = 0 if length is None else math.trunc(length)
    if not 0 <= whole < 2**53 or not 2 <= base <= 36 or not 0 <= width <= 255:
        return NUM
    digits = ""
    while whole:
        whole, d = divmod(whole, base)
        digits = _DIGITS[d] + digits
    return (digits or "0").rjust(width, "0")


@define("DECIMAL", "s n")
def _decimal(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A number written in ``radix`` (letters of either case), as a number."""
    text, radix = args
    assert isinstance(text, str) and isinstance(radix, float)
    base = math.trunc(radix)
    if not 2 <= base <= 36 or len(text) > 255:
        return NUM
    value = 0
    for ch in text.strip().upper():
        d = _DIGITS.find(ch)
        if not 0 <= d < base:
            return NUM
        value = value * base + d
    return float(value) if value < 2**53 else NUM


@define("MULTINOMIAL", "r")
def _multinomial(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """(a + b + ...)! / (a! b! ...), the numbers truncated; a negative one: #NUM!. A
    logical or a text among them is #VALUE! (an Analysis ToolPak function), a blank 0."""
    whole: list[int] = []
    for v, _ in flatten(book, args):
        if isinstance(v, XlError):
            return v
        if v is None:
            continue
        x = VALUE if isinstance(v, bool) else number(v)
        if isinstance(x, XlError):
            return x
        whole.append(math.trunc(x))
    if any(n < 0 for n in whole):
        return NUM
    total = sum(whole)
    if total > 170:  # past a double's factorials
        return NUM
    out = math.factorial(total)
    for n in whole:
        out //= math.factorial(n)
    return float(out)


@define("SERIESSUM", "v v v x")
def _seriessum(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Σ a_i x^(n + i m), the a_i the coefficients in order (a text or blank: #VALUE!), each
    power as ``^`` computes it (0^0 is #NUM!); a logical given is #VALUE!."""
    found: list[float] = []
    for v in args[:3]:
        x = VALUE if v is None or isinstance(v, bool) else number(v)  # type: ignore[arg-type]
        if isinstance(x, XlError):
            return x
        found.append(x)
    x, n, m = found
    total = 0.0
    i = 0
    for line in as_grid(book, args[3]):
        for a in line:
            if isinstance(a, XlError):
                return a
            if a is None or isinstance(a, bool | str):
                return VALUE
            coefficient = number(a)
            if isinstance(coefficient, XlError):
                return coefficient
            term = power(x, n + i * m)
            if isinstance(term, XlError):
                return term
            total += coefficient * term
            i += 1
    return total
