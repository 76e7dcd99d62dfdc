"""Logical functions (Excel's category): IF, IFS, SWITCH, IFERROR, IFNA, AND, OR, XOR, NOT,
TRUE, FALSE.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

from ..formula.values import NA, VALUE, Book, Fn, Result, XlError, compare, scalar, truth
from .base import Impl, flatten, one_value, register


@register("IF", lazy=True)
def _if(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    cond = truth(scalar(book, args[0](book, sh, r, c), r, c))
    if isinstance(cond, XlError):
        return cond
    if cond:
        return args[1](book, sh, r, c) if len(args) > 1 else True
    return args[2](book, sh, r, c) if len(args) > 2 else False


@register("IFS", lazy=True)
def _ifs(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    """The value after the first condition that holds; none holds: #N/A."""
    if len(args) % 2:
        return VALUE  # a condition without its value
    for i in range(0, len(args), 2):
        cond = truth(scalar(book, args[i](book, sh, r, c), r, c))
        if isinstance(cond, XlError):
            return cond
        if cond:
            return args[i + 1](book, sh, r, c)
    return NA


@register("SWITCH", lazy=True)
def _switch(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    """The result after the first value equal to the expression (as ``=`` compares), else the
    default when one is given, else #N/A."""
    target = scalar(book, args[0](book, sh, r, c), r, c)
    if isinstance(target, XlError):
        return target
    pairs = len(args) - 1
    for i in range(1, 1 + pairs - pairs % 2, 2):
        v = scalar(book, args[i](book, sh, r, c), r, c)
        if isinstance(v, XlError):
            return v
        if compare("=", target, v) is True:
            return args[i + 1](book, sh, r, c)
    return args[-1](book, sh, r, c) if pairs % 2 else NA


@register("IFERROR", lazy=True)
def _iferror(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    v = scalar(book, args[0](book, sh, r, c), r, c)
    return args[1](book, sh, r, c) if isinstance(v, XlError) else v


@register("IFNA", lazy=True)
def _ifna(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    v = scalar(book, args[0](book, sh, r, c), r, c)
    return args[1](book, sh, r, c) if v == NA else v


def _logic(how: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        seen = []
        for v, from_range in flatten(book, args):
            if isinstance(v, XlError):
                return v
            if v is None or (from_range and isinstance(v, str)):
                continue
            t = truth(v)
            if isinstance(t, XlError):
                return t
            seen.append(t)
        if not seen:
            return VALUE
        if how == "AND":
            return all(seen)
        return any(seen) if how == "OR" else sum(seen) % 2 == 1

    return impl


register("AND")(_logic("AND"))
register("OR")(_logic("OR"))
register("XOR")(_logic("XOR"))  # TRUE when an odd number of the values are TRUE


@register("NOT")
def _not(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    t = truth(one_value(book, args[0], r, c))
    return t if isinstance(t, XlError) else not t


@register("TRUE")
def _true(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return True


@register("FALSE")
def _false(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return False
