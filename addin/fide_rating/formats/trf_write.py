"""A TRF written in FIDE's format of today (TRF-2026) or, on request, TRF-16: what each adds
to or leaves out of an event's lines. The lines of the file an event was read from stay as
they were unless the format asks otherwise (:func:`.trf.write` writes them)."""

from __future__ import annotations

from fractions import Fraction

from ..rules.ratable import TimeControl, TimeControlError, parse_time_control
from .trf import Player, Tournament, time_control
from .trf_check import bye_rounds, with_byes
from .trf_records import NATIONAL, RECORDS, TRF26_ONLY, encode_time_control

FORMATS = ("trf26", "trf16")


def _insert(lines: list[str | Player], record: str) -> None:
    """A header record in its place: before the first header record with a higher code, or
    the first player record."""
    code = record[:3]
    for i, x in enumerate(lines):
        if isinstance(x, Player) or (x[:3].isdigit() and x[:3] > code and x[2:3] == "2"):
            lines.insert(i, record)
            return
    lines.append(record)


def encoded(tc: TimeControl) -> str | None:
    """Record 222's text of a time control; None when a figure is no whole number of
    seconds, or the control has a delay (record 222 writes none)."""
    if tc.delay:
        return None
    increments = tc.increments or tuple(tc.increment for _ in tc.periods)
    periods = [(moves, minutes, increments[i]) for i, (moves, minutes) in enumerate(tc.periods)]
    if tc.increments and not all(isinstance(x, Fraction) for x in increments):
        return None
    return encode_time_control(periods)


def as_trf26(t: Tournament) -> tuple[Tournament, list[str]]:
    """The event as TRF-2026: the number of rounds (142) and the encoded time control (222,
    from record 122 where its text can be read) where the file has none, and the dates
    (042, 052) in TRF-2026's form YYYY/MM/DD; what was changed, said."""
    lines = list(t.lines)
    done = []
    if t.header("142") is None and t.rounds:
        _insert(lines, f"142 {t.rounds}")
        done.append(f"142 {t.rounds} (the number of rounds)")
    text = t.header("122")
    if t.header("222") is None and text:
        tc = parse_time_control(text)
        code = encoded(tc) if tc is not None else None
        if code is not None:
            _insert(lines, f"222 {code}")
            done.append(f"222 {code} (the time control {text.strip()!r}, encoded)")
    for tag, reading in zip(("042", "052"), t.dates(), strict=True):
        if reading is not None and reading.day is not None and reading.form != "YYYY/MM/DD":
            at = next(i for i, x in enumerate(lines) if isinstance(x, str) and x[:3] == tag)
            old = lines[at]
            lines[at] = f"{tag} {reading.day:%Y/%m/%d}"
            done.append(f"{lines[at]} (was {str(old)[4:].strip()!r})")
    out = Tournament(lines, [], [], t.encoding, t.newline, t.given_start, t.final)
    return out, done


def no_time_control(t: Tournament) -> str | None:
    """Why :func:`as_trf26` could not add record 222 from record 122, or None (it could, or
    there was nothing to add)."""
    text = t.header("122")
    if t.header("222") is not None or not text:
        return None
    try:
        tc = TimeControl.parse(text)
    except TimeControlError as error:
        return f"record 222 not added: record 122 {text.strip()!r} cannot be read ({error.reason})"
    if encoded(tc) is None:
        return (
            f"record 222 not added: record 122 {text.strip()!r} has what record 222 cannot write "
            "(a delay, or a fraction of a second)"
        )
    return None


def as_trf16(t: Tournament) -> tuple[Tournament, list[str]]:
    """The event as TRF-16: TRF-2026's own records (142 ... 802, ``###`` comments, national
    rating records) left out, the byes of record 240 written in the player records; what was
    left out, said."""
    extra = bye_rounds(t)
    lines: list[str | Player] = []
    left: dict[str, int] = {}
    for x in t.lines:
        if isinstance(x, Player):
            lines.append(x._replace(rounds=with_byes(x, extra[x.number]))
                         if x.number in extra else x)  # fmt: skip
            continue
        code = x[:3]
        national = NATIONAL.match(x) is not None and code not in RECORDS
        if code in TRF26_ONLY or code == "###" or national:
            key = "national rating records" if national else code
            left[key] = left.get(key, 0) + 1
            continue
        lines.append(x)
    notes = [f"{code} x{n}" if n > 1 else code for code, n in left.items()]
    if extra:
        notes.append(f"the byes of record 240 written in {len(extra)} player record(s)")
    if time_control(t) is not None:
        notes.append("the time control is in record 122 only (TRF-16 has no 222)")
    out = Tournament(lines, [], [], t.encoding, t.newline, t.given_start, t.final)
    return out, notes
