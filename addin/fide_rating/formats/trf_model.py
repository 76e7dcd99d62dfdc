"""A TRF's model: its lines (player records parsed, the rest verbatim), its rounds and results,
and what its header records mean (dates, scoring, rounds, the encoded time control).

:mod:`.trf` reads and writes files, :mod:`.trf_player` parses a player record,
:mod:`.trf_check` runs the whole-file checks; each imports this module and none imports another
upward.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from .trf_records import (
    BB_CODES,
    DEFAULT_POINTS,
    SCORING_CODES,
    DateReading,
    EncodedTimeControl,
    RecordError,
    choose_dates,
    read_program_scoring,
    read_scoring,
    read_time_control,
)
from .trf_records import round_dates as _round_dates

RESULT_CODES = frozenset("+-WDL1=0HFUZ ")
PLAYED = {"1": 1.0, "=": 0.5, "0": 0.0}  # exact in binary, and the fast path of the core
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
        if not self.line:  # a problem of the event as a whole, or of a workbook's cell
            return self.message
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
    # why the line's fields cannot be used ("line 7: the fields after the name sit 1 column to
    # the right of their columns ..."), or "" for a line read from its columns
    misread: str = ""

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
    # the rounds whose game counts for neither player (the two records disagree), by
    # (starting rank, round): why, as both players' rows say it
    broken: dict[tuple[int, int], str] = field(default_factory=dict)

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


def scoring(t: Tournament) -> dict[str, Fraction]:
    """The points of each result code: TRF-2026 record 162's where the file has one (read as
    far as it can be), else a pairing program's (JaVaFo's XXS, bbpPairings' BBW/BBD ...), else
    the defaults (win 1, draw 1/2, loss 0)."""
    return dict(scoring_of(scoring_key(t)))


def scoring_key(t: Tournament) -> str | None:
    """The records that say the file's scoring, as one text: 162's, else the pairing
    programs' (None: the defaults)."""
    if t.header("162") is not None:
        return "162 " + (t.header("162") or "")
    programs = [x for _, x in t.others if x[:3] == "XXS" or x[:3] in BB_CODES]
    return "\n".join(programs) if programs else None


@functools.lru_cache(maxsize=64)
def scoring_of(record: str | None) -> tuple[tuple[str, Fraction], ...]:
    """The points of each result code from :func:`scoring_key`'s text (a 162 record alone:
    ``"162 W 1.0 ..."`` or what follows the tag)."""
    if record is not None and not record.startswith("162 ") and record[:3] in ("XXS", *BB_CODES):
        try:
            return tuple(read_program_scoring(tuple(record.split("\n"))).items())
        except RecordError:
            return tuple(DEFAULT_POINTS.items())  # reported by the reader; the defaults count
    values = None
    if record is not None:
        text = record if record.startswith("162 ") else "162 " + record
        try:
            values = read_scoring(text)
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


def points_of(results: Iterable[str]) -> Fraction:
    return sum((DEFAULT_POINTS.get(r, Fraction(0)) for r in results), Fraction(0))


def is_round_robin(t: Tournament) -> bool:
    """Every player meets every other the same number of times (and at most 30 players)."""
    players = t.players
    if not 3 <= len(players) <= 30:
        return False
    counts: dict[tuple[int, int], int] = {}
    for p in players.values():
        for r in p.rounds:
            if r.opponent is not None:
                counts[(p.number, r.opponent)] = counts.get((p.number, r.opponent), 0) + 1
    expected = len(players) * (len(players) - 1)
    times = set(counts.values())
    return len(counts) == expected and len(times) == 1
