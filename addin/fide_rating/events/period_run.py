"""A rating period run whole: a rating list (a rating-list workbook, or FIDE's own list) and the
period's event files to the next list, written only when the whole period computes; with FIDE's
list only the events' players are looked up, and the next list is FIDE's text layout (the
games still pending beside it) or a workbook.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import gc
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from ..files import atomic, open_regular
from ..formats.fidelist import FideList, ListedPlayer
from ..formats.listbook import (
    Listed,
    PeriodError,
    PlayerPeriod,
    RatingList,
    carried,
    read_list,
    read_pending,
    write_next,
    write_pending,
)
from ..rules.editions import (
    Edition,
    ListChange,
    ListRule,
    edition_on,
    is_junior,
    list_changes_between,
)
from ..rules.errors import FideInputError
from ..rules.k_factor import k_factor
from ..rules.list_changes import ListChanger
from .event import read_event
from .period import EventFacts, compute_facts, facts_from_files, settle


@contextlib.contextmanager
def _no_collector() -> Iterator[None]:
    """The cyclic garbage collector paused: a period builds millions of small objects without
    cycles, and the collector's passes over them cost a sixth of the time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def run(list_path: Path, event_paths: Iterable[Path], output: Path) -> PeriodDone:
    """Read, compute and write a period; nothing is written when a problem is found."""
    with _no_collector():
        rating_list = read_list(list_path)
        facts = facts_from_files(rating_list, list(event_paths))
        results = compute_facts(rating_list, facts)
        names = {f.label: f.name for f in facts if isinstance(f, EventFacts)}
        said = [note for f in _facts(facts) for note in f.notes]
        crossed = list_changes_between(rating_list.kind, rating_list.date, rating_list.next_date)
        if crossed:
            moved = [0] * len(crossed)
            for r in results:
                if not r.events and r.initial is None:
                    _count(r.note, crossed, moved)
            said += _crossed(crossed, moved, rating_list.kind, True)
            if rating_list.kind != "standard" and any(
                c.rule is ListRule.RAISE_TO_STANDARD for c in crossed
            ):
                said.append(
                    "a rating-list workbook holds no standard ratings: the raise of the rapid and "
                    "blitz lists to the standard rating - 100 is not applied (use FIDE's list)"
                )
        return PeriodDone(results, write_next(output, rating_list, results, names), said)


# --- FIDE's own list as the period's list ---------------------------------------------------

_FIDE_ID_IN_TRF = re.compile(r"^001 .{53}(.{11})", re.M)
MAX_TRF = 64 << 20  # as the TRF reader: no tournament's report is larger


def fide_ids_of(paths: Sequence[Path]) -> set[str]:
    """The FIDE IDs the events name (a quick scan of the TRFs' player records)."""
    out: set[str] = set()
    for path in paths:
        if path.suffix.lower() in (".xlsx", ".xlsm"):
            try:
                event = read_event(path)
            except (FideInputError, OSError):
                continue  # reported when the event is read
            out |= {p.fide_id.strip() for p in event.tournament.players.values()}
            continue
        try:
            with open_regular(path) as f:  # a pipe or a device: reported when it is read
                text = f.read(MAX_TRF + 1).decode("latin-1")
        except (FideInputError, OSError):
            continue
        out |= {m.group(1).strip() for m in _FIDE_ID_IN_TRF.finditer(text)}
    return {i for i in out if i.isdigit()}


def _listed(
    entry: ListedPlayer, kind: str, standard_for_unrated: bool, next_standard: int | None
) -> Listed:
    """A player of FIDE's list with the rating of ``kind``; with ``standard_for_unrated`` (R&B
    7.2.1) a player without a rapid or blitz rating but with a standard one is rated with it,
    as a new player (no games of the kind yet). ``next_standard``: his standard rating on the
    next list (the raise of 2022 reads it)."""
    rating, _, k = entry.of(kind)
    own = entry.rating
    for_raise = next_standard if kind != "standard" else None
    if kind != "standard" and rating is None and own is not None and standard_for_unrated:
        return Listed(
            str(entry.fide_id), entry.name, entry.federation, entry.sex, entry.born,
            entry.title or entry.women_title, own, None, 0, own >= 2400,
            not entry.inactive, None, for_raise, True,
        )  # fmt: skip
    return Listed(
        str(entry.fide_id), entry.name, entry.federation, entry.sex, entry.born,
        entry.title or entry.women_title, rating, k,
        # the list has no count of all rated games: its K says what matters (40 while new)
        0 if k == 40 or rating is None else 30,
        rating is not None and rating >= 2400, not entry.inactive, None, for_raise,
    )  # fmt: skip


class PeriodDone(NamedTuple):
    """What a period did: each player's entry (and how), the file written, and what it says
    beside the figures (what the list said of each event's players, the list-wide changes
    the period crossed)."""

    results: list[PlayerPeriod]
    output: Path
    said: list[str]


