"""``fide-rating``: the command line."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .. import __version__
from ..cells.coerce import date_of, edition_arg, games, rating, whole
from ..files import atomic, write_text
from ..rules.change import event
from ..rules.editions import EDITIONS
from ..rules.errors import FideInputError
from ..rules.initial import UnratedEvent, initial_rating
from ..rules.rounding import fide_round

if TYPE_CHECKING:
    from ..formats.fidelist import FideList

from .report import ListCheck, check_list


def _fmt(x: Fraction, places: int = 2) -> str:
    """A fixed-point figure as FIDE prints it (exact: the values are whole hundredths)."""
    scaled = x * 10**places
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled.numerator // scaled.denominator), 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def _split(text: str) -> list[object]:
    return [t.strip() for t in text.split(",")]


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def output(
    path: Path, args: argparse.Namespace, *inputs: Path, suffixes: tuple[str, ...] = ()
) -> Path:
    """The file a command writes: never one of its inputs, an existing file only with --force,
    a file (not a folder) with the expected extension."""
    if path.is_dir() or str(path).endswith(("/", os.sep)):
        raise FideInputError(f"expected a file name for the output, got the folder: {path}")
    if suffixes and path.suffix.lower() not in suffixes:
        raise FideInputError(
            f"expected an output file ending in {' or '.join(suffixes)}, got: {path}"
        )
    for source in inputs:
        if _same(path, source):
            raise FideInputError(
                f"the output is this command's own input, choose another file: {path}"
            )
    if path.exists() and not getattr(args, "force", False):
        raise FideInputError(f"the output exists, add --force to replace it: {path}")
    return path


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

    output(Path(args.output), args, suffixes=(".oxt",))
    return build_main(["-o", args.output])


def _template(args: argparse.Namespace) -> int:
    from . import templates

    if args.all:
        folder = Path(args.output or "templates")
        if folder.exists() and not folder.is_dir():
            raise FideInputError(f"expected a folder for --all, got the file: {folder}")
        for spec in templates.SHIPPED:
            output(folder / f"{spec.name}.xlsx", args)
            if args.ods:
                output(folder / f"{spec.name}.ods", args)
        written = templates.write_all(folder)
        for path in written:
            print(f"wrote {path}")
        if args.ods:
            for path in templates.to_ods(written):
                print(f"wrote {path}")
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
    path = output(Path(args.output or f"{spec.name}.xlsx"), args, suffixes=(".xlsx",))
    if args.ods:
        output(path.with_suffix(".ods"), args)
    templates.write(spec, path)
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


SUMMARY = ("No", "Name", "Ro", "K", "Pts", "n", "Rc/Ra", "W", "We", "K*chg", "Initial", "New")


def _cell_text(value: object, column: str = "") -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if column in ("We", "K*chg", "W-We"):
            return _fmt(Fraction(repr(value)))
        if column == "Rc/Ra":
            return str(fide_round(Fraction(repr(value))))
        return str(int(value)) if value.is_integer() else f"{value:g}"
    return str(value)


def _recalc(args: argparse.Namespace) -> int:
    from ..engine.package import WorkbookError
    from ..engine.recalc import Recalculated, iter_sources, recalc_file

    sources = iter_sources(args.paths)
    if not sources:
        raise FideInputError("expected workbooks to recalculate, got: no file")
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
        if out_dir.exists() and not out_dir.is_dir():
            raise FideInputError(f"expected a folder for -o, got the file: {out_dir}")
    if args.csv:
        output(Path(args.csv), args, *sources, suffixes=(".csv",))
    listed = _open_list(args.list) if args.list else None
    constants = None
    if listed is not None:
        from .fill import list_constants

        constants = list_constants(listed, args.rating_type)
    progress = Progress(len(sources), sys.stderr)
    done: list[Recalculated] = []
    failed = 0
    for source in sources:
        progress.show(source.name)
        try:
            outcome = recalc_file(
                source,
                out_dir=out_dir,
                in_place=args.in_place,
                output=out_file,
                force=args.force,
                constants=constants,
            )
        except Exception as error:  # one workbook fails, the batch goes on
            failed += 1
            progress.clear()
            known = isinstance(error, WorkbookError | OSError)
            why = error if known else f"an internal error ({type(error).__name__}: {error})"
            print(f"FAILED {source}: {why}", file=sys.stderr)
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
            + (f"; {outcome.set_cells} cells from the list" if listed is not None else "")
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
    if listed is not None:
        listed.close()
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


def _open_list(path: str) -> FideList:
    """FIDE's list from a file, with a progress line while it is read the first time."""
    from ..formats.fidelist import open_list

    def show(done: int, total: int) -> None:
        if sys.stderr.isatty():
            share = 100 * done // total if total else 100
            sys.stderr.write(f"\rreading the rating list (once, then indexed): {share}%")
            sys.stderr.flush()

    listed = open_list(Path(path), show)  # not a list: a FideInputError naming the file
    if sys.stderr.isatty():
        sys.stderr.write("\r" + " " * 60 + "\r")
    for problem in listed.errors[:20]:
        print(f"{path}: {problem}", file=sys.stderr)
    if listed.error_count > 20:
        print(f"{path}: ... and {listed.error_count - 20} more problems", file=sys.stderr)
    return listed


