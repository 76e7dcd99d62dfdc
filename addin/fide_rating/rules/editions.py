"""The editions of the FIDE Rating Regulations, one record each, keyed by rating type and date.

Standard ratings follow handbook chapter B.02; rapid and blitz their own chapter ("FIDE Rating
Regulations for Rapid and Blitz"). An edition applies to tournaments starting on or after its
``effective`` date (B.02 0.1). The regulation texts the project started from (B.02 2005 in Polish,
2012 and 2024 in Hungarian, FIDE's summary of 2024 in Estonian) are dated by their titles; where
FIDE applied a clause at another date (the 400-point rule from 1 July 2009, K 30/15/10 until 30
June 2014, ...), FIDE's date decides, and an amendment is a record of its own with its source.
Editions differ in data only: every algorithm reads the fields below and never compares dates
itself. This module is the only place that does.

The changes FIDE made once to a whole list (the raise of the rapid and blitz lists of 1 October
2022, the adjustment of 1 March 2024) are records of their own, :class:`ListChange`, keyed by
rating type and the list's date: :mod:`.list_changes` applies them.
"""

from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import bad
from .tables import PD_TABLE, PdTable

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
RATING_TYPES = (STANDARD, RAPID, BLITZ)


class CapRule(enum.Enum):
    """Who gets the 350/400-point rule (see RULES 5)."""

    EVERY_GAME = "every game, both players"
    ONE_UPGRADE = "one upgrade per tournament (the greatest difference)"
    NOT_FOR_TOP = "every game, except a player rated at or above the threshold"


class Junior(enum.Enum):
    """How long the junior K applies. FIDE's rating system counted to the end of the year of the
    18th birthday from the rule's start (its lists of December 2016), before its text said so."""

    NONE = "no junior rule"
    UNTIL_YEAR_END = "until the end of the year of the 18th birthday"


class InitialMethod(enum.Enum):
    """How an unrated player's first rating is computed."""

    WEIGHTED_EVENTS = "weighted mean of the events' Ru (2005-07 10.3)"
    AS_ONE_EVENT = "all games as if one event (2012-07 8.3)"
    FICTITIOUS_DRAWS = "two fictitious draws against 1800 (2024-03 8.2.2)"


@dataclass(frozen=True, slots=True, kw_only=True)
class Edition:
    """One edition of the FIDE Rating Regulations, in force from ``effective``."""

    name: str  # what a spreadsheet user types: "2024-03", "2024-12 rapid"
    effective: _dt.date
    source: str  # the FIDE handbook text it follows, and the translation read
    rating_type: str = STANDARD  # standard, rapid or blitz
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
    junior: Junior = Junior.UNTIL_YEAR_END
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
    list_months: int = 1  # a rating period's length: the months between two lists
    # rapid and blitz
    standard_rating_for_unrated: bool = False  # R&B 7.2.1: rated with the standard rating
    gap_rule: tuple[int, int] | None = None  # R&B 7.3.1 (2024-12): (600, 2600) not rated
    notes: tuple[str, ...] = field(default=())  # what is not confirmed, and why

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
    # 10.1(b) as FIDE's English text and Elo's table print it: the translation's bands 316-326
    # and 327-344 are its own (see tables.py)
    pd_table=PD_TABLE,
    dp_at_extremes=False,
    cap=350,
    k_new=25,
    k_standard=15,
    k_top=10,
    k_top_needs_new_games=True,
    junior=Junior.NONE,
    initial_method=InitialMethod.WEIGHTED_EVENTS,
    bonus_per_half_point=Fraction(25, 2),
    # 9.21/9.34/10.31: a published rating is over 1400. (The translator's note of 1201 from 2008
    # and 1001 from 2010 gave FIDE's plans; FIDE lowered the floor to 1200 from 2009-07-01.)
    floors=((_dt.date(2005, 7, 1), 1401),),
    min_games=9,
    pooling_months=24,  # 9.14(c): the same or the next 7 (quarterly) rating periods
    first_event_min_score=Fraction(1),
    min_rated_games_per_event=3,
    min_rated_games_applies_to_first=True,
    first_control_rule="recommended",  # 1.3: 40 moves "recommended"
    max_rounds_a_day=3,  # 3.1
    list_months=3,  # 9.11: lists on 1 January, April, July and October
)

