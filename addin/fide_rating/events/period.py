"""A rating period's calculation: the list's players and the period's events to each player's
change, first rating or pending results (no file is written here: the rating-list workbook is
:mod:`fide_rating.formats.listbook`, FIDE's list :mod:`.period_fide`).

Each event is rated with the list's ratings and the edition in force at its start date; each
rated player's events are summed and rounded once (8.3.4) with K x n <= 700 over the whole
period; unrated players' results are pooled with their pending ones within the edition's window
and published when the edition's minimum games and floor are met; players below the floor become
unrated; games, the reached-2400 flag, K, the active flag and the last game are updated; the
1 March 2024 one-time adjustment is applied when the period crosses that date.
"""

from __future__ import annotations

import datetime as _dt
import functools
import multiprocessing as mp
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..formats.listbook import Listed, PendingGame, PeriodError, PlayerPeriod, RatingList
from ..formats.trf import Tournament
from ..rules.change import event_totals
from ..rules.editions import EDITIONS, Edition, edition_on
from ..rules.errors import FideInputError
from ..rules.initial import UnratedEvent, initial_rating, months_before
from ..rules.k_factor import k_factor, limit_k
from ..rules.list_changes import ListChanger
from ..rules.rounding import fide_round_ratio
from ..workers import forked
from .event import read_event
from .games import event_games
from .lists import differs_line, seven_two_one_line

__all__ = [
    "EventFacts",
    "Listed",
    "PendingGame",
    "PeriodError",
    "PlayerPeriod",
    "RatingList",
    "compute",
    "compute_facts",
    "event_facts",
    "facts_from_files",
]


def _read_one(path: Path) -> tuple[str, Tournament | str]:
    try:
        return path.name, read_event(path).tournament
    except OSError as error:
        return path.name, error.strerror or str(error)
    except FideInputError as error:
        return path.name, str(error)


# --- the period -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What one event gives the period, by FIDE ID: compact, so that it can be computed
    in another process and sent back."""

    label: str
    name: str
    start: _dt.date
    end: _dt.date
    edition: str
    games: list[tuple[str, list[tuple[int, float]]]]  # rated players' rated games
    unrated: list[tuple[str, UnratedEvent]]
    # what the list said of the event's players, in the words of every command: a rating that
    # differs from the file's, a standard rating used for a rapid or blitz one (R&B 7.2.1)
    notes: tuple[str, ...] = ()


def event_facts(
    label: str,
    t: Tournament,
    ratings: dict[str, int | None],
    first: _dt.date,
    next_date: _dt.date,
    kind: str = "standard",
    standard: frozenset[str] = frozenset(),
) -> EventFacts | list[str]:
    """An event's facts with the list's ratings, or its problems; the edition of its start date
    and of the list's rating type. ``standard``: the FIDE IDs the list rates with their standard
    rating (R&B 7.2.1)."""
    problems = [f"{label}: {error}" for error in t.errors]
    start = t.start
    if start is None:
        return [*problems, f"{label}: no start date (record 042)"]
    if not first <= start < next_date:
        last = next_date - _dt.timedelta(days=1)  # the period's last day: the next list's eve
        return [
            *problems,
            f"{label}: starts {start.isoformat()}, outside the period "
            f"{first.isoformat()} to {last.isoformat()} (both days included)",
        ]
    ids: dict[int, str] = {}
    for p in t.players.values():
        fide_id = p.fide_id.strip()
        if not fide_id:
            problems.append(f"{label}: player {p.number} ({p.name}) has no FIDE ID")
        elif fide_id not in ratings:
            problems.append(
                f"{label}: player {p.number} ({p.name}, FIDE ID {fide_id}) is not on the list"
            )
        else:
            ids[p.number] = fide_id
    if problems:
        return problems
    try:
        found = event_games(t, edition_on(start, kind), {n: ratings[i] for n, i in ids.items()})
    except FideInputError as error:
        return [f"{label}: {error}"]
    notes = []
    for n, fide_id in ids.items():
        p, used = t.players[n], ratings[fide_id]
        if fide_id in standard:
            notes.append(f"{label}: {seven_two_one_line(p, used, kind)}")
            if p.rating is None:
                continue
        if used != p.rating:
            notes.append(f"{label}: {differs_line(p, p.rating, used)}")
    if len(notes) > NOTES_AN_EVENT:  # a file whose ratings are not the list's at all
        notes[NOTES_AN_EVENT:] = [
            f"{label}: ... and {len(notes) - NOTES_AN_EVENT} more of its players whose rating "
            "is not the file's (the list's is used; report EVENT --list LIST names them all)"
        ]
    return EventFacts(
        label,
        t.name or label,
        start,
        t.end or start,
        found.edition.name,
        [(ids[n], g) for n, g in found.games.items()],
        [(ids[n], e) for n, e in found.unrated.items()],
        tuple(notes),
    )


Job = tuple[list[Path], dict[str, int | None], _dt.date, _dt.date, str, frozenset[str]]


def _facts_of_files(job: Job) -> list[EventFacts | list[str]]:
    """Read a share of the event files and compute their facts (in a worker process)."""
    paths, ratings, first, next_date, kind, standard = job
    out: list[EventFacts | list[str]] = []
    for path in paths:
        name, t = _read_one(path)
        if isinstance(t, str):
            out.append([f"{name}: {t}"])
        else:
            out.append(event_facts(name, t, ratings, first, next_date, kind, standard))
    return out


NOTES_AN_EVENT = 20  # what the list says of an event's players, at most, in the period's output
PARALLEL_FROM = 200  # event files: from this many on, read in worker processes


def facts_from_files(
    rating_list: RatingList, paths: Sequence[Path]
) -> list[EventFacts | list[str]]:
    """Every event file's facts, shared among the processors when there are many files."""
    ratings = {i: p.rating for i, p in rating_list.players.items()}
    standard = _standard_of(rating_list)
    first, next_date, kind = rating_list.date, rating_list.next_date, rating_list.kind
    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(paths) < PARALLEL_FROM or "fork" not in mp.get_all_start_methods():
        return _facts_of_files((list(paths), ratings, first, next_date, kind, standard))
    shares = [list(paths[i::workers]) for i in range(workers)]
    with forked(workers) as pool:
        jobs = [(share, ratings, first, next_date, kind, standard) for share in shares]
        done = list(pool.map(_facts_of_files, jobs))
    # back in the order of the files given
    out: list[EventFacts | list[str]] = [[] for _ in paths]
    for w, share in enumerate(done):
        for j, facts in enumerate(share):
            out[w + j * workers] = facts
    return out


