"""A time control, and the notations arbiters, organisers and pairing programs write it in.

TRF record 122, the Event sheet's cell and FIDE_RATABLE take the time control as free text.
:meth:`TimeControl.parse` reads the notations found in real TRF files and FIDE's own documents
(the time controls of FIDE's world events, FIDE Handbook C.02 article 12: ``90'/40+30'/end with
incr. 30"/move, starting from move 1``), pairing programs (``90'/40+30'+30"``, Swar's ``120
min/40 moves + 15 min. with incr. 30" starting from 40th move``), US Chess (``40/90, SD/30;d5``,
``G/60+5``) and tournament announcements in several languages (``90 Minuten/40 Züge + 30
Minuten + 30 Sekunden/Zug``). A notation with one meaning is read; one with two (``40/2``: two
hours or two minutes) is refused with both readings; nothing is guessed. Every pattern here
runs in time linear in the text, which is at most :data:`LONGEST` characters.

The conventions, each the only reading in use:

* minutes and moves either way round: ``40/90``, ``90/40``, ``90'/40``, ``40/90'``, ``90 min
  for 40 moves``, ``40 moves in 90 minutes``. Of two bare numbers the smaller is the moves
  (every first control gives more minutes than moves); one below 10 is a time, and below 3
  it could be hours (US Chess writes ``40/2, SD/1``): refused with both readings.
* a bare number is minutes where a period may begin (``90+30``: the 90), seconds a move after
  the last period (the 30); between a period of moves and another period it is that period's
  increment (US Chess: ``40/90 +30 SD/30 +30``).
* an increment applies from move 1 (``90'/40+30'+30"``), unless it says from which move (the
  move a period begins with), or it follows a period other than the last: then from that
  period on.
* a delay (``d5``, ``5 s delay``, Bronstein) counts as an increment does for the time a
  player has: FIDE's rapid and blitz definitions of 2012 count "the time allotted + 60 times
  any increment or delay".

May import: :mod:`.errors` and the standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import FideInputError

Minutes = Fraction

LONGEST = 200  # characters: the longest notation written out in words is about 150
MOST_MINUTES = 600  # a period of more is minutes mistaken for seconds (record 222 writes 5400)
MOST_SECONDS = 600  # an increment or a delay, in seconds
MOST_MOVES = 200


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control: its periods (moves, or None for the rest of the game; minutes) and the
    increment in seconds a move from move 1, or ``increments``: the seconds a move of each
    period (TRF-2026 record 222 gives one per period, ``40/6000+30:900+30``); ``delay``: the
    seconds a move the clock waits before it counts down (a Bronstein or US delay)."""

    periods: tuple[tuple[int | None, Minutes], ...]
    increment: Fraction = Fraction(0)
    increments: tuple[Fraction, ...] = ()
    delay: Fraction = Fraction(0)

    @classmethod
    def from_seconds(cls, periods: Sequence[tuple[int | None, int, int]]) -> TimeControl:
        """From periods of (moves or None, seconds, seconds a move), as record 222 writes them:
        one increment from move 1 when every period has the same."""
        minutes = tuple((moves, Fraction(seconds, 60)) for moves, seconds, _ in periods)
        increments = tuple(Fraction(inc) for _, _, inc in periods)
        if len(set(increments)) <= 1:
            return cls(minutes, increments[0] if increments else Fraction(0))
        return cls(minutes, Fraction(0), increments)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A time control from the notations in use (module docstring); :class:`TimeControlError`
        says why a text cannot be read, or gives both readings of one that has two."""
        return _read(text)

    @property
    def first_control_moves(self) -> int | None:
        """The moves of the first control; None when the first period is the whole game."""
        return self.periods[0][0] if self.periods else None

    def minutes_for(self, moves: int = 60) -> Minutes:
        """A player's time for a game of ``moves`` moves (B.02 1.1 counts 60): every period that
        begins by that move, and the increment (or delay) of every move up to it."""
        total = Fraction(0)
        start = 1
        for i, (period_moves, minutes) in enumerate(self.periods):
            if start > moves:
                break
            total += minutes
            if self.increments:
                last = moves if period_moves is None else min(moves, start + period_moves - 1)
                total += self.increments[i] * (last - start + 1) / 60
            if period_moves is None:
                break
            start += period_moves
        return total + (self.increment + self.delay) * moves / 60

    def __str__(self) -> str:
        parts = []
        for i, (n, m) in enumerate(self.periods):
            part = f"{_num(m)} min" if n is None else f"{n} moves in {_num(m)} min"
            if self.increments and self.increments[i]:
                part += f" ({_num(self.increments[i])} s a move)"
            parts.append(part)
        if self.increment:
            parts.append(f"{_num(self.increment)} s a move")
        if self.delay:
            parts.append(f"{_num(self.delay)} s delay a move")
        return " + ".join(parts)


class TimeControlError(FideInputError):
    """A time control that cannot be read, or reads two ways; ``reason`` says which, without
    the text (which the message ends with)."""

    def __init__(self, reason: str, text: str) -> None:
        shown = text if len(text) <= 60 else text[:57] + "..."
        super().__init__(f"{reason}: {shown!r}")
        self.reason = reason


def parse_time_control(text: str) -> TimeControl | None:
    """A time control from the notations in use, or None when the text cannot be read (or
    reads two ways: :meth:`TimeControl.parse` says why): ``90'+30"``, ``90+30``, ``90'/40+30'
    +30"``, ``90 min/40 moves + 30 min + 30 s/move``, ``G/90;+30``, ``40/120, 20/60, G/30``,
    ``40/120, 60``, ``2h``, ``120 min``, ``G/60 d5``."""
    try:
        return _read(text)
    except TimeControlError:
        return None


# --- the words ----------------------------------------------------------------------------------

# What each word of a notation is, in the languages arbiters and organisers write in (lower case,
# without the full stop of an abbreviation). A word that is none of these makes a text
# unreadable: nothing is guessed.
_KINDS = {
    "minute": "min mins minute minutes minuten minuut minuto minutos minuti minut minuty minutes "
    "mn m perc perces dk dakika мин минут минута минуты",
    "hour": "h hr hrs hour hours std stunde stunden heure heures hora horas ora ore uur godz "
    "godzina godziny óra saat час часа часов ч",
    "second": "s sec secs second seconds sek sekunde sekunden seg segs segundo segundos secondo "
    "secondi seconde secondes seconden sekund sekundy mp másodperc sn saniye сек секунд "
    "секунда секунды",
    "move": "move moves mv mvs zug züge zuege zügen zuegen z coup coups cp cps jugada jugadas "
    "movimiento movimientos mossa mosse lance lances zet zetten ruch ruchów ruchy lépés "
    "lépésre hamle ход хода ходов",
    # the rest of the game (a time after one is that period's): G/90, SD/30, 30'/end, 15 min QPF
    "rest": "g sd game rest end finish remainder qpf ko k sudden death all reste resto fin "
    "partie partida partita spiel ende schluss einde",
    "increment": "inc incr increment increments incremento incrementos inkrement bonus "
    "bonification bonificación gutschrift zeitgutschrift added",
    "delay": "d delay bronstein verzögerung",
    "from": "from starting since ab dès à partir desde dalla dal vanaf od",
    "after": "after nach après después dopo po",
    "first": "first one erste ersten erstem premier première primera primer primero prima primo "
    "eerste pierwszego первого start beginning anfang début inicio",
    "ordinal": "st nd rd th er re ème eme º ª te ste",  # 1st, 1er, 1º
    "player": "player players spieler joueur joueurs jugador jugadores giocatore speler gracza "
    "игрока",
    # in, for, per, a: between a time and moves (90 min for 40 moves), or before move (30 s a
    # move)
    "connect": "in en im w в for für fuer pour para per pro je par por na на a an each every "
    "jede jeden chaque cada ogni elke",
    "separator": "and plus then followed by with und dann mit et puis avec y luego con e poi "
    "daarna met i oraz и затем потом",
    "noise": "the of der die das dem den des le la les de du del el los las il lo di della "
    "het time control cadence bedenkzeit zeit ritmo tempo rate play standard classical "
    "rapid blitz o fischer total",
}
_WORDS = {word: kind for kind, words in _KINDS.items() for word in words.split()}
_MARKS = {"'": "minute", '"': "second", "/": "slash", "+": "separator", ",": "separator",
          ";": "separator", "&": "separator", "(": "noise", ")": "noise", "[": "noise",
          "]": "noise", ".": "noise", "-": "separator"}  # fmt: skip
_TYPOGRAPHIC = str.maketrans({"’": "'", "‘": "'", "′": "'", "´": "'", "`": "'", "″": '"',
                              "“": '"', "”": '"', "„": '"'})  # fmt: skip
# one token a match: a number, a word (letters of any script), blanks, or one other character;
# no pattern repeats another, so the scan is linear in the text
_TOKEN = re.compile(r"([0-9]+(?:\.[0-9]+)?)|([^\W\d_]+)|(\s+)|(.)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "number", a kind of _KINDS, "slash"
    text: str
    value: Fraction = Fraction(0)


def _tokens(text: str, raw: str) -> list[_Token]:
    out: list[_Token] = []
    for match in _TOKEN.finditer(text):
        number, word, _, other = match.groups()
        if other == "," and out and out[-1].kind == "number" and text[match.end() :][:1].isdigit():
            after = text[match.end() :].split(maxsplit=1)[0].rstrip(",;+")
            shown = f"{out[-1].text},{after}"
            raise TimeControlError(
                f"{shown!r} reads two ways: the decimal {shown.replace(',', '.')}, or "
                f"{out[-1].text} then {after}; write {shown.replace(',', '.')} or "
                f"{out[-1].text}, {after}", raw)  # fmt: skip
        if number:
            if len(number) > 9:
                raise TimeControlError(f"expected a number of minutes, moves or seconds, got "
                                       f"one of {len(number)} digits", raw)  # fmt: skip
            out.append(_Token("number", number, Fraction(number)))
        elif word:
            kind = _WORDS.get(word)
            if kind is None:
                raise TimeControlError(f"cannot read {word!r} in a time control", raw)
            out.append(_Token(kind, word))
        elif other:
            kind = _MARKS.get(other)
            if kind is None:
                raise TimeControlError(f"cannot read {other!r} in a time control", raw)
            out.append(_Token(kind, other))
    return [t for t in out if t.kind != "noise"]


# --- the reading ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Quantity:
    """A number with what it counts: "minutes" (a unit was written), "seconds", "moves", or
    "bare" (no unit: minutes or seconds by where it stands)."""

    kind: str
    value: Fraction
    text: str


@dataclass(frozen=True, slots=True)
class _Item:
    """A piece of the notation: a "period" (moves or None, minutes), a "bare" number, an
    "increment" or a "delay" (seconds), "from" (a move); ``joined``: a separator (+ , ;) or
    a word such as "and" stood before it."""

    kind: str
    value: Fraction = Fraction(0)
    moves: int | None = None
    text: str = ""
    joined: bool = True


def _hours(x: Fraction) -> str:
    return f"{_num(x)} hour{'' if x == 1 else 's'}"


def _minutes(x: Fraction) -> str:
    return f"{_num(x)} minute{'' if x == 1 else 's'}"


class _Reader:
    """The tokens of one text, read left to right into items."""

    def __init__(self, tokens: list[_Token], raw: str) -> None:
        self.tokens = tokens
        self.raw = raw
        self.at = 0

    def fail(self, reason: str) -> TimeControlError:
        return TimeControlError(reason, self.raw)

    def kind(self, offset: int = 0) -> str:
        at = self.at + offset
        return self.tokens[at].kind if at < len(self.tokens) else ""

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def skip(self, *kinds: str) -> None:
        while self.kind() in kinds:
            self.at += 1

    def quantity(self) -> _Quantity:
        """A number and its unit: 90, 90', 90 min, 1h30, 1 h 30 min, 30", 30 s, 40 moves."""
        token = self.take()
        value, text = token.value, token.text
        kind = self.kind()
        if kind == "hour":
            self.at += 1
            text += " h"
            minutes = value * 60
            # 1h30, 1 h 30 min: the minutes with the hours (not 2h 30s)
            if self.kind() == "number" and self.kind(1) in ("minute", "separator", ""):
                extra = self.take()
                minutes += extra.value
                text += f" {extra.text}"
                self.skip("minute")
            return _Quantity("minutes", minutes, text)
        if kind in ("minute", "second"):
            self.at += 1
            return _Quantity(f"{kind}s", value, text)
        self.skip("ordinal")  # the 40th move
        if self.kind() == "move":
            self.at += 1
            return _Quantity("moves", value, text)
        return _Quantity("bare", value, text)

    def items(self) -> list[_Item]:
        out: list[_Item] = []
        joined = True
        while self.at < len(self.tokens):
            kind = self.kind()
            if kind == "separator":
                self.at += 1
                joined = True
                continue
            found = self.item(kind)
            if found is not None:
                out.append(_Item(found.kind, found.value, found.moves, found.text, joined))
                joined = False
        return out

    def item(self, kind: str) -> _Item | None:
        if kind == "number":
            return self.after(self.quantity())
        if kind == "rest":  # G/90, SD/30, sudden death 30, all the moves in 2 hours
            self.at += 1
            self.skip("rest", "slash", "connect", "move")
            if self.kind() == "number":
                q = self.quantity()
                if q.kind in ("minutes", "bare"):
                    return _Item("period", self.minutes(q), None, q.text)
                return self.after(q)
            return None  # "the rest of the game" after its time: said already
        if kind == "increment":  # inc 30, incr. 30", increment of 30 seconds
            self.at += 1
            self.skip("connect", "slash")
            if self.kind() != "number":
                return None  # "30 s increment": the seconds came first
            q = self.quantity()
            if q.kind not in ("seconds", "bare"):
                raise self.fail(f"expected the seconds of an increment, got {q.text}")
            self.per_move()
            return _Item("increment", q.value, None, q.text)
        if kind == "delay":  # d5, d/5, delay 5 s, Bronstein 5
            self.at += 1
            self.skip("slash", "connect")
            if self.kind() != "number":
                raise self.fail("expected the seconds of a delay (d5)")
            q = self.quantity()
            if q.kind not in ("seconds", "bare"):
                raise self.fail(f"expected the seconds of a delay, got {q.text}")
            self.per_move()
            return _Item("delay", q.value, None, q.text)
        if kind in ("from", "after"):
            return self.from_move()
        if kind in ("connect", "player", "first", "ordinal"):  # "90 min each", "8 min/player"
            self.at += 1
            return None
        if kind == "slash" and self.kind(1) == "player":
            self.at += 2
            return None
        token = self.tokens[self.at]
        raise self.fail(f"cannot read {token.text!r} here in a time control")

    def per_move(self) -> bool:
        """A "per move" after seconds: /move, per move, a move, pro Zug, par coup."""
        if self.kind() in ("slash", "connect") and self.kind(1) == "move":
            self.at += 2
            return True
        return False

    def after(self, q: _Quantity) -> _Item | None:
        """What a quantity is, by what follows it."""
        per_move = self.kind() in ("slash", "connect") and self.kind(1) == "move"
        if q.kind == "seconds" or (q.kind == "bare" and per_move):  # 30", 30 s/move, 30/move
            self.per_move()
            if self.kind() == "delay":  # 5 s delay
                self.at += 1
                return _Item("delay", q.value, None, q.text)
            self.skip("increment")  # 30 s increment, 30 sec bonus
            return _Item("increment", q.value, None, q.text)
        if q.kind == "bare" and self.kind() == "delay":
            self.at += 1
            return _Item("delay", q.value, None, q.text)
        if q.kind in ("minutes", "bare", "moves") and self.kind() in ("slash", "connect"):
            back = self.at
            self.at += 1
            self.skip("first")  # 90 minutes for the first 40 moves
            if self.kind() == "number":
                return self.pair(q, self.quantity())
            if self.kind() == "rest" and q.kind != "moves":  # 30'/end, 30 min for the rest
                self.skip("rest")
                return _Item("period", self.minutes(q), None, q.text)
            if self.kind() == "player":  # 8 min/player
                self.at += 1
                return self.after(q) if q.kind != "moves" else None
            self.at = back
        if q.kind == "moves":
            raise self.fail(f"expected the time for {q.text} moves")
        if q.kind == "minutes":
            self.skip("rest")  # 15 min QPF, 30 min rest
            return _Item("period", self.minutes(q), None, q.text)
        return _Item("bare", q.value, None, q.text)

    def pair(self, left: _Quantity, right: _Quantity) -> _Item:
        """Moves and their time, written either way round: 40/90, 90/40, 90'/40, 40/90', 90 min
        for 40 moves, 40 moves in 90 minutes."""
        text = f"{left.text}/{right.text}"
        kinds = (left.kind, right.kind)
        if "seconds" in kinds or kinds in (("minutes", "minutes"), ("moves", "moves")):
            raise self.fail(f"expected moves and their minutes in {text!r}")
        if left.kind == "moves" or right.kind == "minutes":
            moves, time = left, right
        elif right.kind == "moves" or left.kind == "minutes":
            moves, time = right, left
        else:  # two bare numbers: the smaller is the moves, unless it is below 10
            small, big = sorted((left, right), key=lambda q: q.value)
            if small.value.denominator != 1 or small.value < 10:
                moves, time = big, small
            else:
                moves, time = small, big
        if moves.value.denominator != 1 or not 1 <= moves.value <= MOST_MOVES:
            raise self.fail(f"expected a number of moves from 1 to {MOST_MOVES} in {text!r}")
        count = int(moves.value)
        if time.kind == "bare" and time.value < 3:
            t = time.value
            raise self.fail(
                f"{text!r} reads two ways: {count} moves in {_hours(t)} (as US Chess writes "
                f"hours) or in {_minutes(t)}; write {count}/{_num(t)}h or {count}/{_num(t)}'"
            )
        return _Item("period", self.minutes(time), count, text)

    def minutes(self, q: _Quantity) -> Fraction:
        """A period's minutes, from a quantity with a unit or a bare number."""
        if q.kind == "bare" and q.value < 3:
            raise self.fail(
                f"{q.text!r} reads two ways: {_hours(q.value)} (as US Chess writes G/1 and "
                f"SD/1) or {_minutes(q.value)}; write {_num(q.value)}h or {_num(q.value)}'"
            )
        if q.kind == "bare" and q.value > MOST_MINUTES:
            n, sixtieth = _num(q.value), _num(q.value / 60)
            raise self.fail(
                f"{q.text!r} reads two ways: {n} minutes ({sixtieth} hours, more than a period "
                f"has) or {n} seconds ({sixtieth} minutes, as record 222 writes them); write "
                f"{sixtieth}'"
            )
        if not 0 < q.value <= MOST_MINUTES:
            raise self.fail(
                f"expected a period of more than 0 and at most {MOST_MINUTES} minutes, got {q.text}"
            )
        return q.value

    def from_move(self) -> _Item:
        """from move 1, starting from the first move, from 41st move, after move 40, ab dem
        ersten Zug, à partir du 1er coup: the move an increment starts with."""
        after = self.take().kind == "after"
        move: Fraction | None = None
        first = False
        while self.kind() in ("from", "connect", "move", "first", "ordinal", "number"):
            token = self.take()
            if token.kind == "number":
                if move is not None:
                    self.at -= 1
                    break
                move = token.value
            first = first or token.kind == "first"
        if move is None and first:
            move = Fraction(1)
        if move is None or move.denominator != 1 or not 1 <= move <= MOST_MOVES:
            raise self.fail("expected the move an increment starts from (from move 1)")
        return _Item("from", move + 1 if after else move, None, _num(move))


