from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

import fide_rating as fr
from fide_rating.rules.editions import adjustment_applies, is_junior

STARTS = [(e.name, e.effective) for e in fr.EDITIONS]


@pytest.mark.parametrize(("name", "start"), STARTS)
def test_day_before_and_day_of_each_edition(name: str, start: dt.date) -> None:
    assert fr.edition_on(start).name == name
    before = start - dt.timedelta(days=1)
    if name == "2005-07":
        with pytest.raises(fr.FideInputError, match="2005-06-30"):
            fr.edition_on(before)
    else:
        names = [e.name for e in fr.EDITIONS]
        assert fr.edition_on(before).name == names[names.index(name) - 1]


def test_lookup_by_name_date_default() -> None:
    assert fr.get_edition() is fr.LATEST is fr.E2025_10
    assert fr.get_edition("2024-03") is fr.E2024_03
    assert fr.get_edition(" 2012-07 ") is fr.E2012_07
    assert fr.get_edition(dt.datetime(2023, 5, 1, 10, 0)) is fr.E2022_01
    with pytest.raises(fr.FideInputError, match=r"unknown edition.*got: '2023-01'"):
        fr.get_edition("2023-01")
    with pytest.raises(fr.FideInputError, match="expected an edition"):
        fr.get_edition(2024)  # type: ignore[arg-type]


def test_edition_data() -> None:
    assert [e.cap for e in fr.EDITIONS] == [350, 400, 400, 400, 400, 400]
    assert [e.bonus_per_half_point for e in fr.EDITIONS] == [
        Fraction(25, 2),
        15,
        20,
        20,
        None,
        None,
    ]
    assert [e.min_games for e in fr.EDITIONS] == [9, 5, 5, 5, 5, 5]
    assert fr.E2005_07.floor_on(dt.date(2007, 12, 31)) == 1401
    assert fr.E2005_07.floor_on(dt.date(2008, 1, 1)) == 1201
    assert fr.E2005_07.floor_on(dt.date(2009, 12, 31)) == 1201
    assert fr.E2005_07.floor_on(dt.date(2010, 1, 1)) == 1001
    assert fr.E2024_03.floor_on(None) == 1400
    assert fr.E2014_07.floor_on(dt.date(2020, 1, 1)) == 1000


def test_junior_boundaries() -> None:
    born = dt.date(2006, 6, 15)  # 18th birthday 2024-06-15
    # until the birthday (2012-07 .. 2022-01)
    assert is_junior(fr.E2022_01, born, dt.date(2024, 6, 14))
    assert not is_junior(fr.E2022_01, born, dt.date(2024, 6, 15))
    assert is_junior(fr.E2022_01, 2006, dt.date(2023, 12, 31))
    assert not is_junior(fr.E2022_01, 2006, dt.date(2025, 1, 1))
    with pytest.raises(fr.FideInputError, match="birth date"):
        is_junior(fr.E2022_01, 2006, dt.date(2024, 3, 1))
    # until the end of the year (2024-03 on): the year is enough
    assert is_junior(fr.E2024_03, 2006, dt.date(2024, 12, 31))
    assert not is_junior(fr.E2024_03, 2006, dt.date(2025, 1, 1))
    assert is_junior(fr.E2025_10, born, dt.date(2024, 12, 31))
    # no junior rule in 2005-07
    assert not is_junior(fr.E2005_07, 1995, dt.date(2006, 1, 1))
    # born on 29 February
    assert is_junior(fr.E2014_07, dt.date(2000, 2, 29), dt.date(2018, 2, 28))
    assert not is_junior(fr.E2014_07, dt.date(2000, 2, 29), dt.date(2018, 3, 1))


def test_adjustment_window() -> None:
    assert adjustment_applies(fr.E2024_03, dt.date(2024, 2, 1), dt.date(2024, 3, 1))
    assert not adjustment_applies(fr.E2024_03, dt.date(2024, 3, 1), dt.date(2024, 4, 1))
    assert not adjustment_applies(fr.E2022_01, dt.date(2024, 2, 1), dt.date(2024, 3, 1))
