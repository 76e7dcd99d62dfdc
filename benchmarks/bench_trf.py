"""Benchmark: parse and report a 2,000-player, 11-round TRF; the parse next to the `trf`
package from PyPI (pip install ".[bench]") on the same file.

    python benchmarks/bench_trf.py [--players 2000] [--rounds 11]
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from fractions import Fraction

from fide_rating.commands.report import report
from fide_rating.formats import trf
from synthetic import swiss_event


def synthetic_trf(players: int, rounds: int) -> str:
    people, table = swiss_event(players, rounds, seed=7)
    lines = ["012 Synthetic open", "022 Nowhere", "042 2024/06/01", "052 2024/06/11"]
    for i, (p, line) in enumerate(zip(people, table, strict=True), start=1):
        results = []
        for opp, colour, result in line:
            code = {"½": "=", "F": "F"}.get(str(result), str(result))
            results.append(trf.Round(opp, colour or "-", code))
        birth = f"{p.born}/01/01" if isinstance(p.born, int) else ""
        lines.append(
            trf.format_player(
                trf.Player(i, "m", "", p.name, p.rating, "GER", str(p.fide_id or ""), birth,
                           trf.points_of(r.result for r in results), i, tuple(results))
            )
        )  # fmt: skip
    return "\n".join(lines) + "\n"


def best(f: Callable[[], object], repeat: int = 5) -> float:
    gc.collect()
    gc.disable()
    try:
        out = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            f()
            out = min(out, time.perf_counter() - start)
        return out
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    text = synthetic_trf(args.players, args.rounds)
    data = text.encode()
    parsed = trf.parse(data)
    assert not parsed.errors, parsed.errors[:3]
    t_read = best(lambda: trf.parse(data, checks=False))
    t_parse = best(lambda: trf.parse(data))
    t_report = best(lambda: report(trf.parse(data)), repeat=3)
    print(f"{args.players} players, {args.rounds} rounds, {len(data) / 1e6:.1f} MB")
    print(f"fide-rating parse (the records)        {t_read * 1000:8.1f} ms")
    print(f"fide-rating parse (with every check)   {t_parse * 1000:8.1f} ms")
    print(f"fide-rating parse + rating report      {t_report * 1000:8.1f} ms")
    try:
        import trf as pypi_trf
    except ImportError:
        print('the trf package is not installed (pip install ".[bench]"): no comparison')
        return
    t_other = best(lambda: pypi_trf.loads(text))
    print(f"trf 1.1.1 (PyPI) loads                 {t_other * 1000:8.1f} ms")
    print(f"ratio: fide-rating reads {t_other / t_read:.1f}x as fast; with its checks (which "
          f"trf does not make) {t_other / t_parse:.1f}x")  # fmt: skip
    total = sum((p.points or Fraction(0) for p in parsed.players.values()), Fraction(0))
    print(f"(checked: {len(parsed.players)} players, {float(total):g} points in all)")


if __name__ == "__main__":
    main()
