"""A rating list for every command that takes ``--list``: FIDE's own (text, XML or zip, through
:mod:`fide_rating.formats.fidelist`) or a rating-list workbook (the template's layout, or the
next list that ``period`` wrote), looked up by FIDE ID alike.

A workbook list knows more of a player than FIDE's list prints: the rated games so far and
whether a published rating reached 2400, which K depends on. :func:`known_of` gives them to
``report`` for a player whose K the list leaves blank.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol

from ..formats.fidelist import FideList, ListedPlayer
from ..formats.trf import Tournament
from ..rules.errors import FideInputError
from .console import say, shown
from .period_book import read_list
from .period_calc import Listed, PeriodError
from .report import Known

WORKBOOKS = (".xlsx", ".xlsm")


class AnyList(Protocol):
    """What the commands use of a list, whichever kind it is."""

    @property
    def errors(self) -> Sequence[object]: ...
    @property
    def error_count(self) -> int: ...
    def get(self, fide_id: int, /) -> ListedPlayer | None: ...
    def close(self) -> None: ...
    def __len__(self) -> int: ...


class BookList:
    """A rating-list workbook as a list by FIDE ID: its one rating (of the kind its Period
    sheet names: standard unless it says otherwise) in that kind's place."""

    def __init__(self, players: dict[str, Listed], kind: str) -> None:
        self.players = {int(i): p for i, p in players.items() if i.isdigit()}
        self.kind = kind
        self.errors: list[object] = []
        self.error_count = 0

    def get(self, fide_id: int, /) -> ListedPlayer | None:
        found = self.players.get(int(fide_id))
        return None if found is None else _as_listed(found, self.kind)

    def facts(self, fide_id: int) -> Listed | None:
        return self.players.get(int(fide_id))

    def close(self) -> None:
        pass

    def __len__(self) -> int:
        return len(self.players)

    def __iter__(self) -> Iterator[ListedPlayer]:
        return (_as_listed(p, self.kind) for p in self.players.values())


def _as_listed(p: Listed, kind: str) -> ListedPlayer:
    rating = (p.rating, p.games, p.k)
    none = (None, 0, None)
    title, women = ("", p.title) if p.title.startswith("W") else (p.title, "")
    born = p.born.year if p.born is not None and not isinstance(p.born, int) else p.born
    return ListedPlayer(
        int(p.fide_id), p.name, p.fed, p.sex, title, women, "",
        *(rating if kind == "standard" else none),
        *(rating if kind == "rapid" else none),
        *(rating if kind == "blitz" else none),
        born, ("" if p.active else "i") + ("w" if p.sex == "F" else ""),
    )  # fmt: skip


def open_list(path: str | Path, kind: str = "standard") -> AnyList:
    """A rating list from a file, with a progress line while FIDE's list is read the first
    time; its problems on stderr."""
    source = Path(path)
    if source.suffix.lower() in WORKBOOKS:
        return _open_book(source, kind)
    return open_fide_list(source)


def open_fide_list(source: Path) -> FideList:
    """FIDE's list, with a progress line while it is read the first time; its problems and
    warnings (no index could be written: read into memory) on stderr."""
    from ..formats.fidelist import open_list as open_fide_list

    def show(done: int, total: int) -> None:
        if sys.stderr.isatty():
            share = 100 * done // total if total else 100
            sys.stderr.write(f"\rreading the rating list (once, then indexed): {share}%")
            sys.stderr.flush()

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


def _open_book(source: Path, kind: str) -> BookList:
    try:
        book = read_list(source)
    except PeriodError as error:
        raise FideInputError(
            f"{shown(source)}: not a rating list that can be used: {'; '.join(error.problems)}"
        ) from None
    if book.kind != kind:
        raise FideInputError(
            f"{shown(source)}: the list holds {book.kind} ratings, and {kind} ones were asked "
            f"for: give --rating-type {book.kind}, or the {kind} list"
        )
    return BookList(book.players, book.kind)


def known_of(t: Tournament, listed: AnyList | None) -> dict[int, Known]:
    """By starting rank: what a workbook list knows of the event's players (games so far,
    2400 reached, K) that FIDE's list and a TRF do not."""
    if not isinstance(listed, BookList):
        return {}
    out = {}
    for n, p in t.players.items():
        fide_id = p.fide_id.strip()
        facts = listed.facts(int(fide_id)) if fide_id.isdigit() else None
        if facts is not None:
            out[n] = Known(facts.games, facts.reached_2400, facts.k, "the list")
    return out
