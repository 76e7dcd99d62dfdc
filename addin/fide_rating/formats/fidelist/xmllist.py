"""FIDE's XML list (``players_list_xml_foa.xml``): ``<playerslist>`` with one ``<player>`` a
player, its children ``fideid name country sex title w_title o_title foa_title rating games k
rapid_rating rapid_games rapid_k blitz_rating blitz_games blitz_k birthday flag``.

Read as a stream of blocks of whole ``<player>`` elements (the whole list is 850 MB), never as a
tree. The usual list is read a block at a time in one C-speed match (:func:`xml_block`); what
that match cannot prove plain goes to the XML parser (:mod:`.xmlparse`), so that the players read
are always those an XML parser reads:

* a block is read by the match only when every ``<`` in it opens or closes one of the 19 fields
  or a ``<player>`` the match took whole (one count of ``<``: no comment, CDATA section,
  processing instruction, attribute or other element can hide there), it holds no ``&`` (no
  entity or character reference), and each field's text holds no control character and, where
  it is not ASCII, is UTF-8;
* a block with an entity, an attribute, a field twice, an element inside a field, a name in a
  namespace or a field out of order is read by the parser (block by block: each holds whole
  elements);
* from the first comment, CDATA section or processing instruction on (its ``</player>`` or
  ``<player>`` may be text), the parser reads the rest of the list in one stream, as it does a
  whole list whose start is not FIDE's plain ``<?xml ...?><playerslist>`` (a namespace, a
  comment before the first player, an encoding other than UTF-8).

A document type or entity declaration is refused. :func:`xml_range` is what a worker of the
parallel reader does with its range of the file.

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import array
import contextlib
import itertools
import re
import zlib
from collections.abc import Iterable, Iterator
from typing import IO

from .common import (
    MAX_DIGITS,
    MAX_PLAYER,
    RECORD,
    WIDTH,
    ListedPlayer,
    ListError,
    ListFileError,
    Read,
    batch_keys,
    note,
)
from .content import pread
from .textlist import SPANS, parse_line
from .xmlparse import XML_FIELDS, Block, Players, parsed, streamed

CHUNK = 1 << 22  # bytes read at a time
_NUMERIC_XML = frozenset(XML_FIELDS[8:18])
_BLANK = rb"[ \t\r\n]*"  # XML's white space (bytes' \s takes \f and \v too)
_TEXT = rb"[^<>&\x00-\x08\x0b\x0c\x0e-\x1f]*"  # a field's text: no markup, no control


def _record_pattern(empty: bool) -> re.Pattern[bytes]:
    """A ``<player>`` of FIDE's 19 fields in order, each ``<f>text</f>`` or (``empty``)
    ``<f/>``, white space between them only."""
    fields = []
    for tag in XML_FIELDS:
        name = tag.encode()
        text = rb"[0-9]+" if tag == "fideid" else rb"[0-9]*" if tag in _NUMERIC_XML else _TEXT
        full = rb"<%s>(%s)</%s>" % (name, text, name)
        fields.append(rb"(?:%s|<%s/>)" % (full, name) if empty else full)
    return re.compile(rb"<player>" + _BLANK + _BLANK.join(fields) + _BLANK + rb"</player>")


_XML_RECORD = _record_pattern(empty=True)
_XML_RECORD_FULL = _record_pattern(empty=False)  # faster, where no <f/> occurs
_TAGS = 2 + 2 * len(XML_FIELDS)  # the "<" of a player written in full
_RECORD_FORMAT = (
    b"%-15s%-61s%-4s%-4s%-5s%-5s%-15s%-4s%-6s%-4s%-3s%-6s%-4s%-3s%-6s%-4s%-3s%-6s%-4s\r\n"
)
# white space, comments and processing instructions (not one named xml): what XML allows
# before the root and what may come before the first player
_MISC = (
    rb"(?:[ \t\r\n]+|<!--(?:[^-]|-[^-])*-->"
    rb"|<\?(?![Xx][Mm][Ll][ \t\r\n?])[A-Za-z_][^?]*(?:\?(?!>)[^?]*)*\?>)*"
)
_HEAD = re.compile(
    rb"(?:\xef\xbb\xbf)?(?:<\?xml[ \t\r\n][^<>?]*\?>)?" + _MISC
    + rb"(<playerslist(?:[ \t\r\n][^<>]*)?>)" + _MISC + rb"(?=<player>)"
)  # fmt: skip
_ENCODING = re.compile(rb"""encoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z0-9._-]*)["']""")
_TAIL = re.compile(_BLANK + rb"</playerslist>" + _BLANK)


