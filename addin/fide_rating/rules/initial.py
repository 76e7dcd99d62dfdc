"""Unrated players: the first rating in every edition, and the round-robin method.

2005-07: 10.2-10.3 (per event Ru, weighted mean); 2012-07: 8.2-8.3 (all games as if one event);
2014-07: the same with 20 per half point; 2022-01: no round-robin formulas; 2024-03: 8.2 (two
fictitious draws against 1800, at most 2200).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .change import EventCalculation, event
from .editions import Edition, InitialMethod, get_edition
from .errors import bad
from .expected import EditionLike, Rating, check_rating, dp_for_percent, score_hundredths
from .rounding import fide_round, percent


@dataclass(frozen=True, slots=True, kw_only=True)
class UnratedEvent:
    """An unrated player's games in one event.

    ``opponents``: ratings, ``None`` for an unrated opponent; ``scores``: 1, 0.5, 0, ``None``
    for an unplayed game. ``rc``: the round-robin method's Rc for this player (then every played
    game counts at that rating, 8.21b). ``round_robin``: the event is a round robin (the
    n / (n + 1) variant below 50 % in the editions that have it).
    """

    opponents: Sequence[Rating | None]
    scores: Sequence[object | None]
    start: _dt.date | None = None
    round_robin: bool = False
    rc: Fraction | int | None = None


@dataclass(frozen=True, slots=True)
class EventRu:
    """How one event entered an initial rating: counted, or disregarded and why."""

    index: int
    games: int  # games counted (against rated opponents, or all with a round-robin Rc)
    rated_games: int
    score: Fraction
    rating_sum: Fraction
    ru: Fraction | None = None  # the event's own Ru (2005-07 weighted method)
    disregarded: str | None = None


@dataclass(frozen=True, slots=True)
class InitialRating:
    """An initial rating, or ``rating`` None and ``reason`` saying why not (yet)."""

    edition: Edition
    rating: int | None
    reason: str | None
    ra: Fraction | None
    games: int
    score: Fraction
    ru: Fraction | None
    events: tuple[EventRu, ...]

    def __str__(self) -> str:
        return str(self.rating) if self.rating is not None else f"not rated: {self.reason}"


def ru_from(
    ra: Fraction,
    score: Fraction,
    games: int,
    edition: Edition,
    *,
    round_robin: bool = False,
    opponents: int | None = None,
) -> Fraction:
    """Ru from Ra and a score, unrounded (2012-07 8.22-8.25; 2005-07 10.22-10.25; 2022-01 8.2).

    50 %: Ra; above: Ra + the edition's bonus per half point above 50 %; below: Ra + dp, in a
    round robin Ra + dp x n / (n + 1) where the edition has that variant.
    """
    if edition.bonus_per_half_point is None:
        raise bad(f"edition {edition.name} computes Ru with fictitious games", edition.name)
    above = 2 * score - games  # half points above 50 %
    if above >= 0:
        return ra + edition.bonus_per_half_point * above
    d = Fraction(dp_for_percent(percent(score, games), edition))
    if round_robin and edition.round_robin_variant:
        n = opponents if opponents is not None else games
        d = d * n / (n + 1)
    return ra + d


def months_before(day: _dt.date, months: int) -> _dt.date:
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    for d in (day.day, 30, 29, 28):
        try:
            return _dt.date(year, month + 1, d)
        except ValueError:
            continue
    raise AssertionError("unreachable")  # pragma: no cover


def _tally(index: int, ev: UnratedEvent) -> EventRu:
    if len(ev.opponents) != len(ev.scores):
        raise bad(
            f"expected as many results as opponents in event {index + 1} "
            f"({len(ev.opponents)} opponents)",
            f"{len(ev.scores)} results",
        )
    games = rated = 0
    score_h = 0
    opponents_sum = 0  # whole numbers: summed as ints, one Fraction at the end
    rc = None if ev.rc is None else Fraction(ev.rc)
    for opponent, s in zip(ev.opponents, ev.scores, strict=True):
        if s is None:
            continue
        w = score_hundredths(s)
        if opponent is not None:
            check_rating(opponent, "opponent rating")
            opponents_sum += opponent
        elif rc is None:
            continue  # 6.6: a game between two unrated players is not rated
        games += 1
        rated += opponent is not None
        score_h += w
    total = rc * games if rc is not None else Fraction(opponents_sum)
    return EventRu(index, games, rated, Fraction(score_h, 100), total)


def initial_rating(
    events: Sequence[UnratedEvent] | UnratedEvent, edition: EditionLike = None
) -> InitialRating:
    """The initial rating of an unrated player from one or more events, oldest first.

    Applies the edition's disregard rules (first event's score, events with too few rated
    opponents), the pooling window, the minimum number of games and the floor.
    """
    ed = get_edition(edition)
    evs = [events] if isinstance(events, UnratedEvent) else list(events)
    tallies = [_tally(i, ev) for i, ev in enumerate(evs)]
    dated = [ev.start for ev in evs if ev.start is not None]
    latest = max(dated) if dated else None
    window_start = months_before(latest, ed.pooling_months) if latest else None

    kept: list[EventRu] = []
    out: list[EventRu] = []
    for tally, ev in zip(tallies, evs, strict=True):
        t = tally
        why = None
        first = not kept
        if window_start is not None and ev.start is not None and ev.start < window_start:
            why = f"more than {ed.pooling_months} months before the latest event"
        elif t.games == 0:
            why = "no games against rated opponents"
        elif first and t.score < ed.first_event_min_score:
            why = (
                "zero score in the first event"
                if ed.first_event_min_score <= Fraction(1, 2)
                else f"less than {ed.first_event_min_score} point in the first event"
            )
        elif (
            ed.min_rated_games_per_event is not None
            and t.rated_games < ed.min_rated_games_per_event
            and (not first or ed.min_rated_games_applies_to_first)
        ):
            why = f"fewer than {ed.min_rated_games_per_event} games against rated opponents"
        if why is None and ed.initial_method is InitialMethod.WEIGHTED_EVENTS:
            ra = t.rating_sum / t.games
            if 2 * t.score < t.games and percent(t.score, t.games) == 0 and not ed.dp_at_extremes:
                why = "dp is undefined for a zero score (10.1)"
            else:
                ru = ru_from(ra, t.score, t.games, ed, round_robin=ev.round_robin)
                t = EventRu(t.index, t.games, t.rated_games, t.score, t.rating_sum, ru)
                floor = ed.floor_on(ev.start)
                if fide_round(ru) < floor:
                    why = f"Ru {fide_round(ru)} is below the floor {floor}"
        if why is not None:
            t = EventRu(t.index, t.games, t.rated_games, t.score, t.rating_sum, t.ru, why)
        else:
            kept.append(t)
        out.append(t)

    games = sum(t.games for t in kept)
    rated_games = sum(t.rated_games for t in kept)
    score = sum((t.score for t in kept), Fraction(0))
    rating_sum = sum((t.rating_sum for t in kept), Fraction(0))

    def result(
        rating: int | None, reason: str | None, ra: Fraction | None, ru: Fraction | None
    ) -> InitialRating:
        return InitialRating(ed, rating, reason, ra, games, score, ru, tuple(out))

    if not kept:
        reasons = list(dict.fromkeys(t.disregarded for t in out if t.disregarded))
        return result(None, "; ".join(reasons) if reasons else "no event counts", None, None)
    if ed.initial_method is InitialMethod.WEIGHTED_EVENTS:
        ra = rating_sum / games
        ru = sum((t.ru * t.games for t in kept if t.ru is not None), Fraction(0)) / games
    elif ed.initial_method is InitialMethod.FICTITIOUS_DRAWS:
        extra = ed.fictitious_games
        ra = (rating_sum + extra * ed.fictitious_rating) / (games + extra)
        p = percent(score + Fraction(extra, 2), games + extra)
        ru = ra + dp_for_percent(p, ed)
    else:
        ra = rating_sum / games
        single = len(kept) == 1
        rr = single and evs[kept[0].index].round_robin
        ru = ru_from(ra, score, games, ed, round_robin=rr)
    # 2005-07 9.14 (a)/(b), 2012-07 7.14 a/b: a round robin's games all count (6.3), a
    # Swiss's against rated opponents (6.4); t.games holds just that
    if games < ed.min_games:
        what = "games" if games != rated_games else "games against rated opponents"
        return result(
            None,
            f"{games} {what if games != 1 else what.replace('games', 'game', 1)}, "
            f"{ed.min_games} needed",
            ra,
            ru,
        )
    rating = fide_round(ru)
    floor = ed.floor_on(latest)
    if rating < floor:
        return result(None, f"Ru {rating} is below the floor {floor}", ra, ru)
    if ed.initial_max is not None:
        rating = min(rating, ed.initial_max)
    return result(rating, None, ra, ru)


# --- round robins with unrated players (2005-07 10.21b/10.54, 2012-07 8.21b/8.58) -----------


@dataclass(frozen=True, slots=True)
class RoundRobinPlayer:
    """One player of a round robin with unrated players."""

    index: int
    rating: Rating | None
    score: Fraction
    games: int
    rc: int | None = None  # unrated: Ra of the tournament (step 2)
    ru: int | None = None  # unrated: Ru before the correction (step 2)
    rc_new: int | None = None  # after the correction pass (step 3)
    ru_new: int | None = None

    @property
    def p(self) -> Fraction:
        return self.score / self.games


@dataclass(frozen=True, slots=True)
class RoundRobin:
    """The result of the round-robin method: Rar, dpa, Ra and every player's figures."""

    edition: Edition
    rar: Fraction
    dpa: Fraction
    ra: int
    players: tuple[RoundRobinPlayer, ...]
    opponents: tuple[tuple[int, ...], ...]  # per player, the opponent of each played game
    scores: tuple[tuple[Fraction, ...], ...]

    @property
    def ratings_used(self) -> tuple[Rating | None, ...]:
        """Every player's rating for the rated players' changes: unrated ones at Ru new."""
        return tuple(p.rating if p.rating is not None else p.ru_new for p in self.players)

    def rated_event(self, index: int, k: int) -> EventCalculation:
        """A rated player's event, games against the unrated counted at their new Ru (8.58)."""
        player = self.players[index]
        if player.rating is None:
            raise bad("expected a rated player", index + 1)
        used = self.ratings_used
        return event(
            player.rating,
            [used[j] for j in self.opponents[index]],
            list(self.scores[index]),
            k,
            self.edition,
        )

    def unrated_event(self, index: int, start: _dt.date | None = None) -> UnratedEvent:
        """An unrated player's games with the method's Rc, for :func:`initial_rating`."""
        player = self.players[index]
        if player.rating is not None:
            raise bad("expected an unrated player", index + 1)
        return UnratedEvent(
            opponents=[self.players[j].rating for j in self.opponents[index]],
            scores=list(self.scores[index]),
            start=start,
            round_robin=True,
            rc=player.rc_new,
        )