E2009_07 = replace(
    E2005_07,
    name="2009-07",
    effective=_dt.date(2009, 7, 1),
    source=(
        "FIDE Handbook B.02 as amended from 1 July 2009: FIDE's news 'Changes to Title and "
        "Rating Regulations effective from July 1st 2009' (13 July 2009) and the 2009 text's "
        "0.6 (floor 1200); the 400-point rule from that date after federations' and FIDE "
        "officials' reports"
    ),
    cap=400,
    floors=((_dt.date(2009, 7, 1), 1200),),
    list_months=2,  # "The list dates will be January 1, March 1, May 1, July 1, ..."
    pooling_months=16,  # the same or the next 7 rating periods, now of two months
    notes=(
        "K stays 25/15/10 and the bonus 12.5 a half point: 'The change of K as decided in "
        "Dresden was not confirmed by the PB' (FIDE's news of 13 July 2009)",
        "the 400-point rule's date rests on federations' and officials' reports of 2009; "
        "FIDE's own sentence for it was not found",
    ),
)

E2011_07 = replace(
    E2009_07,
    name="2011-07",
    effective=_dt.date(2011, 7, 1),
    source=(
        "FIDE Handbook B.02 8.56 as in force until 30 June 2014 (quoted by federations: K 30 for "
        "a new player, 15 below 2400, 10 once a published 2400 is reached), with the bonus of "
        "15 a half point (half the highest K, as FIDE set it in 2009)"
    ),
    k_new=30,
    k_top_needs_new_games=False,
    bonus_per_half_point=Fraction(15),
    notes=(
        "the month K 30 began is not confirmed: 'The K factor of 30 was changed from 25 in the "
        "year 2011' (a secondary source); FIDE's changes apply from 1 July",
    ),
)

E2012_07 = replace(
    E2011_07,
    name="2012-07",
    effective=_dt.date(2012, 7, 1),
    source=(
        'FIDE Handbook B.02 "amended 1984-2012", in force from 1 July 2012 (Hungarian '
        "translation); K 30/15/10 and 9 games by FIDE's dates (to 30 June 2014)"
    ),
    dp_at_extremes=True,
    initial_method=InitialMethod.AS_ONE_EVENT,
    floors=((_dt.date(2012, 7, 1), 1000),),
    pooling_months=26,
    first_control_rule="exactly",  # 1.3: the first control "shall be 40 moves"
    max_rounds_a_day=None,
    list_months=1,  # 7.1: on the first day of each month
    notes=(
        "B.02 'amended 1984-2012' (Hungarian translation) gives K 40/20/10 with the junior rule "
        "and 5 games for a first rating; "
        "FIDE applied those from 1 July 2014 (federations quoting the handbook's 8.56 before and "
        "after that date; an arbiters' seminar: 'only 5 games ... down from 9'): this edition "
        "follows FIDE's dates",
    ),
)

E2014_07 = replace(
    E2012_07,
    name="2014-07",
    effective=_dt.date(2014, 7, 1),
    source=(
        "FIDE Handbook B.02, in force from 1 July 2014 (8.56 as federations quote it); worked "
        "examples of the Hungarian Chess Federation's rating regulation of 2017"
    ),
    k_new=40,
    k_standard=20,
    junior=Junior.UNTIL_YEAR_END,
    bonus_per_half_point=Fraction(20),
    min_games=5,
    first_event_min_score=Fraction(1, 2),
    min_rated_games_per_event=None,
    min_rated_games_applies_to_first=False,
    time_scope="game",  # 1.1: the highest rating of the two players of the game
    first_control_moves=30,
    first_control_rule="at least",  # 1.2: 30 moves or more
    notes=(
        "the junior K 40 lasts to the end of the year of the 18th birthday, as FIDE's rating "
        "system counted it: its list of December 2016 keeps K 40 for every junior turning 18 in "
        "2016 (7 of 7; December 2017: 100 of 102, none with K 20). The text said 'until their "
        "18th birthday' until FIDE's edition of 1 July 2017 ('until the end of the year of their "
        "18th birthday', as FIDE's Arbiters' Manuals of 2018 and 2021 quote it); the lists of "
        "2014 and 2015 were not checked",
        "K x n <= 700 is not in the 2014 text as quoted (nor in the 2017 federation regulation): "
        "it applies here from 2022-01, where FIDE's text has it (FIDE's 2017-07 edition, whose "
        "text was not read, may have brought it earlier)",
    ),
)