def _read(text: str) -> TimeControl:
    raw = text
    if len(text) > LONGEST:
        raise TimeControlError(
            f"expected a time control of at most {LONGEST} characters, got {len(text):,}", raw
        )
    items = _Reader(_tokens(text.lower().translate(_TYPOGRAPHIC).replace("''", '"'), raw),
                    raw).items()  # fmt: skip
    return _assemble(items, raw)


def _assemble(items: list[_Item], raw: str) -> TimeControl:
    """Periods, increments and delay from the items, by the conventions of the module."""
    periods: list[tuple[int | None, Fraction]] = []
    written: dict[int, Fraction] = {}  # increment: by the period it follows
    from_move: Fraction | None = None
    delay: Fraction | None = None
    previous: _Item | None = None
    for at, given in enumerate(items):
        item = given
        if item.kind == "bare":
            if at and items[at - 1].kind == "bare" and not item.joined:
                raise TimeControlError(
                    f"expected + between {items[at - 1].text} and {item.text} (minutes, then "
                    "seconds a move)", raw)  # fmt: skip
            later = next((i.kind for i in items[at + 1 :] if i.kind != "from"), None)
            if not periods or (periods[-1][0] is not None and later != "period"):
                item = _Item("period", _Reader([], raw).minutes(_Quantity("bare", item.value,
                             item.text)), None, item.text)  # fmt: skip
            else:
                item = _Item("increment", item.value, None, item.text)
        if item.kind == "period":
            if periods and periods[-1][0] is None:
                raise TimeControlError(
                    f"expected no period after the rest of the game, got {item.text}", raw
                )
            periods.append((item.moves, item.value))
        elif item.kind == "increment":
            if not periods:
                raise TimeControlError(f"expected a time before the increment {item.text}", raw)
            if len(periods) - 1 in written:
                raise TimeControlError(
                    f"expected one increment, got {_num(written[len(periods) - 1])} s and "
                    f"{item.text}", raw)  # fmt: skip
            if not 0 <= item.value <= MOST_SECONDS:
                raise TimeControlError(
                    f"expected an increment of 0 to {MOST_SECONDS} seconds, got {item.text}", raw
                )
            written[len(periods) - 1] = item.value
        elif item.kind == "delay":
            if delay is not None and delay != item.value:
                raise TimeControlError("expected one delay for every period", raw)
            if not 0 <= item.value <= MOST_SECONDS:
                raise TimeControlError(
                    f"expected a delay of 0 to {MOST_SECONDS} seconds, got {item.text}", raw
                )
            delay = item.value
        elif item.kind == "from":
            if previous is None or previous.kind not in ("increment", "bare"):
                raise TimeControlError(f"expected an increment before 'from move {item.text}'", raw)
            from_move = item.value
        previous = item
    if not periods:
        raise TimeControlError("expected a time control such as 90+30 or 40/90, 30+30", raw)
    return TimeControl(*_increments(periods, written, from_move, raw),
                       delay=delay or Fraction(0))  # fmt: skip


