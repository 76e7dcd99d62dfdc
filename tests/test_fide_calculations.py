"""FIDE's own published calculations (ratings.fide.com, as they were copied into public test
files and federation forums): each figure recomputed here from the tables, in the edition of the
event's start date. They span the 350-point era (K 15), the 400-point rule, the 2022 one-upgrade
rule in rapid, the 2650 exemption of 2025 and K x n <= 700."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

import fide_rating as fr

F = Fraction


@pytest.mark.parametrize(
    ("start", "rating", "k", "games", "we", "k_chg"),
    [
        # list of 1 July 2008 (the quarterly era, 350-point rule), FIDE ID 4625200
        (dt.date(2008, 5, 1), 2240, 15,
         [(2242, 0.5), (2360, 0.5), (2289, 0.5), (2251, 0), (2303, 0), (2152, 0.5), (2313, 0.5),
          (2309, 0.5), (2110, 0)], "4.26", "-18.9"),
        # list of 1 July 2009, the same player
        (dt.date(2009, 5, 1), 2235, 15,
         [(2120, 0.5), (2121, 0.5), (2118, 1), (2026, 0), (2328, 0), (2231, 1), (2197, 0),
          (2190, 1)], "4.74", "-11.1"),
        # list of 1 March 2010 (every two months, the 400-point rule): Carlsen, 13 games
        (dt.date(2010, 1, 15), 2810, 10,
         [(2662, 0.5), (2657, 1), (2641, 1), (2696, 0.5), (2708, 0.5), (2790, 0.5), (2749, 1),
          (2723, 0.5), (2788, 0), (2720, 1), (2712, 1), (2739, 0.5), (2675, 0.5)], "8.21",
         "2.9"),
        # December 2025 (the 2650 exemption): a 2813 player uses every true difference
        (dt.date(2025, 11, 7), 2813, 10,
         [(1787, 1), (2025, 1), (2310, 1), (2400, 1), (2505, 0.5)], "4.75", "-2.50"),
        # December 2025: a 2053 player, one opponent counted at the cap (1653* for 1600)
        (dt.date(2025, 11, 7), 2053, 20,
         [(1675, 1), (2310, 0), (1600, 1), (1884, 1), (2218, 0)], "3.01", "-0.20"),
    ],
)  # fmt: skip
def test_published_standard_calculations(
    start: dt.date, rating: int, k: int, games: list[tuple[int, float]], we: str, k_chg: str
) -> None:
    calc = fr.event(rating, [o for o, _ in games], [s for _, s in games], k, start)
    assert calc.we == F(we) and calc.k_chg == F(k_chg)


def test_the_2650_exemption_seen_from_both_sides() -> None:
    """December 2025: the 2813 player's own games are uncapped (503 apart: .96, not .92); a
    2400 player meeting him sees him as "2800 *"."""
    top = fr.event(2813, [2310], [1], 10, dt.date(2025, 11, 7))
    assert top.games[0].pd == F(96, 100) and not top.games[0].capped
    seen = fr.event(2400, [2813], [0], 10, dt.date(2025, 11, 7))
    assert seen.used == (2800,) and seen.games[0].chg == F(-8, 100)
    assert fr.fide_round(top.k_chg + fr.event(2813, [1787, 2025, 2400, 2505], [1, 1, 1, 0.5], 10,
                                              dt.date(2025, 11, 7)).k_chg) == -3  # fmt: skip


def test_three_events_of_one_period() -> None:
    """December 2025, FIDE ID 9953698: each event at the list in force at its start (2395 for
    the event of 31 October, 2400 after), the capped opponents marked."""
    low = 1900  # any rating more than 400 below: counted as Ro - 400
    ev1 = fr.event(2395, [low, 2205, 2325, low, low], [1, 0.5, 0, 1, 1], 10, dt.date(2025, 10, 31))
    ev2 = fr.event(2400, [low, low, 2121, 2813, 2084], [1, 1, 1, 0, 1], 10, dt.date(2025, 11, 7))
    ev3 = fr.event(2400, [low, low, 2230, 2505, 2155], [1, 1, 1, 1, 0.5], 10, dt.date(2025, 11, 21))
    assert [e.k_chg for e in (ev1, ev2, ev3)] == [F("-6.10"), F("3.70"), F("7.80")]
    assert ev1.used[0] == 1995 and ev2.used[3] == 2800
    # the period's change, rounded once (B.02 8.3.4): +5.40 -> +5. (FIDE's list of December
    # 2025 shows 2406, which fits rounding each event instead: -6 + 4 + 8. The text decides.)
    assert fr.period_change([ev1, ev2, ev3]) == 5


def test_rapid_2022_one_upgrade() -> None:
    """Coomera Halloween rapid (Australia, 2022), FIDE's calculation as a federation forum copied
    it: only the game of the greatest difference is counted at the cap."""
    ed = fr.get_edition(dt.date(2022, 10, 31), "rapid")
    calc = fr.event(2000, [1063, 1299, 1413, 1872, 1851, 1427, 1682], [1, 1, 1, 0.5, 0, 1, 1],
                    20, ed)  # fmt: skip
    assert fr.fide_round(calc.rc or 0) == 1592 and calc.chg == F("-0.61")
    assert calc.k_chg == F("-12.20") and [g.capped for g in calc.games].count(True) == 1


def test_k_times_n_in_2026() -> None:
    """October 2026: a K 20 player with 39 games in the period plays at K 17."""
    assert fr.limit_k(20, 39, fr.get_edition(dt.date(2026, 9, 1))) == 17
    assert fr.fide_round(F("92.48")) == 92


def test_first_rating_2024() -> None:
    found = fr.initial_rating(
        fr.UnratedEvent(opponents=[1902, 1877, 1884, 2012, 1832], scores=[0.5, 0.5, 1, 0, 1]),
        dt.date(2025, 6, 1),
    )
    assert found.ra == F(9507 + 3600, 7) and found.rating == 1922
