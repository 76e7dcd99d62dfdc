"""A rating period at FIDE's scale: FIDE's whole list and a month of games.

    python benchmarks/bench_period_fide.py [--players 1700000] [--events 2000]
                                           [--rating-type rapid]

Writes a list of that many players in FIDE's text layout and that many Swiss events (100
players, 10 rounds: 500 games each; 2,000 events are a million games), then times, in a fresh
process, ``fide-rating period LIST EVENTS -o NEXT.txt`` twice: the first run also indexes the
list. Target: under 60 s. With ``--rating-type rapid`` (or blitz) the month is rated by the
rapid and blitz rules, on the list's rapid column (a player without a rapid rating rated with his
standard one).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_period import write_events

HERE = Path(__file__).resolve().parent


PROBE = """
import resource, sys, time
from fide_rating.commands.cli import main
t = time.perf_counter()
code = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{time.perf_counter() - t:.1f} {peak:.0f} {code}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1_700_000)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rating-type", choices=("standard", "rapid", "blitz"), default="standard")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fide-scale-") as tmp:
        folder = Path(tmp)
        listed = folder / "players_list_foa.txt"
        child = subprocess.run(
            [sys.executable, str(HERE / "bench_fidelist.py"), "--players", str(args.players),
             "--generate", str(listed), "--sample", "300000"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        ids = [int(i) for i in child.stdout.split()[1].split(",")]
        # the players of the events: rated ones of the list (the sample is random)
        from fide_rating.formats.fidelist import open_list

        with open_list(listed) as lst:
            found = [(i, p.of(args.rating_type)[0] or p.rating) for i in ids
                     if (p := lst.get(i)) is not None and p.rating is not None]  # fmt: skip
        listed.with_name(listed.name + ".fide-rating-index").unlink()  # the run indexes it
        # the events carry the list's ratings, as the TRF files FIDE receives do
        people: list[tuple[str, int | None]] = [(str(i), r) for i, r in found]
        paths = write_events(folder, people, args.events, 100, 10, "2026/10", random.Random(7))
        games = args.events * 500
        print(f"list: {args.players:,} players; events: {args.events:,}, {games:,} games, "
              f"{args.rating_type}")  # fmt: skip
        for run in ("first run (indexes the list)", "second run"):
            out = folder / "next.txt"
            argv = ["period", str(listed), *map(str, paths), "-o", str(out), "--force",
                    "--date", "2026-10-01", "--next", "2026-11-01",
                    "--rating-type", args.rating_type]  # fmt: skip
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                                  text=True, check=False)  # fmt: skip
            wall = time.perf_counter() - start
            inner, peak, code = done.stdout.split()[-3:]
            print(f"{run}: {wall:.1f} s (of it in the command {inner} s), peak {peak} MiB, "
                  f"exit {code}")  # fmt: skip


if __name__ == "__main__":
    main()
