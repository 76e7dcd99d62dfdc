"""A rating period: from a rating list and the period's events to the next list.

``fide-rating period LIST.xlsx EVENTS... -o NEXT.xlsx``. Each event is rated with the list's
ratings and the edition in force at its start date; each rated player's events are summed and
rounded once (8.3.4) with K x n <= 700 over the whole period; unrated players' results are
pooled with their pending ones within the edition's window and published when the edition's
minimum games and floor are met; players below the floor become unrated; games, the
reached-2400 flag, K, the active flag and the last game are updated; the 1 March 2024 one-time
adjustment is applied when the period crosses that date. Nothing is written unless the whole
period computes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import gc
import multiprocessing as mp
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..engine.xlsxout import Cell, RowXml, SharedStrings, serial, write
from ..files import atomic
from ..formats.fidelist import ListedPlayer
from ..formats.trf import Tournament
from ..formats.trf import read as read_trf
from ..rules.change import EventTotals, event_totals
from ..rules.editions import EDITIONS, Edition, adjustment_applies, edition_on
from ..rules.errors import FideInputError
from ..rules.expected import check_rating
from ..rules.initial import InitialRating, UnratedEvent, initial_rating, months_before
from ..rules.k_factor import k_factor, limit_k
from ..rules.performance import adjust_2024
from ..rules.rounding import fide_round_ratio
from .convert import from_workbook
from .layout import LIST_COLUMNS, PENDING_COLUMNS
from .report import event_games

_EPOCH = _dt.date(1899, 12, 30)


class PeriodError(FideInputError):
    """The period cannot be computed; ``problems`` lists every reason found."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(f"{len(problems)} problem(s): " + "; ".join(problems[:5]))
        self.problems = list(problems)


@dataclass
class Listed:
    """One player of a rating list."""

    fide_id: str
    name: str
    fed: str = ""
    sex: str = ""
    born: int | _dt.date | None = None
    title: str = ""
    rating: int | None = None
    k: int | None = None
    games: int = 0
    reached_2400: bool = False
    active: bool = True
    last_game: _dt.date | None = None


@dataclass(frozen=True, slots=True)
class PendingGame:
    """A game of an unrated player carried from an earlier period."""

    fide_id: str
    event: str
    start: _dt.date
    opponent: int
    score: float  # 1, 0.5 or 0


@dataclass
class RatingList:
    date: _dt.date
    next_date: _dt.date
    players: dict[str, Listed]
    pending: list[PendingGame] = field(default_factory=list)


@dataclass
class PlayerPeriod:
    """What the period did to one player: the events, the change, the new entry."""

    before: Listed
    after: Listed
    events: list[tuple[str, _dt.date | None, EventTotals]] = field(default_factory=list)
    change: int | None = None
    initial: InitialRating | None = None
    pooled: list[tuple[str, UnratedEvent]] = field(default_factory=list)
    note: str = ""

    def add_note(self, text: str) -> None:
        self.note = f"{self.note}; {text}" if self.note else text


# --- reading --------------------------------------------------------------------------------


def _date(value: object) -> _dt.date | None:
    if isinstance(value, float | int) and not isinstance(value, bool) and value > 0:
        return _EPOCH + _dt.timedelta(days=int(value))
    if isinstance(value, str) and value.strip():
        try:
            return _dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()


def _whole(value: object) -> int | None:
    """A whole number from a cell (blank and 0 as None); ValueError for 1800.5 or text."""
    if value in (None, "", 0, 0.0):
        return None
    number = float(value)  # type: ignore[arg-type]
    if not number.is_integer():
        raise ValueError(value)
    return int(number)


def _truth(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, float | int):
        return value != 0
    return str(value or "").strip().lower() in ("true", "yes", "1", "x")


