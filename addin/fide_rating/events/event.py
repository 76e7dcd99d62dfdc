"""What an event is, from any source: a TRF (TRF-16 or TRF-2026) or a crosstable workbook, with
its players, games, start, rating type and the problems found in it; and which edition of the
regulations rates it. Every command reads an event here.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path

from ..cells.coerce import edition_arg
from ..formats.crosstable import Known
from ..formats.trf import Player, Tournament, TrfError, time_control
from ..rules.editions import RATING_TYPES, Edition, get_edition
from ..rules.errors import FideInputError
from ..rules.ratable import TimeControl, TimeControlError, rating_type_of

WORKBOOKS = (".xlsx", ".xlsm")


@dataclass
class Event:
    """An event as every command sees it."""

    tournament: Tournament
    source: Path | None = None
    # what a crosstable workbook's rows know that a TRF does not carry, by starting rank
    known: dict[int, Known] = field(default_factory=dict)
    book_kind: str | None = None  # a crosstable workbook's rating type (its Event sheet, B8)

    @property
    def from_workbook(self) -> bool:
        return self.source is not None and self.source.suffix.lower() in WORKBOOKS

    @property
    def start(self) -> _dt.date | None:
        return self.tournament.start

    @property
    def errors(self) -> list[TrfError]:
        return self.tournament.errors

    @property
    def warnings(self) -> list[TrfError]:
        return self.tournament.warnings

    def where_start(self) -> str:
        """Where the event's start date is written in its source."""
        return "the Event sheet, B5" if self.from_workbook else "record 042"


def read_event(source: Path, start: _dt.date | None = None) -> Event:
    """An event from a TRF or a crosstable workbook (``start``: the start date given for a
    file whose own is missing or unsure); one without players is refused."""
    if source.suffix.lower() in WORKBOOKS:
        from ..formats.crosstable import read_crosstable

        t, known, written = read_crosstable(source)
        kind = written.lower()
        event = Event(t, source, known, kind if kind in RATING_TYPES else None)
    else:
        from ..formats.trf import read

        event = Event(read(source), source)
    if start is not None:
        event.tournament.given_start = start
    check_event(event)
    if not event.tournament.players:
        raise FideInputError(
            f"expected player records (001) in the TRF, got: none ({source})"
            if not event.from_workbook
            else f"expected players on the Players sheet, got: none ({source})"
        )
    return event


def event_time_control(t: Tournament) -> tuple[TimeControl | None, TimeControl | None, str]:
    """The event's time control (White's, and Black's where it differs) and where it comes
    from: TRF-2026 record 222 (encoded), else record 122 (free text, the usual notations)."""
    encoded = time_control(t)
    if encoded is not None:
        white = TimeControl.from_seconds(encoded.white)
        black = TimeControl.from_seconds(encoded.black) if encoded.black else None
        return white, black, f"record 222 {_cut(encoded.text)!r}"
    if t.header("222") is not None:
        return None, None, f"record 222 {_cut(t.header('222') or '')!r}"
    text = t.header("122")
    if not text:
        return None, None, ""
    try:
        return TimeControl.parse(text), None, f"record 122 {_cut(text)!r}"
    except TimeControlError as error:  # why not, or both its readings
        return None, None, f"record 122 {_cut(text)!r} ({error.reason})"


def _cut(text: str) -> str:
    """A record's text as a message quotes it: at most 60 characters."""
    return text if len(text) <= 60 else text[:57] + "..."


def rating_type(event: Event | Tournament, given: str | None = None) -> tuple[str, str]:
    """The event's rating type and why: the one given (``--rating-type``), else a crosstable
    workbook's (its Event sheet), else what record 222's time control is on the start date
    (:func:`~fide_rating.rules.ratable.rating_type_of`), else standard."""
    if given:
        return given, "given with --rating-type"
    if isinstance(event, Event):
        if event.book_kind is not None:
            return event.book_kind, "the workbook's Event sheet"
        t = event.tournament
    else:
        t = event
    encoded = time_control(t)
    white, black, where = event_time_control(t)
    if encoded is None or white is None:
        hint = ""
        if white is not None:  # record 122 only: what it reads as, for the arbiter to say
            found = rating_type_of(white, t.start)
            if found.kind not in (None, "standard"):
                hint = (f"; {where} reads as {found.kind}: give --rating-type {found.kind} if "
                        "it is")  # fmt: skip
        why = (f"{where} cannot be read" if t.header("222") is not None
               else "the file has no encoded time control (record 222)")  # fmt: skip
        return "standard", f"{why}: standard assumed{hint}"
    found = rating_type_of(white, t.start, black)
    if found.kind is None:
        return "standard", f"{where}: {found.why}; standard assumed: give --rating-type"
    return found.kind, f"{where}: {found.why}"


