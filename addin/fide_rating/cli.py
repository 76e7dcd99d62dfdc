"""``fide-rating``: the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from fractions import Fraction

from . import __version__
from .cells import edition_arg, games, rating, whole
from .change import event
from .editions import EDITIONS
from .errors import FideInputError
from .initial import UnratedEvent, initial_rating
from .rounding import fide_round


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
    from .calc.build import main as build_main

    return build_main(["-o", args.output])


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


if __name__ == "__main__":
    sys.exit(main())
