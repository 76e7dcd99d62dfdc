"""FIDE Tournament Report Files (TRF-16, and TRF-2026 where it adds records): read and write.

The reader keeps every line: player records (``001``) are parsed into fields, every other
record (tournament header ``012``..``362``, team records ``013``/``310``, national rating
records, ``XX`` records of pairing programs, ``###`` comments) is kept verbatim, so that a file
read and written again is the same file. Problems are collected with their line and column and
reading goes on where it safely can, like a PGN reader.
"""

from __future__ import annotations

import datetime as _dt
import functools
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from ..files import read_regular, write_bytes
from .trf_records import (
    RECORDS,
    SCORING_CODES,
    DateReading,
    EncodedTimeControl,
    RecordError,
    choose_dates,
    date_readings,
    read_byes,
    read_scoring,
    read_time_control,
)
from .trf_records import round_dates as _round_dates

RESULT_CODES = frozenset("+-WDL1=0HFUZ ")
_COLOURS = frozenset(("w", "b", "-", " "))
_COLOUR = {"W": "w", "B": "b"}
_BLOCK = re.compile(r"  ([ 0-9]{4}) (.) (.)")
_WELL_FORMED = re.compile(
    r"(?:  [ 0-9]{4} [wbWB \-] [-+WDLHFUZwdlhfuz10= ])*(?:  [ 0-9]{4} [wbWB \-])?"
)
PLAYED = {"1": 1.0, "=": 0.5, "0": 0.0}  # exact in binary, and the fast path of the core
# points of each code by TRF-2026 tag 162's defaults (W D L A P X)
DEFAULT_POINTS = {
    "1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1), "-": Fraction(0),
    "W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "H": Fraction(1, 2),
    "F": Fraction(1), "U": Fraction(1), "Z": Fraction(0), " ": Fraction(0),
}  # fmt: skip
OPPOSITE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}
TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM",
          "wc": "WCM"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class TrfError:
    """A problem at a line (1-based) and column (1-based; 0 for the whole line)."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        return f"{where}: {self.message}"


class Round(NamedTuple):
    """One round of a player record: opponent (None for 0000 or blank), colour, result code."""

    opponent: int | None
    colour: str  # "w", "b", "-" or " "
    result: str  # one of RESULT_CODES, upper case

    @property
    def rated_result(self) -> float | None:
        """The score of a rated game (1, = or 0 against an opponent), else None."""
        return PLAYED.get(self.result) if self.opponent is not None else None


class Player(NamedTuple):
    """A ``001`` record: every field, and the line it came from."""

    number: int
    sex: str
    title: str
    name: str
    rating: int | None
    federation: str
    fide_id: str
    birth: str
    points: Fraction | None
    rank: int | None
    rounds: tuple[Round, ...]
    line_no: int = 0
    raw: str = ""

    @property
    def title_name(self) -> str:
        return TITLES.get(self.title.lower(), self.title.upper())

    @property
    def birth_date(self) -> _dt.date | int | None:
        """The birth date, or only the year when that is all the file gives."""
        text = self.birth.strip()
        m = re.fullmatch(r"(\d{4})(?:[./-](\d{1,2})[./-](\d{1,2}))?", text)
        if m is None or int(m.group(1)) == 0:
            return None
        if m.group(2) is None:
            return int(m.group(1))
        try:
            return _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return int(m.group(1))


@dataclass
class Tournament:
    """A whole TRF: its lines in order (players parsed, everything else verbatim)."""

    lines: list[str | Player] = field(default_factory=list)
    errors: list[TrfError] = field(default_factory=list)
    warnings: list[TrfError] = field(default_factory=list)  # read, but worth a look
    encoding: str = "utf-8"
    newline: str = "\n"
    given_start: _dt.date | None = None  # the start date given for the file's (--start)
    final: str | None = None  # how the last line ends: "" for no line end; None: ``newline``

    @functools.cached_property
    def players(self) -> dict[int, Player]:
        """The player records by starting rank (computed once: a tournament's lines are
        complete when it is made, by :func:`parse` or by whoever builds one)."""
        return {x.number: x for x in self.lines if isinstance(x, Player)}

    @functools.cached_property
    def others(self) -> list[tuple[int, str]]:
        """Every line that is not a player record, with its number (1-based): computed once,
        as :attr:`players`."""
        return [(i, x) for i, x in enumerate(self.lines, start=1) if isinstance(x, str)]

    @functools.cached_property
    def _first(self) -> dict[str, str]:
        first: dict[str, str] = {}
        for _, x in self.others:
            first.setdefault(x[:3], x)
        return first

    def header(self, tag: str) -> str | None:
        """The text of the first record with this tag (``012`` name, ``042`` start, ...)."""
        x = self._first.get(tag)
        return None if x is None else x[4:].rstrip()

    def records(self, tag: str) -> list[str]:
        """Every record with this tag, whole (``240`` byes ...)."""
        return [x for _, x in self.others if x[:3] == tag]

    @property
    def name(self) -> str | None:
        return self.header("012")

    def dates(self) -> tuple[DateReading | None, DateReading | None]:
        """The start (042) and end (052) dates as read, with the form chosen where the text
        allows several (:func:`~.trf_records.choose_dates`)."""
        return choose_dates(self.header("042"), self.header("052"), round_dates(self))

    @property
    def start(self) -> _dt.date | None:
        """The start date: the one given (``--start``), else record 042's."""
        if self.given_start is not None:
            return self.given_start
        found = self.dates()[0]
        return found.day if found else None

    @property
    def end(self) -> _dt.date | None:
        found = self.dates()[1]
        return found.day if found else None

    @property
    def rounds(self) -> int:
        found = max((len(p.rounds) for p in self.players.values()), default=0)
        declared = self.header("XXR") or self.header("142")
        if declared and declared.strip().isdigit():
            found = max(found, int(declared.strip()))
        return found

    @functools.cached_property
    def team_event(self) -> bool:
        """A team event (TRF-2026 team records 310, or a 192 team code): the points of a 001
        record are informative there, and 240 names teams."""
        kind = self.header("192") or ""
        return "TEAM" in kind.upper() or any(x[:3] == "310" for _, x in self.others)


