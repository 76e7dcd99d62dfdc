"""Crosstable templates: round robin (single, double) and Swiss, built with openpyxl.

``fide-rating template swiss --players 150 --rounds 9 -o swiss.xlsx``;
``fide-rating template --all templates/`` writes every shipped size. Every figure is a formula
using the FIDE functions and a few standard functions that Excel and LibreOffice both have.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border
from openpyxl.utils import get_column_letter as letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from ..files import atomic
from ..rules.editions import EDITIONS, Edition
from .book_style import BOLD, CALC_FILL, DIAGONAL, HEAD_FILL, THIN, TITLE, saved
from .layout import (
    COLUMNS,
    EDITION,
    FIRST,
    HEADER_ROW,
    RATING_TYPE,
    RR_EXTRA,
    RR_METHOD,
    START,
    TIME_CONTROL,
)
from .list_template import build_list

RESULTS_HELP = "1 win, ½ (or 0.5 or =) draw, 0 loss; + and - forfeits; H, F, U, Z byes (not rated)"
# a round robin has no byes: its prompt offers what its list offers
RR_RESULTS_HELP = "1 win, ½ (or 0.5 or =) draw, 0 loss; + and - forfeits (not rated)"


@dataclass(frozen=True, slots=True)
class Spec:
    """What a template is for: its system, players and rounds."""

    system: str  # "swiss", "rr" or "drr"
    players: int
    rounds: int

    @property
    def name(self) -> str:
        if self.system == "swiss":
            return f"swiss-{self.players}x{self.rounds}"
        return f"{self.system}-{self.players}"

    @property
    def title(self) -> str:
        return {"swiss": "Swiss", "rr": "Round robin", "drr": "Double round robin"}[self.system]


SHIPPED = (
    *(Spec("rr", n, n - 1 + n % 2) for n in range(4, 17)),
    *(Spec("drr", n, 2 * (n - 1 + n % 2)) for n in range(4, 11)),
    Spec("swiss", 100, 9),
    Spec("swiss", 300, 11),
    Spec("swiss", 500, 15),
)


def spec_for(system: str, players: int, rounds: int | None = None) -> Spec:
    if system not in ("swiss", "rr", "drr"):
        raise ValueError(f"expected swiss, rr or drr, got: {system!r}")
    if system == "swiss":
        if not 2 <= players <= 500 or rounds is None or not 1 <= rounds <= 15:
            raise ValueError("a Swiss template has 2 to 500 players and 1 to 15 rounds")
        return Spec(system, players, rounds)
    if not 3 <= players <= 30:
        raise ValueError("a round-robin template has 3 to 30 players")
    single = players - 1 + players % 2
    return Spec(system, players, single if system == "rr" else 2 * single)


RO = letter([name for name, _, _ in COLUMNS].index("Ro") + 1)  # the rating column's letter


def edition_is(test: Callable[[Edition], bool]) -> str:
    """A condition on the Event sheet's edition: TRUE for the editions that pass ``test``
    (written from the editions' records, so the workbook needs no add-in to tell)."""
    names = [e.name for e in EDITIONS if test(e)]
    return "OR(" + ",".join(f'{EDITION}="{n}"' for n in names) + ")" if names else "FALSE"


def _event_sheet(wb: Workbook, spec: Spec, last: int) -> None:
    ws = wb.create_sheet("Event")
    ws["A1"] = "Event"
    ws["A1"].font = TITLE
    rows = [
        ("Event name", None, "The tournament's name"),
        ("Place", None, "City and federation"),
        ("Start date", None, "The first day: it chooses the edition of the regulations"),
        ("End date", None, None),
        (
            "Edition",
            f"=FIDE_EDITION({START},{RATING_TYPE})",
            "The regulations in force for the start date and the rating type (type a name to "
            "override, such as 2024-03 or 2024-12 rapid)",
        ),
        (
            "Rating type",
            "standard",
            "standard, rapid or blitz: rapid and blitz have their own chapter of the "
            "regulations (K, the 400-point rule, unrated games)",
        ),
        ("System", spec.title, None),
        ("Rounds", spec.rounds, None),
        ("Chief arbiter", None, None),
        (
            "Time control",
            None,
            "As announced, e.g. 90+30, 90 min/40 moves + 30 min + 30 s/move, 40/120, 60 "
            "(it goes to the TRF's record 122)",
        ),
        (
            "Ratable?",
            f'=IF({TIME_CONTROL}="","",FIDE_RATABLE({TIME_CONTROL},,,'
            f"MAX(Players!${RO}${FIRST}:${RO}${last}),{EDITION}))",
            "B.02 1.1 and 1.2: TRUE, or why games at this time control cannot be rated "
            "(the minimum by the highest rating on the Players sheet)",
        ),
    ]
    if spec.system != "swiss":
        rows.append((
            "Round-robin method",
            "=" + edition_is(lambda e: e.round_robin_unrated_method),
            "TRUE where the edition rates unrated players of a round robin by the round-robin "
            "method (2005-07 to 2014-07): then the Players sheet's Rc 1st, Ru 1st and Ru show "
            "it; later editions do not use it and those columns stay empty",
        ))  # fmt: skip
    for i, (label, value, note) in enumerate(rows, start=3):
        ws.cell(i, 1, label).font = BOLD
        cell = ws.cell(i, 2, value)
        if note:
            cell.comment = Comment(note, "fide-rating")
    for r in (5, 6):
        ws.cell(r, 2).number_format = "yyyy-mm-dd"
    # Ratable?: TRUE, also where a host hands the logical over as the number 1 (LibreOffice)
    ws.cell(13, 2).number_format = '"TRUE";"TRUE";"FALSE"'
    kinds = DataValidation(type="list", formula1='"standard,rapid,blitz"', allow_blank=False)
    ws.add_data_validation(kinds)
    kinds.add("B8")
    dates = DataValidation(type="date", operator="greaterThan", formula1="38534", allow_blank=True)
    dates.error = "Enter a date from 1 July 2005 on (the first edition of the regulations here)"
    dates.errorTitle = "Date"
    ws.add_data_validation(dates)
    dates.add("B5:B6")
    ws.column_dimensions["A"].width = 16
    ws.column_dimensions["B"].width = 30


def _instructions(wb: Workbook, spec: Spec) -> None:
    ws = wb.active
    assert ws is not None
    ws.title = "Instructions"
    lines = [
        (f"FIDE rating crosstable: {spec.title}, {spec.players} players", TITLE),
        ("", None),
        ("1. On the Event sheet, enter the event's name, place and start date. The start date "
         "chooses the edition of the FIDE Rating Regulations (Edition).", None),
        ("2. On the Players sheet, enter each player: name, FIDE ID, rating at the start "
         "(blank for an unrated player), rated games before the event, reached 2400, and K "
         "from the list if you have it.", None),
        ("3. Enter the results: "
         + (RESULTS_HELP if spec.system == "swiss" else RR_RESULTS_HELP) + ".", None),
        ("   Swiss: per round the opponent's number, the colour (w or b) and the result."
         if spec.system == "swiss"
         else "   Round robin: the result of the row's player against the column's player.", None),
        ("4. The grey columns compute every FIDE figure: Rc, W, We, K x chg, performance, the "
         "initial rating of unrated players, the new rating.", None),
        ("The functions need the fide-rating add-in (Excel: xlwings; LibreOffice: the .oxt). "
         "Without it, `fide-rating recalc` fills in every value headless.", None),
        ("K x chg is not rounded; FIDE rounds the total of the rating period once (FIDE_ROUND). "
         "'New' shows the rating after this event alone.", None),
    ]  # fmt: skip
    for i, (text, font) in enumerate(lines, start=1):
        cell = ws.cell(i, 1, text)
        if font is not None:
            cell.font = font
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.column_dimensions["A"].width = 110


def _validation(
    ws: Worksheet,
    kind: Literal["whole", "list"],
    formula: str,
    ranges: str,
    message: str,
    upper: str | None = None,
) -> None:
    dv = DataValidation(type=kind, formula1=formula, allow_blank=True, showErrorMessage=True)
    if kind == "whole":
        dv.operator = "between"
        dv.formula2 = upper
    dv.error = message
    dv.errorTitle = "fide-rating"
    dv.prompt = message
    dv.promptTitle = "fide-rating"
    dv.showInputMessage = True
    ws.add_data_validation(dv)
    dv.add(ranges)


def build(spec: Spec) -> Workbook:
    """A template workbook for ``spec``."""
    wb = Workbook()
    _instructions(wb, spec)
    _event_sheet(wb, spec, FIRST + spec.players - 1)
    ws = wb.create_sheet("Players")
    n = spec.players
    last = FIRST + n - 1
    columns = COLUMNS + (RR_EXTRA if spec.system != "swiss" else [])
    col = {name: i for i, (name, _, _) in enumerate(columns, start=1)}
    ws["A1"] = f"Players and results ({spec.title})"
    ws["A1"].font = TITLE
    ws["A2"] = RESULTS_HELP if spec.system == "swiss" else RR_RESULTS_HELP
    for i, (name, width, note) in enumerate(columns, start=1):
        cell = ws.cell(HEADER_ROW, i, name)
        cell.font = BOLD
        cell.fill = HEAD_FILL
        cell.comment = Comment(note, "fide-rating")
        cell.alignment = Alignment(horizontal="center")
        ws.column_dimensions[letter(i)].width = width

    def c(name: str, row: int | str = "{r}", absolute: bool = False) -> str:
        name_col = letter(col[name])
        return f"${name_col}${row}" if absolute else f"${name_col}{row}"

    gap = len(columns) + 2
    if spec.system == "swiss":
        blocks = {
            "Opp": gap,
            "Col": gap + spec.rounds,
            "Res": gap + 2 * spec.rounds,
            "Opp Ro": gap + 3 * spec.rounds,
        }
        titles = {
            "Opp": "Opponent",
            "Col": "Colour",
            "Res": "Result",
            "Opp Ro": "Opponent's rating",
        }
        for key, start in blocks.items():
            ws.cell(HEADER_ROW - 1, start, titles[key]).font = BOLD
            for k in range(spec.rounds):
                cell = ws.cell(HEADER_ROW, start + k, f"R{k + 1}")
                cell.font = BOLD
                cell.fill = HEAD_FILL
                ws.column_dimensions[letter(start + k)].width = 5 if key != "Opp Ro" else 7
        rt = f"{letter(blocks['Opp Ro'])}{{r}}:{letter(blocks['Opp Ro'] + spec.rounds - 1)}{{r}}"
        rs = f"{letter(blocks['Res'])}{{r}}:{letter(blocks['Res'] + spec.rounds - 1)}{{r}}"
        ratings_abs = f"{c('Ro', FIRST, True)}:{c('Ro', last, True)}"
    else:
        width = n if spec.system == "rr" else 2 * n
        start = gap
        ws.cell(
            HEADER_ROW - 2, start, "Crosstable: the row's player against the column's"
        ).font = BOLD
        ws.cell(HEADER_ROW - 1, start - 1, "Ro used").font = BOLD
        for k in range(width):
            j = k % n + 1
            cell = ws.cell(HEADER_ROW, start + k, j)
            cell.font = BOLD
            cell.fill = HEAD_FILL
            ws.column_dimensions[letter(start + k)].width = 5
            # the rating each column's player counts with (Ru for an unrated one)
            ws.cell(HEADER_ROW - 1, start + k, f"={c('Rating used', FIRST + j - 1, True)}")
            ws.cell(HEADER_ROW - 1, start + k).fill = CALC_FILL
        xt = f"${letter(start)}${FIRST}:${letter(start + width - 1)}${last}"
        rt = f"${letter(start)}${HEADER_ROW - 1}:${letter(start + width - 1)}${HEADER_ROW - 1}"
        rs = f"{letter(start)}{{r}}:{letter(start + width - 1)}{{r}}"
        ratings_abs = f"{c('Ro', FIRST, True)}:{c('Ro', last, True)}"

    for i in range(n):
        r = FIRST + i
        ws.cell(r, col["No"], i + 1)
        RT, RS = rt.format(r=r), rs.format(r=r)  # noqa: N806 - the ranges as FIDE names them
        name, ro, n_col = c("Name", r), c("Ro", r), c("n", r)
        empty = f'{name}=""'
        no_extremes = edition_is(lambda e: not e.dp_at_extremes)
        rated_only = f'OR({empty},{ro}="")'
        formulas = {
            "K": f'=IF({rated_only},"",IF({c("K list", r)}<>"",{c("K list", r)},'
                 f'FIDE_K({ro},IF({c("Games", r)}="",30,{c("Games", r)}),{c("Born", r)},'
                 f'N({c("2400", r)})>0,'
                 f"{n_col},{START},{RATING_TYPE})))",
            "Pts": f'=IF({empty},"",FIDE_POINTS({RS}))',
            "Played": f'=IF({empty},"",FIDE_GAMES({RS}))',
            "n": f'=IF({empty},"",FIDE_N({RT},{RS},{ro},{EDITION}))',
            # n=0, not N(n)=0: N() would turn an error shown in n into 0 and hide it here
            "Rc/Ra": f'=IF(OR({empty},{n_col}=0),"",FIDE_RC({ro},{RT},{RS},{EDITION}))',
            "W": f'=IF({empty},"",FIDE_W({RT},{RS},{ro},{EDITION}))',
            "We": f'=IF({rated_only},"",FIDE_EXPECT({ro},{RT},{RS},{EDITION}))',
            "W-We": f'=IF({rated_only},"",{c("W", r)}-{c("We", r)})',
            "K*chg": f'=IF({rated_only},"",FIDE_CHANGE({ro},{RT},{RS},{c("K", r)},{EDITION}))',
            # a score of 0 % or 100 % has no dp in 2005-07 (10.1): the cell stays empty
            "Rp": f'=IF(OR({empty},{n_col}=0,AND({no_extremes},OR({c("W", r)}=0,'
                  f'{c("W", r)}={n_col}))),"",FIDE_PERF({RT},{RS},{EDITION}))',
            # no result yet: nothing to say (and never an empty text from the add-in)
            "Initial": f'=IF(OR({empty},{ro}<>"",COUNTA({RS})=0),"",'
                       f"FIDE_INITIAL({RT},{RS},{EDITION}))",
            "New": f'=IF({empty},"",IF({ro}<>"",{ro}+FIDE_ROUND({c("K*chg", r)}),'
                   f'IF(ISNUMBER({c("Initial", r)}),{c("Initial", r)},'
                   # an error in Initial shows here too; the reason for no rating does not
                   f'IF(LEFT({c("Initial", r)},1)="#",{c("Initial", r)},""))))',
        }  # fmt: skip
        if spec.system != "swiss":

            def rr(item: str, row: int = r) -> str:
                return f'FIDE_RR({ratings_abs},{xt},{c("No", row)},"{item}",{EDITION})'

            # the round-robin method's figures only where the edition has it and the player
            # has played (never an empty text from the add-in: see recalc's README section)
            played = c("Played", r)
            method_only = f'OR({empty},{ro}<>"",NOT({RR_METHOD}),N({played})=0)'
            formulas["Rc/Ra"] = f'=IF(OR({empty},{n_col}=0),"",{rr("rc")})'
            formulas["Initial"] = f'=IF(OR({empty},{ro}<>"",COUNTA({xt})=0),"",{rr("initial")})'
            formulas["Rc 1st"] = f'=IF({method_only},"",{rr("rc1")})'
            formulas["Ru 1st"] = f'=IF({method_only},"",{rr("ru1")})'
            formulas["Ru"] = f'=IF({method_only},"",{rr("ru")})'
            formulas["Rating used"] = (
                f'=IF({empty},"",IF({ro}<>"",{ro},IF({method_only},"",{rr("rating")})))'
            )
            for k in range(width):
                if k % n == i:
                    ws.cell(r, start + k).fill = DIAGONAL
        for key, formula in formulas.items():
            cell = ws.cell(r, col[key], formula)
            cell.fill = CALC_FILL
        if spec.system == "swiss":
            for k in range(spec.rounds):
                opp = f"{letter(blocks['Opp'] + k)}{r}"
                ws.cell(r, blocks["Opp Ro"] + k,
                        f'=IF(N({opp})=0,"",IF(N(INDEX({ratings_abs},{opp}))=0,"",'
                        f"INDEX({ratings_abs},{opp})))").fill = CALC_FILL  # fmt: skip
        for key, fmt in (("Rc/Ra", "0"), ("We", "0.00"), ("W-We", "0.00"), ("K*chg", "0.00")):
            ws.cell(r, col[key]).number_format = fmt
        for header, _, _ in columns:
            ws.cell(r, col[header]).border = Border(bottom=THIN)

    rows = f"{FIRST}:{last}"
    lo, hi = rows.split(":")

    def span(name: str) -> str:
        return f"{letter(col[name])}{lo}:{letter(col[name])}{hi}"

    _validation(ws, "whole", "1", span("Ro"), "A rating: a whole number (blank if unrated)", "4000")
    _validation(ws, "list", '"TRUE,FALSE"', span("2400"), "TRUE if a published rating reached 2400")
    _validation(
        ws, "whole", "1", span("K list"), "K from the list: 10, 20 or 40 (or 15, 25)", "100"
    )
    if spec.system == "swiss":
        rounds = spec.rounds
        opp_range = f"{letter(blocks['Opp'])}{lo}:{letter(blocks['Opp'] + rounds - 1)}{hi}"
        col_range = f"{letter(blocks['Col'])}{lo}:{letter(blocks['Col'] + rounds - 1)}{hi}"
        res_range = f"{letter(blocks['Res'])}{lo}:{letter(blocks['Res'] + rounds - 1)}{hi}"
        _validation(ws, "whole", "1", opp_range, f"The opponent's number, 1 to {n}", str(n))
        _validation(ws, "list", '"w,b"', col_range, "The colour: w (white) or b (black)")
        _validation(ws, "list", '"1,½,0,=,0.5,+,-,H,F,U,Z"', res_range, RESULTS_HELP)
    else:
        res_range = f"{letter(start)}{lo}:{letter(start + width - 1)}{hi}"
        _validation(ws, "list", '"1,½,0,=,0.5,+,-"', res_range, RR_RESULTS_HELP)
    ws.freeze_panes = ws.cell(FIRST, col["Name"] + 1)
    wb.defined_names["FIDE_PLAYERS"] = DefinedName(
        "FIDE_PLAYERS",
        attr_text=f"Players!$A${HEADER_ROW}:${letter(len(COLUMNS))}${last}",
    )
    _chart(wb, spec, col)
    wb.properties.creator = "fide-rating"
    # fixed dates: regenerating a template gives the same file
    wb.properties.created = wb.properties.modified = _dt.datetime(2025, 1, 1)
    return wb


def _chart(wb: Workbook, spec: Spec, col: dict[str, int]) -> None:
    ws = wb.create_sheet("Chart")
    ws["A1"] = "Rating changes (K x chg) by player"
    ws["A1"].font = TITLE
    players = wb["Players"]
    last = FIRST + spec.players - 1
    chart = BarChart()
    chart.type = "bar"
    chart.title = "K x chg"
    chart.y_axis.title = "rating points"
    data = Reference(players, min_col=col["K*chg"], min_row=HEADER_ROW, max_row=last)
    names = Reference(players, min_col=col["Name"], min_row=FIRST, max_row=last)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(names)
    chart.height = max(8.0, 0.5 * min(spec.players, 60))
    chart.width = 18
    ws.add_chart(chart, "A3")


def write(spec: Spec, path: Path) -> Path:
    """Build the template and save it (atomically)."""
    data = saved(build(spec))
    with atomic(path) as out:
        out.write(data)
    return path


def write_all(folder: Path) -> list[Path]:
    written = [write(spec, folder / f"{spec.name}.xlsx") for spec in SHIPPED]
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "rating-list.xlsx"
    data = saved(build_list())  # (the rating-list workbook: :mod:`.list_template`)
    with atomic(target) as out:
        out.write(data)
    return [*written, target]


# --- filling a template -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    """One player row of a template."""

    name: str
    rating: int | None = None
    fide_id: int | str | None = None
    title: str | None = None
    fed: str | None = None
    born: int | _dt.date | None = None
    sex: str | None = None
    games_before: int | None = None
    reached_2400: bool | None = None
    k: int | None = None
    notes: tuple[tuple[str, str], ...] = ()  # (column, note): a comment on the cell


@dataclass(frozen=True, slots=True)
class Event:
    """The event sheet's facts."""

    name: str | None = None
    place: str | None = None
    start: _dt.date | None = None
    end: _dt.date | None = None
    arbiter: str | None = None
    time_control: str | None = None  # as announced (the TRF's record 122)


CellInput = int | float | str | bool | _dt.date | None
Pairing = tuple[int | None, str | None, CellInput]  # opponent number, colour, result


def _columns(spec: Spec) -> dict[str, int]:
    columns = COLUMNS + (RR_EXTRA if spec.system != "swiss" else [])
    return {name: i for i, (name, _, _) in enumerate(columns, start=1)}


def put(ws: Worksheet, row: int, column: int, value: CellInput) -> Cell:
    """A value from a file (a TRF, a rating list) into a cell: text stays text, never a
    formula (openpyxl takes text beginning with = for one: a player named
    ``=HYPERLINK(...)`` must not become a live link)."""
    cell = ws.cell(row, column, value)
    if isinstance(value, str) and cell.data_type == "f":
        cell.data_type = "s"
    return cell


def _fill_common(wb: Workbook, event: Event, players: list[Player], spec: Spec) -> None:
    sheet = wb["Event"]
    for row, value in ((3, event.name), (4, event.place), (5, event.start), (6, event.end),
                       (11, event.arbiter), (12, event.time_control)):  # fmt: skip
        if value is not None:
            put(sheet, row, 2, value)
    ws = wb["Players"]
    col = _columns(spec)
    for i, p in enumerate(players):
        r = FIRST + i
        values: dict[str, CellInput] = {
            "FIDE ID": p.fide_id, "Name": p.name, "Title": p.title, "Fed": p.fed,
            "Born": p.born, "Sex": p.sex, "Ro": p.rating, "Games": p.games_before,
            "2400": p.reached_2400, "K list": p.k,
        }  # fmt: skip
        for key, given in values.items():
            if given is not None and given != "":
                put(ws, r, col[key], given)
        for key, note in p.notes:
            ws.cell(r, col[key]).comment = Comment(note, "fide-rating")


def fill_swiss(
    spec: Spec, event: Event, players: list[Player], rounds: list[list[Pairing]]
) -> Workbook:
    """A Swiss template filled in: ``rounds[i][k]`` is player i's round k+1."""
    if len(players) > spec.players or any(len(r) > spec.rounds for r in rounds):
        raise ValueError("more players or rounds than the template has")
    wb = build(spec)
    _fill_common(wb, event, players, spec)
    ws = wb["Players"]
    gap = len(COLUMNS) + 2
    for i, line in enumerate(rounds):
        for k, (opp, colour, result) in enumerate(line):
            r = FIRST + i
            if opp:
                put(ws, r, gap + k, opp)
            if colour:
                put(ws, r, gap + spec.rounds + k, colour)
            if result is not None and result != "":
                put(ws, r, gap + 2 * spec.rounds + k, result)
    return wb


def fill_round_robin(
    spec: Spec,
    event: Event,
    players: list[Player],
    table: list[list[CellInput | list[CellInput] | tuple[CellInput, ...]]],
) -> Workbook:
    """A round-robin template filled in: ``table[i][j]`` is i's result against j (a list of
    two results in a double round robin)."""
    wb = build(spec)
    _fill_common(wb, event, players, spec)
    ws = wb["Players"]
    start = len(COLUMNS) + len(RR_EXTRA) + 2
    n = spec.players
    for i, line in enumerate(table):
        for j, cell in enumerate(line):
            results = cell if isinstance(cell, list | tuple) else [cell]
            for cycle, result in enumerate(results):
                if result is not None and result != "":
                    put(ws, FIRST + i, start + cycle * n + j, result)
    return wb