def _list_summary(name: str, kind: str, checked: ListCheck, players: int) -> None:
    print(
        f"rating list {name} ({kind}): {checked.found} of {players} players found by FIDE ID; "
        "their rating and K are the list's"
    )
    for player, mine, theirs in checked.differs:
        print(f"  rating differs: {player.number} {player.name}: {mine or 'unrated'} in the "
              f"file, {theirs or 'unrated'} on the list (the list's is used)")  # fmt: skip
    for player in checked.missing:
        print(f"  not on the list: {player.number} {player.name} (FIDE ID {player.fide_id})")


def _report(args: argparse.Namespace) -> int:
    from ..formats.trf import read
    from .report import GAMES_BEFORE_UNKNOWN, report

    if args.csv:
        output(Path(args.csv), args, Path(args.trf), suffixes=(".csv",))
    t = read(Path(args.trf))
    _problems(args.trf, t.errors)
    if not t.players:
        raise FideInputError(f"expected player records (001) in the TRF, got: none ({args.trf})")
    ed, day = edition_arg(args.edition) if args.edition else (None, None)
    if t.start is None and day is None:
        raise FideInputError(
            "the event's start date is missing (record 042): it chooses the edition and "
            "dates the junior rule; give it with --edition YYYY-MM-DD"
        )
    if t.start is None:
        t.lines.insert(0, f"042 {day:%Y/%m/%d}")  # the date given stands for record 042
    listed = _open_list(args.list) if args.list else None
    try:
        lines = report(t, ed, listed, args.rating_type)
        checked = check_list(t, listed, args.rating_type) if listed is not None else None
    finally:
        if listed is not None:
            listed.close()
    used = ed or edition_arg(t.start)[0] if t.start else ed
    head = ("No", "FIDE ID", "Name", "Ro", "Rc/Ra", "W", "N", "We", "chg", "K", "K from", "K*chg",
            "Ru")  # fmt: skip
    rows = []
    for x in sorted(lines, key=lambda x: x.player.number):
        p = x.player
        c = x.calc
        rows.append((
            str(p.number), p.fide_id, p.name, "" if p.rating is None else str(p.rating),
            "" if x.rc is None else str(fide_round(x.rc)),
            "" if c is None else _fmt(c.w, 1), "" if c is None else str(c.n),
            "" if c is None else _fmt(c.we), "" if c is None else _fmt(c.chg),
            "" if x.k is None else str(x.k), x.k_from or "",
            "" if c is None else _fmt(c.k_chg), x.initial or x.note or "",
        ))  # fmt: skip
    print(f"{t.name or args.trf}: {len(lines)} players, edition {used}")
    computed = sum(1 for x in lines if x.k_from == "computed")
    from_list = sum(1 for x in lines if x.k_from == "list")
    if checked is not None:
        _list_summary(args.list, args.rating_type, checked, len(t.players))
    if from_list:
        print(f"K from the list for {from_list} player(s) (K x n <= 700 applied to this event)")
    if computed:
        print(
            f"K computed from the file's facts for {computed} player(s): rated games before "
            f"the event taken as {GAMES_BEFORE_UNKNOWN} or more (a TRF does not carry them)"
        )
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
    unsure = sum(1 for x in lines if x.note)
    if unsure:
        print(f"{unsure} player(s) without K: see the Ru column", file=sys.stderr)
    return 1 if t.errors or unsure else 0


