"""The rating-list workbook: the list read (the ``rating-list.xlsx`` template's layout, or a next
list that ``period`` wrote) and the next list written (Period, List, Pending and Calculations
sheets), fast: rows written directly, no openpyxl. Its model (:class:`Listed`,
:class:`PendingGame`, :class:`RatingList`, and what a period did to a player,
:class:`PlayerPeriod`) is the one every reader and writer of a list uses.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..engine.xlsxout import Cell, RowXml, SharedStrings, serial, write
from ..rules.change import EventTotals
from ..rules.editions import edition_on
from ..rules.errors import FideInputError
from ..rules.expected import check_rating
from ..rules.initial import InitialRating, UnratedEvent, months_before
from ..rules.rounding import fide_round_ratio
from .layout import LIST_COLUMNS, PENDING_COLUMNS

# --- the model ------------------------------------------------------------------------------


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
    standard: int | None = None  # a rapid or blitz list's player's standard rating (FIDE's list)
    from_standard: bool = False  # R&B 7.2.1: no rating of the list's type, rated with standard


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
    kind: str = "standard"  # the rating type of the list's ratings


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


_EPOCH = _dt.date(1899, 12, 30)
KINDS = ("standard", "rapid", "blitz")

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
    from ..engine.package import read_file, read_package, read_sheet, shared_strings, sheet_parts

    _, parts = read_package(read_file(path), path.name)
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


def _sheets(path: Path, what: str) -> dict[str, list[list[object]]]:
    """A workbook's sheets, or a :class:`PeriodError` saying why it cannot be read."""
    from ..engine.package import WorkbookError

    try:
        return _table(path)
    except OSError as error:
        raise PeriodError([f"{path}: cannot read {what} ({error.strerror or error})"]) from None
    except WorkbookError as error:
        raise PeriodError([f"{path.name}: {error}"]) from None


def read_list(path: Path) -> RatingList:
    """A rating list workbook (the ``rating-list.xlsx`` template's layout)."""
    sheets = _sheets(path, "the list")
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
    labels = {_text(row[0]).casefold(): row[1] for row in period if len(row) > 1}
    kind = _text(labels.get("rating type")).casefold() or "standard"
    if kind not in KINDS:
        raise PeriodError([f"{path.name}: Period sheet, Rating type: expected one of "
                           f"{', '.join(KINDS)}, got {kind!r}"])  # fmt: skip
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
    pending = _pending(sheets.get("Pending", []), problems)
    if problems:
        raise PeriodError(problems)
    return RatingList(date, next_date, players, pending, kind)


def _pending(rows: list[list[object]], problems: list[str]) -> list[PendingGame]:
    """The Pending sheet's games (a header row, then one game a row)."""
    pending = []
    for i, given in enumerate(rows[1:], start=2):
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
    return pending


def read_pending(path: Path) -> list[PendingGame]:
    """The pending games of unrated players in a workbook's Pending sheet: a rating-list
    workbook, or the file that ``period`` writes beside FIDE's text layout."""
    sheets = _sheets(path, "it")
    if "Pending" not in sheets:
        raise PeriodError([f"{path.name}: no sheet 'Pending' (the pending games of a period)"])
    problems: list[str] = []
    pending = _pending(sheets["Pending"], problems)
    if problems:
        raise PeriodError([f"{path.name}: {p}" for p in problems])
    return pending


# --- writing --------------------------------------------------------------------------------


def _fmt(x: Fraction) -> float:
    return float(x)


def carried(r: PlayerPeriod, names: dict[str, str]) -> list[Sequence[Cell]]:
    """An unrated player's games carried to the next period (every game still inside the
    pooling window), as rows of the Pending sheet."""
    i = r.initial
    rows: list[Sequence[Cell]] = []
    if i is None or i.rating is not None:
        return rows
    for e, (label, ev) in zip(i.events, r.pooled, strict=True):
        if e.disregarded and "months" in e.disregarded:
            continue
        for opponent, score in zip(ev.opponents, ev.scores, strict=True):
            if opponent is not None and score is not None:
                rows.append((r.after.fide_id, names.get(label, label), ev.start, opponent,
                             float(Fraction(str(score)))))  # fmt: skip
    return rows


def write_pending(path: Path, rows: list[Sequence[Cell]]) -> Path:
    """The pending games alone, in a workbook that ``period --pending`` reads back."""
    write(path, [("Pending", [PENDING_COLUMNS, *rows], {1}, (11, 30, 11, 15, 7))])
    return path


def following_list(date: _dt.date, next_date: _dt.date) -> _dt.date:
    """The date of the list after ``next_date``: rating periods are calendar periods, so a
    period of whole months (a month, two, three: FIDE's lists since 2012, 2009 and before) is
    followed by one as long in months; any other keeps its length in days."""
    months = (next_date.year - date.year) * 12 + next_date.month - date.month
    if months > 0 and date.day == next_date.day <= 28:
        return months_before(next_date, -months)
    return next_date + (next_date - date)


def write_next(
    path: Path,
    rating_list: RatingList,
    results: list[PlayerPeriod],
    names: dict[str, str],
) -> Path:
    """The next list: Period, List, Pending and Calculations sheets."""
    next_date = rating_list.next_date
    period_rows: list[Sequence[Cell]] = [
        ("List date", next_date),
        ("Next list", following_list(rating_list.date, next_date)),
        ("Rating type", rating_list.kind),
        ("Computed from", rating_list.date),
        ("Edition", edition_on(next_date, rating_list.kind).name),
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
            pending_rows += carried(r, names)
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
