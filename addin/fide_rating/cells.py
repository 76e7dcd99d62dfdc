"""The spreadsheet layer: cell values in, a number or a short ``#FIDE!`` text out.

Excel (through xlwings) passes numbers as floats, blank and error cells as ``None``, ranges as
lists (of lists) and dates as ``datetime``; LibreOffice passes blanks as ``""`` or 0, dates as
serial numbers and ranges as tuples of tuples. Everything is coerced here, once, for every host.

:data:`REGISTRY` describes every spreadsheet function once. The xlwings module
(:mod:`fide_rating.excel`), the LibreOffice add-in and the README's function table are generated
from it (``python -m fide_rating.generate``).
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Literal, TypeAlias

from .change import change_checked, change_hundredths, event
from .editions import EDITIONS, LATEST, Edition, edition_on
from .errors import FideInputError
from .expected import RATING_MAX, RATING_MIN, dp, expected_score, pd_sum, score_hundredths
from .initial import InitialRating, RoundRobin, UnratedEvent, initial_rating, round_robin
from .k_factor import k_factor
from .performance import adjust_2024, performance
from .rounding import exact, fide_round, fide_round_ratio

CellValue: TypeAlias = object
CellResult: TypeAlias = "float | int | str"
PREFIX = "#FIDE!"
_SERIAL_ZERO = _dt.date(1899, 12, 30)  # Excel (from serial 61) and LibreOffice alike


class CellError(FideInputError):
    """Bad input from a cell; ``arg`` names the spreadsheet argument."""

    def __init__(self, arg: str, message: str) -> None:
        super().__init__(f"{arg}: {message}")
        self.arg = arg


def _show(value: object) -> str:
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        text = str(int(value))
    elif isinstance(value, list | tuple):
        text = "a range"
    else:
        text = str(value)
    return text if len(text) <= 32 else text[:29] + "..."


def _bad(arg: str, expected: str, value: object) -> CellError:
    return CellError(arg, f"expected {expected}, got {_show(value)}")


def is_blank(value: object) -> bool:
    """A blank cell: None (Excel, also error cells) or an empty string (LibreOffice)."""
    return value is None or (isinstance(value, str) and not value.strip())


_SEQ = frozenset({list, tuple})
_PLAIN = frozenset({float, int})


def _is_zero(value: object) -> bool:
    """LibreOffice passes a blank cell given as a single argument as 0."""
    return type(value) in (int, float) and value == 0


def cells(value: object) -> list[object]:
    """A range as a flat list in reading order (rows or columns alike); a scalar as one cell."""
    if type(value) in _SEQ:
        seq: Sequence[object] = value  # type: ignore[assignment]  # list or tuple
        # the usual shapes, a row of cells or rows of cells, in C-speed passes
        if _SEQ.isdisjoint(map(type, seq)):
            return list(seq)
        if _SEQ.issuperset(map(type, seq)):
            flat: list[object] = list(chain.from_iterable(seq))  # type: ignore[arg-type]
            if _SEQ.isdisjoint(map(type, flat)):
                return flat
    if isinstance(value, list | tuple):
        out: list[object] = []
        for item in value:
            if isinstance(item, list | tuple):
                out.extend(cells(item))
            else:
                out.append(item)
        return out
    return [value]


def _whole(arg: str, value: object, expected: str) -> int:
    """A whole number from a number cell or text such as '2400'."""
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is int:
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise _bad(arg, expected, value) from None
        if number.is_integer():
            return int(number)
    elif isinstance(value, Decimal | Fraction) and value == int(value):
        return int(value)
    raise _bad(arg, expected, value)


def rating(arg: str, value: object) -> int:
    """A rating: a whole number from 1 to 4000."""
    if type(value) is float and RATING_MIN <= value <= RATING_MAX and value.is_integer():
        return int(value)  # what every host passes for a rating cell
    what = f"a whole-number rating from {RATING_MIN} to {RATING_MAX}"
    if is_blank(value):
        raise CellError(arg, "missing (a rating is required)")
    if isinstance(value, bool):
        raise _bad(arg, what, value)
    r = _whole(arg, value, what)
    if not RATING_MIN <= r <= RATING_MAX:
        raise _bad(arg, what, value)
    return r


def whole(arg: str, value: object, low: int, high: int, what: str) -> int:
    if type(value) is float and low <= value <= high and value.is_integer():
        return int(value)
    if is_blank(value):
        raise CellError(arg, f"missing ({what} is required)")
    if isinstance(value, bool):
        raise _bad(arg, what, value)
    n = _whole(arg, value, what)
    if not low <= n <= high:
        raise _bad(arg, what, value)
    return n


_RESULTS: dict[object, object] = {
    "1": 1, "0": 0, "0.5": 0.5, "0,5": 0.5, ".5": 0.5, ",5": 0.5, "½": 0.5, "1/2": 0.5, "=": 0.5,
    "1.0": 1, "0.0": 0, "1,0": 1, "0,0": 0,
}  # fmt: skip
# not rated: forfeits (+ -), byes (TRF H F U Z), games not rated (TRF W D L); their points
_UNPLAYED: dict[str, float] = {
    "+": 1.0, "-": 0.0, "−": 0.0, "–": 0.0, "bye": 1.0,
    "h": 0.5, "f": 1.0, "u": 1.0, "z": 0.0, "w": 1.0, "d": 0.5, "l": 0.0,
}  # fmt: skip


def result(arg: str, value: object) -> object | None:
    """A game result: 1, 0.5 or 0; ``None`` for a blank, a forfeit (+, -) or a bye."""
    if value is None:
        return None
    if type(value) is float or type(value) is int:
        if value in (1, 0.5, 0):
            return value
        raise _bad(arg, "1, 0.5 or 0", value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        found = _RESULTS.get(text)
        if found is not None:
            return found
        if text.lower() in _UNPLAYED:
            return None
    raise _bad(arg, "1, 0.5 or 0", value)


def points(arg: str, value: object) -> float | None:
    """Tournament points of one result cell, forfeits and byes included; None for a blank."""
    played = result(arg, value)
    if played is not None:
        return float(played)  # type: ignore[arg-type]
    if isinstance(value, str) and value.strip().lower() in _UNPLAYED:
        return _UNPLAYED[value.strip().lower()]
    return None


def flag(arg: str, value: object) -> bool:
    """TRUE/FALSE, 1/0, or text yes/no/true/false."""
    if isinstance(value, bool):
        return value
    if type(value) in (int, float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "wahr", "vrai"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "falsch", "faux"):
        return False
    if is_blank(value):
        raise CellError(arg, "missing (TRUE or FALSE is required)")
    raise _bad(arg, "TRUE or FALSE", value)


def date_of(arg: str, value: object) -> _dt.date:
    """A date from a datetime, a spreadsheet serial number or ISO text (2024-03-15)."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if (
        isinstance(value, float | int)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 1 <= value < 2958466  # up to 9999-12-31
    ):
        return _SERIAL_ZERO + _dt.timedelta(days=int(value))
    if isinstance(value, str):
        try:
            return _dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise _bad(arg, "a date", value)


