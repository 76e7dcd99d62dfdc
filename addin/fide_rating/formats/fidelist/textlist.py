"""FIDE's text list (``players_list_foa.txt``): its columns, a line read and written, and the
two readers of a whole list: :func:`published_lines` (the published layout, a block of lines
checked in one match and kept as index records as they are) and :func:`text_players` (any
header, line by line).

A header line, then one fixed-width line a player. Columns (0-based, end exclusive), found from
the header's column names, so a moved column is still read::

    ID Number [0,15)  Name [15,76)  Fed [76,80)  Sex [80,84)  Tit [84,89)  WTit [89,94)
    OTit [94,109)  FOA [109,113)  SRtng [113,119) SGm [119,123) SK [123,126)
    RRtng [126,132) RGm [132,136) Rk [136,139)  BRtng [139,145) BGm [145,149) BK [149,152)
    B-day [152,158)  Flag [158,162)

A rating of 0 is no rating; B-day is the birth year (0: unknown); Flag ``i`` inactive, ``w``
woman, ``wi`` both. A line whose other titles overflow (one character longer) is read with the
fields after them shifted.

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import IO

from .common import (
    MAX_LINE,
    RECORD,
    WIDTH,
    Gathered,
    ListedPlayer,
    ListError,
    ListFileError,
    Read,
    digits,
    note,
    number,
)

# the text list's columns, by the header's names
COLUMNS = ("ID Number", "Name", "Fed", "Sex", "Tit", "WTit", "OTit", "FOA", "SRtng", "SGm",
           "SK", "RRtng", "RGm", "Rk", "BRtng", "BGm", "BK", "B-day", "Flag")  # fmt: skip
HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
SPANS = {name: (start, end) for name, start, end in (
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
        return dict(SPANS)
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


def parse_line(line: str, spans: dict[str, tuple[int, int]]) -> ListedPlayer | str:
    """A player from a text line, or what is wrong with the line."""
    shift = max(0, len(line) - WIDTH) if spans["Flag"][1] == WIDTH else 0

    def field(name: str) -> str:
        start, end = spans[name]
        if shift and start >= spans["FOA"][0]:
            start, end = start + shift, end + shift
        return line[start:end]

    fide_id = field("ID Number").strip()
    if not digits(fide_id):
        return f"expected a FIDE ID (digits) in columns 1-15, got {fide_id[:20]!r}"
    numbers = {}
    for name in _NUMBERS:
        value = number(field(name))
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


def record(p: ListedPlayer) -> bytes:
    """A player as an index record: the published line in Latin-1, and CRLF."""
    return format_line(p).encode("latin-1", errors="replace")[:WIDTH].ljust(WIDTH) + b"\r\n"


def text_players(data: IO[bytes], errors: list[ListError], progress: Read | None
                 ) -> Iterator[ListedPlayer]:  # fmt: skip
    """The players of a text list with any header, line by line."""
    stream = io.TextIOWrapper(data, encoding="latin-1", newline=None)
    header = stream.readline(MAX_LINE + 1)
    if len(header) > MAX_LINE:
        raise too_long(1, header)
    if not header.startswith("ID Number"):
        raise ListFileError(
            f"expected FIDE's list header 'ID Number  Name ...', got {header[:30]!r}"
        )
    spans = spans_of(header.rstrip("\r\n"))
    width = len(header.rstrip())  # a whole line reaches the last column's name
    read = shown = len(header)
    no = 1
    while raw := stream.readline(MAX_LINE + 1):
        no += 1
        read += len(raw) + 1  # Latin-1: a byte a character; CR LF read as one
        if not raw.endswith("\n"):  # a line too long, or the last one without its line end
            if len(raw) > MAX_LINE:
                raise too_long(no, raw)
            if raw.strip() and len(raw) < width:
                raise cut_off(no, raw, width)
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        found = parse_line(line, spans)
        if isinstance(found, str):
            note(errors, no, found)
            continue
        if progress is not None and read - shown >= 1 << 24:
            shown = read
            progress(read)
        yield found
    stream.detach()  # the bytes stay open: a zip checks it read all of its list


def too_long(no: int, line: str | bytes) -> ListFileError:
    """A line longer than any of FIDE's: a hostile or broken file, refused at once."""
    start = line[:20].decode("latin-1") if isinstance(line, bytes) else line[:20]
    return ListFileError(
        f"line {no}: expected a line of at most {MAX_LINE:,} bytes (FIDE's have {WIDTH}), "
        f"got a longer one starting {start!r}"
    )


def cut_off(no: int, line: str | bytes, width: int) -> ListFileError:
    """The last line without its line end and shorter than a whole line: a broken download."""
    text = line.decode("latin-1") if isinstance(line, bytes) else line
    return ListFileError(
        f"line {no}: the list ends inside this line (a broken download?): expected a whole "
        f"line of {width} characters and its line end, got {len(text)} ending {text[-20:]!r}"
    )


# a block of published lines: FIDE ID (digits, then blanks) in 15 columns, the numbers in
# columns 114-158, CRLF; checked a block at a time in one C-speed match
_BLOCK = re.compile(rb"(?:[0-9][0-9 ]{14}.{98}[ 0-9]{45}.{4}\r\n)*", re.S)
BLOCK_LINES = 4096


def published_lines(
    data: IO[bytes], errors: list[ListError], into: Gathered, progress: Read | None
) -> bool:  # fmt: skip
    """The fast path for the published text list: a block of lines with the published layout
    is checked in one match and becomes index records as it is; a block with anything else
    goes line by line through :func:`parse_line`. False when the header is not the published
    one."""
    header = data.readline(MAX_LINE + 1)
    if header.decode("latin-1").rstrip("\r\n") != HEADER:
        return False
    crlf = header.endswith(b"\r\n")
    size = RECORD if crlf else RECORD - 1
    no = 1  # lines read
    read = len(header)
    rest = b""
    while True:
        chunk = data.read(size * BLOCK_LINES)
        read += len(chunk)
        block = rest + chunk
        if chunk:
            cut = block.rfind(b"\n") + 1
            block, rest = block[:cut], block[cut:]
            if len(rest) > MAX_LINE:
                raise too_long(no + block.count(b"\n") + 1, rest)
        elif block.strip():  # the last line, without its line end
            if len(block.rstrip(b"\r")) < WIDTH:
                raise cut_off(no + 1, block.rstrip(b"\r"), WIDTH)
            block = block.rstrip(b"\r") + (b"\r\n" if crlf else b"\n")
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
            if len(raw) > MAX_LINE:
                raise too_long(no, raw)
            if not raw.strip():
                continue
            line = raw.decode("latin-1")
            found_one = parse_line(line, SPANS)
            if isinstance(found_one, str) or found_one.fide_id >= 1 << 32:
                message = found_one if isinstance(found_one, str) else "FIDE ID too large"
                note(errors, no, message)
                continue
            ids.append(found_one.fide_id)
            records.extend(record(found_one))
        into.add(ids, records)
        if not chunk:
            return True
