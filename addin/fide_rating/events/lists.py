"""A rating list applied to an event, one way for every command: FIDE's list (text, XML or zip),
a rating-list workbook (the template's layout) or the next list that ``period`` wrote, looked up
by FIDE ID alike.

:func:`apply_list` says, for each player of the event, the rating the event is rated with (the
list's of the event's rating type; for a rapid or blitz event, a player without such a rating
but with a standard one is rated with it as a new player, R&B 7.2.1), the list's K, and what a
rating-list workbook knows that FIDE's list does not print (rated games so far, 2400 reached);
and which players the list does not have, whose rating in the file is not the list's. Its words
(:meth:`Applied.summary`) are the same in every command. :func:`row_values` is what a crosstable
row takes from the list (``fill``, ``import-trf``, ``recalc --list``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..formats.crosstable import Known, RowValues
from ..formats.fidelist import ListedPlayer
from ..formats.listbook import Listed, PeriodError, read_list
from ..formats.trf import Player, Tournament
from ..rules.editions import RATING_TYPES, Edition, get_edition
from ..rules.errors import FideInputError
from .event import shared_ids

WORKBOOKS = (".xlsx", ".xlsm")
TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
SEVEN_TWO_ONE = "R&B 7.2.1"


class Lookup(Protocol):
    """A rating list by FIDE ID (FIDE's list, a workbook list, a dict)."""

    def get(self, fide_id: int, /) -> ListedPlayer | None: ...


class AnyList(Protocol):
    """What the commands use of a list, whichever kind it is."""

    @property
    def errors(self) -> Sequence[object]: ...
    @property
    def error_count(self) -> int: ...
    @property
    def warnings(self) -> Sequence[object]: ...
    def get(self, fide_id: int, /) -> ListedPlayer | None: ...
    def close(self) -> None: ...
    def __len__(self) -> int: ...
    def __enter__(self) -> AnyList: ...
    def __exit__(self, *exc: object) -> None: ...


class BookList:
    """A rating-list workbook as a list by FIDE ID: its one rating (of the kind its Period
    sheet names: standard unless it says otherwise) in that kind's place, and the facts FIDE's
    list does not print (:meth:`facts`)."""

    def __init__(self, players: dict[str, Listed], kind: str) -> None:
        self.players = {int(i): p for i, p in players.items() if i.isdigit()}
        self.kind = kind
        self.errors: list[object] = []
        self.error_count = 0
        self.warnings: list[object] = []

    def get(self, fide_id: int, /) -> ListedPlayer | None:
        found = self.players.get(int(fide_id))
        return None if found is None else as_listed(found, self.kind)

    def facts(self, fide_id: int) -> Listed | None:
        return self.players.get(int(fide_id))

    def close(self) -> None:
        pass

    def __enter__(self) -> BookList:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self.players)

    def __iter__(self) -> Iterator[ListedPlayer]:
        return (as_listed(p, self.kind) for p in self.players.values())


def as_listed(p: Listed, kind: str) -> ListedPlayer:
    """A workbook list's player as FIDE's list has one: its rating in the place of its kind."""
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


def open_list(
    path: str | Path,
    kind: str | None = "standard",
    progress: Callable[[int, int], None] | None = None,
) -> AnyList:
    """A rating list from a file: FIDE's (``progress(done, total)`` while it is read the first
    time) or a rating-list workbook of ``kind`` (another kind is refused; None: its own)."""
    source = Path(path)
    if source.suffix.lower() in WORKBOOKS:
        try:
            book = read_list(source)
        except PeriodError as error:
            raise FideInputError(
                f"{source}: not a rating list that can be used: {'; '.join(error.problems)}"
            ) from None
        if kind is not None and book.kind != kind:
            raise FideInputError(
                f"{source}: the list holds {book.kind} ratings, and {kind} ones were asked "
                f"for: give --rating-type {book.kind}, or the {kind} list"
            )
        return BookList(book.players, book.kind)
    from ..formats.fidelist import open_list as open_fide_list

    return open_fide_list(source, progress)  # not a list: a FideInputError naming the file


