"""A rating period at FIDE's scale: FIDE's whole list and a month of games.

    python benchmarks/bench_period_fide.py [--players 1700000] [--events 2000]

Writes a list of that many players in FIDE's text layout and that many Swiss events (100
players, 10 rounds: 500 games each; 2,000 events are a million games), then times, in a fresh
process, ``fide-rating period LIST EVENTS -o NEXT.txt`` twice: the first run also indexes the
list. Target: under 60 s.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fide_rating.formats import trf

HERE = Path(__file__).resolve().parent


def events(
    folder: Path, ids: list[int], count: int, size: int = 100, rounds: int = 10
) -> list[Path]:
    rnd = random.Random(7)
    paths = []
    for e in range(count):
        field = rnd.sample(ids, size)
        table: list[list[trf.Round]] = [[] for _ in range(size)]
        for _ in range(rounds):
            order = list(range(size))
            rnd.shuffle(order)
            for a, b in zip(order[::2], order[1::2], strict=True):
                res = rnd.choice("1=0")
                table[a].append(trf.Round(b + 1, "w", res))
                table[b].append(trf.Round(a + 1, "b", {"1": "0", "0": "1", "=": "="}[res]))
        lines = [f"012 Event {e}", f"042 2026/10/{1 + e % 28:02d}"]
        for i, who in enumerate(field):
            rs = tuple(table[i])
            lines.append(trf.format_player(trf.Player(
                i + 1, "m", "", f"Player {who}", None, "GER", str(who), "",
                trf.points_of(r.result for r in rs), i + 1, rs)))  # fmt: skip
        path = folder / f"event-{e:04d}.trf"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


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
            rated = [i for i in ids if (p := lst.get(i)) is not None and p.rating is not None]
        listed.with_name(listed.name + ".fide-rating-index").unlink()  # the run indexes it
        paths = events(folder, rated, args.events)
        games = args.events * 500
        print(f"list: {args.players:,} players; events: {args.events:,}, {games:,} games")
        for run in ("first run (indexes the list)", "second run"):
            out = folder / "next.txt"
            argv = ["period", str(listed), *map(str, paths), "-o", str(out), "--force",
                    "--date", "2026-10-01", "--next", "2026-11-01"]  # fmt: skip
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                                  text=True, check=False)  # fmt: skip
            wall = time.perf_counter() - start
            inner, peak, code = done.stdout.split()[-3:]
            print(f"{run}: {wall:.1f} s (of it in the command {inner} s), peak {peak} MiB, "
                  f"exit {code}")  # fmt: skip


if __name__ == "__main__":
    main()