def _cells(value: object) -> list[object]:
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [v for v in value if v is not None]
    return [value]


def round_robin(
    ratings: Sequence[Rating | None],
    results: Sequence[Sequence[object]],
    edition: EditionLike = None,
) -> RoundRobin:
    """The round-robin method for unrated players, with its one correction pass.

    ``ratings``: each player's rating, ``None`` if unrated; ``results[i][j]``: i's score against
    j (a list of scores in a double round robin; ``None`` for the diagonal and unplayed games).
    """
    ed = get_edition(edition)
    if not ed.round_robin_unrated_method:
        raise bad(f"edition {ed.name} has no round-robin method for unrated players", ed.name)
    size = len(ratings)
    if size < 3 or len(results) != size or any(len(row) != size for row in results):
        raise bad(f"expected a square crosstable of {size} players", [len(r) for r in results])
    for r in ratings:
        if r is not None:
            check_rating(r)
    opponents: list[list[int]] = [[] for _ in range(size)]
    scores: list[list[Fraction]] = [[] for _ in range(size)]
    for i in range(size):
        for j in range(size):
            mine, theirs = _cells(results[i][j]), _cells(results[j][i])
            if i == j and mine:
                raise bad(f"expected no result of player {i + 1} against themself", mine)
            if len(mine) != len(theirs) or any(
                score_hundredths(a) + score_hundredths(b) != 100
                for a, b in zip(mine, theirs, strict=True)
            ):
                raise bad(
                    f"expected results of players {i + 1} and {j + 1} to add up to 1",
                    (mine, theirs),
                )
            for s in mine:
                opponents[i].append(j)
                scores[i].append(Fraction(score_hundredths(s), 100))
    rated = [i for i in range(size) if ratings[i] is not None]
    if not rated:
        raise bad("expected at least one rated player", ratings)
    if any(not opponents[i] for i in range(size)):
        raise bad("expected every player to have played", [len(o) for o in opponents])
    n = size - 1  # the number of opponents
    rar = Fraction(sum(ratings[i] or 0 for i in rated), len(rated))
    dps = [dp_for_percent(percent(sum(scores[i], Fraction(0)), len(scores[i])), ed) for i in rated]
    dpa = Fraction(sum(dps), len(dps))
    ra = fide_round(rar - dpa * n / (n + 1))  # rounded before use (10.54: 2348)

    def ru_at(rc: int, i: int) -> int:
        return fide_round(
            ru_from(
                Fraction(rc),
                sum(scores[i], Fraction(0)),
                len(scores[i]),
                ed,
                round_robin=True,
                opponents=n,
            )
        )

    step2 = {i: ru_at(ra, i) for i in range(size) if ratings[i] is None}
    current = [ratings[i] if ratings[i] is not None else step2[i] for i in range(size)]
    players = []
    for i in range(size):
        total, games = sum(scores[i], Fraction(0)), len(scores[i])
        if ratings[i] is not None:
            players.append(RoundRobinPlayer(i, ratings[i], total, games))
            continue
        own = step2[i]
        correction = 0
        for j in opponents[i]:
            other = current[j]
            assert other is not None
            if other > own + ed.cap:
                correction += own + ed.cap - other
            elif other < own - ed.cap:
                correction += own - ed.cap - other
        rc_new = fide_round(ra + Fraction(correction, games))
        players.append(RoundRobinPlayer(i, None, total, games, ra, own, rc_new, ru_at(rc_new, i)))
    return RoundRobin(
        ed,
        rar,
        dpa,
        ra,
        tuple(players),
        tuple(tuple(o) for o in opponents),
        tuple(tuple(s) for s in scores),
    )
