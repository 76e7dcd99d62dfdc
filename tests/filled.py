"""Filled templates for the tests: the round-robin example of B.02 2012 (Hungarian translation) 8.58 and a small Swiss."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import openpyxl
from openpyxl import Workbook

from crosstables import crosstable
from fide_rating.formats import layout
from fide_rating.formats import templates as tpl

SEED_RATINGS: list[int | None] = [2600, 2500, None, 2400, None, 2150, 2300, None, None, 2300]
SEED_K: list[int | None] = [20, 20, None, 20, None, 30, 30, None, None, 30]


def seed_round_robin(start: dt.date = dt.date(2012, 9, 1)) -> Workbook:
    """B.02 2012 (Hungarian translation) 8.58: A..J, four unrated, any crosstable consistent with the scores."""
    table = crosstable([8, 7, 7, 6, 6, 4, 3, 2, 1, 1])
    players = [
        tpl.Player(name=name, rating=rating, k=k)
        for name, rating, k in zip("ABCDEFGHIJ", SEED_RATINGS, SEED_K, strict=True)
    ]
    cells: list[list[object]] = [
        [None if v is None else ("½" if v == Fraction(1, 2) else float(v)) for v in row]  # type: ignore[arg-type]
        for row in table
    ]
    event = tpl.Event(name="B.02 2012 8.58 example", place="Budapest", start=start)
    return tpl.fill_round_robin(tpl.spec_for("rr", 10), event, players, cells)  # type: ignore[arg-type]


def small_swiss() -> Workbook:
    """6 players, 3 rounds: an unrated player, a forfeit, a bye, text and number results."""
    players = [
        tpl.Player(name="Alpha", rating=2410, games_before=300, reached_2400=True, born=1980),
        tpl.Player(name="Bravo", rating=2105, games_before=40, born=2010),
        tpl.Player(name="Charlie", rating=1950, games_before=12, born=1990),
        tpl.Player(name="Delta", rating=None),
        tpl.Player(name="Echo", rating=1720, k=20, games_before=80),
        tpl.Player(name="Foxtrot", rating=1603, games_before=31, born=2009),
    ]
    rounds: list[list[tpl.Pairing]] = [
        [(4, "w", 1), (2, "b", "½"), (3, "w", "1")],
        [(5, "b", 1), (1, "w", "½"), (6, "b", "+")],
        [(6, "w", "=") , (4, "b", 0), (1, "b", "0")],
        [(1, "b", 0), (3, "w", 1), (5, "w", "½")],
        [(2, "w", 0), (6, "b", 1), (4, "b", "½")],
        [(3, "b", "="), (5, "w", 0), (2, "w", "-")],
    ]  # fmt: skip
    event = tpl.Event(name="Small Swiss", place="Graz", start=dt.date(2024, 5, 10))
    return tpl.fill_swiss(tpl.spec_for("swiss", 6, 3), event, players, rounds)


def players_of(path: Path) -> dict[str, dict[str, object]]:
    """A recalculated crosstable's player rows, by name: each column's value."""
    ws = openpyxl.load_workbook(path, data_only=True)["Players"]
    header = [str(c.value) for c in ws[layout.HEADER_ROW]]
    out: dict[str, dict[str, object]] = {}
    for row in ws.iter_rows(min_row=layout.FIRST, values_only=True):
        line: dict[str, object] = dict(zip(header, row, strict=False))
        if line.get("Name"):
            out[str(line["Name"])] = line
    return out
