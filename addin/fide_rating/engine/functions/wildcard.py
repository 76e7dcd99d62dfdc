"""Excel's wildcards (COUNTIF, MATCH, VLOOKUP, SEARCH ...), matched in time linear in the text.

``*`` is any run of characters, ``?`` one character, ``~`` before either (or before ``~``) the
character itself; letters match regardless of case. A pattern is the pieces between its stars;
each piece is found in turn (leftmost first, or rightmost first from the end), never tried
again: a backtracking matcher (a regular expression) takes exponential time on
``*a*a*a*a*a*a*a*a*a*a*a*a*b`` against 40 a's, this one as long as one scan per piece.

A pattern is compiled once (:func:`compiled` keeps the last thousand): an array formula's
``SEARCH("x",A1:A30000)`` or ``COUNTIF`` over many criteria meets the same text again and again.

May import: the standard library only.
"""

from __future__ import annotations

import functools

ANY = None  # a ``?`` in a piece
Piece = tuple[str | None, ...]


def fold(text: str) -> str:
    """A text for comparing regardless of case, character by character (a character whose
    lower case is longer, as ``İ``'s, stays as it is: positions keep their meaning)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


class Wildcard:
    """A wildcard pattern: its pieces between stars (the first anchored at the start of the
    text, the last at its end, when there are stars)."""

    def __init__(self, pattern: str) -> None:
        pieces: list[list[str | None]] = [[]]
        escaped = False
        for ch in fold(pattern):
            if escaped and ch not in "*?~":
                pieces[-1].append("~")  # a tilde before anything else is itself
            if escaped or ch not in "*?~":
                pieces[-1].append(ch)
                escaped = False
            elif ch == "~":
                escaped = True
            elif ch == "?":
                pieces[-1].append(ANY)
            else:
                pieces.append([])
        if escaped:
            pieces[-1].append("~")
        self.pieces: tuple[Piece, ...] = tuple(tuple(p) for p in pieces)
        # each piece's longest run of characters, found first (:func:`_chunk`)
        self.chunks = tuple(_chunk(p) for p in self.pieces)
        # a pattern without wildcards: the folded text itself, compared or found as it is
        self.plain: str | None = None
        if len(self.pieces) == 1 and ANY not in self.pieces[0]:
            self.plain = "".join(self.pieces[0])  # type: ignore[arg-type]

    def fullmatch(self, text: str) -> bool:
        """Whether the whole text matches."""
        s = fold(text)
        if self.plain is not None:
            return s == self.plain
        first, *middle = self.pieces
        if len(self.pieces) == 1:
            return len(s) == len(first) and _at(s, first, 0)
        last = middle.pop()
        end = len(s) - len(last)
        if end < len(first) or not _at(s, first, 0) or not _at(s, last, end):
            return False
        at = len(first)
        for piece, chunk in zip(middle, self.chunks[1:-1], strict=True):
            found = _find(s, piece, at, end, chunk)
            if found < 0:
                return False
            at = found + len(piece)
        return True

    def search(self, text: str, start: int = 0) -> int:
        """The first place from ``start`` where a match begins (the pattern followed by
        anything), or -1."""
        s = fold(text)
        if self.plain is not None:
            return s.find(self.plain, start)
        first = self.pieces[0]
        if len(self.pieces) == 1:
            return _find(s, first, start, len(s), self.chunks[0])
        # the rest, placed as far right as it goes: the latest place the first piece may end
        limit = len(s)
        for k in range(len(self.pieces) - 1, 0, -1):
            found = _rfind(s, self.pieces[k], 0, limit, self.chunks[k])
            if found < 0:
                return -1
            limit = found
        return _find(s, first, start, limit, self.chunks[0])


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str) -> Wildcard:
    """The pattern compiled, once for each text (a :class:`Wildcard` is never changed)."""
    return Wildcard(pattern)


def _at(s: str, piece: Piece, i: int) -> bool:
    """Whether ``piece`` matches ``s`` at ``i``."""
    if i < 0 or i + len(piece) > len(s):
        return False
    return all(p is ANY or p == s[i + k] for k, p in enumerate(piece))


def _chunk(piece: Piece) -> tuple[int, str]:
    """The piece's longest run of characters (no ``?``), and where it starts in the piece."""
    best, best_at, run, run_at = "", 0, "", 0
    for k, p in enumerate((*piece, ANY)):
        if p is ANY:
            if len(run) > len(best):
                best, best_at = run, run_at
            run, run_at = "", k + 1
        else:
            run += p
    return best_at, best


def _find(s: str, piece: Piece, start: int, end: int, longest: tuple[int, str]) -> int:
    """The first ``i`` from ``start`` with ``piece`` matching at ``i`` and ending by ``end``
    (``longest``: the piece's :func:`_chunk`); -1 for none."""
    last = end - len(piece)  # the last place the piece may start
    if start > last:
        return -1
    offset, chunk = longest
    if not chunk:  # only ``?``: any place will do
        return start
    i = start
    while i <= last:
        hit = s.find(chunk, i + offset, last + offset + len(chunk))
        if hit < 0:
            return -1
        i = hit - offset
        if _at(s, piece, i):
            return i
        i += 1
    return -1


def _rfind(s: str, piece: Piece, start: int, end: int, longest: tuple[int, str]) -> int:
    """The last ``i`` from ``start`` with ``piece`` matching at ``i`` and ending by ``end``
    (``longest``: the piece's :func:`_chunk`); -1 for none."""
    last = end - len(piece)
    if start > last:
        return -1
    offset, chunk = longest
    if not chunk:
        return last
    i = last
    while i >= start:
        hit = s.rfind(chunk, start + offset, i + offset + len(chunk))
        if hit < 0:
            return -1
        i = hit - offset
        if _at(s, piece, i):
            return i
        i -= 1
    return -1
