"""A TRF's whole-file checks: opponents that exist and reciprocate, points that add up (by
TRF-2026 record 162's scoring and 240's byes), 240 byes that contradict a player record, the
header dates, national rating records of no player. :func:`.trf.parse` runs them.
"""

from __future__ import annotations

import datetime as _dt
import functools
from collections.abc import Iterable
from fractions import Fraction
from itertools import compress, repeat, zip_longest
from math import gcd as _gcd
from operator import attrgetter, itemgetter, ne

from .trf_model import (
    OPPOSITE,
    PLAYED,
    Player,
    Round,
    Tournament,
    TrfError,
    scoring_key,
    scoring_of,
)
from .trf_records import BYE_TYPES, NATIONAL, RECORDS, RecordError, read_byes

_DATES = {"042": "start date", "052": "end date"}


EARLIEST = _dt.date(1970, 1, 1)  # FIDE's first rating list: an earlier date is a mistake


def check_dates(t: Tournament, today: _dt.date | None = None) -> None:
    """The header dates (042 start, 052 end) that are there must be dates; where the text
    allows several, the reading chosen is said (a warning); a date after today or before 1970
    is most likely a mistake (it chooses the edition of the rules)."""
    found = t.dates()
    today = today or _dt.date.today()
    for (tag, what), reading in zip(_DATES.items(), found, strict=True):
        if reading is None:
            continue
        no = next(i for i, x in t.others if x[:3] == tag)
        text = (t.header(tag) or "").strip()
        name = f"record {tag} ({what})"
        day = reading.day
        if day is None:
            t.errors.append(TrfError(no, 5, f"{name}: expected a date such as 2025/02/28, "
                                            f"got {text!r}"))  # fmt: skip
            continue
        if reading.others and reading.why.startswith("the likeliest"):
            other = " or ".join(f"{d.isoformat()} ({form})" for d, form in reading.others)
            then = "give --start if it is" if tag == "042" else "it counts for the duration"
            t.warnings.append(TrfError(no, 5, (
                f"{name}: {text!r} read as {day.isoformat()} ({reading.form}, {reading.why}); "
                f"it could also be {other}: {then}"
            )))  # fmt: skip
        if day > today:
            t.warnings.append(TrfError(no, 5, f"{name}: {day.isoformat()} is after today "
                                              f"({today.isoformat()}): is it right?"))  # fmt: skip
        elif day < EARLIEST:
            t.warnings.append(TrfError(
                no, 5, f"{name}: {day.isoformat()} is before FIDE's first rating list (1970): "
                       "is it right?"))  # fmt: skip


def _last_round_played(players: Iterable[Player]) -> int:
    """The last round with a result in any player record (a later round is still to come)."""
    last = 0
    for p in players:
        rounds = p.rounds
        k = len(rounds)
        while k > last and rounds[k - 1].result == " " and rounds[k - 1].opponent is None:
            k -= 1
        last = max(last, k)
    return last


def bye_rounds(t: Tournament, errors: list[TrfError] | None = None) -> dict[int, dict[int, str]]:
    """The byes of record 240 that the player records do not show (a blank round, or one
    beyond the record's last), by player and round, for the points and the crosstable. A 240
    that contradicts a player record is a problem (added to ``errors``); one for a round not
    played yet counts for nothing yet."""
    given: dict[int, dict[int, str]] = {}
    line_of: dict[tuple[int, int], int] = {}
    if not t.team_event:
        for no, x in t.others:
            if x[:3] == "240":
                try:
                    found = read_byes(x)
                except RecordError:
                    continue  # reported by the reader
                for n in found.ids:
                    given.setdefault(n, {})[found.round] = found.code
                    line_of.setdefault((n, found.round), no)
    if not given:
        return {}
    players = t.players
    last = _last_round_played(players.values())
    out: dict[int, dict[int, str]] = {}
    for n, by_round in sorted(given.items()):
        for k, code in sorted(by_round.items()):
            no = line_of[(n, k)]
            p = players.get(n)
            what = f"record 240 (byes): a {BYE_TYPES[code]} in round {k} for player {n}"
            if p is None:
                if errors is not None:
                    errors.append(TrfError(no, 0, f"{what}, who has no player record (001)"))
                continue
            r = p.rounds[k - 1] if k <= len(p.rounds) else Round(None, "-", " ")
            if r.opponent is not None:
                if errors is not None:
                    errors.append(TrfError(no, 0, (
                        f"{what} ({p.name or 'no name'}), whose record (line {p.line_no}) has a "
                        f"game against {r.opponent} in that round"
                    )))  # fmt: skip
            elif r.result in (" ", "-") and k <= last:
                out.setdefault(n, {})[k] = code
            elif (
                r.result != code
                and not (code == "Z" and r.result in "Z- ")
                and errors is not None
                and k <= last
            ):
                errors.append(TrfError(no, 0, (
                        f"{what} ({p.name or 'no name'}), whose record (line {p.line_no}) has "
                        f"{r.result!r} in that round"
                    )))  # fmt: skip
    return out


