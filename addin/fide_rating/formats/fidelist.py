"""FIDE's published rating list: the combined text list and the XML list, plain or zipped.

FIDE publishes every month one list of all players with their standard, rapid and blitz
ratings (``players_list_foa.txt``, about 1.9 million lines; ``players_list_xml_foa.xml``).

* Text: a header line, then one fixed-width line a player. Columns (0-based, end exclusive),
  found from the header's column names, so a moved column is still read::

      ID Number [0,15)  Name [15,76)  Fed [76,80)  Sex [80,84)  Tit [84,89)  WTit [89,94)
      OTit [94,109)  FOA [109,113)  SRtng [113,119) SGm [119,123) SK [123,126)
      RRtng [126,132) RGm [132,136) Rk [136,139)  BRtng [139,145) BGm [145,149) BK [149,152)
      B-day [152,158)  Flag [158,162)

  A rating of 0 is no rating; B-day is the birth year (0: unknown); Flag ``i`` inactive,
  ``w`` woman, ``wi`` both. A line whose other titles overflow (one character longer) is read
  with the fields after them shifted.
* XML: ``<playerslist>`` with one ``<player>`` a player, its children ``fideid name country
  sex title w_title o_title foa_title rating games k rapid_rating rapid_games rapid_k
  blitz_rating blitz_games blitz_k birthday flag``; read as a stream, never as a whole tree.

:func:`open_list` reads a list once into an index file next to it (fixed-width records and
the FIDE IDs sorted): later runs open the index in a fraction of a second and look
players up without reading the list again. Bad lines are reported with their line number and
the rest is read, like the TRF reader.

May import: the standard library, :mod:`fide_rating.files` and
:mod:`fide_rating.rules.errors` only.
"""

from __future__ import annotations

import array
import bisect
import contextlib
import functools
import html
import io
import json
import mmap
import multiprocessing as mp
import os
import re
import sys
import tempfile
import zipfile
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..files import atomic
from ..rules.errors import FideInputError

# the text list's columns, by the header's names
COLUMNS = ("ID Number", "Name", "Fed", "Sex", "Tit", "WTit", "OTit", "FOA", "SRtng", "SGm",
           "SK", "RRtng", "RGm", "Rk", "BRtng", "BGm", "BK", "B-day", "Flag")  # fmt: skip
HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
WIDTH = 162  # a text line's width in the published list
XML_FIELDS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
              "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
              "blitz_games", "blitz_k", "birthday", "flag")  # fmt: skip
MAX_ERRORS = 1000  # problems kept (and reported) for one list
INDEX_SUFFIX = ".fide-rating-index"
_MAGIC = b"fide-rating list index 2\n"


class ListFileError(FideInputError):
    """A file that is not a FIDE rating list at all, or a damaged zip (the message says why;
    from :func:`open_list`, with the file's name in front)."""


@dataclass(frozen=True, slots=True)
class ListError:
    line: int  # 1-based; for XML the player's number in the file
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    """One player of FIDE's list; a rating of None is no rating of that kind."""

    fide_id: int
    name: str
    federation: str
    sex: str  # "M" or "F"
    title: str  # GM, IM, WGM, ...
    women_title: str
    other_titles: str
    rating: int | None  # standard
    games: int  # standard games in the last period
    k: int | None
    rapid: int | None
    rapid_games: int
    rapid_k: int | None
    blitz: int | None
    blitz_games: int
    blitz_k: int | None
    born: int | None  # the birth year
    flag: str  # "i" inactive, "w" woman, "wi" both

    @property
    def inactive(self) -> bool:
        return "i" in self.flag

    def of(self, kind: str) -> tuple[int | None, int, int | None]:
        """Rating, games and K of one kind: ``standard``, ``rapid`` or ``blitz``."""
        if kind == "rapid":
            return self.rapid, self.rapid_games, self.rapid_k
        if kind == "blitz":
            return self.blitz, self.blitz_games, self.blitz_k
        return self.rating, self.games, self.k


# --- reading a line -------------------------------------------------------------------------

