"""Standard, rapid or blitz: a time control's class on a date (rules.ratable.rating_type_of),
on both sides of every boundary of every definition."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from fide_rating.rules.ratable import TimeControl, rating_type_of, time_classes

D2013 = dt.date(2013, 5, 1)  # the 2012 definitions: rapid [15, 60), blitz [5, 15)
D2020 = dt.date(2020, 5, 1)  # the Laws of 2014: rapid (10, 60), blitz up to 10
D2025 = dt.date(2025, 5, 1)  # 2024: rapid (10, 60), blitz (3, 10]


def _tc(minutes: float, increment: int = 0) -> TimeControl:
    return TimeControl(((None, Fraction(minutes)),), Fraction(increment))


@pytest.mark.parametrize(
    ("minutes", "increment", "on", "kind"),
    [
        (90, 30, D2025, "standard"),
        (60, 0, D2025, "standard"),
        (59, 60, D2025, "standard"),  # 59 + 60 x 1 s = 60
        (59, 0, D2025, "rapid"),
        (10, 5, D2025, "rapid"),  # 10 + 5 = 15
        (10, 0, D2025, "blitz"),  # "not more than 10"
        (10, 1, D2025, "rapid"),  # 11
        (3, 2, D2025, "blitz"),  # 5
        (3, 0, D2025, None),  # "more than 3"
        (15, 0, D2013, "rapid"),  # "at least 15"
        (14, 0, D2013, "blitz"),
        (10, 0, D2013, "blitz"),
        (5, 0, D2013, "blitz"),  # "at least five minutes"
        (4, 0, D2013, None),
        (12, 0, D2020, "rapid"),  # more than 10 since the Laws of 2014
        (10, 0, D2020, "blitz"),
        (3, 0, D2020, "blitz"),  # no blitz minimum found for 2014 to 2024
        (25, 10, dt.date(2010, 1, 1), None),  # before FIDE rated rapid games
        (90, 30, dt.date(2010, 1, 1), "standard"),
    ],
)
def test_classes_by_date(minutes: float, increment: int, on: dt.date, kind: str | None) -> None:
    found = rating_type_of(_tc(minutes, increment), on)
    assert found.kind == kind, found.why
    assert found.minutes == Fraction(minutes) + increment


def test_the_boundaries_of_each_definition() -> None:
    assert time_classes(dt.date(2011, 12, 31)) is None
    assert time_classes(dt.date(2012, 1, 1)) is not None
    assert rating_type_of(_tc(12), dt.date(2014, 6, 30)).kind == "blitz"
    assert rating_type_of(_tc(12), dt.date(2014, 7, 1)).kind == "rapid"
    assert rating_type_of(_tc(2, 1), dt.date(2024, 2, 29)).kind == "blitz"
    assert rating_type_of(_tc(2, 1), dt.date(2024, 3, 1)).kind is None
    assert rating_type_of(_tc(15)).kind == "rapid"  # no date: the newest definitions


def test_the_reason_cites_the_text_and_what_is_unsure() -> None:
    found = rating_type_of(_tc(10, 5), D2025)
    assert found.why == (
        "15 min for 60 moves: rapid is more than 10 and less than 60 min (FIDE's rapid and "
        "blitz regulations of 1 March 2024, 1.1.1 and 1.1.2, in force from 2024-03-01); "
        "unsure: whether the 2022 regulations already asked for more than 3 minutes was not "
        "seen"
    )
    assert "at least 15 and less than 60 min" in rating_type_of(_tc(15), D2013).why
    assert "unsure" in rating_type_of(_tc(3), D2020).why


def test_periods_with_their_own_increments() -> None:
    # 40/6000+30:900+30: 100 min + 15 min + 60 x 30 s = 145 min for 60 moves
    tc = TimeControl.from_seconds([(40, 6000, 30), (None, 900, 30)])
    assert tc.increment == 30 and tc.minutes_for(60) == 145
    # an increment only from move 41: 90 min + 30 min + 20 x 30 s = 130
    late = TimeControl.from_seconds([(40, 5400, 0), (None, 1800, 30)])
    assert late.increments == (Fraction(0), Fraction(30)) and late.minutes_for(60) == 130
    assert str(late) == "40 moves in 90 min + 30 min (30 s a move)"
    assert rating_type_of(late, D2025).kind == "standard"


def test_different_times_for_white_and_black_are_not_rated() -> None:
    found = rating_type_of(_tc(5), D2025, black=_tc(4))
    assert found.kind is None and "different playing times are not rated" in found.why
    assert rating_type_of(_tc(5), D2025, black=_tc(5)).kind == "blitz"
