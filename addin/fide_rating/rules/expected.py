"""Expected scores: dp (8.1.1), PD (8.1.2) and the 350/400-point rule in each edition's form."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeAlias

from .editions import CapRule, Edition, get_edition
from .errors import bad
from .rounding import exact, percent
from .tables import DP_TABLE

Rating: TypeAlias = int
EditionLike: TypeAlias = "Edition | str | _dt.date | None"  # a name, or a start date

RATING_MIN = 1
RATING_MAX = 4000
_OFFSET = RATING_MAX  # index of D = 0 in the signed lookups
_HUNDREDTHS = {1: 100, 0.5: 50, 0: 0}  # Fraction(1, 2) and Decimal("0.5") hash like 0.5


def check_rating(value: object, what: str = "rating") -> Rating:
    """A whole-number rating in 1..4000, or :class:`FideInputError` naming the value."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"expected a whole-number {what}", value)
    if not RATING_MIN <= value <= RATING_MAX:
        raise bad(f"expected a {what} between {RATING_MIN} and {RATING_MAX}", value)
    return value


def score_hundredths(value: object) -> int:
    """A game score 1, 0.5 or 0 as 100, 50 or 0."""
    if isinstance(value, str):
        raise bad("expected a score of 1, 0.5 or 0", value)
    try:  # True and False count as 1 and 0, as everywhere in Python
        return _HUNDREDTHS[value]  # type: ignore[index]
    except (KeyError, TypeError):
        raise bad("expected a score of 1, 0.5 or 0", value) from None


def played_games(
    opponents: Sequence[Rating | None], scores: Sequence[object | None]
) -> tuple[list[Rating], list[int]]:
    """The rated games of a list: (opponent ratings, scores in hundredths).

    ``None`` as an opponent is an unrated opponent, ``None`` as a score an unplayed game
    (forfeit, bye): neither is rated (5.1; 2012-07 8.52).
    """
    if len(opponents) != len(scores):
        raise bad(
            f"expected as many results as opponents ({len(opponents)} opponents)",
            f"{len(scores)} results",
        )
    ratings: list[Rating] = []
    hundredths: list[int] = []
    for opponent, score in zip(opponents, scores, strict=True):
        if score is None:
            continue
        w = score_hundredths(score)
        if opponent is None:
            continue
        ratings.append(check_rating(opponent, "opponent rating"))
        hundredths.append(w)
    return ratings, hundredths


def rated_game(rating: Rating, opponent: Rating, edition: Edition) -> bool:
    """Whether a game between two rated players is rated: not, in rapid and blitz from 1
    December 2024, when they are 600 or more apart and one of them is rated above 2600 (R&B
    7.3.1); then for neither player."""
    gap = edition.gap_rule
    return gap is None or abs(rating - opponent) < gap[0] or max(rating, opponent) <= gap[1]


def without_gaps(
    rating: Rating,
    opponents: Sequence[Rating | None],
    scores: Sequence[object | None],
    edition: Edition,
) -> tuple[list[Rating | None], list[object | None]]:
    """The games the gap rule leaves rated (:func:`rated_game`): the others are dropped."""
    kept = [
        (o, s)
        for o, s in zip(opponents, scores, strict=True)
        if o is None or isinstance(o, bool) or not isinstance(o, int)
        or rated_game(rating, o, edition)
    ]  # fmt: skip
    return [o for o, _ in kept], [s for _, s in kept]


def dp_for_percent(pc: int, edition: Edition) -> int:
    """dp for p in whole hundredths (8.1.1)."""
    if not 0 <= pc <= 100:
        raise bad("expected a fractional score between 0 and 1", Fraction(pc, 100))
    if pc in (0, 100) and not edition.dp_at_extremes:
        raise bad(
            f"dp is undefined at p = {pc // 100} in edition {edition.name} (10.1)",
            Fraction(pc, 100),
        )
    return DP_TABLE[pc]


def dp(p: object, edition: EditionLike = None) -> int:
    """dp for a fractional score p in 0..1, rounded to the hundredth first (8.1.1)."""
    ed = get_edition(edition)
    value = exact(p, "fractional score")
    if not 0 <= value <= 1:
        raise bad("expected a fractional score between 0 and 1", p)
    return dp_for_percent(percent(value, 1), ed)


