"""``fide-rating editions``: the editions of the regulations by rating type, with their sources
and what stays unconfirmed."""

from __future__ import annotations

import argparse

from ..rules.editions import LIST_CHANGES, RATING_TYPES, editions_of
from .console import Commands, command, say


def register(sub: Commands) -> None:
    p = command(
        sub,
        "editions",
        "Each edition's name, the date from which it applies (by tournament start date), its "
        "350/400-point rule and K, the FIDE text it follows, and what is not confirmed; then "
        "the changes FIDE made once to a whole list (the list's date and rating types).",
        ["", "--rating-type rapid", "--notes"],
    )
    p.add_argument(
        "--rating-type",
        choices=("all", *RATING_TYPES),
        default="all",
        help="only the editions of one rating type (default: all)",
    )
    p.add_argument("--notes", action="store_true", help="also what each source leaves open")
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    kinds = RATING_TYPES if args.rating_type == "all" else (args.rating_type,)
    for kind in kinds:
        say(f"{kind}:")
        for e in editions_of(kind):
            k = f"K {e.k_new}/{e.k_standard}/{e.k_top}" if e.k_new != e.k_top else f"K {e.k_top}"
            extra = [f"gap rule {e.gap_rule[0]}/{e.gap_rule[1]}"] if e.gap_rule else []
            say(f"  {e.name:<14} in force from {e.effective.isoformat()}  cap {e.cap}  {k}"
                f"{'  ' + ', '.join(extra) if extra else ''}  {e.source}")  # fmt: skip
            if args.notes:
                for note in e.notes:
                    say(f"      not confirmed / note: {note}")
    changes = [c for c in LIST_CHANGES if any(kind in c.rating_types for kind in kinds)]
    if changes:
        say("list-wide changes (every listed rating, with or without games in the period):")
    for c in changes:
        types = ", ".join(t for t in c.rating_types if t in kinds)
        say(f"  {c.name:<20} the list of {c.on.isoformat()}  {types}: {c.rule.value}  {c.source}")
        if args.notes:
            for note in c.notes:
                say(f"      not confirmed / note: {note}")
    return 0
