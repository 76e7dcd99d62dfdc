"""A crosstable workbook read back as an event: ``export-trf``'s TRF and ``report``'s event from
the Swiss or round-robin template (filled in by hand, or made by ``import-trf``, whose hidden
sheet keeps the original file's lines so that TRF -> workbook -> TRF loses nothing), with what
its rows know that a TRF does not carry (:class:`Known`). The writer is
:mod:`.crosstable_write`.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..rules.berger import schedule as berger_schedule
from ..rules.errors import FideInputError, bad
from . import layout
from .layout import TRF_SHEET
from .trf import (
    TITLES,
    Player,
    Round,
    Tournament,
    parse_date,
    points_of,
    same_fields,
    scoring,
)
from .trf_check import bye_rounds, with_byes

GAMES_BEFORE_UNKNOWN = 30  # a TRF does not say; a listed player usually has 30 or more


@dataclass(frozen=True, slots=True)
class Known:
    """What a crosstable workbook or a rating-list workbook knows of a player that a TRF does
    not carry, and K depends on."""

    games_before: int  # rated games before the event
    reached_2400: bool
    k: int | None  # K on the list, if it gives one
    source: str  # "the workbook", "the list", "the standard rating (7.2.1)"


@dataclass(frozen=True, slots=True)
class RowValues:
    """What a player row takes from a rating list: values by the Players sheet's column
    ("Ro", "K list", "Games", ...), and a note for a cell whose value has a story."""

    values: dict[str, Any]
    notes: dict[str, str] = field(default_factory=dict)


def not_a_workbook(error: Exception) -> str:
    """Why openpyxl could not open a file, in words (its exceptions' names mean nothing to an
    arbiter)."""
    kind = type(error).__name__
    if kind == "BadZipFile":
        return "not an .xlsx package (not a zip archive, or a damaged one)"
    if kind == "InvalidFileException":
        return "not an .xlsx or .xlsm file (an .xls, .ods or .csv must be saved as .xlsx first)"
    if isinstance(error, KeyError):
        return f"a part of the package is missing ({error})"
    return f"it cannot be read as a workbook ({error or kind})"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean(text: str) -> str:
    """A text a workbook cell can hold: control characters (a NUL in a broken file, reported
    by the reader) become U+FFFD."""
    return _CONTROL.sub("\ufffd", text) if _CONTROL.search(text) else text


def sex_of(code: str) -> str | None:
    return {"m": "M", "w": "F", "f": "F"}.get(code.strip().lower())


NO_NAME = "(no name in the TRF)"  # a row without a name is an empty row in the templates


def renumbering(numbers: list[int]) -> dict[int, int] | None:
    """Starting ranks with gaps (10, 20, 30) as the templates' 1 to n, in their order; None
    when they are 1 to n already."""
    ordered = sorted(numbers)
    if ordered == list(range(1, len(ordered) + 1)):
        return None
    return {old: i for i, old in enumerate(ordered, start=1)}


def renumbered(p: Player, to: dict[int, int]) -> Player:
    rounds = tuple(r._replace(opponent=to.get(r.opponent)) if r.opponent is not None else r
                   for r in p.rounds)  # fmt: skip
    return p._replace(number=to[p.number], rounds=rounds)


def _code(value: object) -> str:
    """A workbook result back to a TRF result code."""
    if value is None or value == "":
        return " "
    if isinstance(value, bool):
        raise FideInputError(f"expected a result, got: {value!r}")
    if isinstance(value, int | float):
        return {1.0: "1", 0.0: "0", 0.5: "="}.get(float(value), "?")
    text = str(value).strip()
    return {"½": "=", "0.5": "=", "0,5": "=", "1/2": "="}.get(text, text.upper()[:1] or " ")


def from_workbook(path: Path) -> Tournament:
    """The TRF of a workbook made by import-trf (or filled in by hand from a template)."""
    return crosstable(path)[0]


def crosstable(path: Path) -> tuple[Tournament, dict[int, Known]]:
    """A crosstable workbook's event as a TRF, and what its rows know that a TRF does not
    carry (the rated games before the event, 2400 reached, the list's K), by starting rank."""
    t, known, _ = read_crosstable(path)
    return t, known


def read_crosstable(path: Path) -> tuple[Tournament, dict[int, Known], str]:
    """:func:`crosstable`, and the rating type its Event sheet names (B8, as written), from
    one reading of the workbook."""
    import openpyxl

    from ..formats.trf import parse

    try:
        wb = openpyxl.load_workbook(path, data_only=False)
    except OSError:
        raise
    except Exception as error:  # openpyxl raises many kinds for a file that is no workbook
        raise FideInputError(f"{path}: {not_a_workbook(error)}") from None
    for needed in ("Players", "Event"):
        if needed not in wb.sheetnames:
            raise bad(f"expected a fide-rating crosstable (a sheet {needed!r})", str(path))
    original = Tournament()
    if TRF_SHEET in wb.sheetnames:
        sheet = wb[TRF_SHEET]
        text_lines = [
            str(c.value) if c.value != " " else "" for (c,) in sheet.iter_rows(min_row=2, max_col=1)
        ]
        newline = {"CRLF": "\r\n", "CR": "\r"}.get(str(sheet["C1"].value), "\n")
        original = parse(newline.join(text_lines) + newline)
        original.encoding = str(sheet["B1"].value or "utf-8")
        original.newline = newline
        final = sheet["D1"].value
        ends = {"CRLF": "\r\n", "CR": "\r", "LF": "\n"}
        original.final = None if final is None else ends.get(str(final), "")
    ws = wb["Players"]
    header = {str(c.value): c.column for c in ws[layout.HEADER_ROW] if c.value is not None}
    system = str(wb["Event"]["B9"].value or "")
    rounds = int(wb["Event"]["B10"].value or 0)
    n_rows = ws.max_row
    by_number = original.players
    # the file's own starting ranks where import-trf numbered them 1 to n
    numbers = sorted(by_number)
    renumbered = renumbering(numbers) is not None

    def own(k: int | None) -> int | None:
        if k is None or not renumbered:
            return k
        return numbers[k - 1] if 1 <= k <= len(numbers) else numbers[-1] + k - len(numbers)

    extra = bye_rounds(original) if original.lines else {}
    values = scoring(original) if original.lines else {}
    players: list[Player] = []
    known: dict[int, Known] = {}
    entered = [
        r
        for r in range(layout.FIRST, n_rows + 1)
        if ws.cell(r, header["Name"]).value and ws.cell(r, header["No"]).value is not None
    ]
    schedule = (
        berger_schedule(len(entered), 2 if system.startswith("Double") else 1)
        if system != "Swiss" and len(entered) >= 3
        else {}
    )
    first_block = len(layout.COLUMNS) + 2
    for r in range(layout.FIRST, n_rows + 1):
        name = ws.cell(r, header["Name"]).value
        number = ws.cell(r, header["No"]).value
        if not name or number is None:
            continue
        number = own(_int(number))
        assert number is not None
        old = by_number.get(number)
        rating = ws.cell(r, header["Ro"]).value
        if system == "Swiss":
            results = []
            for k in range(rounds):
                opp = ws.cell(r, first_block + k).value
                colour = ws.cell(r, first_block + rounds + k).value
                res = ws.cell(r, first_block + 2 * rounds + k).value
                results.append(
                    Round(
                        own(_int(opp)) if opp else None,
                        str(colour).strip().lower()[:1] if colour else "-" if not opp else " ",
                        _code(res),
                    )
                )
        else:
            results = _rr_rounds(ws, r, number, old, schedule, own)
        text = str(name)
        new = Player(
            number=number,
            sex={"M": "m", "F": "w"}.get(str(ws.cell(r, header["Sex"]).value or ""), " "),
            title=_title_code(ws.cell(r, header["Title"]).value, old),
            name="" if text == NO_NAME and old is not None and not old.name else text,
            rating=_int(rating) if rating else None,
            federation=str(ws.cell(r, header["Fed"]).value or ""),
            fide_id=str(ws.cell(r, header["FIDE ID"]).value or ""),
            birth=_birth_text(ws.cell(r, header["Born"]).value, old),
            points=_points(results, values),
            rank=old.rank if old else None,
            rounds=tuple(results),
        )
        if old is not None:
            new = _keep_original(old, new, extra.get(number, {}))
        players.append(new)
        if new.rating is not None:
            known[number] = _known(ws, r, header)
    headers = _headers(wb["Event"], players, system)
    if original.lines:  # an imported file: its records as they were, the Event sheet's edits
        headers = {tag: v for tag, v in headers.items() if tag not in ("062", "072", "092")}
    lines: list[str | Player] = []
    new_by_number = {p.number: p for p in players}
    written: set[int] = set()
    last = -1  # where the last player record went: players new in the workbook follow it
    for line in original.lines or []:
        if isinstance(line, str) and line[:3] in headers:
            tag = line[:3]
            lines.append(line if _same_header(tag, line, headers[tag]) else headers[tag])
            del headers[tag]
            continue
        if isinstance(line, Player) and headers:
            lines += headers.values()  # the Event sheet's facts the original did not have
            headers = {}
        if isinstance(line, Player):  # in the file's own order (by rank, by number ...)
            if line.number in new_by_number and line.number not in written:
                lines.append(new_by_number[line.number])
                written.add(line.number)
                last = len(lines)
            continue
        lines.append(line)
    rest = [p for p in players if p.number not in written]
    if last < 0:
        lines += [*headers.values(), *rest]
    else:
        lines[last:last] = rest
    out = Tournament(lines=lines, encoding=original.encoding, newline=original.newline,
                     final=original.final)  # fmt: skip
    return out, known, str(wb["Event"]["B8"].value or "").strip()


def lost_players(path: Path, t: Tournament) -> list[Player]:
    """The players of the TRF a workbook was made from whom the workbook's TRF lacks (their
    rows have no name, or were deleted): export-trf names them rather than lose them."""
    import openpyxl

    from ..formats.trf import parse

    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        if TRF_SHEET not in wb.sheetnames:
            return []
        sheet = wb[TRF_SHEET]
        text = "\n".join(
            str(row[0]) if row and row[0] not in (None, " ") else ""
            for row in sheet.iter_rows(min_row=2, max_col=1, values_only=True)
        )
    finally:
        wb.close()
    original = parse(text + "\n", checks=False)
    return [p for n, p in sorted(original.players.items()) if n not in t.players]


def load_event_cells(path: Path, *cells: str) -> tuple[object, ...]:
    """Cells of a crosstable workbook's Event sheet, from one reading of it."""
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        if "Event" not in wb.sheetnames:
            return tuple(None for _ in cells)
        return tuple(wb["Event"][cell].value for cell in cells)
    finally:
        wb.close()


def _points(rounds: list[Round], values: dict[str, Fraction]) -> Fraction:
    """A player's points by the file's scoring (record 162), else the defaults."""
    if not values:
        return points_of(r.result for r in rounds)
    return sum((values.get(r.result, Fraction(0)) for r in rounds), Fraction(0))


def _known(ws: Any, r: int, header: dict[str, Any]) -> Known:
    """A row's facts as the template's K formula reads them: blank games count as 30 or more
    (the Games column's note), blank 2400 as not reached."""

    def value(column: str) -> object:
        return ws.cell(r, header[column]).value if column in header else None

    games = _int(value("Games")) if isinstance(value("Games"), int | float) else None
    reached = value("2400")
    k = value("K list")
    return Known(
        GAMES_BEFORE_UNKNOWN if games is None else games,
        reached is True or str(reached).strip().upper() in ("TRUE", "1", "YES"),
        _int(k) if isinstance(k, int | float) and not isinstance(k, bool) and k else None,
        "the workbook",
    )


_TYPES = {"Swiss": "Individual: Swiss-System", "Round robin": "Individual: Round-Robin",
          "Double round robin": "Individual: Double Round-Robin"}  # fmt: skip


def _date_text(value: object) -> str | None:
    if isinstance(value, _dt.datetime | _dt.date):
        return f"{value.year:04d}/{value.month:02d}/{value.day:02d}"
    if isinstance(value, str) and parse_date(value) is not None:
        return value.strip()
    return None


def _headers(ws: Any, players: list[Player], system: str) -> dict[str, str]:
    """TRF-16 header records from the Event sheet (B3 name, B4 place, B5 start, B6 end, B11
    chief arbiter) and the player table: what pairing programs and FIDE read first."""
    found: dict[str, str] = {}

    def text(cell: str) -> str | None:
        value = ws[cell].value
        return clean(str(value)).strip() or None if value is not None else None

    for tag, value in (
        ("012", text("B3")),
        ("022", text("B4")),
        ("042", _date_text(ws["B5"].value)),
        ("052", _date_text(ws["B6"].value)),
        ("062", str(len(players))),
        ("072", str(sum(p.rating is not None for p in players))),
        ("092", _TYPES.get(system)),
        ("102", text("B11")),
        ("122", text("B12")),
    ):
        if value:
            found[tag] = f"{tag} {value}"
    return found


def _same_header(tag: str, line: str, new: str) -> bool:
    """Whether an original header record says what the Event sheet says (then it is kept
    as it was written)."""
    if tag in ("042", "052"):
        return parse_date(line[4:]) == parse_date(new[4:])
    if tag in ("062", "072", "092"):
        return True  # counts and type: the original's own wording stays
    return line[4:].strip() == new[4:].strip()


def _int(value: object) -> int:
    try:
        return int(float(str(value)))
    except ValueError:
        raise FideInputError(f"expected a whole number in the workbook, got: {value!r}") from None


def _rr_rounds(
    ws: Any,
    row: int,
    number: int,
    old: Player | None,
    schedule: dict[int, list[tuple[int | None, str]]],
    own: Callable[[int | None], int | None] = lambda k: k,
) -> list[Round]:
    """A round-robin row back into rounds: the original pairing order where there is one
    (``own``: the file's starting rank of a column's player)."""

    start = len(layout.COLUMNS) + len(layout.RR_EXTRA) + 2
    results: dict[int | None, list[str]] = {}
    col = start
    while ws.cell(layout.HEADER_ROW, col).value is not None:
        opponent = own(_int(ws.cell(layout.HEADER_ROW, col).value))
        value = ws.cell(row, col).value
        if value is not None and value != "":
            results.setdefault(opponent, []).append(_code(value))
        col += 1
    if old is not None:
        out = []
        for r in old.rounds:
            if r.opponent is not None and results.get(r.opponent):
                out.append(r._replace(result=results[r.opponent].pop(0)))
            else:
                out.append(r)
        return out
    # no original pairings: the rounds and colours of the Berger tables (C.05 Annex 1)
    played: list[Round] = []
    for paired, colour in schedule[number]:
        if paired is None:
            played.append(Round(None, "-", "Z"))  # the round free: a zero-point bye
        else:
            codes = results.get(paired) or []
            played.append(Round(paired, colour, codes.pop(0) if codes else " "))
    return played


def _title_code(value: object, old: Player | None) -> str:
    text = str(value or "").strip()
    if old is not None and old.title_name == text.upper():
        return old.title
    reverse = {v: k for k, v in TITLES.items()}
    return reverse.get(text.upper(), text)


def _birth_text(value: object, old: Player | None) -> str:
    if old is not None and old.birth_date == (
        value.date() if isinstance(value, _dt.datetime) else value
    ):
        return old.birth
    if isinstance(value, _dt.datetime | _dt.date):
        return f"{value.year:04d}/{value.month:02d}/{value.day:02d}"
    return "" if value is None else str(value)


def _keep_original(old: Player, new: Player, byes: dict[int, str]) -> Player:
    """Fields the workbook cannot show differently keep the original's text; the rounds
    where the workbook shows the byes of record 240 (``byes``) are the record's own."""
    if byes and new.rounds == with_byes(old, byes):
        new = new._replace(rounds=old.rounds)
    if sex_of(new.sex) == sex_of(old.sex):
        new = new._replace(sex=old.sex)
    if not new.fide_id and not old.fide_id.strip("0- "):
        new = new._replace(fide_id=old.fide_id)  # 0, -----------: no FIDE ID either
    if old.points is not None and new.points == old.points:
        new = new._replace(points=old.points)
    elif same_fields(old._replace(points=None), new._replace(points=None)):
        # the results as they were: the file's points stay, even where they do not follow
        # from them (a bye the file does not record; a team event's informative points)
        new = new._replace(points=old.points)
    return new._replace(raw=old.raw)
