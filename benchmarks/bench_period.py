"""Benchmark: a federation's rating period of 50,000 players and 500,000 games (1,000 Swiss
events of 100 players and 10 rounds), from the list and the TRF files to the next list.
Prints the time of each step and the peak memory (target: under 10 seconds in all).

    python benchmarks/bench_period.py [--players 50000] [--events 1000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import random
import resource
import tempfile
import time
from pathlib import Path

from fide_rating.engine.xlsxout import SharedStrings, write
from fide_rating.events import period as period_calc
from fide_rating.formats import layout, trf
from fide_rating.formats import listbook as period_book


def make(
    folder: Path, players: int, events: int, size: int, rounds: int
) -> tuple[Path, list[Path]]:
    rnd = random.Random(3)
    ratings = [None if rnd.random() < 0.1 else rnd.randint(1400, 2700) for _ in range(players)]
    rows = [layout.LIST_COLUMNS] + [
        (str(100000 + i), f"Player {i}", "GER", "M", rnd.randint(1950, 2015), "", r,
         None, rnd.choice((0, 20, 100)), False, True, None)
        for i, r in enumerate(ratings)
    ]  # fmt: skip
    lst = write(  # texts in a shared table, as Excel and our own lists store them
        folder / "list.xlsx",
        [("Period", [("List date", dt.date(2025, 11, 1)), ("Next list", dt.date(2025, 12, 1))],
          set(), ()), ("List", rows, {1}, ()), ("Pending", [layout.PENDING_COLUMNS], {1}, ())],
        strings=SharedStrings(),
    )  # fmt: skip
    people = [(str(100000 + i), ratings[i]) for i in range(players)]
    return lst, write_events(folder, people, events, size, rounds, "2025/11", rnd)


def write_events(
    folder: Path, people: list[tuple[str, int | None]], events: int, size: int, rounds: int,
    month: str, rnd: random.Random,
) -> list[Path]:  # fmt: skip
    """Swiss events in TRF: each of ``size`` players drawn from ``people`` (FIDE ID,
    rating), ``rounds`` random rounds, starting on the days of ``month`` (YYYY/MM)."""
    paths = []
    for e in range(events):
        field = rnd.sample(range(len(people)), size)
        table: list[list[trf.Round]] = [[] for _ in range(size)]
        for _ in range(rounds):
            order = list(range(size))
            rnd.shuffle(order)
            for a, b in zip(order[::2], order[1::2], strict=True):
                res = rnd.choice("1=0")
                table[a].append(trf.Round(b + 1, "w", res))
                table[b].append(trf.Round(a + 1, "b", {"1": "0", "0": "1", "=": "="}[res]))
        lines = [f"012 Event {e}", f"042 {month}/{1 + e % 28:02d}"]
        for i, who in enumerate(field):
            rs = tuple(table[i])
            fide_id, rating = people[who]
            lines.append(trf.format_player(trf.Player(
                i + 1, "m", "", f"Player {fide_id}", rating, "GER", fide_id, "",
                trf.points_of(r.result for r in rs), i + 1, rs)))  # fmt: skip
        path = folder / f"event-{e:04d}.trf"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    games = args.events * args.size * args.rounds // 2
    with tempfile.TemporaryDirectory(prefix="fide-period-") as tmp:
        lst, events = make(Path(tmp), args.players, args.events, args.size, args.rounds)
        print(f"{args.players:,} players, {len(events):,} events, {games:,} games")
        gc.disable()  # as period.run does
        cpu = time.process_time()
        start = time.perf_counter()
        rating_list = period_book.read_list(lst)
        t_list = time.perf_counter()
        facts = period_calc.facts_from_files(rating_list, events)  # on every processor
        t_events = time.perf_counter()
        results = period_calc.compute_facts(rating_list, facts)
        t_compute = time.perf_counter()
        names = {f.label: f.name for f in facts if isinstance(f, period_calc.EventFacts)}
        period_book.write_next(Path(tmp) / "next.xlsx", rating_list, results, names)
        t_write = time.perf_counter()
        cpu = time.process_time() - cpu
        gc.enable()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    print(f"read the list        {t_list - start:6.2f} s")
    print(f"read the events      {t_events - t_list:6.2f} s (and their games, on every core)")
    print(f"compute the period   {t_compute - t_events:6.2f} s")
    print(f"write the next list  {t_write - t_compute:6.2f} s")
    print(f"total                {t_write - start:6.2f} s ({cpu:.2f} s of this process's time), "
          f"peak memory {peak / 2**20:.0f} MiB (the process's peak resident size)")  # fmt: skip


if __name__ == "__main__":
    main()
