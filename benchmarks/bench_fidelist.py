"""FIDE's whole rating list: read and indexed, then opened again from the index.

    python benchmarks/bench_fidelist.py [--players 1700000] [--xml] [--zip]

Writes a list of that many players in FIDE's text layout (or XML, or zipped) into a temporary
folder, then measures in a fresh process each: the first open (reading the list and writing its
index; its CPU seconds, the workers' included, and peak memory), the second open (the index
only: its stamp checked, 16 blocks of the list read) and 10,000 look-ups; the second open again
with the list and its index out of the page cache (Linux); and an open after the list was
touched (its times differ: the whole list's fingerprint is checked once, the index kept).
Target: the first under 10 s and 1 GiB, the second under 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from fide_rating.formats.fidelist import HEADER, XML_FIELDS, ListedPlayer, format_line

FEDS = ["GER", "FRA", "ESP", "IND", "USA", "RUS", "HUN", "POL", "EST", "AUT"]


def players(n: int) -> list[ListedPlayer]:
    rng = random.Random(5)
    ids = rng.sample(range(100_000, 400_000_000), n)
    out = []
    for fide_id in ids:
        rated = rng.random() < 0.4
        out.append(ListedPlayer(
            fide_id, f"Player{fide_id}, Name{fide_id % 997}", rng.choice(FEDS),
            rng.choice("MF"), rng.choice(["", "", "", "FM", "IM", "GM"]), "", "",
            rng.randint(1400, 2800) if rated else None, rng.randint(0, 12),
            rng.choice([10, 20, 40]) if rated else None,
            rng.randint(1400, 2700) if rng.random() < 0.3 else None, 0, 20,
            rng.randint(1400, 2700) if rng.random() < 0.3 else None, 0, 20,
            rng.randint(1940, 2018), rng.choice(["", "", "i", "w", "wi"])))  # fmt: skip
    return out


def write_text(path: Path, people: list[ListedPlayer]) -> None:
    with path.open("w", encoding="latin-1", newline="\r\n") as f:
        f.write(HEADER + "\n")
        for p in people:
            f.write(format_line(p) + "\n")


def write_xml(path: Path, people: list[ListedPlayer]) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write("<playerslist>\n")
        for p in people:
            values = [p.fide_id, p.name, p.federation, p.sex, p.title, p.women_title,
                      p.other_titles, "", p.rating or 0, p.games, p.k or 0, p.rapid or 0,
                      p.rapid_games, p.rapid_k or 0, p.blitz or 0, p.blitz_games,
                      p.blitz_k or 0, p.born or 0, p.flag]  # fmt: skip
            f.write("<player>" + "".join(f"<{k}>{v}</{k}>" for k, v in zip(XML_FIELDS, values,
                    strict=True)) + "</player>\n")  # fmt: skip
        f.write("</playerslist>\n")


PROBE = """
import os, resource, sys, time
from pathlib import Path
from fide_rating.formats.fidelist import index_path, open_list
path = Path(sys.argv[1])
if sys.argv[3] == "cold" and hasattr(os, "posix_fadvise"):  # out of the page cache
    for name in (path, index_path(path)):
        fd = os.open(name, os.O_RDONLY)
        os.fsync(fd)  # a page not yet written out stays in the cache
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
t = time.perf_counter()
lst = open_list(path)
opened = time.perf_counter() - t
ids = [p for p in map(int, sys.argv[2].split(","))]
t = time.perf_counter()
found = sum(lst.get(i) is not None for i in ids)
looked = time.perf_counter() - t
me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime
peak = me.ru_maxrss / 1024
print(f"{opened:.3f} {looked * 1000:.1f} {found} {peak:.0f} {len(lst)} {lst.error_count} {cpu:.2f}")
"""


def measure(path: Path, ids: list[int], mode: str = "warm") -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(path), ",".join(map(str, ids)), mode],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout.split()


def generate(
    path: Path, n: int, xml: bool, zipped: bool, sample: int = 10_000
) -> tuple[Path, list[int]]:
    """Write the list (in this process: the parent that measures stays small)."""
    people = players(n)
    (write_xml if xml else write_text)(path, people)
    if zipped:
        target = path.with_suffix(".zip")
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(path, path.name)
        path.unlink()
        path = target
    return path, [p.fide_id for p in random.Random(1).sample(people, min(sample, n))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1_700_000)
    parser.add_argument("--xml", action="store_true")
    parser.add_argument("--zip", action="store_true")
    parser.add_argument("--generate", help=argparse.SUPPRESS)  # internal: the child's job
    parser.add_argument("--sample", type=int, default=10_000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        path, ids = generate(Path(args.generate), args.players, args.xml, args.zip, args.sample)
        print(path, ",".join(map(str, ids)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        name = "players_list_xml_foa.xml" if args.xml else "players_list_foa.txt"
        child = subprocess.run(
            [sys.executable, __file__, "--players", str(args.players), "--generate",
             str(Path(tmp) / name), *(["--xml"] if args.xml else []),
             *(["--zip"] if args.zip else [])],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        where, ids_text = child.stdout.split()
        path = Path(where)
        ids = [int(i) for i in ids_text.split(",")]
        size = path.stat().st_size / 2**20
        first = measure(path, ids)
        second = measure(path, ids)
        cold = measure(path, ids, "cold")
        later = path.stat().st_mtime_ns + 10**9
        os.utime(path, ns=(later, later))
        touched = measure(path, ids)
        print(f"list: {args.players:,} players, {size:.0f} MiB ({path.name})")
        print(f"first open (read + index): {first[0]} s ({first[6]} s CPU), peak {first[3]} MiB, "
              f"{first[4]} players, {first[5]} problems")  # fmt: skip
        print(f"second open (index only):  {second[0]} s, peak {second[3]} MiB")
        print(f"10,000 look-ups: {second[1]} ms ({second[2]} found)")
        print(f"second open, out of the page cache: {cold[0]} s; 10,000 look-ups {cold[1]} ms")
        print(f"open after a touch (the whole list's CRC checked): {touched[0]} s")


if __name__ == "__main__":
    main()