_SPANS = {name: (start, end) for name, start, end in (
    ("ID Number", 0, 15), ("Name", 15, 76), ("Fed", 76, 80), ("Sex", 80, 84), ("Tit", 84, 89),
    ("WTit", 89, 94), ("OTit", 94, 109), ("FOA", 109, 113), ("SRtng", 113, 119),
    ("SGm", 119, 123), ("SK", 123, 126), ("RRtng", 126, 132), ("RGm", 132, 136),
    ("Rk", 136, 139), ("BRtng", 139, 145), ("BGm", 145, 149), ("BK", 149, 152),
    ("B-day", 152, 158), ("Flag", 158, 162))}  # fmt: skip
_NUMBERS = ("SRtng", "SGm", "SK", "RRtng", "RGm", "Rk", "BRtng", "BGm", "BK", "B-day")


def spans_of(header: str) -> dict[str, tuple[int, int]]:
    """Each column's span from the header line (a column starts where its name starts and
    ends where the next one starts); the published layout's when the header matches it."""
    if header.rstrip() == HEADER:
        return dict(_SPANS)
    starts = []
    for name in COLUMNS:
        at = header.find(name if name != "Sex" else " Sex ")
        if name == "Sex" and at >= 0:
            at += 1
        if at < 0:
            raise ListFileError(f"expected FIDE's list header with the column {name!r}")
        starts.append((at, name))
    starts.sort()
    out = {}
    for (start, name), (end, _) in zip(starts, [*starts[1:], (10_000, "")], strict=True):
        out[name] = (start, end)
    if out["ID Number"][0] != 0:
        raise ListFileError("expected FIDE's list header starting with 'ID Number'")
    return out


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None if not text else -1


def parse_line(line: str, spans: dict[str, tuple[int, int]]) -> ListedPlayer | str:
    """A player from a text line, or what is wrong with the line."""
    shift = max(0, len(line) - WIDTH) if spans["Flag"][1] == WIDTH else 0

    def field(name: str) -> str:
        start, end = spans[name]
        if shift and start >= spans["FOA"][0]:
            start, end = start + shift, end + shift
        return line[start:end]

    fide_id = field("ID Number").strip()
    if not fide_id.isdigit():
        return f"expected a FIDE ID (digits) in columns 1-15, got {fide_id[:20]!r}"
    numbers = {}
    for name in _NUMBERS:
        value = _number(field(name))
        if value == -1:
            return f"{name}: expected a number, got {field(name).strip()[:12]!r}"
        numbers[name] = value
    name_text = field("Name").strip()
    if not name_text:
        return f"player {fide_id}: no name"

    def rating(key: str) -> int | None:
        value = numbers[key]
        return value if value else None

    return ListedPlayer(
        int(fide_id),
        name_text,
        field("Fed").strip(),
        field("Sex").strip(),
        field("Tit").strip(),
        field("WTit").strip(),
        field("OTit").strip(),
        rating("SRtng"),
        numbers["SGm"] or 0,
        rating("SK"),
        rating("RRtng"),
        numbers["RGm"] or 0,
        rating("Rk"),
        rating("BRtng"),
        numbers["BGm"] or 0,
        rating("BK"),
        rating("B-day"),
        field("Flag").strip().lower(),
    )


def format_line(p: ListedPlayer) -> str:
    """A player as a line of the published text list (its columns, 162 characters)."""

    def n(value: int | None, width: int) -> str:  # left-aligned, 0 for none: as FIDE writes
        return f"{value or 0:<{width}}"

    return (
        f"{p.fide_id:<15}{p.name[:60]:<61}{p.federation[:3]:<4}{p.sex[:3]:<4}{p.title[:4]:<5}"
        f"{p.women_title[:4]:<5}{p.other_titles[:15]:<15}{'':<4}"
        f"{n(p.rating, 6)}{n(p.games, 4)}{n(p.k, 3)}{n(p.rapid, 6)}{n(p.rapid_games, 4)}"
        f"{n(p.rapid_k, 3)}{n(p.blitz, 6)}{n(p.blitz_games, 4)}{n(p.blitz_k, 3)}"
        f"{n(p.born, 6)}{p.flag[:3]:<4}"
    )


# --- reading a file -------------------------------------------------------------------------


