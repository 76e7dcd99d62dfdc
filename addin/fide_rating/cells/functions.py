"""The spreadsheet functions themselves: each takes raw cell values and returns a number or text.

Each function coerces its arguments with :mod:`fide_rating.cells.coerce` and calls the rules
core; :func:`fide_rating.cells.registry.call` turns a raised input error into the cell's text.

May import: the rules core, :mod:`.coerce` and the standard library only.
"""

from __future__ import annotations

import datetime as _dt
import math
from fractions import Fraction
from functools import lru_cache

from ..rules.change import change_checked, change_hundredths, event
from ..rules.editions import Edition, edition_on, editions_of
from ..rules.errors import FideInputError
from ..rules.expected import dp, expected_score, pd_sum, rated_game, score_hundredths
from ..rules.initial import InitialRating, RoundRobin, UnratedEvent, initial_rating, round_robin
from ..rules.k_factor import k_factor
from ..rules.performance import adjust_2024, performance
from ..rules.ratable import TimeControl, TimeControlError, time_control_problems
from ..rules.rounding import exact, fide_round, fide_round_ratio
from .coerce import (
    CellError,
    bad_arg,
    cells,
    date_of,
    edition_arg,
    exact_number,
    flag,
    games,
    is_blank,
    is_zero,
    plain_games,
    points,
    rating,
    rating_type_arg,
    result,
    typed,
    whole,
)


def fide_expect(
    rating_: object, opponents: object, results: object = None, edition: object = None
) -> float:
    ed, _ = edition_arg(edition)
    r = rating("rating", rating_)
    given = not is_blank(results)
    plain = plain_games(opponents, results if given else None)
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
        raise bad_arg("p", "a fractional score from 0 to 1", p)
    try:
        value = exact(float(p.strip().replace(",", ".")) if isinstance(p, str) else p)
    except (ValueError, FideInputError):
        raise bad_arg("p", "a fractional score from 0 to 1", p) from None
    if not 0 <= value <= 1:
        raise bad_arg("p", "a fractional score from 0 to 1", p)
    return dp(value, ed)


def fide_change(
    rating_: object, opponents: object, results: object, k: object, edition: object = None
) -> float:
    ed, _ = edition_arg(edition)
    r = rating("rating", rating_)
    if is_blank(results):
        raise CellError("results", "missing (results are required)")
    kk = whole("k", k, 1, 100, "K, a whole number from 1 to 100")
    plain = plain_games(opponents, results)
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
    rating_type: object = None,
) -> int:
    ed, day = edition_arg(edition)
    ed = typed(ed, day, rating_type_arg(rating_type))
    r = rating("rating", rating_)
    before = whole("games_before", games_before, 0, 100_000, "a whole number of games")
    birth: int | _dt.date | None
    if is_blank(birth_year) or birth_year == 0:
        birth = None  # unknown: no junior rule
    elif isinstance(birth_year, _dt.date):
        birth = birth_year if not isinstance(birth_year, _dt.datetime) else birth_year.date()
    elif type(birth_year) in (int, float) and birth_year > 2200:  # type: ignore[operator]
        birth = date_of("birth_year", birth_year)  # a date cell: its serial (from 1906)
    else:
        birth = whole("birth_year", birth_year, 1900, 2200, "a birth year such as 2008")
    top = flag("reached_2400", reached_2400)
    n = (
        None
        if is_blank(games_in_period)
        else whole("games_in_period", games_in_period, 0, 700, "a number of games from 0 to 700")
    )
    on = day or _dt.date.today()  # a name or no edition: the junior rule as of today
    born = birth if isinstance(birth, int) else None if birth is None else birth.year
    # a player is born before the event and, here, at most 100 years before it
    if born is not None and (born < max(1900, on.year - 100) or born > on.year):
        raise bad_arg(
            "birth_year",
            f"a birth year from 1900 to {on.year} (or a birth date)",
            # a date cell's date after the event (its serial means nothing to a reader)
            birth.isoformat() if isinstance(birth, _dt.date) and born > on.year else birth_year,
        )
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
        raise bad_arg("x", "a number", x)
    try:
        value = exact(float(x.strip().replace(",", ".")) if isinstance(x, str) else x)
    except (ValueError, FideInputError):
        raise bad_arg("x", "a number", x) from None
    if abs(value) > 10**12:
        raise bad_arg("x", "a number below 10^12", x)
    return fide_round(value)


