"""``fide-rating recalc``: workbooks recomputed headless (the engine: :mod:`fide_rating.engine`),
each player's figures printed and, asked for, written to a CSV file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from pathlib import Path

from ..rules.errors import FideInputError
from ..rules.rounding import fide_round
from .console import (
    FORCE,
    Commands,
    Progress,
    command,
    fmt,
    list_options,
    output,
    say,
    shown,
    write_csv,
)
from .lists import list_constants, open_list


def register(sub: Commands) -> None:
    p = command(
        sub,
        "recalc",
        "Every formula of each workbook (FIDE functions included) is computed and the "
        "workbook written with the values filled in: next to the input as "
        "NAME.recalc.xlsx, into the folder -o DIR (or the file -o NAME.xlsx for one "
        "input), or over the input with --in-place. Nothing else in the workbook "
        "changes. Goes on past a bad file; exit status 1 when a file failed.",
        ["event.xlsx", "events/ -o out/ --csv out/players.csv", "event.xlsx --in-place"],
    )
    p.add_argument("paths", nargs="+", help="workbooks, folders or glob patterns")
    p.add_argument(
        "-o",
        "--output",
        help="where the recalculated workbooks go: a name ending in .xlsx or .xlsm is the one "
        "output file of one input; any other name is a folder (made if missing) that gets each "
        "input's name (default: NAME.recalc.xlsx beside each input)",
    )
    p.add_argument("--in-place", action="store_true", help="overwrite the inputs (atomically)")
    p.add_argument(
        "--csv",
        help="also write every player's figures, of every workbook, to this one CSV file (a "
        "column names the workbook)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no player table on the console")
    list_options(p, what="; a template's players by FIDE ID", from_workbook=True)
    p.add_argument(
        "--udfs",
        action="append",
        metavar="FILE.py",
        help="a Python module whose xlwings functions (@xw.func) the workbooks call: imported "
        "(its code runs) and its functions computed as classic xlwings does in Excel; repeat "
        "for more modules. Only the modules named are imported",
    )
    p.add_argument(
        "--as-of",
        metavar="DATE",
        help="TODAY() and NOW() give this date (2026-06-30, NOW at midnight) or date and time "
        "(2026-06-30 14:00), not the computer's clock: a workbook's ages and deadlines as of "
        "the event, the same figures every time",
    )
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def as_of(text: str) -> datetime:
    """The moment --as-of names: a date, or a date and a time (local, no time zone)."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is not None or not 1900 <= moment.year <= 9999:
        raise FideInputError(
            "--as-of expects a date (2026-06-30) or a date and time (2026-06-30 14:00) from "
            f"1900 to 9999, without a time zone, got: {text!r}"
        )
    return moment


SUMMARY = ("No", "Name", "Ro", "K", "Pts", "n", "Rc/Ra", "W", "We", "K*chg", "Initial", "New")


def cell_text(value: object, column: str = "") -> str:
    """A figure of the player table as printed (and as the CSV holds it)."""
    if value is None:
        return ""
    if isinstance(value, float):
        if column in ("We", "K*chg", "W-We"):
            return fmt(Fraction(repr(value)))
        if column == "Rc/Ra":
            return str(fide_round(Fraction(repr(value))))
        return str(int(value)) if value.is_integer() else f"{value:g}"
    return str(value)