def _members(path: Path) -> tuple[IO[bytes], str, contextlib.ExitStack]:
    """The list's bytes (the list inside a zip), and whether it is text or XML."""
    stack = contextlib.ExitStack()
    raw: IO[bytes] = stack.enter_context(path.open("rb"))
    if zipfile.is_zipfile(raw):
        raw.seek(0)
        archive = stack.enter_context(zipfile.ZipFile(raw))
        names = [n for n in archive.namelist() if n.lower().endswith((".txt", ".xml"))]
        if len(names) != 1:
            stack.close()
            raise ListFileError(
                f"expected one .txt or .xml list in the zip, got: {names or 'none'}"
            )
        member = stack.enter_context(archive.open(names[0]))
        return member, "xml" if names[0].lower().endswith(".xml") else "txt", stack
    raw.seek(0)
    head = raw.read(64).lstrip(b"\xef\xbb\xbf").lstrip()
    raw.seek(0)
    return raw, "xml" if head.startswith(b"<") else "txt", stack


Progress = Callable[[int, int], None]  # bytes of the list read so far, and in all
_Read = Callable[[int], None]  # the same, the bytes read so far only


def _text_players(data: IO[bytes], errors: list[ListError], progress: _Read | None
                  ) -> Iterator[ListedPlayer]:  # fmt: skip
    stream = io.TextIOWrapper(data, encoding="latin-1", newline=None)
    header = stream.readline()
    if not header.startswith("ID Number"):
        raise ListFileError(
            f"expected FIDE's list header 'ID Number  Name ...', got {header[:30]!r}"
        )
    spans = spans_of(header.rstrip("\r\n"))
    read = shown = len(header)
    for no, raw in enumerate(stream, start=2):
        read += len(raw) + 1  # Latin-1: a byte a character; CR LF read as one
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        found = parse_line(line, spans)
        if isinstance(found, str):
            if len(errors) < MAX_ERRORS:
                errors.append(ListError(no, found))
            continue
        if progress is not None and read - shown >= 1 << 24:
            shown = read
            progress(read)
        yield found


_PLAYER = re.compile(rb"<player>(.*?)</player>", re.S)
_TAG = re.compile(rb"<(\w+)>([^<]*)</\1>|<(\w+)\s*/>")


def _xml_players(data: IO[bytes], errors: list[ListError], progress: _Read | None
                 ) -> Iterator[ListedPlayer]:  # fmt: skip
    """The players of the XML list, block by block (the whole list is 850 MB)."""
    number = 0
    for block in _xml_blocks(data, progress):
        for m in _PLAYER.finditer(block):
            number += 1
            found = _xml_player(m.group(1), number)
            if isinstance(found, str):
                if len(errors) < MAX_ERRORS:
                    errors.append(ListError(number, found))
                continue
            yield found


def _xml_player(body: bytes, number: int) -> ListedPlayer | str:
    values: dict[str, str] = {}
    for m in _TAG.finditer(body):
        if m.group(1) is not None:
            text = m.group(2).decode("utf-8", errors="replace")
            values[m.group(1).decode()] = html.unescape(text) if "&" in text else text
        else:
            values[m.group(3).decode()] = ""
    fide_id = values.get("fideid", "").strip()
    if not fide_id.isdigit():
        return f"player {number}: expected a FIDE ID (digits) in <fideid>, got {fide_id[:20]!r}"
    numbers = {}
    for key in XML_FIELDS[8:18]:
        value = _number(values.get(key, ""))
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


def read_players(path: Path, errors: list[ListError], progress: _Read | None = None
                 ) -> Iterator[ListedPlayer]:  # fmt: skip
    """Every player of a list file (text, XML, or either zipped), streaming."""
    data, kind, stack = _members(path)
    with stack:
        reader = _xml_players if kind == "xml" else _text_players
        yield from reader(data, errors, progress)


# --- the index --------------------------------------------------------------------------------

RECORD = WIDTH + 2  # bytes a player in the index: the text list's line (Latin-1) and CRLF


