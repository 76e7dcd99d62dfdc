"""Benchmark: reading time controls. Prints the time of a usual notation, and how the scan of
a text grows with its length (the tokenizer, without the length limit the reader applies):
a scan linear in the text doubles its time when the text doubles.

    python benchmarks/bench_time_control.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import time

from fide_rating.rules.time_control import TimeControl, TimeControlError, _tokens

USUAL = [
    "90'/40+30'+30\"",
    "90/40+30+30",
    "40/120, 60",
    "G/90;+30",
    "90 minutes for the first 40 moves followed by 30 minutes for the rest of the game with "
    "an increment of 30 seconds per move starting from move one",
]


def _best(run: object, repeat: int) -> float:
    assert callable(run)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            run()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    for text in USUAL:
        seconds = _best(lambda text=text: TimeControl.parse(text), args.repeat)
        print(f"{seconds * 1e6:8.1f} us  {text[:60]}")
    limit = "1h" + " " * 32_000 + "x"
    seconds = _best(lambda: _refused(limit), 10)
    print(f"{seconds * 1e6:8.1f} us  '1h' + 32,000 blanks + 'x' (refused: too long)")
    print("the scan alone ('1h' + N blanks + 'x'):")
    previous = None
    for n in (32_000, 64_000, 128_000, 256_000, 512_000):
        text = "1h" + " " * n + "x"
        seconds = _best(lambda text=text: _refused_scan(text), 3)
        ratio = f"  x{seconds / previous:.2f}" if previous else ""
        print(f"{seconds * 1e3:8.2f} ms  N = {n:,}{ratio}")
        previous = seconds


def _refused(text: str) -> None:
    try:
        TimeControl.parse(text)
    except TimeControlError:
        return
    raise AssertionError("read")


def _refused_scan(text: str) -> None:
    try:
        _tokens(text, text[:10])
    except TimeControlError:
        return
    raise AssertionError("read")


if __name__ == "__main__":
    main()