E2022_01 = replace(
    E2014_07,
    name="2022-01",
    effective=_dt.date(2022, 1, 1),
    source="FIDE Handbook B.02, in force from 1 January 2022 (English)",
    cap_rule=CapRule.ONE_UPGRADE,
    k_times_n_max=700,
    round_robin_variant=False,
    round_robin_unrated_method=False,
    time_minimums=((2400, 120), (1800, 90), (0, 60)),
    max_days=None,
    monthly_report_after_days=30,  # events longer than 30 days are reported monthly
    notes=(),
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
    initial_method=InitialMethod.FICTITIOUS_DRAWS,
    bonus_per_half_point=None,
    fictitious_games=2,
    fictitious_rating=1800,
    initial_max=2200,
    floors=((_dt.date(2024, 3, 1), 1400),),
)

E2025_10 = replace(
    E2024_03,
    name="2025-10",
    effective=_dt.date(2025, 10, 1),
    source="FIDE Handbook B.02, amendment of 8.3.1 in force from 1 October 2025 (English)",
    cap_rule=CapRule.NOT_FOR_TOP,
    uncapped_from=2650,
)

STANDARD_EDITIONS: tuple[Edition, ...] = (
    E2005_07, E2009_07, E2011_07, E2012_07, E2014_07, E2022_01, E2024_03, E2025_10,
)  # fmt: skip

# --- rapid and blitz: "FIDE Rating Regulations for Rapid and Blitz" --------------------------


def _rapid(
    standard: Edition, name: str, effective: _dt.date, source: str, **changes: object
) -> Edition:
    """A rapid edition: the standard rules of the date, with the rapid chapter's own."""
    base: dict[str, object] = {
        "k_new": 20, "k_standard": 20, "k_top": 20, "k_top_needs_new_games": False,
        "junior": Junior.NONE, "standard_rating_for_unrated": True, "rating_type": RAPID,
        "max_rounds_a_day": 15, "list_months": 1, "notes": (),
    }  # fmt: skip
    base.update(changes)
    return replace(standard, name=f"{name} rapid", effective=effective, source=source, **base)  # type: ignore[arg-type]


_ANNOUNCED_2011 = (
    "FIDE's announcement of the rapid and blitz lists (November 2011): events from 1 January "
    "2012, 'the same as currently used, with the exception that the K factor used will in all "
    "cases be 20'"
)
R2012_01 = _rapid(
    E2011_07, "2012-01", _dt.date(2012, 1, 1), _ANNOUNCED_2011,
    notes=(
        "the rapid and blitz texts of 2012 to 2021 were not found: these editions follow the "
        "standard rules of the date with FIDE's announced K 20",
        "a player without a rapid or blitz rating is rated with a standard one: FIDE's practice "
        "from 2012 (federations' reports), in the text as 7.2.1 from 2024",
    ),
)  # fmt: skip
R2012_07 = _rapid(E2012_07, "2012-07", _dt.date(2012, 7, 1), _ANNOUNCED_2011
                  + "; the standard rules of 1 July 2012", notes=R2012_01.notes)  # fmt: skip
R2014_07 = _rapid(E2014_07, "2014-07", _dt.date(2014, 7, 1), _ANNOUNCED_2011
                  + "; the standard rules of 1 July 2014", notes=R2012_01.notes)  # fmt: skip
