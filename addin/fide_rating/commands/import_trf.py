"""``fide-rating import-trf``: a TRF into the Swiss or round-robin template (the conversion:
:mod:`.convert`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..files import atomic
from ..rules.errors import FideInputError
from .console import FORCE, Commands, command, list_options, output, problems, say, shown
from .lists import open_list
from .report import check_list, list_summary


def register(sub: Commands) -> None:
    p = command(
        sub,
        "import-trf",
        "a TRF into the Swiss or round-robin template",
        "The players, results and event of a TRF in a crosstable workbook; the file's "
        "own lines are kept on a hidden sheet, so export-trf gives them back.",
        ["event.trf", "event.trf -o event.xlsx"],
    )
    p.add_argument("trf", help="the tournament report file (TRF-16)")
    p.add_argument("-o", "--output", help="the workbook (default: the TRF's name with .xlsx)")
    list_options(p)
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from ..formats.trf import read
    from .convert import to_workbook

    source = Path(args.trf)
    out = output(Path(args.output or source.with_suffix(".xlsx").name), args, source,
                 suffixes=(".xlsx",))  # fmt: skip
    t = read(source)
    problems(args.trf, t.errors)
    problems(args.trf, t.warnings, kind="warning")
    if not t.players:
        raise FideInputError(
            f"expected player records (001) in the TRF, got: none ({shown(args.trf)})"
        )
    listed = open_list(args.list, args.rating_type) if args.list else None
    try:
        wb = to_workbook(t, listed, args.rating_type)
        if listed is not None:
            list_summary(args.list, args.rating_type, check_list(t, listed, args.rating_type),
                         len(t.players))  # fmt: skip
    finally:
        if listed is not None:
            listed.close()
    with atomic(out) as stream:
        wb.save(stream)
    say(f"wrote {shown(out)}: {len(t.players)} players, {t.rounds} rounds"
        + (f" ({len(t.errors)} problem(s) in the file, above)" if t.errors else ""))  # fmt: skip
    return 1 if t.errors else 0
