"""A rating period: a list and its events to the next list."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

import fide_rating as fr
from fide_rating.commands.cli import main
from fide_rating.events.period_run import run
from fide_rating.formats import trf
from fide_rating.formats.list_template import build_list
from fide_rating.formats.listbook import PeriodError, read_list

R = trf.Round

# FIDE ID, name, born, rating, K, games, reached 2400
LIST = [
    ("1001", "Anna", 1990, 2100, 20, 100, False),
    ("1002", "Bert", 2010, 1950, None, 20, False),  # junior, K 40 computed
    ("1003", "Cleo", 2000, None, None, 0, False),  # unrated with 3 pending games
    ("1004", "Dirk", 1985, 2450, None, 300, True),
    ("1005", "Emil", 1970, 1405, 20, 50, False),  # loses and falls below 1400
    ("1006", "Finn", 2012, None, None, 0, False),  # unrated, too few games
    ("1007", "Gina", 1995, 1800, 20, 60, False),
]


def make_list(path: Path, date: dt.date, next_date: dt.date) -> Path:
    wb = build_list()
    wb["Period"]["B1"], wb["Period"]["B2"] = date, next_date
    ws = wb["List"]
    for i, (fide_id, name, born, rating, k, games, reached) in enumerate(LIST, start=2):
        for c, v in enumerate(
            (int(fide_id), name, "GER", "M", born, "", rating, k, games, reached, True), 1
        ):
            if v is not None:
                ws.cell(i, c, v)
    pending = wb["Pending"]
    for i, (opp, res) in enumerate(((1900, 1.0), (1850, 0.5), (2000, 1.0)), start=2):
        row: tuple[str | float | dt.date, ...] = (
            "1003",
            "Autumn open",
            dt.date(2023, 10, 5),
            opp,
            res,
        )
        for c, value in enumerate(row, 1):
            pending.cell(i, c, value)
    wb.save(path)
    return path


def make_event(
    path: Path, start: dt.date, name: str, players: list[str], rounds: dict[int, list[trf.Round]]
) -> Path:
    lines = [f"012 {name}", f"042 {start:%Y/%m/%d}", f"052 {start:%Y/%m/%d}"]
    by_id = {row[0]: row for row in LIST}
    for number, fide_id in enumerate(players, start=1):
        row = by_id.get(fide_id, (fide_id, f"Player {fide_id}", None, None, None, 0, False))
        games = rounds[number]
        lines.append(trf.format_player(trf.Player(
            number, "m", "", str(row[1]), row[3], "GER", fide_id, "", trf.points_of(g.result for g in games), number, tuple(games))))  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return path


def two_events(tmp: Path) -> list[Path]:
    # event 1: Anna, Bert, Cleo, Dirk, Emil, Finn, Gina (7 players, 3 rounds, byes)
    e1 = make_event(tmp / "e1.trf", dt.date(2024, 2, 3), "Winter open", ["1001", "1002", "1003", "1004", "1005", "1006", "1007"], {
        1: [R(2, "w", "1"), R(4, "b", "0"), R(7, "w", "=")],
        2: [R(1, "b", "0"), R(3, "w", "1"), R(5, "b", "1")],
        3: [R(4, "w", "="), R(2, "b", "0"), R(6, "w", "1")],
        4: [R(3, "b", "="), R(1, "w", "1"), R(None, "-", "F")],
        5: [R(6, "w", "1"), R(7, "b", "0"), R(2, "w", "0")],
        6: [R(5, "b", "0"), R(None, "-", "H"), R(3, "b", "0")],
        7: [R(None, "-", "U"), R(5, "w", "1"), R(1, "b", "=")],
    })  # fmt: skip
    # event 2: Anna, Bert, Cleo, Emil (round robin)
    e2 = make_event(tmp / "e2.trf", dt.date(2024, 2, 20), "Club rr", ["1001", "1002", "1003", "1005"], {
        1: [R(2, "w", "1"), R(3, "b", "="), R(4, "w", "1")],
        2: [R(1, "b", "0"), R(4, "w", "1"), R(3, "w", "0")],
        3: [R(4, "b", "1"), R(1, "w", "="), R(2, "b", "1")],
        4: [R(3, "w", "0"), R(2, "b", "0"), R(1, "b", "0")],
    })  # fmt: skip
    return [e1, e2]


def test_period_end_to_end(tmp_path: Path) -> None:
    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 2, 1), dt.date(2024, 3, 1))
    results, out, _ = run(lst, two_events(tmp_path), tmp_path / "next.xlsx")
    by = {r.before.fide_id: r for r in results}
    ed = fr.get_edition(dt.date(2024, 2, 3))
    # Anna: two events, K 20 from the list; the change is the events' K x chg rounded once
    e1 = fr.event(2100, [1950, 2450, 1800], [1, 0, 0.5], 20, ed)
    e2 = fr.event(2100, [1950, 1405], [1, 1], 20, ed)  # Cleo is unrated: not counted
    assert [Fraction(c.k_chg_h, 100) for _, _, c in by["1001"].events] == [e1.k_chg, e2.k_chg]
    assert by["1001"].change == fr.fide_round(e1.k_chg + e2.k_chg)
    # 2024-02 -> 2024-03 crosses the one-time adjustment: below 2000 becomes 0.6 R + 800
    assert by["1001"].change is not None
    anna = 2100 + by["1001"].change
    assert by["1001"].after.rating == (anna if anna >= 2000 else fr.adjust_2024(anna))
    assert by["1001"].after.games == 100 + 5
    # Bert: a junior, K 40 (computed), 6 games
    assert {c.k for _, _, c in by["1002"].events} == {40}
    # Dirk: reached 2400: K 10
    assert {c.k for _, _, c in by["1004"].events} == {10}
    # Cleo: 3 pending + 3 this period against rated opponents -> a first rating
    assert by["1003"].initial is not None and by["1003"].initial.rating is not None
    assert by["1003"].after.rating == min(2200, by["1003"].initial.rating)
    # pending 3, Winter open 2 (Bert, Dirk; Finn is unrated), Club rr 3 (Anna, Bert, Emil)
    assert by["1003"].initial.games == 3 + 2 + 3
    assert by["1003"].initial.edition.name == "2022-01"  # the edition of the latest event
    # Finn: too few games, results carried as pending
    assert by["1006"].after.rating is None and by["1006"].initial is not None
    # Emil: 1405 - 6 = 1399, then the one-time adjustment of 1 March 2024: 0.6 x 1399 + 800
    assert by["1005"].change == -6 and by["1005"].after.rating == 1639
    assert by["1005"].note == "2024-03 adjustment of the list of 2024-03-01: 1399 -> 1639"
    wb = openpyxl.load_workbook(out)
    assert wb["Period"]["B1"].value == dt.datetime(2024, 3, 1)
    listed = {str(r[0]): r for r in wb["List"].iter_rows(min_row=2, values_only=True)}
    assert listed["1001"][6] == by["1001"].after.rating
    pending = list(wb["Pending"].iter_rows(min_row=2, values_only=True))
    assert {str(r[0]) for r in pending} == {"1006"}
    calc = list(wb["Calculations"].iter_rows(values_only=True))
    assert any(r[1] == "Winter open" for r in calc) and any(r[1] == "Period" for r in calc)
    again = read_list(out)  # the next list is a list again
    assert (
        again.date == dt.date(2024, 3, 1)
        and again.players["1001"].rating == by["1001"].after.rating
    )


def test_events_as_workbooks_give_the_same_period(tmp_path: Path) -> None:
    from fide_rating.formats.crosstable_write import to_workbook

    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 2, 1), dt.date(2024, 3, 1))
    trfs = two_events(tmp_path)
    books = []
    for path in trfs:
        book = path.with_suffix(".xlsx")
        to_workbook(trf.read(path)).save(book)
        books.append(book)
    from_trf, _, _ = run(lst, trfs, tmp_path / "a.xlsx")
    from_books, _, _ = run(lst, books, tmp_path / "b.xlsx")
    assert [(r.after.rating, r.change, r.note) for r in from_trf] == [
        (r.after.rating, r.change, r.note) for r in from_books
    ]


def test_many_files_read_in_parallel_give_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fide_rating.events import period as period_calc
    from fide_rating.formats import listbook as period_book

    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 4, 1), dt.date(2024, 5, 1))
    files = [
        make_event(tmp_path / f"m{i}.trf", dt.date(2024, 4, 1 + i % 28), f"Match {i}", ["1001", "1007"],
                   {1: [R(2, "w", "1=0"[i % 3])], 2: [R(1, "b", "0=1"[i % 3])]})
        for i in range(12)
    ]  # fmt: skip
    rating_list = period_book.read_list(lst)
    serial = period_calc.compute_facts(
        rating_list, period_calc.facts_from_files(rating_list, files)
    )
    monkeypatch.setattr(period_calc, "PARALLEL_FROM", 2)
    parallel_facts = period_calc.facts_from_files(rating_list, files)
    assert [f.label for f in parallel_facts if isinstance(f, period_calc.EventFacts)] == [
        p.name for p in files
    ]
    parallel = period_calc.compute_facts(rating_list, parallel_facts)
    assert [(r.after.rating, r.change) for r in serial] == [
        (r.after.rating, r.change) for r in parallel
    ]
    anna = next(r for r in parallel if r.before.fide_id == "1001")
    assert len(anna.events) == 12


def test_k_times_n_over_the_whole_period(tmp_path: Path) -> None:
    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 4, 1), dt.date(2024, 5, 1))
    # Bert (K 40 as a junior) plays 9 games in each of two events: n = 18, K x n <= 700 -> 38
    rounds = {
        1: [R(2, "w" if i % 2 else "b", "=") for i in range(9)],
        2: [R(1, "b" if i % 2 else "w", "=") for i in range(9)],
    }
    a = make_event(tmp_path / "a.trf", dt.date(2024, 4, 2), "Match A", ["1002", "1007"], rounds)
    b = make_event(tmp_path / "b.trf", dt.date(2024, 4, 20), "Match B", ["1002", "1007"], rounds)
    results, _, _ = run(lst, [a, b], tmp_path / "next.xlsx")
    bert = next(r for r in results if r.before.fide_id == "1002")
    assert {c.k for _, _, c in bert.events} == {38}


def test_below_the_floor_becomes_unrated(tmp_path: Path) -> None:
    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 4, 1), dt.date(2024, 5, 1))
    games = {1: [R(2, "w", "0"), R(2, "b", "0")] * 2, 2: [R(1, "b", "1"), R(1, "w", "1")] * 2}
    e = make_event(tmp_path / "e.trf", dt.date(2024, 4, 3), "Match", ["1005", "1007"], games)
    results, _, _ = run(lst, [e], tmp_path / "next.xlsx")
    emil = next(r for r in results if r.before.fide_id == "1005")
    assert emil.change is not None and 1405 + emil.change < 1400
    assert emil.after.rating is None and emil.after.k is None
    assert emil.note == "below the floor 1400 of the list of 2024-05-01: unrated"


def test_wrong_input_writes_nothing(tmp_path: Path) -> None:
    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 2, 1), dt.date(2024, 3, 1))
    stranger = make_event(
        tmp_path / "x.trf",
        dt.date(2024, 2, 5),
        "X",
        ["1001", "9999"],
        {1: [R(2, "w", "1")], 2: [R(1, "b", "0")]},
    )
    late = make_event(
        tmp_path / "late.trf",
        dt.date(2024, 3, 5),
        "Late",
        ["1001", "1002"],
        {1: [R(2, "w", "1")], 2: [R(1, "b", "0")]},
    )
    out = tmp_path / "next.xlsx"
    with pytest.raises(PeriodError) as caught:
        run(lst, [stranger, late], out)
    problems = caught.value.problems
    assert "x.trf: player 2 (Player 9999, FIDE ID 9999) is not on the list" in problems
    assert (
        "late.trf: starts 2024-03-05, outside the period 2024-02-01 to 2024-02-29 (both days included)"
        in problems
    )
    assert not out.exists()
    wb = openpyxl.load_workbook(lst)
    wb["List"]["G4"] = 1800.5  # a fractional rating
    wb.save(lst)
    with pytest.raises(PeriodError, match=r"List row 4: rating \(1 to 4000\), K and games"):
        read_list(lst)
    wb["List"]["G4"] = None
    wb["List"]["A3"] = 1001  # a duplicate ID
    wb.save(lst)
    with pytest.raises(PeriodError, match="FIDE ID 1001 is listed twice"):
        read_list(lst)
    assert main(["period", str(lst), str(stranger), "-o", str(out)]) == 1
    assert main(["period", str(tmp_path / "missing.xlsx"), str(stranger), "-o", str(out)]) == 1
    assert not out.exists()


def test_template_list_is_shipped_and_fresh(tmp_path: Path) -> None:
    import zipfile

    shipped = Path(__file__).resolve().parent.parent / "templates" / "rating-list.xlsx"
    assert openpyxl.load_workbook(shipped).sheetnames == ["Period", "List", "Pending"]
    build_list().save(tmp_path / "fresh.xlsx")
    with zipfile.ZipFile(shipped) as a, zipfile.ZipFile(tmp_path / "fresh.xlsx") as b:
        for name in a.namelist():
            if name != "docProps/core.xml":
                assert a.read(name) == b.read(name), name
    assert Fraction(1, 2) == 0.5


def test_the_same_event_twice_is_refused(tmp_path: Path) -> None:
    """Given twice (the same TRF, or the TRF and the workbook made from it), an event would
    count twice: refused with a message, nothing written."""
    from fide_rating.formats.crosstable_write import to_workbook

    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 2, 1), dt.date(2024, 3, 1))
    e1, e2 = two_events(tmp_path)
    copy = tmp_path / "copy.trf"
    copy.write_bytes(e1.read_bytes())
    book = tmp_path / "e1.xlsx"
    to_workbook(trf.read(e1)).save(book)
    for again in (copy, book):
        with pytest.raises(PeriodError) as caught:
            run(lst, [e1, e2, again], tmp_path / "next.xlsx")
        assert caught.value.problems == [
            f"{again.name}: the same event as e1.trf (Winter open, 2024-02-03, the same 7 "
            "players): an event counts once in a period"
        ]
        assert not (tmp_path / "next.xlsx").exists()


def _fide_list(path: Path, extra: int = 3) -> Path:
    """LIST in FIDE's text layout, K as the list states it, and a few players who do not play."""
    from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line

    entries = [
        ListedPlayer(int(fide_id), name, "GER", "M", "", "", "", rating, 0, k or 40 if rating else 0,
                     None, 0, None, None, 0, None, born, "")
        for fide_id, name, born, rating, k, _, _ in LIST
    ]  # fmt: skip
    entries += [
        ListedPlayer(900_000 + i, f"Idle, Player {i}", "AUT", "F", "", "WFM", "", 1900 + i, 0, 20,
                     1850, 0, 20, 1800, 0, 20, 1990, "w")
        for i in range(extra)
    ]  # fmt: skip
    path.write_bytes(("\r\n".join([HEADER, *map(format_line, entries)]) + "\r\n").encode())
    return path


