"""The development coefficient K."""

from __future__ import annotations

import datetime as _dt

from .editions import Edition, get_edition, is_junior
from .errors import bad
from .expected import EditionLike, check_rating


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(f"expected {what} as a whole number of 0 or more", value)
    return value


def limit_k(k: int, games_in_period: int | None, edition: Edition) -> int:
    """K x n <= 700 (8.3.3 from 2014-07): the largest whole K with K x n <= 700."""
    limit = edition.k_times_n_max
    if limit is None or not games_in_period:
        return k
    if games_in_period > limit:  # no whole K >= 1 is left: not a real rating period
        raise bad(f"expected at most {limit} rated games in a rating period (K x n <= {limit})",
                  games_in_period)  # fmt: skip
    return min(k, limit // games_in_period)


def k_factor(
    *,
    rating: int,
    games_before: int,
    birth: int | _dt.date | None = None,
    reached_2400: bool = False,
    on: _dt.date | None = None,
    games_in_period: int | None = None,
    edition: EditionLike = None,
) -> int:
    """K for a player from the facts FIDE uses (2005-07 10.52, 2012-07 8.56, 2024-03 8.3.3).

    ``games_before``: rated games completed before the event (a player on 29 keeps the new
    player's K for the whole next event); ``birth``: birth year or date; ``reached_2400``: a
    published rating ever reached 2400 (a rating of 2400 or more is itself such a rating, so it
    counts whatever the flag says); ``on``: the event's start date (junior rule);
    ``games_in_period``: the player's rated games in the period, for K x n <= 700.
    """
    ed = get_edition(edition)
    r = check_rating(rating)
    before = _count(games_before, "rated games before the event")
    n = None if games_in_period is None else _count(games_in_period, "games in the period")
    if not isinstance(reached_2400, bool):
        raise bad("expected reached_2400 as True or False", reached_2400)
    if (
        birth is not None
        and on is not None
        and (birth > on if isinstance(birth, _dt.date) else birth > on.year)
    ):  # a typing slip (2030 for 2003): no K from it, least of all a junior's
        shown = birth.isoformat() if isinstance(birth, _dt.date) else birth
        raise bad(f"expected a birth date before the event's start ({on.isoformat()})", shown)
    reached_2400 = reached_2400 or r >= 2400
    if ed.k_top_needs_new_games:
        # 2005-07 10.52: 10 needs both a published 2400 and 30 games
        if reached_2400 and before >= ed.k_new_games:
            k = ed.k_top
        elif before < ed.k_new_games:
            k = ed.k_new
        else:
            k = ed.k_standard
    elif reached_2400:
        k = ed.k_top
    elif before < ed.k_new_games or (r < ed.junior_below and is_junior(ed, birth, on)):
        k = ed.k_new
    else:
        k = ed.k_standard
    return limit_k(k, n, ed)
