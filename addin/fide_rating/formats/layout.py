"""The layout of the workbooks that fide-rating writes and reads back.

The templates (:mod:`.templates`) write it; ``export-trf`` (:mod:`.convert`) and the rating
period (:mod:`.period`) read it. Kept apart so that the readers need not import the writer.

May import: the standard library only.
"""

from __future__ import annotations

HEADER_ROW = 4
FIRST = HEADER_ROW + 1
EDITION = "Event!$B$7"
START = "Event!$B$5"
RATING_TYPE = "Event!$B$8"  # standard, rapid or blitz
TIME_CONTROL = "Event!$B$12"  # as announced: the TRF's record 122
RR_METHOD = "Event!$B$14"  # round robins: TRUE where the edition has the round-robin method

# the player table: (header, width, note)
COLUMNS: list[tuple[str, int, str]] = [
    ("No", 5, "Starting number"),
    ("FIDE ID", 11, "FIDE ID from the rating list"),
    ("Name", 26, "Surname, first name"),
    ("Title", 6, "GM, IM, FM, CM, WGM, WIM, WFM, WCM"),
    ("Fed", 5, "Federation (three letters)"),
    ("Born", 6, "Birth year (or birth date)"),
    ("Sex", 4, "M or F"),
    ("Ro", 7, "Rating at the start of the event; blank if unrated"),
    ("Games", 7, "Rated games before the event (from the list); blank counts as 30 or more"),
    ("2400", 6, "TRUE if a published rating ever reached 2400"),
    ("K list", 6, "K from the rating list; blank: computed with FIDE_K"),
    ("K", 5, "K used: the list's, or FIDE_K with this event's games for K x n <= 700"),
    ("Pts", 6, "Tournament points (forfeits and byes included)"),
    ("Played", 7, "Games played over the board"),
    ("n", 4, "Rated games: against rated opponents"),
    (
        "Rc/Ra",
        8,
        "Rc (a rated player): the opponents' mean rating in the rated games, as the "
        "350/400-point rule counts them. Ra (an unrated player): the base of the first "
        "rating; from 2024-03 it counts two fictitious opponents rated 1800 (their two draws "
        "count in Ra and the first rating, not in n and W: those are the games played)",
    ),
    ("W", 6, "Points in the rated games"),
    ("We", 7, "Expected score"),
    ("W-We", 7, "W - We"),
    ("K*chg", 8, "K x (W - We), not rounded"),
    (
        "Rp",
        7,
        "Performance rating; empty for a score of 0 % or 100 % in edition 2005-07, "
        "whose table leaves dp undefined there (10.1)",
    ),
    ("Initial", 10, "Initial rating of an unrated player, or why there is none"),
    ("New", 7, "Rating after this event alone (Ro + rounded K*chg), or the initial rating"),
]
_RR_ONLY = " (editions 2005-07 to 2014-07, with unrated players; empty in later editions)"
RR_EXTRA: list[tuple[str, int, str]] = [
    ("Rc 1st", 8, "Round-robin method: Rc before the correction (unrated players)" + _RR_ONLY),
    ("Ru 1st", 8, "Round-robin method: Ru before the correction (unrated players)" + _RR_ONLY),
    ("Ru", 8, "Round-robin method: Ru after the correction (unrated players)" + _RR_ONLY),
    ("Rating used", 9, "The rating the crosstable counts: Ro, or Ru for an unrated player by "
     "the round-robin method (2005-07 to 2014-07); later games against unrated players are "
     "not rated"),
]  # fmt: skip
LIST_COLUMNS = ("FIDE ID", "Name", "Fed", "Sex", "Born", "Title", "Rating", "K", "Games",
                "Reached 2400", "Active", "Last game")  # fmt: skip
PENDING_COLUMNS = ("FIDE ID", "Event", "Start", "Opponent rating", "Result")
TRF_SHEET = "TRF"  # the hidden sheet with the original TRF lines