def _problems(name: str, errors: Sequence[object], most: int = 50) -> None:
    """A file's problems on stderr, the first ``most`` of them."""
    for error in errors[:most]:
        print(f"{name}: {error}", file=sys.stderr)
    if len(errors) > most:
        print(f"{name}: ... and {len(errors) - most} more problems", file=sys.stderr)


def _import_trf(args: argparse.Namespace) -> int:
    from ..formats.trf import read
    from .convert import to_workbook

    source = Path(args.trf)
    out = output(Path(args.output or source.with_suffix(".xlsx").name), args, source,
                 suffixes=(".xlsx",))  # fmt: skip
    t = read(source)
    _problems(args.trf, t.errors)
    if not t.players:
        raise FideInputError(f"expected player records (001) in the TRF, got: none ({args.trf})")
    listed = _open_list(args.list) if args.list else None
    try:
        wb = to_workbook(t, listed, args.rating_type)
        if listed is not None:
            _list_summary(args.list, args.rating_type, check_list(t, listed, args.rating_type),
                          len(t.players))  # fmt: skip
    finally:
        if listed is not None:
            listed.close()
    with atomic(out) as stream:
        wb.save(stream)
    print(f"wrote {out}: {len(t.players)} players, {t.rounds} rounds"
          + (f" ({len(t.errors)} problem(s) in the file, above)" if t.errors else ""))  # fmt: skip
    return 1 if t.errors else 0


def _export_trf(args: argparse.Namespace) -> int:
    from ..formats.trf import write_file
    from .convert import from_workbook

    source = Path(args.workbook)
    out = output(Path(args.output or source.with_suffix(".trf").name), args, source)
    t = from_workbook(source)
    write_file(t, out)
    print(f"wrote {out}: {len(t.players)} players")
    return 0


def _fill(args: argparse.Namespace) -> int:
    from .fill import fill

    source = Path(args.workbook)
    if args.in_place and args.output:
        raise FideInputError("either -o or --in-place, not both")
    default = source.with_name(f"{source.stem}.filled{source.suffix}")
    target = (
        source
        if args.in_place
        else output(Path(args.output or default), args, source, suffixes=(".xlsx", ".xlsm"))
    )
    listed = _open_list(args.list)
    try:
        done = fill(source, target, listed, args.rating_type)
    finally:
        listed.close()
    for row, fide_id in done.missing:
        print(f"not on the list: Players row {row}, FIDE ID {fide_id}")
    for row, column, old, new in done.changed:
        print(
            f"changed: Players row {row}, {column}: {old} -> {new if new is not None else 'blank'}"
        )
    print(f"wrote {target}: {done.found} of {done.rows} players filled from the list")
    return 1 if done.missing else 0