def compute(
    rating_list: RatingList, events: Sequence[tuple[str, Tournament]]
) -> list[PlayerPeriod]:
    """The next list's entries (and how), or :class:`PeriodError` with every problem."""
    ratings = {i: p.rating for i, p in rating_list.players.items()}
    standard = _standard_of(rating_list)
    first, next_date, kind = rating_list.date, rating_list.next_date, rating_list.kind
    return compute_facts(
        rating_list,
        [event_facts(label, t, ratings, first, next_date, kind, standard) for label, t in events],
    )


def _standard_of(rating_list: RatingList) -> frozenset[str]:
    """The FIDE IDs the list rates with their standard rating (R&B 7.2.1)."""
    return frozenset(i for i, p in rating_list.players.items() if p.from_standard)


def duplicates(events: Sequence[EventFacts]) -> list[str]:
    """An event given twice (the same file twice, or a TRF and the workbook made from it):
    the same name, start date and players. An event counts once in a period."""
    seen: dict[tuple[str, _dt.date, frozenset[str]], str] = {}
    out = []
    for f in events:
        players = frozenset([i for i, _ in f.games] + [i for i, _ in f.unrated])
        key = (f.name.strip().casefold(), f.start, players)
        if key in seen:
            out.append(
                f"{f.label}: the same event as {seen[key]} ({f.name}, {f.start.isoformat()}, "
                f"the same {len(players)} players): an event counts once in a period"
            )
        else:
            seen[key] = f.label
    return out