def round_dates(t: Tournament) -> list[_dt.date | None]:
    """The dates of the rounds (record 132: one date a round, YY/MM/DD, from column 92)."""
    record = next((x for _, x in t.others if x[:3] == "132"), None)
    return [] if record is None else _round_dates(record)[0]


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


class _Cache(dict[str, object]):
    """Field texts already read and their values (a field's text is read once): a miss is
    read by ``read`` and remembered while there are fewer than ``most``."""

    def __init__(self, read: Callable[[str], object], most: int = 20_000) -> None:
        super().__init__()
        self.read = read
        self.most = most

    def __missing__(self, text: str) -> object:
        value = self.read(text)
        if len(self) < self.most:
            self[text] = value
        return value


def _opponent_value(text: str) -> int | None:
    """A well-formed opponent field (four digits or blanks) as a number; None for 0000."""
    return int(text) or None if text.strip() else None


_OPPONENTS = _Cache(_opponent_value)
_POINTS: dict[str, Fraction] = {}
_BIRTHS: set[str] = set()  # birth dates found valid


_RANK_TEXTS: list[str] = []  # the opponent fields "   1", "   2" ... made so far


def _know_ranks(lines: int) -> None:
    """Put the starting ranks up to ``lines`` in the cache of opponent fields at once (in C):
    each would otherwise be read alone, the first time it is met."""
    top = min(lines, 9_999)
    if len(_OPPONENTS) < top:
        if len(_RANK_TEXTS) < top:
            _RANK_TEXTS.extend(f"{i:>4}" for i in range(len(_RANK_TEXTS) + 1, top + 1))
        _OPPONENTS.update(zip(_RANK_TEXTS[:top], range(1, top + 1), strict=True))


