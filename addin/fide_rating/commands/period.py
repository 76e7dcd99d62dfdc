"""``fide-rating period LIST EVENTS... -o NEXT``: a rating period, from a rating list and the
period's events to the next list (the period itself: :mod:`fide_rating.events.period` and
:mod:`fide_rating.events.period_run`).

Each event is rated with the list's ratings and the edition in force at its start date; each
rated player's events are summed and rounded once (8.3.4) with K x n <= 700 over the whole
period; unrated players' results are pooled with their pending ones within the edition's window
and published when the edition's minimum games and floor are met; players below the floor become
unrated; games, the reached-2400 flag, K, the active flag and the last game are updated; the
1 March 2024 one-time adjustment is applied when the period crosses that date. Nothing is written
unless the whole period computes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..events.period_run import pending_file, run, run_with_fide_list
from ..formats.listbook import PeriodError
from ..rules.errors import FideInputError
from .console import FORCE, Commands, command, date_arg, output, say, shown
from .lists import open_fide_list

# --- the command ----------------------------------------------------------------------------


def register(sub: Commands) -> None:
    p = command(
        sub,
        "period",
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
    p.add_argument(
        "--pending",
        help="with FIDE's list: the games of unrated players pending from earlier periods (the "
        "NEXT.pending.xlsx an earlier period wrote beside its text list, or any workbook with "
        "a Pending sheet)",
    )
    p.add_argument(
        "--date",
        type=date_arg,
        help="needed with FIDE's list (it does not say its date): the list's date, YYYY-MM-DD "
        "or DD.MM.YYYY",
    )
    p.add_argument(
        "--next",
        type=date_arg,
        help="needed with FIDE's list: the next list's date, YYYY-MM-DD or DD.MM.YYYY",
    )
    p.add_argument(
        "--rating-type",
        choices=("standard", "rapid", "blitz"),
        default="standard",
        help="with FIDE's list: which rating the events change (default: standard)",
    )
    p.add_argument(
        "--standard-from",
        metavar="NEXT_LIST",
        help="with FIDE's list, rapid or blitz, a period that crosses 1 October 2022: FIDE's "
        "list of the next date, whose standard ratings the raise to the standard rating - 100 "
        "reads (default: the standard ratings of the list given)",
    )
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    source = Path(args.list)
    fide = source.suffix.lower() in (".txt", ".xml", ".zip")
    try:
        events = [Path(p) for p in args.events]
        suffixes = (".xlsx", ".txt") if fide else (".xlsx",)
        target = output(Path(args.output), args, source, *events, suffixes=suffixes)
        earlier = Path(args.pending) if args.pending else None
        if not fide and earlier is not None:
            raise FideInputError(
                "--pending is for FIDE's list: a rating-list workbook keeps its pending games "
                f"on its own Pending sheet, got: {shown(earlier)}"
            )
        if fide and target.suffix.lower() == ".txt":
            inputs = [p for p in (source, earlier, *events) if p is not None]
            output(pending_file(target), args, *inputs)  # the games still pending
        if fide:
            if not args.date or not args.next:
                raise FideInputError(
                    "FIDE's list does not say its date: give --date (the list's) and --next "
                    "(the next list's), YYYY-MM-DD"
                )
            days = [args.date, args.next]
            newer = Path(args.standard_from) if args.standard_from else None
            results, out, said = run_with_fide_list(source, events, target, days[0], days[1],
                                                    args.rating_type, earlier, open_fide_list,
                                                    newer)  # fmt: skip
        else:
            if args.standard_from:
                raise FideInputError(
                    "--standard-from is for FIDE's list: a rating-list workbook holds one rating "
                    f"type, got: {shown(args.standard_from)}"
                )
            results, out, said = run(source, events, target)
    except PeriodError as error:
        for problem in error.problems:
            say(f"fide-rating period: {problem}", err=True)
        say(f"fide-rating period: nothing written ({len(error.problems)} problem(s))", err=True)
        return 1
    for line in said:  # what the list said of the events' players; the list-wide changes
        say(line)
    rated = sum(1 for r in results if r.change is not None)
    first = sum(1 for r in results if r.note.startswith("first rating"))
    pending = sum(1 for r in results if r.initial is not None and r.initial.rating is None)
    say(f"wrote {shown(out)}: {len(results)} players, {rated} rated changes, {first} first "
        f"ratings, {pending} unrated with results pending")  # fmt: skip
    if fide and out.suffix.lower() == ".txt":
        say(f"wrote {shown(pending_file(out))}: the games of the {pending} unrated player(s) "
            "still pending; give it to the next period with --pending")  # fmt: skip
    return 0
