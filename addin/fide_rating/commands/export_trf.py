"""``fide-rating export-trf``: a crosstable workbook back into a TRF (the workbook's reading:
:mod:`fide_rating.formats.crosstable`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..rules.errors import FideInputError
from .console import FORCE, Commands, command, output, say, shown


def register(sub: Commands) -> None:
    p = command(
        sub,
        "export-trf",
        "The players and results of a workbook made from a template (or by import-trf) "
        "as a tournament report file, in FIDE's format of today, TRF-2026 (the number of "
        "rounds, record 142, and the time control encoded, 222, added where the file has "
        "none; the dates as YYYY/MM/DD), or TRF-16 on request. The lines of the TRF the "
        "workbook was made from are written back as they were.",
        ["event.xlsx", "event.xlsx -o event.trf", "event.xlsx --format trf16"],
    )
    p.add_argument("workbook", help="the crosstable workbook (.xlsx)")
    p.add_argument("-o", "--output", help="the TRF file (default: the workbook's name with .trf)")
    p.add_argument(
        "--format",
        choices=("trf26", "trf16"),
        default="trf26",
        help="TRF-2026 (default), or TRF-16 for a program that reads only that: without "
        "TRF-2026's own records, the byes of record 240 in the player records",
    )
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from ..events.event import rating_type
    from ..formats.crosstable import GAMES_BEFORE_UNKNOWN, lost_players, read_crosstable
    from ..formats.trf import write_file
    from ..formats.trf_write import as_trf16, as_trf26, no_time_control

    source = Path(args.workbook)
    if source.suffix.lower() in (".trf", ".txt"):
        raise FideInputError(
            f"expected a crosstable workbook (.xlsx) to write a TRF of, got the TRF "
            f"{shown(source)}: import-trf makes a workbook of a TRF"
        )
    out = output(Path(args.output or source.with_suffix(".trf").name), args, source)
    t, known, written = read_crosstable(source)
    if not t.players:
        raise FideInputError(
            f"expected players in the workbook (rows with a name on the Players sheet), got "
            f"none: {shown(source)}"
        )
    status = 0
    missing = lost_players(source, t)
    if missing:
        say(
            f"warning: {len(missing)} player(s) of the TRF the workbook was made from are not in "
            f"it (their rows have no name) and are not written: "
            + ", ".join(f"{p.number} {shown(p.name or 'no name')}" for p in missing[:10])
            + (" ..." if len(missing) > 10 else ""),
            err=True,
        )
        status = 1
    if args.format == "trf16":
        t, notes = as_trf16(t)
        what = "TRF-16" + (f"; left out: {', '.join(notes)}" if notes else "")
    else:
        no_222 = no_time_control(t)
        if no_222 is not None:  # said, never left out without a word
            say(f"warning: {no_222}; give the Event sheet's time control (B12) as programs "
                "write it, such as 90/40+30+30s", err=True)  # fmt: skip
        t, notes = as_trf26(t)
        what = "TRF-2026" + (f"; added: {', '.join(notes)}" if notes else "")
    write_file(t, out)
    say(f"wrote {shown(out)}: {len(t.players)} players, {t.rounds} rounds ({what})")
    wanted = written.lower()
    if args.format == "trf26" and wanted in ("rapid", "blitz"):
        kind, why = rating_type(t)
        if kind != wanted:
            say(f"warning: the workbook's rating type is {wanted}, but the TRF's is {kind} "
                f"({why}): report it with --rating-type {wanted}", err=True)  # fmt: skip
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
    return status
