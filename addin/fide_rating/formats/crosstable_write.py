"""An event into a crosstable template: ``import-trf``'s workbook (the Swiss or round-robin
template with the TRF's players, results and event, the original lines on a hidden sheet), and
a Players sheet's rows filled with a rating list's values (``fill``). What a row takes from a
list is decided by the event layer (:func:`fide_rating.events.lists.row_values`); here it is
only written, each value as data (text never becomes a formula), a note on a cell where the
value has a story (R&B 7.2.1's standard rating).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..files import atomic
from ..rules.errors import FideInputError, bad
from . import layout
from .crosstable import (
    NO_NAME,
    RowValues,
    clean,
    not_a_workbook,
    renumbered,
    renumbering,
    sex_of,
)
from .layout import TRF_SHEET
from .trf import Player, Round, Tournament, is_round_robin
from .trf_check import bye_rounds, with_byes

# a template row's field for each Players column a list gives a value for
FIELDS = {
    "Name": "name", "Title": "title", "Fed": "fed", "Sex": "sex", "Born": "born",
    "Ro": "rating", "K list": "k", "Games": "games_before", "2400": "reached_2400",
}  # fmt: skip
# what the file says stays where it says it: the list fills in what it leaves blank
FILE_FIRST = ("Name", "Title", "Fed", "Sex", "Born")


def to_workbook(
    t: Tournament, from_list: dict[int, RowValues] | None = None, rating_type: str = ""
) -> Any:
    """The event in the Swiss or round-robin template, the original lines on a hidden sheet.

    With ``from_list`` (by starting rank: what each player's row takes from a rating list, as
    :func:`fide_rating.events.lists.row_values` decides), a player takes the list's rating, K,
    games and 2400 flag, and its birth year, sex, title and federation where the file has
    none; a value with a note is marked with it (a comment on the cell). Starting ranks
    with gaps are numbered 1 to n (the hidden sheet keeps the file's own, which export-trf
    writes back); a player without a name is named :data:`NO_NAME`; the byes of record 240
    show in their rounds. ``rating_type``: the Event sheet's (the file's, by record 222).
    """
    from . import templates as tpl

    extra = bye_rounds(t)
    players = sorted(
        (p._replace(rounds=with_byes(p, extra[p.number])) if p.number in extra else p
         for p in t.players.values()),
        key=lambda p: p.number,
    )  # fmt: skip
    if not players:
        raise FideInputError("expected player records (001) in the TRF, got: none")
    numbers = [p.number for p in players]  # the file's own, which from_list is keyed by
    to = renumbering(numbers)
    if to is not None:
        players = [renumbered(p, to) for p in players]
    rows = [
        tpl.Player(
            name=clean(p.name) or NO_NAME,
            rating=p.rating,
            fide_id=int(p.fide_id) if p.fide_id.isdigit() else (p.fide_id or None),
            title=p.title_name or None,
            fed=p.federation or None,
            born=p.birth_date,
            sex=sex_of(p.sex),
        )
        for p in players
    ]
    if from_list:
        rows = [_with(row, from_list.get(n)) for row, n in zip(rows, numbers, strict=True)]
    info = tpl.Event(
        name=clean(t.name or "") or None,
        place=clean(t.header("022") or "") or None,
        start=t.start,
        end=t.end,
        arbiter=clean(t.header("102") or "") or None,
        time_control=clean(t.header("122") or "") or None,
    )
    if is_round_robin(t):
        n = len(players)
        times = max(sum(r.opponent == 2 for r in players[0].rounds), 1)
        spec = tpl.spec_for("rr" if times == 1 else "drr", n)
        table: list[list[Any]] = [[[] for _ in range(n)] for _ in range(n)]
        for p in players:
            for r in p.rounds:
                if r.opponent is not None:
                    table[p.number - 1][r.opponent - 1].append(_cell(r.result))
        cells = [[(c[0] if len(c) == 1 else c) if c else None for c in row] for row in table]
        wb = tpl.fill_round_robin(spec, info, rows, cells)
    else:
        if t.rounds > 15 or len(players) > 500:
            raise FideInputError(
                "expected at most 500 players and 15 rounds for the Swiss template, got: "
                f"{len(players)} players, {t.rounds} rounds"
            )
        spec = tpl.spec_for("swiss", max(len(players), 2), max(t.rounds, 1))
        pairings = [[(r.opponent, _colour(r), _cell(r.result)) for r in p.rounds] for p in players]
        wb = tpl.fill_swiss(spec, info, rows, pairings)  # type: ignore[arg-type]
    if rating_type:
        wb["Event"]["B8"] = rating_type.capitalize()
    sheet = wb.create_sheet(TRF_SHEET)
    sheet.sheet_state = "hidden"
    sheet["A1"] = "The TRF this workbook was made from (fide-rating export-trf writes it back)"
    sheet["B1"] = t.encoding
    sheet["C1"] = {"\r\n": "CRLF", "\r": "CR"}.get(t.newline, "LF")
    if t.final is not None:  # the last line's end, where it differs
        sheet["D1"] = {"\r\n": "CRLF", "\r": "CR", "\n": "LF"}.get(t.final, "none")
    for i, line in enumerate(t.lines, start=2):
        sheet.cell(i, 1, clean(line.raw if isinstance(line, Player) else line or " "))
        sheet.cell(i, 1).data_type = "s"
    return wb


def _with(row: Any, given: RowValues | None) -> Any:
    """A template row with what a rating list gives it."""
    if given is None:
        return row
    changes: dict[str, Any] = {}
    for column, value in given.values.items():
        name = FIELDS.get(column)
        if name is None or (column in FILE_FIRST and getattr(row, name) not in (None, "")):
            continue
        changes[name] = value
    notes = tuple((column, note) for column, note in given.notes.items() if column in FIELDS)
    return dataclasses.replace(row, **changes, notes=row.notes + notes)


def _colour(r: Round) -> str | None:
    """The colour cell: w or b, or - for a paired game not played (a forfeit)."""
    if r.colour in ("w", "b"):
        return r.colour
    return "-" if r.opponent is not None and r.colour == "-" else None


def _cell(code: str) -> object:
    """A TRF result code as the workbook writes it."""
    return {"1": 1, "0": 0, "=": "½", " ": None}.get(code, code)


@dataclasses.dataclass
class Filled:
    """What :func:`fill_rows` did."""

    rows: int = 0  # player rows with a FIDE ID
    found: int = 0
    missing: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (row, FIDE ID)
    changed: list[tuple[int, str, object, object]] = dataclasses.field(default_factory=list)
    marked: list[tuple[int, str, str]] = dataclasses.field(default_factory=list)  # row, col, note
    shared: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # row, FIDE ID


KEEP = ("Name", "Title")  # the arbiter's own spelling stays where the row has one


def fill_rows(source: Path, target: Path, values_of: Callable[[str], RowValues | None]) -> Filled:
    """``source``'s Players rows filled with what ``values_of(FIDE ID)`` gives each (None: not
    on the list), saved as ``target`` (atomically); the rest of the workbook is kept."""
    import openpyxl
    from openpyxl.comments import Comment

    try:
        wb = openpyxl.load_workbook(source, keep_vba=source.suffix.lower() == ".xlsm")
    except OSError:
        raise
    except Exception as error:  # openpyxl raises many kinds for a file that is no workbook
        raise FideInputError(f"{source}: {not_a_workbook(error)}") from None
    if "Players" not in wb.sheetnames:
        raise bad("expected a fide-rating crosstable (a sheet 'Players')", str(source))
    ws = wb["Players"]
    header = {str(c.value): c.column for c in ws[layout.HEADER_ROW] if c.value is not None}
    if "FIDE ID" not in header:
        raise FideInputError(f"expected a 'FIDE ID' column on the Players sheet of {source}")
    done = Filled()
    ids = [str(ws.cell(r, header["FIDE ID"]).value or "").strip().removesuffix(".0")
           for r in range(layout.FIRST, ws.max_row + 1)]  # fmt: skip
    twice = {i for i in ids if i and i.strip("0- ") and ids.count(i) > 1}
    for r in range(layout.FIRST, ws.max_row + 1):
        raw = ws.cell(r, header["FIDE ID"]).value
        if raw is None or str(raw).strip() == "":
            continue
        done.rows += 1
        text = str(raw).strip().removesuffix(".0")
        if text in twice:  # one FIDE ID on two rows: the list is applied to neither
            done.shared.append((r, text))
            continue
        given = values_of(text)
        if given is None:
            done.missing.append((r, text))
            continue
        done.found += 1
        for column, value in given.values.items():
            if column not in header:
                continue
            cell = ws.cell(r, header[column])
            if column in KEEP and cell.value not in (None, ""):
                continue  # the arbiter's own spelling stays
            if cell.value != value and not (cell.value in (None, "") and value is None):
                if cell.value not in (None, ""):
                    done.changed.append((r, column, cell.value, value))
                cell.value = value
                if isinstance(value, str) and cell.data_type == "f":
                    cell.data_type = "s"  # the list's text is text, never a formula
        for column, note in given.notes.items():
            if column in header:
                ws.cell(r, header[column]).comment = Comment(note, "fide-rating")
                done.marked.append((r, column, note))
    with atomic(target) as out:
        wb.save(out)
    return done
