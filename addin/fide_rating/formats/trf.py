"""FIDE Tournament Report Files (TRF-16, and TRF-2026 where it adds records): read and write.

The reader keeps every line: player records (``001``) are parsed into fields, every other
record (tournament header ``012``..``362``, team records ``013``/``310``, national rating
records, ``XX`` records of pairing programs, ``###`` comments) is kept verbatim, so that a file
read and written again is the same file. Problems are collected with their line and column and
reading goes on where it safely can, like a PGN reader.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from pathlib import Path

from ..files import read_regular, write_bytes
from .trf_check import check as check_all
from .trf_check import check_dates
from .trf_model import (
    OPPOSITE,
    PLAYED,
    RESULT_CODES,
    TITLES,
    Player,
    Round,
    Tournament,
    TrfError,
    is_round_robin,
    points_of,
    round_dates,
    scoring,
    scoring_of,
    time_control,
)
from .trf_player import forget, know_ranks, parse_player
from .trf_records import (
    BB_CODES,
    DEFAULT_POINTS,
    RECORDS,
    RecordError,
    date_readings,
    read_byes,
    read_program_scoring,
    read_scoring,
    read_time_control,
)

__all__ = [
    "DEFAULT_POINTS",
    "OPPOSITE",
    "PLAYED",
    "RESULT_CODES",
    "TITLES",
    "Player",
    "Round",
    "Tournament",
    "TrfError",
    "check",
    "decode",
    "forget",
    "format_player",
    "is_round_robin",
    "parse",
    "parse_date",
    "parse_player",
    "points_of",
    "read",
    "round_dates",
    "same_fields",
    "scoring",
    "scoring_of",
    "time_control",
    "write",
    "write_file",
]


def parse_date(text: str) -> _dt.date | None:
    """A date as files write it: ``2005/07/28``, ``28. 07. 2005``, ``05/07/28``, ``May 10,
    2020`` ...; the likeliest reading where the text allows several
    (:func:`~.trf_records.date_readings`)."""
    found = date_readings(text)
    return found[0][0] if found else None


def decode(data: bytes) -> tuple[str, str]:
    """The text and the encoding: UTF-16 with its byte-order mark (Windows editors write it),
    UTF-8 when it decodes, else Latin-1 (never fails)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), "utf-16"
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def parse(data: bytes | str, *, checks: bool = True) -> Tournament:
    """A TRF from its bytes (UTF-8 or Latin-1; CRLF, LF or CR) or text.

    Every record FIDE defines is read (TRF-16 and TRF-2026): the players (001), the header
    records whose text means something (dates, 142, 152, 162, 222, 240), the others kept as
    written. With ``checks`` (the default) the whole-file checks run too: opponents that exist
    and reciprocate, points that add up by record 162's scoring and 240's byes (:func:`check`).
    """
    if isinstance(data, bytes):
        text, encoding = decode(data)
    else:
        text, encoding = data, "utf-8"
    newline = "\r\n" if "\r\n" in text else "\r" if "\r" in text and "\n" not in text else "\n"
    t = Tournament(encoding=encoding, newline=newline)
    ending = "\r\n" if text.endswith("\r\n") else text[-1:] if text[-1:] in ("\r", "\n") else ""
    if ending != newline:
        t.final = ending  # a last line ended otherwise (or not at all): written back so
    raw_lines = re.split(r"\r\n|\r|\n", text) if "\r" in text else text.split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()
    if not any(line.strip() for line in raw_lines):
        t.errors.append(TrfError(1, 0, "the file is empty"))
        return t
    know_ranks(len(raw_lines))
    lines, errors = t.lines, t.errors
    append = lines.append
    readers = _READERS
    others = 0
    for no, line in enumerate(raw_lines, start=1):
        if line[:3] == "001":
            player = parse_player(line, no, errors)
            append(player if player is not None else line)
            continue
        others += 1
        append(line)
        if line[:3] in readers:
            readers[line[:3]](t, line, no)
    if others == len(raw_lines) and not any(_RECORD.match(line) for line in raw_lines):
        t.errors.append(
            TrfError(1, 0, "not a TRF file: no line starts with a record code such as 012 or 001")
        )
        return t
    check_dates(t)
    if checks:
        check_all(t)
    return t


_RECORD = re.compile(r"(?:\d{3}|XX[A-Z]|BB[A-Z]|###)(?: |$)")


def _record_problem(t: Tournament, line: str, no: int, column: int, message: str) -> None:
    what = RECORDS.get(line[:3], "")
    t.errors.append(TrfError(no, column, f"record {line[:3]} ({what}): {message}"))


