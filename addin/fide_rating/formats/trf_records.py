"""The records of a TRF other than the players': what each code is, and the readers of those
whose text means something to a figure (dates, 132 round dates, TRF-2026's 162 scoring, 222
time control, 240 byes).

Each reader takes a record's text and gives its value, or raises :class:`RecordError` with the
column (1-based) and a message; :mod:`.trf` turns that into a problem with the file's line.
FIDE's *Tournament Report File Format Version 2026* (TRF26) is the specification; where files
in the wild write a record otherwise and the meaning is still clear, the reader takes it (and
says so where it had to choose).
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from fractions import Fraction
from typing import NamedTuple

#: The records FIDE defines (TRF-16 and TRF-2026), and those pairing programs add, by code.
RECORDS = {
    "001": "player", "012": "tournament name", "022": "city", "032": "federation",
    "042": "start date", "052": "end date", "062": "number of players",
    "072": "number of rated players", "082": "number of teams", "092": "type of tournament",
    "102": "chief arbiter", "112": "deputy chief arbiter", "122": "time control (text)",
    "132": "dates of the rounds", "013": "team (TRF-16)",
    # TRF-2026
    "142": "number of rounds", "152": "initial colour", "162": "scoring points",
    "172": "starting rank method", "182": "pairing controller", "192": "type of tournament (code)",
    "202": "tie-breaks", "212": "tie-breaks for the standings", "222": "time control (encoded)",
    "240": "byes", "250": "accelerated rounds", "260": "prohibited pairings",
    "299": "abnormal points", "300": "team boards out of order", "310": "team",
    "320": "team pairing-allocated byes", "330": "forfeited team matches",
    "352": "colours of the boards", "362": "team scoring points",
    "801": "team results (informative)", "802": "team results (informative)",
    # pairing programs' extensions (JaVaFo, bbpPairings)
    "XXR": "number of rounds (JaVaFo)", "XXC": "initial colour (JaVaFo)",
    "XXS": "scoring points (JaVaFo)", "XXA": "acceleration (JaVaFo)",
    "XXP": "forbidden pairs (JaVaFo)", "XXZ": "absent players (JaVaFo)",
    "BBW": "points for a win (bbpPairings)", "BBD": "points for a draw (bbpPairings)",
    "BBL": "points for a loss (bbpPairings)", "BBZ": "points for a zero-point bye (bbpPairings)",
    "BBF": "points for a forfeit loss (bbpPairings)", "BBU": "points for a bye (bbpPairings)",
}  # fmt: skip
#: TRF-2026's own records (a TRF-16 file has none of them).
TRF26_ONLY = frozenset(
    ("142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299",
     "300", "310", "320", "330", "352", "362", "801", "802")
)  # fmt: skip
#: A national rating record (TRF-2026): a federation's code where 001 would be, a starting rank.
NATIONAL = re.compile(r"[A-Z]{3} (?: {3}[0-9]| {2}[0-9]{2}| [0-9]{3}|[0-9]{4})(?: |$)")


class RecordError(ValueError):
    """A record that cannot be read: the column (1-based) and what is wrong."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


# --- dates (042, 052, 132) ----------------------------------------------------------------------

_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for m in names
}  # fmt: skip
_YMD = re.compile(r"(\d{4})\s*([./-])\s*(\d{1,2})\s*[./-]\s*(\d{1,2})")
_DMY = re.compile(r"(\d{1,2})\s*([./-])\s*(\d{1,2})\s*[./-]\s*(\d{4})")
_SHORT = re.compile(r"(\d{2})([./-])(\d{2})[./-](\d{2})")
_NAMED_MDY = re.compile(r"([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})")
_NAMED_DMY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\.?\s+([a-z]{3,9})\.?,?\s+(\d{4})")


def _day(year: int, month: int, day: int) -> _dt.date | None:
    try:
        return _dt.date(year, month, day)
    except ValueError:
        return None


def _century(yy: int) -> int:
    """A two-digit year: FIDE's ratings began in 1970, TRF in 2006."""
    return 1900 + yy if yy >= 70 else 2000 + yy