class _Lookup:
    """PD of the player for every signed difference D = own - opponent, uncapped and capped."""

    __slots__ = ("cap", "capped", "one_upgrade", "reversed", "rows", "top", "uncapped")

    def __init__(self, edition: Edition) -> None:
        self.cap = edition.cap
        self.one_upgrade = edition.cap_rule is CapRule.ONE_UPGRADE
        self.top = (
            edition.uncapped_from
            if edition.cap_rule is CapRule.NOT_FOR_TOP and edition.uncapped_from is not None
            else RATING_MAX + 1
        )
        table, cap = edition.pd_table, edition.cap
        uncapped = []
        capped = []
        for d in range(-_OFFSET, _OFFSET + 1):
            c = max(-cap, min(cap, d))
            uncapped.append(table.pd_high(d) if d >= 0 else 100 - table.pd_high(-d))
            capped.append(table.pd_high(c) if c >= 0 else 100 - table.pd_high(-c))
        self.uncapped: list[int] = uncapped
        self.capped: list[int] = capped
        # both tables reversed, as bytes: a player's row is a slice of them (a copy in C)
        self.reversed = (bytes(uncapped[::-1]), bytes(capped[::-1]))
        self.rows: dict[int, bytes] = {}

    def row(self, rating: Rating) -> bytes | None:
        """``row[o]`` is the PD in hundredths of ``rating`` against an opponent rated ``o``, the
        cap rule applied; None where the rule depends on the other games (2022-01).

        One byte per opponent rating (4 KB per player rating, built once): the hot loops then
        index it from C, with no arithmetic per game.
        """
        if self.one_upgrade:
            return None
        found = self.rows.get(rating)
        if found is None:
            # row[o] = table[rating - o + _OFFSET], the D = rating - o entry: in the reversed
            # table that is entry _OFFSET - rating + o
            table = self.reversed[0] if rating >= self.top else self.reversed[1]
            start = _OFFSET - rating
            found = self.rows[rating] = table[start : start + _OFFSET + 1]
        return found


_LOOKUPS: dict[str, _Lookup] = {}


def lookup(edition: Edition) -> _Lookup:
    """The precomputed 8.1.2 lookups of an edition."""
    found = _LOOKUPS.get(edition.name)
    if found is None:
        found = _LOOKUPS[edition.name] = _Lookup(edition)
    return found


def ratings_used(rating: Rating, opponents: Sequence[Rating], edition: Edition) -> list[Rating]:
    """The opponent ratings the calculation uses for ``rating``: the cap rule applied.

    2005-07 10.51 (350), 2012-07 8.54, 2024-03 8.3.1 (400, every game); 2022-01 8.3.1 (a player
    benefits from one upgrade per tournament, in the game with the greatest difference; a higher
    opponent is always counted at the cap, which is no benefit); 2025-10 8.3.1 (a player rated
    2650 or more gets no cap, their opponent still does).
    """
    cap = edition.cap
    lo, hi = rating - cap, rating + cap
    rule = edition.cap_rule
    if rule is CapRule.NOT_FOR_TOP and rating >= (edition.uncapped_from or 0):
        return list(opponents)
    if rule is CapRule.ONE_UPGRADE:
        used = [hi if o > hi else o for o in opponents]
        lowest = min(opponents, default=lo)
        if lowest < lo:
            at = used.index(lowest)
            used[at] = lo
        return used
    return [lo if o < lo else hi if o > hi else o for o in opponents]


def pd_list(rating: Rating, used: Sequence[Rating], edition: Edition) -> list[int]:
    """PD in hundredths of ``rating`` against already capped opponent ratings."""
    table = lookup(edition).uncapped
    base = rating + _OFFSET
    return [table[base - u] for u in used]


def used_and_pd(
    rating: Rating, rated: Sequence[Rating], edition: Edition
) -> tuple[Sequence[Rating], list[int]]:
    """The ratings used (cap applied) and PD in hundredths for each rated opponent."""
    tables = lookup(edition)
    row = tables.row(rating)
    if row is None:
        used: Sequence[Rating] = ratings_used(rating, rated, edition)
        return used, pd_list(rating, used, edition)
    pds = list(map(row.__getitem__, rated))
    if rating >= tables.top or not rated:
        return rated, pds
    lo, hi = rating - tables.cap, rating + tables.cap
    if min(rated) >= lo and max(rated) <= hi:
        return rated, pds
    return [lo if o < lo else hi if o > hi else o for o in rated], pds


def expected(rating: Rating, opponent: Rating, edition: EditionLike = None) -> Fraction:
    """PD of one game (8.1.2), with the edition's cap rule for a single game."""
    ed = get_edition(edition)
    r = check_rating(rating)
    o = check_rating(opponent, "opponent rating")
    if not rated_game(r, o, ed):
        raise bad(
            f"not a rated game in edition {ed.name}: {abs(r - o)} points apart, one player above "
            f"{ed.gap_rule[1] if ed.gap_rule else 0} (7.3.1)",
            o,
        )
    return Fraction(pd_list(r, ratings_used(r, [o], ed), ed)[0], 100)


def expected_score(
    rating: Rating,
    opponents: Sequence[Rating | None],
    edition: EditionLike = None,
    scores: Sequence[object | None] | None = None,
) -> Fraction:
    """We: the sum of PD over the games played against rated opponents (8.3.2).

    Without ``scores`` every rated opponent counts; with them, only games with a result.
    """
    ed = get_edition(edition)
    r = check_rating(rating)
    if scores is None:
        rated = [check_rating(o, "opponent rating") for o in opponents if o is not None]
    else:
        rated, _ = played_games(opponents, scores)
    if ed.gap_rule is not None:
        rated = [o for o in rated if rated_game(r, o, ed)]
    return Fraction(pd_sum(r, rated, ed), 100)


def pd_sum(rating: Rating, opponents: Sequence[Rating], edition: Edition) -> int:
    """We in hundredths against rated opponents already checked (whole, in range)."""
    row = lookup(edition).row(rating)
    if row is None:  # one upgrade per tournament: it depends on all the games
        return sum(used_and_pd(rating, opponents, edition)[1])
    return sum(map(row.__getitem__, opponents))
