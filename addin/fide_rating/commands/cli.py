"""``fide-rating``: the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from .. import __version__
from ..cells.coerce import edition_arg, games, rating, whole
from ..files import atomic, write_text
from ..rules.change import event
from ..rules.editions import EDITIONS
from ..rules.errors import FideInputError
from ..rules.initial import UnratedEvent, initial_rating
from ..rules.rounding import fide_round


def _fmt(x: Fraction, places: int = 2) -> str:
    """A fixed-point figure as FIDE prints it (exact: the values are whole hundredths)."""
    scaled = x * 10**places
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled.numerator // scaled.denominator), 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def _split(text: str) -> list[object]:
    return [t.strip() for t in text.split(",")]


def _event(args: argparse.Namespace) -> int:
    ed, _ = edition_arg(args.edition)
    opponents, results = games(_split(args.opponents), _split(args.results), results_given=True)
    calc = event(
        rating("rating", args.rating),
        opponents,
        results,
        whole("k", args.k, 1, 100, "K, a whole number from 1 to 100"),
        ed,
    )
    print(f"Edition {ed.name} ({ed.source})")
    print(f"{'Rc':>8} {'Ro':>6} {'w':>6} {'n':>3} {'chg':>7} {'K':>3} {'K*chg':>8}")
    rc = "" if calc.rc is None else str(fide_round(calc.rc))
    print(
        f"{rc:>8} {calc.rating:>6} {_fmt(calc.w):>6} {calc.n:>3} {_fmt(calc.chg):>7} "
        f"{calc.k:>3} {_fmt(calc.k_chg):>8}"
    )
    for g in calc.games:
        star = "*" if g.capped else " "
        print(
            f"{g.used:>7}{star} {g.opponent:>6} {_fmt(g.w):>6} {1:>3} {_fmt(g.chg):>7} "
            f"{calc.k:>3} {_fmt(calc.k * g.chg):>8}"
        )
    if any(g.capped for g in calc.games):
        print(f"* rating difference of more than {ed.cap}: the opponent counted at the cap")
    print(f"We = {_fmt(calc.we)}, K x chg = {_fmt(calc.k_chg)}")
    return 0


def _initial(args: argparse.Namespace) -> int:
    ed, day = edition_arg(args.edition)
    opponents, results = games(_split(args.opponents), _split(args.results), results_given=True)
    found = initial_rating(
        UnratedEvent(opponents=opponents, scores=results, start=day, round_robin=args.round_robin),
        ed,
    )
    print(f"Edition {ed.name}: {found}")
    return 0


def _editions(_: argparse.Namespace) -> int:
    for e in EDITIONS:
        print(f"{e.name}  in force from {e.effective.isoformat()}  cap {e.cap}  {e.source}")
    return 0


def _build_oxt(args: argparse.Namespace) -> int:
    from ..cells.calc.build import main as build_main

    return build_main(["-o", args.output])


def _template(args: argparse.Namespace) -> int:
    from . import templates

    if args.all:
        folder = Path(args.output or "templates")
        written = templates.write_all(folder)
        for path in written:
            print(f"wrote {path}")
        if args.ods:
            for path in templates.to_ods(written):
                print(f"wrote {path}")
        return 0
    if args.system is None:
        raise FideInputError("expected a system (swiss, rr or drr) or --all, got: nothing")
    try:
        spec = templates.spec_for(args.system, args.players, args.rounds)
    except ValueError as error:
        raise FideInputError(str(error)) from None
    path = templates.write(spec, Path(args.output or f"{spec.name}.xlsx"))
    print(f"wrote {path}")
    if args.ods:
        for ods in templates.to_ods([path]):
            print(f"wrote {ods}")
    return 0


class Progress:
    """A one-line progress bar on a terminal; silent when the output is not one."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.live = stream.isatty() and total > 1
        self.done = 0

    def show(self, label: str) -> None:
        if self.live:
            width = 30
            filled = width * self.done // self.total
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label[:40]:<40}")
            self.stream.flush()

    def step(self) -> None:
        self.done += 1

    def clear(self) -> None:
        if self.live:
            self.stream.write("\r" + " " * 90 + "\r")
            self.stream.flush()