def _check(args: argparse.Namespace) -> int:
    from .check import FAILS, check
    from .convert import from_workbook

    source = Path(args.event)
    if source.suffix.lower() in (".xlsx", ".xlsm"):
        t = from_workbook(source)
    else:
        from ..formats.trf import read

        t = read(source)
        _problems(args.event, t.errors)
        if not t.players:
            raise FideInputError(f"expected player records (001) in the TRF, got: none ({source})")
    ed = edition_arg(args.edition)[0] if args.edition else None
    if ed is None and t.start is None:
        raise FideInputError(
            "the event's start date is missing (record 042): give the edition with --edition"
        )
    findings = check(t, ed)
    used = ed or edition_arg(t.start)[0]
    print(f"{t.name or source.name}: may it be rated? (B.02 {used.name}, {used.source})")
    for finding in findings:
        print(f"  {finding}")
    failed = sum(f.status == FAILS for f in findings)
    print(f"{failed} rule(s) fail" if failed else "no rule fails")
    return 1 if failed else 0


def _period(args: argparse.Namespace) -> int:
    from .period import PeriodError, run, run_with_fide_list

    source = Path(args.list)
    fide = source.suffix.lower() in (".txt", ".xml", ".zip")
    try:
        events = [Path(p) for p in args.events]
        suffixes = (".xlsx", ".txt") if fide else (".xlsx",)
        target = output(Path(args.output), args, source, *events, suffixes=suffixes)
        if fide:
            if not args.date or not args.next:
                raise FideInputError(
                    "FIDE's list does not say its date: give --date (the list's) and --next "
                    "(the next list's), YYYY-MM-DD"
                )
            days = [date_of(name, getattr(args, name)) for name in ("date", "next")]
            results, out = run_with_fide_list(source, events, target, days[0], days[1],
                                              args.rating_type)  # fmt: skip
        else:
            results, out = run(source, events, target)
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

    print(f"wrote {write(output(Path(args.output), args, suffixes=('.py',)))}")
    return 0


