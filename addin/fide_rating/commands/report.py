"""``fide-rating report EVENT``: FIDE's rating report of an event (the rating itself:
:mod:`fide_rating.events.rating`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..events.event import (
    edition_for,
    given_start,
    rating_type,
    require_start,
)
from ..events.lists import Applied, apply_list
from ..events.rating import ReportLine, not_computed, rate
from ..formats.crosstable import GAMES_BEFORE_UNKNOWN
from ..rules.errors import FideInputError
from ..rules.rounding import fide_round
from .console import (
    EDITION,
    FORCE,
    Commands,
    command,
    fmt,
    list_options,
    output,
    read_shown,
    say,
    shown,
    start_option,
    write_csv,
)
from .lists import open_list


def register(sub: Commands) -> None:
    p = command(
        sub,
        "report",
        "For every player: Ro, Rc, W, N, We, chg, K, K x chg; for an unrated player Ru "
        "or why there is none. The edition follows the event's start date (record 042, or the "
        "Event sheet). A workbook's own facts (games before the event, 2400 reached, the "
        "list's K) give each K as the workbook computes it; a TRF does not carry them.",
        ["event.trf", "event.trf --edition 2024-03 --csv report.csv", "event.xlsx",
         "event.trf --list players_list_foa.zip"],
    )  # fmt: skip
    p.add_argument(
        "event", help="the event: a TRF (TRF-16 or TRF-2026), or a crosstable workbook (.xlsx)"
    )
    p.add_argument(
        "--edition", help=EDITION.replace("(default: newest)", "(default: the event's start date)")
    )
    p.add_argument("--csv", help="also write the report to this CSV file")
    start_option(p)
    list_options(p, from_file=True)
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    source = Path(args.event)
    if args.csv:
        output(Path(args.csv), args, source, suffixes=(".csv",))
    event = read_shown(source, args.start)
    t = event.tournament
    given_start(event, args.edition)
    require_start(event)
    kind, why = rating_type(event, args.rating_type)
    applied: Applied | None = None
    try:
        edition = edition_for(event, kind, args.edition)
    except FideInputError as error:  # no edition of the type on the date: said on every line
        edition, why_not = None, str(error)
    used = edition.name if edition is not None else f"none ({why_not})"
    if args.list:
        with open_list(args.list, kind) as listed:
            applied = apply_list(t, listed, kind, edition)
    lines = not_computed(t, why_not) if edition is None else rate(t, edition, applied, event.known)
    head = ["No", "FIDE ID", "Name", "Ro", "Rc/Ra", "W", "N", "We", "chg", "K", "K from",
            "K*chg", "Ru"]  # fmt: skip
    if applied is not None:
        head.insert(4, "Ro in file")
    rows = [_row(x, applied is not None) for x in sorted(lines, key=lambda x: x.player.number)]
    if args.csv:
        write_csv(Path(args.csv), head, rows)
    say(f"{shown(t.name or source)}: {len(lines)} players, edition {used}")
    say(f"rating type: {kind} ({why})")
    if applied is not None:
        for line in applied.summary(shown(args.list), t):
            say(line)  # (say escapes what a name could hold)
    _k_sources(lines)
    shown_rows = [[*r] for r in rows]
    marked = {str(n) for n in applied.changed(t)} if applied is not None else set()
    if marked:
        at = head.index("Ro")
        for r in shown_rows:
            if r[0] in marked:
                r[at] += "*"
        say("* Ro from the list: not the file's rating (Ro in file)")
    _table(head, shown_rows)
    if args.csv:
        say(f"wrote {shown(args.csv)}")
    unsure = sum(1 for x in lines if x.note)
    if unsure:
        say(f"{unsure} player(s) not computed or without K: see the last column", err=True)
    return 1 if t.errors or unsure else 0


def _row(x: ReportLine, with_list: bool) -> list[str]:
    p, c = x.player, x.calc
    ro = x.ro if x.ro is not None else p.rating
    misread = "misread"  # a value from a line that does not sit in its columns: never a figure
    row = [
        str(p.number), misread if p.misread else p.fide_id, p.name,
        misread if p.misread else "" if ro is None else str(ro),
        "" if x.rc is None else str(fide_round(x.rc)),
        "" if c is None else fmt(c.w, 1), "" if c is None else str(c.n),
        "" if c is None else fmt(c.we), "" if c is None else fmt(c.chg),
        "" if x.k is None else str(x.k), x.k_from or "",
        "" if c is None else fmt(c.k_chg), x.initial or x.note or "",
    ]  # fmt: skip
    if with_list:
        row.insert(4, misread if p.misread else "" if p.rating is None else str(p.rating))
    return row


def _k_sources(lines: list[ReportLine]) -> None:
    """Where each K came from, in a line each."""
    from_list = sum(1 for x in lines if x.k_from == "list")
    computed: dict[str, int] = {}
    for x in lines:
        if x.k_from == "computed":
            computed[x.facts or "the workbook"] = computed.get(x.facts or "the workbook", 0) + 1
    assumed = [x for x in lines if x.k_from == "assumed"]
    if from_list:
        say(f"K from the list for {from_list} player(s) (K x n <= 700 applied to this event)")
    for facts, count in computed.items():
        if facts.startswith("the standard rating"):
            say(f"K computed for {count} player(s) rated with {facts}: new players of the type "
                "(no games of it yet)")  # fmt: skip
        else:
            say(f"K computed from {facts}'s facts for {count} player(s) (games before the "
                "event, 2400 reached)")  # fmt: skip
    if assumed:
        ks = sorted({x.k for x in assumed if x.k is not None})
        say(
            f"K {'/'.join(map(str, ks))} assumed for {len(assumed)} player(s): a TRF does not "
            f"carry the rated games before the event (taken as {GAMES_BEFORE_UNKNOWN} or more) "
            "nor 2400 reached; give --list for the list's K"
        )


def _table(head: list[str], rows: list[list[str]]) -> None:
    """The report as a table: the name left-aligned (and cut at 28), every figure right."""
    name = head.index("Name")
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]  # fmt: skip
    widths[name] = min(widths[name], 28)
    for r in [head, *rows]:
        say(
            "  ".join(
                v[:w].ljust(w) if i == name else v.rjust(w)
                for i, (v, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