def fide_adjust2024(rating_: object) -> int:
    return adjust_2024(rating("rating", rating_))


def fide_edition(start: object = None, rating_type: object = None) -> str:
    kind = rating_type_arg(rating_type) or "standard"
    chain = editions_of(kind)
    if is_blank(start) or is_zero(start):
        return chain[-1].name
    day = date_of("start", start)
    try:
        return edition_on(day, kind).name
    except FideInputError:
        raise bad_arg("start", f"a date from {chain[0].effective.isoformat()} on", start) from None


def fide_ratable(
    minutes: object,
    increment: object,
    moves_first_control: object,
    highest_rating: object,
    edition: object = None,
) -> bool | str:
    ed, _ = edition_arg(edition)
    top = (
        0
        if is_blank(highest_rating) or is_zero(highest_rating)
        else rating("highest_rating", highest_rating)
    )
    written = minutes.strip() if isinstance(minutes, str) else ""
    if written and not written.replace(".", "", 1).replace(",", "", 1).isdigit():
        # a time control as announced: 90+30, 90'/40+30'+30", 40/120, 60, G/90;+30 ...
        try:
            found = TimeControl.parse(written)
        except TimeControlError as error:  # why it cannot be read, or both its readings
            raise CellError("minutes", str(error)) from None
        return _ratable_text(time_control_problems(found, top, ed))
    total = exact_number("minutes", minutes, 1, 100_000, "the minutes a player has for 60 moves")
    inc = (
        Fraction(0)
        if is_blank(increment)
        else exact_number("increment", increment, 0, 3_600, "seconds a move")
    )
    first = (
        None
        if is_blank(moves_first_control) or is_zero(moves_first_control)
        else whole("moves_first_control", moves_first_control, 1, 200, "a number of moves")
    )
    tc = TimeControl(((first, total),), inc)
    return _ratable_text(time_control_problems(tc, top, ed))


def _ratable_text(problems: list[str]) -> bool | str:
    return True if not problems else "not ratable: " + "; ".join(problems)


def fide_points(results: object) -> float:
    return sum(p for v in cells(results) if (p := points("results", v)) is not None)


def fide_games(results: object) -> int:
    return sum(result("results", v) is not None for v in cells(results))


def _rated(opponents: object, results: object) -> tuple[list[int], list[object]]:
    opps, res = games(opponents, results, results_given=True)
    pairs = [(o, s) for o, s in zip(opps, res, strict=True) if o is not None and s is not None]
    return [o for o, _ in pairs], [s for _, s in pairs]


def _rated_games(
    opponents: object, results: object, rating_: object, edition: object
) -> tuple[list[int], list[object]]:
    """The rated games, without those the edition leaves unrated for a player of this rating
    (rapid and blitz from 2024-12: 600 or more apart, one above 2600)."""
    opps, res = _rated(opponents, results)
    if is_blank(rating_) or is_zero(rating_) or is_blank(edition):
        return opps, res
    ed, _ = edition_arg(edition)
    if ed.gap_rule is None:
        return opps, res
    own = rating("rating", rating_)
    kept = [(o, s) for o, s in zip(opps, res, strict=True) if rated_game(own, o, ed)]
    return [o for o, _ in kept], [s for _, s in kept]


def fide_n(
    opponents: object, results: object, rating_: object = None, edition: object = None
) -> int:
    return len(_rated_games(opponents, results, rating_, edition)[0])


def fide_w(
    opponents: object, results: object, rating_: object = None, edition: object = None
) -> float:
    return sum(map(score_hundredths, _rated_games(opponents, results, rating_, edition)[1])) / 100


