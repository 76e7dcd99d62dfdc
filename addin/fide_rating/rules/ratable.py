"""Which games may be rated at all: the time control of B.02 section 1, in every edition.

Each edition's data (:class:`~fide_rating.rules.editions.Edition`): the time every player must
have for a game of 60 moves by the highest rating (1.1), and the moves of the first control
(1.2, before 2014 1.3).

* 2005-07 (Polish translation, 1.11-1.13, 1.3): a participant of the tournament rated 2200 or
  more: 120 minutes; 1600 or more: 90; all below 1600: 60. A first control of 40 moves is
  recommended.
* 2012-07 (Hungarian translation, 1.1, 1.3): the same minutes by the tournament's highest
  rating ("exceeds" 2200 and 1600: the text's third case, "all below 1600", shows that 1600
  itself is in the middle band); the first control is 40 moves.
* 2014-07 (public B.02 2014): the same minutes by the highest rating of the two players of the
  game; a first control of 30 moves or more.
* 2022-01 and 2024-03 (Hungarian translation of 2024, 1.1 and 1.2; the summary of the 2024
  changes names no change here): a player of the game rated 2400 or more: 120 minutes; 1800
  or more: 90; both below 1800: 60; a first control of 30 moves or more. The translation says
  "exceeds", but its third case ("both below 1800") again puts 1800 itself in the middle band.

The time for 60 moves is the time of every period that begins by move 60, plus 60 increments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .editions import Edition
from .errors import bad

Minutes = Fraction


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control: its periods (moves, or None for the rest of the game; minutes) and the
    increment in seconds a move from move 1."""

    periods: tuple[tuple[int | None, Minutes], ...]
    increment: Fraction = Fraction(0)

    @property
    def first_control_moves(self) -> int | None:
        """The moves of the first control; None when the first period is the whole game."""
        return self.periods[0][0] if self.periods else None

    def minutes_for(self, moves: int = 60) -> Minutes:
        """A player's time for a game of ``moves`` moves (B.02 1.1 counts 60)."""
        total = Fraction(0)
        start = 1
        for period_moves, minutes in self.periods:
            if start > moves:
                break
            total += minutes
            if period_moves is None:
                break
            start += period_moves
        return total + self.increment * moves / 60

    def __str__(self) -> str:
        parts = [
            f"{_num(m)} min" if n is None else f"{n} moves in {_num(m)} min"
            for n, m in self.periods
        ]
        if self.increment:
            parts.append(f"{_num(self.increment)} s a move")
        return " + ".join(parts)


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


# --- reading the notations arbiters write (TRF record 122 is free text) ------------------------

_MOVES_MINUTES = re.compile(r"(\d+)\s*(?:moves?|mv|m|z(?:ü|ue)ge?)?\s*/\s*(\d+(?:[.,]\d+)?)\s*"
                            r"(?:min(?:utes?)?|'|m)?")  # fmt: skip
_MINUTES_MOVES = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:min(?:utes?)?|'|m)\s*/\s*(\d+)\s*"
                            r"(?:moves?|mv|m|z(?:ü|ue)ge?)")  # fmt: skip
_SUDDEN = re.compile(r"(?:g|sd|game)\s*/?\s*(\d+(?:[.,]\d+)?)\s*(?:min(?:utes?)?|'|m)?")
_SECONDS = re.compile(r"(?:inc(?:rement)?\s*)?(\d+(?:[.,]\d+)?)\s*(?:s|sec(?:onds?)?|\"|'')"
                      r"(?:\s*(?:/|per|a)\s*(?:moves?|mv|m|zug))?")  # fmt: skip
