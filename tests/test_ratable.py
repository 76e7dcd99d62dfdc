"""B.02 section 1: the time a player must have for 60 moves and the first control, in every
edition, on both sides of every boundary; the notations arbiters write; FIDE_RATABLE."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

import fide_rating as fr
from fide_rating.cells import PREFIX, call
from fide_rating.rules.ratable import (
    TimeControl,
    parse_time_control,
    required_minutes,
    time_control_problems,
)


@pytest.mark.parametrize(
    ("text", "periods", "increment", "for_60"),
    [
        ("90'+30\"", [(None, 90)], 30, 120),
        ("90+30", [(None, 90)], 30, 120),
        ("90 min/40 moves + 30 min + 30 s/move", [(40, 90), (None, 30)], 30, 150),
        ("90 min/40 moves + 30 min + 30 sec/move from move 1", [(40, 90), (None, 30)], 30, 150),
        ("G/90;+30", [(None, 90)], 30, 120),
        ("G/90; inc 30", [(None, 90)], 30, 120),
        ("40/120, 20/60, G/30", [(40, 120), (20, 60), (None, 30)], 0, 180),
        ("40/120, 60", [(40, 120), (None, 60)], 0, 180),  # the real TRF's record 122
        ("2h", [(None, 120)], 0, 120),
        ("1h30 + 30s", [(None, 90)], 30, 120),
        ("120 min", [(None, 120)], 0, 120),
        ("15+10", [(None, 15)], 10, 25),
        ("40/90 + 30'+30\"", [(40, 90), (None, 30)], 30, 150),
    ],
)
def test_notations(text: str, periods: list[tuple[int | None, int]], increment: int,
                   for_60: int) -> None:  # fmt: skip
    tc = parse_time_control(text)
    assert tc is not None, text
    assert tc.periods == tuple((m, Fraction(x)) for m, x in periods)
    assert tc.increment == increment and tc.minutes_for(60) == for_60


@pytest.mark.parametrize("text", ["", "rapid", "G/60 d", "90 min + 40/120", "Fischer"])
def test_notations_that_cannot_be_read(text: str) -> None:
    assert parse_time_control(text) is None


def test_only_periods_that_begin_by_move_60_count() -> None:
    tc = TimeControl(((40, Fraction(100)), (20, Fraction(50)), (None, Fraction(15))))
    assert tc.minutes_for(60) == 150  # the last period begins at move 61
    assert TimeControl(((61, Fraction(30)), (None, Fraction(30)))).minutes_for(60) == 30


@pytest.mark.parametrize(
    ("edition", "rating", "minutes"),
    [
        ("2005-07", 1599, 60), ("2005-07", 1600, 90), ("2005-07", 2199, 90), ("2005-07", 2200, 120),
        ("2012-07", 1599, 60), ("2012-07", 1600, 90), ("2012-07", 2199, 90), ("2012-07", 2200, 120),
        ("2014-07", 1600, 90), ("2014-07", 2200, 120),
        ("2022-01", 1799, 60), ("2022-01", 1800, 90), ("2022-01", 2399, 90), ("2022-01", 2400, 120),
        ("2024-03", 1799, 60), ("2024-03", 1800, 90), ("2024-03", 2399, 90), ("2024-03", 2400, 120),
        ("2025-10", 0, 60),
    ],
)  # fmt: skip
def test_minutes_by_the_highest_rating(edition: str, rating: int, minutes: int) -> None:
    assert required_minutes(rating, fr.get_edition(edition)) == minutes


def test_the_day_the_2022_minimums_start() -> None:
    before = fr.get_edition(dt.date(2021, 12, 31))
    on = fr.get_edition(dt.date(2022, 1, 1))
    assert (required_minutes(2300, before), required_minutes(2300, on)) == (120, 90)


@pytest.mark.parametrize(
    ("edition", "moves", "ok"),
    [
        ("2005-07", 30, True),  # 40 moves only recommended
        ("2012-07", 39, False), ("2012-07", 40, True), ("2012-07", 41, False),
        ("2014-07", 29, False), ("2014-07", 30, True), ("2024-03", 29, False),
        ("2024-03", 30, True), ("2024-03", 40, True),
    ],
)  # fmt: skip
def test_the_first_control(edition: str, moves: int, ok: bool) -> None:
    tc = TimeControl(((moves, Fraction(120)), (None, Fraction(30))))
    problems = time_control_problems(tc, 2000, fr.get_edition(edition))
    assert (problems == []) is ok, problems


def test_fide_ratable_in_a_cell() -> None:
    assert call("FIDE_RATABLE", 90.0, 30.0, None, 2450.0, "2024-03") is True
    assert call("FIDE_RATABLE", 90.0, None, None, 2450.0, "2024-03") == (
        "not ratable: 90 min for 60 moves, 120 needed with the game's highest rating 2450 "
        "(B.02 2024-03 1.1)"
    )
    assert call("FIDE_RATABLE", 60.0, None, None, None, "2024-03") is True  # all unrated
    assert call("FIDE_RATABLE", 120.0, 0.0, 30.0, 2300.0, "2012-07") == (
        "not ratable: a first control of 30 moves, 40 required (B.02 2012-07 1.3)"
    )
    assert str(call("FIDE_RATABLE", -5.0, 0.0, None, 2000.0)).startswith(f"{PREFIX} minutes:")
    assert str(call("FIDE_RATABLE", 90.0, 0.0, None, 5000.0)).startswith(
        f"{PREFIX} highest_rating:"
    )
