"""``fide-rating fill EVENT.xlsx --list LIST``: a crosstable's players from a rating list.

Every row of the Players sheet with a FIDE ID takes from the list what
:func:`fide_rating.events.lists.row_values` says (the name and title where the row has none, the
federation, sex, birth year, the rating at the start (Ro) and the list's K, "reached 2400";
R&B 7.2.1's standard rating for a rapid or blitz event, marked); the rest of the workbook is
kept; the result goes to a new file (or, asked for, over the workbook, atomically).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from ..engine.formula import Value
from ..engine.recalc import Constants
from ..events.lists import Lookup, list_values
from ..formats import layout
from ..formats.crosstable import RowValues
from ..formats.crosstable_write import KEEP, fill_rows
from ..rules.editions import RATING_TYPES, Edition, get_edition
from ..rules.errors import FideInputError
from .console import FORCE, Commands, command, list_options, output, say, shown
from .lists import open_list


def list_constants(listed: Lookup, kind: str | None = None) -> Constants:
    """For ``recalc --list``: the Players cells a template's rows take from the list, found
    by FIDE ID, set before the workbook is computed: the ratings of ``kind``, else of the
    workbook's rating type (its Event sheet, B8); R&B 7.2.1 by the edition of the workbook's
    start date and rating type."""

    def constants(
        value: Callable[[str, int, int], Value], extents: dict[str, tuple[int, int]]
    ) -> dict[tuple[str, int, int], Value]:
        if "Players" not in extents:
            return {}
        rows, cols = extents["Players"]
        header = {str(value("Players", layout.HEADER_ROW, c)): c for c in range(1, cols + 1)}
        if "FIDE ID" not in header:
            return {}
        of = kind or _kind(value("Event", 8, 2))
        values_of = list_values(listed, of, _edition(value("Event", 5, 2), of))
        out: dict[tuple[str, int, int], Value] = {}
        for r in range(layout.FIRST, rows + 1):
            given: RowValues | None = values_of(str(value("Players", r, header["FIDE ID"]) or ""))
            if given is None:
                continue
            for column, new in given.values.items():
                c = header.get(column)
                if c is None or (column in KEEP and value("Players", r, c) not in (None, "")):
                    continue
                out[("Players", r, c)] = float(new) if isinstance(new, int) and not isinstance(
                    new, bool) else new  # fmt: skip
        return out

    return constants


def _kind(text: object) -> str:
    """A workbook's rating type (its Event sheet, B8): standard where it names none."""
    found = str(text or "").strip().lower()
    return found if found in RATING_TYPES else "standard"


def _edition(start: object, kind: str) -> Edition | None:
    """The edition of a workbook's start date (a date serial or a date) and rating type."""
    from ..cells.coerce import date_of

    try:
        return get_edition(date_of("start", start), kind)
    except FideInputError:
        return None


# --- the command ----------------------------------------------------------------------------


def register(sub: Commands) -> None:
    p = command(
        sub,
        "fill",
        "Every player row with a FIDE ID takes the list's federation, sex, birth year, "
        "rating (Ro) and K, and the name and title where the row has none. Written to "
        "NAME.filled.xlsx, to -o FILE, or over the workbook with --in-place.",
        [
            "event.xlsx --list players_list_foa.zip",
            "event.xlsx --list players_list_foa.txt -o ready.xlsx",
        ],
    )
    p.add_argument("workbook", help="the crosstable workbook (.xlsx)")
    list_options(p, required=True, from_workbook=True)
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
    start, book_kind = _event_of(source)
    kind = args.rating_type or _kind(book_kind)
    with open_list(args.list, kind) as listed:
        done = fill_rows(source, target, list_values(listed, kind, _edition(start, kind)))
    for row, fide_id in done.missing:
        say(f"not on the list: Players row {row}, FIDE ID {shown(fide_id)}")
    for row, fide_id in done.shared:
        say(f"not filled: Players row {row}, FIDE ID {shown(fide_id)} is on another row too "
            "(a typing slip?): the list is applied to neither", err=True)  # fmt: skip
    for row, column, old, new in done.changed:
        say(
            f"changed: Players row {row}, {column}: {shown(old)} -> "
            f"{shown(new) if new is not None else 'blank'}"
        )
    for row, _, note in done.marked:
        say(f"marked: Players row {row}, Ro: {note}")
    say(f"wrote {shown(target)}: {done.found} of {done.rows} players filled from the list")
    return 1 if done.missing or done.shared else 0


def _event_of(source: Path) -> tuple[object, object]:
    """The crosstable's start date and rating type (its Event sheet, B5 and B8): the edition
    whose R&B 7.2.1 applies."""
    from ..formats.crosstable import load_event_cell

    try:
        return load_event_cell(source, "B5"), load_event_cell(source, "B8")
    except Exception:  # a workbook that cannot be read is said by fill_rows
        return None, None
