"""The registry of spreadsheet functions: name, help and parameters of each, and :func:`call`.

The xlwings module (:mod:`fide_rating.cells.excel`), the LibreOffice add-in, the xlwings Lite
bundle and the README's function table are all generated from :data:`REGISTRY`
(``python -m fide_rating.cells.generate``).

May import: the rules core, :mod:`.coerce`, :mod:`.functions` and the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..rules.errors import FideInputError
from .coerce import PREFIX, CellResult, RangeError, error_in, one_cell
from .functions import (
    fide_adjust2024,
    fide_change,
    fide_dp,
    fide_edition,
    fide_expect,
    fide_games,
    fide_initial,
    fide_k,
    fide_n,
    fide_perf,
    fide_points,
    fide_ratable,
    fide_rc,
    fide_round_cell,
    fide_rr,
    fide_w,
)

# --- the registry -------------------------------------------------------------------------

Kind = Literal["number", "range", "value", "flag", "edition"]


@dataclass(frozen=True, slots=True)
class Param:
    """One argument of a spreadsheet function."""

    name: str
    help: str
    kind: Kind = "value"
    optional: bool = False
    blank_ok: bool = False  # a required argument whose blank cell means "unknown"


@dataclass(frozen=True, slots=True)
class Function:
    """One spreadsheet function: its name, help (at most 255 characters) and arguments."""

    name: str
    help: str
    params: tuple[Param, ...]
    impl: Callable[..., CellResult]
    returns: Literal["number", "text", "number or text"] = "number"

    def __call__(self, *args: object) -> CellResult:
        return call(self, *args)


_OWN_RATING = Param(
    "rating",
    "The player's rating (optional: rapid and blitz from 2024-12 leave games 600 or more apart "
    "unrated when a player is above 2600)",
    "number",
    True,
)
_RATING_TYPE = Param(
    "rating_type", "standard, rapid or blitz (blank: standard, or the edition's)", "value", True
)
_EDITION = Param(
    "edition",
    'Edition such as "2024-03" or "2024-12 rapid", or the start date (with "rapid" or "blitz": '
    '"2025-11-10 rapid"); newest standard if omitted',
    "edition",
    True,
)
_OPPONENTS = Param(
    "opponents", "Opponents' ratings: a cell or a range; blank or 0 = unrated", "range"
)
_RESULTS_ARG = Param("results", "Results 1, ½, 0, = (draw); +, - and byes are unplayed", "range")

REGISTRY: tuple[Function, ...] = (
    Function(
        "FIDE_EXPECT",
        "Expected score (B.02 8.1.2): PD against one opponent, or the sum of PD over the games "
        "against rated opponents; with results, only games with a played result count.",
        (
            Param("rating", "The player's rating", "number"),
            _OPPONENTS,
            Param("results", _RESULTS_ARG.help + " (optional)", "range", True),
            _EDITION,
        ),
        fide_expect,
    ),
    Function(
        "FIDE_DP",
        "Rating difference dp for a fractional score p from 0 to 1 (B.02 table 8.1.1); p is "
        "rounded to the nearest hundredth first.",
        (Param("p", "Fractional score, 0 to 1", "number"), _EDITION),
        fide_dp,
    ),
    Function(
        "FIDE_CHANGE",
        "Rating change of a rated player in one event: K x sum(W - PD), not rounded (B.02 8.3).",
        (
            Param("rating", "The player's rating", "number"),
            _OPPONENTS,
            _RESULTS_ARG,
            Param("k", "Development coefficient K (see FIDE_K)", "number"),
            _EDITION,
        ),
        fide_change,
    ),
    Function(
        "FIDE_INITIAL",
        "Initial rating of an unrated player from one event, or a short text saying why there "
        "is none (too few games against rated opponents, below the floor, zero score ...).",
        (
            _OPPONENTS,
            _RESULTS_ARG,
            _EDITION,
            Param(
                "round_robin",
                "TRUE for a round robin (2005-07 to 2014-07 below 50 %)",
                "flag",
                True,
            ),
        ),
        fide_initial,
        "number or text",
    ),
    Function(
        "FIDE_K",
        "Development coefficient K from the player's facts (B.02 8.3.3), with K x n <= 700 when "
        "the games in the period are given.",
        (
            Param("rating", "The player's rating", "number"),
            Param("games_before", "Rated games completed before the event", "number"),
            Param("birth_year", "Birth year (or birth date); blank if unknown", blank_ok=True),
            Param("reached_2400", "TRUE if a published rating ever reached 2400", "flag"),
            Param("games_in_period", "Rated games in the rating period (optional)", "number", True),
            _EDITION,
            _RATING_TYPE,
        ),
        fide_k,
    ),
    Function(
        "FIDE_PERF",
        "Performance rating: mean opponent rating (rounded) + dp of the fractional score (an "
        "error for 0 % or 100 % where the edition's table has no dp there: 2005-07).",
        (_OPPONENTS, _RESULTS_ARG, _EDITION),
        fide_perf,
    ),
    Function(
        "FIDE_POINTS",
        "Tournament points of a player's results, forfeits (+ -) and byes (H F U Z) included.",
        (Param("results", "Results: 1, ½, 0, =, forfeits and byes", "range"),),
        fide_points,
    ),
    Function(
        "FIDE_GAMES",
        "Number of games played over the board (forfeits and byes are not games).",
        (Param("results", "Results: 1, ½, 0, =, forfeits and byes", "range"),),
        fide_games,
    ),
    Function(
        "FIDE_N",
        "n: number of rated games, those played against rated opponents (with the player's "
        "rating and the edition: less the games a rapid or blitz edition leaves unrated).",
        (_OPPONENTS, _RESULTS_ARG, _OWN_RATING, _EDITION),
        fide_n,
    ),
    Function(
        "FIDE_W",
        "W: points scored in the rated games (against rated opponents, played; with the "
        "player's rating and the edition: less the games a rapid or blitz edition leaves unrated).",
        (_OPPONENTS, _RESULTS_ARG, _OWN_RATING, _EDITION),
        fide_w,
    ),
    Function(
        "FIDE_RC",
        "Rc: a rated player's mean opponent rating in the rated games, as the 350/400-point "
        "rule counts it; for an unrated player Ra, the base of the first rating (from 2024-03 "
        "with two fictitious 1800 opponents). Empty without rated games.",
        (
            Param("rating", "The player's rating; blank for an unrated player", blank_ok=True),
            _OPPONENTS,
            _RESULTS_ARG,
            _EDITION,
        ),
        fide_rc,
        "number or text",
    ),
    Function(
        "FIDE_RR",
        'Round robin with unrated players (B.02 2005-07 to 2014-07): item "rating" (rating to '
        'use), "rc", "ru", "rc1", "ru1" (before the correction) or "initial" for one player.',
        (
            Param("ratings", "Every player's rating in crosstable order; blank = unrated", "range"),
            Param(
                "results",
                "The crosstable: row = player, one column per player (twice for a double round "
                "robin)",
                "range",
            ),
            Param("player", "The player's number (row) in the crosstable", "number"),
            Param("item", 'What to return: "rating", "rc", "ru", "rc1", "ru1" or "initial"'),
            _EDITION,
        ),
        fide_rr,
        "number or text",
    ),
    Function(
        "FIDE_ROUND",
        "Round as FIDE does (B.02 8.3.4): to a whole number, 0.5 away from zero.",
        (Param("x", "The number to round", "number"),),
        fide_round_cell,
    ),
    Function(
        "FIDE_ADJUST2024",
        "The one-time adjustment of 1 March 2024: a rating below 2000 becomes 0.6 x R + 800.",
        (Param("rating", "Rating on the 1 March 2024 list", "number"),),
        fide_adjust2024,
    ),
    Function(
        "FIDE_RATABLE",
        "Whether games at a time control may be rated (B.02 1.1 and 1.2): TRUE, or why not. "
        "Minutes and increment as a player gets them; the edition's minimum by the highest "
        "rating.",
        (
            Param(
                "minutes",
                "Minutes a player has for 60 moves without increments, or a time control as "
                "written: 90+30, 90'/40+30'+30\", 40/120, 60, G/60 d5",
                "number",
            ),
            Param(
                "increment",
                "Seconds added a move from move 1 (blank: none)",
                "value",
                blank_ok=True,
            ),
            Param(
                "moves_first_control",
                "Moves of the first time control (blank: none)",
                "value",
                blank_ok=True,
            ),
            Param(
                "highest_rating",
                "The highest rating (of the game; of the tournament before "
                "2014-07); blank if all unrated",
                "value",
                blank_ok=True,
            ),
            _EDITION,
        ),
        fide_ratable,
        "number or text",
    ),
    Function(
        "FIDE_EDITION",
        "The edition of the FIDE Rating Regulations in force for a tournament starting on a "
        "date (standard, rapid or blitz); the newest without one.",
        (Param("start", "Tournament start date (optional)", "value", True), _RATING_TYPE),
        fide_edition,
        "text",
    ),
)

BY_NAME: dict[str, Function] = {f.name: f for f in REGISTRY}
# per function, the positions of the required arguments that may not be blank
_MUST_HAVE = {
    f.name: tuple(
        i for i, p in enumerate(f.params) if not p.optional and not p.blank_ok and p.kind != "range"
    )
    for f in REGISTRY
}
# per function, the positions of the arguments that take one value (a 1 x 1 range is its value)
_SCALARS = {f.name: tuple(i for i, p in enumerate(f.params) if p.kind != "range") for f in REGISTRY}
# per function, the positions of the required ranges (a blank single cell is a range of one)
_RANGES = {
    f.name: tuple(i for i, p in enumerate(f.params) if p.kind == "range" and not p.optional)
    for f in REGISTRY
}


def call(function: Function | str, *args: object) -> CellResult:
    """Call a spreadsheet function with raw cell values: a number, or a ``#FIDE!`` text.

    An error value anywhere in the arguments (a cell showing #N/A, a range holding one) gives
    an error naming the argument, and another function's ``#FIDE!`` text is passed on as it
    is: never a number computed without that cell.
    """
    fn = BY_NAME[function] if isinstance(function, str) else function
    size = len(fn.params)
    if len(args) != size:
        if len(args) > size:
            return f"{PREFIX} {fn.name}: expected at most {size} arguments, got {len(args)}"
        args = args + (None,) * (size - len(args))
    for i, value in enumerate(args):
        if value is None or type(value) is float:
            continue  # the usual cell: nothing to look into
        try:
            code = error_in(value)
        except RangeError as error:  # ranges nested deeper than any host passes
            return f"{PREFIX} {fn.params[i].name}: {error}"
        if code is not None and code.startswith(PREFIX):
            return code  # another FIDE cell's message: the cause, passed on as it is
        if code is not None:
            where = "the range holds" if type(value) in (list, tuple) else "the cell holds"
            return f"{PREFIX} {fn.params[i].name}: {where} an error ({code})"
    scalars = _SCALARS[fn.name]
    if any(type(args[i]) in (list, tuple) for i in scalars):
        args = tuple(one_cell(v) if i in scalars else v for i, v in enumerate(args))
    for i in _MUST_HAVE[fn.name]:
        if args[i] is None:
            return f"{PREFIX} {fn.params[i].name}: missing (required)"
    if any(args[i] is None for i in _RANGES[fn.name]):
        args = tuple([None] if v is None and i in _RANGES[fn.name] else v
                     for i, v in enumerate(args))  # fmt: skip
    try:
        return fn.impl(*args)
    except FideInputError as error:
        return f"{PREFIX} {error}"
    except (RecursionError, MemoryError, OverflowError) as error:
        what = "too deep" if isinstance(error, RecursionError) else "too large"
        return f"{PREFIX} an input is {what} to compute with"


class FideCellError(ValueError):
    """A bad input, raised for hosts that show an exception as an error value with its
    message (xlwings Lite: #VALUE! with the message on hover)."""


def call_raising(function: Function | str, *args: object) -> CellResult:
    """:func:`call`, but a ``#FIDE!`` result is raised as :class:`FideCellError`."""
    out = call(function, *args)
    if type(out) is str and out.startswith(PREFIX):
        raise FideCellError(out)
    return out
