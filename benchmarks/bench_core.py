"""Benchmark: a synthetic rating period of 100,000 players and 1,000,000 games.

Prints games per second and peak memory for the full event calculation (per-game detail) and
the bare change K x sum(W - PD), and for elochess (pip install ".[bench]") on the same games.
A "game" below is one game in one player's calculation: each of the 1,000,000 games is rated for
both players, so every path handles 2,000,000 of them.

    python benchmarks/bench_core.py [--players N] [--games N]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc
from collections.abc import Callable
from fractions import Fraction

import fide_rating as fr

Lists = tuple[list[int], list[list[int]], list[list[float]]]


def synthetic(players: int, games: int, seed: int = 2025) -> Lists:
    rnd = random.Random(seed)
    ratings = [rnd.randint(1400, 2850) for _ in range(players)]
    opponents: list[list[int]] = [[] for _ in range(players)]
    scores: list[list[float]] = [[] for _ in range(players)]
    for _ in range(games):
        a, b = rnd.randrange(players), rnd.randrange(players)
        while b == a:
            b = rnd.randrange(players)
        s = rnd.choice((1.0, 0.5, 0.0))
        opponents[a].append(ratings[b])
        scores[a].append(s)
        opponents[b].append(ratings[a])
        scores[b].append(1.0 - s)
    return ratings, opponents, scores


def timed(label: str, run: Callable[[], object], games: int, repeat: int = 3) -> float:
    """Best of ``repeat`` runs: the machine's noise only ever adds time."""
    seconds = float("inf")
    gc.collect()
    gc.disable()  # as timeit does: the collector's passes over the input are not the code's
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            run()
            seconds = min(seconds, time.perf_counter() - start)
    finally:
        gc.enable()
    rate = games / seconds
    print(f"{label:<44} {seconds:7.2f} s {rate / 1e6:8.2f} M games/s")
    return rate


def peak(run: Callable[[], object]) -> float:
    tracemalloc.start()
    run()
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    args = parser.parse_args()
    ratings, opponents, scores = synthetic(args.players, args.games)
    n = 2 * args.games
    edition = fr.get_edition("2025-10")
    k = 20
    rows = list(zip(ratings, opponents, scores, strict=True))
    print(f"{args.players:,} players, {args.games:,} games ({n:,} player-games), edition 2025-10")

    def full() -> list[fr.EventCalculation]:
        return [fr.event(r, o, s, k, edition) for r, o, s in rows]

    def bare() -> list[int]:
        return [fr.change_hundredths(r, o, s, k, edition) for r, o, s in rows]

    full_rate = timed("full event calculation (per-game detail)", full, n)
    bare_rate = timed("bare change K x sum(W - PD), exact", bare, n)
    print(f"{'peak memory, full calculation kept':<44} {peak(full):7.1f} MiB")
    print(f"{'peak memory, bare change':<44} {peak(bare):7.1f} MiB")
    try:
        from elochess.elo import EloCalculator
    except ImportError:
        print('elochess not installed (pip install ".[bench]"): no comparison')
        return
    totals = [sum(s) for s in scores]
    erows = list(zip(ratings, opponents, totals, strict=True))

    def elo() -> list[int]:
        return [EloCalculator.update_rating(r, o, t) for r, o, t in erows]

    elo_rate = timed("elochess update_rating (float, rounded)", elo, n)
    print(f"{'peak memory, elochess':<44} {peak(elo):7.1f} MiB")
    print(f"ratio bare / elochess: {bare_rate / elo_rate:.2f}x")
    print(f"ratio full / elochess: {full_rate / elo_rate:.2f}x")
    # elochess picks K from the facts: 10 once 2400 was reached, 40 under 30 games, else 20
    facts = {10: {"reached_2400": True}, 20: {}, 40: {"games_played": 0}}
    for kk, given in facts.items():
        ours = [r + fr.fide_round(Fraction(fr.change_hundredths(r, o, s, kk, edition), 100))
                for r, o, s in rows]  # fmt: skip
        theirs = [EloCalculator.update_rating(r, o, t, **given) for r, o, t in erows]  # type: ignore[arg-type]
        differ = sum(a != b for a, b in zip(ours, theirs, strict=True))
        print(f"K {kk}: new ratings that differ from elochess: {differ:,} of {len(rows):,}"
              + (" (a change of exactly x.5: FIDE rounds it away from zero, elochess to even)"
                 if differ else ""))  # fmt: skip


if __name__ == "__main__":
    main()