_EDITION_NAMES = {e.name: e for e in EDITIONS}


def edition_arg(value: object, arg: str = "edition") -> tuple[Edition, _dt.date | None]:
    """An edition from a name ("2024-03") or a tournament start date; the newest when blank."""
    if type(value) is str and value in _EDITION_NAMES:
        return _EDITION_NAMES[value], None
    if is_blank(value) or _is_zero(value):
        return LATEST, None
    if isinstance(value, str) and value.strip() in _EDITION_NAMES:
        return _EDITION_NAMES[value.strip()], None
    if isinstance(value, str) and len(value.strip()) != 10:
        names = ", ".join(e.name for e in EDITIONS)
        raise _bad(arg, f"an edition ({names}) or a date", value)
    day = date_of(arg, value)
    try:
        return edition_on(day), day
    except FideInputError:
        raise _bad(arg, f"a date from {EDITIONS[0].effective.isoformat()} on", value) from None


def games(
    opponents: object, results: object, *, results_given: bool
) -> tuple[list[int | None], list[object | None]]:
    """Opponent ratings and results, paired by position.

    A blank or 0 opponent is an unrated one (or no game); without ``results`` every rated
    opponent counts as played (the result then does not matter).
    """
    plain = (
        None  # results required and missing: the per-cell checks say so
        if results_given and results is None
        else _plain_games(opponents, results if results_given else None)
    )
    if plain is not None:
        ratings_, res_numbers, _ = plain
        if res_numbers is None:
            return ratings_, [0.0] * len(ratings_)  # type: ignore[return-value]
        return ratings_, res_numbers  # type: ignore[return-value]  # list is invariant
    opp_cells = cells(opponents)
    res_cells = cells(results) if results_given else []
    if results_given and len(res_cells) != len(opp_cells):
        raise CellError(
            "results",
            f"expected as many cells as opponents ({len(opp_cells)}), got {len(res_cells)}",
        )
    ratings: list[int | None] = []
    for value in opp_cells:
        if is_blank(value) or value == 0:
            ratings.append(None)
        else:
            ratings.append(rating("opponents", value))
    if not results_given:
        return ratings, [0] * len(ratings)
    return ratings, [result("results", v) for v in res_cells]


