"""Rating change of a rated player: per event unrounded, per rating period rounded once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .editions import Edition, get_edition
from .errors import bad
from .expected import (
    _OFFSET,
    RATING_MAX,
    RATING_MIN,
    EditionLike,
    Rating,
    check_rating,
    lookup,
    pd_list,
    played_games,
    ratings_used,
    used_and_pd,
)
from .rounding import fide_round


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


@dataclass(frozen=True, slots=True)
class EventCalculation:
    """What FIDE prints for one player and one event: Rc, Ro, w, n, chg, K, K x chg.

    Per-game figures are kept as integer hundredths (exact); :attr:`games` gives them as lines.
    """

    edition: Edition
    rating: Rating  # Ro
    k: int
    opponents: tuple[Rating, ...]
    used: tuple[Rating, ...]
    pd_h: tuple[int, ...]
    scores: tuple[float, ...]  # 1, 0.5 or 0 per game (exact in binary)

    @property
    def n(self) -> int:
        return len(self.used)

    @property
    def w(self) -> Fraction:
        return Fraction(sum(self.scores))

    @property
    def we(self) -> Fraction:
        """Expected score: the sum of PD."""
        return Fraction(sum(self.pd_h), 100)

    @property
    def chg(self) -> Fraction:
        """Sum of W - PD."""
        return Fraction(int(sum(self.scores) * 100) - sum(self.pd_h), 100)

    @property
    def k_chg(self) -> Fraction:
        """K x chg, not rounded (8.3.2 d)."""
        return self.k * self.chg

    @property
    def rc(self) -> Fraction | None:
        """Mean of the ratings used (the capped ones), None without games."""
        return Fraction(sum(self.used), self.n) if self.used else None

    @property
    def games(self) -> tuple[GameLine, ...]:
        return tuple(
            GameLine(o, u, Fraction(w), Fraction(p, 100))
            for o, u, w, p in zip(self.opponents, self.used, self.scores, self.pd_h, strict=True)
        )


_INT_TYPES = frozenset({int})
_SCORE_TYPES = frozenset({int, float})


def _fast_games(
    opponents: Sequence[Rating | None], scores: Sequence[object | None]
) -> tuple[Sequence[Rating], Sequence[float]] | None:
    """The common case in C-speed passes (all opponents rated, all games played, plain ints and
    floats, valid); None sends the input to the checking path."""
    if len(opponents) != len(scores):
        return None
    if not opponents:
        return (), ()
    try:
        if min(opponents) < RATING_MIN or max(opponents) > RATING_MAX:  # type: ignore[type-var,operator]
            return None
    except TypeError:
        return None
    if not (
        _INT_TYPES.issuperset(map(type, opponents))
        and _SCORE_TYPES.issuperset(map(type, scores))
        # three C-speed counts instead of hashing every float into a set
        and scores.count(1) + scores.count(0.5) + scores.count(0) == len(scores)
    ):
        return None
    return opponents, scores  # type: ignore[return-value]


def _games(
    opponents: Sequence[Rating | None], scores: Sequence[object | None]
) -> tuple[Sequence[Rating], Sequence[float]]:
    """Rated opponents and their scores as 1, 0.5 or 0 (exact in binary)."""
    fast = _fast_games(opponents, scores)
    if fast is not None:
        return fast
    rated, w = played_games(opponents, scores)
    return rated, [h / 100 for h in w]


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
    ed = get_edition(edition)
    r = check_rating(rating)
    kk = check_k(k)
    rated, w = _games(opponents, scores)
    used, pds = used_and_pd(r, rated, ed)
    return EventCalculation(ed, r, kk, tuple(rated), tuple(used), tuple(pds), tuple(w))


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
    rated, w = _games(opponents, scores)
    table = lookup(ed).own(r)
    if table is None:
        expected = sum(pd_list(r, ratings_used(r, rated, ed), ed))
    else:
        base = r + _OFFSET
        expected = sum([table[base - o] for o in rated])
    return kk * (int(sum(w) * 100) - expected)


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
