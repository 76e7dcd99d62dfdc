"""Engineering functions (Excel's category): the base conversions, DEC2BIN to HEX2OCT; ERF,
ERFC and their .PRECISE forms, DELTA, GESTEP and the bitwise functions (BITAND, BITOR,
BITXOR, BITLSHIFT, BITRSHIFT: whole numbers from 0 to 2^48 - 1, else #NUM!).

Excel's rules, as its function reference gives them and as the conformance corpus's saved
values show them: a binary, octal or hexadecimal number is at most ten digits (a text, or a
number read as its digits), the tenth digit's top bit making it negative (two's complement);
``places`` is checked first (1 to 10, else #NUM!) and is ignored for a negative result, which
is always ten digits; a logical, for the number or for ``places``, is #VALUE!; a result
that does not fit ten digits, or ``places``, is #NUM!.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from typing import Any

from ..formula.coerce import number, text_of
from ..formula.values import NUM, VALUE, Area, Book, Result, Value, XlError
from .base import Impl, define, one_cell

_DIGITS = 10  # at most ten digits; a negative number: ten digits of two's complement
_FORMAT = {2: "b", 8: "o", 16: "X"}
_NAMES = {2: "BIN", 8: "OCT", 10: "DEC", 16: "HEX"}
_VALID = {base: set("0123456789ABCDEF"[:base]) for base in (2, 8, 16)}


def _bits(base: int) -> int:
    return _DIGITS * {2: 1, 8: 3, 16: 4}[base]


def _read(v: Value, base: int) -> int | XlError:
    """The number a BIN2/OCT2/HEX2 function is given, as an integer."""
    if isinstance(v, bool):
        return VALUE
    text = text_of(v)
    if isinstance(text, XlError):
        return text
    text = text.strip()
    if len(text) > _DIGITS:
        return NUM
    if not text:
        return 0
    if not set(text.upper()) <= _VALID[base]:  # no sign, prefix ("0x") or separator
        return NUM
    n = int(text, base)
    bits = _bits(base)
    if len(text) == _DIGITS and n >= 1 << (bits - 1):
        n -= 1 << bits  # two's complement
    return n


def _write(n: int, base: int, width: int) -> Result:
    """``n`` in ``base`` (ten digits of two's complement when negative), to ``width`` digits
    (0: as many as it takes)."""
    if base == 10:
        return float(n)
    bits = _bits(base)
    if not -(1 << (bits - 1)) <= n < 1 << (bits - 1):
        return NUM
    digits = format(n % (1 << bits), _FORMAT[base])
    if n < 0 or not width:
        return digits
    return NUM if width < len(digits) else digits.rjust(width, "0")


def _convert(source: int, target: int) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
        width = 0
        places = args[1] if len(args) > 1 else None
        if isinstance(places, Area | list):  # a blank cell is 0 places, #NUM!
            places = one_cell(book, places)
            places = 0.0 if places is None else places
        if places is not None:  # places is checked before the number
            found = VALUE if isinstance(places, bool) else number(places)
            if isinstance(found, XlError):
                return found
            width = int(found)
            if not 1 <= width <= _DIGITS:
                return NUM
        if source == 10:
            x = VALUE if isinstance(args[0], bool) else number(args[0])
            n: int | XlError = x if isinstance(x, XlError) else int(x)  # Excel truncates
        else:
            n = _read(args[0], source)
        return n if isinstance(n, XlError) else _write(n, target, width)

    return impl


for _source, _from in _NAMES.items():
    for _target, _to in _NAMES.items():
        if _source != _target:
            define(f"{_from}2{_to}", "v" if _target == 10 else "v x", single=True)(
                _convert(_source, _target)
            )


# --- the error function, GESTEP, DELTA and the bitwise functions --------------------------


def _numbers(args: list[Value]) -> list[float | None] | XlError:
    """The numbers given (None for one left out): a logical is #VALUE!, as for every
    function of the Analysis ToolPak."""
    out: list[float | None] = []
    for v in args:
        if v is None:
            out.append(None)
            continue
        x = VALUE if isinstance(v, bool) else number(v)
        if isinstance(x, XlError):
            return x
        out.append(x)
    return out


def _erf(complement: bool, two: bool) -> Impl:
    """ERF (from ``lower`` to ``upper``, or from 0), ERF.PRECISE, ERFC and ERFC.PRECISE."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = _numbers(args)
        if isinstance(found, XlError):
            return found
        x = found[0] or 0.0
        if complement:
            return math.erfc(x)
        upper = found[1] if two and len(found) > 1 else None
        return math.erf(x) if upper is None else math.erf(upper) - math.erf(x)

    return impl


define("ERF", "v n?", single=True)(_erf(False, True))  # an empty upper cell is 0
define("ERF.PRECISE", "v", single=True)(_erf(False, False))
define("ERFC", "v", also=("ERFC.PRECISE",), single=True)(_erf(True, False))


def _compare(equal: bool) -> Impl:
    """DELTA (1 where two numbers are equal) and GESTEP (1 where a number is at least the
    step), the second number 0 when left out."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = _numbers(args)
        if isinstance(found, XlError):
            return found
        a, b = found[0] or 0.0, found[1] or 0.0 if len(found) > 1 else 0.0
        return float(a == b) if equal else float(a >= b)

    return impl


define("DELTA", "v v?", single=True)(_compare(True))
define("GESTEP", "v v?", single=True)(_compare(False))

_BITS = 2**48  # the bitwise functions take whole numbers from 0 to 2^48 - 1


def _whole(x: float) -> int | None:
    return int(x) if x == int(x) and 0 <= x < _BITS else None


def _bitwise(op: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        a, b = _whole(args[0]), _whole(args[1])
        if a is None or b is None:
            return NUM
        return float(a & b if op == "and" else a | b if op == "or" else a ^ b)

    return impl


define("BITAND", "n n")(_bitwise("and"))
define("BITOR", "n n")(_bitwise("or"))
define("BITXOR", "n n")(_bitwise("xor"))


def _shift(left: bool) -> Impl:
    """BITLSHIFT and BITRSHIFT: a negative shift goes the other way; at most 53 places, and
    the result below 2^48."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        n, by = _whole(args[0]), math.trunc(args[1])
        if n is None or abs(by) > 53:
            return NUM
        if not left:
            by = -by
        out = n << by if by >= 0 else n >> -by
        return float(out) if out < _BITS else NUM

    return impl


define("BITLSHIFT", "n n")(_shift(True))
define("BITRSHIFT", "n n")(_shift(False))
