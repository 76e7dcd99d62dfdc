"""``fide-rating fill EVENT.xlsx --list LIST``: a crosstable's players from a rating list.

Every row of the Players sheet with a FIDE ID takes from the list what
:func:`fide_rating.events.lists.row_values` says (the name and title where the row has none, the
federation, sex, birth year, the rating at the start (Ro) and the list's K, "reached 2400";
R&B 7.2.1's standard rating for a rapid or blitz event, marked); the rest of the workbook is
kept; the result goes to a new file (or, asked for, over the workbook, atomically).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..events.lists import book_rating_type, edition_of_start, list_values
from ..formats.crosstable_write import fill_rows
from ..rules.errors import FideInputError
from .console import FORCE, Commands, command, list_options, output, say, shown
from .lists import open_list

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
    kind = args.rating_type or book_rating_type(book_kind)
    with open_list(args.list, kind) as listed:
        done = fill_rows(source, target, list_values(listed, kind, edition_of_start(start, kind)))
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
    from ..formats.crosstable import load_event_cells

    try:
        start, kind = load_event_cells(source, "B5", "B8")
        return start, kind
    except Exception:  # a workbook that cannot be read is said by fill_rows
        return None, None
