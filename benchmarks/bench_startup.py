"""Benchmark: how long the command takes to start, as a user runs it: a whole process, its
bytecode cached (a first run caches it), for ``fide-rating --help`` and a quick ``event``
calculation. Prints the median and the best of each, wall time and processor time (the
processor time does not count what other programs on a loaded machine take). Target: under
150 ms for both.

    python benchmarks/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

EVENT = ["event", "2000", "--opponents", "1900,2100,2200", "--results", "1,0.5,0", "-k", "20"]
CASES = {"fide-rating --help": ["--help"], "fide-rating event": EVENT,
         "fide-rating editions": ["editions"]}  # fmt: skip


def run_once(args: list[str]) -> tuple[float, float]:
    """Wall and processor seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "fide_rating.commands.cli", *args],
                   check=True, capture_output=True)  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    print(
        f"{'command':<24} {'wall median':>12} {'wall best':>10} {'cpu median':>11} {'cpu best':>9}"
    )
    for label, args in CASES.items():
        run_once(args)  # caches the bytecode
        walls, cpus = zip(*(run_once(args) for _ in range(runs)), strict=True)
        print(f"{label:<24} {statistics.median(walls) * 1000:9.0f} ms {min(walls) * 1000:7.0f} ms "
              f"{statistics.median(cpus) * 1000:8.0f} ms {min(cpus) * 1000:6.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
