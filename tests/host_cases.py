"""Calls of every spreadsheet function in a host-neutral form, and the same calls shaped as
each Excel client hands them to Python: classic xlwings (COM values) and xlwings Lite
(Office.js values). The tests run them through each client's own code."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fide_rating.cells import REGISTRY, call


@dataclass(frozen=True)
class Date:
    day: dt.date


@dataclass(frozen=True)
class Err:
    code: str


class _Omit:
    def __repr__(self) -> str:
        return "OMIT"


OMIT = _Omit()  # an argument left out of the formula
Cell = float | str | bool | None | Date | Err
Arg = Cell | list[list[Cell]] | _Omit

OPP: list[Cell] = [1063.0, 1299.0, 1413.0, 1872.0, 1851.0, 1427.0, 1682.0]
RES: list[Cell] = [1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0]


def column(values: Sequence[Cell]) -> list[list[Cell]]:
    return [[v] for v in values]


def row(values: Sequence[Cell]) -> list[list[Cell]]:
    return [list(values)]


def with_error(values: Sequence[Cell], at: int, code: str = "#N/A") -> list[Cell]:
    out = list(values)
    out[at] = Err(code)
    return out


CASES: list[tuple[str, tuple[Arg, ...]]] = [
    ("FIDE_EXPECT", (2600.0, 2500.0, OMIT, "2012-07")),
    ("FIDE_EXPECT", (2000.0, column(OPP))),
    ("FIDE_EXPECT", (2000.0, row(OPP), row(["1", 1.0, "1", "½", 0.0, "+", "="]), "2022-01")),
    ("FIDE_EXPECT", (2000.0, column(with_error(OPP, 2)))),
    ("FIDE_EXPECT", ([[2000.0]], [[2500.0]])),
    ("FIDE_DP", (0.8,)),
    ("FIDE_DP", (1.5,)),
    ("FIDE_DP", (1.0, "2005-07")),
    ("FIDE_CHANGE", (2000.0, column(OPP), column(RES), 20.0, "2022-01")),
    ("FIDE_CHANGE", (2000.0, column(with_error(OPP, 3)), column(RES), 20.0, "2022-01")),
    ("FIDE_CHANGE", (2000.0, column(OPP), column(with_error(RES, 0, "#VALUE!")), 20.0)),
    ("FIDE_CHANGE", (2000.0, [OPP[:4], [*OPP[4:], None]], [RES[:4], [*RES[4:], None]], 20.0)),
    ("FIDE_CHANGE", (2000.0, column(OPP), column(RES), 20.0, Date(dt.date(2023, 6, 1)))),
    ("FIDE_CHANGE", (2000.5, column(OPP), column(RES), 20.0)),
    (
        "FIDE_CHANGE",
        (2000.0, column(OPP), column([*RES[:3], Date(dt.date(2025, 1, 2)), *RES[4:]]), 20.0),
    ),
    (
        "FIDE_INITIAL",
        (
            column([1902.0, 1877.0, 1884.0, 2012.0, 1832.0]),
            column(["½", 0.5, 1.0, 0.0, 1.0]),
            "2024-03",
        ),
    ),
    ("FIDE_INITIAL", (column([1902.0, 1877.0, 1884.0]), column([0.5, 0.5, 1.0]))),
    ("FIDE_INITIAL", (column([1902.0, 1877.0, 1884.0]), column([0.5, Err("#REF!"), 1.0]))),
    ("FIDE_K", (2100.0, 12.0, 2008.0, False, 39.0, "2025-05-01")),
    ("FIDE_K", (2450.0, 50.0, 1990.0, True)),
    ("FIDE_K", (2000.0, 10.0, 1990.0, "maybe")),
    ("FIDE_K", ([[1800.0]], 10.0, 1990.0, False, 5.0, Date(dt.date(2024, 1, 1)))),
    ("FIDE_K", (Err("#N/A"), 10.0, 1990.0, False)),
    ("FIDE_PERF", (column([2300.0, None, 2300.0, 0.0]), column([1.0, 1.0, 1.0, 0.5]))),
    ("FIDE_POINTS", (column([1.0, "½", "+", "H", None]),)),
    ("FIDE_POINTS", (column([1.0, Err("#VALUE!"), 0.5]),)),
    ("FIDE_POINTS", (None,)),
    ("FIDE_GAMES", (row([1.0, "=", "-", 0.0]),)),
    ("FIDE_N", (column(OPP), column(RES))),
    ("FIDE_W", (column([2000.0, None, 1900.0]), column([1.0, 1.0, 0.5]))),
    ("FIDE_RC", (2000.0, column(OPP), column(RES), "2022-01")),
    ("FIDE_RC", (None, column([1900.0, 2100.0]), column([1.0, 0.0]))),
    (
        "FIDE_RR",
        (
            [[2200.0], [None], [2000.0]],
            [[None, 1.0, 0.5], [0.0, None, 0.0], [0.5, 1.0, None]],
            2.0,
            "initial",
            "2012-07",
        ),
    ),
    ("FIDE_RR", ([[2200.0], [None]], [[None, 1.0], [0.0, None]], 2.0, "initial")),
    ("FIDE_ROUND", (-2.5,)),
    ("FIDE_ROUND", (2.5,)),
    ("FIDE_ROUND", ("abc",)),
    ("FIDE_ADJUST2024", (1500.0,)),
    ("FIDE_ADJUST2024", (5000.0,)),
    ("FIDE_RATABLE", (90.0, 30.0, None, 2450.0, "2024-03")),
    ("FIDE_RATABLE", (90.0, OMIT, 40.0, [[2450.0]], "2024-03")),
    ("FIDE_RATABLE", ("x", 30.0, 30.0, 2300.0, "2012-07")),
    ("FIDE_EDITION", (OMIT,)),
    ("FIDE_EDITION", (Date(dt.date(2023, 6, 1)),)),
    ("FIDE_EDITION", ("soon",)),
]

EPOCH = dt.date(1899, 12, 30)


def serial(day: dt.date) -> float:
    return float((day - EPOCH).days)


def python_value(arg: Arg) -> object:
    """What the cell layer receives for an argument once a host has converted it."""
    if isinstance(arg, _Omit):
        return None
    if isinstance(arg, list):
        return [[python_value(c) for c in line] for line in arg]
    if isinstance(arg, Date):
        return dt.datetime.combine(arg.day, dt.time())
    if isinstance(arg, Err):
        return arg.code
    return arg


def expected(name: str, args: tuple[Arg, ...]) -> object:
    """The cell layer's answer for the call, as a cell shows it."""
    out = call(name, *(python_value(a) for a in args))
    return float(out) if isinstance(out, int) else out


def to_json(arg: Arg) -> Any:
    """A case argument in JSON, for the drivers that run in other interpreters."""
    if isinstance(arg, _Omit):
        return {"omit": True}
    if isinstance(arg, list):
        return [[to_json(c) for c in line] for line in arg]
    if isinstance(arg, Date):
        return {"date": arg.day.isoformat()}
    if isinstance(arg, Err):
        return {"error": arg.code}
    return arg


def covered() -> set[str]:
    return {name for name, _ in CASES} | set()


def every_function_is_called() -> bool:
    return covered() == {f.name for f in REGISTRY}