# --- a list applied to an event -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FromList:
    """What the list says of one player of the event."""

    entry: ListedPlayer
    rating: int | None  # the rating the event counts: the list's of the type, or 7.2.1's
    k: int | None  # the list's K of the type (None: computed from the facts)
    known: Known | None  # what K depends on beyond the list's K: a workbook list's, or 7.2.1's
    standard_for_unrated: bool = False  # R&B 7.2.1: no rating of the type, the standard one


@dataclass
class Applied:
    """A list applied to an event: by starting rank, what it says of each player found."""

    kind: str
    players: dict[int, FromList] = field(default_factory=dict)
    missing: list[Player] = field(default_factory=list)  # a FIDE ID the list does not have
    # (player, the file's rating, the rating used): the file says otherwise than the list
    differs: list[tuple[Player, int | None, int | None]] = field(default_factory=list)

    @property
    def found(self) -> int:
        return len(self.players)

    def ratings(self, t: Tournament) -> dict[int, int | None]:
        """The rating each player is rated with: the list's where it has him, else the file's."""
        out = {n: p.rating for n, p in t.players.items()}
        out.update((n, f.rating) for n, f in self.players.items())
        return out

    def changed(self, t: Tournament) -> set[int]:
        """The players rated with another rating than the file's (marked in a report)."""
        return {n for n, f in self.players.items() if f.rating != t.players[n].rating}

    def known(self) -> dict[int, Known]:
        return {n: f.known for n, f in self.players.items() if f.known is not None}

    def summary(self, name: object, t: Tournament) -> list[str]:
        """What the list said of the event's players, in the words every command uses."""
        lines = [
            f"rating list {name} ({self.kind}): {self.found} of {len(t.players)} players found "
            "by FIDE ID; their rating and K are the list's"
        ]
        for n, f in sorted(self.players.items()):
            if f.standard_for_unrated:
                lines.append("  " + seven_two_one_line(t.players[n], f.rating, self.kind))
        lines += ["  " + differs_line(p, mine, theirs) for p, mine, theirs in self.differs]
        lines += ["  " + missing_line(p) for p in self.missing]
        return lines


def differs_line(p: Player, mine: int | None, theirs: int | None) -> str:
    """A player whose rating in the file is not the list's, as every command says it."""
    return (
        f"rating differs: {p.number} {p.name}: {mine or 'unrated'} in the file, "
        f"{theirs or 'unrated'} on the list (the list's is used)"
    )


def seven_two_one_line(p: Player, standard: int | None, kind: str) -> str:
    """A player rated with his standard rating for want of one of ``kind`` (R&B 7.2.1)."""
    return (
        f"no {kind} rating on the list: {p.number} {p.name} is rated with the standard rating "
        f"{standard} as a new {kind} player ({SEVEN_TWO_ONE})"
    )


def missing_line(p: Player) -> str:
    """A player the list does not have, as every command says it."""
    return f"not on the list: {p.number} {p.name} (FIDE ID {p.fide_id}): the file's rating is used"


def fide_number(p: Player) -> int | None:
    """A player's FIDE ID as a number, or None where the file has none (or not a number)."""
    text = p.fide_id.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def from_list(
    entry: ListedPlayer, kind: str, edition: Edition | None, facts: Listed | None = None
) -> FromList:
    """What a list's entry gives a player of an event of ``kind`` rated by ``edition`` (for
    R&B 7.2.1: a rapid or blitz edition that rates a player without such a rating with his
    standard one, as a new player: no games of the type yet)."""
    rating, _, k = entry.of(kind)
    known = None if facts is None else Known(facts.games, facts.reached_2400, facts.k, "the list")
    if (
        rating is None
        and kind != "standard"
        and entry.rating is not None
        and edition is not None
        and edition.standard_rating_for_unrated
    ):
        standard = entry.rating
        seven = Known(0, standard >= 2400, None, f"the standard rating ({SEVEN_TWO_ONE})")
        return FromList(entry, standard, None, seven, True)
    return FromList(entry, rating, k, known)


