"""Engineering functions (Excel's category): the base conversions, DEC2BIN to HEX2OCT.

Excel's rules, as its function reference gives them and as the conformance corpus's saved
values show them: a binary, octal or hexadecimal number is at most ten digits (a text, or a
number read as its digits), the tenth digit's top bit making it negative (two's complement);
``places`` is checked first (1 to 10, else #NUM!) and is ignored for a negative result, which
is always ten digits; a result that does not fit ten digits, or ``places``, is #NUM!.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

from ..formula.coerce import number, text_of
from ..formula.values import NUM, VALUE, Book, Result, Value, XlError
from .base import Impl, define

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
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        width = 0
        places = args[1] if len(args) > 1 else None
        if places is not None:  # places is checked before the number
            assert isinstance(places, float)
            width = int(places)
            if not 1 <= width <= _DIGITS:
                return NUM
        if source == 10:
            x = number(args[0])
            n: int | XlError = x if isinstance(x, XlError) else int(x)  # Excel truncates
        else:
            n = _read(args[0], source)
        return n if isinstance(n, XlError) else _write(n, target, width)

    return impl


for _source, _from in _NAMES.items():
    for _target, _to in _NAMES.items():
        if _source != _target:
            define(f"{_from}2{_to}", "v" if _target == 10 else "v n", single=True)(
                _convert(_source, _target)
            )