class FideList:
    """Players of a list by FIDE ID, from the index file (memory-mapped: nothing is read
    until a player is looked up)."""

    def __init__(self, index: Path, source: Path) -> None:
        self.source = source
        self._file = index.open("rb")
        self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        if hasattr(mmap, "MADV_RANDOM"):  # look-ups: no read-ahead of the whole file
            self._map.madvise(mmap.MADV_RANDOM)
        head_end = self._map.find(b"\n", len(_MAGIC)) + 1
        meta = json.loads(self._map[len(_MAGIC) : head_end])
        self.count: int = meta["count"]
        self.errors = [ListError(line, message) for line, message in meta["errors"]]
        self.error_count: int = meta["error_count"]
        self._shift: int = meta["shift"]
        keys_at = head_end
        # the FIDE ID above the record's position, sorted: one array serves both
        self._keys = array.array("Q")
        self._keys.frombytes(self._map[keys_at : keys_at + 8 * self.count])
        if sys.byteorder != "little":
            self._keys.byteswap()
        self._records = keys_at + 8 * self.count

    def __len__(self) -> int:
        return self.count

    def get(self, fide_id: int | str, /) -> ListedPlayer | None:
        try:
            key = int(fide_id)
        except ValueError:
            return None
        if not 0 <= key < 1 << 32:
            return None
        i = bisect.bisect_left(self._keys, key << self._shift)
        if i == self.count or self._keys[i] >> self._shift != key:
            return None
        return self._record(i)

    def _record(self, i: int) -> ListedPlayer:
        """The i-th player by FIDE ID."""
        at = self._records + (self._keys[i] & (1 << self._shift) - 1) * RECORD
        found = parse_line(self._map[at : at + WIDTH].decode("latin-1"), _SPANS)
        assert not isinstance(found, str), found  # written by this module
        return found

    def __iter__(self) -> Iterator[ListedPlayer]:
        return (self._record(i) for i in range(self.count))

    def write_text(
        self,
        out: IO[bytes],
        changed: dict[int, ListedPlayer],
        added: Sequence[ListedPlayer] = (),
    ) -> int:
        """The list in the published text layout (header, CRLF), sorted by FIDE ID: each
        player as indexed, except those in ``changed`` (by FIDE ID), written anew; ``added``
        players (not in the index) in their place. Unchanged players are copied as indexed
        (a whole list takes a second or two). Gives the players written."""
        out.write(HEADER.encode() + b"\r\n")
        updates = dict(changed)
        for p in added:
            updates[p.fide_id] = p
        written = 0
        at = 0  # the next player by FIDE ID not yet written
        for fide_id in sorted(updates):
            i = bisect.bisect_left(self._keys, fide_id << self._shift)
            written += self._copy(out, at, i)
            out.write(format_line(updates[fide_id]).encode("latin-1", errors="replace") + b"\r\n")
            written += 1
            at = i + 1 if i < self.count and self._keys[i] >> self._shift == fide_id else i
        return written + self._copy(out, at, self.count)

    def _copy(self, out: IO[bytes], start: int, stop: int) -> int:
        """The players from the start-th to before the stop-th by FIDE ID, as indexed."""
        mask, base, view = (1 << self._shift) - 1, self._records, self._map
        for lo in range(start, stop, 8192):
            out.write(
                b"".join(
                    [
                        view[base + (k & mask) * RECORD : base + (k & mask) * RECORD + RECORD]
                        for k in self._keys[lo : min(lo + 8192, stop)]
                    ]
                )
            )
        return max(0, stop - start)

    def close(self) -> None:
        self._map.close()
        self._file.close()

    def __enter__(self) -> FideList:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def index_path(source: Path) -> Path:
    return source.with_name(source.name + INDEX_SUFFIX)


def _stamp(source: Path) -> dict[str, int]:
    st = source.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _fresh(index: Path, source: Path) -> bool:
    """Whether the index is complete and made from this very list."""
    try:
        with index.open("rb") as f:
            if f.read(len(_MAGIC)) != _MAGIC:
                return False
            line = f.readline()
            meta = json.loads(line)
        whole = len(_MAGIC) + len(line) + meta["count"] * 8 + meta["records"] * RECORD
        return bool(meta.get("source") == _stamp(source)) and index.stat().st_size == whole
    except (OSError, ValueError, KeyError, TypeError):
        return False


