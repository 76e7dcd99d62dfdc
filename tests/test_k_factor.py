from __future__ import annotations

import datetime as dt

import pytest

import fide_rating as fr

ON = dt.date(2015, 3, 1)


def k(edition: str, **kw: object) -> int:
    facts: dict[str, object] = {"rating": 2000, "games_before": 100, "on": ON}
    facts.update(kw)
    return fr.k_factor(edition=edition, **facts)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("edition", "new", "standard"),
    [("2011-07", 30, 15), ("2012-07", 30, 15), ("2014-07", 40, 20), ("2022-01", 40, 20),
     ("2024-03", 40, 20), ("2025-10", 40, 20)],
)  # fmt: skip
def test_games_29_30_31(edition: str, new: int, standard: int) -> None:
    """K 30/15/10 until 30 June 2014 (FIDE's dates; the text of B.02 "amended 1984-2012" says
    40/20), 40/20 from."""
    assert k(edition, games_before=29) == new
    assert k(edition, games_before=30) == standard
    assert k(edition, games_before=31) == standard


def test_2005() -> None:
    assert k("2005-07", games_before=29) == 25
    assert k("2005-07", games_before=30) == 15
    assert k("2005-07", games_before=29, reached_2400=True, rating=2450) == 25
    assert k("2005-07", games_before=30, reached_2400=True, rating=2450) == 10
    assert k("2005-07", games_before=30, birth=2000) == 15  # no junior rule


def test_2400_for_ever_and_2300_junior_limit() -> None:
    assert k("2014-07", rating=2399) == 20
    assert k("2014-07", rating=2350, reached_2400=True) == 10
    assert k("2014-07", rating=2299, birth=2000) == 40
    assert k("2014-07", rating=2300, birth=2000) == 20
    assert k("2014-07", rating=2399, reached_2400=True, games_before=5) == 10
    # 2011-07 to 2014-06: 10 once a published 2400 is reached (no 30 games needed), no junior
    assert k("2012-07", rating=2399, reached_2400=True, games_before=5) == 10
    assert k("2012-07", rating=2299, birth=2000, on=dt.date(2013, 3, 1)) == 15


def test_junior_year_boundary_each_edition() -> None:
    born = dt.date(2000, 7, 1)  # 18 on 2018-07-01: K 40 to the end of 2018 (FIDE's practice)
    for edition in ("2014-07",):
        assert k(edition, birth=born, on=dt.date(2018, 7, 1)) == 40
        assert k(edition, birth=born, on=dt.date(2018, 12, 31)) == 40
        assert k(edition, birth=born, on=dt.date(2019, 1, 1)) == 20
    for edition in ("2022-01", "2024-03", "2025-10"):
        assert k(edition, birth=2007, on=dt.date(2025, 12, 31)) == 40
        assert k(edition, birth=2007, on=dt.date(2026, 1, 1)) == 20


def test_k_times_n() -> None:
    assert k("2022-01", games_before=10, games_in_period=17) == 40  # 680
    assert k("2022-01", games_before=10, games_in_period=18) == 38  # 720 > 700
    assert k("2024-03", games_in_period=35) == 20  # exactly 700
    assert k("2024-03", games_in_period=36) == 19
    assert k("2024-03", games_in_period=39, games_before=3) == 17  # RULES: n = 39 -> 17
    # not in the 2014 text (nor the 2017 federation regulation): from FIDE's 2022 text on
    assert k("2014-07", games_in_period=39, games_before=3) == 40
    assert fr.limit_k(10, 71, fr.E2022_01) == 9 and fr.limit_k(10, 71, fr.E2014_07) == 10


def test_bad_facts() -> None:
    with pytest.raises(fr.FideInputError, match="games before"):
        k("2024-03", games_before=-1)
    with pytest.raises(fr.FideInputError, match="reached_2400"):
        k("2024-03", reached_2400=1)
    with pytest.raises(fr.FideInputError, match="event date"):
        fr.k_factor(rating=2000, games_before=50, birth=2010, edition="2024-03")
