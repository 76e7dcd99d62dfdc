from __future__ import annotations

import datetime as dt

import pytest

import fide_rating as fr

ON = dt.date(2015, 3, 1)


def k(edition: str, **kw: object) -> int:
    facts: dict[str, object] = {"rating": 2000, "games_before": 100, "on": ON}
    facts.update(kw)
    return fr.k_factor(edition=edition, **facts)  # type: ignore[arg-type]


@pytest.mark.parametrize("edition", ["2012-07", "2014-07", "2022-01", "2024-03", "2025-10"])
def test_games_29_30_31(edition: str) -> None:
    assert k(edition, games_before=29) == 40
    assert k(edition, games_before=30) == 20
    assert k(edition, games_before=31) == 20


def test_2005() -> None:
    assert k("2005-07", games_before=29) == 25
    assert k("2005-07", games_before=30) == 15
    assert k("2005-07", games_before=29, reached_2400=True, rating=2450) == 25
    assert k("2005-07", games_before=30, reached_2400=True, rating=2450) == 10
    assert k("2005-07", games_before=30, birth=2000) == 15  # no junior rule


def test_2400_for_ever_and_2300_junior_limit() -> None:
    assert k("2012-07", rating=2399) == 20
    assert k("2012-07", rating=2350, reached_2400=True) == 10
    assert k("2012-07", rating=2299, birth=2000) == 40
    assert k("2012-07", rating=2300, birth=2000) == 20
    assert k("2012-07", rating=2399, reached_2400=True, games_before=5) == 10


def test_junior_year_boundary_each_edition() -> None:
    born = dt.date(2000, 7, 1)  # 18 on 2018-07-01
    for edition in ("2014-07",):
        assert k(edition, birth=born, on=dt.date(2018, 6, 30)) == 40
        assert k(edition, birth=born, on=dt.date(2018, 7, 1)) == 20
    for edition in ("2022-01",):
        assert k(edition, birth=dt.date(2004, 7, 1), on=dt.date(2022, 6, 30)) == 40
        assert k(edition, birth=dt.date(2004, 7, 1), on=dt.date(2022, 7, 1)) == 20
    for edition in ("2024-03", "2025-10"):
        assert k(edition, birth=2007, on=dt.date(2025, 12, 31)) == 40
        assert k(edition, birth=2007, on=dt.date(2026, 1, 1)) == 20


def test_k_times_n() -> None:
    assert k("2014-07", games_before=10, games_in_period=17) == 40  # 680
    assert k("2014-07", games_before=10, games_in_period=18) == 38  # 720 > 700
    assert k("2024-03", games_in_period=35) == 20  # exactly 700
    assert k("2024-03", games_in_period=36) == 19
    assert k("2024-03", games_in_period=39, games_before=3) == 17  # RULES: n = 39 -> 17
    assert k("2012-07", games_in_period=39, games_before=3) == 40  # not before 2014-07
    assert fr.limit_k(10, 71, fr.E2014_07) == 9


def test_bad_facts() -> None:
    with pytest.raises(fr.FideInputError, match="games before"):
        k("2024-03", games_before=-1)
    with pytest.raises(fr.FideInputError, match="reached_2400"):
        k("2024-03", reached_2400=1)
    with pytest.raises(fr.FideInputError, match="event date"):
        fr.k_factor(rating=2000, games_before=50, birth=2010, edition="2024-03")
