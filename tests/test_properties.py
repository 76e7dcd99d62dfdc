"""Properties that hold in every edition (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

import fide_rating as fr

editions = st.sampled_from(fr.EDITIONS)
# the rapid and blitz editions from 2024-12 leave some games unrated (R&B 7.3.1): a pair's PD
# is then no figure at all
paired = st.sampled_from([e for e in fr.EDITIONS if e.gap_rule is None])
ratings = st.integers(min_value=fr.RATING_MIN, max_value=fr.RATING_MAX)
results = st.sampled_from([1, 0.5, 0])


@given(paired, ratings, ratings)
def test_pd_high_plus_pd_low_is_one(edition: fr.Edition, a: int, b: int) -> None:
    if edition.cap_rule is fr.CapRule.NOT_FOR_TOP and max(a, b) >= 2650:
        return  # the 2650 rule is deliberately asymmetric
    assert fr.expected(a, b, edition) + fr.expected(b, a, edition) == 1


@given(paired, ratings, st.integers(-3000, 3000), st.integers(0, 50))
def test_expected_monotone_in_difference(edition: fr.Edition, r: int, d: int, step: int) -> None:
    lo, hi = r - d, r - d - step  # a weaker opponent (hi) never lowers the expectation
    if not (fr.RATING_MIN <= lo <= fr.RATING_MAX and fr.RATING_MIN <= hi <= fr.RATING_MAX):
        return
    assert fr.expected(r, hi, edition) >= fr.expected(r, lo, edition)


@given(
    editions,
    st.lists(st.integers(1800, 2150), min_size=2, max_size=10),
    st.data(),
)
def test_closed_event_without_cap_sums_to_zero(
    edition: fr.Edition, players: list[int], data: st.DataObject
) -> None:
    n = len(players)
    table: dict[tuple[int, int], object] = {}
    for i in range(n):
        for j in range(i + 1, n):
            s = data.draw(results)
            table[i, j] = s
            table[j, i] = 1 - Fraction(str(s))
    total = Fraction(0)
    for i in range(n):
        others = [j for j in range(n) if j != i]
        total += fr.change(
            players[i], [players[j] for j in others], [table[i, j] for j in others], 20, edition
        )
    assert total == 0


@given(editions, ratings, st.lists(st.tuples(ratings, results), max_size=15), st.randoms())
def test_order_of_games_does_not_matter(
    edition: fr.Edition, r: int, games: list[tuple[int, float]], rnd: object
) -> None:
    shuffled = games[:]
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a = fr.event(r, [g[0] for g in games], [g[1] for g in games], 20, edition)
    b = fr.event(r, [g[0] for g in shuffled], [g[1] for g in shuffled], 20, edition)
    assert (a.we, a.k_chg, a.rc, a.w) == (b.we, b.k_chg, b.rc, b.w)
    assert fr.change(r, [g[0] for g in shuffled], [g[1] for g in shuffled], 20, edition) == a.k_chg


@given(st.fractions(min_value=-1000, max_value=1000))
def test_fide_round_half_away_from_zero(x: Fraction) -> None:
    r = fr.fide_round(x)
    assert abs(x - r) <= Fraction(1, 2)
    if abs(x - r) == Fraction(1, 2):
        assert abs(r) > abs(x)
    assert fr.fide_round(-x) == -r


@given(paired, ratings, st.lists(st.tuples(ratings, results), min_size=1, max_size=12))
def test_event_totals_agree_with_the_event(
    edition: fr.Edition, r: int, games: list[tuple[int, float]]
) -> None:
    from fide_rating.rules.change import event_totals

    calc = fr.event(r, [g[0] for g in games], [g[1] for g in games], 20, edition)
    w_h = int(sum(g[1] for g in games) * 100)
    totals = event_totals(r, [g[0] for g in games], w_h, 20, edition)
    assert totals.n == calc.n and totals.used_sum == sum(calc.used)
    assert Fraction(totals.pd_h, 100) == calc.we and Fraction(totals.k_chg_h, 100) == calc.k_chg


@given(
    st.sampled_from([e for e in fr.EDITIONS if e.gap_rule is not None]),
    ratings,
    st.lists(st.tuples(ratings, results), min_size=1, max_size=12),
)
def test_a_gap_game_is_left_out_and_only_it(
    edition: fr.Edition, r: int, games: list[tuple[int, float]]
) -> None:
    """Rapid and blitz from 2024-12: the games 600 or more apart with a player above 2600 are
    left out, for both players, and the rest is computed as if they had not been played."""
    kept = [g for g in games if fr.rated_game(r, g[0], edition)]
    calc = fr.event(r, [g[0] for g in games], [g[1] for g in games], 20, edition)
    alone = fr.event(r, [g[0] for g in kept], [g[1] for g in kept], 20, edition)
    assert calc == alone
    assert all(fr.rated_game(o, r, edition) == fr.rated_game(r, o, edition) for o, _ in games)
