"""A TRF player record (``001``): every field read from its columns, each problem found with
its column; fast for the usual record (its round blocks matched and made all at once)."""

from __future__ import annotations

import datetime as _dt
import itertools
import re
from collections.abc import Callable
from fractions import Fraction

from .trf_model import RESULT_CODES, Player, Round, TrfError

_COLOURS = frozenset(("w", "b", "-", " "))
_COLOUR = {"W": "w", "B": "b"}
_BLOCK = re.compile(r"  ([ 0-9]{4}) (.) (.)")
_WELL_FORMED = re.compile(
    r"(?:  [ 0-9]{4} [wbWB \-] [-+WDLHFUZwdlhfuz10= ])*(?:  [ 0-9]{4} [wbWB \-])?"
)


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


def know_ranks(lines: int) -> None:
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
    if not (number_text.isascii() and number_text.isdigit()):
        number_text = number_text.strip()
        if not (number_text.isascii() and number_text.isdigit()):
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
        except (ValueError, ZeroDivisionError):  # 1/0, ², text
            found.append((81, f"points must be a number such as 5.5, got "
                              f"{points_text.strip()!r}"))  # fmt: skip
    rank = _RANKS.get(line[85:89], _UNREAD)
    if rank is _UNREAD:
        rank_text = line[85:89].strip()
        rank = None
        if rank_text.isascii() and rank_text.isdigit():
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
    misread = ""
    if found:
        who = f"player {int(number_text)} ({line[14:47].strip() or 'no name'}): "
        shift = _shift(line)
        if shift is not None:  # every field after the name is read from the wrong columns
            where = f"{abs(shift)} column{'s' if abs(shift) > 1 else ''} "
            where += "to the right" if shift > 0 else "to the left"
            why = (
                f"the fields after the name sit {where} of their places (an extra or a missing "
                "blank?): none of them is used"
            )
            misread = f"line {line_no} does not sit in its columns: {why}"
            errors.append(TrfError(line_no, 0, f"{who}the line does not sit in its columns: {why}"))
        else:
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
            misread,
        ),
    )


def _shift(line: str) -> int | None:
    """How many columns the fields after the name sit away from their own, where a shift of
    the whole rest of the line explains what is wrong with it (an extra or a missing blank in
    the name): the rating then reads as four digits between blanks, or blank, and the round
    blocks tile, shifted; with no rounds, the rating alone must read so."""
    for d in (1, -1, 2, -2, 3, -3):
        rating = line[48 + d : 52 + d]
        if line[52 + d : 53 + d].strip() or line[47 + d : 48 + d].strip():
            continue
        if rating.strip() and not (len(rating) == 4 and rating.isascii() and rating.isdigit()):
            continue
        rest = line[89 + d :].rstrip()
        if rest and not _WELL_FORMED.fullmatch(rest):
            continue
        if not rest and not rating.strip():
            continue  # nothing says the line is shifted: no rating, no rounds
        return d
    return None


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
    if rating_text.isascii() and rating_text.isdigit():
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
        if opp_text.isascii() and opp_text.isdigit():
            opponent = int(opp_text) or None
        elif opp_text.strip():
            stripped = opp_text.strip()
            if stripped.isascii() and stripped.isdigit():
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