def simple_head(head: bytes) -> tuple[bytes, int] | None:
    """FIDE's plain start of the list (an XML declaration in UTF-8, ``<playerslist>`` with no
    namespace, nothing but white space, comments and processing instructions before the first
    ``<player>``): its root tag and where the first player starts. None for any other start
    (the list then read by the parser from byte 0)."""
    m = _HEAD.match(head)
    if m is None or b"xmlns" in m.group(1):
        return None
    declared = _ENCODING.search(head, 0, m.start(1))
    if declared is not None and declared.group(1).lower() not in (b"utf-8", b"utf8", b"us-ascii"):
        return None
    return m.group(1), m.end()


def _xml_fields(values: tuple[bytes, ...]) -> bytes | None:
    """An index record from the 19 fields of a ``<player>`` (published text line and CRLF);
    None where a text is not UTF-8 or holds a character XML forbids (the parser says which)."""
    text = list(values)
    for i in (1, 2, 3, 4, 5, 6, 18):  # texts: letters beyond ASCII re-encoded
        if not text[i].isascii():
            try:
                decoded = text[i].decode("utf-8")
            except UnicodeDecodeError:
                return None
            if "\ufffe" in decoded or "\uffff" in decoded:
                return None
            text[i] = decoded.encode("latin-1", errors="replace")
    for i in range(8, 18):  # numbers: 0 where empty, as the text list writes them
        text[i] = text[i] or b"0"
    text[18] = text[18].lower()
    text[1] = text[1][:60]
    text[6] = text[6][:15]
    return _RECORD_FORMAT % tuple(text)


def xml_block(block: bytes, at: int, root: bytes) -> Block | None:
    """One block of whole ``<player>`` elements (from byte ``at``, after a ``</player>`` or at
    the first player): the keys of :func:`batch_keys` (uint64, sorted here, in the worker), the
    index records, the problems (by the player's number in the block) and the players seen.
    Read in one C-speed match where that is provably what an XML parser reads (see the
    module's docstring), else by the parser; None when the block holds a comment, a CDATA
    section or a processing instruction (the parser reads on from its start)."""
    empty = b"/>" in block
    found = (_XML_RECORD if empty else _XML_RECORD_FULL).findall(block)
    seen = len(found)
    tags = _TAGS * seen - (block.count(b"/>") if empty else 0)
    if block.count(b"<") == tags and b"&" not in block:  # nothing but the matched players
        ids = array.array("I")
        if block.isascii():  # the usual list: the whole block in one go
            joined = b"".join([_RECORD_FORMAT % values for values in found])
            with contextlib.suppress(OverflowError, ValueError):  # an ID of 2**32 or more,
                ids.fromlist([int(values[0]) for values in found])  # or of 5,000 digits
                if len(joined) == RECORD * seen:  # each field within its columns
                    return array.array("Q", batch_keys(ids)).tobytes(), joined, [], seen
            ids = array.array("I")
        records = bytearray()
        problems: list[tuple[int, str]] = []
        for count, values in enumerate(found, start=1):
            fide_id = int(values[0]) if len(values[0]) <= MAX_DIGITS else 1 << 32
            if fide_id >= 1 << 32:
                shown = values[0][:20].decode() + ("..." if len(values[0]) > 20 else "")
                problems.append((count, f"FIDE ID {shown} is too large"))
                continue
            one = _RECORD_FORMAT % values
            if len(one) != RECORD or not one.isascii():
                one = _xml_fields(values) or b""
                if len(one) != RECORD:  # a text that is not UTF-8: the parser says where
                    return parsed(block, at, root)
            ids.append(fide_id)
            records += one
        return array.array("Q", batch_keys(ids)).tobytes(), bytes(records), problems, seen
    if b"<!" in block or b"<?" in block:
        return None
    return parsed(block, at, root)


def tail_players(tail: bytes, at: int, root: bytes) -> Iterator[Block]:
    """What follows the last ``</player>`` (from byte ``at``): FIDE's ``</playerslist>``, else
    read by the parser (a list cut off is refused: :func:`check_end`)."""
    if _TAIL.fullmatch(tail):
        return
    check_end(tail, at)
    players = Players(at, root)
    players.feed(tail, final=True)
    yield players.take()


def xml_results(data: IO[bytes], progress: Read | None) -> Iterator[Block]:
    """The XML list's players, a block at a time (4 MiB or so): see :func:`blocks_from`."""
    head = data.read(1 << 12)
    check_head(head)
    simple = simple_head(head)
    if simple is None:
        yield from streamed(_rest(head, data, progress, len(head)), 0, None)
        return
    root, offset = simple
    yield from blocks_from(_rest(head[offset:], data, progress, len(head)), offset, root)