def with_byes(p: Player, extra: dict[int, str]) -> tuple[Round, ...]:
    """A player's rounds with the byes of record 240 that the record does not show."""
    if not extra:
        return p.rounds
    rounds = list(p.rounds)
    for k, code in sorted(extra.items()):
        while len(rounds) < k:
            rounds.append(Round(None, "-", " "))
        rounds[k - 1] = Round(None, "-", code)
    return tuple(rounds)


def _declared_rounds(t: Tournament) -> int | None:
    """The number of rounds the file declares (XXR, or TRF-2026's 142), if it does."""
    declared = t.header("XXR") or t.header("142")
    if declared and declared.strip().isdigit() and int(declared.strip()) > 0:
        return int(declared.strip())
    return None


def _rounds_tag(t: Tournament) -> str:
    return "record XXR" if t.header("XXR") else "record 142"


def check(t: Tournament) -> None:
    """Whole-file checks: duplicate numbers, opponents that do not exist or do not
    reciprocate, points that do not add up (by record 162's scoring and 240's byes where the
    file has them; not in a team event, where a player's points are informative, nor with
    record 299's abnormal points), 240 byes that contradict a player record, national rating
    records of no player."""
    players = t.players
    if len(players) != len(t.lines) - len(t.others):  # a starting rank used twice
        seen: set[int] = set()
        for p in (x for x in t.lines if isinstance(x, Player)):
            if p.number in seen:
                t.errors.append(TrfError(p.line_no, 5, f"starting rank {p.number} is used twice"))
            seen.add(p.number)
    errors = t.errors
    declared = _declared_rounds(t)
    if declared is not None:
        for p in players.values():
            if len(p.rounds) <= declared:
                continue
            played = [k for k, r in enumerate(p.rounds, start=1) if r.opponent is not None
                      or r.result.strip()]  # fmt: skip
            if played and played[-1] > declared:
                errors.append(TrfError(p.line_no, 92 + 10 * declared, (
                    f"player {p.number} ({p.name}): results for round "
                    f"{declared + 1}{'' if played[-1] == declared + 1 else f' to {played[-1]}'}, "
                    f"but the file declares {declared} rounds ({_rounds_tag(t)})"
                )))  # fmt: skip
    plist = list(players.values())
    points = not t.team_event and not t.records("299")
    unit, units = _units(scoring_key(t))
    totals: list[int] = []  # each player's results in units (a small file's loop counts them)
    for i, k in _unusual_rounds(plist, units if points else None, totals):
        p = plist[i]
        opp = p.rounds[k - 1].opponent
        other = players.get(opp) if opp is not None else None
        if p.misread or (other is not None and other.misread):
            continue  # the misread line is the problem (said once); its rounds mean nothing
        why = _round_problem(errors, p, k, other, p.number)
        if why is not None and p.rounds[k - 1].result in PLAYED:
            # the game counts for neither player: both rows say why
            t.broken[(p.number, k)] = why
            if other is not None:
                t.broken.setdefault((other.number, k), (
                    f"round {k}: player {p.number}'s record has a game against him, his own "
                    f"does not agree (line {p.line_no}, line {other.line_no}): it counts for "
                    "neither"
                ))  # fmt: skip
    extra = bye_rounds(t, errors)
    if points:
        if any(p.misread for p in plist):  # the misread line is the problem (said once)
            keep = [i for i, p in enumerate(plist) if not p.misread]
            plist = [plist[i] for i in keep]
            totals = [totals[i] for i in keep] if totals else totals
        _check_points(plist, extra, unit, units, totals, errors)
    _check_national(t, players)