def _whole_ratings(numbers: list[float | int]) -> list[int] | None:
    """Plain numbers (types checked by the caller) as ratings when every one is a whole number
    in range; else None."""
    if not numbers:
        return None
    try:
        ratings = list(map(int, numbers))
    except (ValueError, OverflowError):  # nan, inf
        return None
    if ratings != numbers or min(ratings) < RATING_MIN or max(ratings) > RATING_MAX:
        return None
    return ratings


def _numbers(value: object) -> list[float | int] | None:
    """A number, or a range (a row, a column or a block) of plain numbers, as a flat list, the
    types checked in one C-speed pass over the cells; None for anything else (blank cells, text).
    """
    if type(value) in _PLAIN:
        return [value]  # type: ignore[list-item]  # checked just above
    if type(value) in _SEQ:
        seq: Sequence[object] = value  # type: ignore[assignment]  # list or tuple
        kinds = set(map(type, seq))
        if kinds <= _PLAIN:
            return list(seq)  # type: ignore[arg-type]  # checked just above
        if kinds <= _SEQ:
            flat: list[float | int] = list(chain.from_iterable(seq))  # type: ignore[arg-type]
            if _PLAIN.issuperset(map(type, flat)):
                return flat
    return None


def _plain_games(
    opponents: object, results: object
) -> tuple[list[int], list[float | int] | None, int] | None:
    """The usual case in C-speed passes: every opponent a whole number in range and, with
    ``results`` (None: not given), as many results, each 1, 0.5 or 0 as a number. Gives the
    ratings, the results and W in hundredths; None sends the cells through the per-cell checks.
    """
    opp_numbers = _numbers(opponents)
    ratings = None if opp_numbers is None else _whole_ratings(opp_numbers)
    if ratings is None:
        return None
    if results is None:
        return ratings, None, 0
    res_numbers = _numbers(results)
    if res_numbers is None or len(res_numbers) != len(ratings):
        return None
    w = _numbers_w(res_numbers)
    return None if w is None else (ratings, res_numbers, w)


def _numbers_w(numbers: list[float | int]) -> int | None:
    """W in hundredths of plain numbers (types checked by the caller) when every one is 1, 0.5
    or 0; else None."""
    ones, halves = numbers.count(1.0), numbers.count(0.5)
    if ones + halves + numbers.count(0.0) != len(numbers):
        return None
    return 100 * ones + 50 * halves


def fide_expect(
    rating_: object, opponents: object, results: object = None, edition: object = None
) -> float:
    ed, _ = edition_arg(edition)
    r = rating("rating", rating_)
    given = not is_blank(results)
    plain = _plain_games(opponents, results if given else None)
    if plain is not None:
        # every game rated and played, checked here once: straight to the sum
        return pd_sum(r, plain[0], ed) / 100
    opps, res = games(opponents, results, results_given=given)
    return float(expected_score(r, opps, ed, res))