@functools.lru_cache(maxsize=256)
def date_readings(text: str) -> tuple[tuple[_dt.date, str], ...]:
    """Every date the text can be, with the form read, the likeliest first: ``2025/02/28``
    (also with - or . and blanks: TRF-2026's form), ``28.02.2025`` (and MM/DD/YYYY where
    both are dates), ``25/02/28`` (YY/MM/DD, the form of record 132; then DD/MM/YY and
    MM/DD/YY), ``Feb 28, 2025``, ``28 February 2025``. Empty when it is no date."""
    t = text.strip().lower()
    out: list[tuple[_dt.date, str]] = []

    def add(day: _dt.date | None, form: str) -> None:
        if day is not None and all(day != d for d, _ in out):
            out.append((day, form))

    if m := _YMD.fullmatch(t):
        sep = m.group(2)
        add(_day(int(m.group(1)), int(m.group(3)), int(m.group(4))), f"YYYY{sep}MM{sep}DD")
    elif m := _DMY.fullmatch(t):
        sep = m.group(2)
        a, b, y = int(m.group(1)), int(m.group(3)), int(m.group(4))
        add(_day(y, b, a), f"DD{sep}MM{sep}YYYY")
        add(_day(y, a, b), f"MM{sep}DD{sep}YYYY")
    elif m := _SHORT.fullmatch(t):
        sep = m.group(2)
        a, b, c = int(m.group(1)), int(m.group(3)), int(m.group(4))
        add(_day(_century(a), b, c), f"YY{sep}MM{sep}DD")
        add(_day(_century(c), b, a), f"DD{sep}MM{sep}YY")
        add(_day(_century(c), a, b), f"MM{sep}DD{sep}YY")
    elif (m := _NAMED_MDY.fullmatch(t)) and m.group(1) in _MONTHS:
        add(_day(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2))), "Month DD, YYYY")
    elif (m := _NAMED_DMY.fullmatch(t)) and m.group(2) in _MONTHS:
        add(_day(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1))), "DD Month YYYY")
    return tuple(out)


class DateReading(NamedTuple):
    """A header date as read: the day, the form, and the other days the text could be with
    why this one was taken (empty when the text allows only one)."""

    day: _dt.date | None
    form: str
    others: tuple[tuple[_dt.date, str], ...] = ()
    why: str = ""


def choose_dates(
    start: str | None, end: str | None, rounds: list[_dt.date | None]
) -> tuple[DateReading | None, DateReading | None]:
    """The start (042) and end (052) dates, read together: where a text allows several
    dates, the round dates (132) decide, then a start on or before the end in the same form,
    then the likeliest form (:func:`date_readings`)."""
    a = list(date_readings(start)) if start else []
    b = list(date_readings(end)) if end else []
    known = [d for d in rounds if d is not None]
    a_pick = b_pick = None
    why_a = why_b = ""
    if len(a) > 1 and known and sum(d == min(known) for d, _ in a) == 1:
        a_pick, why_a = next(x for x in a if x[0] == min(known)), "the first round's date (132)"
    if len(b) > 1 and known and sum(d == max(known) for d, _ in b) == 1:
        a_end = next(x for x in b if x[0] == max(known))
        b_pick, why_b = a_end, "the last round's date (132)"
    if a and b and (a_pick is None or b_pick is None) and (len(a) > 1 or len(b) > 1):
        pairs = [
            (x, y)
            for x in ([a_pick] if a_pick else a)
            for y in ([b_pick] if b_pick else b)
            if x[1] == y[1] and x[0] <= y[0]
        ]
        forms = {x[1] for x, _ in pairs}
        if len(forms) == 1:
            x, y = pairs[0]
            if a_pick is None and len(a) > 1:
                a_pick, why_a = x, "the only form in which the start is not after the end"
            if b_pick is None and len(b) > 1:
                b_pick, why_b = y, "the only form in which the start is not after the end"
        elif pairs and a_pick is None and b_pick is None:
            x, y = pairs[0]  # the likeliest form that fits both
            a_pick = x if len(a) > 1 else None
            b_pick = y if len(b) > 1 else None
            why_a = why_b = "the likeliest form that fits both dates"

    def reading(text: str | None, found: list[tuple[_dt.date, str]],
                pick: tuple[_dt.date, str] | None, why: str) -> DateReading | None:  # fmt: skip
        if text is None or not text.strip():
            return None
        if not found:
            return DateReading(None, "")
        chosen = pick or found[0]
        others = tuple(x for x in found if x != chosen)
        return DateReading(chosen[0], chosen[1], others,
                           (why or "the likeliest form") if others else "")  # fmt: skip

    return reading(start, a, a_pick, why_a), reading(end, b, b_pick, why_b)