class _Gathered:
    """What reading a list gathers for its index: the records as read (in batches, written
    one after the other), a key a player (the FIDE ID above the record's position) and the
    distinct FIDE IDs. Keys come sorted a batch at a time (by the workers, while the list is
    read on), so the last sort only merges runs."""

    def __init__(self) -> None:
        self.records: list[bytes | bytearray] = []
        self.keys: list[int] = []
        self.distinct: set[int] = set()
        self.count = 0

    def add(self, ids: Sequence[int], records: bytes | bytearray) -> None:
        """A batch of players: their FIDE IDs and records, in the order read."""
        self.add_keyed(batch_keys(ids), ids, records)

    def add_keyed(
        self, keys: Sequence[int], ids: Sequence[int], records: bytes | bytearray
    ) -> None:
        """A batch as :func:`batch_keys` gives it, its FIDE IDs, its records as read."""
        base = self.count
        self.keys.extend([key + base for key in keys] if base else keys)
        self.distinct.update(ids)
        self.records.append(records)
        self.count += len(keys)


def batch_keys(ids: Sequence[int]) -> list[int]:
    """A batch's keys, sorted: each FIDE ID above its position in the batch."""
    return sorted([fide_id << 32 | i for i, fide_id in enumerate(ids)])


def _record(p: ListedPlayer) -> bytes:
    return format_line(p).encode("latin-1", errors="replace")[:WIDTH].ljust(WIDTH) + b"\r\n"


# a block of published lines: FIDE ID (digits, then blanks) in 15 columns, the numbers in
# columns 114-158, CRLF; checked a block at a time in one C-speed match
_BLOCK = re.compile(rb"(?:[0-9][0-9 ]{14}.{98}[ 0-9]{45}.{4}\r\n)*", re.S)
_BLOCK_LINES = 4096


def _published_lines(
    data: IO[bytes], errors: list[ListError], into: _Gathered, progress: _Read | None
) -> bool:  # fmt: skip
    """The fast path for the published text list: a block of lines with the published layout
    is checked in one match and becomes index records as it is; a block with anything else
    goes line by line through :func:`parse_line`. False when the header is not the published
    one."""
    header = data.readline()
    if header.decode("latin-1").rstrip("\r\n") != HEADER:
        return False
    crlf = header.endswith(b"\r\n")
    size = RECORD if crlf else RECORD - 1
    no = 1  # lines read
    read = len(header)
    rest = b""
    while True:
        chunk = data.read(size * _BLOCK_LINES)
        read += len(chunk)
        block = rest + chunk
        cut = len(block) if not chunk else block.rfind(b"\n") + 1
        block, rest = block[:cut], block[cut:]
        if not crlf:
            block = block.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        n = len(block) // RECORD
        if n * RECORD == len(block) and _BLOCK.fullmatch(block):
            try:
                found = [int(block[i : i + 15]) for i in range(0, len(block), RECORD)]
            except ValueError:  # "12 34": goes line by line
                found = []
            if len(found) == n and (not found or max(found) < 1 << 32):
                into.add(found, block)
                no += n
                if progress is not None:
                    progress(read)
                if not chunk:
                    return True
                continue
        ids: list[int] = []
        records = bytearray()
        for raw in block.split(b"\r\n")[:-1] if block.endswith(b"\r\n") else block.split(b"\r\n"):
            no += 1
            if not raw.strip():
                continue
            line = raw.decode("latin-1")
            found_one = parse_line(line, _SPANS)
            if isinstance(found_one, str) or found_one.fide_id >= 1 << 32:
                if len(errors) < MAX_ERRORS:
                    message = found_one if isinstance(found_one, str) else "FIDE ID too large"
                    errors.append(ListError(no, message))
                continue
            ids.append(found_one.fide_id)
            records.extend(_record(found_one))
        into.add(ids, records)
        if not chunk:
            return True


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
_Block = tuple[bytes, bytes, bytes, list[tuple[int, str]], int]


def _xml_block(block: bytes) -> _Block:
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
        for number, values in enumerate(found, start=1):
            fide_id = int(values[0])
            if fide_id >= 1 << 32:
                problems.append((number, f"FIDE ID {fide_id} is too large"))
                continue
            ids.append(fide_id)
            record = _RECORD_FORMAT % values if plain else b""
            records.extend(record if len(record) == RECORD else _xml_fields(values))
    else:
        for number, m in enumerate(_PLAYER.finditer(block), start=1):
            player = _xml_player(m.group(1), number)
            if isinstance(player, str) or player.fide_id >= 1 << 32:
                problems.append(
                    (number, player if isinstance(player, str) else "FIDE ID too large")
                )
                continue
            ids.append(player.fide_id)
            records.extend(_record(player))
    return (
        array.array("Q", batch_keys(ids)).tobytes(),
        ids.tobytes(),
        bytes(records),
        problems,
        seen,
    )


