"""``fide-rating initial``: an unrated player's initial rating from one event."""

from __future__ import annotations

import argparse
from fractions import Fraction

from ..cells.coerce import edition_arg, games
from ..rules.initial import UnratedEvent, initial_rating
from .console import EDITION, Commands, command, fmt, say, split


def register(sub: Commands) -> None:
    p = command(
        sub,
        "initial",
        "Prints the games against rated opponents and the points, Ra (from 2024-03 with the "
        "two fictitious draws against 1800), Ru unrounded, and the rating, or why there is "
        "none, in the edition's method.",
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
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    ed, day = edition_arg(args.edition)
    opponents, results = games(split(args.opponents), split(args.results), results_given=True)
    found = initial_rating(
        UnratedEvent(opponents=opponents, scores=results, start=day, round_robin=args.round_robin),
        ed,
    )
    extra = ed.fictitious_games
    say(f"Edition {ed.name} ({ed.source})")
    say(f"games    {found.games} against rated opponents, {fmt(found.score, 1)} points")
    if found.ra is not None:
        with_them = (
            f" (with {extra} fictitious draws against {ed.fictitious_rating}: "
            f"{fmt(found.score + Fraction(extra, 2), 1)} of {found.games + extra})"
            if extra
            else ""
        )
        say(f"Ra       {fmt(found.ra)}{with_them}")
    if found.ru is not None:
        say(f"Ru       {fmt(found.ru)}")
    say(f"rating   {found.rating}" if found.rating is not None else f"not rated: {found.reason}")
    return 0
