"""``fide-rating check EVENT``: may the event be rated? B.02 sections 0 to 6, per edition (the
rules applied to the event: :mod:`fide_rating.events.ratable`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..events.event import edition_at_start, edition_for, given_start, rating_type
from ..events.lists import apply_list, with_list_ratings
from ..events.ratable import FAILS, check, in_workbook_words
from .console import EDITION, Commands, command, list_options, read_shown, say, shown, start_option
from .lists import open_list

# --- the command ----------------------------------------------------------------------------


def register(sub: Commands) -> None:
    p = command(
        sub,
        "check",
        "Each rule the file lets us decide: the time control (TRF-2026's encoded record 222, "
        "else record 122 or a workbook's Event sheet, B12, as programs and arbiters write it) "
        "by the highest rating, the first control, the hours of play a day (round dates, "
        "record 132), the duration, unplayed games and matches; each holds, fails, or cannot "
        "be told from the file (with why). A file with problems (a misread line ...) cannot be "
        "told for sure. Exit status 1 when a rule fails or the file has problems.",
        ["event.trf", "event.trf --edition 2024-03", "event.xlsx"],
    )
    p.add_argument("event", help="the event: a TRF, or a crosstable workbook")
    p.add_argument(
        "--edition", help=EDITION.replace("(default: newest)", "(default: the event's start date)")
    )
    start_option(p)
    list_options(p, what=" (the highest rating that sets the time a game needs)", from_file=True)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    source = Path(args.event)
    event = read_shown(source, args.start)
    t = event.tournament
    kind, why = rating_type(event, args.rating_type)
    if args.list:
        with open_list(args.list, kind) as listed:
            applied = apply_list(t, listed, kind, edition_at_start(t, kind))
        for line in applied.summary(shown(args.list), t):
            say(line)
        t = with_list_ratings(t, applied)
    given_start(event, args.edition)
    used = edition_for(event, kind, args.edition)  # the start missing: says where it goes
    findings = check(t, used, kind)
    say(f"{shown(t.name or source.name)}: may it be rated? (B.02 {used.name}, {used.source})")
    say(f"  rating type: {kind} ({why})")
    for finding in findings:
        say(f"  {in_workbook_words(str(finding)) if event.from_workbook else finding}")
    failed = sum(f.status == FAILS for f in findings)
    if failed:
        say(f"{failed} rule(s) fail")
    elif t.errors:  # what was decided rests on a file with problems (a misread line ...)
        say(f"cannot tell: no rule fails of those decided, but the file has {len(t.errors)} "
            "problem(s), said above; correct them and check again")  # fmt: skip
    else:
        say("no rule fails")
    return 1 if failed or t.errors else 0
