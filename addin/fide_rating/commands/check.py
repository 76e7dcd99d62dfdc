"""``fide-rating check EVENT.trf``: may the event be rated? B.02 sections 0 to 6, per edition.

Each rule gives one finding: it holds, it fails, or it cannot be decided from the file (and
why). The time control comes from record 122 (free text: the usual notations are read), the
round dates from record 132, the dates of the event from 042 and 052.

May import: the file formats, the rules core and the standard library.
"""

from __future__ import annotations

import argparse
import datetime as _dt
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..cells.coerce import edition_arg
from ..formats.trf import PLAYED, Tournament, round_dates, time_control
from ..rules.editions import Edition, get_edition
from ..rules.errors import FideInputError
from ..rules.ratable import (
    TimeControl,
    TimeControlError,
    rating_type_of,
    time_control_problems,
)
from .console import EDITION, Commands, command, list_options, say, shown, start_option

HOLDS, FAILS, UNKNOWN = "holds", "FAILS", "cannot tell"


@dataclass(frozen=True, slots=True)
class Finding:
    clause: str  # "1.1", "3.1", ...
    status: str  # HOLDS, FAILS or UNKNOWN
    text: str

    def __str__(self) -> str:
        return f"{self.status:<11}  {self.clause:<4}  {self.text}"


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


def workbook_rating_type(source: Path) -> str | None:
    """A crosstable workbook's rating type (the Event sheet's, B8), when it names one."""
    if source.suffix.lower() not in (".xlsx", ".xlsm"):
        return None
    from .convert import load_event_cell

    value = str(load_event_cell(source, "B8") or "").strip().lower()
    return value if value in ("standard", "rapid", "blitz") else None


def event_rating_type(
    t: Tournament, given: str | None = None, source: Path | None = None
) -> tuple[str, str]:
    """The event's rating type and why: the one given (``--rating-type``), else a crosstable
    workbook's (``source``: its Event sheet), else what record 222's time control is on the
    start date (:func:`~fide_rating.rules.ratable.rating_type_of`), else standard."""
    if given:
        return given, "given with --rating-type"
    from_book = workbook_rating_type(source) if source is not None else None
    if from_book is not None:
        return from_book, "the workbook's Event sheet"
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


def check(
    t: Tournament, edition: Edition | str | _dt.date | None = None, kind: str | None = None
) -> list[Finding]:
    """Every rule of sections 0 to 6 that the file lets us decide, in the edition of the
    event's start date (or ``edition``), for the rating type ``kind`` (None: the file's, by
    :func:`event_rating_type`)."""
    kind = kind or event_rating_type(t)[0]
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
    from ..rules.ratable import required_minutes

    return str(required_minutes(highest, ed))


# --- the command ----------------------------------------------------------------------------


def register(sub: Commands) -> None:
    p = command(
        sub,
        "check",
        "may the event be rated? B.02 sections 0 to 6",
        "Each rule the file lets us decide: the time control (record 122, the usual notations "
        "read) by the highest rating, the first control, the hours of play a day (round dates, "
        "record 132), the duration, unplayed games and matches; each holds, fails, or cannot "
        "be told from the file (with why). Exit status 1 when a rule fails.",
        ["event.trf", "event.trf --edition 2024-03", "event.xlsx"],
    )
    p.add_argument("event", help="the event: a TRF, or a crosstable workbook")
    p.add_argument(
        "--edition", help=EDITION.replace("(default: newest)", "(default: the event's start date)")
    )
    start_option(p)
    list_options(p, what=" (the highest rating that sets the time a game needs)", from_file=True)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from .convert import from_workbook

    source = Path(args.event)
    if source.suffix.lower() in (".xlsx", ".xlsm"):
        t = from_workbook(source)
    else:
        from .report import read_trf

        t = read_trf(source)
    if args.start:
        t.given_start = args.start
    kind, why = event_rating_type(t, args.rating_type, source)
    if args.list:
        from .lists import open_list
        from .report import check_list, list_summary, with_list_ratings

        listed = open_list(args.list, kind)
        try:
            list_summary(args.list, kind, check_list(t, listed, kind), len(t.players))
            t = with_list_ratings(t, listed, kind)
        finally:
            listed.close()
    ed = edition_arg(args.edition)[0] if args.edition else None
    if ed is None and t.start is None:
        raise FideInputError(
            f"{shown(source)}: the event's start date is missing (record 042): give it with "
            "--start, or the edition with --edition"
        )
    findings = check(t, ed, kind)
    used = ed or edition_arg(t.start)[0]
    say(f"{shown(t.name or source.name)}: may it be rated? (B.02 {used.name}, {used.source})")
    say(f"  rating type: {kind} ({why})")
    for finding in findings:
        say(f"  {finding}")
    failed = sum(f.status == FAILS for f in findings)
    say(f"{failed} rule(s) fail" if failed else "no rule fails")
    return 1 if failed else 0