def compute_facts(
    rating_list: RatingList, facts: Sequence[EventFacts | list[str]]
) -> list[PlayerPeriod]:
    """:func:`compute` from the events' facts."""
    problems = [problem for f in facts if isinstance(f, list) for problem in f]
    problems += duplicates([f for f in facts if isinstance(f, EventFacts)])
    if problems:
        raise PeriodError(problems)
    listed = rating_list.players
    played: dict[str, list[tuple[str, _dt.date | None, Edition, list[tuple[int, float]]]]] = {}
    unrated_events: dict[str, list[tuple[str, UnratedEvent]]] = {}
    last: dict[str, _dt.date] = {}
    editions = {e.name: e for e in EDITIONS}
    for f in (f for f in facts if isinstance(f, EventFacts)):
        ed, end = editions[f.edition], f.end
        for fide_id, games in f.games:
            played.setdefault(fide_id, []).append((f.label, f.start, ed, games))
            if games:
                last[fide_id] = max(last.get(fide_id, end), end)
        for fide_id, unrated in f.unrated:
            unrated_events.setdefault(fide_id, []).append((f.label, unrated))
            if any(s is not None for s in unrated.scores):
                last[fide_id] = max(last.get(fide_id, end), end)

    next_date = rating_list.next_date
    kind = rating_list.kind
    next_edition = edition_on(next_date, kind)
    pending_by_id: dict[str, list[PendingGame]] = {}
    for g in rating_list.pending:
        pending_by_id.setdefault(g.fide_id, []).append(g)
    out: list[PlayerPeriod] = []
    changer = ListChanger(kind, rating_list.date, next_date)
    for fide_id, before in listed.items():
        after = Listed(**before.__dict__)
        result = PlayerPeriod(before, after)
        if fide_id in last:
            after.last_game = last[fide_id]
        entries = played.get(fide_id, []) if before.rating is not None else []
        if before.rating is not None and entries:
            n = sum(len(g) for *_, g in entries)
            # K of the list (or from the facts on the list's date) for the whole period,
            # then K x n <= 700 with every game of the period
            base_k = before.k
            if base_k is None:
                base_k = k_factor(
                    rating=before.rating, games_before=before.games, birth=before.born,
                    reached_2400=before.reached_2400, on=rating_list.date, edition=entries[0][2],
                )  # fmt: skip
            total = 0  # K x chg in hundredths, summed exactly
            for label, start, ed, games in entries:
                # checked already: list ratings in range, scores 1, 0.5 or 0 from the TRF codes
                w_h = int(sum([s for _, s in games]) * 100)
                calc = event_totals(
                    before.rating, [o for o, _ in games], w_h, limit_k(base_k, n, ed), ed
                )
                result.events.append((label, start, calc))
                total += calc.k_chg_h
            result.change = fide_round_ratio(total, 100)
            after.rating = before.rating + result.change
            after.games = before.games + n
        elif before.rating is None:  # (a rated player without games keeps his rating)
            result.pooled = _pooled(pending_by_id.get(fide_id, []), unrated_events.get(fide_id, []))
            if result.pooled:
                # the edition of the event that completes the pooled results
                latest = max((e.start for _, e in result.pooled if e.start), default=None)
                ed_initial = edition_on(latest, kind) if latest else next_edition
                result.initial = initial_rating([e for _, e in result.pooled], ed_initial)
            if result.initial is not None and result.initial.rating is not None:
                after.rating = result.initial.rating
                after.games = before.games + result.initial.games
                result.note = "first rating"
        out.append(settle(result, rating_list, next_edition, changer))
    return out


def settle(
    result: PlayerPeriod,
    rating_list: RatingList,
    next_edition: Edition,
    changer: ListChanger | None = None,
) -> PlayerPeriod:
    """A player's entry on the next list once the period's own change is known, as FIDE's list
    has it: every list-wide change the period crosses, with or without games in the period, and
    the next list's floor (:func:`fide_rating.rules.list_changes.list_change`: the raise of 1
    October 2022 reads the player's standard rating, of the next list where it is known); K for
    the next list from the player's facts; the active flag from the last rated game where it is
    known (a rated game in the last year), else as listed."""
    before, after = result.before, result.after
    next_date = rating_list.next_date
    if changer is None:
        changer = ListChanger(rating_list.kind, rating_list.date, next_date)
    entry = changer(after.rating, before.standard)
    for note in entry.notes:
        result.add_note(note)
    after.rating = entry.rating
    if after.rating is not None:
        after.reached_2400 = after.reached_2400 or after.rating >= 2400
        after.k = k_factor(
            rating=after.rating, games_before=after.games, birth=after.born,
            reached_2400=after.reached_2400, on=next_date, edition=next_edition,
        )  # fmt: skip
    else:
        after.k = None
    if after.last_game is not None:
        after.active = after.last_game > _year_before(next_date)
    return result


@functools.lru_cache(maxsize=16)
def _year_before(day: _dt.date) -> _dt.date:
    """Active: a rated game after this day (the last 12 months before the list)."""
    return months_before(day, 12)


def _pooled(
    pending: list[PendingGame], events: list[tuple[str, UnratedEvent]]
) -> list[tuple[str, UnratedEvent]]:
    """An unrated player's events, oldest first: the pending ones, then this period's."""
    earlier: dict[tuple[str, _dt.date], list[PendingGame]] = {}
    for g in pending:
        earlier.setdefault((g.event, g.start), []).append(g)
    pooled = [
        (
            name,
            UnratedEvent(
                opponents=[g.opponent for g in games], scores=[g.score for g in games], start=start
            ),
        )
        for (name, start), games in sorted(earlier.items(), key=lambda kv: kv[0][1])
    ]
    return pooled + sorted(events, key=lambda x: x[1].start or _dt.date.min)
