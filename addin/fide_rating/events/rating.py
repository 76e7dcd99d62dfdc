"""An event rated, into one report model: what FIDE prints for every player of a rated event (Ro,
Rc, W, N, We, chg, K, K x chg; for an unrated player Ra and Ru, or why there is none), and why a
player is not rated. ``report`` prints it, ``check`` and the round trip compare with it, and the
period rates each event's games the same way (:mod:`.games`).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass
from fractions import Fraction

from ..formats.crosstable import GAMES_BEFORE_UNKNOWN, Known
from ..formats.trf import Player, Tournament
from ..rules.change import EventCalculation, event
from ..rules.editions import Edition, get_edition
from ..rules.errors import FideInputError
from ..rules.initial import initial_rating
from ..rules.k_factor import k_factor, limit_k
from .games import EventGames, event_games
from .lists import Applied, FromList, Lookup, apply_list


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One player of FIDE's rating report of an event."""

    player: Player
    calc: EventCalculation | None  # rated players
    k: int | None
    initial: str | None  # unrated players: "1922" or "not rated: ..."
    rc: Fraction | None
    note: str | None = None
    # "list" (the list's K), "computed" (from the player's games before the event, known) or
    # "assumed" (from a TRF alone: GAMES_BEFORE_UNKNOWN games assumed)
    k_from: str | None = None
    ro: int | None = None  # the rating used: the list's where the list has the player
    facts: str | None = None  # where the facts a computed K rests on come from


def not_computed(t: Tournament, why: str) -> list[ReportLine]:
    """Every player's line when the event as a whole cannot be rated (and why)."""
    return [
        ReportLine(p, None, None, None, None, f"not computed: {why}") for p in t.players.values()
    ]


def rate(
    t: Tournament,
    edition: Edition,
    applied: Applied | None = None,
    known: dict[int, Known] | None = None,
) -> list[ReportLine]:
    """FIDE's rating report for every player of the event, rated by ``edition`` (its rating
    type is the event's).

    With ``applied`` (a rating list applied to the event, :func:`.lists.apply_list`), a player
    found there is rated with the list's rating and K (K x n <= 700 applied to this event's
    games), or under R&B 7.2.1 with his standard rating as a new player. ``known`` (by
    starting rank) gives what a TRF does not carry: the games before the event, 2400 reached,
    a K; without it K is computed with :data:`GAMES_BEFORE_UNKNOWN` games assumed.
    """
    known = dict(known or {})
    found_on_list: dict[int, FromList] = {}
    given = {n: p.rating for n, p in t.players.items()}
    if applied is not None:
        found_on_list = applied.players
        given = applied.ratings(t)
        known |= applied.known()
    # a rating out of range, or a line whose fields do not sit in their columns, is that
    # player's problem, and their opponents': the others are computed (an error shows as an
    # error, never as a plausible figure)
    invalid = {n: (f"rating {r} is out of range (1 to 4000)", f"rating {r} is out of range")
               for n, r in given.items() if r is not None and not 1 <= r <= 4000}  # fmt: skip
    invalid |= {n: (p.misread, p.misread.partition(":")[0]) for n, p in t.players.items()
                if p.misread}  # fmt: skip
    try:
        found = event_games(t, edition, {n: None if n in invalid else r for n, r in given.items()})
    except FideInputError as error:  # the event as a whole (its round-robin method)
        return not_computed(t, str(error))
    broken: dict[int, list[str]] = {}
    for (n, _), why in sorted(t.broken.items()):
        broken.setdefault(n, []).append(why)
    out = []
    for p in t.players.values():
        blocked = _blocked(p, invalid, found.round_robin)
        if blocked:
            out.append(ReportLine(p, None, None, None, None, blocked))
            continue
        if p.number in found.not_rated:
            out.append(ReportLine(p, None, None, found.not_rated[p.number], None, ro=None))
            continue
        try:
            line = _line(p, found, found_on_list.get(p.number), given[p.number],
                         known.get(p.number))  # fmt: skip
        except FideInputError as error:
            line = ReportLine(p, None, None, None, None, f"not computed: {error}")
        if p.number in broken:  # a game the two records disagree on: counted for neither
            why = "; ".join(broken[p.number])
            line = dataclasses.replace(line, note=f"{line.note}; {why}" if line.note else why)
        out.append(line)
    return out


def report(
    t: Tournament,
    edition: Edition | str | _dt.date | None = None,
    listed: Lookup | None = None,
    kind: str = "standard",
    known: dict[int, Known] | None = None,
) -> list[ReportLine]:
    """:func:`rate` with the edition of ``kind`` named or of the event's start date, and the
    list ``listed`` (by FIDE ID) applied: the one call for a script."""
    try:
        if isinstance(edition, Edition) and edition.rating_type != kind:
            edition = edition.name
        ed = get_edition(edition if edition is not None else t.start, kind)
        if edition is None and t.start is None:
            raise FideInputError(
                "expected the event's start date (record 042) or an edition, got: none"
            )
    except FideInputError as error:
        return not_computed(t, str(error))
    applied = apply_list(t, listed, kind, ed) if listed is not None else None
    return rate(t, ed, applied, known)


def _blocked(p: Player, invalid: dict[int, tuple[str, str]], round_robin: bool) -> str | None:
    """Why a player's figures cannot be computed when a player of the event cannot be used
    (a rating out of range, a line misread: why, and why in short): their own, an opponent's in
    a game that counts, anyone's in the round-robin method."""
    if p.number in invalid:
        return f"not computed: {invalid[p.number][0]}"
    for r in p.rounds:
        if r.opponent in invalid and r.rated_result is not None:
            return f"not computed: played player {r.opponent}, whose {invalid[r.opponent][1]}"
    if invalid and round_robin:
        first = min(invalid)
        return (
            "not computed: the round-robin method takes every rating, and player "
            f"{first}'s cannot be used ({invalid[first][1]})"
        )
    return None


def _k(
    p: Player, n: int, start: _dt.date | None, ed: Edition, known: Known | None
) -> tuple[int | None, str | None]:
    if p.rating is None:
        return None, None
    try:
        return (
            k_factor(
                rating=p.rating,
                games_before=GAMES_BEFORE_UNKNOWN if known is None else known.games_before,
                birth=p.birth_date,
                reached_2400=known is not None and known.reached_2400,
                on=start,
                games_in_period=n or None,
                edition=ed,
            ),
            None,
        )
    except FideInputError as error:
        return None, f"K: {error}"


def _line(
    p: Player,
    found: EventGames,
    on_list: FromList | None,
    rating: int | None,
    known: Known | None,
) -> ReportLine:
    """One player's line of the report."""
    ed, start = found.edition, found.start
    if p.number in found.games:
        games = found.games[p.number]
        listed_k = on_list.k if on_list is not None else None
        if listed_k is None and known is not None:
            listed_k = known.k
        k: int | None
        if listed_k is not None:
            k, note, source = limit_k(listed_k, len(games), ed), None, "list"
        else:
            entry = on_list.entry if on_list is not None else None
            birth = p.birth_date or (entry.born if entry is not None else None)
            k, note = _k(p._replace(rating=rating, birth=str(birth or "")), len(games), start, ed,
                         known)  # fmt: skip
            source = "assumed" if known is None else "computed"
        calc = event(rating or 0, [o for o, _ in games], [s for _, s in games], k or 20, ed)
        facts = known.source if source == "computed" and known is not None else None
        return ReportLine(p, calc if k else None, k, None, calc.rc, note, source, rating, facts)
    initial = initial_rating(found.unrated[p.number], ed)
    return ReportLine(p, None, None, str(initial), initial.ra, ro=rating)
