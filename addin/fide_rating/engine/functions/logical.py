"""Logical functions (Excel's category): IF, IFS, SWITCH, IFERROR, IFNA, AND, OR, XOR, NOT,
TRUE, FALSE, LET.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

from typing import Any

from ..formula.coerce import compare, truth
from ..formula.values import NA, VALUE, Book, Fn, Result, Value, XlError, scalar
from .base import Impl, define, flatten


def _value(book: Book, f: Fn, sh: str, r: int, c: int) -> Value:
    return scalar(book, f(book, sh, r, c), r, c)


@define("IF", "b f f")
def _if(book: Book, sh: str, r: int, c: int, args: list[Fn | None]) -> Result:
    """The second argument when the condition holds, else the third (FALSE when left out, 0
    when written empty)."""
    cond, then, other = args
    if cond:
        return then(book, sh, r, c) if then is not None else True
    return other(book, sh, r, c) if other is not None else False


@define("IFS", "f f", repeat=2)
def _ifs(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    """The value after the first condition that holds; none holds: #N/A."""
    if len(args) % 2:
        return VALUE  # a condition without its value
    for i in range(0, len(args), 2):
        cond = truth(_value(book, args[i], sh, r, c))
        if isinstance(cond, XlError):
            return cond
        if cond:
            return args[i + 1](book, sh, r, c)
    return NA


@define("SWITCH", "f f f", repeat=2)
def _switch(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    """The result after the first value equal to the expression (as ``=`` compares), else the
    default when one is given, else #N/A."""
    target = _value(book, args[0], sh, r, c)
    if isinstance(target, XlError):
        return target
    pairs = len(args) - 1
    for i in range(1, 1 + pairs - pairs % 2, 2):
        v = _value(book, args[i], sh, r, c)
        if isinstance(v, XlError):
            return v
        if compare("=", target, v) is True:
            return args[i + 1](book, sh, r, c)
    return args[-1](book, sh, r, c) if pairs % 2 else NA


@define("IFERROR", "e f")
def _iferror(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
    v, other = args
    return other(book, sh, r, c) if isinstance(v, XlError) else v  # type: ignore[no-any-return]


@define("IFNA", "e f")
def _ifna(book: Book, sh: str, r: int, c: int, args: list[Any]) -> Result:
    v, other = args
    return other(book, sh, r, c) if v == NA else v  # type: ignore[no-any-return]


def _logic(how: str) -> Impl:
    """AND, OR and XOR over values and ranges: blanks and texts skipped (a text typed in too,
    unless it is TRUE or FALSE: ``AND(TRUE,"0")`` is TRUE, as Excel saves it), numbers TRUE
    unless 0, any error the result; #VALUE! when no logical is left."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        seen = []
        for v, from_range in flatten(book, args):
            if isinstance(v, XlError):
                return v
            if v is None:
                continue
            if isinstance(v, str):
                if from_range or v.strip().upper() not in ("TRUE", "FALSE"):
                    continue
                seen.append(v.strip().upper() == "TRUE")
            else:
                seen.append(bool(v))
        if not seen:
            return VALUE
        if how == "AND":
            return all(seen)
        return any(seen) if how == "OR" else sum(seen) % 2 == 1

    return impl


define("AND", "r", union=True)(_logic("AND"))
define("OR", "r", union=True)(_logic("OR"))
define("XOR", "r", union=True)(_logic("XOR"))  # TRUE when an odd number of the values are


@define("NOT", "b")
def _not(book: Book, sh: str, r: int, c: int, args: list[bool]) -> Result:
    return not args[0]


@define("TRUE", "")
def _true(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return True


@define("FALSE", "")
def _false(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return False
