"""``fide-rating import-trf``: a TRF into the Swiss or round-robin template (the workbook:
:mod:`fide_rating.formats.crosstable_write`; what a row takes from a list:
:mod:`fide_rating.events.lists`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..events.event import edition_at_start, rating_type
from ..events.lists import Applied, apply_list, row_values
from ..files import atomic
from ..formats.crosstable import NO_NAME, renumbering
from ..formats.crosstable_write import to_workbook
from ..rules.errors import FideInputError
from .console import (
    FORCE,
    Commands,
    command,
    list_options,
    output,
    read_shown,
    say,
    shown,
    start_option,
)
from .lists import open_list


def register(sub: Commands) -> None:
    p = command(
        sub,
        "import-trf",
        "The players, results and event of a TRF in a crosstable workbook; the file's "
        "own lines are kept on a hidden sheet, so export-trf gives them back.",
        ["event.trf", "event.trf -o event.xlsx"],
    )
    p.add_argument("trf", help="the tournament report file (TRF-16 or TRF-2026)")
    p.add_argument("-o", "--output", help="the workbook (default: the TRF's name with .xlsx)")
    start_option(p)
    list_options(p, from_file=True)
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    source = Path(args.trf)
    out = output(Path(args.output or source.with_suffix(".xlsx").name), args, source,
                 suffixes=(".xlsx",))  # fmt: skip
    if source.suffix.lower() in (".xlsx", ".xlsm"):
        raise FideInputError(
            f"expected a TRF to make a workbook of, got the workbook {shown(source)}: it is one "
            "already (export-trf writes a workbook's TRF)"
        )
    event = read_shown(source, args.start)
    t = event.tournament
    misread = [p for p in t.players.values() if p.misread]
    if misread:  # a value read from the wrong columns would become a figure in the workbook
        raise FideInputError(
            f"{shown(source)}: nothing written: {len(misread)} player line(s) do not sit in "
            f"their columns ({', '.join(p.misread.partition(' does not')[0] for p in misread[:5])}"
            f"{' ...' if len(misread) > 5 else ''}): correct the file first"
        )
    if t.broken:  # a game the two records disagree on would count for one of them
        rounds = sorted({why for why in t.broken.values() if "does not" in why or "result" in why})
        raise FideInputError(
            f"{shown(source)}: nothing written: {len(t.broken)} game(s) where the two players' "
            f"records disagree ({'; '.join(rounds[:3])}{' ...' if len(rounds) > 3 else ''}): "
            "correct the file first"
        )
    kind, why = rating_type(event, args.rating_type)
    applied: Applied | None = None
    if args.list:
        with open_list(args.list, kind) as listed:
            applied = apply_list(t, listed, kind, edition_at_start(t, kind))
    values = {n: row_values(f) for n, f in applied.players.items()} if applied else None
    wb = to_workbook(t, values, kind)
    if applied is not None:
        for line in applied.summary(shown(args.list), t):
            say(line)
    with atomic(out) as stream:
        wb.save(stream)
    say(f"wrote {shown(out)}: {len(t.players)} players, {t.rounds} rounds"
        + (f" ({len(t.errors)} problem(s) in the file, above)" if t.errors else ""))  # fmt: skip
    say(f"rating type: {kind} ({why})")
    to = renumbering(list(t.players))
    if to is not None:
        gaps = ", ".join(str(n) for n in list(to)[:5]) + (" ..." if len(to) > 5 else "")
        say(f"starting ranks {gaps} are numbered 1 to {len(to)} in the workbook (the templates "
            "number their rows); export-trf writes the file's own back")  # fmt: skip
    unnamed = [n for n, p in sorted(t.players.items()) if not p.name]
    if unnamed:
        numbers = ", ".join(map(str, unnamed[:10])) + (" ..." if len(unnamed) > 10 else "")
        say(f"{len(unnamed)} player(s) have no name in the TRF (No {numbers}): the workbook names "
            f"them {NO_NAME!r} so that their rows count; export-trf writes them blank again",
            err=True)  # fmt: skip
    return 1 if t.errors else 0