def test_fides_own_list_as_the_periods_list(tmp_path: Path) -> None:
    from fide_rating.events.period_run import run_with_fide_list
    from fide_rating.formats.fidelist import open_list

    source = _fide_list(tmp_path / "players_list_foa.txt")
    events = two_events(tmp_path)
    results, out, _ = run_with_fide_list(source, events, tmp_path / "next.txt",
                                      dt.date(2024, 2, 1), dt.date(2024, 3, 1))  # fmt: skip
    by = {r.before.fide_id: r for r in results}
    assert set(by) == {"1001", "1002", "1003", "1004", "1005", "1006", "1007"}
    # Anna: K 20 from the list, as in the workbook's period
    lst = make_list(tmp_path / "list.xlsx", dt.date(2024, 2, 1), dt.date(2024, 3, 1))
    from_book = {r.before.fide_id: r for r in run(lst, events, tmp_path / "n.xlsx")[0]}
    assert by["1001"].after.rating == from_book["1001"].after.rating
    assert by["1005"].after.rating == from_book["1005"].after.rating == 1639  # floor, adjustment
    original = source.read_bytes().decode().splitlines()
    written = out.read_bytes().decode().splitlines()
    assert written[0] == original[0]  # the header
    idle = [line for line in original if line.startswith("9000")]
    assert idle and not any(line in written for line in idle)  # the 2024 adjustment: all moved
    with open_list(source) as before, open_list(out) as nxt:
        anna = nxt.get(1001)
        assert anna is not None and anna.rating == by["1001"].after.rating
        assert anna.games == 5 and len(nxt) == len(LIST) + 3
        for i in range(3):  # without games: the standard rating adjusted, the rest as listed
            was, now = before.get(900_000 + i), nxt.get(900_000 + i)
            assert was is not None and now is not None and was.rating is not None
            assert now.rating == fr.adjust_2024(was.rating) == (1940, 1941, 1941)[i]
            assert now == dataclasses.replace(was, rating=now.rating)


