"""The editions of the FIDE Rating Regulations (handbook chapter B.02), one record each.

An edition applies to tournaments starting on or after its ``effective`` date (B.02 0.1). Editions
differ in data only: every algorithm in the package reads the fields below and never compares
dates itself. This module is the only place that does.
"""

from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import bad
from .tables import PD_TABLE, PD_TABLE_2005, PdTable


class CapRule(enum.Enum):
    """Who gets the 350/400-point rule (see RULES 5)."""

    EVERY_GAME = "every game, both players"
    ONE_UPGRADE = "one upgrade per tournament (the greatest difference)"
    NOT_FOR_TOP = "every game, except a player rated at or above the threshold"


class Junior(enum.Enum):
    """How long the junior K applies."""

    NONE = "no junior rule"
    UNTIL_BIRTHDAY = "until the 18th birthday"
    UNTIL_YEAR_END = "until the end of the year of the 18th birthday"


class InitialMethod(enum.Enum):
    """How an unrated player's first rating is computed."""

    WEIGHTED_EVENTS = "weighted mean of the events' Ru (2005-07 10.3)"
    AS_ONE_EVENT = "all games as if one event (2012-07 8.3)"
    FICTITIOUS_DRAWS = "two fictitious draws against 1800 (2024-03 8.2.2)"


@dataclass(frozen=True, slots=True, kw_only=True)
class Edition:
    """One edition of the FIDE Rating Regulations, in force from ``effective``."""

    name: str  # what a spreadsheet user types: "2024-03"
    effective: _dt.date
    source: str  # the FIDE handbook text it follows, and the translation read
    # 8.1
    pd_table: PdTable = PD_TABLE
    dp_at_extremes: bool = True  # 2005-07 10.1: dp at p = 0 and 1 "obviously undefined"
    # 8.3.1 / 8.54 / 10.51: the 350/400-point rule
    cap: int = 400
    cap_rule: CapRule = CapRule.EVERY_GAME
    uncapped_from: int | None = None  # NOT_FOR_TOP: a player rated this or more is uncapped
    # K (8.3.3 / 8.56 / 10.52)
    k_new: int = 40
    k_standard: int = 20
    k_top: int = 10
    k_new_games: int = 30  # "until 30 games are completed"
    k_top_needs_new_games: bool = False  # 2005-07: 10 needs 2400 AND 30 games
    junior: Junior = Junior.UNTIL_BIRTHDAY
    junior_age: int = 18
    junior_below: int = 2300
    k_times_n_max: int | None = None  # 2014-07 on: K x n <= 700
    # initial rating
    initial_method: InitialMethod = InitialMethod.AS_ONE_EVENT
    bonus_per_half_point: Fraction | None = Fraction(15)  # above 50 % (8.23)
    round_robin_variant: bool = True  # below 50 % in a round robin: dp x n / (n + 1)
    round_robin_unrated_method: bool = True  # 8.21b / 10.21b with the correction pass
    fictitious_games: int = 0
    fictitious_rating: int = 0
    initial_max: int | None = None
    floors: tuple[tuple[_dt.date, int], ...] = ((_dt.date(2012, 7, 1), 1000),)
    min_games: int = 5  # games against rated opponents for a first rating
    pooling_months: int = 26
    first_event_min_score: Fraction = Fraction(1, 2)  # first event below this is disregarded
    min_rated_games_per_event: int | None = None  # an event with fewer is disregarded
    min_rated_games_applies_to_first: bool = False
    # 2024-03 one-time adjustment (FIDE's summary of the 1 March 2024 changes, point 1)
    adjustment_date: _dt.date | None = None
    # which events and games may be rated (sections 1 to 4): the time each player must have
    # for a game of 60 moves, by the highest rating (of the tournament, or of the game)
    time_minimums: tuple[tuple[int, int], ...] = ((2200, 120), (1600, 90), (0, 60))
    time_scope: str = "tournament"  # whose highest rating counts: "tournament" or "game"
    first_control_moves: int = 40  # moves of the first time control
    first_control_rule: str = "exactly"  # "exactly", "at least" or "recommended"
    max_hours_a_day: int = 12  # 3.1, counted on games of 60 moves
    max_rounds_a_day: int | None = None  # 2005-07 3.1: three rounds
    max_days: int | None = 90  # 4.1: longer only by permission (leagues excepted)
    monthly_report_after_days: int | None = None  # 2024-03 4.1
    notes: tuple[str, ...] = field(default=())

    def floor_on(self, day: _dt.date | None) -> int:
        """The rating floor for an event starting on ``day`` (the edition's first one if None)."""
        value = self.floors[0][1]
        for start, floor in self.floors:
            if day is not None and day >= start:
                value = floor
        return value

    def __str__(self) -> str:
        return self.name


