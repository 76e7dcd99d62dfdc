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
from collections.abc import Iterator
from typing import IO

from .common import (
    RECORD,
    ListedPlayer,
    ListError,
    ListFileError,
    Read,
    batch_keys,
    note,
    number,
)
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
    if not fide_id.isdigit():
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


# keys (uint64, see batch_keys), FIDE IDs (uint32), records, problems, players seen
Block = tuple[bytes, bytes, bytes, list[tuple[int, str]], int]


def xml_block(block: bytes) -> Block:
    """One block of whole ``<player>`` elements: the keys of :func:`batch_keys` (uint64, sorted
    here, in the worker), the FIDE IDs (uint32), the index records, the problems (by the
    player's number in the block) and the players seen. Every player is checked in one C-speed
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
                return array.array("Q", batch_keys(ids)).tobytes(), ids.tobytes(), joined, [], seen
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
    return (
        array.array("Q", batch_keys(ids)).tobytes(),
        ids.tobytes(),
        bytes(records),
        problems,
        seen,
    )


def xml_blocks(data: IO[bytes], progress: Read | None) -> Iterator[bytes]:
    """The XML list in blocks of whole ``<player>`` elements (4 MiB or so)."""
    head = data.read(1 << 12)
    check_head(head)
    buffer, read = head, len(head)
    while True:
        chunk = data.read(1 << 22)
        read += len(chunk)
        buffer += chunk
        end = buffer.rfind(b"</player>")
        if end < 0 and chunk:
            continue
        cut = end + len(b"</player>") if end >= 0 else len(buffer)
        yield buffer[:cut]
        buffer = buffer[cut:]
        if progress is not None:
            progress(read)
        if not chunk:
            return


Job = tuple[str, int, int]  # a range of an XML file: its path, start and end


def xml_range(job: Job) -> Block:
    """The players whose ``<player>`` starts in bytes [start, end) of the XML file, read by
    the worker itself (nothing is sent to it but the three numbers)."""
    path, start, end = job
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start + (1 << 16))  # a player is far shorter than 64 KiB
    first = data.find(b"<player>")
    if first < 0 or first >= end - start:
        return b"", b"", b"", [], 0
    stop = data.find(b"<player>", end - start)  # the next range's first player
    if stop < 0:
        last = data.rfind(b"</player>")
        stop = last + len(b"</player>") if last >= first else len(data)
    return xml_block(data[first:stop])


def check_head(head: bytes) -> None:
    """The XML list's first 4 KiB: FIDE's root element, no document type or entities."""
    if b"<playerslist" not in head:
        raise ListFileError("expected FIDE's XML list (<playerslist>), got another document")
    if declared_entities(head):
        raise ListFileError("a document type or entity declaration: refused")


def declared_entities(head: bytes) -> bool:
    return b"<!DOCTYPE" in head or b"<!ENTITY" in head
