"""The arbiter's round trip, with the commands a user types: a template, results typed in,
recalc, export-trf, report, period; for a round robin, a double round robin and a Swiss.

The TRF is checked against TRF-16's layout by our reader and by an independent one (the ``trf``
package from PyPI), and a round robin's rounds and colours against the Berger tables (FIDE
C.05 Annex 1)."""

from __future__ import annotations

import csv
import datetime as dt
from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import trf as independent  # the trf package from PyPI: another reader of the format

from crosstables import crosstable
from fide_rating.commands.cli import main
from fide_rating.formats import layout, trf
from fide_rating.formats.list_template import build_list
from fide_rating.rules.berger import schedule
from fide_rating.rules.rounding import fide_round

START = dt.date(2025, 5, 10)
# FIDE ID, name, born, rating (None: unrated)
PEOPLE = [
    (4100001, "Adler, Anna", 1988, 2310),
    (4100002, "Berg, Bruno", 1979, 2204),
    (4100003, "Chen, Clara", 2001, None),
    (4100004, "Dietz, David", 1995, 2052),
    (4100005, "Engel, Eva", 1990, 1987),
    (4100006, "Fuchs, Felix", 1983, 1893),
]


def _cell(points: object) -> int | str | None:
    results: dict[object, int | str] = {Fraction(1): 1, Fraction(0): 0, Fraction(1, 2): "½"}
    return results.get(points)


def _fill_event(wb: Any, n: int) -> None:
    event = wb["Event"]
    event["B3"], event["B4"], event["B5"] = "Spring Cup", "Graz (AUT)", START
    event["B6"], event["B11"] = START + dt.timedelta(days=4), "Maria Huber"
    ws = wb["Players"]
    header = {c.value: c.column for c in ws[layout.HEADER_ROW] if c.value is not None}
    for i, (fide_id, name, born, rating) in enumerate(PEOPLE[:n]):
        row = layout.FIRST + i
        ws.cell(row, header["FIDE ID"], fide_id)
        ws.cell(row, header["Name"], name)
        ws.cell(row, header["Born"], born)
        ws.cell(row, header["Fed"], "AUT")
        ws.cell(row, header["Sex"], "F" if i % 2 == 0 else "M")
        ws.cell(row, header["Games"], 100)
        if rating is not None:
            ws.cell(row, header["Ro"], rating)