R2018_07 = _rapid(
    E2014_07, "2018-07", _dt.date(2018, 7, 1),
    "FIDE Rating Regulations for Rapid and Blitz, in force from 1 July 2018 (not read): K 20, "
    "and K x n <= 700 for a player with more than 35 games in a rating period, as a Norwegian "
    "club's notice of the changes from 1 July 2018 gives it (28 June 2018)",
    k_times_n_max=700,
    notes=(
        *R2012_01.notes,
        "K x n <= 700 in rapid and blitz: in force from 1 July 2018 by the Norwegian notice; "
        "described again in November 2021 ('700/total number of games played, if you play "
        "more than 35 games in a period') and in 2022 as the rule before 1 October 2022 (the "
        "largest whole K with n x K within 700, an Italian summary of the 2022 changes); not "
        "in FIDE's announcement of 2011 (K 20 'in all cases'). The notice's example rounds "
        "700/40 = 17.5 to 18: FIDE's words (the largest whole number, 17) are applied",
        "the notice's other changes of 1 July 2018 (an unrated player must score a point in "
        "the first event, an event lasts at most 30 days) are not applied here",
    ),
)  # fmt: skip
R2022_01 = _rapid(
    E2022_01, "2022-01", _dt.date(2022, 1, 1),
    "FIDE Rating Regulations for Rapid and Blitz, in force from 1 January 2022 (not read: "
    "K 20 with K x n <= 700 as federations describe it; the one-upgrade 400-point rule as "
    "FIDE's own rapid calculations of 2022 show it)",
    k_times_n_max=700,
    notes=R2018_07.notes[:2],
)  # fmt: skip
R2022_10 = _rapid(
    E2022_01, "2022-10", _dt.date(2022, 10, 1),
    "FIDE Rating Regulations for Rapid and Blitz, in force from 1 October 2022: K as in the "
    "standard rules (federations' summaries; FIDE's text not read); the raise of the list of "
    "1 October 2022 is a list-wide change (fide-rating editions --notes)",
    k_new=40, k_standard=20, k_top=10, junior=Junior.UNTIL_YEAR_END, k_times_n_max=700,
)  # fmt: skip
R2024_03 = _rapid(
    E2024_03, "2024-03", _dt.date(2024, 3, 1),
    "FIDE Rating Regulations for Rapid and Blitz, applied from 1 March 2024 (as transcribed "
    "from FIDE's handbook): 1.1 the time controls, 1.2 equal playing times, 3.1 15 rapid or 30 "
    "blitz rounds a day, 7.2.1 the standard rating for an unrated player, 7.3.1 the plain "
    "400-point rule",
    k_new=40, k_standard=20, k_top=10, junior=Junior.UNTIL_YEAR_END, k_times_n_max=700,
)  # fmt: skip
R2024_12 = replace(
    R2024_03, name="2024-12 rapid", effective=_dt.date(2024, 12, 1),
    source="FIDE Rating Regulations for Rapid and Blitz, 7.3.1 as amended from 1 December 2024: "
    "'Games played between players with a rating difference of 600 points or more shall not "
    "be rated if at least one of the players is rated above 2600 on the relevant list'",
    gap_rule=(600, 2600),
    notes=(
        "the rule is applied as written, from 1 December 2024: FIDE's rating system did not "
        "apply it until late September 2025 and then recalculated the lists since December "
        "2024 retroactively; FIDE's lists published before that recalculation differ from "
        "these figures, the recalculated ones agree",
    ),
)  # fmt: skip
RAPID_EDITIONS: tuple[Edition, ...] = (R2012_01, R2012_07, R2014_07, R2018_07, R2022_01,
                                       R2022_10, R2024_03, R2024_12)  # fmt: skip


def _blitz(rapid: Edition) -> Edition:
    return replace(rapid, name=rapid.name.replace(" rapid", " blitz"), rating_type=BLITZ,
                   max_rounds_a_day=30)  # fmt: skip


BLITZ_EDITIONS: tuple[Edition, ...] = tuple(map(_blitz, RAPID_EDITIONS))

#: Every edition of every rating type: the record store, keyed by rating type and date.
EDITIONS: tuple[Edition, ...] = (*STANDARD_EDITIONS, *RAPID_EDITIONS, *BLITZ_EDITIONS)
LATEST: Edition = STANDARD_EDITIONS[-1]
_BY_NAME = {e.name: e for e in EDITIONS}
_BY_TYPE = {kind: tuple(e for e in EDITIONS if e.rating_type == kind) for kind in RATING_TYPES}


def editions_of(rating_type: str = STANDARD) -> tuple[Edition, ...]:
    """The editions of one rating type, oldest first."""
    if rating_type not in _BY_TYPE:
        raise bad(f"expected a rating type ({', '.join(RATING_TYPES)})", rating_type)
    return _BY_TYPE[rating_type]


