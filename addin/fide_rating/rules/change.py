"""Rating change of a rated player: per event unrounded, per rating period rounded once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple, cast

from .editions import Edition, get_edition
from .errors import bad
from .expected import (
    _LOOKUPS,
    RATING_MAX,
    RATING_MIN,
    EditionLike,
    Rating,
    check_rating,
    lookup,
    pd_sum,
    played_games,
    ratings_used,
    score_hundredths,
    used_and_pd,
    without_gaps,
)
from .rounding import fide_round

# a score of a played game as the fast path keeps it (1, 1.0, True, Fraction(1, 2) alike)
_SCORES: dict[object, float] = {1.0: 1.0, 0.5: 0.5, 0.0: 0.0}


def check_k(k: object) -> int:
    """A K factor: a whole number from 1 to 100."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
        raise bad("expected K as a whole number from 1 to 100", k)
    return k


@dataclass(frozen=True, slots=True)
class GameLine:
    """One line of FIDE's individual calculation: an opponent and the game's figures."""

    opponent: Rating  # the published rating
    used: Rating  # the rating the calculation used (FIDE marks a capped one with a star)
    w: Fraction
    pd: Fraction

    @property
    def capped(self) -> bool:
        return self.used != self.opponent

    @property
    def chg(self) -> Fraction:
        """W - PD (8.3.2 b)."""
        return self.w - self.pd


class EventCalculation(NamedTuple):
    """What FIDE prints for one player and one event: Rc, Ro, w, n, chg, K, K x chg.

    Per-game figures are kept as integer hundredths (exact); :attr:`games` gives them as lines.
    (A named tuple: immutable, and created ten times faster than a frozen dataclass.)
    """

    edition: Edition
    rating: Rating  # Ro
    k: int
    opponents: tuple[Rating, ...]
    pd_h: tuple[int, ...]  # PD of each game (the cap applied), in hundredths
    scores: tuple[object, ...]  # per game a number equal to 1, 0.5 or 0

    @property
    def n(self) -> int:
        return len(self.opponents)

    @property
    def used(self) -> tuple[Rating, ...]:
        """The rating counted for each opponent (the cap rule applied): the same figures PD was
        read with, computed when asked for."""
        return tuple(ratings_used(self.rating, self.opponents, self.edition))

    @property
    def w(self) -> Fraction:
        return Fraction(sum(map(score_hundredths, self.scores)), 100)

    @property
    def we(self) -> Fraction:
        """Expected score: the sum of PD."""
        return Fraction(sum(self.pd_h), 100)

    @property
    def chg(self) -> Fraction:
        """Sum of W - PD."""
        return self.w - self.we

    @property
    def k_chg(self) -> Fraction:
        """K x chg, not rounded (8.3.2 d)."""
        return Fraction(self.k_chg_h, 100)

    @property
    def w_h(self) -> int:
        """W in hundredths."""
        return int(sum(self.scores) * 100)  # type: ignore[arg-type]

    @property
    def chg_h(self) -> int:
        """Sum of W - PD in hundredths (exact integers: the fast way to add events up)."""
        return self.w_h - sum(self.pd_h)

    @property
    def k_chg_h(self) -> int:
        """K x chg in hundredths of a rating point."""
        return self.k * self.chg_h

    @property
    def rc(self) -> Fraction | None:
        """Mean of the ratings used (the capped ones), None without games."""
        return Fraction(sum(self.used), self.n) if self.opponents else None

    @property
    def games(self) -> tuple[GameLine, ...]:
        return tuple(
            GameLine(o, u, Fraction(score_hundredths(w), 100), Fraction(p, 100))
            for o, u, w, p in zip(self.opponents, self.used, self.scores, self.pd_h, strict=True)
        )


def _quick_w(opponents: Sequence[object], scores: Sequence[object]) -> int | None:
    """W in hundredths when every game is rated and played and every score is 1, 0.5 or 0.

    Three C-speed counts (1 == 1.0 == True, 0.5 == Fraction(1, 2)) check the scores and give W
    at once; a rating range check follows. None sends the input to the checking path, which
    also gives the error message.
    """
    try:
        n = len(scores)
        if len(opponents) != n:
            return None
        # float keys: the cells and most callers pass floats, and float == float is the fast
        # comparison (1 == 1.0 for ints all the same)
        ones, halves = scores.count(1.0), scores.count(0.5)
        if ones + halves + scores.count(0.0) != n:
            return None
        if n and (min(opponents) < RATING_MIN or max(opponents) > RATING_MAX):  # type: ignore[type-var,operator]
            return None
    except (TypeError, AttributeError):
        return None
    return 100 * ones + 50 * halves


def _checked(
    opponents: Sequence[Rating | None], scores: Sequence[object | None]
) -> tuple[list[Rating], list[float], int]:
    rated, w = played_games(opponents, scores)
    return rated, [h / 100 for h in w], sum(w)


