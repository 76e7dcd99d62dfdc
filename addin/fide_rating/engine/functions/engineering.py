"""Engineering functions (Excel's category): DEC2BIN, DEC2OCT, DEC2HEX.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

from ..formula.values import NUM, Book, Result, XlError
from .base import Impl, number_arg, register

_DIGITS = 10  # a negative number: ten digits of two's complement
_FORMAT = {2: "b", 8: "o", 16: "X"}


def _dec2(base: int) -> Impl:
    bits = _DIGITS * {2: 1, 8: 3, 16: 4}[base]  # ten digits' worth
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1  # DEC2BIN: -512 to 511

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x = number_arg(book, args[0], r, c)
        if isinstance(x, XlError):
            return x
        n = int(x)  # Excel truncates
        if not low <= n <= high:
            return NUM
        digits = format(n % (1 << bits), _FORMAT[base])
        if n < 0:
            return digits  # ten digits already; places is ignored for a negative number
        if len(args) < 2:
            return digits
        places = number_arg(book, args[1], r, c)
        if isinstance(places, XlError):
            return places
        width = int(places)
        if width < 1 or width > _DIGITS or width < len(digits):
            return NUM
        return digits.rjust(width, "0")

    return impl


register("DEC2BIN")(_dec2(2))
register("DEC2OCT")(_dec2(8))
register("DEC2HEX")(_dec2(16))