def _table(path: Path) -> dict[str, list[list[object]]]:
    """Every sheet of a workbook as rows of values (fast: no openpyxl)."""
    from ..engine.package import read_package, read_sheet, shared_strings, sheet_parts

    _, parts = read_package(path.read_bytes(), path.name)
    strings = shared_strings(parts)
    out: dict[str, list[list[object]]] = {}
    for name, part in sheet_parts(parts).items():
        constants, _, stored, rows, cols = read_sheet(parts[part], strings)
        grid: list[list[object]] = [[None] * cols for _ in range(rows)]
        for (r, c), v in constants.items():
            grid[r - 1][c - 1] = v
        for (r, c), v in stored.items():
            grid[r - 1][c - 1] = v
        out[name] = grid
    return out


def read_list(path: Path) -> RatingList:
    """A rating list workbook (the ``rating-list.xlsx`` template's layout)."""
    from ..engine.package import WorkbookError

    try:
        sheets = _table(path)
    except OSError as error:
        raise PeriodError([f"{path}: cannot read the list ({error.strerror or error})"]) from None
    except WorkbookError as error:
        raise PeriodError([f"{path.name}: {error}"]) from None
    problems = []
    for needed in ("Period", "List"):
        if needed not in sheets:
            problems.append(f"{path.name}: no sheet {needed!r} (use the rating-list template)")
    if problems:
        raise PeriodError(problems)
    period = sheets["Period"]
    date = _date(period[0][1]) if period and len(period[0]) > 1 else None
    next_date = _date(period[1][1]) if len(period) > 1 and len(period[1]) > 1 else None
    if date is None or next_date is None or next_date <= date:
        raise PeriodError(
            [f"{path.name}: Period!B1 and B2 must hold the list's date and the next list's date"]
        )
    players: dict[str, Listed] = {}
    for i, given in enumerate(sheets["List"][1:], start=2):
        row = list(given) + [None] * (len(LIST_COLUMNS) - len(given))
        fide_id = _text(row[0])
        if not fide_id and not _text(row[1]):
            continue
        if not fide_id:
            problems.append(f"List row {i}: {_text(row[1])!r} has no FIDE ID")
            continue
        if fide_id in players:
            problems.append(f"List row {i}: FIDE ID {fide_id} is listed twice")
            continue
        try:
            rating = _whole(row[6])
            if rating is not None:
                check_rating(rating)
            k = _whole(row[7])
            games = _whole(row[8]) or 0
        except (TypeError, ValueError):
            problems.append(f"List row {i}: rating (1 to 4000), K and games must be whole numbers")
            continue
        born_raw = row[4]
        born: int | _dt.date | None = None
        if isinstance(born_raw, float) and born_raw > 3000:
            born = _date(born_raw)
        elif isinstance(born_raw, float | int) and born_raw:
            born = int(born_raw)
        players[fide_id] = Listed(
            fide_id, _text(row[1]), _text(row[2]), _text(row[3]), born, _text(row[5]), rating,
            k, games, _truth(row[9]), True if row[10] in (None, "") else _truth(row[10]),
            _date(row[11]),
        )  # fmt: skip
    pending = []
    for i, given in enumerate(sheets.get("Pending", [])[1:], start=2):
        row = list(given) + [None] * 5
        if not _text(row[0]):
            continue
        start = _date(row[2])
        try:
            opponent = int(row[3])  # type: ignore[call-overload]
            score = float(str(row[4]).replace("½", "0.5").replace(",", "."))
            if score not in (0.0, 0.5, 1.0):
                raise ValueError(score)
        except (TypeError, ValueError):
            problems.append(
                f"Pending row {i}: expected an opponent rating and a result 1, 0.5 or 0"
            )
            continue
        if start is None:
            problems.append(f"Pending row {i}: expected the event's start date")
            continue
        pending.append(PendingGame(_text(row[0]), _text(row[1]), start, opponent, score))
    if problems:
        raise PeriodError(problems)
    return RatingList(date, next_date, players, pending)


def read_event(path: Path) -> Tournament:
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        return from_workbook(path)
    return read_trf(path)