_EMPTY = Round(None, " ", " ")
# the colour and result an opponent's record must show; "?" where any may do (checked one by
# one: a forfeit written with colour -, a round paired and not yet played)
_BACK_COLOUR = {"w": "b", "b": "w"}
_BACK_RESULT = {**OPPOSITE, "-": "+"}
_first, _second, _third = itemgetter(0), itemgetter(1), itemgetter(2)
_rounds_of = attrgetter("rounds")


COLUMNS_FROM = 40_000  # rounds in a file from which the whole columns are faster (measured)


def _unusual_rounds(
    plist: list[Player], units: dict[str, int] | None = None, totals: list[int] | None = None
) -> list[tuple[int, int]]:
    """(index in ``plist``, round) of every round with an opponent that is not the usual one
    (the opponent lists the player back in that round, with the opposite result and colour):
    :func:`_round_problem` says what, if anything, is wrong. A Python loop a game in a small
    file (which adds each player's results by ``units`` to ``totals`` on the way); round by
    round on whole columns in a large one (:func:`_unusual_by_columns`)."""
    if sum(map(len, map(_rounds_of, plist))) >= COLUMNS_FROM:
        return _unusual_by_columns(plist)
    where = {p.number: p for p in plist}
    get, opposite, back_colour = where.get, OPPOSITE.get, _BACK_COLOUR.get
    worth = (units or {}).get
    out = []
    for i, p in enumerate(plist):
        me = p.number
        k = total = 0
        for opp, colour, result in p.rounds:
            k += 1
            total += worth(result, 0)
            if opp is None:
                continue
            other = get(opp)
            if other is not None and opp != me:
                theirs = other.rounds
                if len(theirs) >= k:
                    back = theirs[k - 1]
                    if (
                        back[0] == me
                        and back[2] == opposite(result, back[2])
                        and back_colour(colour, back[1]) == back[1]
                    ):
                        continue  # the usual round: reciprocal, results and colours agree
            out.append((i, k))
        if totals is not None and units is not None:
            totals.append(total)
    return out


# what an opponent's record shows in a round, from a player's record: colours swapped, results
# mirrored; a blank for what has no mirror (a bye, an absence, a colour -), which is what the
# record of no opponent shows (a blank beyond the last player)
_MIRROR_COLOURS = str.maketrans({"w": "b", "b": "w", "-": " "})
_MIRROR_RESULTS = str.maketrans({"1": "0", "0": "1", "+": "-", "-": "+", "W": "L", "L": "W",
                                 "H": " ", "F": " ", "U": " ", "Z": " "})  # fmt: skip


def _unusual_by_columns(plist: list[Player]) -> list[tuple[int, int]]:
    """:func:`_unusual_rounds` round by round, in C (map, zip, whole columns compared) rather
    than a Python loop a game: 9,999 players play 75,000 games; each round record is read once
    (a column of 9,999 of them is no processor cache's), and only the places where a column
    differs from its mirror are looked at one by one."""
    n = len(plist)
    numbers = [p.number for p in plist]
    where = dict(zip(numbers, range(n), strict=True))
    everyone = range(n)
    back_colour = _BACK_COLOUR.get
    outside = repeat(n)
    out: list[tuple[int, int]] = []
    for k, column in enumerate(zip_longest(*map(_rounds_of, plist), fillvalue=_EMPTY),
                               start=1):  # fmt: skip
        opponents, colours, results = zip(*column, strict=True)
        at = list(map(where.get, opponents, outside))  # the opponent's place; n: none
        ext = [*at, -1]  # and no opponent's opponent
        own_colours, own_results = "".join(colours), "".join(results)
        back_colours = "".join(map((own_colours + " ").__getitem__, at))
        back_results = "".join(map((own_results + " ").__getitem__, at))
        mirror_colours = own_colours.translate(_MIRROR_COLOURS)
        mirror_results = own_results.translate(_MIRROR_RESULTS)
        unpaired = at.count(n)
        # every player without an opponent differs from the opponent's opponent, no one else;
        # and no opponent is unknown
        if (
            unpaired == opponents.count(None)
            and sum(map(ne, map(ext.__getitem__, at), everyone)) == unpaired
            and back_colours == mirror_colours
            and back_results == mirror_results
        ):
            continue
        places = set(compress(everyone, map(ne, back_colours, mirror_colours)))
        places.update(compress(everyone, map(ne, back_results, mirror_results)))
        places.update(compress(everyone, map(ne, map(ext.__getitem__, at), everyone)))
        for i in sorted(places):
            mine = column[i]
            back = column[at[i]] if at[i] < n else _EMPTY
            if mine[0] is not None and (
                back[0] != numbers[i]
                or back_colour(mine[1], back[1]) != back[1]
                or _BACK_RESULT.get(mine[2], back[2]) != back[2]
                or mine[0] == numbers[i]
            ):
                out.append((i, k))
    return sorted(out)


