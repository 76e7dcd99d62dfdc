"""Benchmark: `fide-rating recalc` against LibreOffice headless with the add-in.

(a) one 500-player, 11-round Swiss workbook; (b) a batch of 100 workbooks of 60 players and 9
rounds, in one process and as ``recalc``'s batch runs it (a worker for each processor the
machine's load leaves idle: the load, the processors and the workers are printed, and the
batch's speed against one process, which must never be below 1).
LibreOffice runs as one soffice for the whole batch: load, recalculate, store per file.

    python benchmarks/bench_recalc.py [--batch 100] [--no-libreoffice]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from fide_rating.engine.batch import load, processors, recalc_files, workers_for
from fide_rating.engine.recalc import recalc_file
from synthetic import swiss_workbook


def ours(files: list[Path], out: Path) -> float:
    start = time.perf_counter()
    for f in files:
        recalc_file(f, out_dir=out)
    return time.perf_counter() - start


def ours_batch(files: list[Path], out: Path) -> float:
    """The batch as the command runs it: one worker process a processor."""
    start = time.perf_counter()
    for _ in recalc_files(files, out_dir=out, force=True):
        pass
    return time.perf_counter() - start


def libreoffice(files: list[Path], out: Path, work: Path) -> float | None:
    try:
        from fide_rating.cells.calc.build import build
        from fide_rating.cells.calc.office import office_with_addin
    except ImportError:
        return None
    oxt = build(work / "fide-rating.oxt")
    with office_with_addin(work / "profile", oxt) as office:
        start = time.perf_counter()
        for f in files:
            doc = office.open(f)
            doc.calculateAll()
            office.store(doc, out / f.name, "Calc MS Excel 2007 XML")
            doc.close(True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--no-libreoffice", action="store_true")
    args = parser.parse_args()
    rows = []
    speedups: list[tuple[int, float, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="fide-bench-") as tmp:
        work = Path(tmp)
        big = work / "swiss-500x11.xlsx"
        swiss_workbook(500, 11).save(big)
        batch_dir = work / "batch"
        batch_dir.mkdir()
        batch = []
        for i in range(args.batch):
            path = batch_dir / f"event-{i:03d}.xlsx"
            swiss_workbook(60, 9, seed=i).save(path)
            batch.append(path)
        for label, files in (("(a) 1 x 500 players, 11 rounds", [big]),
                             (f"(b) {args.batch} x 60 players, 9 rounds", batch)):  # fmt: skip
            out_ours = work / f"ours-{len(files)}"
            out_ours.mkdir()
            t_ours = ours(files, out_ours)
            t_lo = None
            if not args.no_libreoffice:
                out_lo = work / f"lo-{len(files)}"
                out_lo.mkdir()
                try:
                    t_lo = libreoffice(files, out_lo, work / f"lo-work-{len(files)}")
                except Exception as error:  # no LibreOffice here: report, keep our figures
                    print(f"LibreOffice not measured: {error}", file=sys.stderr)
            rows.append((label, t_ours, t_lo))
            if len(files) > 1:
                busy, chosen = load(), workers_for(len(files))  # as the batch will see them
                t_pool = ours_batch(files, out_ours)
                pooled = f"{label}, {chosen} processes"
                rows.append((pooled, t_pool, t_lo))
                speedups.append((len(files), t_ours / t_pool, busy, chosen))
    print(f"{'workload':<36} {'fide-rating':>12} {'LibreOffice':>12} {'ratio':>7}")
    for label, t_ours, t_lo in rows:
        lo = f"{t_lo:10.2f} s" if t_lo is not None else "         n/a"
        ratio = f"{t_lo / t_ours:6.1f}x" if t_lo is not None else "    n/a"
        print(f"{label:<36} {t_ours:10.2f} s {lo} {ratio}")
    for count, speedup, busy, chosen in speedups:
        print(f"batch of {count}: {speedup:.2f}x the speed of one process ({processors()} "
              f"processors, load {busy:.2f}, {chosen} workers)")  # fmt: skip


if __name__ == "__main__":
    main()