def _read_one(path: Path) -> tuple[str, Tournament | str]:
    try:
        return path.name, read_event(path)
    except (FideInputError, OSError) as error:
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


def event_facts(
    label: str, t: Tournament, ratings: dict[str, int | None], first: _dt.date, next_date: _dt.date
) -> EventFacts | list[str]:
    """An event's facts with the list's ratings, or its problems."""
    problems = [f"{label}: {error}" for error in t.errors]
    start = t.start
    if start is None:
        return [*problems, f"{label}: no start date (record 042)"]
    if not first <= start < next_date:
        return [
            *problems,
            f"{label}: starts {start.isoformat()}, outside the period "
            f"{first.isoformat()} to {next_date.isoformat()}",
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
        found = event_games(t, start, {n: ratings[i] for n, i in ids.items()})
    except FideInputError as error:
        return [f"{label}: {error}"]
    return EventFacts(
        label,
        t.name or label,
        start,
        t.end or start,
        found.edition.name,
        [(ids[n], g) for n, g in found.games.items()],
        [(ids[n], e) for n, e in found.unrated.items()],
    )


def _facts_of_files(
    job: tuple[list[Path], dict[str, int | None], _dt.date, _dt.date],
) -> list[EventFacts | list[str]]:
    """Read a share of the event files and compute their facts (in a worker process)."""
    paths, ratings, first, next_date = job
    out: list[EventFacts | list[str]] = []
    for path in paths:
        name, t = _read_one(path)
        if isinstance(t, str):
            out.append([f"{name}: {t}"])
        else:
            out.append(event_facts(name, t, ratings, first, next_date))
    return out


PARALLEL_FROM = 200  # event files: from this many on, read in worker processes


def facts_from_files(
    rating_list: RatingList, paths: Sequence[Path]
) -> list[EventFacts | list[str]]:
    """Every event file's facts, shared among the processors when there are many files."""
    ratings = {i: p.rating for i, p in rating_list.players.items()}
    first, next_date = rating_list.date, rating_list.next_date
    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(paths) < PARALLEL_FROM or "fork" not in mp.get_all_start_methods():
        return _facts_of_files((list(paths), ratings, first, next_date))
    shares = [list(paths[i::workers]) for i in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        done = list(pool.map(_facts_of_files, [(s, ratings, first, next_date) for s in shares]))
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
    return compute_facts(
        rating_list,
        [
            event_facts(label, t, ratings, rating_list.date, rating_list.next_date)
            for label, t in events
        ],
    )


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
    next_edition = edition_on(next_date)
    pending_by_id: dict[str, list[PendingGame]] = {}
    for g in rating_list.pending:
        pending_by_id.setdefault(g.fide_id, []).append(g)
    out: list[PlayerPeriod] = []
    # the same for every player
    adjusting = adjustment_applies(next_edition, rating_list.date, next_date)
    floor = next_edition.floor_on(next_date)
    active_since = months_before(next_date, 12)  # active: a rated game in the last year
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
        elif before.rating is None:  # (a rated player without games carries over as listed)
            result.pooled = _pooled(pending_by_id.get(fide_id, []), unrated_events.get(fide_id, []))
            if result.pooled:
                # the edition of the event that completes the pooled results
                latest = max((e.start for _, e in result.pooled if e.start), default=None)
                ed_initial = edition_on(latest) if latest else next_edition
                result.initial = initial_rating([e for _, e in result.pooled], ed_initial)
            if result.initial is not None and result.initial.rating is not None:
                after.rating = result.initial.rating
                after.games = before.games + result.initial.games
                result.note = "first rating"
        if after.rating is not None and adjusting:
            adjusted = adjust_2024(after.rating)
            if adjusted != after.rating:
                result.add_note(f"2024 adjustment from {after.rating}")
                after.rating = adjusted
        if after.rating is not None and after.rating < floor:
            result.add_note(f"below the floor {floor}: unrated")
            after.rating = None
        if after.rating is not None:
            after.reached_2400 = after.reached_2400 or after.rating >= 2400
            after.k = k_factor(
                rating=after.rating, games_before=after.games, birth=after.born,
                reached_2400=after.reached_2400, on=next_date, edition=next_edition,
            )  # fmt: skip
        else:
            after.k = None
        after.active = after.last_game is not None and after.last_game > active_since
        out.append(result)
    return out


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


# --- writing --------------------------------------------------------------------------------


def _fmt(x: Fraction) -> float:
    return float(x)


def write_next(
    path: Path,
    rating_list: RatingList,
    results: list[PlayerPeriod],
    names: dict[str, str],
) -> Path:
    """The next list: Period, List, Pending and Calculations sheets."""
    next_date = rating_list.next_date
    length = (rating_list.next_date - rating_list.date).days
    period_rows: list[Sequence[Cell]] = [
        ("List date", next_date),
        ("Next list", next_date + _dt.timedelta(days=length)),
        ("Computed from", rating_list.date),
        ("Edition", edition_on(next_date).name),
    ]
    list_rows: list[Sequence[Cell] | RowXml] = [LIST_COLUMNS]
    pending_rows: list[Sequence[Cell]] = [PENDING_COLUMNS]
    calc_rows: list[Sequence[Cell] | RowXml] = [
        ("FIDE ID", "Name / event", "Start", "Rc", "Ro", "w", "n", "chg", "K", "K*chg", "Note")
    ]
    bold = {1}
    strings = SharedStrings()  # names and events are written once each
    for r in results:
        a = r.after
        list_rows.append(_list_row(len(list_rows) + 1, a, strings))
        if r.events:
            row = len(calc_rows) + 1
            bold_style = ' s="2"'
            note = strings.cell(f"K{row}", r.note, bold_style) if r.note else ""
            calc_rows.append(
                RowXml(
                    f'<row r="{row}">{strings.cell(f"A{row}", a.fide_id, bold_style)}'
                    f"{strings.cell(f'B{row}', r.before.name, bold_style)}"
                    f'<c r="E{row}" s="2"><v>{r.before.rating}</v></c>{note}</row>'
                )
            )
            w = chg = kchg = n = 0  # hundredths
            for label, start, c in r.events:
                name = names.get(label, label)
                calc_rows.append(_event_row(len(calc_rows) + 1, name, start, c, strings))
                w, chg, kchg, n = w + c.w_h, chg + c.chg_h, kchg + c.k_chg_h, n + c.n
            row = len(calc_rows) + 1
            summary = f"rounded {r.change:+d}: new rating {a.rating}"
            calc_rows.append(
                RowXml(
                    f'<row r="{row}">{strings.cell(f"B{row}", "Period")}'
                    f'<c r="F{row}"><v>{w / 100!r}</v></c><c r="G{row}"><v>{n}</v></c>'
                    f'<c r="H{row}"><v>{chg / 100!r}</v></c><c r="J{row}"><v>{kchg / 100!r}</v>'
                    f"</c>{strings.cell(f'K{row}', summary)}</row>"
                )
            )
        elif r.initial is not None:
            bold.add(len(calc_rows) + 1)
            i = r.initial
            outcome = f"first rating {i.rating}" if i.rating is not None else f"pending: {i.reason}"
            ra = None if i.ra is None else _fmt(i.ra)
            calc_rows.append(
                (a.fide_id, r.before.name, None, ra, None, _fmt(i.score), i.games, None, None,
                 None, outcome)
            )  # fmt: skip
            if i.rating is None:
                # carried to the next period: every game still inside the pooling window
                for e, (label, ev) in zip(i.events, r.pooled, strict=True):
                    if e.disregarded and "months" in e.disregarded:
                        continue
                    for opponent, score in zip(ev.opponents, ev.scores, strict=True):
                        if opponent is not None and score is not None:
                            pending_rows.append(
                                (
                                    a.fide_id,
                                    names.get(label, label),
                                    ev.start,
                                    opponent,
                                    float(Fraction(str(score))),
                                )
                            )
    write(
        path,
        [
            ("Period", period_rows, set(), (16, 14)),
            ("List", list_rows, {1}, (11, 28, 5, 4, 10, 6, 7, 4, 7, 12, 7, 11)),
            ("Pending", pending_rows, {1}, (11, 30, 11, 15, 7)),
            ("Calculations", calc_rows, bold, (11, 30, 11, 7, 7, 6, 4, 7, 4, 8, 40)),
        ],
        strings=strings,
    )
    return path


def _list_row(r: int, a: Listed, strings: SharedStrings) -> RowXml:
    """One player of the list, written directly (50,000 rows for a federation)."""
    fide_id = a.fide_id
    if fide_id.isdigit() and not fide_id.startswith("0"):  # FIDE IDs are numbers
        cells = [f'<c r="A{r}"><v>{fide_id}</v></c>']
    else:
        cells = [strings.cell(f"A{r}", fide_id)]
    for col, value in (("B", a.name), ("C", a.fed), ("D", a.sex), ("F", a.title)):
        if value:
            cells.append(strings.cell(f"{col}{r}", value))
    if isinstance(a.born, _dt.date):
        cells.append(f'<c r="E{r}" s="1"><v>{serial(a.born)}</v></c>')
    elif a.born:
        cells.append(f'<c r="E{r}"><v>{a.born}</v></c>')
    for col, number in (("G", a.rating), ("H", a.k), ("I", a.games)):
        if number is not None:
            cells.append(f'<c r="{col}{r}"><v>{number}</v></c>')
    cells.append(f'<c r="J{r}" t="b"><v>{int(a.reached_2400)}</v></c>')
    cells.append(f'<c r="K{r}" t="b"><v>{int(a.active)}</v></c>')
    if a.last_game is not None:
        cells.append(f'<c r="L{r}" s="1"><v>{serial(a.last_game)}</v></c>')
    return RowXml(f'<row r="{r}">{"".join(cells)}</row>')


def _event_row(
    r: int, name: str, start: _dt.date | None, c: EventTotals, strings: SharedStrings
) -> RowXml:
    """One event of a player's calculation page, written directly (the page has a row per
    player and event: hundreds of thousands for a federation)."""
    n = c.n
    rc = f'<c r="D{r}"><v>{fide_round_ratio(c.used_sum, n)}</v></c>' if n else ""
    day = f'<c r="C{r}" s="1"><v>{serial(start)}</v></c>' if start else ""
    chg = c.chg_h
    return RowXml(
        f'<row r="{r}">{strings.cell(f"B{r}", name)}{day}{rc}'
        f'<c r="E{r}"><v>{c.rating}</v></c><c r="F{r}"><v>{c.w_h / 100!r}</v></c>'
        f'<c r="G{r}"><v>{n}</v></c><c r="H{r}"><v>{chg / 100!r}</v></c>'
        f'<c r="I{r}"><v>{c.k}</v></c><c r="J{r}"><v>{c.k * chg / 100!r}</v></c></row>'
    )


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


def run(
    list_path: Path, event_paths: Iterable[Path], output: Path
) -> tuple[list[PlayerPeriod], Path]:
    """Read, compute and write a period; nothing is written when a problem is found."""
    with _no_collector():
        rating_list = read_list(list_path)
        facts = facts_from_files(rating_list, list(event_paths))
        results = compute_facts(rating_list, facts)
        names = {f.label: f.name for f in facts if isinstance(f, EventFacts)}
        return results, write_next(output, rating_list, results, names)


# --- FIDE's own list as the period's list ---------------------------------------------------

_FIDE_ID_IN_TRF = re.compile(r"^001 .{53}(.{11})", re.M)


def fide_ids_of(paths: Sequence[Path]) -> set[str]:
    """The FIDE IDs the events name (a quick scan of the TRFs' player records)."""
    out: set[str] = set()
    for path in paths:
        if path.suffix.lower() in (".xlsx", ".xlsm"):
            try:
                out |= {p.fide_id.strip() for p in from_workbook(path).players.values()}
            except (FideInputError, OSError):
                continue  # reported when the event is read
            continue
        try:
            text = path.read_bytes().decode("latin-1")
        except OSError:
            continue
        out |= {m.group(1).strip() for m in _FIDE_ID_IN_TRF.finditer(text)}
    return {i for i in out if i.isdigit()}


def _listed(entry: ListedPlayer, kind: str) -> Listed:
    rating, _, k = entry.of(kind)
    return Listed(
        str(entry.fide_id), entry.name, entry.federation, entry.sex, entry.born,
        entry.title or entry.women_title, rating, k,
        # the list has no count of all rated games: its K says what matters (40 while new)
        0 if k == 40 else 30,
        rating is not None and rating >= 2400, not entry.inactive, None,
    )  # fmt: skip


def run_with_fide_list(
    fide_list: Path,
    event_paths: Sequence[Path],
    output: Path,
    date: _dt.date,
    next_date: _dt.date,
    kind: str = "standard",
) -> tuple[list[PlayerPeriod], Path]:
    """A period from FIDE's own list (text, XML or zip, any size): only the events' players
    are read from the list's index; the next list is written in FIDE's text layout (every
    other player copied as listed), or as a workbook when it fits one."""
    from ..formats.fidelist import open_list

    if next_date <= date:
        raise PeriodError([f"the next list's date {next_date} must follow the list's {date}"])
    with _no_collector(), open_list(fide_list) as listed:
        players = {}
        for fide_id in fide_ids_of(event_paths):
            entry = listed.get(int(fide_id))
            if entry is not None:
                players[fide_id] = _listed(entry, kind)
        rating_list = RatingList(date, next_date, players)
        facts = facts_from_files(rating_list, list(event_paths))
        results = compute_facts(rating_list, facts)
        for r in results:  # K on the next list: the list's, 10 once 2400 is reached
            if r.after.rating is not None and r.before.k is not None:
                r.after.k = 10 if r.after.reached_2400 else r.before.k
        if output.suffix.lower() in (".xlsx", ".xlsm"):
            if len(listed) > 1_048_575:
                raise PeriodError([f"{len(listed):,} players do not fit a workbook (1,048,575 "
                                   "rows): write the next list as text, -o NEXT.txt"])  # fmt: skip
            everyone = {str(e.fide_id): _listed(e, kind) for e in listed}
            for r in results:
                everyone[r.after.fide_id] = r.after
            names = {f.label: f.name for f in facts if isinstance(f, EventFacts)}
            whole = RatingList(date, next_date, everyone)
            by_id = {r.after.fide_id: r for r in results}
            full = [by_id.get(i) or PlayerPeriod(p, p) for i, p in everyone.items()]
            return results, write_next(output, whole, full, names)
        changed = {}
        for r in results:
            entry = listed.get(int(r.after.fide_id))
            if entry is None:
                continue
            changed[entry.fide_id] = _updated(entry, r, kind)
        with atomic(output) as out:
            listed.write_text(out, changed)
    return results, output


def _updated(entry: ListedPlayer, r: PlayerPeriod, kind: str) -> ListedPlayer:
    """The list's entry after the period: the rating, the period's rated games and K of the
    kind, and the inactive flag."""
    games = sum(c.n for _, _, c in r.events)
    if r.initial is not None and r.initial.rating is not None:
        games = r.initial.games
    flag = entry.flag.replace("i", "") + ("" if r.after.active else "i")
    rating, k = r.after.rating, r.after.k
    if kind == "rapid":
        return dataclasses.replace(entry, rapid=rating, rapid_games=games, rapid_k=k, flag=flag)
    if kind == "blitz":
        return dataclasses.replace(entry, blitz=rating, blitz_games=games, blitz_k=k, flag=flag)
    return dataclasses.replace(entry, rating=rating, games=games, k=k, flag=flag)
