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

The time for 60 moves is the time of every period that begins by move 60, plus 60 increments
(or delays). The time control and the notations it is written in:
:mod:`fide_rating.rules.time_control`.

Standard, rapid or blitz (:func:`rating_type_of`): the same time for 60 moves against the
definitions in force on the event's start date (:data:`TIME_CLASSES`: 2012, 2014, 2024, each
with its source and what is unsure).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from fractions import Fraction

from .editions import Edition
from .errors import bad
from .time_control import TimeControl, TimeControlError, parse_time_control

# the time control and its notations live in .time_control; named here too, as they always were
__all__ = [
    "RAPID_AND_BLITZ_FROM", "RATING_TYPES", "TIME_CLASSES", "Band", "RatingTypeFound",
    "TimeClasses", "TimeControl", "TimeControlError", "parse_time_control", "rating_type_of",
    "required_minutes", "time_classes", "time_control_problems",
]  # fmt: skip

Minutes = Fraction


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


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


# --- standard, rapid or blitz: the time a player has for 60 moves, by date ---------------------

RATING_TYPES = ("standard", "rapid", "blitz")
RAPID_AND_BLITZ_FROM = _dt.date(2012, 1, 1)  # FIDE rates rapid and blitz games from events of 2012


@dataclass(frozen=True, slots=True)
class Band:
    """Minutes for 60 moves from ``low`` to ``high``, each end in or out of the band."""

    low: Fraction
    low_in: bool
    high: Fraction
    high_in: bool

    def holds(self, minutes: Fraction) -> bool:
        above = minutes >= self.low if self.low_in else minutes > self.low
        below = minutes <= self.high if self.high_in else minutes < self.high
        return above and below

    def __str__(self) -> str:
        low = f"at least {_num(self.low)}" if self.low_in else f"more than {_num(self.low)}"
        high = f"at most {_num(self.high)}" if self.high_in else f"less than {_num(self.high)}"
        return f"{low} and {high} min" if self.low else f"{high} min"


@dataclass(frozen=True, slots=True)
class TimeClasses:
    """The definitions of rapid and blitz for events starting on or after ``since``; 60
    minutes or more is standard. ``unsure``: what the research could not confirm."""

    since: _dt.date
    rapid: Band
    blitz: Band
    source: str
    unsure: str | None = None


F = Fraction
#: The definitions by date (the research: rules.md B.1). Time = "the time allotted + 60 times
#: any increment" for each player; for a control of several periods, the periods that begin by
#: move 60 and the increment of every move up to it, as B.02 1.1 counts them.
TIME_CLASSES = (
    # FIDE news, November 2011 (the rapid and blitz ratings from 1 January 2012): "each player
    # must have at least 15 minutes, but less than 60 minutes thinking time; or the time
    # allotted + 60 times any increment or delay is at least 15 minutes, but less than 60
    # minutes for each player. Only those 'blitz' games where each player has at least five
    # minutes, but less than 15 minutes, after adjustment for any increment or delay mode,
    # will be rated."
    TimeClasses(
        RAPID_AND_BLITZ_FROM,
        Band(F(15), True, F(60), False),
        Band(F(5), True, F(15), False),
        "FIDE's rapid and blitz regulations of 2012 (FIDE news, November 2011)",
    ),
    # Laws of Chess 2014, Appendix A.1: rapid "more than 10 minutes but less than 60 minutes
    # ... or the time allotted plus 60 times any increment"; B.1: blitz "10 minutes or less".
    TimeClasses(
        _dt.date(2014, 7, 1),
        Band(F(10), False, F(60), False),
        Band(F(0), False, F(10), True),
        "the Laws of Chess of 1 July 2014, Appendices A.1 and B.1",
        "the research did not find when the rating regulations took 'more than 10 minutes' "
        "(one report says 1 July 2013, the Laws say it from 2014) nor a blitz minimum from "
        "2014 to 2024 (one secondary source says there was none)",
    ),
    # Rapid and blitz regulations of 1 March 2024, 1.1.1: rapid "more than 10 minutes but less
    # than 60 minutes for each player; or the time allotted + 60 times any increment must be
    # more than 10 minutes but less than 60 minutes"; 1.1.2: blitz "more than 3 minutes but
    # not more than 10 minutes ... or the time allotted + 60 times any increment"; 1.2:
    # "Games where the players have different playing times are not rated."
    TimeClasses(
        _dt.date(2024, 3, 1),
        Band(F(10), False, F(60), False),
        Band(F(3), False, F(10), True),
        "FIDE's rapid and blitz regulations of 1 March 2024, 1.1.1 and 1.1.2",
        "whether the 2022 regulations already asked for more than 3 minutes was not seen",
    ),
)


