from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

import fide_rating as fr
from fide_rating.cells import call

F = Fraction


def test_pd_high_low_equal() -> None:
    assert fr.expected(2600, 2500, "2012-07") == F(64, 100)
    assert fr.expected(2500, 2600, "2012-07") == F(36, 100)
    assert fr.expected(2000, 2000) == F(1, 2)
    assert fr.expected(2003, 2000) == F(1, 2)
    assert fr.expected(2004, 2000) == F(51, 100)


@pytest.mark.parametrize(
    ("edition", "d", "expected_pd"),
    [
        ("2005-07", 349, 89),  # 345-357 band; under the cap
        ("2005-07", 350, 89),
        ("2005-07", 351, 89),  # counted as 350
        ("2005-07", 600, 89),
        ("2012-07", 399, 92),
        ("2012-07", 400, 92),
        ("2012-07", 401, 92),  # counted as 400: not .93
        ("2012-07", 700, 92),
        ("2024-03", 401, 92),
    ],
)
def test_cap_edges(edition: str, d: int, expected_pd: int) -> None:
    assert fr.expected(2000 + d, 2000, edition) == F(expected_pd, 100)
    assert fr.expected(2000, 2000 + d, edition) == F(100 - expected_pd, 100)


def test_cap_changes_the_band_at_the_edge() -> None:
    # 2005-07: 358 would be .90 uncapped; the 350 cap holds it at .89
    assert fr.expected(2358, 2000, "2005-07") == F(89, 100)
    assert fr.expected(2412, 2000, "2012-07") == F(92, 100)


@pytest.mark.parametrize(("d", "pd"), [(315, 86), (316, 87), (326, 87), (327, 87), (328, 87),
                                       (329, 88), (344, 88), (345, 89)])  # fmt: skip
def test_the_disputed_bands_in_a_2008_event(d: int, pd: int) -> None:
    """D 316-328 -> .87 and 329-344 -> .88 in 2008 as in every edition: FIDE's English text and
    Elo's table (1978, 2.11), not the Polish translation of B.02 2005 (316-326 and 327-344)."""
    start = dt.date(2008, 5, 1)  # the 2005-07 edition (350-point rule)
    assert fr.get_edition(start).name == "2005-07"
    assert fr.expected(2000 + d, 2000, start) == F(pd, 100)
    assert fr.expected(2000, 2000 + d, start) == F(100 - pd, 100)
    # the cell function reads the same table (FIDE_DP reads 8.1.1, which has no such band)
    assert call("FIDE_EXPECT", 2000.0 + d, 2000.0, None, dt.datetime(2008, 5, 1)) == pd / 100
    assert call("FIDE_EXPECT", 2000.0, [2000.0 + d] * 2, None, "2008-05-01") == pytest.approx(
        2 * (100 - pd) / 100
    )


def test_2650_rule_2025_10() -> None:
    # the 2650+ player is uncapped, the opponent still capped (FIDE prints "2800 *")
    assert fr.expected(2813, 2400, "2025-10") == F(93, 100)
    assert fr.expected(2400, 2813, "2025-10") == F(8, 100)
    assert fr.ratings_used(2400, [2813], fr.E2025_10) == [2800]
    assert fr.ratings_used(2813, [2400], fr.E2025_10) == [2400]
    # 2649 still capped, 2650 not
    assert fr.expected(2649, 2100, "2025-10") == F(92, 100)
    assert fr.expected(2650, 2100, "2025-10") == F(97, 100)  # D 550
    # the same games in 2024-03: capped for both
    assert fr.expected(2650, 2100, "2024-03") == F(92, 100)


def test_one_upgrade_2022_public_example() -> None:
    """Rapid 2022: 2000 v 1063 ... -> only 1063 counts as 1600; chg -0.61, -12.2, Rc 1592."""
    opponents = [1063, 1299, 1413, 1872, 1851, 1427, 1682]
    scores = [1, 1, 1, 0.5, 0, 1, 1]
    calc = fr.event(2000, opponents, scores, 20, "2022-01")
    assert calc.used == (1600, 1299, 1413, 1872, 1851, 1427, 1682)
    assert [g.pd for g in calc.games] == [F(x, 100) for x in (92, 99, 98, 67, 70, 98, 87)]
    assert [g.chg for g in calc.games] == [F(x, 100) for x in (8, 1, 2, -17, -70, 2, 13)]
    assert calc.chg == F(-61, 100)
    assert calc.k_chg == F(-122, 10)
    assert calc.rc == 1592
    assert calc.w == F(11, 2) and calc.n == 7
    assert [g.capped for g in calc.games] == [True] + [False] * 6
    # in 2024-03 every game is capped again
    assert fr.event(2000, opponents, scores, 20, "2024-03").used[:3] == (1600, 1600, 1600)


def test_one_upgrade_lower_rated_player_always_capped() -> None:
    assert fr.ratings_used(1500, [2000, 2100], fr.E2022_01) == [1900, 1900]
    assert fr.ratings_used(2500, [2000, 2050], fr.E2022_01) == [2100, 2050]


def test_expected_score_list_and_results() -> None:
    # Hungarian Chess Federation rating regulation (2017), example 1: a 2145 player against a
    # 2300 average expects 0.29 per game
    assert fr.expected_score(2145, [2300] * 10, "2014-07") == F(29, 10)
    assert fr.expected_score(2388, [2300] * 10, "2014-07") == F(62, 10)
    # unrated opponents and unplayed games do not count
    assert fr.expected_score(2145, [2300, None, 2300], "2014-07") == F(58, 100)
    assert fr.expected_score(2145, [2300, 2300, 2300], "2014-07", [1, None, 0]) == F(58, 100)


def test_dp() -> None:
    assert fr.dp(0.8) == 240
    assert fr.dp(F(4, 7)) == 50  # 0.5714 -> .57
    assert fr.dp(F(1, 200)) == -677  # 0.005 rounds up to .01
    assert fr.dp(F(1, 201)) == -800
    assert fr.dp(Decimal("0.555")) == 43  # .56
    assert fr.dp(1) == 800 and fr.dp(0) == -800
    with pytest.raises(fr.FideInputError, match="undefined"):
        fr.dp(1, "2005-07")
    assert fr.dp(0.99, "2005-07") == 677
    with pytest.raises(fr.FideInputError, match=r"between 0 and 1, got: 1.5"):
        fr.dp(1.5)


@pytest.mark.parametrize("bad", [1800.5, "1800", None, True, 0, 4001, -5])
def test_bad_ratings(bad: object) -> None:
    with pytest.raises(fr.FideInputError, match="got: "):
        fr.expected(bad, 2000)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rating"):
        fr.expected(2000, bad)  # type: ignore[arg-type]
