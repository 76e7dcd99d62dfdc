"""Excel's number formats, as the TEXT function applies them.

A format has up to four sections separated by ``;``: positive, negative, zero, text. One
section serves every number (a negative one gets a ``-`` in front); two: zero and positive,
then negative (shown without its sign); three: positive, negative, zero. The last section is
the text section when it holds ``@`` (or is the fourth).

In a number section:

* ``0`` ``#`` ``?`` are digits (``0`` shows a zero where there is no digit, ``?`` a space,
  ``#`` nothing); the first placeholder of the integer part takes every digit left over.
* The first ``.`` is the decimal point; a later one is a literal, and the placeholders after it
  are still decimals. A ``,`` between integer placeholders groups thousands; a ``,`` after the
  last integer placeholder divides by 1,000; after a literal, it is a literal.
* ``%`` multiplies by 100 and shows; ``E+`` ``E-`` give the scientific form.
* ``"text"``, ``\\c``, and other characters are shown as written; ``_c`` is a space; ``*c``
  (fill) shows nothing; ``[Red]``-style colours are dropped; ``[$€-407]`` shows ``€``.
* Dates and times: ``y`` ``m`` ``d`` ``h`` ``s`` (``m`` after ``h`` or before ``s`` is
  minutes), ``AM/PM`` ``A/P``, elapsed ``[h]`` ``[m]`` ``[s]``, ``.0`` to ``.000`` after seconds;
  a time is rounded to the shown fraction of a second, then cut.

* Fractions: ``# ?/?`` (a whole part and the nearest fraction with that many digits below),
  ``?/?``, ``# ?/8`` (a fixed denominator); conditions: ``[<=9999999]###-####;(###) ###-####``.

What this module does not do it reports (:class:`Unsupported`): a negative number with
conditions, non-Gregorian calendars.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.dates` and the standard library.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from ..formula.coerce import DATE_OFFSET, LAST
from ..formula.values import VALUE, Unsupported, XlError
from .dates import weekday0, ymd

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip
_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")

# one token: its kind and its text. Kinds: lit (shown as is), 0 # ? (digits), . , % E @,
# date (y m d h s, AM/PM), elapsed ([h] [m] [s]), general
_TOKEN = re.compile(
    r'"(?P<quoted>[^"]*)"?|\\(?P<escaped>.)|_(?P<space>.)|\*(?P<fill>.)'
    r"|\[(?P<bracket>[^\]]*)\]|(?P<general>(?i:general))|(?P<ampm>AM/PM|am/pm|A/P|a/p)"
    r"|(?P<exp>[Ee][+-])|(?P<date>[yY]+|[mM]+|[dD]+|[hH]+|[sS]+)|(?P<digit>[0#?])"
    r"|(?P<other>.)",
    re.S,
)
_COLORS = frozenset(("black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"))
_UNSUPPORTED_LETTERS = frozenset("eEgGbB")  # eras and Buddhist years


@dataclass
class _Section:
    tokens: list[tuple[str, str]] = field(default_factory=list)

    def has(self, *kinds: str) -> bool:
        return any(kind in kinds for kind, _ in self.tokens)


def _sections(code: str) -> list[_Section] | XlError:
    sections = [_Section()]
    for m in _TOKEN.finditer(code):
        kind = m.lastgroup or "other"
        text = m.group(kind)
        if kind in {"quoted", "escaped"}:
            sections[-1].tokens.append(("lit", text))
        elif kind == "space":
            sections[-1].tokens.append(("lit", " "))
        elif kind == "fill":
            continue
        elif kind == "bracket":
            token = _bracket(text)
            if token is not None:
                sections[-1].tokens.append(token)
        elif kind == "other":
            if text == ";":
                sections.append(_Section())
            elif text in ".,%@":
                sections[-1].tokens.append((text, text))
            elif text == "/":
                sections[-1].tokens.append(("slash", text))
            elif text in _UNSUPPORTED_LETTERS:
                raise Unsupported(f"the number format {code!r}")
            else:
                sections[-1].tokens.append(("lit", text))
        elif kind == "exp":
            sections[-1].tokens.append(("E", text))
        elif kind == "digit":
            sections[-1].tokens.append((text, text))
        else:  # general, ampm, date
            sections[-1].tokens.append((kind, text))
    if len(sections) > 4:
        return VALUE
    return sections


def _bracket(text: str) -> tuple[str, str] | None:
    low = text.lower()
    if re.fullmatch(r"h+|m+|s+", low):
        return "elapsed", low
    if text.startswith("$"):
        return "lit", text[1:].split("-", 1)[0]
    if low in _COLORS or re.fullmatch(r"color\s*\d{1,2}", low):
        return None
    if re.fullmatch(r"(?:<=|>=|<>|<|>|=)\s*-?(?:\d+(?:\.\d*)?|\.\d+)", text):
        return "condition", text.replace(" ", "")
    raise Unsupported(f"the number format part [{text}]")


def format_text(value: float | str, code: str) -> str | XlError:
    """``value`` shown with the number format ``code``, as TEXT gives it."""
    sections = _sections(code)
    if isinstance(sections, XlError):
        return sections
    text_section = None
    if len(sections) == 1 and sections[0].has("@") and not _digits_in_time(sections[0].tokens):
        # a text format ("@", "x@"): a text in its place, a number as General
        shown = value if isinstance(value, str) else _general(value)
        return "".join(shown if kind == "@" else text for kind, text in sections[0].tokens)
    if len(sections) == 4 or (len(sections) > 1 and sections[-1].has("@")):
        text_section = sections.pop()
    if any(s.has("@") for s in sections):
        return VALUE  # a text placeholder in a number section
    if isinstance(value, str):
        if text_section is None:
            return value
        return "".join(value if kind == "@" else text for kind, text in text_section.tokens)
    if any(s.has("condition") for s in sections):
        chosen = _by_condition(sections, value)
        if chosen is None and len(sections) == 1:
            return _general(value)  # one section whose condition fails: General, as Excel
        if chosen is None:
            return "#" * 11  # no section for the value: Excel fills the cell with #
        section, sign, x = chosen, "", abs(value)
    elif len(sections) == 1 or (len(sections) == 2 and value >= 0) or value > 0:
        section, sign, x = sections[0], "-" if value < 0 else "", value
    else:
        section, sign, x = sections[1 if value < 0 else 2], "", abs(value)
    if section.has("date", "elapsed", "ampm"):
        if _digits_in_time(section.tokens):
            return VALUE  # dates and digits in one section: Excel refuses it
        return _date_time(x, section)
    tokens = [(kind, text) for kind, text in section.tokens if kind != "condition"]
    if section.has("slash") and section.has("0", "#", "?"):
        return sign + _fraction_number(abs(x), tokens)
    shown = _number(abs(x), tokens)
    digits = any(kind in "0#?" for kind, _ in tokens)
    if sign and digits and not any(ch in "123456789" for ch in shown):
        return shown  # rounded to nothing: TEXT(-0.4,"0") is "0", not "-0"
    return sign + shown


def _by_condition(sections: list[_Section], value: float) -> _Section | None:
    """The section a value takes in a format with conditions (``[<=9999999]###-####;...``):
    the first whose condition holds; a section without one takes what the ones before it
    did not. A negative value is reported: Excel's signs there are not documented."""
    if value < 0:
        raise Unsupported("a negative number in a number format with conditions")
    for section in sections:
        condition = next((text for kind, text in section.tokens if kind == "condition"), None)
        if condition is None:
            return section
        op = condition[:2] if condition[:2] in ("<=", ">=", "<>") else condition[:1]
        bound = float(condition[len(op) :])
        holds = {"<=": value <= bound, ">=": value >= bound, "<>": value != bound,
                 "<": value < bound, ">": value > bound, "=": value == bound}[op]  # fmt: skip
        if holds:
            return section
    return None


# --- numbers ------------------------------------------------------------------------------


def _digits(x: float, decimals: int) -> tuple[str, str]:
    """The integer and fraction digits of x >= 0 rounded half away from zero to ``decimals``
    places, from its 15 significant digits (as Excel keeps them)."""
    exact = Decimal(format(x, ".15g"))
    rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    whole, _, fraction = f"{rounded:f}".partition(".")
    return ("" if whole == "0" else whole), fraction.ljust(decimals, "0")[:decimals]


def _number(x: float, tokens: list[tuple[str, str]]) -> str:
    if any(kind == "general" for kind, _ in tokens):
        return "".join(_general(x) if kind == "general" else text for kind, text in tokens)
    x *= 100 ** sum(kind == "%" for kind, _ in tokens)
    exp_at = next((i for i, (kind, _) in enumerate(tokens) if kind == "E"), len(tokens))
    mantissa, exponent = tokens[:exp_at], tokens[exp_at:]
    point = next((i for i, (kind, _) in enumerate(mantissa) if kind == "."), len(mantissa))
    whole, fraction = mantissa[:point], mantissa[point + 1 :]
    places = [i for i, (kind, _) in enumerate(whole) if kind in "0#?"]
    last = places[-1] if places else -1
    grouping = False
    items: list[tuple[str, str]] = []  # the integer part: placeholders and literals
    for i, (kind, text) in enumerate(whole):
        if kind != ",":
            items.append((kind, text))
        elif i == 0 or whole[i - 1][0] not in "0#?,":
            items.append(("lit", ","))  # a leading comma, or one after a literal: shown
        elif i > last:
            x /= 1000  # after the last integer placeholder: thousands
        elif whole[i + 1][0] in "0#?":
            grouping = True  # between two placeholders
            after = 0
            for kind_after, _ in whole[i + 1 :]:
                if kind_after == ",":
                    break
                after += kind_after in "0#?"
            plain = point == len(mantissa) and all(k in "0#?,%" for k, _ in whole)
            if plain and after != 3:  # "0,00": a decimal comma, as much of the world writes one
                raise Unsupported(
                    f"the number format {_shown(tokens)}, whose comma reads as a decimal comma"
                )
    fraction_places = [i for i, (kind, _) in enumerate(fraction) if kind in "0#?"]
    bare = all(k in "0#?," for k, _ in whole + fraction)
    if bare and fraction_places and any(k == "," for k, _ in fraction[: fraction_places[-1]]):
        # "#.##0,00": a point grouping thousands and a decimal comma, a country's own way
        raise Unsupported(f"the number format {_shown(tokens)}, written with a decimal comma")
    for kind, _ in fraction[fraction_places[-1] + 1 :] if fraction_places else ():
        if kind != ",":
            break
        x /= 1000  # right after the last decimal: thousands too
    if exponent and (any(kind in ",%" for kind, _ in tokens) or _apart(exponent)):
        raise Unsupported("a scientific number format with separators, % or literals in it")
    if exponent and x:
        ints = len(places) or 1
        power = math.floor(math.log10(x))
        step = ints if any(whole[i][0] == "#" for i in places) and ints > 1 else 1
        power = power - power % step if step > 1 else power - ints + 1
        x /= 10.0**power
    else:
        power = 0
    decimals = sum(kind in "0#?" for kind, _ in fraction)
    digits, fraction_digits = _digits(x, decimals)
    if exponent and len(digits) > max(len(places), 1) and x:  # 9.99 rounded up to 10.0
        power += 1
        digits, fraction_digits = _digits(x / 10, decimals)
    out = _integer(digits, items, grouping, bool(fraction_places))
    if point < len(mantissa):
        out += "." + _fraction(fraction_digits, fraction)
    if exponent:
        out += _exponent(power, exponent)
    return out


def _apart(exponent: list[tuple[str, str]]) -> bool:
    """Whether a literal stands between E+ and the exponent's digits, or among them."""
    last = max((i for i, (kind, _) in enumerate(exponent) if kind in "0#?"), default=0)
    return any(kind not in "0#?" for kind, _ in exponent[1:last])


def _integer(digits: str, items: list[tuple[str, str]], grouping: bool, decimals: bool) -> str:
    """The integer digits over the placeholders, from the right; the first takes the rest.
    With no integer placeholder the digits go before the point, if there are decimals."""
    count = sum(kind in "0#?" for kind, _ in items)
    literals = "".join(text for _, text in items)
    if not count:
        return literals + digits if decimals else literals
    shown: list[str] = []  # the characters, from the right
    position = seen = 0  # digits shown (for the separators); placeholders filled
    for kind, text in reversed(items):
        if kind not in "0#?":
            shown.append(text[::-1])
            continue
        seen += 1
        if seen == count:
            part = digits[: max(0, len(digits) - count + 1)]
        else:
            part = digits[-seen] if seen <= len(digits) else ""
        for ch in reversed(part or {"0": "0", "?": " ", "#": ""}[kind]):
            if ch.isdigit() or ch == " ":  # a ? unfilled keeps its place, its separator too
                if grouping and position and position % 3 == 0:
                    shown.append("," if ch.isdigit() else " ")
                position += 1
            shown.append(ch)
    return "".join(shown)[::-1]


def _fraction(digits: str, tokens: list[tuple[str, str]]) -> str:
    """Decimal digits left to right; a zero with only zeros after it is dropped on ``#`` and
    a space on ``?``."""
    places = [kind for kind, _ in tokens if kind in "0#?"]
    shown = list(digits)
    for i, kind in enumerate(places):
        if kind != "0" and not digits[i:].strip("0"):
            shown[i] = "" if kind == "#" else " "
    out, at = [], 0
    for i, (kind, text) in enumerate(tokens):
        if kind in "0#?":
            out.append(shown[at])
            at += 1
        elif kind == "," and i > 0 and tokens[i - 1][0] in "0#?,":
            continue  # a separator among or after the decimals: not shown
        else:
            out.append(text)
    return "".join(out)


def _exponent(power: int, tokens: list[tuple[str, str]]) -> str:
    sign = "-" if power < 0 else ("+" if tokens[0][1][1] == "+" else "")
    width = sum(kind == "0" for kind, _ in tokens[1:])
    return tokens[0][1][0] + sign + str(abs(power)).rjust(width, "0") + "".join(
        text for kind, text in tokens[1:] if kind not in "0#?")  # fmt: skip


GENERAL_WIDTH = 11  # the characters of General in TEXT, a minus sign not counted


def _significant(text: str) -> int:
    """The significant digits a shown number has (its mantissa's, in the scientific form)."""
    digits = text.split("E", maxsplit=1)[0].replace(".", "").replace("-", "").lstrip("0")
    return len(digits)


def _general(x: float) -> str:
    """Excel's General in TEXT: in 11 characters (a minus sign besides), the plain form
    rounded to fit unless the scientific form (``1.23457E+11``, ``-2.5E-09``: a mantissa of
    up to 6 digits, an exponent of at least two) shows more significant digits; 12 integer
    digits or more are always scientific (Excel's cached values in IronCalc's TEXT.xlsx)."""
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    d = Decimal(format(abs(x), ".15g"))  # the 15 digits Excel keeps
    power = d.adjusted()
    plain = ""
    if power < GENERAL_WIDTH:
        whole = max(power + 1, 1)  # integer digits, "0" below 1
        places = max(0, GENERAL_WIDTH - whole - 1)
        q = d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        if q and q.adjusted() < GENERAL_WIDTH:  # 99999999999.5 rounds to 12 digits: not so
            plain = format(q, "f")
            plain = plain.rstrip("0").rstrip(".") if "." in plain else plain
    width = 6 if abs(power) < 100 else 5  # the mantissa's digits beside E+dd or E+ddd
    mantissa = d.scaleb(-power).quantize(Decimal(1).scaleb(1 - width), rounding=ROUND_HALF_UP)
    if mantissa >= 10:  # 9.999995 rounds up to 10: one more power of ten
        power += 1
        mantissa = (mantissa / 10).quantize(Decimal(1).scaleb(1 - width))
    head = format(mantissa, "f")
    head = head.rstrip("0").rstrip(".") if "." in head else head
    scientific = f"{head}E{'-' if power < 0 else '+'}{abs(power):02d}"
    if plain and _significant(plain) >= _significant(scientific):
        return sign + plain
    return sign + scientific


def _fraction_number(x: float, tokens: list[tuple[str, str]]) -> str:
    """A fraction format: ``# ?/?`` (a whole part, then the fraction nearest to the rest with
    a denominator of as many digits), ``?/?`` (an improper fraction), ``# ?/8`` (a fixed
    denominator). A fraction that rounds to nothing shows spaces in its place."""
    slash = next(i for i, (kind, _) in enumerate(tokens) if kind == "slash")
    end = slash + 1
    while end < len(tokens) and (tokens[end][0] in "0#?" or tokens[end][1].isdigit()):
        end += 1
    start = slash
    while start > 0 and tokens[start - 1][0] in "0#?":
        start -= 1
    head, numerator, denominator = tokens[:start], tokens[start:slash], tokens[slash + 1 : end]
    if not numerator or not denominator:
        raise Unsupported("a fraction number format without digits around its /")
    mixed = any(kind in "0#?" for kind, _ in head)
    exact = Fraction(x)
    whole = math.floor(exact) if mixed else 0
    rest = exact - whole
    fixed = "".join(text for _, text in denominator) if any(
        kind == "lit" for kind, _ in denominator) else None  # fmt: skip
    if fixed is not None:
        d = int(fixed)
        n = int(rest * d * 2 + 1) // 2  # half away from zero
    else:
        near = rest.limit_denominator(10 ** len(denominator) - 1)
        n, d = near.numerator, near.denominator
    if mixed and n == d:
        whole, n = whole + 1, 0
    items = [(kind, text) for kind, text in head if kind != ","]
    digits = str(whole) if whole or (n == 0 and mixed) else ""
    out = _integer(digits, items, False, False) if mixed else "".join(t for _, t in items)
    if n == 0 and mixed:  # nothing left over: blanks where the fraction goes
        blank = " " * (len(numerator) + 1 + len(denominator))
        return out + blank + "".join(text for _, text in tokens[end:])
    fill = {"0": "0", "?": " "}  # "#": no padding
    top, bottom = str(n), fixed if fixed is not None else str(d)
    if numerator[0][0] in fill:  # the numerator to the right of its places
        top = top.rjust(len(numerator), fill[numerator[0][0]])
    if fixed is None and denominator[0][0] in fill:  # the denominator to their left
        bottom = bottom.ljust(len(denominator), fill[denominator[0][0]])
    return out + top + "/" + bottom + "".join(text for _, text in tokens[end:])


# --- dates and times ------------------------------------------------------------------------


def _digits_in_time(tokens: list[tuple[str, str]]) -> bool:
    """Whether a date or time section holds digit placeholders other than the zeros of a
    fraction of a second (``ss.000``)."""
    previous = "start"
    for kind, _ in tokens:
        if kind in ("#", "?", "E", "%", "general") or (kind == "0" and previous not in ".0"):
            return True
        previous = kind
    return False


def _date_time(x: float, section: _Section) -> str | XlError:
    tokens = section.tokens
    elapsed = {text.lower()[0] for kind, text in tokens if kind == "elapsed"}
    if any(kind == "date" and text.lower()[0] in elapsed for kind, text in tokens):
        raise Unsupported("a time format with a unit both elapsed and not ([h] and h)")
    elapsed_only = all(kind not in {"date", "ampm"} for kind, _ in tokens)
    if not elapsed_only and not 0 <= x + DATE_OFFSET.get() < LAST + 1:
        return VALUE
    if x < 0 and len(tokens) > 1:
        return VALUE  # a negative time: only a lone [h], [m] or [s] shows it
    fraction_digits = 0
    for i, (kind, _) in enumerate(tokens):
        if kind == "." and i + 1 < len(tokens) and tokens[i + 1][0] == "0":
            fraction_digits = min(3, sum(1 for k, _ in tokens[i + 1 :] if k == "0"))
    scale = 86400 * 10**fraction_digits
    units = int(Decimal(repr(abs(x))) * scale + Decimal("0.5")) * (-1 if x < 0 else 1)
    seconds, sub = divmod(abs(units), 10**fraction_digits)
    days, rest = divmod(seconds, 86400)
    hour, minute, second = rest // 3600, rest // 60 % 60, rest % 60
    twelve = any(kind == "ampm" for kind, _ in tokens)
    out: list[str] = []
    kinds = [(k, t.lower()) for k, t in tokens]
    for i, (kind, text) in enumerate(tokens):
        low = text.lower()
        if kind == "elapsed":
            total = {"h": seconds // 3600, "m": seconds // 60, "s": seconds}[low[0]]
            out.append(("-" if units < 0 else "") + str(total).rjust(len(low), "0"))
        elif kind == "date":
            out.append(_date_part(low, i, kinds, days, hour, minute, second, twelve))
        elif kind == "ampm":
            pm = hour >= 12
            if low == "a/p":
                out.append(("p" if pm else "a") if text[0].islower() else ("P" if pm else "A"))
            else:
                out.append(text.split("/")[1 if pm else 0])
        elif kind == "." and fraction_digits and i + 1 < len(tokens) and tokens[i + 1][0] == "0":
            out.append("." + str(sub).rjust(fraction_digits, "0"))
        elif kind == "0":
            continue  # taken with its point
        else:
            out.append(text)
    return "".join(out)


def _date_part(low: str, i: int, kinds: list[tuple[str, str]], days: int, hour: int,
               minute: int, second: int, twelve: bool) -> str:  # fmt: skip
    letter = low[0]
    if letter == "m" and len(low) <= 2 and _is_minute(i, kinds):
        return str(minute).rjust(len(low), "0")
    if letter == "h":
        shown = (hour % 12 or 12) if twelve else hour
        return str(shown).rjust(min(len(low), 2), "0")
    if letter == "s":
        return str(second).rjust(min(len(low), 2), "0")
    year, month, day = ymd(days)
    if letter == "y":
        return str(year)[-2:] if len(low) <= 2 else str(year)
    if letter == "m":
        if len(low) <= 2:
            return str(month).rjust(len(low), "0")
        name = _MONTHS[month - 1]
        return name[:3] if len(low) == 3 else name[0] if len(low) == 5 else name
    if len(low) <= 2:
        return str(day).rjust(len(low), "0")
    name = _DAYS[weekday0(days)]
    return name[:3] if len(low) == 3 else name


def _is_minute(i: int, kinds: list[tuple[str, str]]) -> bool:
    """An ``m`` right after an hour or a second, or right before a second, is minutes."""
    before = [t for k, t in kinds[:i] if k in ("date", "elapsed")]
    after = [t for k, t in kinds[i + 1 :] if k in ("date", "elapsed")]
    return bool(before and before[-1][0] in "hs") or bool(after and after[0][0] == "s")


def _shown(tokens: list[tuple[str, str]]) -> str:
    """A number format's section as it is written, quoted."""
    return '"' + "".join(text for _, text in tokens)[:40] + '"'
