"""The cell layer: values as Excel and LibreOffice really pass them."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fide_rating as fr
from fide_rating.cells import BY_NAME, PREFIX, REGISTRY, call

OPP = [1063.0, 1299.0, 1413.0, 1872.0, 1851.0, 1427.0, 1682.0]
RES = [1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0]


def test_help_fits_excel() -> None:
    for fn in REGISTRY:
        assert len(fn.help) <= 255, fn.name
        assert all(len(p.help) <= 255 for p in fn.params)
        optional = [p.optional for p in fn.params]
        assert optional == sorted(optional), f"{fn.name}: optional arguments must come last"


def test_expect_one_opponent_and_ranges() -> None:
    assert call("FIDE_EXPECT", 2600.0, 2500.0, None, "2012-07") == 0.64
    # a column (Excel: list of lists), a row (list), LibreOffice tuples: the same
    column = [[2300.0]] * 10
    assert call("FIDE_EXPECT", 2145.0, column) == pytest.approx(2.9)
    assert call("FIDE_EXPECT", 2145.0, [2300.0] * 10) == call(
        "FIDE_EXPECT", 2145.0, ((2300.0,) * 10,)
    )
    # blanks are skipped; with results only played games count
    assert call("FIDE_EXPECT", 2145.0, [2300.0, None, "", 0.0, 2300.0]) == pytest.approx(0.58)
    assert call("FIDE_EXPECT", 2145.0, [2300.0, 2300.0, 2300.0], [1.0, "+", None]) == pytest.approx(
        0.29
    )


def test_change_matches_core_with_every_result_spelling() -> None:
    expected = float(fr.change(2000, [int(o) for o in OPP], RES, 20, "2022-01"))
    assert call("FIDE_CHANGE", 2000.0, OPP, RES, 20.0, "2022-01") == expected == -12.2
    spelled = ["1", 1, "1,0", "=", "0", "1.0", " 1 "]
    assert call("FIDE_CHANGE", 2000.0, OPP, spelled, 20.0, "2022-01") == expected
    halves = ["½", "1/2", "0,5", "0.5", 0.5, ".5"]
    for h in halves:
        assert call("FIDE_CHANGE", 2000.0, [2000.0], [h], 20.0) == 0.0
    # forfeits and byes are not rated
    assert call("FIDE_CHANGE", 2000.0, [2000.0, 2000.0, 2000.0], [1.0, "+", "-"], 20.0) == 10.0
    assert call("FIDE_CHANGE", 2000.0, [2000.0, 0.0], [1.0, "H"], 20.0) == 10.0


def test_edition_as_name_datetime_serial_and_iso() -> None:
    args = (2000.0, OPP, RES, 20.0)
    one_upgrade = call("FIDE_CHANGE", *args, "2022-01")
    assert call("FIDE_CHANGE", *args, dt.datetime(2023, 6, 1)) == one_upgrade
    assert call("FIDE_CHANGE", *args, 45078.0) == one_upgrade  # serial of 2023-06-01
    assert call("FIDE_CHANGE", *args, "2023-06-01") == one_upgrade
    assert call("FIDE_CHANGE", *args, dt.date(2024, 3, 1)) != one_upgrade
    assert call("FIDE_EDITION", 45078.0) == "2022-01"
    assert call("FIDE_EDITION", dt.datetime(2024, 2, 29)) == "2022-01"
    assert call("FIDE_EDITION", dt.date(2024, 3, 1)) == "2024-03"
    assert call("FIDE_EDITION") == call("FIDE_EDITION", None) == "2025-10"


def test_other_functions() -> None:
    assert call("FIDE_DP", 0.8) == 240
    assert call("FIDE_DP", "0,8") == 240
    assert call("FIDE_PERF", [[2300.0]] * 10, [[1.0]] * 8 + [[0.0]] * 2) == 2540
    assert call("FIDE_ROUND", -2.5) == -3
    assert call("FIDE_ROUND", 2.5) == 3
    assert call("FIDE_ROUND", 0.49999) == 0
    assert call("FIDE_ADJUST2024", 1500.0) == 1700
    assert (
        call(
            "FIDE_INITIAL", [1902.0, 1877.0, 1884.0, 2012.0, 1832.0], ["½", "½", 1, 0, 1], "2024-03"
        )
        == 1922
    )
    assert (
        call("FIDE_INITIAL", [1900.0] * 3, [1, 1, 1])
        == "not rated: 3 games against rated opponents, 5 needed"
    )
    rr = call("FIDE_INITIAL", [2348.0] * 9, [1, 1, 0, 0, 0, 0, 0, 0, 0], "2012-07", True)
    assert rr == 2150


def test_k_in_cells() -> None:
    assert call("FIDE_K", 2000.0, 10.0, 1990.0, False) == 40
    assert call("FIDE_K", 2000.0, 50.0, None, False) == 20
    assert call("FIDE_K", 2000.0, 50.0, "", "FALSE", 36.0) == 19
    assert call("FIDE_K", 2450.0, 50.0, 1990.0, True) == 10
    assert call("FIDE_K", 2000.0, 50.0, 2007.0, 0.0, None, dt.datetime(2025, 12, 31)) == 40
    assert call("FIDE_K", 2000.0, 50.0, 2007.0, 0.0, None, dt.datetime(2026, 1, 1)) == 20
    assert call("FIDE_K", 2000.0, 50.0, 2006.0, False, None, "2024-06-01") == 40
    # the junior K to the end of the year of the 18th birthday (FIDE's practice from 2014-07):
    # the birth year is enough
    assert call("FIDE_K", 2000.0, 50.0, 2000.0, False, None, "2018-12-31") == 40
    assert call("FIDE_K", 2000.0, 50.0, 2000.0, False, None, "2019-01-01") == 20
    # the rating type: K 20 for everyone in rapid until 2022-09, as standard from 2022-10
    assert call("FIDE_K", 2000.0, 10.0, 2010.0, False, None, "2022-09-30", "rapid") == 20
    assert call("FIDE_K", 2000.0, 10.0, 2010.0, False, None, "2022-10-01", "Rapid") == 40
    assert call("FIDE_K", 2000.0, 10.0, 2010.0, False, None, "2022-09-30 blitz") == 20
    assert call("FIDE_K", 2000.0, 10.0, None, False, None, "2022-09-30", "bullet") == (
        "#FIDE! rating_type: expected standard, rapid or blitz, got 'bullet'"
    )
    assert call("FIDE_EDITION", dt.datetime(2025, 11, 10), "rapid") == "2024-12 rapid"
    assert call("FIDE_EDITION", None, "blitz") == "2024-12 blitz"
    assert call("FIDE_EDITION", dt.datetime(2011, 5, 1), "rapid") == (
        "#FIDE! start: expected a date from 2012-01-01 on, got 2011-05-01 00:00:00"
    )
    assert call("FIDE_K", 2000.0, 50.0, dt.datetime(2000, 7, 1), False, None, "2018-06-01") == 40
    # a birth date cell as LibreOffice passes it: its serial number (2000-07-01), to the end of
    # the year of the 18th birthday
    assert call("FIDE_K", 2000.0, 50.0, 36708.0, False, None, "2018-07-01") == 40
    assert call("FIDE_K", 2000.0, 50.0, 36708.0, False, None, "2019-01-01") == 20


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        (
            "FIDE_CHANGE",
            (2000.0, [2000.0], ["2"], 20.0),
            "#FIDE! results: expected 1, 0.5 or 0, got '2'",
        ),
        (
            "FIDE_CHANGE",
            (2000.0, [2000.0], [2.0], 20.0),
            "#FIDE! results: expected 1, 0.5 or 0, got 2",
        ),
        (
            "FIDE_CHANGE",
            (2000.5, [2000.0], [1.0], 20.0),
            "#FIDE! rating: expected a whole-number rating from 1 to 4000, got 2000.5",
        ),
        (
            "FIDE_CHANGE",
            (2000.0, [2000.0, 2100.0], [1.0], 20.0),
            "#FIDE! results: expected as many cells as opponents (2), got 1",
        ),
        ("FIDE_CHANGE", (2000.0, [2000.0], [1.0]), "#FIDE! k: missing (required)"),
        (
            "FIDE_CHANGE",
            (2000.0, [2000.0], [1.0], 20.0, "2023-01"),
            "#FIDE! edition: expected an edition (2005-07, 2009-07, 2011-07, 2012-07, 2014-07, 2022-01, 2024-03, 2025-10; rapid and blitz: 2024-12 rapid ...) or a date, got '2023-01'",
        ),
        (
            "FIDE_CHANGE",
            (2000.0, [2000.0], [1.0], 20.0, dt.date(2004, 1, 1)),
            "#FIDE! edition: expected a date from 2005-07-01 on, got 2004-01-01",
        ),
        (
            "FIDE_EXPECT",
            (2000.0, [9000.0]),
            "#FIDE! opponents: expected a whole-number rating from 1 to 4000, got 9000",
        ),
        ("FIDE_DP", (1.5,), "#FIDE! p: expected a fractional score from 0 to 1, got 1.5"),
        (
            "FIDE_DP",
            (1.0, "2005-07"),
            "#FIDE! dp is undefined at p = 1 in edition 2005-07 (10.1), got: 1",
        ),
        (
            "FIDE_K",
            (2000.0, 10.0, 1990.0, "maybe"),
            "#FIDE! reached_2400: expected TRUE or FALSE, got 'maybe'",
        ),
        ("FIDE_EDITION", ("soon",), "#FIDE! start: expected a date, got 'soon'"),
        ("FIDE_ROUND", (math.nan,), "#FIDE! x: expected a number, got nan"),
        (
            "FIDE_EXPECT",
            (2000.0, 2000.0, None, None, None),
            "#FIDE! FIDE_EXPECT: expected at most 4 arguments, got 5",
        ),
    ],
)
def test_errors_are_short_texts(name: str, args: tuple[object, ...], message: str) -> None:
    assert call(name, *args) == message


# --- no traceback, whatever the cells hold ---------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [1.0, 0.5, 0.0, 2000.0, 2400.0, 1800.0, 45000.0, "½", "=", "+", "-", "", "1/2"]
    ),
    st.text(max_size=12),
    st.datetimes(min_value=dt.datetime(1900, 1, 1)),
    st.dates(),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5), max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(REGISTRY), st.lists(values, max_size=7))
def test_any_cell_values_give_a_number_or_a_fide_text(fn: object, args: list[object]) -> None:
    out = call(fn.name, *args)  # type: ignore[attr-defined]
    if isinstance(out, str):
        assert (
            out.startswith(PREFIX)
            or out.startswith("not rated: ")
            or out.startswith("not ratable: ")
            or out in {e.name for e in fr.EDITIONS}
            # no rated game: a blank cell (Rc, the round-robin items)
            or (out == "" and fn.returns == "number or text")  # type: ignore[attr-defined]
        ), out
        assert "Traceback" not in out and len(out) < 300
    elif isinstance(out, bool):
        assert out is True and fn.name == "FIDE_RATABLE"  # type: ignore[attr-defined]
    else:
        assert isinstance(out, int | float)
        assert math.isfinite(out)


def test_registry_names() -> None:
    assert list(BY_NAME) == [
        "FIDE_EXPECT", "FIDE_DP", "FIDE_CHANGE", "FIDE_INITIAL", "FIDE_K",
        "FIDE_PERF", "FIDE_POINTS", "FIDE_GAMES", "FIDE_N", "FIDE_W", "FIDE_RC", "FIDE_RR",
        "FIDE_ROUND", "FIDE_ADJUST2024", "FIDE_RATABLE", "FIDE_EDITION",
    ]  # fmt: skip


def test_points_games_n_w_rc() -> None:
    res = ["1", "½", "+", "-", "H", "F", "U", "Z", None, "=", 0.0, "W", "D", "L"]
    assert call("FIDE_POINTS", res) == 1 + 0.5 + 1 + 0 + 0.5 + 1 + 1 + 0 + 0.5 + 0 + 1 + 0.5 + 0
    assert call("FIDE_GAMES", res) == 4  # 1, ½, =, 0
    opps = [2000.0, None, 2100.0, 2200.0, 2300.0, 1500.0]
    results = [1.0, 1.0, "+", 0.5, 0.0, 1.0]
    assert call("FIDE_N", opps, results) == 4
    assert call("FIDE_W", opps, results) == 2.5
    # Rc with the cap: 1500 counts as 1600 against a 2000 player
    assert call("FIDE_RC", 2000.0, opps, results, "2024-03") == (2000 + 2200 + 2300 + 1600) / 4
    assert call("FIDE_RC", 2000.0, [None], [1.0]) == ""


def test_rr_seed_000_example_through_cells() -> None:
    from crosstables import crosstable

    table = crosstable([8, 7, 7, 6, 6, 4, 3, 2, 1, 1])
    ratings = [2600.0, 2500.0, None, 2400.0, None, 2150.0, 2300.0, "", 0.0, 2300.0]
    matrix = [[None if v is None else float(v) for v in row] for row in table]  # type: ignore[arg-type]
    args = (ratings, matrix)
    items = {
        2: (2348, 2423, 2348, 2423),
        4: (2348, 2393, 2348, 2393),
        7: (2348, 2150, 2342, 2144),
        8: (2348, 2032, 2322, 2006),
    }
    for i, (rc1, ru1, rc, ru) in items.items():
        got = [
            call("FIDE_RR", *args, i + 1.0, item, "2012-07") for item in ("rc1", "ru1", "rc", "ru")
        ]
        assert got == [rc1, ru1, rc, ru]
        assert call("FIDE_RR", *args, i + 1.0, "rating", "2012-07") == ru
    used = [call("FIDE_RR", *args, j + 1.0, "rating", "2012-07") for j in range(10)]
    assert used == [2600, 2500, 2423, 2400, 2393, 2150, 2300, 2144, 2006, 2300]
    we = {0: 7.36, 1: 6.48, 3: 5.40, 5: 2.55, 6: 4.21, 9: 4.21}
    for i, want in we.items():
        assert call("FIDE_EXPECT", used[i], used, matrix[i], "2012-07") == pytest.approx(
            want, abs=1e-9
        )
    assert call("FIDE_RR", *args, 3.0, "initial", "2012-07") == 2423
    assert call("FIDE_RR", *args, 1.0, "ru", "2012-07") == ""
    # 2022-01: no round-robin method; unrated opponents do not count for the rated
    assert call("FIDE_RR", *args, 3.0, "rating", "2022-01") == ""
    # I: 0.5 from the 6 rated opponents (mean 2375): p .08, dp -401
    assert [matrix[8][j] for j in (0, 1, 3, 5, 6, 9)] == [0.0, 0.0, 0.0, 0.0, 0.0, 0.5]
    assert call("FIDE_RR", *args, 9.0, "rc", "2022-01") == 2375
    assert call("FIDE_RR", *args, 9.0, "initial", "2022-01") == 1974
    assert (
        call("FIDE_RR", *args, 11.0, "rc", "2012-07")
        == "#FIDE! player: expected a player number from 1 to 10, got 11"
    )
    assert str(call("FIDE_RR", *args, 1.0, "x", "2012-07")).startswith("#FIDE! item: expected")
    short = call("FIDE_RR", ratings, matrix[:9], 1.0, "rc")
    assert str(short).startswith("#FIDE! results: expected a crosstable")


@given(st.floats(min_value=-1e12, max_value=1e12))
def test_fide_round_cell_agrees_with_the_core(x: float) -> None:
    from fractions import Fraction

    assert call("FIDE_ROUND", x) == fr.fide_round(Fraction(x))


# --- errors never become numbers -----------------------------------------------------------

OPP_COL = [[1063.0], [1299.0], [1413.0], [1872.0], [1851.0], [1427.0], [1682.0]]
RES_COL = [[1.0], [1.0], [1.0], [0.5], [0.0], [1.0], [1.0]]


def test_change_of_the_issue_is_minus_12_2() -> None:
    assert call("FIDE_CHANGE", 2000.0, OPP_COL, RES_COL, 20.0, "2022-01") == pytest.approx(-12.2)


@pytest.mark.parametrize(
    "error",
    ["#N/A", "#VALUE!", "#DIV/0!", "#REF!", "#SPILL!", "#FIDE! results: expected 1, 0.5 or 0",
     {"type": "Error", "errorType": "NotAvailable", "basicValue": "#N/A"}],
)  # fmt: skip
def test_an_error_in_a_range_is_an_error(error: object) -> None:
    opponents: list[list[object]] = [list(row) for row in OPP_COL]
    opponents[3] = [error]
    out = call("FIDE_CHANGE", 2000.0, opponents, RES_COL, 20.0, "2022-01")
    if isinstance(error, str) and error.startswith(PREFIX):  # another cell's message, passed on
        assert out == error
        return
    assert isinstance(out, str) and out.startswith(f"{PREFIX} opponents: the range holds an error")
    results = [1.0, error, 0.5]
    assert str(call("FIDE_POINTS", results)).startswith(f"{PREFIX} results: the range holds")
    assert str(call("FIDE_K", error, 30.0)).startswith(f"{PREFIX} rating: the cell holds an error")


def test_an_error_code_is_named() -> None:
    assert call("FIDE_POINTS", [1.0, "#VALUE!", 0.5]) == (
        f"{PREFIX} results: the range holds an error (#VALUE!)"
    )


def test_text_that_merely_starts_with_a_hash_is_not_an_error_value() -> None:
    # a user's text, not an error: it gets the ordinary message for a bad value
    assert call("FIDE_POINTS", [1.0, "#7", 0.5]) == (
        f"{PREFIX} results: expected 1, 0.5 or 0, got '#7'"
    )


@pytest.mark.parametrize("one", [[[1800.0]], [1800.0], ((1800.0,),)])
def test_a_one_cell_range_is_its_value(one: object) -> None:
    assert call("FIDE_K", one, 10.0, 1990.0, False, 5.0, "2024-01-01") == 40
    assert call("FIDE_EXPECT", one, [[1700.0]]) == call("FIDE_EXPECT", 1800.0, 1700.0)
    assert call("FIDE_EDITION", [["2023-05-01"]]) == "2022-01"


def test_a_larger_range_for_one_value_is_refused() -> None:
    assert call("FIDE_K", [[1800.0, 1900.0]], 10.0, 1990.0, False) == (
        f"{PREFIX} rating: expected a whole-number rating from 1 to 4000, got a range"
    )


def test_a_blank_result_cell_is_a_range_of_one_blank() -> None:
    assert call("FIDE_POINTS", None) == call("FIDE_POINTS", [None, None]) == 0
    assert call("FIDE_GAMES", None) == 0
    assert call("FIDE_N", None, None) == 0


def test_a_result_excel_turned_into_a_date() -> None:
    out = call("FIDE_POINTS", [1.0, dt.datetime(2025, 1, 2), 0.5])
    assert out == (
        f"{PREFIX} results: expected 1, 0.5 or 0, got a date (2 January): type 0.5, ½ or = "
        "for a draw (a spreadsheet reads 1/2 as a date)"
    )


# --- facts that cannot be true are refused ---------------------------------------------------


def test_k_with_more_games_in_a_period_than_k_x_n_allows() -> None:
    assert call("FIDE_K", 2100.0, 50.0, 1990.0, False, 700.0, "2025-05-01") == 1
    assert call("FIDE_K", 2100.0, 50.0, 1990.0, False, 701.0, "2025-05-01") == (
        f"{PREFIX} games_in_period: expected a number of games from 0 to 700, got 701"
    )
    with pytest.raises(fr.FideInputError, match="at most 700 rated games"):
        fr.limit_k(20, 701, fr.get_edition("2025-10"))


@pytest.mark.parametrize(
    ("born", "shown"),
    [(3500.0, "3500"), (2030.0, "2030"), (1899.0, "1899"), (1924.0, "1924")],  # 3500: 1909-07-31
)
def test_impossible_birth_years(born: float, shown: str) -> None:
    out = call("FIDE_K", 2100.0, 50.0, born, False, None, "2025-05-01")
    assert isinstance(out, str) and out.startswith(f"{PREFIX} birth_year: expected a birth year")
    assert out.endswith(f"got {shown}")


def test_birth_year_bounds_follow_the_event_date() -> None:
    assert call("FIDE_K", 2100.0, 50.0, 2025.0, False, None, "2025-05-01") == 40  # a junior
    assert call("FIDE_K", 2100.0, 50.0, 0.0, False, None, "2025-05-01") == 20  # 0: unknown


def test_a_round_robin_needs_three_players() -> None:
    assert call("FIDE_RR", [[2200.0], [None]], [[None, 1.0], [0.0, None]], 2.0, "initial") == (
        f"{PREFIX} ratings: expected a round robin of 3 players or more, got 2"
    )


def test_a_crosstable_must_be_reciprocal() -> None:
    ratings = [[2200.0], [None], [2000.0]]
    good = [[None, 1.0, 0.5], [0.0, None, 0.0], [0.5, 1.0, None]]
    assert not str(call("FIDE_RR", ratings, good, 2.0, "initial", "2012-07")).startswith(PREFIX)
    bad = [[None, 1.0, 0.5], [1.0, None, 0.0], [0.5, 1.0, None]]
    assert call("FIDE_RR", ratings, bad, 2.0, "initial", "2012-07") == (
        f"{PREFIX} results: row 1, column 2 (1) does not match row 2, column 1 (1)"
    )
    forfeit = [[None, "+", 0.5], ["+", None, 0.0], [0.5, 1.0, None]]
    assert "does not match" in str(call("FIDE_RR", ratings, forfeit, 2.0, "rating"))
    diagonal = [[1.0, 1.0, 0.5], [0.0, None, 0.0], [0.5, 1.0, None]]
    assert call("FIDE_RR", ratings, diagonal, 2.0, "rating") == (
        f"{PREFIX} results: row 1, column 1: a player against himself"
    )
