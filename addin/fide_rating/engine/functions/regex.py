"""Excel's REGEX functions (of its text category): REGEXTEST, REGEXEXTRACT, REGEXREPLACE, in
Python's dialect of Excel's PCRE2; a pattern that may backtrack exponentially is reported,
never run.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`.base` and the standard library.
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import Any

from ..formula.values import MAX_TEXT, NA, VALUE, Book, Result, Unsupported, Value
from .base import define


def _regex(pattern: str, insensitive: bool) -> re.Pattern[str]:
    """The pattern compiled; one that may backtrack exponentially (a repetition or a choice
    inside a repetition, ``(a+)+``; a back-reference) is reported, not run: Python's engine
    has no limit on its steps, and 40 characters would take minutes."""
    try:
        found = re.compile(pattern, re.I if insensitive else 0)
        tree = _PARSER.parse(pattern)
    except re.error:
        raise Unsupported(f"the regular expression {pattern[:30]!r}") from None
    risk = _exponential(tree.data, False)
    if risk is not None:
        raise Unsupported(
            f"the regular expression {pattern[:30]!r} has {risk}: it may take exponential time"
        )
    return found


# Python's own reader of regular expressions (``re._parser``, ``sre_parse`` before 3.11)
_PARSER: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")
_REPEATS = frozenset(("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"))


def _exponential(items: Any, repeated: bool) -> str | None:
    """What in a parsed pattern may make a backtracking engine take exponential time, if
    anything: ``repeated`` when the items are inside a repetition of more than one."""
    for op, arg in items:
        kind = str(op)
        if kind in ("GROUPREF", "GROUPREF_EXISTS"):
            return "a back-reference"
        if kind in _REPEATS:
            _, high, body = arg
            many = high > 1
            if many and repeated:
                return "a repetition inside a repetition"
            found = _exponential(body, repeated or many)
        elif kind == "BRANCH":
            if repeated:
                return "alternatives inside a repetition"
            found = next((f for b in arg[1] if (f := _exponential(b, False)) is not None), None)
        elif kind == "SUBPATTERN":
            found = _exponential(arg[-1], repeated)
        elif kind in ("ASSERT", "ASSERT_NOT"):
            found = _exponential(arg[1], repeated)
        elif kind == "ATOMIC_GROUP":
            found = _exponential(arg, repeated)
        else:
            continue
        if found is not None:
            return found
    return None


@define("REGEXTEST", "s s n?")
def _regextest(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    text, pattern, case = args
    assert isinstance(text, str) and isinstance(pattern, str)
    return _regex(pattern, bool(case)).search(text) is not None


@define("REGEXEXTRACT", "s s n? n?")
def _regexextract(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The first match (``return_mode`` 0), every match (1, a row: Excel's cached values in
    IronCalc's REGEX.xlsx) or the first match's groups (2, a row); no match: #N/A."""
    text, pattern, mode, case = args
    assert isinstance(text, str) and isinstance(pattern, str)
    found = _regex(pattern, bool(case))
    how = 0 if mode is None else int(mode)  # type: ignore[arg-type]
    if how == 0:
        m = found.search(text)
        return NA if m is None else m.group()
    if how == 1:
        every: list[Value] = [m.group() for m in found.finditer(text)]
        return [every] if every else NA
    if how == 2:
        m = found.search(text)
        if m is None:
            return NA
        groups = [g if g is not None else "" for g in m.groups()]
        return [groups] if groups else [[m.group()]]
    return VALUE


@define("REGEXREPLACE", "s s s n? n?")
def _regexreplace(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """Each match (or only the n-th, counted from the end when negative) replaced; ``$1`` in
    the replacement is the first group."""
    text, pattern, replacement, nth, case = args
    assert isinstance(text, str) and isinstance(pattern, str) and isinstance(replacement, str)
    found = _regex(pattern, bool(case))
    template = re.sub(r"\$(\d+)", r"\\g<\1>", replacement.replace("\\", "\\\\"))
    n = 0 if nth is None else int(nth)  # type: ignore[arg-type]
    if n == 0:  # piece by piece, never past Excel's longest text
        out: list[str] = []
        size, at = 0, 0
        for m in found.finditer(text):
            piece = text[at : m.start()] + m.expand(template)
            size += len(piece)
            if size > MAX_TEXT:
                return VALUE
            out.append(piece)
            at = m.end()
        return "".join(out) + text[at:]
    spots = list(found.finditer(text))
    if abs(n) > len(spots):
        return text
    m = spots[n - 1] if n > 0 else spots[n]
    return text[: m.start()] + m.expand(template) + text[m.end() :]
