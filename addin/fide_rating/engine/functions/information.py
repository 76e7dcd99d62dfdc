"""Information functions (Excel's category): NA, the IS functions (ISEVEN, ISODD too), N.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.values import NA, VALUE, Book, Result, Value, XlError, number
from .base import Impl, one_value, register


@register("NA")
def _na(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return NA


def _is(test: Callable[[Value], bool]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        return test(one_value(book, args[0], r, c))

    return impl


register("ISBLANK")(_is(lambda v: v is None))
register("ISNUMBER")(_is(lambda v: isinstance(v, float | int) and not isinstance(v, bool)))
register("ISTEXT")(_is(lambda v: isinstance(v, str)))
register("ISNONTEXT")(_is(lambda v: not isinstance(v, str)))
register("ISLOGICAL")(_is(lambda v: isinstance(v, bool)))
register("ISERROR")(_is(lambda v: isinstance(v, XlError)))
register("ISERR")(_is(lambda v: isinstance(v, XlError) and v != NA))
register("ISNA")(_is(lambda v: v == NA))


@register("N")
def _n(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    v = one_value(book, args[0], r, c)
    if isinstance(v, XlError):
        return v
    return 1.0 * v if isinstance(v, float | int) else 0.0


def _parity(odd: bool) -> Impl:
    """ISEVEN and ISODD: the number truncated (a blank is 0); a logical is #VALUE!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        v = one_value(book, args[0], r, c)
        if isinstance(v, bool):
            return VALUE
        x = 0.0 if v is None else number(v)
        return x if isinstance(x, XlError) else (int(x) % 2 == 1) == odd

    return impl


register("ISEVEN")(_parity(False))
register("ISODD")(_parity(True))