def apply_list(t: Tournament, listed: Lookup, kind: str, edition: Edition | None) -> Applied:
    """``listed`` applied to the event ``t`` of ``kind`` rated by ``edition``."""
    out = Applied(kind)
    facts_of = getattr(listed, "facts", None)  # a rating-list workbook's facts
    shared = {p.number for ps in shared_ids(t).values() for p in ps}
    for n, p in sorted(t.players.items()):
        number = fide_number(p)
        if number is None or n in shared:  # one FIDE ID for two players: neither (a problem)
            continue
        entry = listed.get(number)
        if entry is None:
            out.missing.append(p)
            continue
        facts = facts_of(number) if facts_of is not None else None
        found = from_list(entry, kind, edition, facts)
        out.players[n] = found
        if found.rating != p.rating and not (found.standard_for_unrated and p.rating is None):
            out.differs.append((p, p.rating, found.rating))  # (7.2.1's are said as such)
    return out


def with_list_ratings(t: Tournament, applied: Applied) -> Tournament:
    """The event with the ratings the list gives its players."""
    lines = [
        x._replace(rating=applied.players[x.number].rating)
        if isinstance(x, Player) and x.number in applied.players
        else x
        for x in t.lines
    ]
    return Tournament(
        lines, t.errors, t.warnings, t.encoding, t.newline, t.given_start, t.final, t.broken
    )


def _title(entry: ListedPlayer) -> str | None:
    for text in (entry.title, entry.women_title):
        if text.upper() in TITLES:
            return text.upper()
    return None


def row_values(found: FromList) -> RowValues:
    """What a crosstable's player row takes from the list: name and title (where the row has
    none), federation, sex, birth year, the rating (Ro), the list's K; from a workbook list the
    rated games so far and 2400 reached; under R&B 7.2.1 the standard rating with 0 games of
    the type, the Ro cell marked with a note saying so."""
    entry = found.entry
    values: dict[str, Any] = {
        "Name": entry.name, "Title": _title(entry), "Fed": entry.federation,
        "Sex": entry.sex or None, "Born": entry.born, "Ro": found.rating, "K list": found.k,
    }  # fmt: skip
    if found.rating is not None and found.rating >= 2400:
        values["2400"] = True
    notes: dict[str, str] = {}
    if found.known is not None:
        values["Games"] = found.known.games_before
        values["2400"] = found.known.reached_2400 or values.get("2400", False)
    if found.standard_for_unrated:
        notes["Ro"] = (
            f"No rating of this type on the list: the standard rating {found.rating}, as a new "
            f"player of the type ({SEVEN_TWO_ONE})"
        )
    return RowValues(values, notes)


def list_values(
    listed: Lookup, kind: str, edition: Edition | None
) -> Callable[[str], RowValues | None]:
    """By a row's FIDE ID text: what the row takes from the list, or None (not on it)."""
    facts_of = getattr(listed, "facts", None)

    def values_of(text: str) -> RowValues | None:
        text = text.strip().removesuffix(".0")
        if not (text.isascii() and text.isdigit()):
            return None
        entry = listed.get(int(text))
        if entry is None:
            return None
        facts = facts_of(int(text)) if facts_of is not None else None
        return row_values(from_list(entry, kind, edition, facts))

    return values_of


def book_rating_type(text: object) -> str:
    """A workbook's rating type (its Event sheet, B8): standard where it names none."""
    found = str(text or "").strip().lower()
    return found if found in RATING_TYPES else "standard"


def edition_of_start(start: object, kind: str) -> Edition | None:
    """The edition of a workbook's start date (a date serial or a date) and rating type."""
    from ..cells.coerce import date_of

    try:
        return get_edition(date_of("start", start), kind)
    except FideInputError:
        return None