def blocks_from(chunks: Iterable[bytes], offset: int, root: bytes) -> Iterator[Block]:
    """The players of the XML list from byte ``offset`` on (its bytes from there in
    ``chunks``; a first player's start, or just after a ``</player>``), a block at a time.
    Each is checked for a stretch without ``</player>`` longer than any player
    (:func:`first_gap`), and the list's end for ``</playerslist>`` (:func:`check_end`): a
    broken or hostile file is refused within its first few MiB, or at its end. A block with
    a comment, CDATA section or processing instruction is cut where none is open
    (:func:`markup_cut`) and read by the parser."""
    buffer = b""
    for chunk in itertools.chain(chunks, [b""]):
        buffer += chunk
        end = buffer.rfind(CLOSE)
        cut = end + len(CLOSE) if end >= 0 else 0
        gap = first_gap(buffer, cut)
        if gap >= 0:
            raise too_long(offset + gap, buffer[gap:])
        if len(buffer) - cut > MAX_PLAYER:
            raise too_long(offset + cut, buffer[cut:])
        if cut:
            result = xml_block(buffer[:cut], offset, root)
            if result is None:  # markup: its </player> may be text
                cut = markup_cut(buffer, offset)
                if len(buffer) - cut > 2 * MAX_PLAYER:
                    raise too_long(offset + cut, buffer[cut:])
                result = parsed(buffer[:cut], offset, root) if cut else None
            if result is not None:
                yield result
        buffer = buffer[cut:]
        offset += cut
        if not chunk:
            yield from tail_players(buffer, offset, root)


_MARKUP = re.compile(rb"<[!?]")
_ENDS = ((b"<!--", b"-->"), (b"<![CDATA[", b"]]>"), (b"<?", b"?>"), (b"<!", b">"))


def markup_cut(data: bytes, at: int) -> int:
    """Where in ``data`` (from byte ``at`` of the list, in ``<playerslist>``'s content) the
    last ``</player>`` that is markup ends, the comments, CDATA sections and processing
    instructions before it gone through in order; 0 where there is none. One longer than any
    player is refused."""
    scan = cut = 0
    while True:
        found = _MARKUP.search(data, scan)
        start = found.start() if found is not None else len(data)
        close = data.rfind(CLOSE, scan, start)
        if close >= 0:
            cut = close + len(CLOSE)
        if found is None:
            return cut
        opener, closer = next((o, c) for o, c in _ENDS if data.startswith(o, start))
        end = data.find(closer, start + len(opener))
        if end < 0 and len(data) - start <= MAX_PLAYER:
            return cut  # ends in the data still to come
        if end < 0 or end + len(closer) - start > MAX_PLAYER:
            raise too_long(at + start, data[start:])
        scan = end + len(closer)


def _rest(first: bytes, data: IO[bytes], progress: Read | None, read: int) -> Iterator[bytes]:
    yield first
    if progress is not None:
        progress(read)
    while chunk := data.read(CHUNK):
        read += len(chunk)
        yield chunk
        if progress is not None:
            progress(read)


def xml_players(data: IO[bytes], errors: list[ListError], progress: Read | None
                ) -> Iterator[ListedPlayer]:  # fmt: skip
    """The players of the XML list, block by block."""
    count = 0
    for _, records, problems, seen in xml_results(data, progress):
        for where, message in problems:
            note(errors, count + where, message)
        count += seen
        for at in range(0, len(records), RECORD):
            found = parse_line(records[at : at + WIDTH].decode("latin-1"), SPANS)
            assert not isinstance(found, str), found  # made by this module
            yield found


CLOSE = b"</player>"
OVERRUN = 1 << 16  # bytes a worker reads past its range: the end of its last player


def first_gap(data: bytes, stop: int) -> int:
    """Where in ``data[:stop]`` a stretch of more than :data:`MAX_PLAYER` bytes without a
    ``</player>`` starts (no player of FIDE's is nearly as long), or -1. A stretch that runs
    past the data's end is left to the caller (see :func:`check_tail`). One search a
    :data:`MAX_PLAYER` bytes, the last ``</player>`` in them: a few thousand a 64 MiB."""
    at = 0
    while at < stop and at + MAX_PLAYER <= len(data):
        end = data.rfind(CLOSE, at, at + MAX_PLAYER)
        if end < 0:
            return at
        at = end + len(CLOSE)
    return -1


