"""FIDE's rating report of an event: ``fide-rating report EVENT.trf``.

What FIDE prints for every player of a rated event: Ro, Rc, W, N, We, chg, K, K x chg; for an
unrated player Ru, or why there is none. Also the games of an event as the rating period needs
them (:func:`event_games`).

May import: the cell layer's argument checks, the file formats, the rules core and the
standard library.
"""

from __future__ import annotations

import argparse
import datetime as _dt
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Protocol

from ..cells.coerce import edition_arg
from ..formats.fidelist import ListedPlayer
from ..formats.trf import PLAYED, Player, Tournament
from ..rules.change import EventCalculation, event
from ..rules.editions import Edition, get_edition
from ..rules.errors import FideInputError
from ..rules.expected import rated_game
from ..rules.initial import UnratedEvent, initial_rating, round_robin
from ..rules.k_factor import k_factor, limit_k
from ..rules.rounding import fide_round
from .console import (
    EDITION,
    FORCE,
    Commands,
    command,
    fmt,
    list_options,
    output,
    problems,
    say,
    shown,
    start_option,
    write_csv,
)

WORKBOOKS = (".xlsx", ".xlsm")
GAMES_BEFORE_UNKNOWN = 30  # a TRF does not say; a listed player usually has 30 or more


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


@dataclass(frozen=True, slots=True)
class Known:
    """What a crosstable workbook or a rating-list workbook knows of a player that a TRF does
    not carry, and K depends on."""

    games_before: int  # rated games before the event
    reached_2400: bool
    k: int | None  # K on the list, if it gives one
    source: str  # "the workbook", "the list"


