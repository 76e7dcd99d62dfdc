"""Rapid and blitz by their own rules, through the commands a rating officer runs: a period with
FIDE's list (its rapid column) on both sides of each date the rules changed."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest

import fide_rating as fr
from fide_rating.commands.cli import main
from fide_rating.formats import trf
from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line, open_list
from fide_rating.rules.editions import raise_applies

R = trf.Round
D = dt.date


def _player(fide_id: int, name: str, standard: int | None, rapid: int | None, rapid_k: int | None,
            born: int = 1980) -> ListedPlayer:  # fmt: skip
    return ListedPlayer(fide_id, name, "GER", "M", "", "", "", standard, 0,
                        None if standard is None else 20, rapid, 0, rapid_k, None, 0, None, born,
                        "")  # fmt: skip


def fide_list(path: Path, players: list[ListedPlayer]) -> Path:
    path.write_bytes(("\r\n".join([HEADER, *map(format_line, players)]) + "\r\n").encode())
    return path


def event(path: Path, start: dt.date, players: list[tuple[int, str, int | None]],
          rounds: dict[int, list[trf.Round]], time_control: str = "15+10") -> Path:  # fmt: skip
    """A TRF; ``players`` (FIDE ID, name, the rating the file carries)."""
    lines = ["012 Rapid", f"042 {start:%Y/%m/%d}", f"052 {start:%Y/%m/%d}",
             f"122 {time_control}"]  # fmt: skip
    for number, (fide_id, name, rating) in enumerate(players, start=1):
        games = rounds[number]
        lines.append(trf.format_player(trf.Player(
            number, "m", "", name, rating, "GER", str(fide_id), "",
            trf.points_of(g.result for g in games), number, tuple(games))))  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return path


def rapid_round_robin(tmp: Path) -> tuple[Path, Path]:
    """FIDE's list (rapid column) and the issue's rapid round robin of 2025-11-10: a 2700, a
    2080 (620 below him), a 2250, and a player with no rapid rating but a standard 2150."""
    source = fide_list(tmp / "players_list_foa.txt", [
        _player(1001, "Top, Player", 2710, 2700, 10),
        _player(1002, "Low, Player", 2090, 2080, 20),
        _player(1003, "Mid, Player", 2240, 2250, 20),
        _player(1004, "New, Rapid", 2150, None, None),
    ])  # fmt: skip
    rr = event(tmp / "rr.trf", D(2025, 11, 10), [
        (1001, "Top, Player", 2700), (1002, "Low, Player", 2080), (1003, "Mid, Player", 2250),
        (1004, "New, Rapid", None),
    ], {
        1: [R(2, "w", "1"), R(3, "b", "1"), R(4, "w", "1")],
        2: [R(1, "b", "0"), R(4, "b", "1"), R(3, "w", "0")],
        3: [R(4, "w", "=") , R(1, "w", "0"), R(2, "b", "1")],
        4: [R(3, "b", "="), R(2, "w", "0"), R(1, "b", "0")],
    })  # fmt: skip
    return source, rr


def junior_game(tmp: Path, start: dt.date) -> tuple[Path, Path]:
    """FIDE's list and one rapid game: a 12-year-old with no rapid K on the list beats an
    adult."""
    source = fide_list(tmp / "players_list_foa.txt", [
        _player(2001, "Junior, Kid", 1850, 1800, None, born=start.year - 12),
        _player(2002, "Adult, Grown", 1900, 1900, 20),
    ])  # fmt: skip
    games = event(tmp / "e.trf", start, [(2001, "Junior, Kid", 1800), (2002, "Adult, Grown", 1900)],
                  {1: [R(2, "w", "1")], 2: [R(1, "b", "0")]})  # fmt: skip
    return source, games


def _period(tmp: Path, source: Path, events: list[Path], date: dt.date, next_date: dt.date,
            kind: str = "rapid") -> Path:  # fmt: skip
    out = tmp / f"next-{date:%Y-%m}.txt"
    args = ["period", str(source), *map(str, events), "-o", str(out), "--date", f"{date}",
            "--next", f"{next_date}", "--rating-type", kind]  # fmt: skip
    assert main(args) == 0
    return out


def test_a_rapid_month_by_the_rapid_rules(tmp_path: Path) -> None:
    """November 2025, rapid: a player without a rapid rating but rated 2150 in standard is
    rated with it (7.2.1) as a new player (K 40); the 2700's game against the 2080 is not
    rated for either (600 apart, one above 2600: from 2024-12); his game against the 2250 is
    counted at the cap of 400 (no 2650 exemption in rapid)."""
    source, rr = rapid_round_robin(tmp_path)
    out = _period(tmp_path, source, [rr], D(2025, 11, 1), D(2025, 12, 1))
    ed = fr.edition_on(D(2025, 11, 10), "rapid")
    with open_list(out) as nxt:
        top, low, mid, new = (nxt.get(i) for i in (1001, 1002, 1003, 1004))
        assert top is not None and low is not None and mid is not None and new is not None
        # Top: only the games against Mid (450 apart: counted at 400 -> PD .92) and New (2150)
        expected_top = fr.event(2700, [2250, 2150], [1, 1], 10, ed)
        assert expected_top.we == Fraction(92 + 92, 100)  # 2700 v 2150: 550 counted as 400 too
        assert top.rapid == 2700 + fr.fide_round(expected_top.k_chg)
        assert top.rapid_games == 2
        # Low: his game against Top is not rated for him either
        expected_low = fr.event(2080, [2150, 2250], [1, 0], 20, ed)
        assert low.rapid == 2080 + fr.fide_round(expected_low.k_chg) and low.rapid_games == 2
        # New: rated with his standard 2150, K 40 (no rapid games yet), now on the rapid list
        expected_new = fr.event(2150, [2250, 2080, 2700], [0.5, 0, 0], 40, ed)
        assert new.rapid == 2150 + fr.fide_round(expected_new.k_chg) and new.rapid_games == 3
        assert new.rating == 2150  # his standard rating is untouched
        assert mid.rating == 2240 and mid.rapid is not None


@pytest.mark.parametrize(("start", "k"), [(D(2013, 5, 4), 20), (D(2022, 9, 30), 20),
                                          (D(2022, 10, 1), 40)])  # fmt: skip
def test_rapid_k_for_a_junior_by_the_date(tmp_path: Path, start: dt.date, k: int) -> None:
    """A junior with few rapid games: K 20 (every player) until 30 September 2022, 40 after."""
    source, games = junior_game(tmp_path, start)
    first = D(start.year, start.month, 1)
    following = D(start.year + start.month // 12, start.month % 12 + 1, 1)
    out = _period(tmp_path, source, [games], first, following)
    ed = fr.edition_on(start, "rapid")
    change = fr.fide_round(fr.event(1800, [1900], [1], k, ed).k_chg)
    with open_list(out) as nxt:
        kid = nxt.get(2001)
        assert kid is not None and kid.rapid == 1800 + change


def test_the_one_time_raise_of_october_2022(tmp_path: Path) -> None:
    """The rapid list of 1 October 2022: a rating more than 100 below the standard one became
    the standard rating - 100 (federations' summaries: Gukesh's 2283 -> 2632)."""
    source = fide_list(tmp_path / "players_list_foa.txt", [
        _player(3001, "Gukesh, D", 2732, 2283, 20),
        _player(3002, "Even, Steven", 2000, 1950, 20),
        _player(3003, "Other, Player", 2500, 2300, 20),
    ])  # fmt: skip
    games = event(tmp_path / "e.trf", D(2022, 9, 10), [(3002, "Even, Steven", 1950), (3003, "Other, Player", 2300)],
                  {1: [R(2, "w", "=")], 2: [R(1, "b", "=")]})  # fmt: skip
    # Gukesh plays nothing this month; the raise applies to the list, not to an event
    _period(tmp_path, source, [games], D(2022, 9, 1), D(2022, 10, 1))
    # only the players of the events are read and written: Gukesh's line is copied as it was
    with open_list(tmp_path / "next-2022-09.txt") as nxt:
        even, other = nxt.get(3002), nxt.get(3003)
        assert even is not None and other is not None
        ed = fr.edition_on(D(2022, 9, 10), "rapid")
        expected = 1950 + fr.fide_round(fr.event(1950, [2300], [0.5], 20, ed).k_chg)
        assert even.rapid == expected  # 50 below the standard: no raise
        # 2300 after the month is more than 100 below his standard 2500: raised to 2400
        assert other.rapid == 2400
    # the month after: no raise any more
    assert not raise_applies(fr.edition_on(D(2022, 11, 1), "rapid"),
                                               D(2022, 10, 1), D(2022, 11, 1))  # fmt: skip


def _report_rows(tmp: Path, args: list[str]) -> dict[str, dict[str, str]]:
    import csv

    out = tmp / "report.csv"
    main(["report", *args, "--csv", str(out), "--force"])
    with out.open(encoding="utf-8", newline="") as f:
        return {r["No"]: r for r in csv.DictReader(f)}


def test_report_of_a_rapid_round_robin_as_the_issue_tried_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rating officer's case: a rapid round robin starting 2025-11-10 with FIDE's list.
    Its record 222 (15 minutes + 10 seconds) says rapid; the report follows it."""
    source, rr = rapid_round_robin(tmp_path)
    with rr.open("a") as f:
        f.write("222 900+10\n")
    rows = _report_rows(tmp_path, [str(rr), "--list", str(source)])
    out = capsys.readouterr().out
    assert "rating type: rapid" in out and "edition 2024-12 rapid" in out
    # New, Rapid: rated with his standard 2150 as a new player (K 40), not "not rated"
    assert (rows["4"]["Ro"], rows["4"]["N"], rows["4"]["K"]) == ("2150", "3", "40")
    # Top: the game against Low (620 apart, Top above 2600) is not rated: 2 games, not 3
    assert rows["1"]["N"] == "2" and rows["2"]["N"] == "2"
    # Top's expectation against Mid at the 400 cap (no 2650 exemption in rapid): .92
    ed = fr.get_edition("2024-12 rapid")
    assert rows["1"]["We"] == f"{float(fr.event(2700, [2250, 2150], [1, 1], 10, ed).we):.2f}"
    assert rows["1"]["We"] == "1.84"
    # the same file as a standard event: the 2650 exemption, and every game rated
    rows = _report_rows(tmp_path, [str(rr), "--list", str(source), "--rating-type", "standard"])
    assert rows["1"]["N"] == "3" and (rows["4"]["Ro"], rows["4"]["K"]) == ("2150", "20")


