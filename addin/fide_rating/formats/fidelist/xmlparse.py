"""FIDE's XML list read by an XML parser (expat): comments and processing instructions
skipped, CDATA sections and character references read as text, XML's five entities and no
other (a document type or entity declaration is refused), names in a namespace told from
FIDE's. :mod:`.xmllist` reads the usual list faster and hands this module every part it cannot
prove plain: a block with an entity, an attribute or an unknown element, and the whole rest of
the list from the first comment, CDATA section or processing instruction on.

A ``<player>`` is a child of ``<playerslist>``; its fields are its children, each holding text
only. A field given twice, holding an element, or in a namespace, is a problem of that player
(reported, the player not read), never a value picked from among others. A document that is not
well-formed XML is refused, naming the byte where it goes wrong.

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Iterator
from xml.parsers import expat

from .common import (
    MAX_DIGITS,
    MAX_PLAYER,
    ListedPlayer,
    ListFileError,
    batch_keys,
    digits,
    number,
)
from .textlist import record

XML_FIELDS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
              "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
              "blitz_games", "blitz_k", "birthday", "flag")  # fmt: skip
_FIELDS = frozenset(XML_FIELDS)
ROOT = "playerslist"
PIECE = 1 << 16  # bytes given to the parser at a time: what it holds unparsed is checked after each

# keys (uint64, see batch_keys), records, problems (the player's number in the part), players seen
Block = tuple[bytes, bytes, list[tuple[int, str]], int]


def player_of(values: dict[str, str], count: int) -> ListedPlayer | str:
    """A player from its fields' texts (the count-th of its part), or what is wrong."""
    fide_id = values.get("fideid", "").strip()
    if not digits(fide_id) or len(fide_id) > MAX_DIGITS:
        return (
            f"player {count}: expected a FIDE ID (at most {MAX_DIGITS} digits) in <fideid>, "
            f"got {fide_id[:20]!r}"
        )
    numbers = {}
    for key in XML_FIELDS[8:18]:
        value = number(values.get(key, ""))
        if value == -1:
            return f"player {fide_id}: <{key}> expected a number, got {values[key].strip()[:12]!r}"
        numbers[key] = value
    if not values.get("name", "").strip():
        return f"player {fide_id}: no name"
    return ListedPlayer(
        int(fide_id),
        values["name"].strip(),
        values.get("country", "").strip(),
        values.get("sex", "").strip(),
        values.get("title", "").strip(),
        values.get("w_title", "").strip(),
        values.get("o_title", "").strip(),
        numbers["rating"] or None,
        numbers["games"] or 0,
        numbers["k"] or None,
        numbers["rapid_rating"] or None,
        numbers["rapid_games"] or 0,
        numbers["rapid_k"] or None,
        numbers["blitz_rating"] or None,
        numbers["blitz_games"] or 0,
        numbers["blitz_k"] or None,
        numbers["birthday"] or None,
        values.get("flag", "").strip().lower(),
    )


def _shown(name: str) -> str:
    """An element's name as written: ``rating``, or ``rating`` in the namespace ``urn:x``."""
    uri, _, local = name.rpartition(" ")
    return f"<{local}> in the namespace {uri!r}" if uri else f"<{local}>"


