"""The record store of editions: a rating type and a date are its keys, and every dated change
is tested on both sides of its date (RULES.md 1, the research notes of the rules by date)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

import pytest

import fide_rating as fr
from fide_rating.rules.editions import (
    ADJUSTMENT_2024,
    LIST_CHANGES,
    RAISE_2022,
    adjustment_applies,
    is_junior,
    list_changes_between,
    raise_applies,
)
from fide_rating.rules.list_changes import list_change

D = dt.date
STARTS = [(e.rating_type, e.name, e.effective) for e in fr.EDITIONS]


@pytest.mark.parametrize(("kind", "name", "start"), STARTS)
def test_day_before_and_day_of_each_edition(kind: str, name: str, start: dt.date) -> None:
    assert fr.edition_on(start, kind).name == name
    before = start - dt.timedelta(days=1)
    chain = [e.name for e in fr.editions_of(kind)]
    if chain.index(name) == 0:
        with pytest.raises(fr.FideInputError, match=before.isoformat()):
            fr.edition_on(before, kind)
    else:
        assert fr.edition_on(before, kind).name == chain[chain.index(name) - 1]


def test_the_chains() -> None:
    assert [e.name for e in fr.editions_of("standard")] == [
        "2005-07", "2009-07", "2011-07", "2012-07", "2014-07", "2022-01", "2024-03", "2025-10"
    ]  # fmt: skip
    rapid = [e.name for e in fr.editions_of("rapid")]
    assert rapid == ["2012-01 rapid", "2012-07 rapid", "2014-07 rapid", "2018-07 rapid",
                     "2022-01 rapid", "2022-10 rapid", "2024-03 rapid", "2024-12 rapid"]  # fmt: skip
    assert [e.name for e in fr.editions_of("blitz")] == [n.replace("rapid", "blitz") for n in rapid]
    assert {e.rating_type for e in fr.editions_of("blitz")} == {"blitz"}
    assert len({e.name for e in fr.EDITIONS}) == len(fr.EDITIONS)
    with pytest.raises(fr.FideInputError, match="expected a rating type"):
        fr.editions_of("bullet")


def test_lookup_by_name_date_type_default() -> None:
    assert fr.get_edition() is fr.LATEST is fr.E2025_10
    assert fr.get_edition("2024-03") is fr.E2024_03
    assert fr.get_edition(" 2012-07 ") is fr.E2012_07
    assert fr.get_edition(dt.datetime(2023, 5, 1, 10, 0)) is fr.E2022_01
    assert fr.get_edition("2024-12 rapid").name == "2024-12 rapid"
    assert fr.get_edition("2024-12  Blitz").name == "2024-12 blitz"
    assert fr.get_edition("rapid").name == "2024-12 rapid"  # the newest of a type
    assert fr.get_edition("2025-11-10 rapid").name == "2024-12 rapid"  # a start date and a type
    assert fr.get_edition("2013-05-04 blitz").name == "2012-07 blitz"
    assert fr.get_edition(D(2013, 5, 4), "rapid").name == "2012-07 rapid"
    assert fr.get_edition("2024-03", "rapid").name == "2024-03 rapid"
    with pytest.raises(fr.FideInputError, match="no edition for rapid before 2012-01-01"):
        fr.get_edition(D(2011, 12, 31), "rapid")
    with pytest.raises(fr.FideInputError, match=r"unknown edition.*got: '2023-01'"):
        fr.get_edition("2023-01")
    with pytest.raises(fr.FideInputError, match="expected a blitz edition"):
        fr.get_edition("2024-12 rapid", "blitz")
    with pytest.raises(fr.FideInputError, match="expected an edition"):
        fr.get_edition(2024)  # type: ignore[arg-type]


STANDARD_DATA = {
    # name: cap, K new/standard/top, junior, bonus, min games, floor, K x n, list months
    "2005-07": (350, (25, 15, 10), "NONE", Fraction(25, 2), 9, 1401, None, 3),
    "2009-07": (400, (25, 15, 10), "NONE", Fraction(25, 2), 9, 1200, None, 2),
    "2011-07": (400, (30, 15, 10), "NONE", Fraction(15), 9, 1200, None, 2),
    "2012-07": (400, (30, 15, 10), "NONE", Fraction(15), 9, 1000, None, 1),
    "2014-07": (400, (40, 20, 10), "UNTIL_YEAR_END", Fraction(20), 5, 1000, None, 1),
    "2022-01": (400, (40, 20, 10), "UNTIL_YEAR_END", Fraction(20), 5, 1000, 700, 1),
    "2024-03": (400, (40, 20, 10), "UNTIL_YEAR_END", None, 5, 1400, 700, 1),
    "2025-10": (400, (40, 20, 10), "UNTIL_YEAR_END", None, 5, 1400, 700, 1),
}


@pytest.mark.parametrize("name", list(STANDARD_DATA))
def test_standard_edition_data(name: str) -> None:
    e = fr.get_edition(name)
    assert (e.cap, (e.k_new, e.k_standard, e.k_top), e.junior.name, e.bonus_per_half_point,
            e.min_games, e.floor_on(e.effective), e.k_times_n_max,
            e.list_months) == STANDARD_DATA[name]  # fmt: skip
    assert e.source and e.rating_type == "standard"


def test_the_dated_amendments_of_the_standard_rules() -> None:
    # 1 July 2009: the 400-point rule (350 before), the floor 1200, lists every two months
    assert (fr.edition_on(D(2009, 6, 30)).cap, fr.edition_on(D(2009, 7, 1)).cap) == (350, 400)
    assert fr.expected(2000, 1500, D(2009, 6, 30)) == Fraction(89, 100)  # D counted as 350
    assert fr.expected(2000, 1500, D(2009, 7, 1)) == Fraction(92, 100)  # as 400
    # K 25 until the K 30 of 2011 (its month unconfirmed: July, as FIDE's changes apply)
    facts: dict[str, Any] = {"rating": 1900, "games_before": 10}
    assert fr.k_factor(**facts, edition=D(2011, 6, 30)) == 25
    assert fr.k_factor(**facts, edition=D(2011, 7, 1)) == 30
    # K 30/15/10 until 30 June 2014; 40/20/10 with the junior 40 from 1 July 2014
    assert fr.k_factor(rating=2100, games_before=100, edition=D(2014, 6, 30)) == 15
    assert fr.k_factor(rating=2100, games_before=100, edition=D(2014, 7, 1)) == 20
    assert fr.k_factor(**facts, edition=D(2014, 6, 30)) == 30
    assert fr.k_factor(**facts, edition=D(2014, 7, 1)) == 40
    junior: dict[str, Any] = {"rating": 2100, "games_before": 100, "birth": 2000}
    assert fr.k_factor(**junior, on=D(2013, 5, 1), edition=D(2013, 5, 1)) == 15  # no junior K
    assert fr.k_factor(**junior, on=D(2015, 5, 1), edition=D(2015, 5, 1)) == 40
    # the first rating: 9 games until 30 June 2014, 5 from 1 July 2014
    five = fr.UnratedEvent(opponents=[2000] * 5, scores=[1, 0.5, 0.5, 0, 1])
    assert fr.initial_rating(five, D(2014, 6, 30)).reason == (
        "5 games against rated opponents, 9 needed"
    )
    assert fr.initial_rating(five, D(2014, 7, 1)).rating == 2020
    # floors: 1401 until 2009-06-30 (not the 2005 translator's 1201 from 2008), 1200, 1000
    assert [fr.edition_on(d).floor_on(d) for d in (D(2008, 6, 1), D(2009, 6, 30), D(2009, 7, 1),
            D(2012, 6, 30), D(2012, 7, 1))] == [1401, 1401, 1200, 1200, 1000]  # fmt: skip
    # K x n <= 700 from 2022-01 (FIDE's text); the junior rule to the end of the year with it
    assert fr.k_factor(rating=2000, games_before=100, games_in_period=39,
                       edition=D(2021, 12, 31)) == 20  # fmt: skip
    assert fr.k_factor(rating=2000, games_before=100, games_in_period=39,
                       edition=D(2022, 1, 1)) == 17  # fmt: skip
    # 1 October 2025: a player rated 2650 or more uses the true difference (standard only)
    assert fr.expected(2700, 2250, D(2025, 9, 30)) == Fraction(92, 100)
    assert fr.expected(2700, 2250, D(2025, 10, 1)) == Fraction(94, 100)
    assert fr.expected(2250, 2700, D(2025, 10, 1)) == Fraction(8, 100)  # the opponent: capped


def test_the_rapid_and_blitz_rules() -> None:
    for kind in ("rapid", "blitz"):
        # K 20 for every player until 30 September 2022, as in standard from 1 October 2022
        new_junior: dict[str, Any] = {
            "rating": 1800,
            "games_before": 3,
            "birth": 2010,
            "on": D(2022, 9, 30),
        }
        assert fr.k_factor(**new_junior, edition=fr.edition_on(D(2022, 9, 30), kind)) == 20
        assert fr.k_factor(**new_junior, edition=fr.get_edition(D(2013, 5, 1), kind)) == 20
        new_junior["on"] = D(2022, 10, 1)
        assert fr.k_factor(**new_junior, edition=fr.edition_on(D(2022, 10, 1), kind)) == 40
        top: dict[str, Any] = {"rating": 2500, "games_before": 300, "reached_2400": True}
        assert fr.k_factor(**top, edition=fr.edition_on(D(2022, 9, 30), kind)) == 20
        assert fr.k_factor(**top, edition=fr.edition_on(D(2022, 10, 1), kind)) == 10
        # K x n <= 700 from 1 July 2018 (a Norwegian club's notice of 28 June 2018; federations
        # quote "700/total games when more than 35 games in a period" in 2021), K 20 before
        many: dict[str, Any] = {"rating": 2000, "games_before": 100, "games_in_period": 39}
        assert fr.k_factor(**many, edition=fr.edition_on(D(2013, 5, 1), kind)) == 20
        assert fr.k_factor(**many, edition=fr.edition_on(D(2018, 6, 30), kind)) == 20
        assert fr.k_factor(**many, edition=fr.edition_on(D(2018, 7, 1), kind)) == 17
        assert fr.k_factor(**{**many, "games_in_period": 35},
                           edition=fr.edition_on(D(2018, 7, 1), kind)) == 20  # fmt: skip
        assert fr.k_factor(**{**many, "games_in_period": 36},
                           edition=fr.edition_on(D(2018, 7, 1), kind)) == 19  # fmt: skip
        # from 1 December 2024 a game 600 or more apart with a player above 2600 is not rated
        before, after = fr.edition_on(D(2024, 11, 30), kind), fr.edition_on(D(2024, 12, 1), kind)
        assert fr.rated_game(2700, 2080, before) and not fr.rated_game(2700, 2080, after)
        assert not fr.rated_game(2680, 2080, after)  # exactly 600: not rated
        assert fr.rated_game(2680, 2081, after)  # 599 apart: rated
        assert fr.rated_game(2600, 2000, after)  # 2600 is not above 2600
        assert not fr.rated_game(2601, 2001, after) and not fr.rated_game(2001, 2601, after)
        calc = fr.event(2700, [2080, 2250], [1, 1], 10, after)
        assert (calc.n, calc.opponents) == (1, (2250,))  # only the game 450 apart
        assert fr.event(2700, [2080, 2250], [1, 1], 10, before).n == 2
        assert fr.change_hundredths(2080, [2700], [0], 20, after) == 0
        assert fr.expected_score(2080, [2700], after) == 0
        with pytest.raises(fr.FideInputError, match="not a rated game"):
            fr.expected(2080, 2700, after)
        # no 2650 exemption in the rapid and blitz chapter: the 400-point cap for everyone
        assert fr.expected(2700, 2250, fr.edition_on(D(2025, 10, 1), kind)) == Fraction(92, 100)
        # a player without a rapid or blitz rating is rated with his standard one (7.2.1)
        assert fr.edition_on(D(2012, 1, 1), kind).standard_rating_for_unrated
        # the one-time raise of 1 October 2022 and the adjustment of 1 March 2024
        assert raise_applies(fr.edition_on(D(2022, 10, 1), kind), D(2022, 9, 1), D(2022, 10, 1))
        assert not raise_applies(fr.edition_on(D(2022, 11, 1), kind), D(2022, 10, 1),
                                 D(2022, 11, 1))  # fmt: skip
        assert adjustment_applies(fr.edition_on(D(2024, 3, 1), kind), D(2024, 2, 1), D(2024, 3, 1))
    assert fr.edition_on(D(2025, 1, 1), "rapid").max_rounds_a_day == 15
    assert fr.edition_on(D(2025, 1, 1), "blitz").max_rounds_a_day == 30
    assert fr.edition_on(D(2025, 1, 1)).gap_rule is None  # standard: no such rule
    assert fr.edition_on(D(2012, 1, 1), "rapid").cap == 400


def test_raise_2022() -> None:
    from fide_rating.rules.performance import raise_2022

    assert raise_2022(2283, 2732) == 2632  # Gukesh's rapid rating, as reported
    assert raise_2022(2632, 2732) == 2632  # exactly 100 below: unchanged
    assert raise_2022(2000, 2100) == 2000
    assert raise_2022(1800, None) == 1800


def test_the_unconfirmed_is_said() -> None:
    assert any("not confirmed" in n for n in fr.E2011_07.notes)
    assert any("not found" in n for n in RAISE_2022.notes)
    assert any("went both ways" in n for n in ADJUSTMENT_2024.notes)
    assert any("late September 2025" in n for n in fr.get_edition("2024-12 blitz").notes)
    assert any("2014 and 2015 were not checked" in n for n in fr.E2014_07.notes)
    assert all(c.source and c.notes for c in LIST_CHANGES)


def test_junior_boundaries() -> None:
    # to the end of the year of the 18th birthday: the year is enough, a date gives its year
    assert is_junior(fr.E2014_07, 2000, dt.date(2018, 12, 31))
    assert not is_junior(fr.E2014_07, 2000, dt.date(2019, 1, 1))
    assert is_junior(fr.E2014_07, dt.date(2000, 6, 15), dt.date(2018, 6, 15))  # the birthday
    assert is_junior(fr.E2022_01, 2006, dt.date(2024, 12, 31))
    assert not is_junior(fr.E2022_01, 2006, dt.date(2025, 1, 1))
    assert is_junior(fr.E2024_03, 2006, dt.date(2024, 12, 31))
    assert is_junior(fr.E2025_10, dt.date(2006, 6, 15), dt.date(2024, 12, 31))
    assert is_junior(fr.E2014_07, dt.date(2000, 2, 29), dt.date(2018, 3, 1))  # born 29 February
    # no junior rule before 2014-07
    assert not is_junior(fr.E2005_07, 1995, dt.date(2006, 1, 1))
    assert not is_junior(fr.E2012_07, 1995, dt.date(2013, 1, 1))
    with pytest.raises(fr.FideInputError, match="event date"):
        is_junior(fr.E2014_07, 2000, None)


def test_the_junior_k_on_fides_december_2016_list() -> None:
    """FIDE's list of December 2016 keeps K 40 for every junior turning 18 in 2016 (7 of 7; its
    text said "until their 18th birthday" until 2017-07): the end of the year from the rule's
    start, 1 July 2014."""
    junior: dict[str, Any] = {"rating": 2100, "games_before": 100, "birth": D(1998, 3, 15)}
    assert fr.k_factor(**junior, on=D(2016, 12, 1), edition=D(2016, 12, 1)) == 40
    assert fr.k_factor(**junior, on=D(2017, 1, 1), edition=D(2017, 1, 1)) == 20
    # both sides of 1 July 2014: a player 18 since March 2014 keeps K 40 to the year's end
    early: dict[str, Any] = {"rating": 2100, "games_before": 100, "birth": D(1996, 3, 1)}
    assert fr.k_factor(**early, on=D(2014, 6, 30), edition=D(2014, 6, 30)) == 15  # no junior K
    assert fr.k_factor(**early, on=D(2014, 7, 1), edition=D(2014, 7, 1)) == 40
    assert fr.k_factor(**early, on=D(2015, 1, 1), edition=D(2015, 1, 1)) == 20
    assert fr.k_factor(**{**early, "rating": 2300}, on=D(2014, 7, 1), edition=D(2014, 7, 1)) == 20


def test_adjustment_window() -> None:
    for kind in ("standard", "rapid", "blitz"):  # on all three lists
        ed = fr.edition_on(D(2024, 3, 1), kind)
        assert adjustment_applies(ed, D(2024, 2, 1), D(2024, 3, 1))
        assert not adjustment_applies(ed, D(2024, 3, 1), D(2024, 4, 1))
        assert not adjustment_applies(fr.edition_on(D(2024, 2, 1), kind), D(2024, 1, 1),
                                      D(2024, 2, 1))  # fmt: skip
    assert not raise_applies(fr.E2022_01, D(2022, 9, 1), D(2022, 10, 1))  # not the standard list
    assert list_changes_between("blitz", D(2024, 2, 1), D(2024, 3, 1)) == (ADJUSTMENT_2024,)
    assert list_changes_between("rapid", D(2022, 9, 1), D(2022, 10, 1)) == (RAISE_2022,)
    assert list_changes_between("standard", D(2022, 9, 1), D(2022, 10, 1)) == ()
    with pytest.raises(fr.FideInputError, match="next list after the list of 2024-03-01"):
        list_changes_between("standard", D(2024, 3, 1), D(2024, 3, 1))
    with pytest.raises(fr.FideInputError, match="expected a rating type"):
        list_changes_between("bullet", D(2024, 2, 1), D(2024, 3, 1))
    with pytest.raises(fr.FideInputError, match="expected a list date"):
        list_changes_between("standard", "2024-02-01", D(2024, 3, 1))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["standard", "rapid", "blitz"])
def test_the_list_of_1_march_2024(kind: str) -> None:
    """Every player on the list, with or without games, on all three lists (FIDE's summary of the
    changes, point 1; the Norwegian and Swedish federations' notices: 1800 -> 1880, 1200 ->
    1520); the floor of 1400 comes after, so an adjusted 1200 stays rated."""
    feb, mar, apr = D(2024, 2, 1), D(2024, 3, 1), D(2024, 4, 1)
    assert list_change(1800, kind, feb, mar) == (
        1880, ("2024-03 adjustment of the list of 2024-03-01: 1800 -> 1880",)
    )  # fmt: skip
    assert list_change(1200, kind, feb, mar).rating == 1520
    assert list_change(1000, kind, feb, mar).rating == 1400
    assert list_change(1999, kind, feb, mar).rating == 1999  # 1999.4
    assert list_change(2000, kind, feb, mar) == (2000, ())
    assert list_change(2700, kind, feb, mar) == (2700, ())
    assert list_change(None, kind, feb, mar) == (None, ())  # an unrated player stays unrated
    # the month before and the month after: no adjustment, and the floor of the new list
    assert list_change(1800, kind, D(2024, 1, 1), feb) == (1800, ())
    assert list_change(1200, kind, D(2024, 1, 1), feb) == (1200, ())  # floor 1000 then
    assert list_change(1880, kind, mar, apr) == (1880, ())
    assert list_change(1200, kind, mar, apr) == (
        None, ("below the floor 1400 of the list of 2024-04-01: unrated",)
    )  # fmt: skip
    # a rating that fell below 1000 in February is below 1400 once adjusted
    assert list_change(990, kind, feb, mar).rating is None


def test_the_rapid_and_blitz_lists_of_1_october_2022() -> None:
    """Rapid and blitz raised to the standard rating - 100, the standard rating of the October
    list, for every listed player."""
    sep, oct_, nov = D(2022, 9, 1), D(2022, 10, 1), D(2022, 11, 1)
    for kind in ("rapid", "blitz"):
        assert list_change(2283, kind, sep, oct_, 2732) == (
            2632, ("2022-10 raise of the list of 2022-10-01: 2283 -> 2632",)
        )  # fmt: skip
        # the standard rating rose from 2050 (September) to 2120 (October): the October one
        assert list_change(1990, kind, sep, oct_, 2120).rating == 2020
        assert list_change(1990, kind, sep, oct_, 2050).rating == 1990  # 60 below: unchanged
        assert list_change(2020, kind, sep, oct_, 2120).rating == 2020  # exactly 100 below
        assert list_change(2019, kind, sep, oct_, 2120).rating == 2020  # 101 below
        assert list_change(1990, kind, sep, oct_, None).rating == 1990  # no standard rating
        assert list_change(None, kind, sep, oct_, 2120).rating is None  # unrated stays so
        # the lists before and after
        assert list_change(1990, kind, D(2022, 8, 1), sep, 2120).rating == 1990
        assert list_change(1990, kind, oct_, nov, 2120).rating == 1990
    assert list_change(1990, "standard", sep, oct_, 2120).rating == 1990


def test_list_change_refuses_bad_ratings() -> None:
    with pytest.raises(fr.FideInputError, match="got: 5000"):
        list_change(5000, "standard", D(2024, 2, 1), D(2024, 3, 1))
    with pytest.raises(fr.FideInputError, match=r"got: 1800\.5"):
        list_change(1990, "rapid", D(2022, 9, 1), D(2022, 10, 1), 1800.5)  # type: ignore[arg-type]


def test_editions_notes_lists_the_list_wide_changes(capsys: pytest.CaptureFixture[str]) -> None:
    from fide_rating.commands.cli import main

    assert main(["editions", "--rating-type", "blitz", "--notes"]) == 0
    blitz = capsys.readouterr().out
    assert "list-wide changes (every listed rating, with or without games in the period):" in blitz
    assert "  2024-03 adjustment   the list of 2024-03-01  blitz: a rating below 2000" in blitz
    assert "  2022-10 raise        the list of 2022-10-01  blitz: a rating more than 100" in blitz
    assert "not confirmed / note: FIDE's rapid and blitz chapter of 2024 does not state" in blitz
    assert "late September 2025" in blitz
    assert main(["editions", "--rating-type", "standard"]) == 0
    standard = capsys.readouterr().out
    assert "2024-03 adjustment   the list of 2024-03-01  standard:" in standard
    assert "2022-10 raise" not in standard and "not confirmed" not in standard
