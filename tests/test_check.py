"""fide-rating check: may an event be rated? Each rule holds, fails or cannot be told."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.engine.recalc import recalc_file
from fide_rating.events.ratable import FAILS, HOLDS, UNKNOWN, check
from fide_rating.formats import layout, trf
from fide_rating.formats.trf import round_dates

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"
R = trf.Round


def event(start: str, end: str, control: str | None, ratings: Sequence[int | None],
          rounds: dict[int, list[trf.Round]], dates: list[str] | None = None) -> trf.Tournament:  # fmt: skip
    lines = ["012 Test event", f"042 {start}", f"052 {end}"]
    if control is not None:
        lines.append(f"122 {control}")
    if dates is not None:
        lines.append("132" + " " * 88 + "".join(f"  {d}" for d in dates))
    for n, rating in enumerate(ratings, start=1):
        games = rounds[n]
        lines.append(trf.format_player(trf.Player(
            n, "m", "", f"Player {n}", rating, "AUT", str(4000 + n), "1980",
            trf.points_of(g.result for g in games), n, tuple(games))))  # fmt: skip
    return trf.parse("\n".join(lines) + "\n")


def by_clause(t: trf.Tournament) -> dict[str, tuple[str, str]]:
    return {f.clause: (f.status, f.text) for f in check(t)}


FOUR = {1: [R(2, "w", "1"), R(3, "b", "=")], 2: [R(1, "b", "0"), R(4, "w", "1")],
        3: [R(4, "w", "="), R(1, "w", "=")], 4: [R(3, "b", "="), R(2, "b", "0")]}  # fmt: skip


def test_the_real_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(REAL)]) == 0
    out = capsys.readouterr().out
    assert (
        "holds        1.1   time control record 122 '40/120, 60': 180 min for 60 moves, 120 needed"
        in out
    )
    assert "cannot tell  3.1   hours of play a day: no round dates (record 132)" in out
    assert "holds        5.1   10 forfeited game(s) are not rated" in out


def test_too_little_time_for_the_highest_rating() -> None:
    slow = event("2025/03/01", "2025/03/02", "60 min", [2450, 2000, 1900, 1850], FOUR)
    assert by_clause(slow)["1.1"] == (FAILS, "time control record 122 '60 min': 60 min for 60 moves, 120 "
                                      "needed with the game's highest rating 2450 (B.02 2024-03 1.1)")  # fmt: skip
    fine = event("2025/03/01", "2025/03/02", "90+30", [2450, 2000, 1900, 1850], FOUR)
    assert by_clause(fine)["1.1"][0] == HOLDS
    unread = event("2025/03/01", "2025/03/02", "Fischer", [2450, 2000, 1900, 1850], FOUR)
    assert by_clause(unread)["1.1"] == (UNKNOWN, "time control: cannot read record 122 'Fischer' "
                                        "(expected a time control such as 90+30 or 40/90, 30+30)")  # fmt: skip


def test_hours_and_rounds_a_day() -> None:
    same_day = ["25/03/01", "25/03/01"]
    players = [2000, 1900, 1850, 1800]
    two = event("2025/03/01", "2025/03/01", "90+30", players, FOUR, same_day)
    assert round_dates(two) == [dt.date(2025, 3, 1)] * 2
    assert by_clause(two)["3.1"] == (HOLDS, "at most 8 hours of play a day (2 round(s) on "
                                     "2025-03-01)")  # fmt: skip
    twelve = event("2025/03/01", "2025/03/01", "40/120, 60", players, FOUR, same_day)
    assert by_clause(twelve)["3.1"][0] == HOLDS  # 2 games of 2 x 180 min: 12 hours exactly
    long_games = event("2025/03/01", "2025/03/01", "4h", players, FOUR, same_day)
    assert by_clause(long_games)["3.1"] == (FAILS, "16 hours of play on 2025-03-01 (2 rounds), "
                                            "at most 12")  # fmt: skip
    undated = event("2025/03/01", "2025/03/01", "90+30", players, FOUR)
    assert by_clause(undated)["3.1"][0] == UNKNOWN


def test_the_duration_by_edition() -> None:
    old = event("2013/01/01", "2013/04/30", "120 min", [2000, 1900, 1850, 1800], FOUR)
    assert by_clause(old)["4.1"][0] == FAILS  # 120 days, at most 90 in 2012-07
    new = event("2025/01/01", "2025/02/20", "120 min", [2000, 1900, 1850, 1800], FOUR)
    assert by_clause(new)["4.1"] == (HOLDS, "lasts 51 days: report it every month")


def test_matches() -> None:
    decided = event("2025/05/01", "2025/05/04", "90+30", [2100, 2000], {
        1: [R(2, "w", "1"), R(2, "b", "1"), R(2, "w", "1"), R(2, "b", "0")],
        2: [R(1, "b", "0"), R(1, "w", "0"), R(1, "b", "0"), R(1, "w", "1")]})  # fmt: skip
    assert by_clause(decided)["6.2"] == (FAILS, "the match was decided in game 3 of 4: games 4 "
                                         "to 4 are not rated")  # fmt: skip
    unrated = event("2025/05/01", "2025/05/02", "90+30", [2100, None], {
        1: [R(2, "w", "1"), R(2, "b", "0")], 2: [R(1, "b", "0"), R(1, "w", "1")]})  # fmt: skip
    assert by_clause(unrated)["6.1"] == (FAILS, "a match with an unrated player is not rated")


def test_a_workbook_and_its_event_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "rr.xlsx"
    assert main(["template", "rr", "--players", "4", "-o", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    wb["Event"]["B3"], wb["Event"]["B5"], wb["Event"]["B6"] = (
        "Club",
        dt.date(2025, 5, 1),
        dt.date(2025, 5, 2),
    )
    wb["Event"]["B12"] = "60 min"
    ws = wb["Players"]
    header = {c.value: c.column for c in ws[layout.HEADER_ROW]}
    for i, rating in enumerate([2450, 2000, 1900, 1800]):
        ws.cell(layout.FIRST + i, int(header["Name"]), f"P{i}")  # type: ignore[arg-type]
        ws.cell(layout.FIRST + i, int(header["Ro"]), rating)  # type: ignore[arg-type]
    wb.save(book)
    assert main(["check", str(book)]) == 1
    assert (
        "FAILS        1.1   time control the Event sheet's time control (B12) '60 min'"
        in capsys.readouterr().out
    )
    done = recalc_file(book, out_dir=tmp_path / "out")
    assert done.output is not None
    shown = openpyxl.load_workbook(done.output, data_only=True)["Event"]["B13"].value
    assert str(shown).startswith("not ratable: 60 min for 60 moves, 120 needed")


def test_three_rounds_a_day_at_most_in_2005() -> None:
    twice = {1: [R(2, c, "=") for c in "wbwb"], 2: [R(1, c, "=") for c in "bwbw"],
             3: [R(4, c, "=") for c in "wbwb"], 4: [R(3, c, "=") for c in "bwbw"]}  # fmt: skip
    day = ["06/03/01"] * 4
    quick = event("2006/03/01", "2006/03/01", "G/60", [2000, 1900, 1850, 1800], twice, day)
    assert by_clause(quick)["3.1"] == (FAILS, "4 rounds on 2006-03-01, at most 3 a day")
    later = event("2013/03/01", "2013/03/01", "G/60", [2000, 1900, 1850, 1800], twice,
                  ["13/03/01"] * 4)  # fmt: skip
    assert by_clause(later)["3.1"][0] == HOLDS  # 2012-07 counts the hours only


@pytest.mark.parametrize(
    ("start", "end", "status"),
    [
        ("2013/01/01", "2013/03/31", HOLDS),  # 90 days: the most without leave (2012-07 4.1)
        ("2013/01/01", "2013/04/01", FAILS),  # 91 days
        ("2025/01/01", "2025/01/30", HOLDS),  # 30 days: no monthly report (2024-03 4.1)
        ("2025/01/01", "2025/01/31", HOLDS),  # 31 days: reported every month
    ],
)
def test_the_duration_on_both_sides(start: str, end: str, status: str) -> None:
    found = by_clause(event(start, end, "120 min", [2000, 1900, 1850, 1800], FOUR))["4.1"]
    assert found[0] == status
    assert ("report it every month" in found[1]) == (end == "2025/01/31")