def fide_dp(p: object, edition: object = None) -> int:
    ed, _ = edition_arg(edition)
    if is_blank(p):
        raise CellError("p", "missing (a fractional score from 0 to 1 is required)")
    if isinstance(p, bool) or not isinstance(p, float | int | str):
        raise _bad("p", "a fractional score from 0 to 1", p)
    try:
        value = exact(float(p.strip().replace(",", ".")) if isinstance(p, str) else p)
    except (ValueError, FideInputError):
        raise _bad("p", "a fractional score from 0 to 1", p) from None
    if not 0 <= value <= 1:
        raise _bad("p", "a fractional score from 0 to 1", p)
    return dp(value, ed)


def fide_change(
    rating_: object, opponents: object, results: object, k: object, edition: object = None
) -> float:
    ed, _ = edition_arg(edition)
    r = rating("rating", rating_)
    if is_blank(results):
        raise CellError("results", "missing (results are required)")
    kk = whole("k", k, 1, 100, "K, a whole number from 1 to 100")
    plain = _plain_games(opponents, results)
    if plain is not None:
        # the usual crosstable row, checked here once: straight to the arithmetic
        ratings, _, w = plain
        return change_checked(r, ratings, w, kk, ed) / 100
    opps, res = games(opponents, results, results_given=True)
    return change_hundredths(r, opps, res, kk, ed) / 100


def fide_initial(
    opponents: object, results: object, edition: object = None, round_robin: object = None
) -> int | str:
    ed, day = edition_arg(edition)
    if is_blank(results):
        raise CellError("results", "missing (results are required)")
    rr = False if is_blank(round_robin) else flag("round_robin", round_robin)
    opps, res = games(opponents, results, results_given=True)
    return _initial_cell(
        initial_rating(UnratedEvent(opponents=opps, scores=res, start=day, round_robin=rr), ed)
    )


def _initial_cell(found: InitialRating) -> int | str:
    """An initial rating as a cell shows it: the number, or why there is none."""
    return found.rating if found.rating is not None else f"not rated: {found.reason}"


def _rc_cell(rating_: int, opponents: list[int], scores: list[object], ed: Edition) -> float | str:
    """Rc of a rated player's games (the capped ratings' mean), empty without games."""
    calc = event(rating_, opponents, scores, 20, ed)  # K does not change Rc
    return "" if calc.rc is None else float(calc.rc)


def fide_k(
    rating_: object,
    games_before: object,
    birth_year: object,
    reached_2400: object,
    games_in_period: object = None,
    edition: object = None,
) -> int:
    ed, day = edition_arg(edition)
    r = rating("rating", rating_)
    before = whole("games_before", games_before, 0, 100_000, "a whole number of games")
    birth: int | _dt.date | None
    if is_blank(birth_year) or birth_year == 0:
        birth = None  # unknown: no junior rule
    elif isinstance(birth_year, _dt.date):
        birth = birth_year if not isinstance(birth_year, _dt.datetime) else birth_year.date()
    elif type(birth_year) in (int, float) and birth_year > 2200:  # type: ignore[operator]
        birth = date_of("birth_year", birth_year)  # a date cell: its serial number
    else:
        birth = whole("birth_year", birth_year, 1850, 2200, "a birth year such as 2008")
    top = flag("reached_2400", reached_2400)
    n = (
        None
        if is_blank(games_in_period)
        else whole("games_in_period", games_in_period, 0, 10_000, "a whole number of games")
    )
    on = day or _dt.date.today()  # a name or no edition: the junior rule as of today
    return k_factor(
        rating=r,
        games_before=before,
        birth=birth,
        reached_2400=top,
        on=on,
        games_in_period=n,
        edition=ed,
    )


def fide_perf(opponents: object, results: object, edition: object = None) -> int:
    ed, _ = edition_arg(edition)
    if is_blank(results):
        raise CellError("results", "missing (results are required)")
    opps, res = games(opponents, results, results_given=True)
    if not any(o is not None and s is not None for o, s in zip(opps, res, strict=True)):
        raise CellError("opponents", "no game against a rated opponent")
    return performance(opps, res, ed)


