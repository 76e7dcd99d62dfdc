from __future__ import annotations

from fractions import Fraction

import pytest

import fide_rating as fr

F = Fraction


def test_seed_001_example_1() -> None:
    """2145 v 2300 x 10, 4 points: +44 / +22 / +11; 2388: -88 / -44 / -22."""
    opponents = [2300] * 10
    scores = [1] * 4 + [0] * 6
    for k, expected in ((40, 44), (20, 22), (10, 11)):
        assert fr.change(2145, opponents, scores, k, "2014-07") == expected
    for k, expected in ((40, -88), (20, -44), (10, -22)):
        assert fr.change(2388, opponents, scores, k, "2014-07") == expected


def test_event_lines_and_totals() -> None:
    calc = fr.event(2600, [2500, None, 2100], [1, 0.5, None], 10, "2012-07")
    assert calc.opponents == (2500,)  # the unrated opponent and the unplayed game are left out
    assert calc.n == 1 and calc.w == 1 and calc.we == F(64, 100)
    assert calc.k_chg == F(36, 10)
    assert calc.rc == 2500
    assert fr.event(2000, [], [], 20).rc is None


def test_bare_change_equals_full_calculation() -> None:
    opponents = [1063, 1299, 1413, 1872, 1851, 1427, 1682]
    scores = [1, 1, 1, 0.5, 0, 1, 1]
    for e in fr.EDITIONS:
        for r in (2000, 2700):
            assert (
                fr.change(r, opponents, scores, 20, e)
                == fr.event(r, opponents, scores, 20, e).k_chg
            )
            assert (
                fr.change_hundredths(r, opponents, scores, 20, e)
                == fr.event(r, opponents, scores, 20, e).k_chg * 100
            )


@pytest.mark.parametrize(
    ("total", "rounded"),
    [
        (F(-5, 2), -3),
        (F(-1, 2), -1),
        (F(1, 2), 1),
        (F(5, 2), 3),
        (F(-35, 2), -18),
        (F(249, 100), 2),
        (F(-249, 100), -2),
        (0, 0),
    ],
)
def test_period_rounding_half_away_from_zero(total: Fraction, rounded: int) -> None:
    assert fr.period_change([total]) == rounded
    assert fr.fide_round(total) == rounded


def test_period_rounds_once() -> None:
    # two events of +0.4 each: rounded once gives 1, rounding each would give 0
    assert fr.period_change([F(2, 5), F(2, 5)]) == 1
    a = fr.event(2000, [2000], [1], 20)  # +10
    b = fr.event(2000, [2100], [0.5], 15, "2005-07")  # 15 x (0.5 - 0.36) = 2.1
    assert fr.period_change([a, b]) == 12
    assert fr.new_rating(2000, [a, b]) == 2012


def test_bad_input() -> None:
    with pytest.raises(fr.FideInputError, match=r"expected a score of 1, 0.5 or 0, got: 2"):
        fr.event(2000, [2000], [2], 20)
    with pytest.raises(fr.FideInputError, match=r"as many results as opponents.*got: '1 results'"):
        fr.change(2000, [2000, 2100], [1], 20)
    with pytest.raises(fr.FideInputError, match=r"whole-number opponent rating, got: 1800.5"):
        fr.change(2000, [1800.5], [1], 20)  # type: ignore[list-item]
    with pytest.raises(fr.FideInputError, match=r"got: 9999"):
        fr.change(2000, [9999], [1], 20)
    with pytest.raises(fr.FideInputError, match="K"):
        fr.change(2000, [2000], [1], 0)
    assert fr.change(2000, [2000, None], [True, False], 20) == 10  # bools count as 1 and 0
    with pytest.raises(fr.FideInputError, match="score"):
        fr.change(2000, [2000], [float("nan")], 20)
    with pytest.raises(fr.FideInputError, match="score"):
        fr.change(2000, [2000], ["1"], 20)


@pytest.mark.parametrize(
    ("k", "score", "new"),
    [
        (
            10,
            1,
            2203,
        ),  # K x chg = +2.5: 0.5 away from zero (8.3.4), where round-half-even says 2202
        (10, 0.5, 2197),  # -2.5 -> -3 (half-even: 2198)
        (10, 0, 2192),  # -7.5 -> -8 (half-even: 2192 too)
        (40, 1, 2210),  # +10.0: K 40's changes are whole tenths of 0.4, never a half
        (40, 0.5, 2190),
        (20, 0.5, 2195),
    ],
)
def test_new_ratings_at_k_10_and_40(k: int, score: float, new: int) -> None:
    """Our side of the comparison with elochess (README, benchmarks): at K 10 a change of
    exactly x.5 is common and FIDE rounds it away from zero; elochess rounds half to even."""
    calc = fr.event(2200, [2010], [score], k, "2025-10")
    assert calc.we == Fraction(3, 4)
    assert 2200 + fr.fide_round(calc.k_chg) == new