def _check_points(
    plist: list[Player],
    extra: dict[int, dict[int, str]],
    unit: int,
    units: dict[str, int],
    totals: list[int],
    errors: list[TrfError],
) -> None:
    """Each player's points (columns 81-84) are what the results give, by the file's scoring
    in whole ``units`` of a ``unit``-th of a point, the byes of record 240 (``extra``) counted;
    ``totals``: the results already added up (one a player, or none)."""
    get = units.get
    zero = repeat(0)
    target: dict[int, int | None] = {}  # the units of each points value (one object a text)
    for i, p in enumerate(plist):
        points = p.points
        if points is None:
            continue
        want = target.get(id(points), -1)
        if want == -1:
            scaled = points * unit
            want = target[id(points)] = scaled.numerator if scaled.denominator == 1 else None
        if p.number in extra:
            total = sum(map(get, map(_third, with_byes(p, extra[p.number])), zero))
        else:
            total = totals[i] if totals else sum(map(get, map(_third, p.rounds), zero))
        if total != want:
            errors.append(TrfError(p.line_no, 81, (
                f"points {float(points):g} do not add up: the results give "
                f"{float(Fraction(total, unit)):g}"
            )))  # fmt: skip


@functools.lru_cache(maxsize=64)
def _units(record: str | None) -> tuple[int, dict[str, int]]:
    """The scoring of a file (:func:`.trf_model.scoring_key`; None: the defaults) in whole
    units of its smallest
    fraction: (the units of a point, of each result code)."""
    values = scoring_of(record)
    unit = 1
    for _, v in values:
        unit = unit * v.denominator // _gcd(unit, v.denominator)
    return unit, {code: int(v * unit) for code, v in values}


def _check_national(t: Tournament, players: dict[int, Player]) -> None:
    """A national rating record (TRF-2026) links to a player record by starting rank."""
    for no, x in t.others:
        if x[:1].isupper() and x[:3] not in RECORDS and NATIONAL.match(x):
            n = int(x[4:8])  # NATIONAL: four columns of blanks then digits
            if n not in players:
                t.warnings.append(TrfError(no, 5, (
                    f"national rating record {x[:3]}: starting rank {n} has no player record "
                    "(001)"
                )))  # fmt: skip


def _round_problem(
    errors: list[TrfError], p: Player, k: int, other: Player | None, me: int
) -> str | None:
    """Say what is wrong with round ``k`` of ``p`` (found by :func:`check`'s quick test); why
    its game cannot count (a colour that disagrees does not stop it), or None."""
    opp, colour, result = p.rounds[k - 1]
    col = 82 + 10 * k  # round k's opponent column
    if other is None:
        why = f"round {k}: opponent {opp} does not exist"
        errors.append(TrfError(p.line_no, col, why))
        return f"{why}: the game does not count"
    if opp == me:
        why = f"round {k}: plays against themself"
        errors.append(TrfError(p.line_no, col, why))
        return f"{why}: the game does not count"
    theirs = other.rounds
    back = theirs[k - 1] if len(theirs) >= k else None
    if back is None or back[0] != me:
        why = f"round {k}: opponent {opp} does not list {me} as their opponent"
        errors.append(TrfError(p.line_no, col, why))
        return f"{why} (line {p.line_no}, line {other.line_no}): the game counts for neither"
    found = None
    want = OPPOSITE.get(result)
    if result == "-" and back[2] == "-":
        want = "-"  # a double forfeit: neither player came, both lose
    if want is not None and back[2] != want:
        why = f"round {k}: result {result} against {opp}, who has {back[2]}"
        errors.append(TrfError(p.line_no, col + 7, why))
        found = f"{why} (line {p.line_no}, line {other.line_no}): the game counts for neither"
    if colour in ("w", "b") and back[1] != {"w": "b", "b": "w"}[colour]:
        errors.append(
            TrfError(
                p.line_no, col + 5, f"round {k}: colour {colour}, and the opponent has {back[1]!r}"
            )
        )
    return found
