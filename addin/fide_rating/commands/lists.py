"""``--list`` for the commands: a rating list opened (:func:`fide_rating.events.lists.open_list`)
with a progress line while FIDE's list is read the first time, its problems and warnings on
stderr; and what ``recalc --list`` sets in a workbook before computing it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from ..engine.formula import Value
from ..engine.recalc import Constants
from ..events.lists import (
    AnyList,
    Lookup,
    book_rating_type,
    edition_of_start,
    list_values,
)
from ..events.lists import open_list as open_any_list
from ..formats import layout
from ..formats.crosstable import RowValues
from ..formats.crosstable_write import KEEP
from ..formats.fidelist import FideList
from .console import say, shown


def _show(done: int, total: int) -> None:
    if sys.stderr.isatty():
        share = 100 * done // total if total else 100
        sys.stderr.write(f"\rreading the rating list (once, then indexed): {share}%")
        sys.stderr.flush()


def _told(source: Path, listed: AnyList) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r" + " " * 60 + "\r")
    for problem in listed.errors[:20]:
        say(f"{shown(source)}: {problem}", err=True)
    if listed.error_count > 20:
        say(f"{shown(source)}: ... and {listed.error_count - 20} more problems", err=True)
    for warning in listed.warnings:  # e.g. no index could be written: read into memory
        say(f"{shown(source)}: {warning}", err=True)


def open_list(path: str | Path, kind: str | None = "standard") -> AnyList:
    """A rating list from a file (FIDE's, or a rating-list workbook of ``kind``), its problems
    and warnings on stderr."""
    source = Path(path)
    listed = open_any_list(source, kind, _show)
    _told(source, listed)
    return listed


def open_fide_list(source: Path) -> FideList:
    """FIDE's list, with a progress line while it is read the first time; its problems and
    warnings on stderr."""
    from ..formats.fidelist import open_list as open_fide

    listed = open_fide(source, _show)
    _told(source, listed)
    return listed


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
        of = kind or book_rating_type(value("Event", 8, 2))
        values_of = list_values(listed, of, edition_of_start(value("Event", 5, 2), of))
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
