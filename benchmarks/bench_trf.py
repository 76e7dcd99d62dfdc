"""Benchmark: read a TRF-2026 file with every check, next to the `trf` package from PyPI
(pip install ".[bench]") reading the same text, at several sizes up to 9,999 players x 15
rounds; and a rating report of it. Prints each time and the ratio (trf's time / ours: 1.0 or
more means ours is as fast or faster). A benchmark, never a test: times depend on the machine.

    python benchmarks/bench_trf.py                 # every size
    python benchmarks/bench_trf.py --players 2000 --rounds 11
    python benchmarks/bench_trf.py --profile       # cProfile of the largest parse
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import time
from collections.abc import Callable
from fractions import Fraction

from fide_rating.events.rating import report
from fide_rating.formats import trf
from synthetic import swiss_event

SIZES = ((100, 7), (500, 9), (2000, 11), (5000, 13), (9999, 15))


def synthetic_trf(players: int, rounds: int) -> str:
    """A TRF-2026 Swiss: its header records (142, 162, 222, a comment), the players, the
    half of the byes that only record 240 gives, and national rating records."""
    people, table = swiss_event(players, rounds, seed=7)
    lines = ["012 Synthetic open", "022 Nowhere", "042 2024/06/01", "052 2024/06/11",
             f"142 {rounds}", "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.5",
             "222 5400+30", "### SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF"]  # fmt: skip
    byes: list[str] = []
    for i, (p, line) in enumerate(zip(people, table, strict=True), start=1):
        results = []
        for k, (opp, colour, result) in enumerate(line, start=1):
            code = {"½": "=", "F": "F"}.get(str(result), str(result))
            if code == "F" and k % 2:  # this bye only in record 240
                byes.append(f"240 F {k:>3} {i:>4}")
                code = " "
            results.append(trf.Round(opp, colour or "-", code))
        birth = f"{p.born}/01/01" if isinstance(p.born, int) else ""
        points = trf.points_of(r.result for r in results) + sum(
            1 for r in results if r.result == " " and r.opponent is None
        )
        lines.append(
            trf.format_player(
                trf.Player(i, "m", "", p.name, p.rating, "GER", str(p.fide_id or ""), birth,
                           points, i, tuple(results))
            )
        )  # fmt: skip
    national = [f"GER {i:>4} m      {'':33} {1500 + i % 900:>4} BAV" for i in range(1, players, 97)]
    return "\n".join([*lines, *byes, *national]) + "\n"


def best(f: Callable[[], object], repeat: int = 5) -> float:
    """The best of ``repeat`` runs in processor time (this process's own, whatever else the
    machine runs), the collector off and emptied before each (as for both readers)."""
    out = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            f()
            out = min(out, time.process_time() - start)
        finally:
            gc.enable()
    return out


def cold_parse(data: bytes) -> trf.Tournament:
    """Our parse as a command runs it: once, on a fresh process's empty caches (all but the
    texts "   1" to "9999" of the starting ranks, made once in a process)."""
    trf.forget()
    return trf.parse(data)


def run(players: int, rounds: int, repeat: int, with_report: bool) -> float | None:
    text = synthetic_trf(players, rounds)
    data = text.encode()
    parsed = trf.parse(data)
    assert not parsed.errors, parsed.errors[:3]
    assert not parsed.warnings, parsed.warnings[:3]
    try:
        import trf as pypi_trf
    except ImportError:
        pypi_trf = None
    ours = other = float("inf")
    for _ in range(repeat):  # interleaved: a busy machine slows both alike
        ours = min(ours, best(lambda: cold_parse(data), 1))
        if pypi_trf is not None:
            other = min(other, best(lambda: pypi_trf.loads(text), 1))
    total = sum((p.points or Fraction(0) for p in parsed.players.values()), Fraction(0))
    print(f"{players:>5} players x {rounds:>2} rounds, {len(data) / 1e6:4.1f} MB "
          f"({float(total):g} points in all)")  # fmt: skip
    print(f"  fide-rating, TRF-2026 with every check   {ours * 1000:8.1f} ms")
    if with_report:
        t_report = best(lambda: report(trf.parse(data)), repeat=1)
        print(f"  fide-rating, parse + rating report       {t_report * 1000:8.1f} ms")
    if pypi_trf is None:
        print('  the trf package is not installed (pip install ".[bench]"): no ratio')
        return None
    print(f"  trf 1.1.1 (PyPI), trf.loads               {other * 1000:8.1f} ms")
    print(f"  ratio (trf / fide-rating): {other / ours:.2f}x")
    return other / ours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--report", action="store_true", help="time a rating report too")
    parser.add_argument("--profile", action="store_true", help="profile the largest parse")
    args = parser.parse_args()
    sizes = ((args.players, args.rounds),) if args.players else SIZES
    if args.profile:
        data = synthetic_trf(*sizes[-1]).encode()
        cProfile.runctx("cold_parse(data)", globals(), {"data": data}, "/tmp/bench_trf.prof")
        pstats.Stats("/tmp/bench_trf.prof").sort_stats("tottime").print_stats(15)
        return
    ratios = [run(n, r, args.repeat, args.report) for n, r in sizes]
    known = [x for x in ratios if x is not None]
    if known:
        verdict = "as fast or faster" if min(known) >= 1 else "slower"
        print(f"slowest ratio: {min(known):.2f}x ({verdict})")


if __name__ == "__main__":
    main()