_INCREMENT = re.compile(r"inc(?:rement)?\s*(\d+(?:[.,]\d+)?)")
_HOURS = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:h|hours?|std)\s*(\d+)?\s*(?:min|'|m)?")
_MINUTES = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:min(?:utes?)?|'|m)")
_BARE = re.compile(r"(\d+(?:[.,]\d+)?)")
_FROM_MOVE_ONE = re.compile(
    r"\s*(?:starting\s+)?from\s+(?:the\s+)?(?:move\s+(?:1|one)|first\s+move)\b"
)


def _f(text: str) -> Fraction:
    return Fraction(text.replace(",", "."))


def parse_time_control(text: str) -> TimeControl | None:
    """A time control from the notations in use, or None when the text cannot be read:
    ``90'+30"``, ``90+30``, ``90 min/40 moves + 30 min + 30 s/move``, ``G/90;+30``,
    ``40/120, 20/60, G/30``, ``40/120, 60``, ``2h``, ``120 min``."""
    raw = text.strip().lower().replace("’", "'").replace("″", '"')
    raw = re.sub(
        r"\s*(?:starting\s+)?from\s+(?:the\s+)?(?:move\s+(?:1|one)|first\s+move)\b", "", raw
    )
    if not raw:
        return None
    periods: list[tuple[int | None, Fraction]] = []
    increment = Fraction(0)
    for part in (p.strip() for p in re.split(r"[,;+&]|\band\b|\bplus\b", raw)):
        if not part:
            continue
        if m := _MINUTES_MOVES.fullmatch(part):
            periods.append((int(m.group(2)), _f(m.group(1))))
        elif m := _MOVES_MINUTES.fullmatch(part):
            periods.append((int(m.group(1)), _f(m.group(2))))
        elif m := _SUDDEN.fullmatch(part):
            periods.append((None, _f(m.group(1))))
        elif (m := _SECONDS.fullmatch(part)) or (m := _INCREMENT.fullmatch(part)):
            increment = _f(m.group(1))
        elif m := _HOURS.fullmatch(part):
            periods.append((None, _f(m.group(1)) * 60 + int(m.group(2) or 0)))
        elif m := _MINUTES.fullmatch(part):
            periods.append((None, _f(m.group(1))))
        elif m := _BARE.fullmatch(part):
            value = _f(m.group(1))
            if not periods or periods[-1][0] is not None:
                periods.append((None, value))  # minutes: the game, or the rest of it
            else:
                increment = value  # after the game's time: seconds a move (90+30, G/90;+30)
        else:
            return None
    if not periods or any(p[0] is None for p in periods[:-1]):
        return None  # no time at all, or a period after the rest of the game
    return TimeControl(tuple(periods), increment)


# --- the rules --------------------------------------------------------------------------------


def required_minutes(highest_rating: int, edition: Edition) -> int:
    """The minutes each player must have for 60 moves (1.1), by the highest rating: of the
    tournament (2005-07, 2012-07) or of the two players of the game (later)."""
    if not 0 <= highest_rating <= 4000:
        raise bad("expected a rating from 0 (unrated) to 4000", highest_rating)
    for rating_from, minutes in edition.time_minimums:
        if highest_rating >= rating_from:
            return minutes
    return edition.time_minimums[-1][1]


def time_control_problems(tc: TimeControl, highest_rating: int, edition: Edition) -> list[str]:
    """What keeps a game at this time control from being rated; empty when it may be rated."""
    problems = []
    need = required_minutes(highest_rating, edition)
    have = tc.minutes_for(60)
    whose = "the tournament's" if edition.time_scope == "tournament" else "the game's"
    if have < need:
        problems.append(
            f"{_num(have)} min for 60 moves, {need} needed with {whose} highest rating "
            f"{highest_rating} (B.02 {edition.name} 1.1)"
        )
    first = tc.first_control_moves
    clause = "1.3" if edition.first_control_rule in ("exactly", "recommended") else "1.2"
    if first is not None and edition.first_control_rule == "at least":
        if first < edition.first_control_moves:
            problems.append(
                f"a first control of {first} moves, at least {edition.first_control_moves} "
                f"needed (B.02 {edition.name} {clause})"
            )
    elif (
        first is not None
        and edition.first_control_rule == "exactly"
        and first != edition.first_control_moves
    ):
        problems.append(
            f"a first control of {first} moves, {edition.first_control_moves} required "
            f"(B.02 {edition.name} {clause})"
        )
    return problems