_ROUND_DATE = re.compile(r"(\d{2}|\d{4})([./-])(\d{1,2})[./-](\d{1,2})")


def round_dates(record: str) -> tuple[list[_dt.date | None], str]:
    """The dates of the rounds in a 132 record (one a round from column 92, YY/MM/DD), and
    the form read: YY/DD/MM when no date reads as YY/MM/DD and all read so (a habit seen in
    the wild)."""
    text = record[91:] if len(record) > 91 else record[4:]
    found = [(m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))
             for m in _ROUND_DATE.finditer(text)]  # fmt: skip

    def year(y: str) -> int:
        return int(y) if len(y) == 4 else _century(int(y))

    ymd = [_day(year(y), a, b) for y, _, a, b in found]
    sep = found[0][1] if found else "/"
    if found and all(d is None for d in ymd):
        ydm = [_day(year(y), b, a) for y, _, a, b in found]
        if all(d is not None for d in ydm):
            return ydm, f"YY{sep}DD{sep}MM"
    return ymd, f"YY{sep}MM{sep}DD"


# --- 162: scoring points --------------------------------------------------------------------------

#: TRF-2026 record 162: the result codes each symbol covers ("W: Win OTB or by forfeit, or
#: full-point-bye"; "D: Draw OTB or half-point-bye"; "L: Loss OTB"; "A: Absence (zero-point-bye
#: or forfeit loss)"; "P: Pairing-allocated-bye"; "X: Unknown result"). Z is read as A (the
#: symbol bbpPairings and some files write).
SCORING_CODES = {"W": "1+WF", "D": "=DH", "L": "0L", "A": "-Z ", "P": "U", "X": ""}
# the points of each result code by TRF-2026 tag 162's defaults (W D L A P X)
DEFAULT_POINTS = {
    "1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1), "-": Fraction(0),
    "W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "H": Fraction(1, 2),
    "F": Fraction(1), "U": Fraction(1), "Z": Fraction(0), " ": Fraction(0),
}  # fmt: skip
DEFAULT_SCORING = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "A": Fraction(0)}
_SYMBOL_VALUE = re.compile(r"([A-Za-z])\s*(-?\d+(?:\.\d+)?)?")


def read_scoring(record: str) -> dict[str, Fraction]:
    """The points of each symbol a 162 record gives (:func:`_scoring`)."""
    return dict(_scoring(record))


@functools.lru_cache(maxsize=64)
def _scoring(record: str) -> tuple[tuple[str, Fraction], ...]:
    """The points of each symbol a 162 record gives (``162  W 1.0    D 0.5 ...``): the symbol
    in column 6 and the points in 7-10, every 9 columns (TRF26's table); the symbol in column
    5 is read too (the spec's prose, and some files). P is a win's points and X a draw's unless
    given (TRF26's defaults)."""
    given: dict[str, Fraction] = {}
    at = 4
    text = record.rstrip()
    while at < len(text):
        if text[at] == " ":
            at += 1
            continue
        m = _SYMBOL_VALUE.match(text, at)
        if m is None or m.group(2) is None:
            raise RecordError(at + 1, f"expected a symbol (W D L A P X) and its points such as "
                                      f"W 1.0, got {text[at : at + 9].strip()!r}")  # fmt: skip
        symbol = m.group(1).upper()
        symbol = "A" if symbol == "Z" else symbol
        if symbol not in SCORING_CODES:
            raise RecordError(at + 1, f"unknown scoring symbol {m.group(1)!r} (W D L A P X)")
        if symbol in given:
            raise RecordError(at + 1, f"scoring symbol {symbol} given twice")
        given[symbol] = Fraction(m.group(2))
        at = m.end()
    points = {**DEFAULT_SCORING, **given}
    points.setdefault("P", points["W"])
    points.setdefault("X", points["D"])
    return tuple(points.items())