def fide_round_cell(x: object) -> int:
    if type(x) is float and math.isfinite(x) and abs(x) <= 10**12:
        # a number cell: its exact value (a half is exact in binary), in integers
        return fide_round_ratio(*x.as_integer_ratio())
    if is_blank(x):
        raise CellError("x", "missing (a number is required)")
    if isinstance(x, bool) or not isinstance(x, float | int | str):
        raise _bad("x", "a number", x)
    try:
        value = exact(float(x.strip().replace(",", ".")) if isinstance(x, str) else x)
    except (ValueError, FideInputError):
        raise _bad("x", "a number", x) from None
    if abs(value) > 10**12:
        raise _bad("x", "a number below 10^12", x)
    return fide_round(value)


def fide_adjust2024(rating_: object) -> int:
    return adjust_2024(rating("rating", rating_))


def fide_edition(date: object = None) -> str:
    if is_blank(date) or _is_zero(date):
        return LATEST.name
    day = date_of("date", date)
    try:
        return edition_on(day).name
    except FideInputError:
        raise _bad("date", f"a date from {EDITIONS[0].effective.isoformat()} on", date) from None


def fide_points(results: object) -> float:
    return sum(p for v in cells(results) if (p := points("results", v)) is not None)


def fide_games(results: object) -> int:
    return sum(result("results", v) is not None for v in cells(results))


def _rated(opponents: object, results: object) -> tuple[list[int], list[object]]:
    opps, res = games(opponents, results, results_given=True)
    pairs = [(o, s) for o, s in zip(opps, res, strict=True) if o is not None and s is not None]
    return [o for o, _ in pairs], [s for _, s in pairs]


def fide_n(opponents: object, results: object) -> int:
    return len(_rated(opponents, results)[0])


def fide_w(opponents: object, results: object) -> float:
    return sum(map(score_hundredths, _rated(opponents, results)[1])) / 100


def fide_rc(
    rating_: object, opponents: object, results: object, edition: object = None
) -> float | str:
    ed, _ = edition_arg(edition)
    opps, res = _rated(opponents, results)
    if is_blank(rating_) or _is_zero(rating_):  # an unrated player: the plain mean
        return float(sum(opps)) / len(opps) if opps else ""
    calc = event(rating("rating", rating_), opps, res, 20, ed)
    return "" if calc.rc is None else float(calc.rc)


_RR_ITEMS = ("rating", "rc", "ru", "rc1", "ru1", "initial")


@lru_cache(maxsize=64)
def _round_robin(
    ratings: tuple[int | None, ...], table: tuple[tuple[tuple[object, ...], ...], ...], ed: Edition
) -> RoundRobin:
    return round_robin(ratings, table, ed)


def _rr_table(
    ratings_: object, results: object
) -> tuple[tuple[int | None, ...], tuple[tuple[tuple[object, ...], ...], ...]]:
    rating_cells = cells(ratings_)
    ratings = tuple(
        None if is_blank(v) or _is_zero(v) else rating("ratings", v) for v in rating_cells
    )
    size = len(ratings)
    flat = cells(results)
    if size < 3 or len(flat) not in (size * size, 2 * size * size):
        raise CellError(
            "results",
            f"expected a crosstable of {size} x {size} (or {size} x {2 * size} for a double "
            f"round robin) cells, got {len(flat)}",
        )
    width = len(flat) // size
    table = tuple(
        tuple(
            tuple(
                s
                for k in range(0, width, size)
                if (s := result("results", flat[i * width + k + j])) is not None
            )
            for j in range(size)
        )
        for i in range(size)
    )
    return ratings, table