def named_edition(text: str | None) -> tuple[Edition | None, _dt.date | None]:
    """An edition named on the command line (a name such as 2024-03 or 2024-12 rapid, or a
    start date), and the date when it was given as one."""
    if not text:
        return None, None
    try:
        return edition_arg(text)
    except FideInputError:
        from ..formats.trf_records import date_readings

        readings = date_readings(text.strip())  # a date as arbiters write it: 01.10.2025
        dotted = [d for d, form in readings if form == "DD.MM.YYYY" or len(readings) == 1]
        if not dotted:
            raise
        return edition_arg(dotted[0].isoformat())


def edition_for(event: Event, kind: str, named: str | None = None) -> Edition:
    """The edition that rates the event: the one named (a start date: that rating type's
    edition of the date; a name of another rating type: that type's edition of its date), else
    the edition of the event's start date and rating type."""
    ed, day = named_edition(named)
    if day is not None:
        return get_edition(day, kind)
    if ed is not None:
        return ed if ed.rating_type == kind else get_edition(ed.name, kind)
    require_start(event)
    assert event.start is not None
    return get_edition(event.start, kind)


def require_start(event: Event) -> None:
    """The event's start date must be known: it chooses the edition and dates the junior
    rule."""
    if event.start is None:
        raise FideInputError(
            f"{event.source or 'the event'}: the event's start date is missing "
            f"({event.where_start()}): it chooses the edition and dates the junior rule; give it "
            "with --start YYYY-MM-DD"
        )


def given_start(event: Event, named: str | None) -> None:
    """A date given for the edition stands for the event's missing start date."""
    _, day = named_edition(named)
    if event.start is None and day is not None:
        event.tournament.given_start = day


def edition_at_start(t: Tournament, kind: str) -> Edition | None:
    """The edition of the event's rating type on its start date, or None where the start is not
    known or no edition of the type was in force then (whether R&B 7.2.1 applies, when a list is
    applied without rating the event)."""
    if t.start is None:
        return None
    try:
        return get_edition(t.start, kind)
    except FideInputError:
        return None


def check_event(event: Event) -> None:
    """What no single line shows, added to the event's problems: an end before the start, two
    players with one FIDE ID (nothing of a list or a period is merged for them)."""
    t = event.tournament
    start, end = t.start, t.end
    if start is not None and end is not None and end < start:
        line = next((i for i, x in t.others if x[:3] == "052"), 0)
        where = "the Event sheet, B6" if event.from_workbook else "record 052"
        t.errors.append(TrfError(line, 5 if line else 0, (
            f"{where}: expected the end date on or after the start ({start.isoformat()}), "
            f"got: {end.isoformat()}"
        )))  # fmt: skip
    for fide_id, players in shared_ids(t).items():
        who = " and ".join(f"{p.number} {p.name}" for p in players)
        t.errors.append(TrfError(players[-1].line_no, 58 if players[-1].line_no else 0, (
            f"players {who} have one FIDE ID, {fide_id}: a rating list is applied to neither "
            "and a period takes neither (a typing slip?)"
        )))  # fmt: skip


def shared_ids(t: Tournament) -> dict[str, list[Player]]:
    """The FIDE IDs two or more players of the event have, with the players."""
    seen: dict[str, list[Player]] = {}
    for p in t.players.values():
        fide_id = p.fide_id.strip()
        if fide_id.strip("0- "):  # 0 and ------: no FIDE ID
            seen.setdefault(fide_id, []).append(p)
    return {i: ps for i, ps in seen.items() if len(ps) > 1}
