# mypy: disable-error-code=no-untyped-call
"""Benchmark: the cost of each spreadsheet function through the cell layer next to the bare
core call, with the values Excel passes (floats, a column range as a list of lists).

    python benchmarks/bench_cells.py
"""

from __future__ import annotations

import datetime as dt
import gc
import timeit
from collections.abc import Callable
from fractions import Fraction

import fide_rating as fr
from fide_rating import excel

OPP = [1063, 1299, 1413, 1872, 1851, 1427, 1682, 2011, 1950, 1702, 1799]
RES = [1, 1, 1, 0.5, 0, 1, 1, 0, 0.5, 1, 0.5]
COLUMN = [[float(o)] for o in OPP]  # what xlwings hands over for A2:A12
RESULTS = [[float(r)] for r in RES]
ED = fr.get_edition("2024-03")
DAY = dt.date(2025, 5, 1)

CASES: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
    (
        "FIDE_CHANGE (11 games)",
        lambda: excel.FIDE_CHANGE(2000.0, COLUMN, RESULTS, 20.0, "2024-03"),
        lambda: fr.change(2000, OPP, RES, 20, ED),
    ),
    (
        "FIDE_EXPECT (11 games, results)",
        lambda: excel.FIDE_EXPECT(2000.0, COLUMN, RESULTS, "2024-03"),
        lambda: fr.expected_score(2000, OPP, ED, RES),
    ),
    (
        "FIDE_EXPECT (one opponent)",
        lambda: excel.FIDE_EXPECT(2000.0, 1850.0),
        lambda: fr.expected(2000, 1850),
    ),
    ("FIDE_DP", lambda: excel.FIDE_DP(0.57), lambda: fr.dp(0.57)),
    (
        "FIDE_INITIAL (11 games)",
        lambda: excel.FIDE_INITIAL(COLUMN, RESULTS, "2024-03"),
        lambda: fr.initial_rating(fr.UnratedEvent(opponents=OPP, scores=RES), ED),
    ),
    (
        "FIDE_K",
        lambda: excel.FIDE_K(2100.0, 12.0, 2008.0, False, 39.0, DAY),
        lambda: fr.k_factor(
            rating=2100,
            games_before=12,
            birth=2008,
            reached_2400=False,
            on=DAY,
            games_in_period=39,
            edition=ED,
        ),
    ),
    (
        "FIDE_PERF (11 games)",
        lambda: excel.FIDE_PERF(COLUMN, RESULTS),
        lambda: fr.performance(OPP, RES),
    ),
    ("FIDE_ROUND", lambda: excel.FIDE_ROUND(-17.5), lambda: fr.fide_round(Fraction(-35, 2))),
    ("FIDE_ADJUST2024", lambda: excel.FIDE_ADJUST2024(1500.0), lambda: fr.adjust_2024(1500)),
    ("FIDE_EDITION", lambda: excel.FIDE_EDITION(DAY), lambda: fr.edition_on(DAY)),
]


def per_call(
    a: Callable[[], object], b: Callable[[], object], number: int = 500, rounds: int = 30
) -> tuple[float, float]:
    """Best time per call of each, measured in alternation so that the machine's changing
    load hits both alike."""
    best_a = best_b = float("inf")
    gc.disable()
    try:
        for _ in range(rounds):
            best_a = min(best_a, timeit.timeit(a, number=number) / number)
            best_b = min(best_b, timeit.timeit(b, number=number) / number)
    finally:
        gc.enable()
    return best_a, best_b


def main() -> None:
    print(f"{'function':<34} {'cell layer':>11} {'core':>9} {'layer adds':>11}")
    for name, cell, core in CASES:
        c, k = per_call(cell, core)
        print(f"{name:<34} {c * 1e6:9.2f}us {k * 1e6:7.2f}us {(c - k) / k:10.0%}")


if __name__ == "__main__":
    main()