E2005_07 = Edition(
    name="2005-07",
    effective=_dt.date(2005, 7, 1),
    source="FIDE Handbook B.02, in force from 1 July 2005 (Polish translation, 2006 update)",
    pd_table=PD_TABLE_2005,
    dp_at_extremes=False,
    cap=350,
    k_new=25,
    k_standard=15,
    k_top=10,
    k_top_needs_new_games=True,
    junior=Junior.NONE,
    initial_method=InitialMethod.WEIGHTED_EVENTS,
    bonus_per_half_point=Fraction(25, 2),
    # 10.31/10.33 and the translator's note: 1401, then 1201 from 2008, 1001 from 2010
    floors=(
        (_dt.date(2005, 7, 1), 1401),
        (_dt.date(2008, 1, 1), 1201),
        (_dt.date(2010, 1, 1), 1001),
    ),
    min_games=9,
    pooling_months=24,  # 9.14(c): the same or the next 7 (quarterly) rating periods
    first_event_min_score=Fraction(1),
    min_rated_games_per_event=3,
    min_rated_games_applies_to_first=True,
    first_control_rule="recommended",  # 1.3: 40 moves "recommended"
    max_rounds_a_day=3,  # 3.1
)

E2012_07 = replace(
    E2005_07,
    name="2012-07",
    effective=_dt.date(2012, 7, 1),
    source=(
        'FIDE Handbook B.02 "amended 1984-2012", in force from 1 July 2012 (Hungarian translation)'
    ),
    pd_table=PD_TABLE,
    dp_at_extremes=True,
    cap=400,
    k_new=40,
    k_standard=20,
    k_top=10,
    k_top_needs_new_games=False,
    junior=Junior.UNTIL_BIRTHDAY,
    initial_method=InitialMethod.AS_ONE_EVENT,
    bonus_per_half_point=Fraction(15),
    floors=((_dt.date(2012, 7, 1), 1000),),
    min_games=5,
    pooling_months=26,
    first_event_min_score=Fraction(1, 2),
    min_rated_games_applies_to_first=False,
    first_control_rule="exactly",  # 1.3: the first control "shall be 40 moves"
    max_rounds_a_day=None,
)

E2014_07 = replace(
    E2012_07,
    name="2014-07",
    effective=_dt.date(2014, 7, 1),
    source=(
        "FIDE Handbook B.02, in force from 1 July 2014; worked examples of the Hungarian Chess "
        "Federation's rating regulation of 2017"
    ),
    bonus_per_half_point=Fraction(20),
    k_times_n_max=700,
    min_rated_games_per_event=None,
    time_scope="game",  # 1.1: the highest rating of the two players of the game
    first_control_moves=30,
    first_control_rule="at least",  # 1.2: 30 moves or more
)

E2022_01 = replace(
    E2014_07,
    name="2022-01",
    effective=_dt.date(2022, 1, 1),
    source="FIDE Handbook B.02, in force from 1 January 2022 (English)",
    cap_rule=CapRule.ONE_UPGRADE,
    round_robin_variant=False,
    round_robin_unrated_method=False,
    time_minimums=((2400, 120), (1800, 90), (0, 60)),
    max_days=None,
    monthly_report_after_days=30,  # events longer than 30 days are reported monthly
)

