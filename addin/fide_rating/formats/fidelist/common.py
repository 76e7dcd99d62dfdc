"""What the readers of FIDE's list and its index share: the player, the problems, the limits,
and what reading a list gathers for the index (:class:`Gathered`).

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...rules.errors import FideInputError

WIDTH = 162  # a text line's width in the published list
RECORD = WIDTH + 2  # bytes a player in the index: the text list's line (Latin-1) and CRLF
MAX_ERRORS = 1000  # problems kept (and reported) for one list
# limits far above any real list's, so that a hostile or broken file is refused at once instead
# of being read for minutes into ever more memory
MAX_LINE = 1000  # bytes a text line (FIDE's have 162)
MAX_PLAYER = 1 << 14  # bytes from one </player> to the next (FIDE's take about 600)
MAX_UNPACKED = 1 << 32  # bytes the list inside a zip unpacks to (FIDE's XML: about 1 GB)

Progress = Callable[[int, int], None]  # bytes of the list read so far, and in all
Read = Callable[[int], None]  # the same, the bytes read so far only


class ListFileError(FideInputError):
    """A file that is not a FIDE rating list at all, or a damaged zip (the message says why;
    from :func:`open_list`, with the file's name in front)."""


@dataclass(frozen=True, slots=True)
class ListError:
    line: int  # 1-based; for XML the player's number in the file
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    """One player of FIDE's list; a rating of None is no rating of that kind."""

    fide_id: int
    name: str
    federation: str
    sex: str  # "M" or "F"
    title: str  # GM, IM, WGM, ...
    women_title: str
    other_titles: str
    rating: int | None  # standard
    games: int  # standard games in the last period
    k: int | None
    rapid: int | None
    rapid_games: int
    rapid_k: int | None
    blitz: int | None
    blitz_games: int
    blitz_k: int | None
    born: int | None  # the birth year
    flag: str  # "i" inactive, "w" woman, "wi" both

    @property
    def inactive(self) -> bool:
        return "i" in self.flag

    def of(self, kind: str) -> tuple[int | None, int, int | None]:
        """Rating, games and K of one kind: ``standard``, ``rapid`` or ``blitz``."""
        if kind == "rapid":
            return self.rapid, self.rapid_games, self.rapid_k
        if kind == "blitz":
            return self.blitz, self.blitz_games, self.blitz_k
        return self.rating, self.games, self.k


def digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (``str.isdigit`` takes ``²`` too, which ``int``
    refuses)."""
    return text.isascii() and text.isdigit()


MAX_DIGITS = 10  # digits a number or FIDE ID may have (FIDE IDs have 9 at most)


def number(text: str) -> int | None:
    """A number field: None when blank, -1 when not ASCII digits (or more than any number of
    the list has: ``int`` refuses 5,000 of them)."""
    text = text.strip()
    return int(text) if digits(text) and len(text) <= MAX_DIGITS else None if not text else -1


def note(errors: list[ListError], line: int, message: str) -> None:
    """A problem kept, up to :data:`MAX_ERRORS` of them."""
    if len(errors) < MAX_ERRORS:
        errors.append(ListError(line, message))


class Gathered:
    """What reading a list gathers for its index: the records as read (in batches, written
    one after the other) and a key a player (the FIDE ID above the record's position). Keys
    come sorted a batch at a time (by the workers, while the list is read on), so the last
    sort only merges runs."""

    def __init__(self, on_records: Callable[[bytes | bytearray], None] | None = None) -> None:
        self.records: list[bytes | bytearray] = []
        self.keys: list[int] = []
        self.count = 0
        self.on_records = on_records  # told of each batch of records (to sign them)

    def add(self, ids: Sequence[int], records: bytes | bytearray) -> None:
        """A batch of players: their FIDE IDs and records, in the order read."""
        self.add_keyed(batch_keys(ids), records)

    def add_keyed(self, keys: Sequence[int], records: bytes | bytearray) -> None:
        """A batch as :func:`batch_keys` gives it, and its records as read. The keys are made
        anew in their sorted order (the position above the batch's added): the last sort
        goes through memory in order, a third faster than over keys made in the list's."""
        base = self.count
        self.keys.extend([key + base for key in keys] if base else keys)
        self.records.append(records)
        self.count += len(keys)
        if self.on_records is not None and records:
            self.on_records(records)


def batch_keys(ids: Sequence[int]) -> list[int]:
    """A batch's keys, sorted: each FIDE ID above its position in the batch."""
    return sorted([fide_id << 32 | i for i, fide_id in enumerate(ids)])