def fide_rr(
    ratings_: object, results: object, player: object, item: object, edition: object = None
) -> float | int | str:
    ed, day = edition_arg(edition)
    ratings, table = _rr_table(ratings_, results)
    i = whole("player", player, 1, len(ratings), f"a player number from 1 to {len(ratings)}") - 1
    what = item.strip().lower() if isinstance(item, str) else item
    if what not in _RR_ITEMS:
        raise _bad("item", " or ".join(f'"{x}"' for x in _RR_ITEMS), item)
    own = ratings[i]
    opponents = [j for j in range(len(ratings)) for _ in table[i][j]]
    scores = [s for j in range(len(ratings)) for s in table[i][j]]
    if not any(table[k][j] for k in range(len(ratings)) for j in range(len(ratings))):
        # before the first game: nothing to compute yet
        return float(own) if what == "rating" and own is not None else ""
    if ed.round_robin_unrated_method and any(r is None for r in ratings):
        rr = _round_robin(ratings, table, ed)
        p = rr.players[i]
        if what == "rating":
            return float(own if own is not None else p.ru_new)  # type: ignore[arg-type]
        if own is not None:
            if what in ("ru", "ru1", "initial"):
                return ""
            used = rr.ratings_used
            return _rc_cell(own, [used[j] for j in opponents], scores, ed)  # type: ignore[misc]
        if what == "initial":
            return _initial_cell(initial_rating(rr.unrated_event(i, day), ed))
        value = {"rc": p.rc_new, "ru": p.ru_new, "rc1": p.rc, "ru1": p.ru}[what]
        return float(value)  # type: ignore[arg-type]
    # no unrated player, or an edition without the round-robin method: games against unrated
    # players are not rated, and an unrated player's rating comes from the rated opponents
    rated_opps = [ratings[j] for j in opponents]
    if what == "rating":
        return "" if own is None else float(own)
    if own is not None:
        if what in ("ru", "ru1", "initial"):
            return ""
        return _rc_cell(own, rated_opps, scores, ed)  # type: ignore[arg-type]
    found = initial_rating(
        UnratedEvent(opponents=rated_opps, scores=scores, start=day, round_robin=True), ed
    )
    if what == "initial":
        return _initial_cell(found)
    if what in ("rc", "rc1"):
        return "" if found.ra is None else float(found.ra)
    return "" if found.ru is None else float(fide_round(found.ru))


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


_EDITION = Param(
    "edition",
    'Edition name such as "2024-03", or the tournament start date; newest if omitted',
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
        ),
        fide_k,
    ),
    Function(
        "FIDE_PERF",
        "Performance rating: mean opponent rating (rounded) + dp of the fractional score.",
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
        "n: number of rated games, those played against rated opponents.",
        (_OPPONENTS, _RESULTS_ARG),
        fide_n,
    ),
    Function(
        "FIDE_W",
        "W: points scored in the rated games (against rated opponents, played).",
        (_OPPONENTS, _RESULTS_ARG),
        fide_w,
    ),
    Function(
        "FIDE_RC",
        "Rc: mean rating of the opponents in the rated games, each counted as the edition's "
        "350/400-point rule counts it; empty without rated games.",
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
        "FIDE_EDITION",
        "The edition of the FIDE Rating Regulations in force for a tournament starting on a "
        "date; the newest without one.",
        (Param("date", "Tournament start date (optional)", "value", True),),
        fide_edition,
        "text",
    ),
)

BY_NAME: dict[str, Function] = {f.name: f for f in REGISTRY}
# per function, the positions of the required arguments that may not be blank
_MUST_HAVE = {
    f.name: tuple(i for i, p in enumerate(f.params) if not p.optional and not p.blank_ok)
    for f in REGISTRY
}


def call(function: Function | str, *args: object) -> CellResult:
    """Call a spreadsheet function with raw cell values: a number, or a ``#FIDE!`` text."""
    fn = BY_NAME[function] if isinstance(function, str) else function
    size = len(fn.params)
    if len(args) != size:
        if len(args) > size:
            return f"{PREFIX} {fn.name}: expected at most {size} arguments, got {len(args)}"
        args = args + (None,) * (size - len(args))
    for i in _MUST_HAVE[fn.name]:
        if args[i] is None:
            return f"{PREFIX} {fn.params[i].name}: missing (required)"
    try:
        return fn.impl(*args)
    except FideInputError as error:
        return f"{PREFIX} {error}"
    except (RecursionError, MemoryError, OverflowError) as error:
        return f"{PREFIX} input too large ({type(error).__name__})"
