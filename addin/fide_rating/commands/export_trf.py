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
    from .convert import from_workbook

    source = Path(args.workbook)
    out = output(Path(args.output or source.with_suffix(".trf").name), args, source)
    t = from_workbook(source)
    write_file(t, out)
    say(f"wrote {shown(out)}: {len(t.players)} players")
    return 0