def is_round_robin(t: Tournament) -> bool:
    """Every player meets every other the same number of times (and at most 30 players)."""
    players = t.players
    if not 3 <= len(players) <= 30:
        return False
    counts: dict[tuple[int, int], int] = {}
    for p in players.values():
        for r in p.rounds:
            if r.opponent is not None:
                counts[(p.number, r.opponent)] = counts.get((p.number, r.opponent), 0) + 1
    expected = len(players) * (len(players) - 1)
    times = set(counts.values())
    return len(counts) == expected and len(times) == 1


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
    for p in players.values():
        played = [
            (o, sc)
            for opp, _, res in p.rounds
            if opp is not None
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


class Lookup(Protocol):
    """A rating list by FIDE ID (:class:`fide_rating.formats.fidelist.FideList`, a dict)."""

    def get(self, fide_id: int, /) -> ListedPlayer | None: ...


@dataclass(frozen=True, slots=True)
class ListCheck:
    """What a rating list said about an event's players."""

    found: int  # players matched by FIDE ID
    missing: list[Player]  # players with a FIDE ID the list does not have
    differs: list[tuple[Player, int | None, int | None]]  # (player, the file's, the list's)


def report(
    t: Tournament,
    edition: Edition | str | _dt.date | None = None,
    listed: Lookup | None = None,
    kind: str = "standard",
    known: dict[int, Known] | None = None,
) -> list[ReportLine]:
    """FIDE's rating report for every player of the event (edition from the start date).

    With ``listed`` (a rating list by FIDE ID), a player found there is rated with the list's
    rating of ``kind`` and the list's K (K x n <= 700 applied to this event's games). ``known``
    (by starting rank) gives what a TRF does not carry: the games before the event, 2400
    reached, a K; without it K is computed with :data:`GAMES_BEFORE_UNKNOWN` games assumed.
    """
    known = dict(known or {})
    if kind != "standard" and (edition is not None or t.start is not None):
        try:  # the rapid or blitz edition: of the start date, or named for its date
            if isinstance(edition, Edition):
                edition = edition if edition.rating_type == kind else edition.name
            edition = get_edition(t.start if edition is None else edition, kind)
        except FideInputError as error:
            why = f"not computed: {error}"
            return [ReportLine(p, None, None, None, None, why) for p in t.players.values()]
    entries = _entries(t, listed)
    ratings = {n: e.of(kind)[0] for n, e in entries.items()}
    # the edition resolved above for a rapid or blitz event: R&B 7.2.1 where it has it
    seven_two_one = isinstance(edition, Edition) and edition.standard_rating_for_unrated
    for n, e in entries.items():
        if seven_two_one and ratings[n] is None and e.rating is not None:
            # R&B 7.2.1: without a rating of the type, the standard rating, as a rated (new)
            # player: no games of the type yet
            ratings[n] = e.rating
            known[n] = Known(0, e.rating >= 2400, None, "the standard rating (7.2.1)")
    given = {n: ratings.get(n, p.rating) for n, p in t.players.items()}
    # a rating out of range is that player's problem, and their opponents': the others are
    # computed (an error shows as an error, never as a plausible figure)
    invalid = {n: r for n, r in given.items() if r is not None and not 1 <= r <= 4000}
    try:
        found = event_games(t, edition, {n: None if n in invalid else r for n, r in given.items()})
    except FideInputError as error:  # the event as a whole (its round-robin method)
        why = f"not computed: {error}"
        return [ReportLine(p, None, None, None, None, why) for p in t.players.values()]
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
            line = _line(p, found, entries.get(p.number), given[p.number], kind,
                         known.get(p.number))  # fmt: skip
            out.append(line)
        except FideInputError as error:
            out.append(ReportLine(p, None, None, None, None, f"not computed: {error}"))
    return out


def _blocked(p: Player, invalid: dict[int, int], round_robin: bool) -> str | None:
    """Why a player's figures cannot be computed when a rating in the event is out of range:
    their own, an opponent's in a game that counts, anyone's in the round-robin method."""
    if p.number in invalid:
        return f"not computed: rating {invalid[p.number]} is out of range (1 to 4000)"
    for r in p.rounds:
        if r.opponent in invalid and r.rated_result is not None:
            return (
                f"not computed: played player {r.opponent}, whose rating "
                f"{invalid[r.opponent]} is out of range"
            )
    if invalid and round_robin:
        first = min(invalid)
        return (
            "not computed: the round-robin method takes every rating, and player "
            f"{first}'s ({invalid[first]}) is out of range"
        )
    return None


def _line(
    p: Player,
    found: EventGames,
    entry: ListedPlayer | None,
    rating: int | None,
    kind: str,
    known: Known | None,
) -> ReportLine:
    """One player's line of the report."""
    ed, start = found.edition, found.start
    if p.number in found.games:
        games = found.games[p.number]
        listed_k = entry.of(kind)[2] if entry is not None else None
        if listed_k is None and known is not None:
            listed_k = known.k
        k: int | None
        if listed_k is not None:
            k, note, source = limit_k(listed_k, len(games), ed), None, "list"
        else:
            birth = p.birth_date or (entry.born if entry is not None else None)
            k, note = _k(p._replace(rating=rating, birth=str(birth or "")), len(games), start, ed,
                         known)  # fmt: skip
            source = "assumed" if known is None else "computed"
        calc = event(rating or 0, [o for o, _ in games], [s for _, s in games], k or 20, ed)
        return ReportLine(p, calc if k else None, k, None, calc.rc, note, source, rating)
    initial = initial_rating(found.unrated[p.number], ed)
    return ReportLine(p, None, None, str(initial), initial.ra, ro=rating)


def _entries(t: Tournament, listed: Lookup | None) -> dict[int, ListedPlayer]:
    """The list's entry of each player (by starting rank) found there by FIDE ID."""
    if listed is None:
        return {}
    out = {}
    for n, p in t.players.items():
        fide_id = p.fide_id.strip()
        if fide_id.isdigit():
            entry = listed.get(int(fide_id))
            if entry is not None:
                out[n] = entry
    return out


def with_list_ratings(t: Tournament, listed: Lookup, kind: str = "standard") -> Tournament:
    """The event with the list's ratings for the players the list has (by FIDE ID)."""
    entries = _entries(t, listed)
    lines = [
        x._replace(rating=entries[x.number].of(kind)[0])
        if isinstance(x, Player) and x.number in entries
        else x
        for x in t.lines
    ]
    return Tournament(lines, t.errors, t.warnings, t.encoding, t.newline)


def check_list(t: Tournament, listed: Lookup, kind: str = "standard") -> ListCheck:
    """Players the list does not have, and those whose rating in the file is not the list's."""
    entries = _entries(t, listed)
    missing = [p for n, p in sorted(t.players.items())
               if p.fide_id.strip().isdigit() and n not in entries]  # fmt: skip
    differs = [
        (p, p.rating, entries[n].of(kind)[0])
        for n, p in sorted(t.players.items())
        if n in entries and entries[n].of(kind)[0] != p.rating
    ]
    return ListCheck(len(entries), missing, differs)


# --- the command ----------------------------------------------------------------------------


def register(sub: Commands) -> None:
    p = command(
        sub,
        "report",
        "FIDE's rating report of an event, from its TRF or its crosstable workbook",
        "For every player: Ro, Rc, W, N, We, chg, K, K x chg; for an unrated player Ru "
        "or why there is none. The edition follows the event's start date (record 042, or the "
        "Event sheet). A workbook's own facts (games before the event, 2400 reached, the "
        "list's K) give each K as the workbook computes it; a TRF does not carry them.",
        ["event.trf", "event.trf --edition 2024-03 --csv report.csv", "event.xlsx",
         "event.trf --list players_list_foa.zip"],
    )  # fmt: skip
    p.add_argument("event", help="the event: a TRF (TRF-16), or a crosstable workbook (.xlsx)")
    p.add_argument(
        "--edition", help=EDITION.replace("(default: newest)", "(default: the event's start date)")
    )
    p.add_argument("--csv", help="also write the report to this CSV file")
    start_option(p)
    list_options(p, from_file=True)
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def list_summary(name: object, kind: str, checked: ListCheck, players: int) -> None:
    say(
        f"rating list {shown(name)} ({kind}): {checked.found} of {players} players found by FIDE "
        "ID; their rating and K are the list's"
    )
    for player, mine, theirs in checked.differs:
        say(f"  rating differs: {player.number} {shown(player.name)}: {mine or 'unrated'} in the "
            f"file, {theirs or 'unrated'} on the list (the list's is used)")  # fmt: skip
    for player in checked.missing:
        say(f"  not on the list: {player.number} {shown(player.name)} (FIDE ID {player.fide_id})")


def read_event(source: Path) -> tuple[Tournament, dict[int, Known]]:
    """An event from a TRF or a crosstable workbook (with what the workbook knows of its
    players), its problems on stderr."""
    if source.suffix.lower() in WORKBOOKS:
        from .convert import crosstable

        return crosstable(source)
    return read_trf(source), {}


def read_trf(source: Path) -> Tournament:
    """A TRF file, its problems and warnings on stderr; one without players is refused."""
    from ..formats.trf import read

    t = read(source)
    problems(source, t.errors)
    problems(source, t.warnings, kind="warning")
    if not t.players:
        raise FideInputError(
            f"expected player records (001) in the TRF, got: none ({shown(source)})"
        )
    return t


def main(args: argparse.Namespace) -> int:
    from .check import event_rating_type
    from .lists import known_of, open_list

    source = Path(args.event)
    if args.csv:
        output(Path(args.csv), args, source, suffixes=(".csv",))
    t, known = read_event(source)
    ed, day = edition_arg(args.edition) if args.edition else (None, None)
    if args.start:
        t.given_start = args.start
    if t.start is None and day is None:
        where = "the Event sheet, B5" if source.suffix.lower() in WORKBOOKS else "record 042"
        raise FideInputError(
            f"{shown(source)}: the event's start date is missing ({where}): it chooses the "
            "edition and dates the junior rule; give it with --start YYYY-MM-DD"
        )
    if t.start is None:
        t.given_start = day  # the date given for the edition stands for record 042
    kind, why = event_rating_type(t, args.rating_type, source)
    if day is not None and kind != "standard":
        ed = get_edition(day, kind)  # a start date given: the edition of the event's type
    listed = open_list(args.list, kind) if args.list else None
    try:
        known = known | known_of(t, listed)
        lines = report(t, day or ed, listed, kind, known)
        checked = check_list(t, listed, kind) if listed is not None else None
    finally:
        if listed is not None:
            listed.close()
    used = ed or (_edition_of(t.start, kind) if t.start else None)
    head = ["No", "FIDE ID", "Name", "Ro", "Rc/Ra", "W", "N", "We", "chg", "K", "K from",
            "K*chg", "Ru"]  # fmt: skip
    if listed is not None:
        head.insert(4, "Ro in file")
    rows: list[list[str]] = []
    for x in sorted(lines, key=lambda x: x.player.number):
        p = x.player
        c = x.calc
        ro = x.ro if x.ro is not None else p.rating
        row = [
            str(p.number), p.fide_id, p.name, "" if ro is None else str(ro),
            "" if x.rc is None else str(fide_round(x.rc)),
            "" if c is None else fmt(c.w, 1), "" if c is None else str(c.n),
            "" if c is None else fmt(c.we), "" if c is None else fmt(c.chg),
            "" if x.k is None else str(x.k), x.k_from or "",
            "" if c is None else fmt(c.k_chg), x.initial or x.note or "",
        ]  # fmt: skip
        if listed is not None:
            row.insert(4, "" if p.rating is None else str(p.rating))
        rows.append(row)
    if args.csv:
        write_csv(Path(args.csv), head, rows)
    say(f"{shown(t.name or source)}: {len(lines)} players, edition {used}")
    say(f"rating type: {kind} ({why})")
    if checked is not None:
        list_summary(args.list, kind, checked, len(t.players))
    from_list = sum(1 for x in lines if x.k_from == "list")
    computed = sum(1 for x in lines if x.k_from == "computed")
    assumed = [x for x in lines if x.k_from == "assumed"]
    if from_list:
        say(f"K from the list for {from_list} player(s) (K x n <= 700 applied to this event)")
    if computed:
        say(f"K computed from the workbook's facts for {computed} player(s) (games before the "
            "event, 2400 reached)")  # fmt: skip
    if assumed:
        ks = sorted({x.k for x in assumed if x.k is not None})
        say(
            f"K {'/'.join(map(str, ks))} assumed for {len(assumed)} player(s): a TRF does not "
            f"carry the rated games before the event (taken as {GAMES_BEFORE_UNKNOWN} or more) "
            "nor 2400 reached; give --list for the list's K"
        )
    shown_rows = [[*r] for r in rows]
    if checked is not None and checked.differs:
        at = head.index("Ro")
        differing = {str(p.number) for p, _, _ in checked.differs}
        for r in shown_rows:
            if r[0] in differing:
                r[at] += "*"
        say("* Ro from the list: the file's rating differs (Ro in file)")
    _table(head, shown_rows)
    if args.csv:
        say(f"wrote {shown(args.csv)}")
    unsure = sum(1 for x in lines if x.note)
    if unsure:
        say(f"{unsure} player(s) not computed or without K: see the last column", err=True)
    return 1 if t.errors or unsure else 0


def _edition_of(start: _dt.date, kind: str) -> str:
    """The name of the edition of a start date and rating type, or why there is none."""
    try:
        return get_edition(start, kind).name
    except FideInputError as error:
        return f"none ({error})"


def _table(head: list[str], rows: list[list[str]]) -> None:
    """The report as a table: the name left-aligned (and cut at 28), every figure right."""
    name = head.index("Name")
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]  # fmt: skip
    widths[name] = min(widths[name], 28)
    for r in [head, *rows]:
        say(
            "  ".join(
                v[:w].ljust(w) if i == name else v.rjust(w)
                for i, (v, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