def edition_on(day: _dt.date, rating_type: str = STANDARD) -> Edition:
    """The edition in force for a tournament of this rating type starting on ``day`` (B.02
    0.1)."""
    if isinstance(day, _dt.datetime):
        day = day.date()
    if not isinstance(day, _dt.date):
        raise bad("expected a date", day)
    chain = editions_of(rating_type)
    if day < chain[0].effective:
        what = "of the regulations" if rating_type == STANDARD else f"for {rating_type}"
        raise bad(f"no edition {what} before {chain[0].effective.isoformat()}", day.isoformat())
    found = chain[0]
    for e in chain:
        if day >= e.effective:
            found = e
    return found


def get_edition(
    which: Edition | str | _dt.date | None = None, rating_type: str | None = None
) -> Edition:
    """An edition by name ("2024-03", "2024-12 rapid"), by a tournament start date (of
    ``rating_type``, standard unless given), by a start date and a type in one text ("2025-11-10
    rapid"), by a type alone ("rapid": its newest), or the newest standard one for None."""
    kind = rating_type or STANDARD
    if which is None:
        return editions_of(kind)[-1]
    if isinstance(which, Edition):
        return which
    if isinstance(which, _dt.date):
        return edition_on(which, kind)
    if isinstance(which, str):
        name = " ".join(which.split()).lower()
        if name in _BY_NAME and (rating_type is None or _BY_NAME[name].rating_type == kind):
            return _BY_NAME[name]
        head, _, tail = name.rpartition(" ")
        if name in RATING_TYPES or tail in RATING_TYPES:
            kind, rest = (name, "") if name in RATING_TYPES else (tail, head)
            if rating_type is not None and kind != rating_type:
                raise bad(f"expected a {rating_type} edition", which)
            if not rest:
                return editions_of(kind)[-1]
            if f"{rest} {kind}" in _BY_NAME:
                return _BY_NAME[f"{rest} {kind}"]
            try:
                return edition_on(_dt.date.fromisoformat(rest), kind)
            except ValueError:
                pass
        elif name in _BY_NAME and rating_type is not None:
            # a standard edition's name with another rating type: that type on that date
            return edition_on(_BY_NAME[name].effective, kind)
        raise bad(
            "unknown edition; expected a name such as 2024-03 or 2024-12 rapid (fide-rating "
            "editions lists them), or a date",
            which,
        )
    raise bad("expected an edition name or a date", which)


def is_junior(edition: Edition, birth: int | _dt.date | None, on: _dt.date | None) -> bool:
    """Whether the junior K rule's age condition holds on ``on``: until the end of the year of the
    18th birthday (B.02 2022 8.3.3; FIDE's practice from the rule's start, 2014-07), so only the
    birth year counts. ``birth`` is a birth year or a birth date."""
    if edition.junior is Junior.NONE or birth is None:
        return False
    if on is None:
        raise bad("expected the event date to apply the junior K rule", on)
    year = birth.year if isinstance(birth, _dt.date) else birth
    return on.year <= year + edition.junior_age


# --- the changes FIDE made once to a whole list ----------------------------------------------


class ListRule(enum.Enum):
    """What a one-time change of a whole rating list does to a listed rating."""

    COMPRESS_BELOW_2000 = "a rating below 2000 becomes 0.6 x R + 800"
    RAISE_TO_STANDARD = "a rating more than 100 below the standard one becomes standard - 100"


@dataclass(frozen=True, slots=True, kw_only=True)
class ListChange:
    """A change FIDE made once to every rating of a list of the given types, with or without
    games in the period: applied to the list dated ``on``, after the period's own changes and
    before that list's floor."""

    name: str
    on: _dt.date  # the date of the list it was applied to
    rating_types: tuple[str, ...]
    rule: ListRule
    source: str
    notes: tuple[str, ...] = ()

    def falls_between(self, list_date: _dt.date, next_date: _dt.date) -> bool:
        """Whether a period from the list of ``list_date`` to the list of ``next_date`` crosses
        this change."""
        return list_date < self.on <= next_date