def _command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    summary: str,
    description: str,
    examples: Sequence[str],
) -> argparse.ArgumentParser:
    """A subcommand with its one-line summary, its description and examples in --help."""
    return sub.add_parser(
        name,
        help=summary,
        description=textwrap.fill(f"{summary[:1].upper()}{summary[1:]}. {description}", 79),
        epilog="examples:\n" + "\n".join(f"  fide-rating {name} {e}" for e in examples),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


FORCE = "replace the output file if it exists (never the command's own input)"
LIST_HELP = (
    "FIDE's rating list (players_list_foa.txt, players_list_xml_foa.xml or their zip): players "
    "found by FIDE ID take its rating and K; indexed next to the file on first use"
)
EDITION = (
    'edition name such as "2024-03", or the tournament start date YYYY-MM-DD (default: newest)'
)


def _list_options(p: argparse.ArgumentParser, *, required: bool = False, what: str = "") -> None:
    """``--list`` (FIDE's rating list) and ``--rating-type`` (which of its ratings)."""
    p.add_argument("--list", required=required, help=LIST_HELP + what)
    p.add_argument(
        "--rating-type",
        choices=("standard", "rapid", "blitz"),
        default="standard",
        help="which of the list's ratings and K (default: standard)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fide-rating",
        description="The FIDE Rating Regulations (handbook B.02, every edition since 2005) for "
        "arbiters and rating officers: calculations, crosstable templates, headless "
        "recalculation of workbooks, TRF files and whole rating periods. "
        "Run fide-rating COMMAND --help for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"fide-rating {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = _command(
        sub,
        "event",
        "a rated player's event, as FIDE's calculation page",
        "Prints Rc, Ro, w, n, chg, K and K x chg, and one line per game with the "
        "rating used (* where the 350/400-point rule capped it).",
        ["2000 --opponents 1063,1299,1413 --results 1,1,0.5 -k 20 --edition 2022-01"],
    )
    p.add_argument("rating", help="the player's rating")
    p.add_argument(
        "--opponents", required=True, help="opponents' ratings, comma separated (0 = unrated)"
    )
    p.add_argument("--results", required=True, help="1, 0.5 (or =), 0, + or -, comma separated")
    p.add_argument("-k", required=True, help="the development coefficient K (see FIDE_K)")
    p.add_argument("--edition", help=EDITION)
    p.set_defaults(run=_event)

    p = _command(
        sub,
        "initial",
        "an unrated player's initial rating from one event",
        "Ra, the result and the rating (or why there is none) in the edition's method.",
        ["--opponents 1902,1877,1884,2012,1832 --results 0.5,0.5,1,0,1 --edition 2024-03"],
    )
    p.add_argument(
        "--opponents", required=True, help="opponents' ratings, comma separated (0 = unrated)"
    )
    p.add_argument("--results", required=True, help="1, 0.5 (or =), 0, + or -, comma separated")
    p.add_argument("--edition", help=EDITION)
    p.add_argument(
        "--round-robin",
        action="store_true",
        help="the event is a round robin (2005-07 to 2014-07: below 50 %%)",
    )
    p.set_defaults(run=_initial)

    p = _command(
        sub,
        "editions",
        "list the editions of the regulations",
        "Each edition's name, the date from which it applies (by tournament start date), "
        "its 350/400-point cap and the FIDE handbook text it follows.",
        [""],
    )
    p.set_defaults(run=_editions)

    p = _command(
        sub,
        "template",
        "write a crosstable template (.xlsx)",
        "A workbook whose formulas compute every FIDE figure: fill in the event, the "
        "players and the results. A round robin's rounds follow from the players.",
        [
            "swiss --players 150 --rounds 9 -o open.xlsx",
            "rr --players 10 -o rr.xlsx",
            "drr --players 6 --ods",
            "--all -o templates --force",
        ],
    )
    p.add_argument(
        "system",
        nargs="?",
        choices=("swiss", "rr", "drr"),
        help="swiss, rr (round robin) or drr (double round robin)",
    )
    p.add_argument("--players", type=int, default=10, help="the number of players (default 10)")
    p.add_argument("--rounds", type=int, default=None, help="Swiss only: the number of rounds")
    p.add_argument("-o", "--output", help="the .xlsx file (with --all: the folder)")
    p.add_argument("--all", action="store_true", help="every shipped template into a folder")
    p.add_argument("--ods", action="store_true", help="also save .ods copies with LibreOffice")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_template)

    p = _command(
        sub,
        "recalc",
        "recompute workbooks headless: formulas kept, values filled in",
        "Every formula of each workbook (FIDE functions included) is computed and the "
        "workbook written with the values filled in: next to the input as "
        "NAME.recalc.xlsx, into the folder -o DIR (or the file -o NAME.xlsx for one "
        "input), or over the input with --in-place. Nothing else in the workbook "
        "changes. Goes on past a bad file; exit status 1 when a file failed.",
        ["event.xlsx", "events/ -o out/ --csv out/players.csv", "event.xlsx --in-place"],
    )
    p.add_argument("paths", nargs="+", help="workbooks, folders or glob patterns")
    p.add_argument("-o", "--output", help="a folder for the results (or one .xlsx for one input)")
    p.add_argument("--in-place", action="store_true", help="overwrite the inputs (atomically)")
    p.add_argument("--csv", help="also write every player's figures to this CSV file")
    p.add_argument("-q", "--quiet", action="store_true", help="no player table on the console")
    _list_options(p, what="; a template's players by FIDE ID")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_recalc)

    p = _command(
        sub,
        "report",
        "FIDE's rating report of an event from its TRF",
        "For every player: Ro, Rc, W, N, We, chg, K, K x chg; for an unrated player Ru "
        "or why there is none. The edition follows the event's start date (record 042).",
        ["event.trf", "event.trf --edition 2024-03 --csv report.csv"],
    )
    p.add_argument("trf", help="the tournament report file (TRF-16)")
    p.add_argument(
        "--edition", help=EDITION.replace("(default: newest)", "(default: the event's start date)")
    )
    p.add_argument("--csv", help="also write the report to this CSV file")
    _list_options(p)
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_report)

    p = _command(
        sub,
        "import-trf",
        "a TRF into the Swiss or round-robin template",
        "The players, results and event of a TRF in a crosstable workbook; the file's "
        "own lines are kept on a hidden sheet, so export-trf gives them back.",
        ["event.trf", "event.trf -o event.xlsx"],
    )
    p.add_argument("trf", help="the tournament report file (TRF-16)")
    p.add_argument("-o", "--output", help="the workbook (default: the TRF's name with .xlsx)")
    _list_options(p)
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_import_trf)

    p = _command(
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
    p.set_defaults(run=_export_trf)

    p = _command(
        sub,
        "check",
        "may the event be rated? B.02 sections 0 to 6",
        "Each rule the file lets us decide: the time control (record 122, the usual notations "
        "read) by the highest rating, the first control, the hours of play a day (round dates, "
        "record 132), the duration, unplayed games and matches; each holds, fails, or cannot "
        "be told from the file (with why). Exit status 1 when a rule fails.",
        ["event.trf", "event.trf --edition 2024-03", "event.xlsx"],
    )
    p.add_argument("event", help="the event: a TRF, or a crosstable workbook")
    p.add_argument("--edition", help=EDITION)
    p.set_defaults(run=_check)

    p = _command(
        sub,
        "fill",
        "fill a crosstable's players from FIDE's rating list",
        "Every player row with a FIDE ID takes the list's federation, sex, birth year, "
        "rating (Ro) and K, and the name and title where the row has none. Written to "
        "NAME.filled.xlsx, to -o FILE, or over the workbook with --in-place.",
        [
            "event.xlsx --list players_list_foa.zip",
            "event.xlsx --list players_list_foa.txt -o ready.xlsx",
        ],
    )
    p.add_argument("workbook", help="the crosstable workbook (.xlsx)")
    _list_options(p, required=True)
    p.add_argument("-o", "--output", help="the filled workbook (default: NAME.filled.xlsx)")
    p.add_argument("--in-place", action="store_true", help="write over the workbook (atomically)")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_fill)

    p = _command(
        sub,
        "period",
        "a rating period: the list and the period's events to the next list",
        "Each event is rated with the list's ratings and the edition of its start date; "
        "changes are summed and rounded once per player, unrated players' results "
        "pooled. Nothing is written when a problem is found.",
        ["list.xlsx events/*.trf -o next-list.xlsx"],
    )
    p.add_argument(
        "list",
        help="the rating list: a workbook (templates/rating-list.xlsx), or "
        "FIDE's list (players_list_foa.txt, the XML or their zip)",
    )
    p.add_argument("events", nargs="+", help="the period's events: TRF files or workbooks")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="the next list: .xlsx, or with FIDE's list also .txt (FIDE's layout)",
    )
    p.add_argument("--date", help="with FIDE's list: the list's date, YYYY-MM-DD")
    p.add_argument("--next", help="with FIDE's list: the next list's date, YYYY-MM-DD")
    p.add_argument(
        "--rating-type",
        choices=("standard", "rapid", "blitz"),
        default="standard",
        help="with FIDE's list: which rating the events change (default: standard)",
    )
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_period)

    p = _command(
        sub,
        "build-lite",
        "one main.py with the functions for xlwings Lite",
        "The rules core and the FIDE_* functions in one file to paste into xlwings "
        "Lite's editor (release/xlwings-lite/main.py is a ready one).",
        ["-o main.py"],
    )
    p.add_argument("-o", "--output", default="dist/main.py", help="the file (default dist/main.py)")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_build_lite)

    p = _command(
        sub,
        "build-oxt",
        "build the LibreOffice Calc add-in (.oxt)",
        "Needs LibreOffice and its SDK's unoidl-write (Debian: libreoffice-dev).",
        ["-o dist/fide-rating.oxt"],
    )
    p.add_argument("-o", "--output", default="dist/fide-rating.oxt", help="the extension file")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=_build_oxt)
    return parser


def _tolerant_console() -> None:
    """A name the console cannot show (Cyrillic on a Latin-1 console) is replaced by ?, never
    a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_console()
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