def _increments(
    periods: list[tuple[int | None, Fraction]],
    written: dict[int, Fraction],
    from_move: Fraction | None,
    raw: str,
) -> tuple[tuple[tuple[int | None, Fraction], ...], Fraction, tuple[Fraction, ...]]:
    """The increment of each period: from move 1 when one is written after the last period
    (or says from move 1); from the period it follows otherwise; from the period that begins
    with the move it names."""
    every = tuple(periods)
    if not written:
        return every, Fraction(0), ()
    starts = [1]
    for moves, _ in periods[:-1]:
        starts.append(starts[-1] + (moves or 0))
    each: list[Fraction] = [Fraction(0)] * len(periods)
    if from_move is not None:
        if len(written) > 1:
            raise TimeControlError("expected one increment with 'from move'", raw)
        (value,) = written.values()
        move = int(from_move)
        if move == 1:
            each = [value] * len(periods)
        elif move in starts:
            first = starts.index(move)
            each = [Fraction(0)] * first + [value] * (len(periods) - first)
        elif move + 1 in starts:
            raise TimeControlError(
                f"an increment from move {move} reads two ways: from move {move + 1}, where "
                f"period {starts.index(move + 1) + 1} begins, or from move {move}, the last "
                f"of period {starts.index(move + 1)}; write from move {move + 1}", raw)  # fmt: skip
        else:
            begins = ", ".join(map(str, starts))
            raise TimeControlError(
                f"expected an increment from a move a period begins with ({begins}), got "
                f"from move {move}", raw)  # fmt: skip
    elif list(written) == [len(periods) - 1]:
        each = [written[len(periods) - 1]] * len(periods)  # 90'/40+30'+30": from move 1
    else:
        running = Fraction(0)
        for i in range(len(periods)):
            running = written.get(i, running)
            each[i] = running
    if len(set(each)) == 1:
        return every, each[0], ()
    return every, Fraction(0), tuple(each)
