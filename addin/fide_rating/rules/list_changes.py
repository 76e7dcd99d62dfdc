"""The whole list as FIDE changes it: a rating on the next list after the period's own change.

FIDE made two changes once to every rating of a list, with or without games in the period (the
records :data:`.editions.LIST_CHANGES`): the raise of the rapid and blitz lists of 1 October 2022
to the standard rating - 100, and the adjustment of 1 March 2024 (0.6 x R + 800 below 2000) on
all three lists. Then the new list's floor applies: a rating below it is not published.
"""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple

from .editions import ListRule, edition_on, list_changes_between
from .expected import RATING_MAX, Rating, check_rating
from .performance import adjust_2024, raise_2022


class ListEntry(NamedTuple):
    """A rating on the next list, and what the list-wide changes and the floor did to it."""

    rating: int | None  # None: unrated on the next list
    notes: tuple[str, ...]


def list_change(
    rating: Rating | None,
    kind: str,
    list_date: _dt.date,
    next_date: _dt.date,
    new_standard: Rating | None = None,
) -> ListEntry:
    """The rating a player of the ``kind`` list of ``list_date`` has on the list of
    ``next_date``, given ``rating``: his rating after the period's own change (the listed one for
    a player without games, a first rating for a new one, None for an unrated player).

    Applies, oldest first, every list-wide change the period crosses (the raise of 1 October 2022
    reads ``new_standard``, the player's standard rating on the list of ``next_date``), then the
    floor of the list of ``next_date`` (B.02 2024-03 7.2.1: below it, unrated). Each change that
    moved the rating, and the floor, leave a note.
    """
    return ListChanger(kind, list_date, next_date)(rating, new_standard)


class ListChanger:
    """:func:`list_change` for every player of one period: what the period crosses, and the
    next list's floor, found once."""

    __slots__ = ("changes", "floor", "next_date")

    def __init__(self, kind: str, list_date: _dt.date, next_date: _dt.date) -> None:
        self.changes = list_changes_between(kind, list_date, next_date)
        self.floor = edition_on(next_date, kind).floor_on(next_date)
        self.next_date = next_date

    def __call__(self, rating: Rating | None, new_standard: Rating | None = None) -> ListEntry:
        if (
            rating is not None
            and not self.changes
            and (type(rating) is int and self.floor <= rating <= RATING_MAX)
        ):
            return ListEntry(rating, ())  # the usual case: nothing to do
        value = None if rating is None else check_rating(rating)
        standard = None if new_standard is None else check_rating(new_standard)
        notes: list[str] = []
        for change in self.changes:
            if value is None:
                continue  # an unrated player stays unrated
            if change.rule is ListRule.COMPRESS_BELOW_2000:
                moved = adjust_2024(value)
            else:
                moved = raise_2022(value, standard)
            if moved != value:
                notes.append(
                    f"{change.name} of the list of {change.on.isoformat()}: {value} -> {moved}"
                )
                value = moved
        if value is not None and value < self.floor:
            notes.append(
                f"below the floor {self.floor} of the list of {self.next_date.isoformat()}: unrated"
            )
            value = None
        return ListEntry(value, tuple(notes))
