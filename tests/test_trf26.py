"""TRF-2026: every record read without error, and those that change a figure used (162
scoring, 240 byes, 222 time control); the habits of other programs' files (dates, double
forfeits, placeholders). Files written here: nothing third-party (see test_trf_corpus.py)."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest

from fide_rating.formats import trf, trf_check
from fide_rating.formats.trf_records import (
    Period,
    RecordError,
    choose_dates,
    date_readings,
    encode_time_control,
    read_scoring,
    read_time_control,
    round_dates,
)

R = trf.Round


def player(n: int, name: str, rating: int | None, points: str, rounds: list[trf.Round],
           fide: str = "") -> str:  # fmt: skip
    return trf.format_player(
        trf.Player(n, "m", "", name, rating, "SUI", fide, "", Fraction(points), n, tuple(rounds))
    )


def _round_dates(*days: str) -> str:
    return "132" + " " * 88 + "".join(f"{d:<10}" for d in days).rstrip()


PLAYERS = [
    player(1, "Alpha, Anna", 1900, "7.0", [R(2, "w", "1"), R(3, "b", "="), R(4, "w", "1")]),
    player(2, "Bravo, Ben", 1800, "1.0", [R(1, "b", "0"), R(None, "-", "H"), R(3, "w", "0")]),
    player(3, "Charlie, Cem", 1700, "5.0", [R(4, "w", "="), R(1, "w", "="), R(2, "b", "1")]),
    # round 2: the record leaves it blank, record 240 gives the half-point bye
    player(4, "Delta, Dora", None, "2.0", [R(3, "b", "="), R(None, "-", " "), R(1, "b", "0")]),
]
PLAYERS[2] = PLAYERS[2].replace("  1 w =", "  1 b =")  # colours: 1 had black in round 2
PLAYERS[0] = PLAYERS[0].replace("  3 b =", "  3 w =")
HEAD = [
    "012 TRF-2026 test", "022 Bern", "032 SUI", "042 2025/10/04", "052 2025/10/05",
    "092 Individual: Swiss-System", "102 IA Some Body", "122 90 min + 30 s/move",
    _round_dates("25/10/04", "25/10/04", "25/10/05"),
    "142 3", "152 W", "162  W 3.0    D 1.0    L 0.0", "172 SUI FIDE", "182 fide-rating tests",
    "192 FIDE_DUTCH_2026", "202 BH/C1,SB", "212 PTS,BH/C1,SB", "222 5400+30",
    "### SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR",
]  # fmt: skip
TAIL = [
    "### T RRR PPP1",
    "240 H   2    4",
    "250      1.0 001 002 0001 0002",
    "260 001 003    1    4",
    "SUI    1 m      Alpha, Anna                       1950 ZH        12345",
    "XXR 3",
]


def _text(head: list[str] = HEAD, players: list[str] = PLAYERS, tail: list[str] = TAIL) -> str:
    return "\n".join([*head, *players, *tail]) + "\n"


def test_every_individual_record_is_read_and_kept() -> None:
    t = trf.parse(_text())
    assert t.errors == [] and t.warnings == []
    assert trf.write(t) == _text()
    assert t.rounds == 3 and not t.team_event
    assert (t.start, t.end) == (dt.date(2025, 10, 4), dt.date(2025, 10, 5))
    assert trf.time_control(t) == trf_tc("5400+30", [Period(None, 5400, 30)])


def trf_tc(text: str, white: list[Period]) -> object:
    from fide_rating.formats.trf_records import EncodedTimeControl

    return EncodedTimeControl(text, tuple(white))


def test_162_scoring_and_240_byes_give_the_points() -> None:
    t = trf.parse(_text())
    points = trf.scoring(t)
    assert [points[c] for c in "1=0HU"] == [3, 1, 0, 1, 3]
    assert trf_check.bye_rounds(t) == {4: {2: "H"}}
    assert trf_check.with_byes(t.players[4], {2: "H"})[1] == R(None, "-", "H")
    # without record 240, player 4's points are one short; without 162, everyone's differ
    no_byes = trf.parse(_text(tail=[x for x in TAIL if not x.startswith("240")]))
    assert [str(e) for e in no_byes.errors] == [
        "line 23, column 81: points 2 do not add up: the results give 1"
    ]
    default = trf.parse(_text(head=[x for x in HEAD if not x.startswith("162")]))
    assert len(default.errors) == 4


def test_a_240_that_contradicts_a_player_record_is_named_with_its_line() -> None:
    tail = ["240 H   1    1", "240 F   2    2", "240 Z   1    9", *TAIL]
    t = trf.parse(_text(tail=tail))
    assert [str(e) for e in t.errors] == [
        "line 24: record 240 (byes): a half-point bye in round 1 for player 1 (Alpha, Anna), "
        "whose record (line 20) has a game against 2 in that round",
        "line 25: record 240 (byes): a full-point bye in round 2 for player 2 (Bravo, Ben), "
        "whose record (line 21) has 'H' in that round",
        "line 26: record 240 (byes): a zero-point bye in round 1 for player 9, who has no "
        "player record (001)",
    ]


def test_a_240_for_the_round_to_be_paired_counts_nothing_yet() -> None:
    t = trf.parse(_text(tail=[*TAIL, "240 H   4    1"]))
    assert t.errors == [] and trf_check.bye_rounds(t) == {4: {2: "H"}}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("162  W 3.0    Q 1.0", "line 12, column 15: record 162 (scoring points): unknown "
                                "scoring symbol 'Q' (W D L A P X)"),
        ("162  W 3.0    D", "line 12, column 15: record 162 (scoring points): expected a symbol "
                            "(W D L A P X) and its points such as W 1.0, got 'D'"),
        ("222 90'+30", "line 12, column 5: record 222 (time control (encoded)): expected a "
                       "period such as 40/6000+30, 5400+30 or 300, got \"90'+30\""),
        ("152 Q", "line 12, column 5: record 152 (initial colour): expected the initial colour W "
                  "or B, got 'Q'"),
        ("142 x", "line 12, column 5: record 142 (number of rounds): expected the number of "
                  "rounds, got 'x'"),
        ("240 Q   2    4", "line 12, column 5: record 240 (byes): expected the type of bye F, H "
                           "or Z, got 'Q'"),
        ("240 H   2    x", "line 12, column 14: record 240 (byes): expected a starting rank, got "
                           "'x'"),
    ],
)  # fmt: skip
def test_a_record_that_cannot_be_read_is_named_with_its_line_and_column(
    line: str, message: str
) -> None:
    head = [x for x in HEAD if x[:3] != line[:3]]
    head.insert(11, line)
    t = trf.parse(_text(head=head, tail=[x for x in TAIL if x[:3] != line[:3]]))
    assert message in [str(e) for e in t.errors]


def test_162_as_files_write_it() -> None:
    assert read_scoring("162 W 3.0 D 1.0 L 0.0")["W"] == 3  # the symbol in column 5
    scored = read_scoring("162  W 1.0    D 0.5    L 0.0    Z 0.0    P 1.0    X 0.5")
    assert scored["A"] == 0 and scored["P"] == 1  # Z is read as A (bbpPairings writes it)
    odd = read_scoring("162  W 0.9    D 0.7    L 0.3")
    assert [odd["P"], odd["X"], odd["A"]] == [Fraction(9, 10), Fraction(7, 10), 0]
    with pytest.raises(RecordError, match="scoring symbol W given twice"):
        read_scoring("162  W 1.0    W 2.0")


def test_points_in_tenths() -> None:
    head = [x if not x.startswith("162") else "162  W 0.9    D 0.7    L 0.3" for x in HEAD]
    one = player(1, "A", 2000, "2.5", [R(2, "w", "1"), R(3, "w", "="), R(4, "w", "1")])
    two = player(2, "B", 2000, "1.3", [R(1, "b", "0"), R(None, "-", "H"), R(3, "w", "0")])
    t = trf.parse(_text(head=head, players=[one, two], tail=[]))
    assert [str(e) for e in t.errors if "points" in str(e)] == []
    wrong = trf.parse(_text(head=head, players=[one, two.replace(" 1.3 ", " 1.2 ")], tail=[]))
    assert [str(e) for e in wrong.errors if "points" in str(e)] == [
        "line 21, column 81: points 1.2 do not add up: the results give 1.3"
    ]


@pytest.mark.parametrize(
    ("text", "white", "black"),
    [
        ("222 5400+30", [(None, 5400, 30)], None),
        ("222 40/6000+30:900+30", [(40, 6000, 30), (None, 900, 30)], None),
        ("222 40/6000+30:20/3000+30:1500+30", [(40, 6000, 30), (20, 3000, 30), (None, 1500, 30)],
         None),
        ("222 W300-B240", [(None, 300, 0)], [(None, 240, 0)]),
        ("222 180+2", [(None, 180, 2)], None),
    ],
)  # fmt: skip
def test_222_time_controls(
    text: str,
    white: list[tuple[int | None, int, int]],
    black: list[tuple[int | None, int, int]] | None,
) -> None:
    found = read_time_control(text)
    assert found.white == tuple(Period(*p) for p in white)
    assert found.black == (None if black is None else tuple(Period(*p) for p in black))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("222 ", "expected a time control such as 5400+30, got nothing"),
        ("222 90+30:40/60", "a period after the rest of the game, got '40/60'"),
        ("222 0/600", "a period of 0 moves"),
        ("222 W300-X240", "expected W…-B… (each colour's time), got 'W300-X240'"),
    ],
)
def test_222_that_cannot_be_read(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        read_time_control(text)


def test_222_is_written_from_a_time_control() -> None:
    f = Fraction
    assert encode_time_control([(None, f(90), f(30))]) == "5400+30"
    assert encode_time_control([(40, f(100), f(30)), (None, f(15), f(30))]) == "40/6000+30:900+30"
    assert encode_time_control([(40, f(120), f(0)), (None, f(60), f(0))]) == "40/7200:3600"
    assert encode_time_control([(None, f(1, 7), f(0))]) is None


def test_a_double_forfeit_is_no_problem() -> None:
    a = player(1, "A", 2000, "0.0", [R(2, "w", "-")])
    b = player(2, "B", 2000, "0.0", [R(1, "b", "-")])
    assert trf.parse("\n".join(["012 Nobody came", a, b]) + "\n").errors == []
    c = player(2, "B", 2000, "0.0", [R(1, "b", "0")])
    assert [str(e) for e in trf.parse("\n".join(["012 X", a, c]) + "\n").errors] == [
        "line 2, column 99: round 1: result - against 2, who has 0",
        "line 3, column 99: round 1: result 0 against 1, who has -",
    ]


@pytest.mark.parametrize(
    ("text", "day", "form"),
    [
        ("2025/10/04", dt.date(2025, 10, 4), "YYYY/MM/DD"),
        ("2024-08-01", dt.date(2024, 8, 1), "YYYY-MM-DD"),
        ("28. 07. 2005", dt.date(2005, 7, 28), "DD.MM.YYYY"),
        ("25.02.2011", dt.date(2011, 2, 25), "DD.MM.YYYY"),
        ("May 10, 2020", dt.date(2020, 5, 10), "Month DD, YYYY"),
        ("Jun 26, 2020", dt.date(2020, 6, 26), "Month DD, YYYY"),
        ("10 September 2013", dt.date(2013, 9, 10), "DD Month YYYY"),
        ("10.09.13", dt.date(2010, 9, 13), "YY.MM.DD"),
        ("25/09/02", dt.date(2025, 9, 2), "YY/MM/DD"),
    ],
)
def test_dates_as_programs_write_them(text: str, day: dt.date, form: str) -> None:
    assert date_readings(text)[0] == (day, form)


def test_which_reading_of_a_date_is_chosen_and_why() -> None:
    # the round dates settle it: no warning
    start, end = choose_dates("10.09.13", "11.03.13", [dt.date(2010, 9, 13), dt.date(2011, 3, 13)])
    assert start is not None and end is not None
    assert (start.day, start.form, start.why) == (dt.date(2010, 9, 13), "YY.MM.DD",
                                                  "the first round's date (132)")  # fmt: skip
    assert end.day == dt.date(2011, 3, 13)
    # the start is not after the end in one form only
    start, end = choose_dates("11.09.26", "12.04.01", [])
    assert start is not None and start.day == dt.date(2011, 9, 26)
    assert start.why == "the only form in which the start is not after the end"
    # nothing settles it: the likeliest, and the file says so
    start, _ = choose_dates("05/06/2020", None, [])
    assert start is not None and start.day == dt.date(2020, 6, 5) and start.others
    lines = ["012 Ambiguous", "042 05/06/2020", player(1, "A", 2000, "0.0", [])]
    t = trf.parse("\n".join(lines) + "\n")
    assert t.start == dt.date(2020, 6, 5) and t.errors == []
    assert [str(w) for w in t.warnings] == [
        "line 2, column 5: record 042 (start date): '05/06/2020' read as 2020-06-05 (DD/MM/YYYY, "
        "the likeliest form); it could also be 2020-05-06 (MM/DD/YYYY): give --start if it is"
    ]
    t.given_start = dt.date(2020, 5, 6)
    assert t.start == dt.date(2020, 5, 6)


def test_a_lichess_start_date_is_read() -> None:
    lines = ["012 Lichess", "042 May 10, 2020", "052 May 10, 2020", player(1, "A", 0, "0.0", [])]
    t = trf.parse("\n".join(lines) + "\n")
    assert t.start == dt.date(2020, 5, 10) and t.errors == [] and t.warnings == []


def test_round_dates_in_the_forms_seen() -> None:
    assert round_dates(_round_dates("25/10/04", "25/10/05")) == (
        [dt.date(2025, 10, 4), dt.date(2025, 10, 5)], "YY/MM/DD")  # fmt: skip
    # ICU's Bunratty files: YY.DD.MM (no date reads as YY.MM.DD)
    assert round_dates(_round_dates("11.25.02", "11.26.02")) == (
        [dt.date(2011, 2, 25), dt.date(2011, 2, 26)], "YY.DD.MM")  # fmt: skip


def test_placeholders_for_an_unknown_birth_date() -> None:
    a = player(1, "A", 2000, "0.0", []).ljust(79)
    for placeholder in ("0000/00/00", ".  .", "00.00.0000"):
        line = a[:69] + f"{placeholder:>10}"
        t = trf.parse("\n".join(["012 Births", line]) + "\n")
        assert t.errors == [] and t.players[1].birth_date is None, placeholder


def test_national_rating_records() -> None:
    t = trf.parse(_text(tail=[*TAIL, "FRA    9    A                                   2200 IDF"]))
    assert t.errors == []
    assert [str(w) for w in t.warnings] == [
        "line 30, column 5: national rating record FRA: starting rank 9 has no player record (001)"
    ]
