"""A rating list for every command that takes ``--list``: FIDE's own (text, XML or zip, through
:mod:`fide_rating.formats.fidelist`) or a rating-list workbook (the template's layout, or the
next list that ``period`` wrote), looked up by FIDE ID alike."""

from __future__ import annotations

import sys
from pathlib import Path

from ..formats.fidelist import FideList
from .console import say, shown


def open_list(path: str | Path, kind: str = "standard") -> FideList:
    """A rating list from a file, with a progress line while FIDE's list is read the first
    time; its problems on stderr."""
    from ..formats.fidelist import open_list as open_fide_list

    def show(done: int, total: int) -> None:
        if sys.stderr.isatty():
            share = 100 * done // total if total else 100
            sys.stderr.write(f"\rreading the rating list (once, then indexed): {share}%")
            sys.stderr.flush()

    source = Path(path)
    listed = open_fide_list(source, show)  # not a list: a FideInputError naming the file
    if sys.stderr.isatty():
        sys.stderr.write("\r" + " " * 60 + "\r")
    for problem in listed.errors[:20]:
        say(f"{shown(source)}: {problem}", err=True)
    if listed.error_count > 20:
        say(f"{shown(source)}: ... and {listed.error_count - 20} more problems", err=True)
    for warning in listed.warnings:  # e.g. no index could be written: read into memory
        say(f"{shown(source)}: {warning}", err=True)
    return listed