def event(
    rating: Rating,
    opponents: Sequence[Rating | None],
    scores: Sequence[object | None],
    k: int,
    edition: EditionLike = None,
) -> EventCalculation:
    """The calculation of a rated player's event (8.3): per game the rating used, PD and W - PD.

    ``None`` opponents (unrated) and ``None`` scores (unplayed games) are left out (5.1, 8.52).
    """
    ed = edition if type(edition) is Edition else get_edition(edition)
    # the usual call (whole numbers in range, every game rated and played) takes the fast path:
    # the checks in C, one row of the edition's table (8.1.2) indexed per game
    if (
        type(rating) is int
        and RATING_MIN <= rating <= RATING_MAX
        and type(k) is int
        and 1 <= k <= 100
        and ed.gap_rule is None
        and len(opponents) == len(scores)
    ):
        try:
            # each score 1, 0.5 or 0 (KeyError otherwise), as the float of its value
            played = tuple(map(_SCORES.__getitem__, scores))
            given = cast("tuple[Rating, ...]", tuple(opponents))  # checked as it is read
            if not given or min(given) >= RATING_MIN:
                tables = _LOOKUPS.get(ed.name) or lookup(ed)
                row = tables.rows.get(rating) or tables.row(rating)
                if row is not None:
                    # an opponent above RATING_MAX: IndexError; not a whole number: TypeError
                    pds = tuple(map(row.__getitem__, given))
                    return tuple.__new__(EventCalculation, (ed, rating, k, given, pds, played))
        except (KeyError, TypeError, IndexError):  # the checking path says what is wrong
            pass
    r = check_rating(rating)
    kk = check_k(k)
    if ed.gap_rule is not None:
        opponents, scores = without_gaps(r, opponents, scores, ed)
    if _quick_w(opponents, scores) is not None:
        try:
            return event_checked(r, cast("Sequence[Rating]", opponents), scores, kk, ed)
        except TypeError:  # a rating that is not an int: the checking path says which
            pass
    rated, w, _ = _checked(opponents, scores)
    return event_checked(r, rated, w, kk, ed)


def event_checked(
    rating: Rating,
    opponents: Sequence[Rating],
    scores: Sequence[object],
    k: int,
    edition: Edition,
) -> EventCalculation:
    """:func:`event` for inputs already checked: whole ratings in range, every opponent rated
    and every score 1, 0.5 or 0 (a rating period checks them once for all its events)."""
    _, pds = used_and_pd(rating, opponents, edition)
    return tuple.__new__(
        EventCalculation, (edition, rating, k, tuple(opponents), tuple(pds), tuple(scores))
    )


class EventTotals(NamedTuple):
    """An event's sums, what a rating period's calculation page prints per event (Rc, Ro, w,
    n, chg, K, K x chg) without the per-game lines: integers, exact."""

    rating: Rating
    k: int
    n: int
    used_sum: int  # the ratings used (capped), summed: Rc = used_sum / n
    pd_h: int  # We in hundredths
    w_h: int  # W in hundredths

    @property
    def chg_h(self) -> int:
        return self.w_h - self.pd_h

    @property
    def k_chg_h(self) -> int:
        return self.k * (self.w_h - self.pd_h)


def event_totals(
    rating: Rating, opponents: Sequence[Rating], w_h: int, k: int, edition: Edition
) -> EventTotals:
    """:class:`EventTotals` for inputs already checked (as :func:`change_checked`)."""
    tables = lookup(edition)
    row = tables.row(rating)
    if row is None or not opponents:
        used, pds = used_and_pd(rating, opponents, edition)
        return EventTotals(rating, k, len(used), sum(used), sum(pds), w_h)
    pd_h = sum(map(row.__getitem__, opponents))
    lo, hi = rating - tables.cap, rating + tables.cap
    if rating >= tables.top or (min(opponents) >= lo and max(opponents) <= hi):
        used_sum = sum(opponents)
    else:
        used_sum = sum([lo if o < lo else hi if o > hi else o for o in opponents])
    return EventTotals(rating, k, len(opponents), used_sum, pd_h, w_h)


def change_hundredths(
    rating: Rating,
    opponents: Sequence[Rating | None],
    scores: Sequence[object | None],
    k: int,
    edition: EditionLike = None,
) -> int:
    """K x sum(W - PD) of one event in exact hundredths of a rating point (the bare change)."""
    ed = edition if isinstance(edition, Edition) else get_edition(edition)
    r = check_rating(rating)
    kk = check_k(k)
    if ed.gap_rule is not None:
        opponents, scores = without_gaps(r, opponents, scores, ed)
    w = _quick_w(opponents, scores)
    if w is not None:
        try:
            return change_checked(r, cast("Sequence[Rating]", opponents), w, kk, ed)
        except TypeError:  # a rating that is not an int: the checking path says which
            pass
    rated, _, w = _checked(opponents, scores)
    return change_checked(r, rated, w, kk, ed)


def change_checked(
    rating: Rating, opponents: Sequence[Rating], w_h: int, k: int, edition: Edition
) -> int:
    """K x (W - sum of PD) in hundredths, for inputs already checked: whole ratings in range,
    every opponent rated and played, W in hundredths (the cell layer checks them itself)."""
    return k * (w_h - pd_sum(rating, opponents, edition))


def change(
    rating: Rating,
    opponents: Sequence[Rating | None],
    scores: Sequence[object | None],
    k: int,
    edition: EditionLike = None,
) -> Fraction:
    """K x sum(W - PD) of one event, exact and not rounded (8.3.2 d)."""
    return Fraction(change_hundredths(rating, opponents, scores, k, edition), 100)


def period_change(changes: Iterable[Fraction | int | EventCalculation]) -> int:
    """The rating-period change: the events' K x chg summed, rounded once (8.3.4)."""
    total = Fraction(0)
    for c in changes:
        total += c.k_chg if isinstance(c, EventCalculation) else Fraction(c)
    return fide_round(total)


def new_rating(rating: Rating, changes: Iterable[Fraction | int | EventCalculation]) -> Rating:
    """The rating after a period: Ro + the rounded period change."""
    return check_rating(rating) + period_change(changes)
