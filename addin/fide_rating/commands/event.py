"""``fide-rating event``: a rated player's event, as FIDE's calculation page prints it."""

from __future__ import annotations

import argparse

from ..cells.coerce import edition_arg, games, rating, whole
from ..rules.change import event
from ..rules.rounding import fide_round
from .console import EDITION, Commands, command, fmt, say, split


def register(sub: Commands) -> None:
    p = command(
        sub,
        "event",
        "Prints Rc (the opponents' mean as counted), Ro (the player's rating), w, n, chg, K "
        "and K x chg, then one line per game: the opponent's rating and the rating counted "
        "(* where the 350/400-point rule capped it), w, chg and K x chg.",
        ["2000 --opponents 1063,1299,1413 --results 1,1,0.5 -k 20 --edition 2022-01"],
    )
    p.add_argument("rating", help="the player's rating")
    p.add_argument(
        "--opponents", required=True, help="opponents' ratings, comma separated (0 = unrated)"
    )
    p.add_argument("--results", required=True, help="1, 0.5 (or =), 0, + or -, comma separated")
    p.add_argument("-k", required=True, help="the development coefficient K (see FIDE_K)")
    p.add_argument("--edition", help=EDITION)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    ed, _ = edition_arg(args.edition)
    opponents, results = games(split(args.opponents), split(args.results), results_given=True)
    calc = event(
        rating("rating", args.rating),
        opponents,
        results,
        whole("k", args.k, 1, 100, "K, a whole number from 1 to 100"),
        ed,
    )
    say(f"Edition {ed.name} ({ed.source})")
    say(f"{'Rc':>8} {'Ro':>6} {'w':>6} {'n':>3} {'chg':>7} {'K':>3} {'K*chg':>8}")
    rc = "" if calc.rc is None else str(fide_round(calc.rc))
    say(
        f"{rc:>8} {calc.rating:>6} {fmt(calc.w):>6} {calc.n:>3} {fmt(calc.chg):>7} "
        f"{calc.k:>3} {fmt(calc.k_chg):>8}"
    )
    say()
    say(f"{'opponent':>8} {'counted':>8} {'w':>6} {'chg':>7} {'K*chg':>8}")
    for g in calc.games:
        star = "*" if g.capped else " "
        say(
            f"{g.opponent:>8} {g.used:>7}{star} {fmt(g.w):>6} {fmt(g.chg):>7} "
            f"{fmt(calc.k * g.chg):>8}"
        )
    if any(g.capped for g in calc.games):
        say(f"* rating difference of more than {ed.cap}: the opponent counted at the cap")
    say(f"We = {fmt(calc.we)}, K x chg = {fmt(calc.k_chg)}")
    ks = sorted({ed.k_new, ed.k_standard, ed.k_top}, reverse=True)
    if calc.k not in ks:
        # a K the edition has no place for, or one K x n <= 700 alone gives
        limit = ed.k_times_n_max
        lowered = [n for n in range(1, (limit or 0) + 1) if calc.k == min(ks[0], limit // n)
                   and limit // n < ks[0]] if limit else []  # fmt: skip
        if lowered:
            n = f"{lowered[0]}" + (f" to {lowered[-1]}" if len(lowered) > 1 else "")
            say(f"note: K {calc.k} is none of edition {ed.name}'s ({', '.join(map(str, ks))}): "
                f"K x n <= {limit} gives it to a player with K {ks[0]} and {n} games in the "
                "period", err=True)  # fmt: skip
        else:
            say(f"warning: K {calc.k} is no K of edition {ed.name} ({', '.join(map(str, ks))}"
                f"{f', or lower for K x n <= {limit}' if limit else ''}): computed with it as "
                "given; FIDE_K gives a player's", err=True)  # fmt: skip
            return 1
    return 0
