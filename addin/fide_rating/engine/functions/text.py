"""Text functions (Excel's category): LEN, UPPER, LOWER, TRIM, VALUE, LEFT, MID, CONCAT, EXACT,
FIND, SEARCH, SUBSTITUTE, REPLACE, REPT, CODE, CHAR, UNICODE, UNICHAR, TEXT.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base`, :mod:`.numfmt` and the
standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..formula.values import (
    NA,
    VALUE,
    Book,
    Result,
    Unsupported,
    Value,
    XlError,
    number,
    text_of,
)
from .base import Impl, flatten, number_arg, one_value, optional_number, register, wildcards
from .numfmt import format_text


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


@register("REPLACE")
def _replace(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """``num_chars`` characters of ``old_text`` from ``start_num`` replaced by ``new_text``."""
    old = text_of(one_value(book, args[0], r, c))
    start, n = number_arg(book, args[1], r, c), number_arg(book, args[2], r, c)
    new = text_of(one_value(book, args[3], r, c))
    for v in (old, start, n, new):
        if isinstance(v, XlError):
            return v
    assert isinstance(old, str) and isinstance(new, str)
    assert isinstance(start, float) and isinstance(n, float)
    if start < 1 or n < 0:
        return VALUE
    at = int(start) - 1
    return old[:at] + new + old[at + int(n) :]


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


def _position(case: bool) -> Impl:
    """FIND (case-sensitive, literal) and SEARCH (any case, wildcards): where the text starts."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        find = text_of(one_value(book, args[0], r, c))
        within = text_of(one_value(book, args[1], r, c))
        start = optional_number(book, args, 2, r, c, 1.0)
        for v in (find, within, start):
            if isinstance(v, XlError):
                return v
        assert isinstance(find, str) and isinstance(within, str) and isinstance(start, float)
        at = int(start) - 1
        if at < 0 or at > len(within):
            return VALUE
        if case:
            found = within.find(find, at)
        else:
            m = wildcards(find).search(within, at)
            found = -1 if m is None else m.start()
        return VALUE if found < 0 else float(found + 1)

    return impl


register("FIND")(_position(True))
register("SEARCH")(_position(False))


@register("SUBSTITUTE")
def _substitute(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    parts = [text_of(one_value(book, a, r, c)) for a in args[:3]]
    nth = number_arg(book, args[3], r, c) if len(args) > 3 else None  # empty: 0, #VALUE!
    for v in (*parts, nth):
        if isinstance(v, XlError):
            return v
    text, old, new = (str(p) for p in parts)
    if not old:
        return text
    if nth is None:
        return text.replace(old, new)
    k = int(nth)  # type: ignore[arg-type]
    if k < 1:
        return VALUE
    at = -1
    for _ in range(k):
        at = text.find(old, at + 1)
        if at < 0:
            return text
    return text[:at] + new + text[at + len(old) :]


@register("REPT")
def _rept(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    t = text_of(one_value(book, args[0], r, c))
    n = number_arg(book, args[1], r, c)
    if isinstance(t, XlError):
        return t
    if isinstance(n, XlError):
        return n
    if n < 0 or len(t) * int(n) > _LONGEST:
        return VALUE
    return t * int(n)


_LONGEST = 32767  # characters in a cell
_ANSI = "cp1252"  # CODE and CHAR on Windows Excel: the Western code page


def _first_char(book: Book, v: Result, r: int, c: int) -> str | XlError:
    t = text_of(one_value(book, v, r, c))
    if isinstance(t, XlError):
        return t
    return t[0] if t else VALUE


@register("CODE")
def _code(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    ch = _first_char(book, args[0], r, c)
    if isinstance(ch, XlError):
        return ch
    try:
        return float(ch.encode(_ANSI)[0])
    except UnicodeEncodeError:
        return 63.0  # "?": Excel's code for a character outside the code page


@register("UNICODE")
def _unicode(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    ch = _first_char(book, args[0], r, c)
    return ch if isinstance(ch, XlError) else float(ord(ch))


@register("CHAR")
def _char(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    n = number_arg(book, args[0], r, c)
    if isinstance(n, XlError):
        return n
    k = int(n)
    if not 1 <= k <= 255:
        return VALUE
    return bytes([k]).decode(_ANSI, errors="ignore") or chr(k)  # 0x81, 0x8D ...: as Latin-1


@register("UNICHAR")
def _unichar(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    n = number_arg(book, args[0], r, c)
    if isinstance(n, XlError):
        return n
    k = int(n)
    if not 1 <= k <= 0x10FFFF:
        return VALUE
    return NA if 0xD800 <= k <= 0xDFFF else chr(k)  # a lone surrogate half: #N/A


@register("TEXT")
def _text(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """A value shown with a number format (see :mod:`.numfmt`). A text that reads as a number
    is formatted as one; a logical is its text; a date or time written as text is reported:
    Excel reads more of those than VALUE does."""
    v = one_value(book, args[0], r, c)
    code = text_of(one_value(book, args[1], r, c))
    if isinstance(v, XlError):
        return v
    if isinstance(code, XlError):
        return code
    if isinstance(v, bool):
        return format_text("TRUE" if v else "FALSE", code)
    if isinstance(v, str):
        x = number(v)
        if not isinstance(x, XlError):
            return format_text(x, code)
        if re.search(r"\d[-/:.]|[-/:.]\d", v):
            raise Unsupported(f"TEXT of the date or time text {v[:20]!r}")
        return format_text(v, code)
    return format_text(0.0 if v is None else float(v), code)