@pytest.mark.parametrize(("start", "k"), [(D(2013, 5, 4), "20"), (D(2022, 9, 30), "20"),
                                          (D(2022, 10, 1), "40")])  # fmt: skip
def test_report_rapid_k_of_a_junior(tmp_path: Path, start: dt.date, k: str) -> None:
    source, games = junior_game(tmp_path, start)
    rows = _report_rows(tmp_path, [str(games), "--list", str(source), "--rating-type", "rapid"])
    assert rows["1"]["K"] == k


@pytest.mark.parametrize(("control", "rounds", "verdict"), [
    ("180+2", 30, "holds"), ("180+2", 31, "FAILS"), ("900+10", 15, "holds"),
    ("900+10", 16, "FAILS"),
])  # fmt: skip
def test_check_counts_rapid_and_blitz_rounds_a_day(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], control: str, rounds: int, verdict: str
) -> None:
    """R&B 3.1: at most 15 rapid or 30 blitz rounds a day (record 222 says which)."""
    day = D(2025, 11, 10)
    colours = ["w", "b"]
    games = {
        1: [R(2, colours[k % 2], "1") for k in range(rounds)],
        2: [R(1, colours[(k + 1) % 2], "0") for k in range(rounds)],
    }
    path = event(tmp_path / "b.trf", day, [(1001, "A, A", 2000), (1002, "B, B", 1990)], games)
    dates = "".join(f"  {day:%y/%m/%d}" for _ in range(rounds))
    with path.open("a") as f:
        f.write(f"222 {control}\n132{' ' * 88}{dates}\n")
    main(["check", str(path)])
    out = capsys.readouterr().out
    kind = "blitz" if control.startswith("180") else "rapid"
    line = next(x for x in out.splitlines() if "  3.1 " in x)
    assert line.split()[0] == verdict and f"{rounds} {kind} round" in line