# --- pairing programs' scoring records ---------------------------------------------------------

# JaVaFo's XXS codes (its Advanced User Manual, "Scoring point system"), the result codes of a
# player record each covers; W and D are its shortcuts
XXS_CODES = {
    "WW": "1W", "BW": "1W", "WD": "=D", "BD": "=D", "WL": "0L", "BL": "0L", "ZPB": "Z ",
    "HPB": "H", "FPB": "F", "PAB": "U", "FW": "+", "FL": "-",
    "W": "1W+F", "D": "=DH",
}  # fmt: skip
_COLOURED = (("WW", "BW"), ("WD", "BD"), ("WL", "BL"))
# bbpPairings' records (its TRF reader, src/fileformats/trf.cpp): points in columns 5-12
BB_CODES = {"BBW": "1W+F", "BBD": "=DH", "BBL": "0L", "BBZ": "Z ", "BBF": "-", "BBU": "U"}
_XXS_ITEM = re.compile(r"([A-Za-z]{1,3})=(\d{0,3}(?:\.\d{0,2})?)")


def read_program_scoring(records: tuple[str, ...]) -> dict[str, Fraction]:
    """The points of each result code that pairing programs' records give where TRF-2026's 162
    is not there: JaVaFo's ``XXS CODE=VALUE ...`` (later codes override earlier ones; W and D
    stand for all wins and all draws) and bbpPairings' ``BBW 2.0``, ``BBD``, ``BBL``, ``BBZ``,
    ``BBF``, ``BBU`` (a win's points count for the pairing-allocated bye unless BBU says
    otherwise). Points that differ by colour (WW and BW) cannot be checked by result code."""
    points = {code: DEFAULT_POINTS.get(code, Fraction(0)) for code in "1=0+-WDLHFUZ "}
    given: dict[str, Fraction] = {}
    bye_given = False
    for record in records:
        tag = record[:3]
        if tag == "XXS":
            at = 4
            for item in record[4:].split():
                m = _XXS_ITEM.fullmatch(item)
                code = m.group(1).upper() if m else ""
                if m is None or code not in XXS_CODES or m.group(2) in ("", "."):
                    raise RecordError(record.index(item, at) + 1, "expected CODE=VALUE such as "
                                      f"WW=1.0 (JaVaFo's codes), got {item!r}")  # fmt: skip
                at = record.index(item, at) + len(item)
                given[code] = Fraction(m.group(2))
                for result in XXS_CODES[code]:
                    points[result] = given[code]
        elif tag in BB_CODES:
            text = record[4:12].strip()
            if not re.fullmatch(r"\d{1,3}(?:\.\d)?", text):
                raise RecordError(5, f"expected points such as 1.0 in columns 5-12, got {text!r}")
            value = Fraction(text)
            for result in BB_CODES[tag]:
                points[result] = value
            bye_given = bye_given or tag == "BBU"
            if tag == "BBW" and not bye_given:
                points["U"] = value
    for white, black in _COLOURED:
        if white in given and black in given and given[white] != given[black]:
            raise RecordError(5, (
                f"points by colour ({white}={given[white]}, {black}={given[black]}) cannot be "
                "checked by result: not used"
            ))  # fmt: skip
    return points


# --- 222: the encoded time control ----------------------------------------------------------------


class Period(NamedTuple):
    """One period of a time control: its moves (None: the rest of the game), the seconds it
    gives, and the seconds added a move."""

    moves: int | None
    seconds: int
    increment: int


class EncodedTimeControl(NamedTuple):
    """Record 222: the periods of each player (``black`` None: the same as White's)."""

    text: str
    white: tuple[Period, ...]
    black: tuple[Period, ...] | None = None


_PERIOD = re.compile(r"(?:(\d+)/)?(\d+)(?:\+(\d+))?")