E2024_03 = replace(
    E2022_01,
    name="2024-03",
    effective=_dt.date(2024, 3, 1),
    source=(
        "FIDE Handbook B.02, in force from 1 March 2024 (Hungarian translation), and FIDE's "
        "summary of the changes (Estonian translation)"
    ),
    cap_rule=CapRule.EVERY_GAME,
    junior=Junior.UNTIL_YEAR_END,
    initial_method=InitialMethod.FICTITIOUS_DRAWS,
    bonus_per_half_point=None,
    fictitious_games=2,
    fictitious_rating=1800,
    initial_max=2200,
    floors=((_dt.date(2024, 3, 1), 1400),),
    adjustment_date=_dt.date(2024, 3, 1),
)

E2025_10 = replace(
    E2024_03,
    name="2025-10",
    effective=_dt.date(2025, 10, 1),
    source="FIDE Handbook B.02, amendment of 8.3.1 in force from 1 October 2025 (English)",
    cap_rule=CapRule.NOT_FOR_TOP,
    uncapped_from=2650,
)

#: Every edition, oldest first.
EDITIONS: tuple[Edition, ...] = (E2005_07, E2012_07, E2014_07, E2022_01, E2024_03, E2025_10)
LATEST: Edition = EDITIONS[-1]
_BY_NAME = {e.name: e for e in EDITIONS}


def edition_on(day: _dt.date) -> Edition:
    """The edition in force for a tournament starting on ``day`` (B.02 0.1)."""
    if isinstance(day, _dt.datetime):
        day = day.date()
    if not isinstance(day, _dt.date):
        raise bad("expected a date", day)
    if day < EDITIONS[0].effective:
        raise bad(
            f"no edition of the regulations before {EDITIONS[0].effective.isoformat()}",
            day.isoformat(),
        )
    found = EDITIONS[0]
    for e in EDITIONS:
        if day >= e.effective:
            found = e
    return found


def get_edition(which: Edition | str | _dt.date | None = None) -> Edition:
    """An edition by name ("2024-03"), by a tournament start date, or the newest for None."""
    if which is None:
        return LATEST
    if isinstance(which, Edition):
        return which
    if isinstance(which, _dt.date):
        return edition_on(which)
    if isinstance(which, str):
        name = which.strip()
        if name in _BY_NAME:
            return _BY_NAME[name]
        raise bad(f"unknown edition; expected one of {', '.join(_BY_NAME)}", which)
    raise bad("expected an edition name or a date", which)


def is_junior(edition: Edition, birth: int | _dt.date | None, on: _dt.date | None) -> bool:
    """Whether the junior K rule's age condition holds on ``on`` (8.56 2012-07; 8.3.3 2024-03).

    ``birth`` is a birth year or a birth date. Until the 18th birthday needs the date when the
    birthday falls in the year of ``on``; until the end of the year needs only the year.
    """
    if edition.junior is Junior.NONE or birth is None:
        return False
    if on is None:
        raise bad("expected the event date to apply the junior K rule", on)
    year = birth.year if isinstance(birth, _dt.date) else birth
    last_year = year + edition.junior_age
    if edition.junior is Junior.UNTIL_YEAR_END:
        return on.year <= last_year
    if on.year != last_year:
        return on.year < last_year
    if not isinstance(birth, _dt.date):
        raise bad(
            f"expected a birth date, not a year: the 18th birthday falls in {last_year} "
            f"and edition {edition.name} counts until the birthday",
            birth,
        )
    try:
        birthday = birth.replace(year=last_year)
    except ValueError:  # 29 February
        birthday = _dt.date(last_year, 3, 1)
    return on < birthday


def adjustment_applies(edition: Edition, previous_list: _dt.date, new_list: _dt.date) -> bool:
    """Whether the 2024-03 one-time adjustment falls between two lists (FIDE's summary of
    the 1 March 2024 changes, point 1)."""
    when = edition.adjustment_date
    return when is not None and previous_list < when <= new_list