@pytest.mark.parametrize(
    ("edition", "rating", "opponent", "counted"),
    [
        ("2009-06-30", 2000, 1500, "1650*"),  # the 350-point rule
        ("2009-07-01", 2000, 1500, "1600*"),  # the 400-point rule
        ("2025-09-30", 2700, 2250, "2300*"),  # a 2700 player capped ...
        ("2025-10-01", 2700, 2250, "2250"),  # ... and not from 2025-10 (standard)
        ("2025-10-01 rapid", 2700, 2250, "2300*"),  # no 2650 exemption in rapid
        ("2024-11-30 rapid", 2700, 2080, "2300*"),  # 620 apart: rated until 2024-11
        ("2024-12-01 rapid", 2700, 2080, None),  # not rated from 2024-12
        ("2024-12-01 blitz", 2680, 2081, "2280*"),  # 599 apart: rated
    ],
)
def test_the_dated_rules_through_the_event_command(
    capsys: pytest.CaptureFixture[str], edition: str, rating: int, opponent: int,
    counted: str | None,
) -> None:  # fmt: skip
    assert main(["event", str(rating), "--opponents", str(opponent), "--results", "1", "-k", "10",
                 "--edition", edition]) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    games = lines[lines.index(next(x for x in lines if x.split()[:1] == ["opponent"])) + 1 :]
    rows = [x.split() for x in games if x.split() and x.split()[0].isdigit()]
    assert (rows[0][1] if rows else None) == counted
    assert lines[2].split()[-4] == ("1" if counted else "0")  # n


@pytest.mark.parametrize(("edition", "result"), [("2014-06-30", "not rated: 5 games against "
                         "rated opponents, 9 needed"), ("2014-07-01", "rating   2020")])  # fmt: skip
def test_the_first_rating_minimum_through_the_initial_command(
    capsys: pytest.CaptureFixture[str], edition: str, result: str
) -> None:
    assert main(["initial", "--opponents", "2000,2000,2000,2000,2000", "--results",
                 "1,0.5,0.5,0,1", "--edition", edition]) == 0  # fmt: skip
    assert capsys.readouterr().out.splitlines()[-1] == result