def run_with_fide_list(
    fide_list: Path,
    event_paths: Sequence[Path],
    output: Path,
    date: _dt.date,
    next_date: _dt.date,
    kind: str = "standard",
    pending: Path | None = None,
    open_list: Callable[[Path], FideList] | None = None,
    standard_from: Path | None = None,
) -> PeriodDone:
    """A period from FIDE's own list (text, XML or zip, any size): only the events' players
    (and those with games pending from ``pending``, a workbook with a Pending sheet) are read
    from the list's index; the next list is written in FIDE's text layout (every other player
    copied as listed), with the games still pending beside it in NEXT.pending.xlsx, or as a
    workbook when it fits one. A period that crosses a change FIDE made to a whole list (1
    October 2022, 1 March 2024) applies it to every player of the list; the raise of 2022 reads
    each player's standard rating from ``standard_from`` (the next list, FIDE's), else from the
    list itself (and says so)."""
    if open_list is None:
        from ..formats.fidelist import open_list as open_fide

        open_list = open_fide
    if next_date <= date:
        raise PeriodError([f"the next list's date {next_date} must follow the list's {date}"])
    earlier = read_pending(pending) if pending is not None else []
    crossed = list_changes_between(kind, date, next_date)
    with _no_collector(), open_list(fide_list) as listed, contextlib.ExitStack() as stack:
        newer = stack.enter_context(open_list(standard_from)) if standard_from else None

        def standard(entry: ListedPlayer) -> int | None:
            """The player's standard rating for the 2022 raise: the next list's where given."""
            if newer is None:
                return entry.rating
            found = newer.get(entry.fide_id)
            return None if found is None else found.rating

        players = {}
        entries: dict[str, ListedPlayer] = {}  # looked up once
        seven_two_one = edition_on(date, kind).standard_rating_for_unrated
        for fide_id in fide_ids_of(event_paths) | {g.fide_id for g in earlier}:
            entry = listed.get(int(fide_id)) if fide_id.isdigit() else None
            if entry is not None:
                entries[fide_id] = entry
                players[fide_id] = _listed(entry, kind, seven_two_one, standard(entry))
        lost = sorted({g.fide_id for g in earlier} - set(players))
        if lost:
            raise PeriodError([f"{pending}: FIDE ID {i} has games pending but is not on the list"
                               for i in lost])  # fmt: skip
        rating_list = RatingList(date, next_date, players, earlier, kind)
        facts = facts_from_files(rating_list, list(event_paths))
        results = compute_facts(rating_list, facts)
        next_edition = edition_on(next_date, kind)
        aged = 0  # juniors whose K 40 ends with the year
        for r in results:  # K on the next list: the list's, 10 once 2400 is reached
            if r.after.rating is not None and r.before.k is not None:
                k = _next_k(r.after, r.before.k, date, next_date, next_edition)
                aged += k != r.before.k and not r.after.reached_2400
                r.after.k = k
        names = {f.label: f.name for f in facts if isinstance(f, EventFacts)}
        said = [note for f in _facts(facts) for note in f.notes]
        done = {r.after.fide_id for r in results}
        moved = [0] * len(crossed)  # players without games whose rating a change moved
        if output.suffix.lower() in (".xlsx", ".xlsm"):
            if len(listed) > 1_048_575:
                raise PeriodError([f"{len(listed):,} players do not fit a workbook (1,048,575 "
                                   "rows): write the next list as text, -o NEXT.txt"])  # fmt: skip
            everyone = {str(e.fide_id): _listed(e, kind, False, standard(e)) for e in listed}
            for r in results:
                everyone[r.after.fide_id] = r.after
            whole = RatingList(date, next_date, everyone, kind=kind)
            by_id = {r.after.fide_id: r for r in results}
            full = []
            for i, p in everyone.items():
                found = by_id.get(i)
                if found is None:
                    found = settle(PlayerPeriod(p, dataclasses.replace(p)), whole, next_edition)
                    _count(found.note, crossed, moved)
                full.append(found)
            said += _crossed(crossed, moved, kind, newer is not None)
            return PeriodDone(results, write_next(output, whole, full, names), said)
        changed = {}
        for r in results:
            was = entries.get(r.after.fide_id)
            if was is not None:
                changed[was.fide_id] = _updated(was, r, kind)
        year_end = next_date.year > date.year  # juniors' K 40 ends with the year
        if crossed or year_end:  # every other player of the list, as FIDE changes the list
            changer = ListChanger(kind, date, next_date)
            for entry in listed:
                if str(entry.fide_id) in done:
                    continue
                rating, _, old_k = entry.of(kind)
                after = changer(rating, standard(entry)) if crossed else None
                new_rating = after.rating if after is not None else rating
                new_k = old_k
                if year_end and old_k is not None and new_rating is not None:
                    who = Listed(str(entry.fide_id), entry.name, born=entry.born,
                                 rating=new_rating)  # fmt: skip
                    new_k = _next_k(who, old_k, date, next_date, next_edition)
                    aged += new_k != old_k
                if new_rating != rating or new_k != old_k:
                    changed[entry.fide_id] = _with_rating(entry, kind, new_rating, new_k)
                    if after is not None:
                        _count("; ".join(after.notes), crossed, moved)
        said += _crossed(crossed, moved, kind, newer is not None)
        if aged:
            said.append(
                f"K on the {kind} list of {next_date.isoformat()}: {aged} junior(s) whose K 40 "
                "ended with the year of their 18th birthday get the K of 30 or more games "
                "(FIDE's list does not count a player's games: a player with fewer keeps 40)"
            )
        # FIDE's text layout has no place for them: beside it (always, so that a file from an
        # earlier run never stands for this one), for the next period's --pending
        write_pending(pending_file(output), [row for r in results for row in carried(r, names)])
        with atomic(output) as out:
            listed.write_text(out, changed)
    return PeriodDone(results, output, said)


