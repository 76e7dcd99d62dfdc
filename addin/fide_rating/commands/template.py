"""``fide-rating template``: write a crosstable template (the templates: :mod:`.templates`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..rules.errors import FideInputError
from .console import FORCE, Commands, command, output, say, shown


def register(sub: Commands) -> None:
    p = command(
        sub,
        "template",
        "A workbook whose formulas compute every FIDE figure: fill in the event, the "
        "players and the results. A round robin's rounds follow from the players (with an "
        "odd number, as many rounds as players: each sits one round out, the bye, which is "
        "not entered). --xlsm makes the macro workbook for classic xlwings (Excel on "
        "Windows) from xlwings' own standalone workbook: it needs xlwings installed.",
        [
            "swiss --players 150 --rounds 9 -o open.xlsx",
            "rr --players 10 -o rr.xlsx",
            "rr --players 9 -o rr-9.xlsx",
            "drr --players 6 --ods",
            "rr --players 10 --xlsm -o rr-10.xlsm",
            "--all -o templates --force",
            "--all --xlsm -o release/xlwings-classic --force",
        ],
    )
    p.add_argument(
        "system",
        nargs="?",
        choices=("swiss", "rr", "drr"),
        help="swiss, rr (round robin) or drr (double round robin)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=10,
        help="the number of players: a round robin 3 to 30, a Swiss 2 to 500 (default 10)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="a Swiss's number of rounds, 1 to 15 (needed for a Swiss; a round robin's follow "
        "from its players)",
    )
    p.add_argument(
        "-o",
        "--output",
        help="the .xlsx (or .xlsm) file (default: the template's name in this folder, such as "
        "rr-10.xlsx or swiss-150x9.xlsx); with --all: the folder (default: templates)",
    )
    p.add_argument("--all", action="store_true", help="every shipped template into a folder")
    p.add_argument("--ods", action="store_true", help="also save .ods copies with LibreOffice")
    p.add_argument(
        "--xlsm",
        action="store_true",
        help="a macro workbook (.xlsm) for classic xlwings instead of the .xlsx",
    )
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from ..cells.calc.office import OfficeError

    try:
        return _main(args)
    except OfficeError as error:  # LibreOffice missing, or failing: said, not a traceback
        raise FideInputError(str(error)) from None


def _main(args: argparse.Namespace) -> int:
    from ..cells.calc.ods import to_ods
    from ..formats import templates

    if args.xlsm and args.ods:
        raise FideInputError("expected --xlsm or --ods, got: both")
    if args.all:
        folder = Path(args.output or "templates")
        if folder.exists() and not folder.is_dir():
            raise FideInputError(f"expected a folder for --all, got the file: {shown(folder)}")
        if args.xlsm:
            from ..formats import xlsm

            for spec in templates.SHIPPED:
                output(folder / f"{spec.name}.xlsm", args)
            for path in xlsm.write_all(folder):
                say(f"wrote {shown(path)}")
            return 0
        for spec in templates.SHIPPED:
            output(folder / f"{spec.name}.xlsx", args)
            if args.ods:
                output(folder / f"{spec.name}.ods", args)
        written = templates.write_all(folder)
        for path in written:
            say(f"wrote {shown(path)}")
        if args.ods:
            for path in to_ods(written):
                say(f"wrote {shown(path)}")
        return 0
    if args.system is None:
        raise FideInputError("expected a system (swiss, rr or drr) or --all, got: nothing")
    if args.system == "swiss" and args.rounds is None:
        raise FideInputError("a Swiss template needs its number of rounds: add --rounds N")
    if args.system != "swiss" and args.rounds is not None:
        raise FideInputError(
            f"a round robin's rounds follow from the players ({args.players} players: "
            f"{args.players - 1 if args.players % 2 == 0 else args.players} rounds"
            f"{', twice' if args.system == 'drr' else ''}): leave out --rounds, got: {args.rounds}"
        )
    try:
        spec = templates.spec_for(args.system, args.players, args.rounds)
    except ValueError as error:
        raise FideInputError(str(error)) from None
    if args.xlsm:
        from ..formats import xlsm

        path = output(Path(args.output or f"{spec.name}.xlsm"), args, suffixes=(".xlsm",))
        say(f"wrote {shown(xlsm.write(spec, path))}")
        return 0
    path = output(Path(args.output or f"{spec.name}.xlsx"), args, suffixes=(".xlsx",))
    if args.ods:
        output(path.with_suffix(".ods"), args)
    templates.write(spec, path)
    say(f"wrote {shown(path)}")
    if args.ods:
        for ods in to_ods([path]):
            say(f"wrote {shown(ods)}")
    return 0