SUMMARY = ("No", "Name", "Ro", "K", "Pts", "n", "Rc", "W", "We", "K*chg", "Initial", "New")


def _cell_text(value: object, column: str = "") -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if column in ("We", "K*chg", "W-We"):
            return _fmt(Fraction(repr(value)))
        if column == "Rc":
            return str(fide_round(Fraction(repr(value))))
        return str(int(value)) if value.is_integer() else f"{value:g}"
    return str(value)


def _recalc(args: argparse.Namespace) -> int:
    from ..engine.package import WorkbookError
    from ..engine.recalc import Recalculated, iter_sources, recalc_file

    sources = iter_sources(args.paths)
    if not sources:
        raise FideInputError("expected workbooks to recalculate, got: no file")
    out_dir = Path(args.output) if args.output else None
    progress = Progress(len(sources), sys.stderr)
    done: list[Recalculated] = []
    failed = 0
    for source in sources:
        progress.show(source.name)
        try:
            outcome = recalc_file(source, out_dir=out_dir, in_place=args.in_place)
        except (WorkbookError, OSError) as error:
            failed += 1
            progress.clear()
            print(f"FAILED {source}: {error}", file=sys.stderr)
            progress.step()
            continue
        progress.step()
        progress.clear()
        done.append(outcome)
        left = len(outcome.problems)
        print(
            f"ok     {source} -> {outcome.output}: {outcome.computed} of {outcome.formulas} "
            f"formulas computed, {outcome.changed} changed"
            + (f", {left} left as they were" if left else "")
        )
        for problem in outcome.problems[:20]:
            print(f"       {problem}")
        if left > 20:
            print(f"       ... and {left - 20} more")
    progress.clear()
    rows = [(o.source, p) for o in done for p in o.players]
    if rows and not args.quiet:
        _print_table(rows)
    if args.csv:
        _write_csv(Path(args.csv), rows)
    print(f"{len(done)} recalculated, {failed} failed")
    return 1 if failed else 0


def _print_table(rows: Sequence[tuple[Path, Mapping[str, object]]]) -> None:
    """The players of every workbook, one line each; why a player gets no initial rating is
    printed in full at the end of the line (the CSV keeps it in the Initial column)."""

    def shown(player: Mapping[str, object], k: str) -> str:
        text = _cell_text(player.get(k), k)
        if k == "Initial" and text and not text.lstrip("-").replace(".", "").isdigit():
            return "-"  # a reason, not a rating: printed after the columns
        return text

    widths = {k: max(len(k), *(len(shown(p, k)) for _, p in rows)) for k in SUMMARY}
    widths["Name"] = min(widths["Name"], 28)
    current = None
    for source, player in rows:
        if source != current:
            current = source
            print(f"\n{source.name}")
            print(
                "  ".join(
                    k.rjust(widths[k]) if k != "Name" else k.ljust(widths[k]) for k in SUMMARY
                )
            )
        cells = []
        for k in SUMMARY:
            text = shown(player, k)[: widths[k]]
            cells.append(text.ljust(widths[k]) if k == "Name" else text.rjust(widths[k]))
        initial = _cell_text(player.get("Initial"), "Initial")
        if shown(player, "Initial") == "-":
            cells.append(initial)
        print("  ".join(cells).rstrip())
    print()


def _write_csv(path: Path, rows: Sequence[tuple[Path, Mapping[str, object]]]) -> None:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(("File", *SUMMARY))
    for source, player in rows:
        writer.writerow((source.name, *(_cell_text(player.get(k), k) for k in SUMMARY)))
    _atomic_text(path, buffer.getvalue())
    print(f"wrote {path}")


def _atomic_text(path: Path, text: str) -> None:
    write_text(path, text)


