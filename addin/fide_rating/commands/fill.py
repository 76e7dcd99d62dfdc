"""``fide-rating fill EVENT.xlsx --list LIST``: a crosstable's players from FIDE's rating list.

Every row of the Players sheet with a FIDE ID takes from the list: the name and title where
the row has none, the federation, sex, birth year, the rating at the start (Ro) and the list's
K; "reached 2400" is set where the list's rating is 2400 or more. The rest of the workbook is
kept; the result goes to a new file (or, asked for, over the workbook, atomically).

May import: the file formats, :mod:`.layout`, :mod:`fide_rating.files`, openpyxl and the
standard library.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.formula import Value
from ..engine.recalc import Constants
from ..files import atomic
from ..formats.fidelist import ListedPlayer
from ..rules.errors import FideInputError, bad
from . import layout
from .console import FORCE, Commands, command, list_options, not_a_workbook, output, say, shown
from .lists import open_list
from .report import Lookup

TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}


@dataclass
class Filled:
    """What fill did."""

    rows: int = 0  # player rows with a FIDE ID
    found: int = 0
    missing: list[tuple[int, str]] = field(default_factory=list)  # (row, FIDE ID)
    changed: list[tuple[int, str, object, object]] = field(default_factory=list)  # row, column


def _title(entry: ListedPlayer) -> str | None:
    for text in (entry.title, entry.women_title):
        if text.upper() in TITLES:
            return text.upper()
    return None


KEEP = ("Name", "Title")  # the arbiter's own spelling stays where the row has one


def from_list(entry: ListedPlayer, kind: str, listed: object = None) -> dict[str, Any]:
    """What a player row takes from the list: its columns and values; from a rating-list
    workbook also the rated games so far and 2400 reached, which FIDE's list does not print."""
    rating, _, k = entry.of(kind)
    values: dict[str, Any] = {
        "Name": entry.name, "Title": _title(entry), "Fed": entry.federation,
        "Sex": entry.sex or None, "Born": entry.born, "Ro": rating, "K list": k,
    }  # fmt: skip
    if rating is not None and rating >= 2400:
        values["2400"] = True
    facts = getattr(listed, "facts", None)  # a rating-list workbook (commands.lists.BookList)
    known = facts(entry.fide_id) if facts is not None else None
    if known is not None:
        values["Games"] = known.games
        values["2400"] = known.reached_2400 or values.get("2400", False)
    return values


def list_constants(listed: Lookup, kind: str = "standard") -> Constants:
    """For ``recalc --list``: the Players cells a template's rows take from the list, found
    by FIDE ID, set before the workbook is computed."""

    def constants(
        value: Callable[[str, int, int], Value], extents: dict[str, tuple[int, int]]
    ) -> dict[tuple[str, int, int], Value]:
        if "Players" not in extents:
            return {}
        rows, cols = extents["Players"]
        header = {str(value("Players", layout.HEADER_ROW, c)): c for c in range(1, cols + 1)}
        if "FIDE ID" not in header:
            return {}
        out: dict[tuple[str, int, int], Value] = {}
        for r in range(layout.FIRST, rows + 1):
            text = str(value("Players", r, header["FIDE ID"]) or "").strip().removesuffix(".0")
            entry = listed.get(int(text)) if text.isdigit() else None
            if entry is None:
                continue
            for column, new in from_list(entry, kind, listed).items():
                c = header.get(column)
                if c is None or (column in KEEP and value("Players", r, c) not in (None, "")):
                    continue
                out[("Players", r, c)] = float(new) if isinstance(new, int) and not isinstance(
                    new, bool) else new  # fmt: skip
        return out

    return constants


def fill(source: Path, target: Path, listed: Lookup, kind: str = "standard") -> Filled:
    """Fill ``source``'s Players sheet from ``listed`` and save it as ``target``."""
    import openpyxl

    try:
        wb = openpyxl.load_workbook(source, keep_vba=source.suffix.lower() == ".xlsm")
    except OSError:
        raise
    except Exception as error:  # openpyxl raises many kinds for a file that is no workbook
        raise FideInputError(f"{shown(source)}: {not_a_workbook(error)}") from None
    if "Players" not in wb.sheetnames:
        raise bad("expected a fide-rating crosstable (a sheet 'Players')", str(source))
    ws = wb["Players"]
    header = {str(c.value): c.column for c in ws[layout.HEADER_ROW] if c.value is not None}
    if "FIDE ID" not in header:
        raise FideInputError(f"expected a 'FIDE ID' column on the Players sheet of {source}")
    done = Filled()
    for r in range(layout.FIRST, ws.max_row + 1):
        raw = ws.cell(r, header["FIDE ID"]).value
        if raw is None or str(raw).strip() == "":
            continue
        done.rows += 1
        text = str(raw).strip().removesuffix(".0")
        entry = listed.get(int(text)) if text.isdigit() else None
        if entry is None:
            done.missing.append((r, text))
            continue
        done.found += 1
        for column, value in from_list(entry, kind, listed).items():
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
    with atomic(target) as out:
        wb.save(out)
    return done


# --- the command ----------------------------------------------------------------------------


def register(sub: Commands) -> None:
    p = command(
        sub,
        "fill",
        "fill a crosstable's players from a rating list",
        "Every player row with a FIDE ID takes the list's federation, sex, birth year, "
        "rating (Ro) and K, and the name and title where the row has none. Written to "
        "NAME.filled.xlsx, to -o FILE, or over the workbook with --in-place.",
        [
            "event.xlsx --list players_list_foa.zip",
            "event.xlsx --list players_list_foa.txt -o ready.xlsx",
        ],
    )
    p.add_argument("workbook", help="the crosstable workbook (.xlsx)")
    list_options(p, required=True)
    p.add_argument("-o", "--output", help="the filled workbook (default: NAME.filled.xlsx)")
    p.add_argument("--in-place", action="store_true", help="write over the workbook (atomically)")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    source = Path(args.workbook)
    if args.in_place and args.output:
        raise FideInputError("either -o or --in-place, not both")
    default = source.with_name(f"{source.stem}.filled{source.suffix}")
    target = (
        source
        if args.in_place
        else output(Path(args.output or default), args, source, suffixes=(".xlsx", ".xlsm"))
    )
    listed = open_list(args.list, args.rating_type)
    try:
        done = fill(source, target, listed, args.rating_type)
    finally:
        listed.close()
    for row, fide_id in done.missing:
        say(f"not on the list: Players row {row}, FIDE ID {shown(fide_id)}")
    for row, column, old, new in done.changed:
        say(
            f"changed: Players row {row}, {column}: {shown(old)} -> "
            f"{shown(new) if new is not None else 'blank'}"
        )
    say(f"wrote {shown(target)}: {done.found} of {done.rows} players filled from the list")
    return 1 if done.missing else 0
