"""Performance rating and the 2024-03 one-time adjustment."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .editions import get_edition
from .errors import bad
from .expected import EditionLike, Rating, check_rating, dp_for_percent, played_games
from .rounding import fide_round, percent


def performance(
    opponents: Sequence[Rating | None],
    scores: Sequence[object | None],
    edition: EditionLike = None,
) -> int:
    """Rp = Ra + dp(p), Ra the mean of the rated opponents rounded to a whole number.

    Title Regulations 1.4.8; Hungarian Chess Federation rating regulation (2017), example 3
    (2300 average, 8/10 -> 2540). A score of 0 % or 100 % has no dp where the edition's table
    leaves it undefined (2005-07 10.1): an error, which the templates keep from showing.
    """
    ed = get_edition(edition)
    rated, w = played_games(opponents, scores)
    if not rated:
        raise bad("expected at least one game against a rated opponent", len(opponents))
    ra = fide_round(Fraction(sum(rated), len(rated)))
    return ra + dp_for_percent(percent(Fraction(sum(w), 100), len(w)), ed)


def adjust_2024(rating: Rating) -> Rating:
    """The one-time adjustment of 1 March 2024 (FIDE's summary of the changes, point 1): below
    2000, 0.6 x R + 800."""
    r = check_rating(rating)
    return r if r >= 2000 else fide_round(Fraction(3, 5) * r + 800)


def raise_2022(rating: Rating, standard: Rating | None) -> Rating:
    """The one-time raise of the rapid and blitz lists of 1 October 2022 (as federations
    summarise it; FIDE's text was not found): a rating more than 100 below the player's standard
    rating becomes the standard rating - 100; a player without a standard rating keeps his."""
    r = check_rating(rating)
    if standard is None:
        return r
    s = check_rating(standard)
    return s - 100 if s - r > 100 else r
