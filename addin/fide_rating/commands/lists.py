"""``--list`` on the console: a rating list opened (:func:`fide_rating.events.lists.open_list`)
with a progress line while FIDE's list is read the first time, and its problems and warnings on
stderr."""

from __future__ import annotations

import sys
from pathlib import Path

from ..events.lists import AnyList
from ..events.lists import open_list as open_any_list
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