def forget() -> None:
    """Empty the reader's caches (the fields met so far): how a benchmark times a parse as a
    fresh process runs it."""
    _OPPONENTS.clear()
    _POINTS.clear()
    _BIRTHS.clear()
    _RATINGS.clear()
    _RANKS.clear()
    _RANKS.update({"    ": None, "": None})


MAX_RECORD = 89 + 10 * 999  # a player record with 999 rounds
MAX_ERRORS_PER_LINE = 5
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_DIGITS = re.compile(r" *[0-9]+")
MIN_RATING, MAX_RATING = 1, 4000  # what the rules core takes (FIDE's ratings: 1000 to 2900)
_BIRTH = re.compile(r"(\d{4})(?:\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,2}))?")


_UNKNOWN_BIRTH = re.compile(r"[0 ./-]*")  # 0000/00/00, ".  ." : written for "not known"


def _valid_birth(text: str) -> bool:
    """A year, or a date (00 for an unknown month or day), or only zeros and separators (a
    birth date not known, as some programs write it)."""
    if len(text) == 10 and text[4] == "/" and text[7] == "/" and text[:2] in ("19", "20"):
        try:  # the usual YYYY/MM/DD, read in C
            _dt.date.fromisoformat(f"{text[:4]}-{text[5:7]}-{text[8:]}")
            return True
        except ValueError:
            pass
    if _UNKNOWN_BIRTH.fullmatch(text):
        return True
    m = _BIRTH.fullmatch(text)
    if m is None:
        return False
    year = int(m.group(1))
    if not 1850 <= year <= 2200:
        return False
    if m.group(2) is None:
        return True
    month, day = int(m.group(2)), int(m.group(3))
    if month == 0 or day == 0:
        return month <= 12 and day <= 31
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return True


# a round block of TRF-16 as programs write it: its opponent (the colour and result, in their
# columns, are read as slices of the record)
_STRICT_BLOCKS = re.compile(r"  ([ 0-9]{4}) [wb \-] [-+WDLHFUZ10= ]")
_ROUND = itertools.repeat(Round)
_make = tuple.__new__