def main(args: argparse.Namespace) -> int:
    from ..engine.batch import Failure, recalc_files
    from ..engine.recalc import Recalculated, iter_sources

    sources = iter_sources(args.paths)
    if not sources:
        raise FideInputError("expected workbooks to recalculate, got: no file")
    moment = as_of(args.as_of) if args.as_of is not None else None
    out_dir = out_file = None
    if args.output and args.in_place:
        raise FideInputError("either -o or --in-place, not both")
    if args.output and Path(args.output).suffix.lower() in (".xlsx", ".xlsm"):
        if len(sources) != 1:
            raise FideInputError(
                f"-o names one workbook but there are {len(sources)} inputs: give a folder"
            )
        out_file = Path(args.output)  # one workbook into a file of that name
    elif args.output:
        out_dir = Path(args.output)
        if out_dir.suffix.lower() in (".csv", ".txt", ".ods", ".xls", ".trf"):
            raise FideInputError(
                f"-o names the recalculated workbook (.xlsx) or a folder for them, got "
                f"{shown(out_dir)}: the players' figures go to a CSV file with --csv"
            )
        if out_dir.exists() and not out_dir.is_dir():
            raise FideInputError(f"expected a folder for -o, got the file: {shown(out_dir)}")
    if args.csv:
        output(Path(args.csv), args, *sources, suffixes=(".csv",))
    udfs = None
    if args.udfs:
        from ..engine.udfs import load

        udfs = load([Path(name) for name in args.udfs])
    listed = open_list(args.list, args.rating_type) if args.list else None
    constants = None
    if listed is not None:
        # the type asked for; else a rating-list workbook's own; else each workbook's
        constants = list_constants(listed, args.rating_type or getattr(listed, "kind", None))
    progress = Progress(len(sources), sys.stderr)
    done: list[Recalculated] = []
    failed = 0
    progress.show(sources[0].name)
    batch = recalc_files(sources, out_dir=out_dir, in_place=args.in_place, output=out_file,
                         force=args.force, constants=constants, udfs=udfs,
                         moment=moment)  # fmt: skip
    for source, outcome in batch:  # in the order given, computed on every processor
        if isinstance(outcome, Failure):  # one workbook fails, the batch goes on
            failed += 1
            progress.clear()
            say(f"FAILED {shown(source)}: {outcome.message}", err=True)
            progress.step()
            continue
        progress.step()
        progress.clear()
        done.append(outcome)
        left = len(outcome.problems)
        say(
            f"ok     {shown(source)} -> {shown(outcome.output)}: {outcome.computed} of "
            f"{outcome.formulas} formulas computed, {outcome.changed} changed"
            + (f", {left} left as they were" if left else "")
            + (f"; {outcome.set_cells} cells from the list" if listed is not None else "")
        )
        for problem in outcome.problems[:20]:
            say(f"       {problem}")
        if left > 20:
            say(f"       ... and {left - 20} more")
        for problem in outcome.raised[:20]:  # the cells show the error's text
            say(f"       {problem}")
        if len(outcome.raised) > 20:
            say(f"       ... and {len(outcome.raised) - 20} more functions raised")
    progress.clear()
    rows = [(o.source, p) for o in done for p in o.players]
    if args.csv and not done:
        say(f"no CSV written ({shown(args.csv)}): no workbook was recalculated", err=True)
    elif args.csv:
        _write_csv(Path(args.csv), rows)
    if rows and not args.quiet:
        _print_table(rows)
    if listed is not None:
        listed.close()
    say(f"{len(done)} recalculated, {failed} failed")
    # one convention for every command: 2 when nothing was done, 1 when some of it failed
    return 2 if failed and not done else 1 if failed else 0


def _print_table(rows: Sequence[tuple[Path, Mapping[str, object]]]) -> None:
    """The players of every workbook, one line each; why a player gets no initial rating is
    printed in full at the end of the line (the CSV keeps it in the Initial column)."""

    def cell(player: Mapping[str, object], k: str) -> str:
        text = cell_text(player.get(k), k)
        if k == "Initial" and text and not text.lstrip("-").replace(".", "").isdigit():
            return "-"  # a reason, not a rating: printed after the columns
        return text

    widths = {k: max(len(k), *(len(cell(p, k)) for _, p in rows)) for k in SUMMARY}
    widths["Name"] = min(widths["Name"], 28)
    current = None
    for source, player in rows:
        if source != current:
            current = source
            say()
            say(shown(source.name))
            say(
                "  ".join(
                    k.rjust(widths[k]) if k != "Name" else k.ljust(widths[k]) for k in SUMMARY
                )
            )
        cells = []
        for k in SUMMARY:
            text = cell(player, k)[: widths[k]]
            cells.append(text.ljust(widths[k]) if k == "Name" else text.rjust(widths[k]))
        initial = cell_text(player.get("Initial"), "Initial")
        if cell(player, "Initial") == "-":
            cells.append(initial)
        say("  ".join(cells).rstrip())
    say()


def _write_csv(path: Path, rows: Sequence[tuple[Path, Mapping[str, object]]]) -> None:
    write_csv(
        path,
        ("File", *SUMMARY),
        ((source.name, *(cell_text(player.get(k), k) for k in SUMMARY)) for source, player in rows),
    )
    say(f"wrote {shown(path)}")
