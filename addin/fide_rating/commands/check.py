"""``fide-rating check EVENT.trf``: may the event be rated? B.02 sections 0 to 6, per edition.

Each rule gives one finding: it holds, it fails, or it cannot be decided from the file (and
why). The time control comes from record 122 (free text: the usual notations are read), the
round dates from record 132, the dates of the event from 042 and 052.

May import: the file formats, the rules core and the standard library.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..cells.coerce import edition_arg
from ..formats.trf import PLAYED, Tournament
from ..rules.editions import Edition, get_edition
from ..rules.errors import FideInputError
from ..rules.ratable import parse_time_control, time_control_problems
from .console import EDITION, Commands, command, list_options, problems, say, shown

HOLDS, FAILS, UNKNOWN = "holds", "FAILS", "cannot tell"


@dataclass(frozen=True, slots=True)
class Finding:
    clause: str  # "1.1", "3.1", ...
    status: str  # HOLDS, FAILS or UNKNOWN
    text: str

    def __str__(self) -> str:
        return f"{self.status:<11}  {self.clause:<4}  {self.text}"


_ROUND_DATE = re.compile(r"(\d{2}|\d{4})[./-](\d{1,2})[./-](\d{1,2})")


def round_dates(t: Tournament) -> list[_dt.date | None]:
    """The dates of the rounds (record 132: one date a round, YY/MM/DD, from column 92)."""
    record = next((x for x in t.lines if isinstance(x, str) and x[:3] == "132"), None)
    if record is None:
        return []
    out: list[_dt.date | None] = []
    for m in _ROUND_DATE.finditer(record[91:] if len(record) > 91 else record[4:]):
        year = int(m.group(1))
        year += 2000 if year < 100 else 0
        try:
            out.append(_dt.date(year, int(m.group(2)), int(m.group(3))))
        except ValueError:
            out.append(None)
    return out


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


def check(t: Tournament, edition: Edition | str | _dt.date | None = None) -> list[Finding]:
    """Every rule of sections 0 to 6 that the file lets us decide, in the edition of the
    event's start date (or ``edition``)."""
    ed = get_edition(edition if edition is not None else t.start)
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
    text = t.header("122")
    tc = parse_time_control(text) if text else None
    highest = _highest(t, ed)
    if not text:
        out.append(Finding("1.1", UNKNOWN, "time control: the file has none (record 122)"))
    elif tc is None:
        out.append(Finding("1.1", UNKNOWN, f"time control: cannot read {text!r}"))
    else:
        problems = time_control_problems(tc, highest, ed)
        if problems:
            out += [Finding("1.1", FAILS, f"time control {text!r}: {p}") for p in problems]
        else:
            out.append(
                Finding(
                    "1.1",
                    HOLDS,
                    f"time control {text!r}: {_num(tc.minutes_for())} "
                    f"min for 60 moves, {_need(highest, ed)} needed",
                )
            )
    # 3.1: playing time a day
    dates = round_dates(t)
    if tc is None or not dates or any(d is None for d in dates):
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
    list_options(p, what=" (the highest rating that sets the time a game needs)")
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from .convert import from_workbook

    source = Path(args.event)
    if source.suffix.lower() in (".xlsx", ".xlsm"):
        t = from_workbook(source)
    else:
        from ..formats.trf import read

        t = read(source)
        problems(args.event, t.errors)
        problems(args.event, t.warnings, kind="warning")
        if not t.players:
            raise FideInputError(
                f"expected player records (001) in the TRF, got: none ({shown(source)})"
            )
    if args.list:
        from .lists import open_list
        from .report import check_list, list_summary, with_list_ratings

        listed = open_list(args.list, args.rating_type)
        try:
            list_summary(args.list, args.rating_type, check_list(t, listed, args.rating_type),
                         len(t.players))  # fmt: skip
            t = with_list_ratings(t, listed, args.rating_type)
        finally:
            listed.close()
    ed = edition_arg(args.edition)[0] if args.edition else None
    if ed is None and t.start is None:
        raise FideInputError(
            f"{shown(source)}: the event's start date is missing (record 042): give the "
            "edition with --edition"
        )
    findings = check(t, ed)
    used = ed or edition_arg(t.start)[0]
    say(f"{shown(t.name or source.name)}: may it be rated? (B.02 {used.name}, {used.source})")
    for finding in findings:
        say(f"  {finding}")
    failed = sum(f.status == FAILS for f in findings)
    say(f"{failed} rule(s) fail" if failed else "no rule fails")
    return 1 if failed else 0
