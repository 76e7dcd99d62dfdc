"""``fide-rating export-trf``: a crosstable workbook back into a TRF (the conversion:
:mod:`.convert`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import FORCE, Commands, command, output, say, shown


def register(sub: Commands) -> None:
    p = command(
        sub,
        "export-trf",
        "a crosstable workbook back into a TRF",
        "The players and results of a workbook made from a template (or by import-trf) "
        "as a tournament report file.",
        ["event.xlsx", "event.xlsx -o event.trf"],
    )
    p.add_argument("workbook", help="the crosstable workbook (.xlsx)")
    p.add_argument("-o", "--output", help="the TRF file (default: the workbook's name with .trf)")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from ..formats.trf import write_file
    from .convert import crosstable
    from .report import GAMES_BEFORE_UNKNOWN

    source = Path(args.workbook)
    out = output(Path(args.output or source.with_suffix(".trf").name), args, source)
    t, known = crosstable(source)
    write_file(t, out)
    say(f"wrote {shown(out)}: {len(t.players)} players")
    # what K depends on and a TRF has no field for: said where it is lost
    lost = sorted(
        n for n, k in known.items()
        if k.k is not None or k.games_before < GAMES_BEFORE_UNKNOWN or k.reached_2400
    )  # fmt: skip
    if lost:
        say(
            f"warning: the K of {len(lost)} player(s) (No {', '.join(map(str, lost[:10]))}"
            f"{' ...' if len(lost) > 10 else ''}) rests on the workbook's Games, 2400 or K "
            "list, which a TRF has no field for: a report of the TRF assumes "
            f"{GAMES_BEFORE_UNKNOWN} games or more; report the workbook itself, or give the "
            "report --list",
            err=True,
        )
    return 0
