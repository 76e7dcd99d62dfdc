"""TRF <-> workbook: ``fide-rating import-trf`` and ``export-trf``.

``import-trf`` fills the Swiss or round-robin template with a TRF's players and results;
``export-trf`` writes the workbook back as a TRF. The workbook keeps the original file's lines
on a hidden sheet, so TRF -> workbook -> TRF loses nothing.

May import: :mod:`.templates`, :mod:`.layout`, the file formats, the rules core, openpyxl and
the standard library.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
from pathlib import Path
from typing import Any

from ..formats.trf import TITLES, Player, Round, Tournament, parse_date, points_of
from ..rules.berger import schedule as berger_schedule
from ..rules.errors import FideInputError, bad
from . import layout
from .console import not_a_workbook, shown
from .layout import TRF_SHEET
from .report import GAMES_BEFORE_UNKNOWN, Known, Lookup, is_round_robin

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _clean(text: str) -> str:
    """A text a workbook cell can hold: control characters (a NUL in a broken file, reported
    by the reader) become U+FFFD."""
    return _CONTROL.sub("\ufffd", text) if _CONTROL.search(text) else text


def _sex(code: str) -> str | None:
    return {"m": "M", "w": "F", "f": "F"}.get(code.strip().lower())


def to_workbook(t: Tournament, listed: Lookup | None = None, kind: str = "standard") -> Any:
    """The event in the Swiss or round-robin template, the original lines on a hidden sheet.

    With ``listed`` (FIDE's list), a player found by FIDE ID takes the list's rating and K,
    and its birth year, sex, title and federation where the file has none.
    """
    from . import templates as tpl

    players = sorted(t.players.values(), key=lambda p: p.number)
    if not players:
        raise FideInputError("expected player records (001) in the TRF, got: none")
    numbers = [p.number for p in players]
    if numbers != list(range(1, len(players) + 1)):
        gaps = sorted(set(range(1, max(numbers, default=0) + 1)) - set(numbers))
        raise FideInputError(
            f"expected starting ranks 1 to {len(players)} without gaps, got gaps at: {gaps[:5]}"
        )
    rows = [
        tpl.Player(
            name=_clean(p.name),
            rating=p.rating,
            fide_id=int(p.fide_id) if p.fide_id.isdigit() else (p.fide_id or None),
            title=p.title_name or None,
            fed=p.federation or None,
            born=p.birth_date,
            sex=_sex(p.sex),
        )
        for p in players
    ]
    if listed is not None:
        rows = [_from_list(row, p, listed, kind) for row, p in zip(rows, players, strict=True)]
    info = tpl.Event(
        name=_clean(t.name or "") or None,
        place=_clean(t.header("022") or "") or None,
        start=t.start,
        end=t.end,
        arbiter=_clean(t.header("102") or "") or None,
        time_control=_clean(t.header("122") or "") or None,
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
    sheet = wb.create_sheet(TRF_SHEET)
    sheet.sheet_state = "hidden"
    sheet["A1"] = "The TRF this workbook was made from (fide-rating export-trf writes it back)"
    sheet["B1"] = t.encoding
    sheet["C1"] = {"\r\n": "CRLF", "\r": "CR"}.get(t.newline, "LF")
    for i, line in enumerate(t.lines, start=2):
        sheet.cell(i, 1, _clean(line.raw if isinstance(line, Player) else line or " "))
        sheet.cell(i, 1).data_type = "s"
    return wb


def _from_list(row: Any, p: Player, listed: Lookup, kind: str) -> Any:
    """A template row with the list's facts for a player found there by FIDE ID."""
    entry = listed.get(int(p.fide_id)) if p.fide_id.strip().isdigit() else None
    if entry is None:
        return row
    rating, _, k = entry.of(kind)
    title = next((x for x in (entry.title, entry.women_title) if x), "") or None
    facts = getattr(listed, "facts", None)  # a rating-list workbook (commands.lists.BookList)
    known = facts(entry.fide_id) if facts is not None else None
    return dataclasses.replace(
        row,
        rating=rating,
        k=k,
        born=row.born or entry.born,
        sex=row.sex or (entry.sex or None),
        title=row.title or title,
        fed=row.fed or (entry.federation or None),
        games_before=row.games_before if known is None else known.games,
        reached_2400=row.reached_2400 if known is None else known.reached_2400,
    )


def _colour(r: Round) -> str | None:
    """The colour cell: w or b, or - for a paired game not played (a forfeit)."""
    if r.colour in ("w", "b"):
        return r.colour
    return "-" if r.opponent is not None and r.colour == "-" else None


def _cell(code: str) -> object:
    """A TRF result code as the workbook writes it."""
    return {"1": 1, "0": 0, "=": "½", " ": None}.get(code, code)


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
    import openpyxl

    from ..formats.trf import parse

    try:
        wb = openpyxl.load_workbook(path, data_only=False)
    except OSError:
        raise
    except Exception as error:  # openpyxl raises many kinds for a file that is no workbook
        raise FideInputError(f"{shown(path)}: {not_a_workbook(error)}") from None
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
    ws = wb["Players"]
    header = {str(c.value): c.column for c in ws[layout.HEADER_ROW] if c.value is not None}
    system = str(wb["Event"]["B9"].value or "")
    rounds = int(wb["Event"]["B10"].value or 0)
    n_rows = ws.max_row
    by_number = original.players
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
        number = _int(number)
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
                        _int(opp) if opp else None,
                        str(colour).strip().lower()[:1] if colour else "-" if not opp else " ",
                        _code(res),
                    )
                )
        else:
            results = _rr_rounds(ws, r, number, old, schedule)
        new = Player(
            number=number,
            sex={"M": "m", "F": "w"}.get(str(ws.cell(r, header["Sex"]).value or ""), " "),
            title=_title_code(ws.cell(r, header["Title"]).value, old),
            name=str(name),
            rating=_int(rating) if rating else None,
            federation=str(ws.cell(r, header["Fed"]).value or ""),
            fide_id=str(ws.cell(r, header["FIDE ID"]).value or ""),
            birth=_birth_text(ws.cell(r, header["Born"]).value, old),
            points=points_of(x.result for x in results),
            rank=old.rank if old else None,
            rounds=tuple(results),
        )
        if old is not None:
            new = _keep_original(old, new)
        players.append(new)
        if new.rating is not None:
            known[number] = _known(ws, r, header)
    headers = _headers(wb["Event"], players, system)
    if original.lines:  # an imported file: its records as they were, the Event sheet's edits
        headers = {tag: v for tag, v in headers.items() if tag not in ("062", "072", "092")}
    lines: list[str | Player] = []
    placed = False
    for line in original.lines or []:
        if isinstance(line, str) and line[:3] in headers:
            tag = line[:3]
            lines.append(line if _same_header(tag, line, headers[tag]) else headers[tag])
            del headers[tag]
            continue
        if isinstance(line, Player) and not placed:
            lines += headers.values()  # the Event sheet's facts the original did not have
            headers = {}
        if isinstance(line, Player):
            if not placed:
                lines += players
                placed = True
            continue
        lines.append(line)
    if not placed:
        lines += [*headers.values(), *players]
    out = Tournament(lines=lines, encoding=original.encoding, newline=original.newline)
    return out, known


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
        return _clean(str(value)).strip() or None if value is not None else None

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
) -> list[Round]:
    """A round-robin row back into rounds: the original pairing order where there is one."""

    start = len(layout.COLUMNS) + len(layout.RR_EXTRA) + 2
    results: dict[int, list[str]] = {}
    col = start
    while ws.cell(layout.HEADER_ROW, col).value is not None:
        opponent = _int(ws.cell(layout.HEADER_ROW, col).value)
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


def _keep_original(old: Player, new: Player) -> Player:
    """Fields the workbook cannot show differently keep the original's text."""
    if old.points is not None and new.points == old.points:
        new = new._replace(points=old.points)
    if _sex(new.sex) == _sex(old.sex):
        new = new._replace(sex=old.sex)
    return new._replace(raw=old.raw)