def _report(args: argparse.Namespace) -> int:
    from ..formats.trf import read
    from .report import GAMES_BEFORE_UNKNOWN, report

    t = read(Path(args.trf))
    for error in t.errors[:50]:
        print(f"{args.trf}: {error}", file=sys.stderr)
    if len(t.errors) > 50:
        print(f"{args.trf}: ... and {len(t.errors) - 50} more problems", file=sys.stderr)
    ed = edition_arg(args.edition)[0] if args.edition else None
    lines = report(t, ed)
    used = ed or edition_arg(t.start)[0] if t.start else ed
    head = ("No", "FIDE ID", "Name", "Ro", "Rc", "W", "N", "We", "chg", "K", "K*chg", "Ru")
    rows = []
    for x in sorted(lines, key=lambda x: x.player.number):
        p = x.player
        c = x.calc
        rows.append((
            str(p.number), p.fide_id, p.name, "" if p.rating is None else str(p.rating),
            "" if x.rc is None else str(fide_round(x.rc)),
            "" if c is None else _fmt(c.w, 1), "" if c is None else str(c.n),
            "" if c is None else _fmt(c.we), "" if c is None else _fmt(c.chg),
            "" if x.k is None else str(x.k), "" if c is None else _fmt(c.k_chg),
            x.initial or x.note or "",
        ))  # fmt: skip
    print(f"{t.name or args.trf}: {len(lines)} players, edition {used}")
    print(f"K computed from the file's facts; rated games before the event taken as "
          f"{GAMES_BEFORE_UNKNOWN} or more (a TRF does not carry them)")  # fmt: skip
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)
    ]
    widths[2] = min(widths[2], 28)
    print(
        "  ".join(
            h.ljust(w) if i == 2 else h.rjust(w)
            for i, (h, w) in enumerate(zip(head, widths, strict=True))
        )
    )
    for r in rows:
        print(
            "  ".join(
                v[:w].ljust(w) if i == 2 else v.rjust(w)
                for i, (v, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    if args.csv:
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(head)
        writer.writerows(rows)
        _atomic_text(Path(args.csv), buffer.getvalue())
        print(f"wrote {args.csv}")
    return 1 if t.errors else 0


def _import_trf(args: argparse.Namespace) -> int:
    from ..formats.trf import read
    from .convert import to_workbook

    t = read(Path(args.trf))
    for error in t.errors:
        print(f"{args.trf}: {error}", file=sys.stderr)
    wb = to_workbook(t)
    out = Path(args.output or Path(args.trf).with_suffix(".xlsx").name)
    with atomic(out) as stream:
        wb.save(stream)
    print(f"wrote {out}: {len(t.players)} players, {t.rounds} rounds")
    return 0


def _export_trf(args: argparse.Namespace) -> int:
    from ..formats.trf import write_file
    from .convert import from_workbook

    t = from_workbook(Path(args.workbook))
    out = write_file(t, Path(args.output or Path(args.workbook).with_suffix(".trf").name))
    print(f"wrote {out}: {len(t.players)} players")
    return 0


def _period(args: argparse.Namespace) -> int:
    from .period import PeriodError, run

    try:
        results, out = run(Path(args.list), [Path(p) for p in args.events], Path(args.output))
    except PeriodError as error:
        for problem in error.problems:
            print(f"fide-rating period: {problem}", file=sys.stderr)
        print(
            f"fide-rating period: nothing written ({len(error.problems)} problem(s))",
            file=sys.stderr,
        )
        return 1
    rated = sum(1 for r in results if r.change is not None)
    first = sum(1 for r in results if r.note.startswith("first rating"))
    pending = sum(1 for r in results if r.initial is not None and r.initial.rating is None)
    print(f"wrote {out}: {len(results)} players, {rated} rated changes, {first} first ratings, "
          f"{pending} unrated with results pending")  # fmt: skip
    return 0


def _build_lite(args: argparse.Namespace) -> int:
    from ..cells.lite import write

    print(f"wrote {write(Path(args.output))}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fide-rating", description="FIDE rating calculations")
    parser.add_argument("--version", action="version", version=f"fide-rating {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("event", help="a rated player's event, as FIDE's calculation page")
    p.add_argument("rating")
    p.add_argument("--opponents", required=True, help="ratings, comma separated (0 = unrated)")
    p.add_argument("--results", required=True, help="1, 0.5 (or =), 0, + or -, comma separated")
    p.add_argument("-k", required=True, help="K factor")
    p.add_argument("--edition", help="edition name or tournament start date (YYYY-MM-DD)")
    p.set_defaults(run=_event)
    p = sub.add_parser("initial", help="an unrated player's initial rating from one event")
    p.add_argument("--opponents", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--edition")
    p.add_argument("--round-robin", action="store_true")
    p.set_defaults(run=_initial)
    p = sub.add_parser("editions", help="list the editions of the regulations")
    p.set_defaults(run=_editions)
    p = sub.add_parser("template", help="write a crosstable template (.xlsx)")
    p.add_argument("system", nargs="?", choices=("swiss", "rr", "drr"),
                   help="swiss, rr (round robin) or drr (double round robin)")  # fmt: skip
    p.add_argument("--players", type=int, default=10)
    p.add_argument("--rounds", type=int, default=None, help="Swiss: the number of rounds")
    p.add_argument("-o", "--output", help="the file (or, with --all, the folder)")
    p.add_argument("--all", action="store_true", help="every shipped template into a folder")
    p.add_argument("--ods", action="store_true", help="also save .ods copies with LibreOffice")
    p.set_defaults(run=_template)
    p = sub.add_parser(
        "recalc",
        help="recompute workbooks headless: formulas kept, values filled in",
        description="Recompute every formula of each workbook (FIDE functions included) and "
        "write it with the values filled in, next to the input as NAME.recalc.xlsx, into -o "
        "DIR, or over the input with --in-place. Exit status 1 when a file failed.",
    )
    p.add_argument("paths", nargs="+", help="workbooks, folders or glob patterns")
    p.add_argument("-o", "--output", help="write the results into this folder")
    p.add_argument("--in-place", action="store_true", help="overwrite the inputs (atomically)")
    p.add_argument("--csv", help="also write every player's figures to this CSV file")
    p.add_argument("-q", "--quiet", action="store_true", help="no player table on the console")
    p.set_defaults(run=_recalc)
    p = sub.add_parser("report", help="FIDE's rating report of an event from its TRF")
    p.add_argument("trf")
    p.add_argument("--edition", help="edition name or date (default: the event's start date)")
    p.add_argument("--csv", help="also write the report to this CSV file")
    p.set_defaults(run=_report)
    p = sub.add_parser("import-trf", help="a TRF into the Swiss or round-robin template")
    p.add_argument("trf")
    p.add_argument("-o", "--output", help="the workbook (.xlsx)")
    p.set_defaults(run=_import_trf)
    p = sub.add_parser("export-trf", help="a crosstable workbook back into a TRF")
    p.add_argument("workbook")
    p.add_argument("-o", "--output", help="the TRF file")
    p.set_defaults(run=_export_trf)
    p = sub.add_parser(
        "period", help="a rating period: the list and the period's events to the next list"
    )
    p.add_argument("list", help="the rating list workbook (templates/rating-list.xlsx)")
    p.add_argument("events", nargs="+", help="the period's events: TRF files or workbooks")
    p.add_argument("-o", "--output", required=True, help="the next list (.xlsx)")
    p.set_defaults(run=_period)
    p = sub.add_parser("build-lite", help="one main.py with the functions for xlwings Lite")
    p.add_argument("-o", "--output", default="dist/main.py")
    p.set_defaults(run=_build_lite)
    p = sub.add_parser("build-oxt", help="build the LibreOffice Calc add-in (.oxt)")
    p.add_argument("-o", "--output", default="dist/fide-rating.oxt")
    p.set_defaults(run=_build_oxt)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except FideInputError as error:
        print(f"fide-rating: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a file that cannot be read or written: say which and why
        if isinstance(error, BrokenPipeError):
            sys.stderr.close()
            return 0
        where = f"{error.filename}: " if error.filename else ""
        print(f"fide-rating: {where}{error.strerror or error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the output was cut short (| head): not an error
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