def fide_rc(
    rating_: object, opponents: object, results: object, edition: object = None
) -> float | str:
    ed, day = edition_arg(edition)
    opps, res = _rated(opponents, results)
    if is_blank(rating_) or is_zero(rating_):
        # an unrated player: Ra, the base of the first rating in the edition's method (from
        # 2024-03 with the two fictitious opponents rated 1800), as FIDE's report shows it
        if not opps:
            return ""
        found = initial_rating(UnratedEvent(opponents=opps, scores=res, start=day), ed)
        if found.ra is not None:
            return float(found.ra)
        # an event disregarded for the rating (a zero score ...): its Ra all the same, so that
        # the cell says what the base would have been, never an empty text
        e, extra = found.events[0], ed.fictitious_games
        return float((e.rating_sum + extra * ed.fictitious_rating) / (e.games + extra))
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
        None if is_blank(v) or is_zero(v) else rating("ratings", v) for v in rating_cells
    )
    size = len(ratings)
    if size < 3:
        raise CellError("ratings", f"expected a round robin of 3 players or more, got {size}")
    flat = cells(results)
    if len(flat) not in (size * size, 2 * size * size):
        raise CellError(
            "results",
            f"expected a crosstable of {size} x {size} (or {size} x {2 * size} for a double "
            f"round robin) cells, got {len(flat)}",
        )
    width = len(flat) // size
    _check_reciprocal(flat, size, width)
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


def _outcome(value: object) -> float | str | None:
    """A crosstable cell for the reciprocity check: the points of a played game, "+" or "-"
    for a forfeit, None for no game."""
    played = result("results", value)
    if played is not None:
        return float(played)  # type: ignore[arg-type]
    if isinstance(value, str) and value.strip() in ("+", "-"):
        return value.strip()
    if is_blank(value):
        return None
    raise bad_arg("results", "1, ½, 0, =, + or - in a round robin", value)


_MIRROR: dict[object, object] = {1.0: 0.0, 0.0: 1.0, 0.5: 0.5, "+": "-", "-": "+", None: None}


def _check_reciprocal(flat: list[object], size: int, width: int) -> None:
    """Each game written twice must agree: 1 against 0, ½ against ½, + against -; the
    diagonal is empty."""
    for cycle in range(0, width, size):
        for i in range(size):
            if _outcome(flat[i * width + cycle + i]) is not None:
                raise CellError(
                    "results", f"row {i + 1}, column {cycle + i + 1}: a player against himself"
                )
            for j in range(i + 1, size):
                a = _outcome(flat[i * width + cycle + j])
                b = _outcome(flat[j * width + cycle + i])
                if _MIRROR[a] != b:
                    raise CellError(
                        "results",
                        f"row {i + 1}, column {cycle + j + 1} ({_shown(a)}) does not match "
                        f"row {j + 1}, column {cycle + i + 1} ({_shown(b)})",
                    )


def _shown(outcome: float | str | None) -> str:
    if outcome is None:
        return "blank"
    return {1.0: "1", 0.0: "0", 0.5: "½"}.get(outcome, str(outcome))  # type: ignore[arg-type]


def fide_rr(
    ratings_: object, results: object, player: object, item: object, edition: object = None
) -> float | int | str:
    ed, day = edition_arg(edition)
    ratings, table = _rr_table(ratings_, results)
    i = whole("player", player, 1, len(ratings), f"a player number from 1 to {len(ratings)}") - 1
    what = item.strip().lower() if isinstance(item, str) else item
    if what not in _RR_ITEMS:
        raise bad_arg("item", " or ".join(f'"{x}"' for x in _RR_ITEMS), item)
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
    # players are not rated, and an unrated player's rating comes from the rated opponents;
    # the method's own figures (rc1, ru1, ru) are not used: empty
    rated_opps = [ratings[j] for j in opponents]
    if what == "rating":
        return "" if own is None else float(own)
    if what in ("ru", "ru1", "rc1"):
        return ""
    if own is not None:
        if what == "initial":
            return ""
        return _rc_cell(own, rated_opps, scores, ed)  # type: ignore[arg-type]
    found = initial_rating(
        UnratedEvent(opponents=rated_opps, scores=scores, start=day, round_robin=True), ed
    )
    if what == "initial":
        return _initial_cell(found)
    return "" if found.ra is None else float(found.ra)  # rc: Ra, the base of the rating