def parse_player(line: str, line_no: int, errors: list[TrfError]) -> Player | None:
    """A ``001`` record, with its problems added to ``errors``; None when unusable."""
    size = len(line)
    if size < 8:
        errors.append(TrfError(line_no, 0, f"player record too short ({size} characters)"))
        return None
    if size > MAX_RECORD:
        errors.append(TrfError(line_no, 0, f"player record too long ({size:,} characters; at "
                                           f"most {MAX_RECORD:,})"))  # fmt: skip
        return None
    number_text = line[4:8]
    if not number_text.isdigit():
        number_text = number_text.strip()
        if not number_text.isdigit():
            errors.append(TrfError(line_no, 5, f"starting rank must be a number, got "
                                               f"{number_text!r}"))  # fmt: skip
            return None
    found: list[tuple[int, str]] = []  # (column, problem): named with the player at the end
    rating = _RATINGS.get(line[48:53], _UNREAD)  # columns 49-52 and the blank 53
    if rating is _UNREAD:
        rating = _rating(line, found)
    points_text = line[80:84]
    points = _POINTS.get(points_text)
    if points is None and points_text.strip():
        try:
            points = _points(points_text.strip())
            if len(_POINTS) < 10_000:
                _POINTS[points_text] = points
        except ValueError:
            found.append((81, f"points must be a number such as 5.5, got "
                              f"{points_text.strip()!r}"))  # fmt: skip
    rank = _RANKS.get(line[85:89], _UNREAD)
    if rank is _UNREAD:
        rank_text = line[85:89].strip()
        rank = None
        if rank_text.isdigit():
            rank = int(rank_text)
            if len(_RANKS) < 20_000:
                _RANKS[line[85:89]] = rank
        elif rank_text:
            found.append((86, f"rank must be a number, got {rank_text!r}"))
    rest = line[89:].rstrip()
    # whole blocks of 10 columns (the last one's result may be blank)
    blocks = rest if not len(rest) % 10 else rest.ljust(-(-len(rest) // 10) * 10)
    opponents = _STRICT_BLOCKS.findall(blocks)
    rounds: tuple[Round, ...]
    if len(opponents) * 10 == len(blocks):
        # the usual record: every block matched, so they tile the text (each round in its
        # columns, every code known and in its case); made in C (map, zip), all at once
        known = map(_OPPONENTS.__getitem__, opponents)
        rounds = tuple(map(_make, _ROUND, zip(known, blocks[7::10], blocks[9::10], strict=True)))
    elif _WELL_FORMED.fullmatch(rest):  # the same with codes in the other case (W, d ...)
        rounds = tuple(
            _make(Round, (_OPPONENTS[o], _COLOUR.get(c, c), r.upper()))
            for o, c, r in _BLOCK.findall(blocks)
        )
    else:
        rounds = _rounds_one_by_one(line, found)
    birth = line[69:79].strip()
    if birth and birth not in _BIRTHS:
        if _valid_birth(birth):
            if len(_BIRTHS) < 20_000:
                _BIRTHS.add(birth)
        else:
            found.append((70, f"birth date: expected YYYY/MM/DD or a year, got {birth!r}"))
    if not line.isprintable():
        bad = _CONTROL.search(line)
        if bad is not None:
            found.append((bad.start() + 1, (
                "a tab character in the record (a TRF's columns are filled with spaces)"
                if bad.group() == "\t"
                else f"a control character (U+{ord(bad.group()):04X}) in the record"
            )))  # fmt: skip
    if found:
        who = f"player {int(number_text)} ({line[14:47].strip() or 'no name'}): "
        for column, message in found[:MAX_ERRORS_PER_LINE]:
            errors.append(TrfError(line_no, column, who + message))
        if len(found) > MAX_ERRORS_PER_LINE:
            errors.append(TrfError(line_no, 0, "more problems in this record (not listed)"))
    # the fields in Player's order (positional: the fastest way to make one); the starting
    # rank the same number object as where it is an opponent (a quicker look-up)
    number = _OPPONENTS[number_text] if len(number_text) == 4 else None
    return _make(
        Player,
        (
            number if number is not None else int(number_text),
            line[9:10],  # 10: sex
            line[10:13].strip(),  # 11-13: title
            line[14:47].strip(),  # 15-47: name
            rating,
            line[53:56].strip(),  # 54-56: federation
            line[57:68].strip(),  # 58-68: FIDE number
            birth,  # 70-79: birth date
            points,
            rank,
            rounds,
            line_no,
            line,
        ),
    )


_DECIMAL = re.compile(r"(\d{1,4})(?:\.(\d))?")


def _points(text: str) -> Fraction:
    """Points as TRF writes them (``11.5``), exactly; any other number Fraction reads."""
    m = _DECIMAL.fullmatch(text)
    if m is None:
        return Fraction(text)
    tenths = int(m.group(1)) * 10 + int(m.group(2) or 0)
    return Fraction(tenths // 10) if tenths % 10 == 0 else Fraction(tenths, 10)


_UNREAD = object()
_RATINGS: dict[str, object] = {}  # columns 49-53 of a record whose rating was good
_RANKS: dict[str, object] = {"    ": None, "": None}


def _rating(line: str, found: list[tuple[int, str]]) -> int | None:
    """The rating (columns 49-52; 0 or blank: unrated), its problems added to ``found``;
    remembered when it has none."""
    rating_text = line[48:52].strip()
    rating = None
    if rating_text.isdigit():
        rating = int(rating_text) or None
        if line[52:53].strip():
            digits = _DIGITS.match(line, 48)
            found.append((49, "rating: the field is columns 49-52 and column 53 is blank, "
                              f"got {digits.group().strip() if digits else line[48:56]!r} "
                              "(the line's text is too long there)"))  # fmt: skip
            return rating
        if rating is not None and not MIN_RATING <= rating <= MAX_RATING:
            found.append((49, f"rating must be from {MIN_RATING} to {MAX_RATING}, got {rating}"))
            return rating
    elif rating_text:
        found.append((49, f"rating must be a number, got {rating_text!r}"))
        return None
    if len(_RATINGS) < 20_000:
        _RATINGS[line[48:53]] = rating
    return rating


def _rounds_one_by_one(line: str, found: list[tuple[int, str]]) -> tuple[Round, ...]:
    """The rounds of a record that is not well formed, block by block, each problem found
    with its column."""
    rounds: list[Round] = []
    end = len(line.rstrip())
    at = 91  # 0-based start of round 1's opponent (column 92)
    while at < end:
        opp_text = line[at : at + 4]
        colour = line[at + 5 : at + 6] or " "
        result = (line[at + 7 : at + 8] or " ").upper()
        k = len(rounds) + 1
        if line[at - 2 : at] not in ("  ", " ", ""):
            found.append((at - 1, f"round {k}: expected two blanks before the opponent, got "
                                  f"{line[at - 2 : at]!r}"))  # fmt: skip
        opponent: int | None = None
        if opp_text.isdigit():
            opponent = int(opp_text) or None
        elif opp_text.strip():
            stripped = opp_text.strip()
            if stripped.isdigit():
                opponent = int(stripped) or None
            else:
                found.append((at + 1, f"round {k}: opponent must be a starting rank, got "
                                      f"{opp_text!r}"))  # fmt: skip
        if colour not in _COLOURS:
            lowered = colour.lower()
            if lowered in ("w", "b"):
                colour = lowered
            else:
                found.append((at + 6, f"round {k}: colour must be w, b or -, got {colour!r}"))
        if result not in RESULT_CODES:
            found.append((at + 8, f"round {k}: unknown result code {result!r}"))
            result = " "
        rounds.append(Round(opponent, colour, result))
        at += 10
    return tuple(rounds)


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
    _know_ranks(len(raw_lines))
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
    from .trf_check import check as check_all
    from .trf_check import check_dates

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
}


def scoring(t: Tournament) -> dict[str, Fraction]:
    """The points of each result code: TRF-2026 record 162's where the file has one (read as
    far as it can be), else the defaults (win 1, draw 1/2, loss 0)."""
    return dict(scoring_of(t.header("162")))


@functools.lru_cache(maxsize=64)
def scoring_of(record: str | None) -> tuple[tuple[str, Fraction], ...]:
    values = None
    if record is not None:
        try:
            values = read_scoring("162 " + record)
        except RecordError:
            values = None  # reported by the reader; the defaults count
    if values is None:
        return tuple(DEFAULT_POINTS.items())
    out = {code: Fraction(0) for code in RESULT_CODES}
    for symbol, codes in SCORING_CODES.items():
        for code in codes:
            out[code] = values[symbol]
    return tuple(out.items())


def time_control(t: Tournament) -> EncodedTimeControl | None:
    """TRF-2026 record 222, the encoded time control (periods: moves, seconds, seconds a
    move), or None when the file has none or it cannot be read (reported by :func:`parse`).
    The one place a command finds an event's time control in a TRF for its rating type
    (:func:`fide_rating.rules.ratable.rating_type_of`)."""
    record = t.header("222")
    if record is None:
        return None
    try:
        return read_time_control("222 " + record)
    except RecordError:
        return None


def check(t: Tournament) -> None:
    """The whole-file checks (:func:`.trf_check.check`): opponents that exist and
    reciprocate, points that add up by record 162's scoring and 240's byes, ..."""
    from .trf_check import check as check_all

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


def points_of(results: Iterable[str]) -> Fraction:
    return sum((DEFAULT_POINTS.get(r, Fraction(0)) for r in results), Fraction(0))