class Players:
    """An expat parser that gathers the players of the XML it is given (from byte ``at`` of
    the list), as index records, keys and problems (see :data:`Block`).

    ``root``: the start tag of ``<playerslist>`` as the list writes it, given first (for a part
    of the list from just after a ``</player>``); None for the whole document."""

    def __init__(self, at: int, root: bytes | None) -> None:
        self._at = at - (len(root) if root else 0)  # the list's byte of the parser's first
        parser = expat.ParserCreate("utf-8" if root else None, " ")
        parser.buffer_text = True
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text
        for name in ("Comment", "ProcessingInstruction", "StartCdataSection"):
            setattr(parser, f"{name}Handler", self._event)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._doctype
        self._parser = parser
        self._fed = 0  # bytes given to the parser
        self._event_at = 0  # where its last event was
        self._depth = 0
        self._player_at = -1  # where the player being read starts (-1: none)
        self._values: dict[str, str] = {}
        self._field: str | None = None  # the field being read, its text so far
        self._parts: list[str] = []
        self._size = 0
        self._bad: str | None = None
        self._ids = array.array("I")
        self._records = bytearray()
        self._problems: list[tuple[int, str]] = []
        self._seen = 0
        if root:
            self.feed(root)

    # --- the parser's events ------------------------------------------------------------------

    def _event(self, *args: object) -> None:
        self._event_at = self._parser.CurrentByteIndex

    def _doctype(self, *args: object) -> None:
        raise ListFileError("a document type or entity declaration: refused")

    def _start(self, name: str, attributes: object) -> None:
        self._depth += 1
        depth = self._depth
        if depth == 3 and self._player_at >= 0 and name in _FIELDS:  # the usual: a field
            if name in self._values:
                self._problem(f"<{name}> is given twice")
            self._field, self._parts, self._size = name, [], 0
            return
        self._event_at = self._parser.CurrentByteIndex
        if depth == 1:
            if name != ROOT:
                raise ListFileError(
                    f"expected FIDE's XML list (<playerslist>), got {_shown(name)} as its root"
                )
        elif depth == 2 and name == "player":
            self._player_at = self._event_at
            self._values, self._bad = {}, None
            self._seen += 1
        elif depth == 2 and name.rpartition(" ")[2] == "player":  # in a namespace: not FIDE's
            self._seen += 1
            self._problems.append((self._seen, f"expected FIDE's <player>, got {_shown(name)}"))
        elif self._player_at < 0:
            return
        elif depth == 3:
            local = name.rpartition(" ")[2]
            if local in _FIELDS or local == "player":
                self._problem(f"expected FIDE's <{local}>, got {_shown(name)}")
        elif depth == 4 and self._field is not None:
            self._problem(f"<{self._field}> holds the element {_shown(name)}, expected text")

    def _problem(self, message: str) -> None:
        if self._bad is None:
            self._bad = message

    def _text(self, text: str) -> None:
        if self._field is not None and self._depth == 3:
            self._parts.append(text)
            self._size += len(text)
            if self._size > MAX_PLAYER:
                raise self._too_long(self._player_at)

    def _end(self, name: str) -> None:
        depth = self._depth
        self._depth -= 1
        if depth == 3 and self._field is not None:
            self._values[self._field] = "".join(self._parts)
            self._field = None
        elif depth == 2 and self._player_at >= 0:
            self._event_at = self._parser.CurrentByteIndex
            if self._event_at - self._player_at > MAX_PLAYER:
                raise self._too_long(self._player_at)
            self._player_at = -1
            self._done()
        elif depth <= 2:
            self._event_at = self._parser.CurrentByteIndex

    def _done(self) -> None:
        """The player just read, as a record or a problem."""
        count = self._seen
        fide_id = self._values.get("fideid", "").strip() or f"{count}"
        if self._bad is not None:
            self._problems.append((count, f"player {fide_id}: {self._bad}"))
            return
        found = player_of(self._values, count)
        if isinstance(found, str):
            self._problems.append((count, found))
        elif found.fide_id >= 1 << 32:
            self._problems.append((count, f"FIDE ID {found.fide_id} is too large"))
        else:
            self._ids.append(found.fide_id)
            self._records += record(found)

    # --- feeding it --------------------------------------------------------------------------

    def _too_long(self, at: int) -> ListFileError:
        return ListFileError(
            f"byte {self._at + at:,}: expected a <player> element of at most {MAX_PLAYER:,} "
            f"bytes (FIDE's take about 600), got a longer one or a longer stretch of markup"
        )

    def feed(self, data: bytes, final: bool = False) -> None:
        """More of the list; ``final``: its end (a list cut off is refused here). What the
        parser holds unparsed (a comment, a tag, a CDATA section) is kept under
        :data:`MAX_PLAYER` bytes: a list of one endless comment is refused at once."""
        with memoryview(data) as view:
            for at in range(0, max(len(view), 1), PIECE):
                piece = view[at : at + PIECE]
                last = final and at + PIECE >= len(view)
                try:
                    self._parser.Parse(bytes(piece), last)
                except expat.ExpatError as error:
                    raise self._not_xml(error) from None
                self._fed += len(piece)
                if self._fed - self._event_at > MAX_PLAYER + PIECE:
                    raise self._too_long(self._event_at)

    def _not_xml(self, error: expat.ExpatError) -> ListFileError:
        at = self._at + self._parser.ErrorByteIndex
        message = expat.ErrorString(error.code) if error.code is not None else str(error)
        if message in ("unclosed token", "no element found"):
            return ListFileError(
                f"the list ends at byte {self._at + self._fed:,} inside an element (a broken "
                f"download?): expected </player> and </playerslist>, got the end ({message})"
            )
        return ListFileError(f"byte {at:,}: expected well-formed XML, got: {message}")

    def take(self) -> Block:
        """The players read since the last take (and their number)."""
        keys = array.array("Q", batch_keys(self._ids)).tobytes()
        block = (keys, bytes(self._records), self._problems, self._seen)
        self._ids, self._records, self._problems, self._seen = array.array("I"), bytearray(), [], 0
        return block


def parsed(data: bytes, at: int, root: bytes) -> Block:
    """The players of ``data``: whole elements from byte ``at`` of the list (after a
    ``</player>``), read by the parser."""
    players = Players(at, root)
    players.feed(data)
    players.feed(b"</" + ROOT.encode() + b">", final=True)
    return players.take()


def streamed(chunks: Iterable[bytes], at: int, root: bytes | None) -> Iterator[Block]:
    """The players of the rest of the list (its bytes from ``at``, in ``chunks``), read by the
    parser to the list's end; ``root`` as for :class:`Players`."""
    players = Players(at, root)
    for chunk in chunks:
        players.feed(chunk)
        yield players.take()
    players.feed(b"", final=True)
    yield players.take()