def too_long(at: int, data: bytes) -> ListFileError:
    """A stretch from byte ``at`` (its bytes ``data``) without ``</player>``; named by the
    ``<player>`` in it, if any."""
    player = data.find(b"<player>", 0, MAX_PLAYER)
    if player > 0:
        at, data = at + player, data[player:]
    start = data.lstrip()[:24].decode("utf-8", errors="replace")
    return ListFileError(
        f"byte {at:,}: expected a <player> element of at most {MAX_PLAYER:,} bytes ending with "
        f"</player> (FIDE's take about 600), got a longer one starting {start!r}"
    )


def check_end(tail: bytes, at: int) -> None:
    """The list's last bytes (from ``at``), after its last ``</player>``: ``</playerslist>``
    and blanks only, else the list was cut off (a broken download)."""
    body = tail.strip()
    if b"<!" in body or b"<?" in body:  # a comment, CDATA: the parser judges it (and its end)
        return
    where = f"the list ends at byte {at + len(tail):,}"
    if b"<player>" in body:
        raise ListFileError(
            f"{where} inside a <player> (a broken download?): expected </player> and "
            f"</playerslist>, got {_text(body[-24:])!r}"
        )
    if not body.endswith((b"</playerslist>", b"<playerslist/>")):
        raise ListFileError(
            f"{where} without </playerslist> (a broken download?): expected </playerslist> "
            f"last, got {_text(body[-24:])!r}"
        )


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def check_tail(last: bytes, size: int) -> None:
    """The end of an XML list of ``size`` bytes from its last :data:`OVERRUN` bytes."""
    close = last.rfind(CLOSE)
    tail = last[close + len(CLOSE) :] if close >= 0 else last
    if len(tail) > MAX_PLAYER:
        raise too_long(size - len(tail), tail)
    check_end(tail, size - len(tail))


def follow(tail: bytes, chunk: bytes, at: int) -> bytes:
    """The bytes after the last ``</player>`` so far, from those before ``chunk`` (which
    starts at byte ``at``): a stretch without one longer than any player is refused."""
    close = chunk.rfind(CLOSE)
    if close >= 0:
        tail = chunk[close + len(CLOSE) :]
    else:
        tail += chunk
        close = tail.rfind(CLOSE)  # one across the chunks' boundary
        tail = tail[close + len(CLOSE) :] if close >= 0 else tail
    if len(tail) > MAX_PLAYER:
        raise too_long(at + len(chunk) - len(tail), tail)
    return tail


Job = tuple[int, int, int, bool, bytes, int]  # an XML file's range: its descriptor, start, end,
# its CRC wanted, the list's root tag, where its first player starts
Ranged = tuple[Block | None, int, int, int]  # what a worker gives: see xml_range
EMPTY: Block = (b"", b"", [], 0)


def xml_range(job: Job) -> Ranged:
    """The players whose ``<player>`` starts in bytes [start, end) of the XML file, read by
    the worker itself (nothing is sent to it but the job's numbers), the range's CRC-32 (0
    where not wanted: a file unpacked from a zip), and where its block starts and ends in the
    file (-1, -1: no player starts in the range; the block None: the parser must read on from
    its start, see :func:`xml_block`). A stretch without ``</player>`` longer than any player
    is refused (the list's end is the parent's: :func:`check_tail`)."""
    fd, start, end, wanted, root, head = job
    data = pread(fd, end - start + OVERRUN, start)
    gap = first_gap(data, end - start)
    if gap >= 0:
        raise too_long(start + gap, data[gap:])
    with memoryview(data) as view:
        crc = zlib.crc32(view[: end - start]) if wanted else 0
    first = data.find(b"<player>", max(0, head - start))  # not one in a comment before it
    if first < 0 or first >= end - start:
        return EMPTY, crc, -1, -1
    stop = data.find(b"<player>", end - start)  # the next range's first player
    if stop < 0:
        last = data.rfind(CLOSE)
        stop = last + len(CLOSE) if last >= first else len(data)
    return xml_block(data[first:stop], start + first, root), crc, start + first, start + stop


def chunks(fd: int, start: int, end: int) -> Iterable[bytes]:
    """The bytes [start, end) of the file open as ``fd``, 4 MiB at a time."""
    for at in range(start, end, 1 << 22):
        yield pread(fd, min(1 << 22, end - at), at)


def check_head(head: bytes) -> None:
    """The XML list's first 4 KiB: FIDE's root element, no document type or entities."""
    if b"<playerslist" not in head:
        raise ListFileError("expected FIDE's XML list (<playerslist>), got another document")
    if declared_entities(head):
        raise ListFileError("a document type or entity declaration: refused")


def declared_entities(head: bytes) -> bool:
    return b"<!DOCTYPE" in head or b"<!ENTITY" in head