def _read_number(t: Tournament, line: str, no: int) -> None:
    """142 and XXR: the number of rounds."""
    text = line[4:].strip()
    if text and not (text.isdigit() and int(text) > 0):
        _record_problem(t, line, no, 5, f"expected the number of rounds, got {text!r}")


def _read_colour(t: Tournament, line: str, no: int) -> None:
    """152: the initial colour, W or B (TRF-2026; files write w and b too)."""
    text = line[4:].strip()
    if text and text.upper() not in ("W", "B"):
        _record_problem(t, line, no, 5, f"expected the initial colour W or B, got {text!r}")


def _read_with(reader: Callable[[str], object]) -> Callable[[Tournament, str, int], None]:
    def read(t: Tournament, line: str, no: int) -> None:
        try:
            reader(line)
        except RecordError as error:
            _record_problem(t, line, no, error.column, error.message)

    return read


_READERS: dict[str, Callable[[Tournament, str, int], None]] = {
    "142": _read_number,
    "XXR": _read_number,
    "152": _read_colour,
    "162": _read_with(read_scoring),
    "222": _read_with(read_time_control),
    "240": _read_with(read_byes),
    # pairing programs' scoring (used where there is no 162)
    "XXS": _read_with(lambda line: read_program_scoring((line,))),
    **{tag: _read_with(lambda line: read_program_scoring((line,))) for tag in BB_CODES},
}


def check(t: Tournament) -> None:
    """The whole-file checks (:func:`.trf_check.check`): opponents that exist and
    reciprocate, points that add up by record 162's scoring and 240's byes, ..."""
    check_all(t)


def format_player(p: Player) -> str:
    """A ``001`` record in the columns of TRF-16."""
    points = "" if p.points is None else f"{float(p.points):.1f}"
    head = (
        f"001 {p.number:>4} {p.sex[:1]:1}{p.title:>3} {p.name[:33]:<33} "
        f"{'' if p.rating is None else p.rating:>4} {p.federation[:3]:>3} {p.fide_id[:11]:>11} "
        f"{p.birth[:10]:>10} {points:>4} {'' if p.rank is None else p.rank:>4}"
    )
    parts = [head]
    rounds = list(p.rounds)
    while rounds and rounds[-1].opponent is None and rounds[-1].result == " ":
        rounds.pop()  # rounds not played at the end: nothing to write
    for r in rounds:
        opp = "0000" if r.opponent is None else f"{r.opponent:>4}"
        parts.append(f"  {opp} {r.colour[:1] or ' '} {r.result}")
    return "".join(parts).rstrip()


def _norm_rounds(rounds: tuple[Round, ...]) -> tuple[Round, ...]:
    """Rounds as their meaning: no opponent means no colour; blank trailing rounds dropped."""
    out = [Round(None, "-", r.result) if r.opponent is None else r for r in rounds]
    while out and out[-1].opponent is None and out[-1].result == " ":
        out.pop()
    return tuple(out)


def same_fields(a: Player, b: Player) -> bool:
    """Whether two records say the same (their source lines aside)."""
    rest_a = a._replace(line_no=0, raw="", rounds=())
    rest_b = b._replace(line_no=0, raw="", rounds=())
    return rest_a == rest_b and _norm_rounds(a.rounds) == _norm_rounds(b.rounds)


def write(t: Tournament) -> str:
    """The file's text: unchanged player records as they were, changed ones in TRF-16 columns."""
    out = []
    for x in t.lines:
        if isinstance(x, Player):
            if x.raw:
                again = parse_player(x.raw, 0, [])
                if again is not None and same_fields(again, x):
                    out.append(x.raw)
                    continue
            out.append(format_player(x))
        else:
            out.append(x)
    return t.newline.join(out) + (t.newline if t.final is None else t.final)


def write_file(t: Tournament, path: Path) -> Path:
    """Write atomically, in the file's own encoding and line ends."""
    encoding = "utf-8" if t.encoding == "utf-8-sig" else t.encoding
    data = write(t).encode(encoding, errors="replace")
    if t.encoding == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    return write_bytes(path, data)


MAX_FILE = 64 << 20  # bytes: a TRF of 9,999 players and 15 rounds takes under 3 MiB


def read(path: Path) -> Tournament:
    """A TRF file; one larger than any tournament's report is refused before it is read."""
    return parse(read_regular(path, MAX_FILE, lambda mib: (
        f"a TRF of {mib:,.0f} MiB is larger than any tournament's report (at most "
        f"{MAX_FILE >> 20} MiB)")))  # fmt: skip