def _count(note: str, crossed: Sequence[ListChange], moved: list[int]) -> None:
    for i, change in enumerate(crossed):
        if change.name in note:
            moved[i] += 1


def _crossed(crossed: Sequence[ListChange], moved: list[int], kind: str, newer: bool) -> list[str]:
    """What the period says of the list-wide changes it crossed."""
    out = []
    for change, count in zip(crossed, moved, strict=True):
        line = (
            f"{change.name} of the list of {change.on.isoformat()} applied to every player of the "
            f"{kind} list: {count:,} rating(s) of players without games in the period changed"
        )
        if change.rule is ListRule.RAISE_TO_STANDARD and not newer:
            line += (
                " (with the standard ratings of the list given: FIDE used the next list's; "
                "give it with --standard-from)"
            )
        out.append(line)
    return out


def _with_rating(entry: ListedPlayer, kind: str, rating: int | None, k: int | None) -> ListedPlayer:
    """A listed player with another rating and K of ``kind`` (a list-wide change, a junior's
    K at the year's end), the rest as listed."""
    if kind == "rapid":
        return dataclasses.replace(entry, rapid=rating, rapid_k=k)
    if kind == "blitz":
        return dataclasses.replace(entry, blitz=rating, blitz_k=k)
    return dataclasses.replace(entry, rating=rating, k=k)


def _next_k(
    after: Listed, listed_k: int, date: _dt.date, next_date: _dt.date, edition: Edition
) -> int:
    """K on the next list of a player of FIDE's list: 10 once 2400 is reached, else the list's
    K, but for a junior whose K 40 ends with the year of his 18th birthday (B.02 2022 8.3.3;
    FIDE's lists from 2014-07): the K of a player of 30 or more games (FIDE's list does not
    count a player's games)."""
    if after.reached_2400 or (after.rating is not None and after.rating >= 2400):
        return edition.k_top
    if (
        listed_k == edition.k_new
        and after.born is not None
        and after.rating is not None
        and is_junior(edition, after.born, date)
        and not is_junior(edition, after.born, next_date)
    ):
        return k_factor(rating=after.rating, games_before=edition.k_new_games,
                        birth=after.born, on=next_date, edition=edition)  # fmt: skip
    return listed_k


def _facts(facts: Sequence[EventFacts | list[str]]) -> list[EventFacts]:
    return [f for f in facts if isinstance(f, EventFacts)]


def pending_file(output: Path) -> Path:
    """Where the games still pending go when the next list is FIDE's text layout."""
    return output.with_name(f"{output.stem}.pending.xlsx")


def _updated(entry: ListedPlayer, r: PlayerPeriod, kind: str) -> ListedPlayer:
    """The list's entry after the period: the rating, the period's rated games and K of the
    kind, and the inactive flag."""
    games = sum(c.n for _, _, c in r.events)
    if r.initial is not None and r.initial.rating is not None:
        games = r.initial.games
    flag = entry.flag.replace("i", "") + ("" if r.after.active else "i")
    rating, k = r.after.rating, r.after.k
    e = entry
    standard = (rating, games, k) if kind == "standard" else (e.rating, e.games, e.k)
    rapid = (rating, games, k) if kind == "rapid" else (e.rapid, e.rapid_games, e.rapid_k)
    blitz = (rating, games, k) if kind == "blitz" else (e.blitz, e.blitz_games, e.blitz_k)
    # made field by field: dataclasses.replace takes a fifth of a period at FIDE's scale
    return ListedPlayer(e.fide_id, e.name, e.federation, e.sex, e.title, e.women_title,
                        e.other_titles, *standard, *rapid, *blitz, e.born, flag)  # fmt: skip
