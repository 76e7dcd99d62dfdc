"""An event's rated games: who played whom in a game that counts, with the ratings the event is
rated with, and the unrated players' games for a first rating; the round-robin method where the
edition has it (2005-07 to 2014-07) and unrated players took part. Every command that rates an
event (``report``, ``period``, the crosstable's reading) takes its games from here.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field

from ..formats.trf import PLAYED, Player, Tournament, is_round_robin
from ..rules.editions import Edition, get_edition
from ..rules.errors import FideInputError
from ..rules.expected import rated_game
from ..rules.initial import UnratedEvent, round_robin


@dataclass(frozen=True, slots=True)
class EventGames:
    """An event's rated games, player by player, for the ratings given."""

    edition: Edition
    start: _dt.date | None
    games: dict[int, list[tuple[int, float]]]  # rated players: (opponent rating used, score)
    unrated: dict[int, UnratedEvent]  # unrated players: their games for an initial rating
    round_robin: bool = False  # computed by the round-robin method (2005-07 to 2014-07)
    # unrated players the round-robin method cannot rate, and why ("not rated: ...")
    not_rated: dict[int, str] = field(default_factory=dict)
    method: str | None = None  # why the round-robin method was not applied, when it was not


def _scores(p: Player) -> list[float]:
    return [s for r in p.rounds if (s := r.rated_result) is not None]


def _who(p: Player) -> str:
    return f"player {p.number} ({p.name or 'no name'})"


def _round_robin_method(
    t: Tournament, ed: Edition, rating_of: dict[int, int | None], start: _dt.date | None
) -> tuple[dict[int, int | None], dict[int, UnratedEvent], dict[int, str], str | None, bool]:
    """The round-robin method for the unrated players (2005-07 10.21b and 10.54; 2012-07
    8.21b and 8.58): the ratings the rated players' games count with, the unrated players'
    events, those it cannot rate and why, why it was not applied, whether it was.

    Where the edition's dp is undefined at 0 % and 100 % (2005-07 10.1: "For 0 or 100% the
    value d(p) is obviously undefined"): an unrated player who scored 0 has no Ru (and 10.21
    disregards a first event of less than one point): he is not rated, and his games count for
    nobody, as a game against a player without a rating (10.51 rates the games between rated
    players); the method runs on the others. A rated player at 0 % or 100 % of the others
    leaves dp(pa) undefined: the method has no Ra, the unrated players are not rated and the
    rated players' games against them are not rated. Nobody rated: no Rar, nobody rated.
    """
    players = t.players
    order = sorted(players)
    not_rated: dict[int, str] = {}
    if not ed.dp_at_extremes:
        for n in order:
            scores = _scores(players[n])
            if rating_of.get(n) is None and scores and not any(scores):
                not_rated[n] = (
                    f"not rated: scored 0 of {len(scores)} in a round robin: dp is undefined at "
                    f"p = 0 (B.02 {ed.name} 10.1), and so is his Ru (10.21 disregards a first "
                    "event of less than one point); his games are rated for nobody"
                )
    rest = [n for n in order if n not in not_rated]
    unrated = [n for n in rest if rating_of.get(n) is None]
    used = {n: rating_of.get(n) for n in rest}
    if not unrated:
        return used, {}, not_rated, None, False
    rated = [n for n in rest if rating_of.get(n) is not None]
    why = None
    if not rated:
        why = "nobody in this round robin is rated: the round-robin method has no Rar"
    elif len(rest) < 3:
        why = "fewer than 3 players left for the round-robin method"
    elif not ed.dp_at_extremes:
        for n in rated:
            scores = [r.rated_result for r in players[n].rounds
                      if r.opponent in used and r.rated_result is not None]  # fmt: skip
            if scores and (not any(scores) or all(s == 1 for s in scores)):
                share = "100" if any(scores) else "0"
                why = (
                    f"{_who(players[n])} scored {share} % against the others: dp is undefined "
                    f"at p = {share[0]} (B.02 {ed.name} 10.1), so the round-robin method has no "
                    "Ra; games against the unrated players are not rated"
                )
                break
    if why is not None:
        for n in unrated:
            not_rated[n] = f"not rated: {why}"
        return {n: rating_of.get(n) for n in rated}, {}, not_rated, why, False
    index = {n: i for i, n in enumerate(rest)}
    table: list[list[object]] = [[None] * len(rest) for _ in rest]
    for n in rest:
        for r in players[n].rounds:
            score = r.rated_result
            if r.opponent in index and score is not None:
                cell = table[index[n]][index[r.opponent]]
                table[index[n]][index[r.opponent]] = [*(cell or []), score]  # type: ignore[misc]
    rr = round_robin([rating_of.get(n) for n in rest], table, ed)
    events = {n: rr.unrated_event(index[n], start) for n in unrated}
    return {n: rr.ratings_used[index[n]] for n in rest}, events, not_rated, None, True


def event_games(
    t: Tournament,
    edition: Edition | str | _dt.date | None = None,
    ratings: dict[int, int | None] | None = None,
) -> EventGames:
    """Who played whom in a rated game, with the ratings of the event's list (the file's own
    unless ``ratings`` by starting rank say otherwise); the round-robin method where the edition
    has it and unrated players took part (2005-07 to 2014-07)."""
    start = t.start
    if edition is None:
        if start is None:
            raise FideInputError(
                "expected the event's start date (record 042) or an edition, got: none"
            )
        edition = start
    ed = get_edition(edition)
    players = t.players
    rating_of = ratings if ratings is not None else {n: p.rating for n, p in players.items()}
    rr_events: dict[int, UnratedEvent] = {}
    not_rated: dict[int, str] = {}
    method = None
    applied = False
    if (
        is_round_robin(t)
        and ed.round_robin_unrated_method
        and any(rating_of.get(n) is None for n in players)
    ):
        used, rr_events, not_rated, method, applied = _round_robin_method(t, ed, rating_of, start)
    else:
        used = rating_of
    games: dict[int, list[tuple[int, float]]] = {}
    unrated: dict[int, UnratedEvent] = {}
    played_score = PLAYED
    broken = t.broken  # games the two records disagree on: counted for neither player
    in_broken = {n for n, _ in broken}
    for p in players.values():
        played = [
            (o, sc)
            for opp, _, res in p.rounds
            if opp is not None
            and (sc := played_score.get(res)) is not None
            and (o := used.get(opp)) is not None
        ]
        if p.number in in_broken:
            played = [
                (o, sc)
                for k, (opp, _, res) in enumerate(p.rounds, start=1)
                if opp is not None
                and (p.number, k) not in broken
                and (sc := played_score.get(res)) is not None
                and (o := used.get(opp)) is not None
            ]
        own = rating_of.get(p.number)
        if own is not None:
            if ed.gap_rule is not None:  # rapid and blitz 7.3.1: unrated for both players
                played = [g for g in played if rated_game(own, g[0], ed)]
            games[p.number] = played
        elif p.number in not_rated:
            continue
        elif p.number in rr_events:
            unrated[p.number] = rr_events[p.number]
        else:
            unrated[p.number] = UnratedEvent(
                opponents=[o for o, _ in played], scores=[s for _, s in played], start=start
            )
    return EventGames(ed, start, games, unrated, applied, not_rated, method)
