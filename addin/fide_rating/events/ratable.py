"""May the event be rated? B.02 sections 0 to 6, per edition and rating type.

Each rule gives one finding: it holds, it fails, or it cannot be decided from the event (and
why). The time control comes from TRF-2026 record 222, else record 122 (free text: the usual
notations are read), the round dates from record 132, the dates of the event from 042 and 052.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..formats.trf import PLAYED, Tournament, round_dates
from ..rules.editions import Edition, get_edition
from ..rules.ratable import rating_type_of, required_minutes, time_control_problems
from .event import event_time_control, rating_type

HOLDS, FAILS, UNKNOWN = "holds", "FAILS", "cannot tell"


@dataclass(frozen=True, slots=True)
class Finding:
    clause: str  # "1.1", "3.1", ...
    status: str  # HOLDS, FAILS or UNKNOWN
    text: str

    def __str__(self) -> str:
        return f"{self.status:<11}  {self.clause:<4}  {self.text}"


def _highest(t: Tournament, ed: Edition) -> int:
    """The highest rating that sets the minimum time: of the tournament (2005-07, 2012-07),
    else the higher rating of the two players of the highest-rated game (before any game is
    played: the highest rating of all, the strictest pairing possible)."""
    players = t.players
    everyone = max((p.rating or 0 for p in players.values()), default=0)
    if ed.time_scope == "tournament":
        return everyone
    best = -1
    for p in players.values():
        for r in p.rounds:
            other = players.get(r.opponent) if r.opponent is not None else None
            if other is not None and r.result in PLAYED:
                best = max(best, p.rating or 0, other.rating or 0)
    return everyone if best < 0 else best  # no game yet: the strictest pairing possible


def _rounds_a_day(dates: list[_dt.date | None], ed: Edition, kind: str) -> Finding:
    """R&B 3.1: at most 15 rapid or 30 blitz rounds a day (the hours-a-day limit is standard's)."""
    most = ed.max_rounds_a_day
    if most is None:
        return Finding("3.1", UNKNOWN, f"rounds a day: edition {ed.name} sets no limit here")
    if not dates or any(d is None for d in dates):
        why = "no round dates (record 132)" if not dates else "a round date cannot be read"
        return Finding("3.1", UNKNOWN, f"rounds a day: {why} (at most {most} {kind} rounds)")
    day, rounds = max(Counter(dates).items(), key=lambda x: (x[1], x[0]))
    if rounds > most:
        return Finding("3.1", FAILS, f"{rounds} {kind} rounds on {day}, at most {most} a day")
    return Finding("3.1", HOLDS, f"at most {rounds} {kind} round(s) a day ({day}), {most} allowed")


# where a crosstable workbook keeps what a TRF's records say
WORKBOOK_PLACES = {
    "records 042, 052": "the Event sheet, B5 and B6",
    "record 042": "the Event sheet, B5",
    "record 052": "the Event sheet, B6",
    "record 122": "the Event sheet's time control (B12)",
    "record 132": "a workbook keeps no round dates",
}


def in_workbook_words(text: str) -> str:
    """A finding's text as a crosstable workbook's user reads it: its sheet and cell for each
    TRF record."""
    for record, place in WORKBOOK_PLACES.items():
        text = text.replace(record, place)
    return text


def check(
    t: Tournament, edition: Edition | str | _dt.date | None = None, kind: str | None = None
) -> list[Finding]:
    """Every rule of sections 0 to 6 that the file lets us decide, in the edition of the
    event's start date (or ``edition``), for the rating type ``kind`` (None: the file's, by
    :func:`event_rating_type`)."""
    kind = kind or rating_type(t)[0]
    if isinstance(edition, Edition) and edition.rating_type != kind:
        edition = edition.name
    ed = get_edition(edition if edition is not None else t.start, kind)
    out: list[Finding] = []
    # 0.2 registration
    out.append(
        Finding(
            "0.2",
            UNKNOWN,
            "registration: the file does not say when the event was registered with "
            "the federation (in time before its start)",
        )
    )
    # 1.1 and 1.2: the time control
    tc, _, where = event_time_control(t)
    highest = _highest(t, ed)
    if tc is None:
        out.append(Finding("1.1", UNKNOWN, f"time control: cannot read {where}" if where
                           else "time control: the file has none (record 222 or 122)"))  # fmt: skip
    elif kind != "standard":
        found = rating_type_of(tc, t.start)
        if found.kind == kind:
            out.append(Finding("1.1", HOLDS, f"time control {where}: {found.why}; B.02's "
                                             "minimum times are for standard games"))  # fmt: skip
        else:
            out.append(Finding("1.1", FAILS, f"time control {where}: {found.why}, not "
                                             f"{kind}"))  # fmt: skip
    else:
        problems = time_control_problems(tc, highest, ed)
        if problems:
            out += [Finding("1.1", FAILS, f"time control {where}: {p}") for p in problems]
        else:
            out.append(
                Finding(
                    "1.1",
                    HOLDS,
                    f"time control {where}: {_num(tc.minutes_for())} "
                    f"min for 60 moves, {_need(highest, ed)} needed",
                )
            )
    # 3.1: playing time a day
    dates = round_dates(t)
    if kind != "standard":
        out.append(_rounds_a_day(dates, ed, kind))
    elif tc is None or not dates or any(d is None for d in dates):
        why = (
            "no time control to count with"
            if tc is None
            else ("no round dates (record 132)" if not dates else "a round date cannot be read")
        )
        out.append(Finding("3.1", UNKNOWN, f"hours of play a day: {why}"))
    else:
        per_day = Counter(dates)
        game_hours = 2 * tc.minutes_for(60) / 60  # both clocks, a game of 60 moves
        worst_day, rounds = max(per_day.items(), key=lambda x: (x[1], x[0]))
        hours = rounds * game_hours
        if hours > ed.max_hours_a_day:
            out.append(
                Finding(
                    "3.1",
                    FAILS,
                    f"{_num(hours)} hours of play on {worst_day} "
                    f"({rounds} rounds), at most {ed.max_hours_a_day}",
                )
            )
        elif ed.max_rounds_a_day is not None and rounds > ed.max_rounds_a_day:
            out.append(
                Finding(
                    "3.1",
                    FAILS,
                    f"{rounds} rounds on {worst_day}, at most {ed.max_rounds_a_day} a day",
                )
            )
        else:
            out.append(
                Finding(
                    "3.1",
                    HOLDS,
                    f"at most {_num(hours)} hours of play a day ({rounds} round(s) on {worst_day})",
                )
            )
    # 4.1: the duration
    if t.start is None or t.end is None:
        out.append(
            Finding(
                "4.1", UNKNOWN, "duration: the file lacks the start or end date (records 042, 052)"
            )
        )
    else:
        days = (t.end - t.start).days + 1
        if ed.max_days is not None and days > ed.max_days:
            out.append(
                Finding(
                    "4.1",
                    FAILS,
                    f"lasts {days} days, more than {ed.max_days}: "
                    "only with the Qualification Commission's leave (or a league)",
                )
            )
        elif ed.monthly_report_after_days is not None and days > ed.monthly_report_after_days:
            out.append(Finding("4.1", HOLDS, f"lasts {days} days: report it every month"))
        else:
            out.append(Finding("4.1", HOLDS, f"lasts {days} day(s)"))
    # 5: unplayed games are not rated
    unplayed = sum(
        1
        for p in t.players.values()
        for r in p.rounds
        if r.opponent is not None and r.result not in PLAYED and r.result != " "
    )
    out.append(
        Finding(
            "5.1",
            HOLDS,
            f"{unplayed // 2} forfeited game(s) are not rated" if unplayed else "no forfeited game",
        )
    )
    # 6: matches
    if len(t.players) == 2:
        out += _match(t, ed)
    return out


def _match(t: Tournament, ed: Edition) -> list[Finding]:
    a, b = sorted(t.players.values(), key=lambda p: p.number)
    found = []
    if ed.initial_method.name == "FICTITIOUS_DRAWS" and (a.rating is None or b.rating is None):
        found.append(Finding("6.1", FAILS, "a match with an unrated player is not rated"))
    games = len(a.rounds)
    score = Fraction(0)
    other = Fraction(0)
    for k, r in enumerate(a.rounds, start=1):
        got = PLAYED.get(r.result)
        if got is None:
            continue
        score += Fraction(got)
        other += 1 - Fraction(got)
        if (score > Fraction(games, 2) or other > Fraction(games, 2)) and k < games:
            found.append(
                Finding(
                    "6.2",
                    FAILS,
                    f"the match was decided in game {k} of {games}: "
                    f"games {k + 1} to {games} are not rated",
                )
            )
            break
    else:
        found.append(Finding("6.2", HOLDS, "no game after the match was decided"))
    return found


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _need(highest: int, ed: Edition) -> str:
    return str(required_minutes(highest, ed))