RAISE_2022 = ListChange(
    name="2022-10 raise",
    on=_dt.date(2022, 10, 1),
    rating_types=(RAPID, BLITZ),
    rule=ListRule.RAISE_TO_STANDARD,
    source=(
        "FIDE Rating Regulations for Rapid and Blitz as amended from 1 October 2022 (announced "
        "at the end of August 2022), as federations summarise it: 'I giocatori che hanno un "
        "rating Rapid e/o Blitz inferiore di oltre 100 punti rispetto a quello Standard "
        "ricevono un nuovo punteggio pari a quello Standard meno 100 punti' (Scacchierando, "
        "'Nuove regole FIDE per i rating Rapid&Blitz', 2022: Gukesh's rapid 2283 became 2632, "
        "his standard 2732 less 100)"
    ),
    notes=(
        "FIDE's text of the raise was not found: federations' summaries",
        "the standard rating is that of the new list of 1 October 2022 (a published case: a "
        "player whose standard rating rose between the September and October lists was raised "
        "from the October one), for every player on the rapid or blitz list, with or without "
        "games; a player without a rapid or blitz rating stays unrated",
    ),
)
ADJUSTMENT_2024 = ListChange(
    name="2024-03 adjustment",
    on=_dt.date(2024, 3, 1),
    rating_types=(STANDARD, RAPID, BLITZ),
    rule=ListRule.COMPRESS_BELOW_2000,
    source=(
        "FIDE's summary of the changes of 1 March 2024, point 1 (Estonian translation); FIDE "
        "Qualification Commission, 'New rating regulations come into force' (1 March 2024): "
        "'all players with a rating between 1000 and 2000 will receive a one-time increase'; on "
        "all three lists by the Norwegian Chess Federation's notice 'Endring i FIDE rating 1. "
        "mars' (20 February 2024: 'Endringene vil bli utført i alle grener (lang, hurtig- og "
        "lynsjakk)'), the Swedish Chess Federation's table of 16 February 2024 (1800 -> 1880, "
        "1200 -> 1520) and a Swedish district's notice ('gjordes för FIDE:s alla tre "
        "rankinglistor'), and the jump of FIDE's rapid and blitz lists of March 2024"
    ),
    notes=(
        "FIDE's rapid and blitz chapter of 2024 does not state the adjustment, and reports of "
        "February 2024 went both ways: it rests on FIDE's summary, federations' notices and "
        "FIDE's lists",
        "rounded to the nearest whole number (0.6 x R never ends in .5); FIDE's rounding of a "
        "rating such as 1801 (1880.6) was not checked against its list",
        "applied after the February 2024 results and before the new floor of 1400, so an "
        "adjusted 1200 (1520) stays rated",
    ),
)
#: The list-wide changes, oldest first: the record store :mod:`.list_changes` applies.
LIST_CHANGES: tuple[ListChange, ...] = (RAISE_2022, ADJUSTMENT_2024)


def list_changes_between(
    rating_type: str, list_date: _dt.date, next_date: _dt.date
) -> tuple[ListChange, ...]:
    """The list-wide changes of one rating type that a period from the list of ``list_date`` to
    the list of ``next_date`` crosses, oldest first."""
    editions_of(rating_type)  # checks the type
    for day in (list_date, next_date):
        if isinstance(day, _dt.datetime) or not isinstance(day, _dt.date):
            raise bad("expected a list date", day)
    if next_date <= list_date:
        raise bad(
            f"expected the next list after the list of {list_date.isoformat()}",
            next_date.isoformat(),
        )
    return tuple(
        c
        for c in LIST_CHANGES
        if rating_type in c.rating_types and c.falls_between(list_date, next_date)
    )


def adjustment_applies(edition: Edition, previous_list: _dt.date, new_list: _dt.date) -> bool:
    """Whether the one-time adjustment of 1 March 2024 falls between two lists of the edition's
    rating type (standard, rapid and blitz alike)."""
    found = list_changes_between(edition.rating_type, previous_list, new_list)
    return any(c.rule is ListRule.COMPRESS_BELOW_2000 for c in found)


def raise_applies(edition: Edition, previous_list: _dt.date, new_list: _dt.date) -> bool:
    """Whether the rapid and blitz lists' one-time raise of 1 October 2022 falls between two
    lists of the edition's rating type."""
    found = list_changes_between(edition.rating_type, previous_list, new_list)
    return any(c.rule is ListRule.RAISE_TO_STANDARD for c in found)