def test_period_command_with_fides_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _fide_list(tmp_path / "players_list_foa.txt")
    events = [str(p) for p in two_events(tmp_path)]
    assert main(["period", str(source), *events, "-o", str(tmp_path / "next.txt")]) == 2
    assert "give --date" in capsys.readouterr().err
    assert main(["period", str(source), *events, "-o", str(tmp_path / "next.txt"),
                 "--date", "2024-02-01", "--next", "2024-03-01"]) == 0  # fmt: skip
    assert "wrote" in capsys.readouterr().out
    assert main(["period", str(source), *events, "-o", str(tmp_path / "next.xlsx"),
                 "--date", "2024-02-01", "--next", "2024-03-01"]) == 0  # fmt: skip
    listed = {str(r[0]): r for r in openpyxl.load_workbook(tmp_path / "next.xlsx")["List"]
              .iter_rows(min_row=2, values_only=True)}  # fmt: skip
    assert len(listed) == len(LIST) + 3 and listed["900001"][6] == 1941  # 0.6 x 1901 + 800


def test_twelve_months_chained_with_events_on_the_first_and_last_days(tmp_path: Path) -> None:
    """period month after month, each run reading the list the previous one wrote: the dates
    follow the calendar (31, 28, 31, 30 ... days), no valid event is refused, every figure
    carries over."""
    current = make_list(tmp_path / "2025-01.xlsx", dt.date(2025, 1, 1), dt.date(2025, 2, 1))
    seen = []
    for month in range(1, 13):
        first = dt.date(2025, month, 1)
        last = (dt.date(2025 + month // 12, month % 12 + 1, 1)) - dt.timedelta(days=1)
        events = [
            make_event(tmp_path / f"m{month}a.trf", first, f"First {month}", ["1001", "1007"],
                       {1: [R(2, "w", "1")], 2: [R(1, "b", "0")]}),
            make_event(tmp_path / f"m{month}b.trf", last, f"Last {month}", ["1001", "1007"],
                       {1: [R(2, "b", "=")], 2: [R(1, "w", "=")]}),
        ]  # fmt: skip
        following = tmp_path / f"2025-{month + 1:02d}.xlsx"
        before = read_list(current)
        assert (before.date, before.next_date) == (first, last + dt.timedelta(days=1))
        results, _, _ = run(current, events, following)
        after = read_list(following)
        assert after.date == before.next_date
        anna = next(r for r in results if r.before.fide_id == "1001")
        assert len(anna.events) == 2 and anna.after.rating == after.players["1001"].rating
        assert before.players["1001"].rating == anna.before.rating
        seen.append((after.date, after.next_date))
        current = following
    assert seen[-1] == (dt.date(2026, 1, 1), dt.date(2026, 2, 1))
    assert [d.day for pair in seen for d in pair] == [1] * 24
    # an event on the day the next list starts belongs to the next period, and says so
    late = make_event(tmp_path / "late.trf", dt.date(2026, 2, 1), "Late", ["1001", "1007"],
                      {1: [R(2, "w", "1")], 2: [R(1, "b", "0")]})  # fmt: skip
    with pytest.raises(PeriodError) as refused:
        run(current, [late], tmp_path / "never.xlsx")
    assert refused.value.problems[0].endswith(
        "starts 2026-02-01, outside the period 2026-01-01 to 2026-01-31 (both days included)"
    )
    assert not (tmp_path / "never.xlsx").exists()


@pytest.mark.parametrize(
    ("date", "next_date", "following"),
    [
        ((2025, 11, 1), (2025, 12, 1), (2026, 1, 1)),  # 30 days, then 31
        ((2024, 1, 1), (2024, 2, 1), (2024, 3, 1)),  # 31 days, then 29 (a leap year)
        ((2010, 1, 1), (2010, 3, 1), (2010, 5, 1)),  # two months (FIDE's lists 2009-2012)
        ((2008, 10, 1), (2009, 1, 1), (2009, 4, 1)),  # three months (before 2009-07)
        ((2025, 11, 3), (2025, 11, 17), (2025, 12, 1)),  # two weeks: as long in days
    ],
)
def test_the_list_after_next(
    date: tuple[int, int, int], next_date: tuple[int, int, int], following: tuple[int, int, int]
) -> None:
    from fide_rating.formats.listbook import following_list

    assert following_list(dt.date(*date), dt.date(*next_date)) == dt.date(*following)


def test_fides_text_layout_keeps_the_pending_games_for_the_next_period(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """FIDE's text layout has no place for an unrated player's pending games: they go beside
    it, and the next period (its list the text just written) takes them back: Finn's two games
    of February and three of March give him a first rating in March."""
    source = _fide_list(tmp_path / "players_list_foa.txt")
    feb = make_event(tmp_path / "f.trf", dt.date(2024, 2, 10), "Winter", ["1006", "1001", "1007"], {
        1: [R(2, "w", "="), R(3, "b", "0"), R(None, "-", "U")],
        2: [R(1, "b", "="), R(None, "-", "U"), R(3, "w", "1")],
        3: [R(None, "-", "U"), R(1, "w", "1"), R(2, "b", "0")],
    })  # fmt: skip
    assert main(["period", str(source), str(feb), "-o", str(tmp_path / "2024-03.txt"),
                 "--date", "2024-02-01", "--next", "2024-03-01"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    kept = tmp_path / "2024-03.pending.xlsx"
    assert f"wrote {kept}: the games of the 1 unrated player(s) still pending" in out
    rows = list(openpyxl.load_workbook(kept)["Pending"].iter_rows(min_row=2, values_only=True))
    assert [(str(r[0]), r[3], r[4]) for r in rows] == [("1006", 2100, 0.5), ("1006", 1800, 0)]
    march = make_event(tmp_path / "m.trf", dt.date(2024, 3, 9), "Spring", ["1006", "1002", "1004", "1005"], {
        1: [R(2, "w", "="), R(3, "b", "0"), R(4, "w", "1")],
        2: [R(1, "b", "="), R(4, "w", "1"), R(3, "w", "0")],
        3: [R(4, "b", "1"), R(1, "w", "1"), R(2, "b", "1")],
        4: [R(3, "w", "0"), R(2, "b", "0"), R(1, "b", "0")],
    })  # fmt: skip
    # without the pending games Finn would have 3 games: too few; with them, 5
    assert main(["period", str(tmp_path / "2024-03.txt"), str(march), "-o",
                 str(tmp_path / "2024-04.txt"), "--date", "2024-03-01", "--next", "2024-04-01",
                 "--pending", str(kept)]) == 0  # fmt: skip
    assert "1 first ratings, 0 unrated" in capsys.readouterr().out
    from fide_rating.formats.fidelist import open_list

    with open_list(tmp_path / "2024-04.txt") as april:
        finn = april.get(1006)
        assert finn is not None and finn.rating is not None and finn.games == 5
    # an old pending file is never taken for a new one
    assert main(["period", str(tmp_path / "2024-03.txt"), str(march), "-o",
                 str(tmp_path / "2024-04.txt"), "--date", "2024-03-01", "--next", "2024-04-01",
                 "--pending", str(kept)]) == 2  # fmt: skip
    assert "the output exists, add --force" in capsys.readouterr().err
