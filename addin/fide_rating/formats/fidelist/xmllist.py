"""FIDE's XML list (``players_list_xml_foa.xml``): ``<playerslist>`` with one ``<player>`` a
player, its children ``fideid name country sex title w_title o_title foa_title rating games k
rapid_rating rapid_games rapid_k blitz_rating blitz_games blitz_k birthday flag``.

Read as a stream of blocks of whole ``<player>`` elements (the whole list is 850 MB), never as a
tree: :func:`xml_block` turns a block into index records (one C-speed match for the usual
list, player by player otherwise), :func:`xml_range` is what a worker of the parallel reader
does with its range of the file. A document type or entity declaration is refused (no entity
is ever expanded: only XML's own and numeric references are read).

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import array
import contextlib
import html
import re
import zlib
from collections.abc import Iterator
from typing import IO

from .common import (
    MAX_PLAYER,
    RECORD,
    ListedPlayer,
    ListError,
    ListFileError,
    Read,
    batch_keys,
    digits,
    note,
    number,
)
from .content import pread
from .textlist import record

XML_FIELDS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
              "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
              "blitz_games", "blitz_k", "birthday", "flag")  # fmt: skip

_PLAYER = re.compile(rb"<player>(.*?)</player>", re.S)
_TAG = re.compile(rb"<(\w+)>([^<]*)</\1>|<(\w+)\s*/>")


def xml_players(data: IO[bytes], errors: list[ListError], progress: Read | None
                ) -> Iterator[ListedPlayer]:  # fmt: skip
    """The players of the XML list, block by block."""
    count = 0
    for block in xml_blocks(data, progress):
        for m in _PLAYER.finditer(block):
            count += 1
            found = xml_player(m.group(1), count)
            if isinstance(found, str):
                note(errors, count, found)
                continue
            yield found


def xml_player(body: bytes, count: int) -> ListedPlayer | str:
    """A player from the inside of its ``<player>`` element (the count-th), or what is wrong."""
    values: dict[str, str] = {}
    for m in _TAG.finditer(body):
        if m.group(1) is not None:
            text = m.group(2).decode("utf-8", errors="replace")
            values[m.group(1).decode()] = html.unescape(text) if "&" in text else text
        else:
            values[m.group(3).decode()] = ""
    fide_id = values.get("fideid", "").strip()
    if not digits(fide_id):
        return f"player {count}: expected a FIDE ID (digits) in <fideid>, got {fide_id[:20]!r}"
    numbers = {}
    for key in XML_FIELDS[8:18]:
        value = number(values.get(key, ""))
        if value == -1:
            return f"player {fide_id}: <{key}> expected a number, got {values[key][:12]!r}"
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


_NUMERIC_XML = frozenset(XML_FIELDS[8:18])
_XML_RECORD = re.compile(
    rb"<player>\s*"
    + rb"\s*".join(
        rb"(?:<%s>(%s)</%s>|<%s\s*/>)"
        % (tag.encode(), rb"[0-9]+" if tag == "fideid" else rb"[0-9]*" if tag in _NUMERIC_XML
           else rb"[^<]*", tag.encode(), tag.encode())
        for tag in XML_FIELDS
    )
    + rb"\s*</player>"
)  # fmt: skip
# the same without empty-element tags (<title/>): a simpler, faster match where none occur
_XML_RECORD_FULL = re.compile(
    rb"<player>\s*"
    + rb"\s*".join(
        rb"<%s>(%s)</%s>"
        % (tag.encode(), rb"[0-9]+" if tag == "fideid" else rb"[0-9]*" if tag in _NUMERIC_XML
           else rb"[^<]*", tag.encode())
        for tag in XML_FIELDS
    )
    + rb"\s*</player>"
)  # fmt: skip
_RECORD_FORMAT = (
    b"%-15s%-61s%-4s%-4s%-5s%-5s%-15s%-4s%-6s%-4s%-3s%-6s%-4s%-3s%-6s%-4s%-3s%-6s%-4s\r\n"
)


def _xml_fields(values: tuple[bytes | None, ...]) -> bytes:
    """An index record from the 19 fields of a ``<player>`` (published text line and CRLF)."""
    text = [v or b"" for v in values]
    for i in (1, 2, 3, 4, 5, 6, 18):  # texts: entities and non-Latin-1 letters
        if b"&" in text[i] or max(text[i], default=0) > 0x7F:
            decoded = html.unescape(text[i].decode("utf-8", errors="replace"))
            text[i] = decoded.encode("latin-1", errors="replace")
    for i in range(8, 18):  # numbers: 0 where empty, as the text list writes them
        text[i] = text[i] or b"0"
    text[18] = text[18].lower()
    text[1] = text[1][:60]
    text[6] = text[6][:15]
    return _RECORD_FORMAT % tuple(text)


# keys (uint64, see batch_keys), records, problems, players seen
Block = tuple[bytes, bytes, list[tuple[int, str]], int]


def xml_block(block: bytes) -> Block:
    """One block of whole ``<player>`` elements: the keys of :func:`batch_keys` (uint64, sorted
    here, in the worker), the index records, the problems (by the player's number in the
    block) and the players seen. Every player is checked in one C-speed
    match; a block where one does not match goes player by player."""
    ids = array.array("I")
    records = bytearray()
    problems: list[tuple[int, str]] = []
    pattern = _XML_RECORD_FULL if b"/>" not in block else _XML_RECORD
    found = pattern.findall(block)
    seen = block.count(b"<player>")
    plain = b"&" not in block and block.isascii()  # no entity, no letter to re-encode
    if len(found) == seen and plain:  # the usual list: the whole block in one go
        joined = b"".join([_RECORD_FORMAT % values for values in found])
        with contextlib.suppress(OverflowError):  # an ID of 2**32 or more: player by player
            ids.fromlist([int(values[0]) for values in found])
            if len(joined) == RECORD * seen:  # each field within its columns
                return array.array("Q", batch_keys(ids)).tobytes(), joined, [], seen
        ids = array.array("I")
    if len(found) == seen:
        for count, values in enumerate(found, start=1):
            fide_id = int(values[0])
            if fide_id >= 1 << 32:
                problems.append((count, f"FIDE ID {fide_id} is too large"))
                continue
            ids.append(fide_id)
            one = _RECORD_FORMAT % values if plain else b""
            records.extend(one if len(one) == RECORD else _xml_fields(values))
    else:
        for count, m in enumerate(_PLAYER.finditer(block), start=1):
            player = xml_player(m.group(1), count)
            if isinstance(player, str) or player.fide_id >= 1 << 32:
                problems.append((count, player if isinstance(player, str) else "FIDE ID too large"))
                continue
            ids.append(player.fide_id)
            records.extend(record(player))
    return array.array("Q", batch_keys(ids)).tobytes(), bytes(records), problems, seen


def xml_blocks(data: IO[bytes], progress: Read | None) -> Iterator[bytes]:
    """The XML list in blocks of whole ``<player>`` elements (4 MiB or so), each checked for
    a stretch without ``</player>`` longer than any player (:func:`first_gap`), and the list's
    end for ``</playerslist>`` (:func:`check_end`): a broken or hostile file is refused
    within its first few MiB, or at its end."""
    head = data.read(1 << 12)
    check_head(head)
    buffer, read, offset = head, len(head), 0  # offset: the buffer's first byte in the file
    while True:
        chunk = data.read(1 << 22)
        read += len(chunk)
        buffer += chunk
        end = buffer.rfind(CLOSE)
        cut = end + len(CLOSE) if end >= 0 else 0
        gap = first_gap(buffer, cut)
        if gap >= 0:
            raise too_long(offset + gap, buffer[gap:])
        if len(buffer) - cut > MAX_PLAYER:
            raise too_long(offset + cut, buffer[cut:])
        if cut:
            yield buffer[:cut]
        buffer = buffer[cut:]
        offset += cut
        if progress is not None:
            progress(read)
        if not chunk:
            check_end(buffer, offset)
            return


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


Job = tuple[int, int, int, bool]  # a range of an XML file: its descriptor, start, end, CRC wanted


def xml_range(job: Job) -> tuple[Block, int]:
    """The players whose ``<player>`` starts in bytes [start, end) of the XML file, read by
    the worker itself (nothing is sent to it but the job's path, numbers and flag), and the
    range's CRC-32 (0 where not wanted: a file unpacked from a zip). A stretch without
    ``</player>`` longer than any player is refused (the list's end is the parent's:
    :func:`check_tail`)."""
    fd, start, end, wanted = job
    data = pread(fd, end - start + OVERRUN, start)
    gap = first_gap(data, end - start)
    if gap >= 0:
        raise too_long(start + gap, data[gap:])
    with memoryview(data) as view:
        crc = zlib.crc32(view[: end - start]) if wanted else 0
    first = data.find(b"<player>")
    if first < 0 or first >= end - start:
        return (b"", b"", [], 0), crc
    stop = data.find(b"<player>", end - start)  # the next range's first player
    if stop < 0:
        last = data.rfind(CLOSE)
        stop = last + len(CLOSE) if last >= first else len(data)
    return xml_block(data[first:stop]), crc


def check_head(head: bytes) -> None:
    """The XML list's first 4 KiB: FIDE's root element, no document type or entities."""
    if b"<playerslist" not in head:
        raise ListFileError("expected FIDE's XML list (<playerslist>), got another document")
    if declared_entities(head):
        raise ListFileError("a document type or entity declaration: refused")


def declared_entities(head: bytes) -> bool:
    return b"<!DOCTYPE" in head or b"<!ENTITY" in head