@dataclass(frozen=True, slots=True)
class RatingTypeFound:
    """Which rating a time control's games go to: ``kind`` standard, rapid or blitz, or None
    (not rated, or cannot tell: ``why`` says); ``minutes``: a player's time for 60 moves."""

    kind: str | None
    minutes: Fraction | None
    why: str

    def __str__(self) -> str:
        return f"{self.kind or 'none'} ({self.why})"


def time_classes(on: _dt.date | None) -> TimeClasses | None:
    """The definitions in force for an event starting ``on`` (None: the newest); None before
    FIDE rated rapid and blitz games."""
    if on is None:
        return TIME_CLASSES[-1]
    found = None
    for classes in TIME_CLASSES:
        if on >= classes.since:
            found = classes
    return found


def rating_type_of(
    tc: TimeControl, on: _dt.date | None = None, black: TimeControl | None = None
) -> RatingTypeFound:
    """Standard, rapid or blitz: the time each player has for 60 moves (the time allotted plus
    60 times any increment) by the definitions in force on the event's start date ``on``
    (:data:`TIME_CLASSES`; None: the newest). ``black``: Black's own time control when the
    players' times differ (an Armageddon game), which is not rated.

    60 minutes or more is standard (every edition's B.02 1.1 asks for at least 60). Less is
    rapid or blitz from 2012 (the rapid and blitz ratings began with events of 1 January 2012);
    earlier it is no rating at all. Below blitz is no rating either. The definitions, by the
    event's start date (research: rules.md B.1):

    * from 2012-01-01, FIDE's news of November 2011: rapid "at least 15 minutes, but less than
      60 minutes ... or the time allotted + 60 times any increment or delay"; blitz "at least
      five minutes, but less than 15 minutes, after adjustment for any increment".
    * from 2014-07-01, the Laws of Chess, Appendices A.1 and B.1: rapid "more than 10 minutes
      but less than 60 minutes"; blitz "10 minutes or less". Unsure: when the rating
      regulations took "more than 10" (one report says 1 July 2013), and whether blitz had a
      minimum until 2024 (one secondary source says none; none is applied).
    * from 2024-03-01, the rapid and blitz regulations 1.1.1 and 1.1.2: rapid "more than 10
      minutes but less than 60 minutes"; blitz "more than 3 minutes but not more than 10
      minutes", each "or the time allotted + 60 times any increment"; 1.2 "Games where the
      players have different playing times are not rated". Unsure: whether the 2022
      regulations already had "more than 3".
    """
    minutes = tc.minutes_for(60)
    if black is not None and black.minutes_for(60) != minutes:
        other = black.minutes_for(60)
        return RatingTypeFound(
            None,
            None,
            f"White has {_num(minutes)} min for 60 moves and Black {_num(other)}: games where "
            "the players have different playing times are not rated (rapid and blitz "
            "regulations 1.2)",
        )
    have = f"{_num(minutes)} min for 60 moves"
    if minutes >= 60:
        return RatingTypeFound("standard", minutes, f"{have}: 60 or more is standard")
    classes = time_classes(on)
    if classes is None:
        return RatingTypeFound(
            None,
            minutes,
            f"{have}, less than 60: not standard, and FIDE rates rapid and blitz games only "
            f"from events starting on {RAPID_AND_BLITZ_FROM.isoformat()}",
        )
    since = f"{classes.source}, in force from {classes.since.isoformat()}"
    unsure = f"; unsure: {classes.unsure}" if classes.unsure else ""
    for kind, band in (("rapid", classes.rapid), ("blitz", classes.blitz)):
        if band.holds(minutes):
            return RatingTypeFound(kind, minutes, f"{have}: {kind} is {band} ({since}){unsure}")
    return RatingTypeFound(
        None,
        minutes,
        f"{have}: less than blitz, which is {classes.blitz} ({since}): not rated{unsure}",
    )