def _xml_blocks(data: IO[bytes], progress: _Read | None) -> Iterator[bytes]:
    """The XML list in blocks of whole ``<player>`` elements (4 MiB or so)."""
    head = data.read(1 << 12)
    _check_head(head)
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


PARALLEL_XML = 1 << 26  # bytes: a larger XML list is read on every processor


def _take(
    result: _Block, number: int, errors: list[ListError], into: _Gathered
) -> int:  # fmt: skip
    """One block's players added in order; the number of players read so far, after it."""
    block_keys, block_ids, block_records, problems, seen = result
    keys, ids = array.array("Q"), array.array("I")
    keys.frombytes(block_keys)
    ids.frombytes(block_ids)
    into.add_keyed(keys, ids, block_records)
    for where, message in problems:
        if len(errors) < MAX_ERRORS:
            errors.append(ListError(number + where, message))
    return number + seen


def _xml_fast(
    data: IO[bytes], errors: list[ListError], into: _Gathered, progress: _Read | None
) -> None:
    """A small XML list (or one where processes cannot be forked), block by block."""
    number = 0
    for block in _xml_blocks(data, progress):
        number = _take(_xml_block(block), number, errors, into)


_RANGE = 1 << 26  # bytes of the XML file a worker reads itself


def _xml_range(job: tuple[str, int, int]) -> _Block:
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
    return _xml_block(data[first:stop])


_Job = tuple[str, int, int]  # a range of an XML file: its path, start and end


def _check_head(head: bytes) -> None:
    if b"<playerslist" not in head:
        raise ListFileError("expected FIDE's XML list (<playerslist>), got another document")
    if declared_entities(head):
        raise ListFileError("a document type or entity declaration: refused")


def _ranges_of(source: Path, size: int) -> Iterator[_Job]:
    with source.open("rb") as f:
        _check_head(f.read(1 << 12))
    for at in range(0, size, _RANGE):
        yield str(source), at, min(at + _RANGE, size)


def _unzipped_ranges(member: IO[bytes], folder: Path) -> Iterator[_Job]:
    """A zipped XML list unpacked into a file in ``folder``, a range given out as soon as it
    (and the start of the next, where its last player ends) is on disk: the workers read while
    the rest is unpacked."""
    path = folder / "list.xml"
    start = written = 0
    with path.open("wb") as out:
        while chunk := member.read(1 << 22):
            if not written:
                _check_head(chunk[: 1 << 12])
            out.write(chunk)
            written += len(chunk)
            if written >= start + _RANGE + (1 << 16):
                out.flush()
                while written >= start + _RANGE + (1 << 16):
                    yield str(path), start, start + _RANGE
                    start += _RANGE
    if not written:
        _check_head(b"")
    for at in range(start, written, _RANGE):
        yield str(path), at, min(at + _RANGE, written)


def _xml_in_ranges(
    jobs: Iterator[_Job], errors: list[ListError], into: _Gathered, progress: _Read | None
) -> None:
    """A large XML list read by every processor, each worker its own ranges of the file;
    their results taken in order."""
    workers = min(os.cpu_count() or 1, 8)
    number = 0
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        waiting: deque[tuple[_Job, Future[_Block]]] = deque()

        def take() -> None:
            nonlocal number
            job, future = waiting.popleft()
            number = _take(future.result(), number, errors, into)
            if progress is not None:
                progress(job[2])

        for job in jobs:
            waiting.append((job, pool.submit(_xml_range, job)))
            while waiting and waiting[0][1].done():
                take()
        while waiting:
            take()


def declared_entities(head: bytes) -> bool:
    return b"<!DOCTYPE" in head or b"<!ENTITY" in head


def _bytes_read(progress: Progress, size: int, read: int) -> None:
    progress(min(read, size), size)