def _periods(text: str, column: int) -> tuple[Period, ...]:
    periods: list[Period] = []
    at = column
    for part in text.split(":"):
        m = _PERIOD.fullmatch(part)
        if m is None:
            raise RecordError(at, f"expected a period such as 40/6000+30, 5400+30 or 300, "
                                  f"got {part!r}")  # fmt: skip
        if max(len(g or "") for g in m.groups()) > 9:  # int() of 4,300 digits raises
            raise RecordError(at, f"expected a period such as 40/6000+30, got a number of "
                                  f"{max(len(g or '') for g in m.groups())} digits")  # fmt: skip
        moves = int(m.group(1)) if m.group(1) else None
        if periods and periods[-1].moves is None:
            raise RecordError(at, f"a period after the rest of the game, got {part!r}")
        if moves == 0:
            raise RecordError(at, f"a period of 0 moves, got {part!r}")
        periods.append(Period(moves, int(m.group(2)), int(m.group(3) or 0)))
        at += len(part) + 1
    return tuple(periods)


@functools.lru_cache(maxsize=64)
def read_time_control(record: str) -> EncodedTimeControl:
    """Record 222 (TRF26, "Encoded Time Control"): periods ``M/S`` (M moves in S seconds),
    ``M/S+I`` (and I seconds a move), ``S`` or ``S+I`` (the rest of the game), joined by
    ``:``; ``W…-B…`` gives each colour its own (an Armageddon game): ``5400+30``,
    ``40/6000+30:900+30``, ``W300-B240``."""
    text = record[4:].strip()
    column = 5 + len(record[4:]) - len(record[4:].lstrip())
    if not text:
        raise RecordError(5, "expected a time control such as 5400+30, got nothing")
    if text[:1].upper() == "W" and "-" in text:
        white, _, black = text[1:].partition("-")
        if black[:1].upper() != "B":
            raise RecordError(column, f"expected W…-B… (each colour's time), got {text!r}")
        return EncodedTimeControl(
            text, _periods(white, column + 1), _periods(black[1:], column + len(white) + 3)
        )
    return EncodedTimeControl(text, _periods(text, column))


def encode_time_control(periods: list[tuple[int | None, Fraction, Fraction]]) -> str | None:
    """Record 222's text for periods of (moves or None, minutes, seconds a move); None when
    a figure is not a whole number of seconds."""
    parts = []
    for moves, minutes, increment in periods:
        seconds = minutes * 60
        if seconds.denominator != 1 or increment.denominator != 1:
            return None
        part = f"{seconds.numerator}" + (f"+{increment.numerator}" if increment else "")
        parts.append(part if moves is None else f"{moves}/{part}")
    return ":".join(parts) or None


# --- 240: byes ------------------------------------------------------------------------------------

BYE_TYPES = {"F": "full-point bye", "H": "half-point bye", "Z": "zero-point bye"}


class Byes(NamedTuple):
    """A 240 record: the type (F, H or Z), the round, and the players (or teams) who had it."""

    code: str
    round: int
    ids: tuple[int, ...]


@functools.lru_cache(maxsize=4096)
def read_byes(record: str) -> Byes:
    """Record 240 (TRF26): the type in column 5 (F full-point, H half-point, Z zero-point
    bye), the round in 7-9, the players from 11-14 every 5 columns (``240 H 003  026  047``;
    blanks and tabs between the numbers are read as separators)."""
    code = record[4:5].upper()
    if code not in BYE_TYPES:
        raise RecordError(5, f"expected the type of bye F, H or Z, got {record[4:5]!r}")
    round_text = record[5:10].strip()
    if not round_text.isdigit() or int(round_text) == 0:
        raise RecordError(7, f"expected the round number, got {round_text!r}")
    ids = []
    at = 10
    for m in re.finditer(r"\S+", record[10:]):
        if not m.group().isdigit() or int(m.group()) == 0:
            raise RecordError(at + m.start() + 1, f"expected a starting rank, got {m.group()!r}")
        ids.append(int(m.group()))
    if not ids:
        raise RecordError(11, "expected the players who had the bye, got none")
    return Byes(code, int(round_text), tuple(ids))
