"""Text functions (Excel's category): LEN, UPPER, LOWER, TRIM, VALUE, LEFT, MID, CONCAT, EXACT.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.values import VALUE, Book, Result, Value, XlError, number, text_of
from .base import Impl, flatten, number_arg, one_value, register


def _text1(f: Callable[[str], Value]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        t = text_of(one_value(book, args[0], r, c))
        return t if isinstance(t, XlError) else f(t)

    return impl


register("LEN")(_text1(lambda t: float(len(t))))
register("UPPER")(_text1(str.upper))
register("LOWER")(_text1(str.lower))
register("TRIM")(_text1(lambda t: " ".join(part for part in t.split(" ") if part)))


@register("VALUE")
def _value(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    v = one_value(book, args[0], r, c)
    return 0.0 if v is None else number(text_of(v) if isinstance(v, bool) else v)  # blank: 0


def _cut(which: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        t = text_of(one_value(book, args[0], r, c))
        if isinstance(t, XlError):
            return t
        if which == "MID":
            start, n = number_arg(book, args[1], r, c), number_arg(book, args[2], r, c)
            if isinstance(start, XlError):
                return start  # an error argument is the result (Excel propagates it)
            if isinstance(n, XlError):
                return n
            return t[int(start) - 1 : int(start) - 1 + int(n)] if start >= 1 and n >= 0 else VALUE
        n = number_arg(book, args[1], r, c) if len(args) > 1 else 1.0
        if isinstance(n, XlError):
            return n
        if n < 0:
            return VALUE
        k = int(n)
        return t[:k] if which == "LEFT" else (t[-k:] if k else "")

    return impl


register("LEFT")(_cut("LEFT"))
register("RIGHT")(_cut("RIGHT"))
register("MID")(_cut("MID"))


@register("CONCATENATE", "CONCAT")
def _concat(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    out = []
    for v, _ in flatten(book, args):
        t = text_of(v)
        if isinstance(t, XlError):
            return t
        out.append(t)
    return "".join(out)


@register("EXACT")
def _exact(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a, b = text_of(one_value(book, args[0], r, c)), text_of(one_value(book, args[1], r, c))
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    return a == b