def _unpacked_size(source: Path) -> int:
    with zipfile.ZipFile(source) as archive:
        return sum(info.file_size for info in archive.infolist())


def _can_fork() -> bool:
    return (os.cpu_count() or 1) > 1 and "fork" in mp.get_all_start_methods()


def build_index(source: Path, index: Path, progress: Progress | None = None) -> None:
    """Read the list once and write its index (see :func:`_write_index`). A damaged zip is a
    :class:`ListFileError` that says so; no index is written from part of a list."""
    try:
        errors, into = _read_list(source, progress)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise ListFileError(f"the zip file is damaged ({error})") from None
    _write_index(index, source, into, errors)


def _read_list(source: Path, progress: Progress | None) -> tuple[list[ListError], _Gathered]:
    errors: list[ListError] = []
    into = _Gathered()
    data, kind, stack = _members(source)
    with stack:
        zipped = zipfile.is_zipfile(source)
        size = _unpacked_size(source) if zipped else source.stat().st_size
        read = None if progress is None else functools.partial(_bytes_read, progress, size)
        fast = True
        if kind == "xml" and size >= PARALLEL_XML and _can_fork():
            if zipped:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
                _xml_in_ranges(_unzipped_ranges(data, folder), errors, into, read)
            else:
                _xml_in_ranges(_ranges_of(source, size), errors, into, read)
        elif kind == "xml":
            _xml_fast(data, errors, into, read)
        else:
            fast = _published_lines(data, errors, into, read)
    if not fast:
        ids: list[int] = []
        records = bytearray()
        for p in read_players(source, errors, read):
            if p.fide_id >= 1 << 32:
                if len(errors) < MAX_ERRORS:
                    errors.append(ListError(0, f"FIDE ID {p.fide_id} is too large"))
                continue
            ids.append(p.fide_id)
            records += _record(p)
            if len(ids) == _BLOCK_LINES:
                into.add(ids, records)
                ids, records = [], bytearray()
        into.add(ids, records)
    return errors, into


def _write_index(index: Path, source: Path, into: _Gathered, errors: list[ListError]) -> None:
    """The index: a JSON line, then a key a player sorted by FIDE ID (the ID above the
    player's position: sorted plain ints, no gathering of records), then the records as read.
    A FIDE ID listed twice keeps its first record."""
    keys = into.keys
    keys.sort()  # sorted runs: a merge
    if len(into.distinct) != into.count:
        twice: set[int] = set()
        kept = []
        previous = -1
        for key in keys:
            if key >> 32 == previous:
                twice.add(previous)
                continue
            previous = key >> 32
            kept.append(key)
        keys = kept
        for fide_id in sorted(twice)[: max(0, MAX_ERRORS - len(errors))]:
            errors.append(
                ListError(0, f"FIDE ID {fide_id} is listed twice (the first one is used)")
            )
    sorted_keys = array.array("Q", keys)
    del keys
    into.keys = []
    if sys.byteorder != "little":
        sorted_keys.byteswap()
    meta = {
        "source": _stamp(source),
        "count": len(sorted_keys),
        "records": into.count,
        "shift": 32,
        "errors": [[e.line, e.message] for e in errors],
        "error_count": len(errors),
    }
    # a cache, checked by its size when read (see _fresh): no flush to disk needed
    with atomic(index, durable=False) as out:
        out.write(_MAGIC + json.dumps(meta).encode() + b"\n")
        out.write(sorted_keys.tobytes())
        for records in into.records:
            out.write(records)


def open_list(source: Path, progress: Progress | None = None) -> FideList:
    """A list by FIDE ID: its index next to it, made (or remade, when the list changed) on the
    first use. Where that folder is not writable the index goes to a temporary folder."""
    if not source.is_file():
        raise FileNotFoundError(2, "No such file or directory", str(source))
    index = index_path(source)
    try:
        if not _fresh(index, source):
            try:
                build_index(source, index, progress)
            except PermissionError:
                import hashlib

                where = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
                index = Path(tempfile.gettempdir()) / f"{where}-{index.name}"
                if not _fresh(index, source):
                    build_index(source, index, progress)
    except ListFileError as error:  # every command says which file it is
        raise ListFileError(f"{source}: {error}") from None
    return FideList(index, source)