def _round_robin(tmp: Path, system: str, n: int, tables: list[list[list[object]]]) -> Path:
    book = tmp / f"{system}.xlsx"
    assert main(["template", system, "--players", str(n), "-o", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    _fill_event(wb, n)
    ws = wb["Players"]
    first = len(layout.COLUMNS) + len(layout.RR_EXTRA) + 2
    for cycle, table in enumerate(tables):
        for i in range(n):
            for j in range(n):
                if i != j:
                    ws.cell(layout.FIRST + i, first + cycle * n + j, _cell(table[i][j]))
    wb.save(book)
    return book


def _swiss(tmp: Path) -> tuple[Path, dict[int, list[tuple[int | None, str, str]]]]:
    rounds: dict[int, list[tuple[int | None, str, str]]] = {
        1: [(4, "w", "1"), (2, "b", "½"), (3, "w", "1")],
        2: [(5, "b", "1"), (1, "w", "½"), (6, "b", "+")],
        3: [(6, "w", "="), (4, "b", "0"), (1, "b", "0")],
        4: [(1, "b", "0"), (3, "w", "1"), (5, "w", "½")],
        5: [(2, "w", "0"), (6, "b", "1"), (4, "b", "½")],
        6: [(3, "b", "="), (5, "w", "0"), (2, "w", "-")],
    }
    book = tmp / "swiss.xlsx"
    assert main(["template", "swiss", "--players", "6", "--rounds", "3", "-o", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    _fill_event(wb, 6)
    ws = wb["Players"]
    opp = len(layout.COLUMNS) + 2
    for number, games in rounds.items():
        for k, (o, colour, res) in enumerate(games):
            ws.cell(layout.FIRST + number - 1, opp + k, o)
            ws.cell(layout.FIRST + number - 1, opp + 3 + k, colour)
            ws.cell(layout.FIRST + number - 1, opp + 6 + k, res)
    wb.save(book)
    return book, rounds


def _rating_list(path: Path, n: int) -> Path:
    wb = build_list()
    wb["Period"]["B1"], wb["Period"]["B2"] = dt.date(2025, 5, 1), dt.date(2025, 6, 1)
    ws = wb["List"]
    for r, (fide_id, name, born, rating) in enumerate(PEOPLE[:n], start=2):
        for c, v in enumerate((fide_id, name, "AUT", "M", born, "", rating, None, 100, False,
                               True), 1):  # fmt: skip
            if v is not None:
                ws.cell(r, c, v)
    wb.save(path)
    return path


def _players(book: Path) -> dict[str, dict[str, Any]]:
    ws = openpyxl.load_workbook(book, data_only=True)["Players"]
    header = [c.value for c in ws[layout.HEADER_ROW]]
    out: dict[str, dict[str, Any]] = {}
    for row in ws.iter_rows(min_row=layout.FIRST, values_only=True):
        line: dict[str, Any] = dict(zip(map(str, header), row, strict=False))
        if line.get("Name"):
            out[str(line["FIDE ID"])] = line
    return out


def _flow(tmp: Path, book: Path, n: int, capsys: pytest.CaptureFixture[str]) -> trf.Tournament:
    done = tmp / "done.xlsx"
    assert main(["recalc", str(book), "-o", str(done), "-q"]) == 0
    exported = tmp / "event.trf"
    assert main(["export-trf", str(done), "-o", str(exported)]) == 0
    # our reader: no problem at all; the header records from the Event sheet
    t = trf.read(exported)
    assert t.errors == []
    assert (t.name, t.header("022"), t.start, t.end, t.header("102")) == (
        "Spring Cup", "Graz (AUT)", START, START + dt.timedelta(days=4), "Maria Huber")  # fmt: skip
    assert t.header("062") == str(n)
    # an independent reader sees the same event
    other = independent.loads(exported.read_text(encoding="utf-8"))
    assert other.name == "Spring Cup" and len(other.players) == n
    ours = t.players
    for p in other.players:
        games = [(g.startrank, g.color, g.result) for g in p.games]
        mine = [(r.opponent or 0, r.colour, r.result) for r in ours[p.startrank].rounds]
        assert [(o, c, r) for o, c, r in games if o] == [(o, c, r) for o, c, r in mine if o]
    # FIDE's report of the exported file agrees with the recalculated workbook
    capsys.readouterr()
    report_csv = tmp / "report.csv"
    assert main(["report", str(exported), "--csv", str(report_csv)]) == 0
    figures = _players(done)
    with report_csv.open(encoding="utf-8") as f:
        for line in csv.DictReader(f):
            mine_row = figures[line["FIDE ID"]]
            # Rc (rated) or Ra (unrated, with the fictitious 1800s): the same figure in both
            assert line["Rc/Ra"] == ("" if mine_row["Rc/Ra"] is None else
                                     str(fide_round(Fraction(repr(mine_row["Rc/Ra"])))))  # fmt: skip
            if line["K*chg"]:
                assert float(line["K*chg"]) == pytest.approx(mine_row["K*chg"], abs=0.005)
                assert int(line["K"]) == mine_row["K"]
    # the period: the list and this event give the next list, as the workbook's New column
    listed = _rating_list(tmp / "list.xlsx", n)
    nxt = tmp / "next.xlsx"
    assert main(["period", str(listed), str(exported), "-o", str(nxt)]) == 0
    after = {str(r[0]): r[6] for r in openpyxl.load_workbook(nxt)["List"].iter_rows(
        min_row=2, values_only=True)}  # fmt: skip
    # the workbook itself as the period's event: the same next list
    from_book = tmp / "next-from-workbook.xlsx"
    assert main(["period", str(listed), str(done), "-o", str(from_book)]) == 0
    again = {str(r[0]): r[6] for r in openpyxl.load_workbook(from_book)["List"].iter_rows(
        min_row=2, values_only=True)}  # fmt: skip
    assert again == after
    for fide_id, row in figures.items():
        if row["Ro"] is not None:
            assert after[fide_id] == row["New"], row["Name"]
        elif isinstance(row["Initial"], int | float):
            assert after[fide_id] == row["Initial"], row["Name"]
    return t


def test_round_robin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = crosstable([4, 3.5, 2.5, 2, 1.5, 1.5])
    t = _flow(tmp_path, _round_robin(tmp_path, "rr", 6, [table]), 6, capsys)
    rounds = schedule(6)
    for number, p in t.players.items():
        assert [(r.opponent, r.colour) for r in p.rounds] == rounds[number]
        for r in p.rounds:  # each round's result is the crosstable's cell
            assert trf.points_of([r.result]) == table[number - 1][r.opponent - 1]  # type: ignore[operator]


def test_double_round_robin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tables = [crosstable([2, 1.5, 1.5, 1]), crosstable([2.5, 0.5, 2, 1])]
    t = _flow(tmp_path, _round_robin(tmp_path, "drr", 4, tables), 4, capsys)
    rounds = schedule(4, 2)
    for number, p in t.players.items():
        assert len(p.rounds) == 6
        assert [(r.opponent, r.colour) for r in p.rounds] == rounds[number]
        for k, r in enumerate(p.rounds):
            table = tables[k // 3]
            assert trf.points_of([r.result]) == table[number - 1][r.opponent - 1]  # type: ignore[operator]


def test_swiss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book, rounds = _swiss(tmp_path)
    t = _flow(tmp_path, book, 6, capsys)
    code = {"½": "=", "1": "1", "0": "0", "=": "=", "+": "+", "-": "-"}
    for number, games in rounds.items():
        assert [(r.opponent, r.colour, r.result) for r in t.players[number].rounds] == [
            (o, c, code[res]) for o, c, res in games
        ]


def test_the_berger_tables_as_printed() -> None:
    """C.05 Annex 1, 8 players, board by board."""
    from fide_rating.rules.berger import berger

    printed = """1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 /
                 3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1"""
    table = [[tuple(map(int, b.split("-"))) for b in r.split()] for r in printed.split("/")]
    assert berger(8) == table
    assert berger(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    five = berger(5)  # the dummy 6: its opponent has the round free
    assert five[0] == [(1, None), (2, 5), (3, 4)]
    assert berger(4, 2)[3:] == [[(4, 1), (3, 2)], [(3, 4), (2, 1)], [(4, 2), (1, 3)]]
