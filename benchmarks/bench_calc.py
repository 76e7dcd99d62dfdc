"""Benchmark: a 300-player, 11-round Swiss crosstable recalculated by LibreOffice with the
add-in. Prints the time of a full recalculation and the calls per second of FIDE_CHANGE.

Needs LibreOffice 25.2 (bash scripts/install-libreoffice.sh) and the SDK's unoidl-write.

    python benchmarks/bench_calc.py [--players 300] [--rounds 11]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from openpyxl import Workbook
from openpyxl.utils import get_column_letter

from fide_rating.cells.calc.build import build
from fide_rating.cells.calc.office import office_with_addin


def swiss(players: int, rounds: int, seed: int = 11) -> Workbook:
    """A crosstable: rating, K, then per round the opponent's rating and the result; then the
    change and the expected score of each player through the add-in."""
    rnd = random.Random(seed)
    ratings = sorted((rnd.randint(1400, 2700) for _ in range(players)), reverse=True)
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Crosstable"
    first_opp, first_res = 3, 3 + rounds
    for i, rating in enumerate(ratings, start=2):
        ws.cell(i, 1, rating)
        ws.cell(i, 2, 20)
        for r in range(rounds):
            opponent = ratings[min(players - 1, max(0, i - 2 + rnd.randint(-25, 25)))]
            ws.cell(i, first_opp + r, opponent)
            ws.cell(i, first_res + r, rnd.choice((1, 0.5, 0)))
        opp = f"{get_column_letter(first_opp)}{i}:{get_column_letter(first_opp + rounds - 1)}{i}"
        res = f"{get_column_letter(first_res)}{i}:{get_column_letter(first_res + rounds - 1)}{i}"
        ws.cell(i, first_res + rounds, f'=FIDE_CHANGE(A{i},{opp},{res},B{i},"2024-03")')
        ws.cell(i, first_res + rounds + 1, f'=FIDE_EXPECT(A{i},{opp},{res},"2024-03")')
    return wb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fide-bench-") as tmp:
        work = Path(tmp)
        book = work / "swiss.xlsx"
        swiss(args.players, args.rounds).save(book)
        oxt = build(work / "fide-rating.oxt")
        start = time.perf_counter()
        with office_with_addin(work / "profile", oxt) as office:
            print(f"LibreOffice with the add-in started in {time.perf_counter() - start:.1f} s")
            start = time.perf_counter()
            doc = office.open(book)
            print(f"opened {args.players} players x {args.rounds} rounds in "
                  f"{time.perf_counter() - start:.2f} s")  # fmt: skip
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                doc.calculateAll()
                best = min(best, time.perf_counter() - start)
            calls = 2 * args.players
            print(f"full recalculation ({calls} add-in calls): {best * 1000:.0f} ms (best of "
                  f"{args.repeat})")  # fmt: skip
            sheet = doc.Sheets.getByIndex(0)
            expect_col = 3 + 2 * args.rounds
            # leave only FIDE_CHANGE: clear the FIDE_EXPECT column, recalculate again
            sheet.getCellRangeByPosition(expect_col, 1, expect_col, args.players).clearContents(
                23  # VALUE | DATETIME | STRING | FORMULA
            )
            only_change = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                doc.calculateAll()
                only_change = min(only_change, time.perf_counter() - start)
            print(f"FIDE_CHANGE alone: {args.players} calls in {only_change * 1000:.0f} ms, "
                  f"{args.players / only_change:,.0f} calls per second")  # fmt: skip
            doc.close(True)


if __name__ == "__main__":
    main()
