"""Conversions between spreadsheet values, as Excel makes them: what arithmetic, VALUE and a
value parameter do with a text, what ``&`` and the text functions do with a number.

* **Text to number** (:func:`number`): what Excel's VALUE accepts ("Text can be in any of the
  constant number, date, or time formats recognized by Microsoft Excel"): leading and
  trailing spaces, a sign or parentheses for a negative, a currency sign ($ or € before
  the number, € after it: ``23€``), thousands separators in groups of three, a decimal
  point, an exponent, a percent sign; a date (``1987-08-26``, ``8/26/1987``,
  ``26-Aug-1987``) or a time (``14:30``, ``2:30 PM``), or both; a whole
  number and a fraction (``1 1/2``). Anything else is ``#VALUE!``, and so is a number beyond
  the largest a double holds (``1e400``). A date of numbers only other than year-month-day
  (``8/26/1987``, ``26/8``), and a month's name before the day (``August 26, 1987``, which
  an Excel of day-first dates does not read), are read by the saving Excel's country
  settings, which the file does not keep: reported.
* **Number to text** (:func:`text_of`): Excel's General format without a column width, as
  Excel's ``&`` gives it: 15 significant digits; the plain form while it has at most 15
  integer digits, or, below 1, at most 18 digits after the point; otherwise the scientific
  form ``1.23456789012346E-05``, its exponent signed and at least two digits.
* **To a logical** (:func:`truth`): a number is TRUE unless 0; the texts TRUE and FALSE in
  any case; any other text ``#VALUE!``.

Serial numbers of dates are the workbook's (:data:`DATE_OFFSET`: 0 in the 1900 date system,
1462 in the 1904 one, whose day 0 is 1904-01-01).

May import: :mod:`.values` and the standard library.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import functools
import gc
import math
import operator
import re
import unicodedata
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from decimal import Decimal
from itertools import chain
from typing import Any

from .values import (
    DIV0,
    MAX_TEXT,
    NUM,
    VALUE,
    Array,
    Cut,
    Unsupported,
    Value,
    XlError,
    check_size,
    element,
)

DATE_OFFSET: ContextVar[int] = ContextVar("DATE_OFFSET", default=0)
"""Days from the workbook's day 0 to the 1900 system's: 1462 for a 1904 workbook."""
CODE_PAGE: ContextVar[str] = ContextVar("CODE_PAGE", default="cp1252")
"""The character set of CHAR and CODE: Windows' Western code page, or the Mac's (the
workbook's docProps/app.xml names Excel for the Macintosh)."""

EPOCH = _dt.date(1899, 12, 30)  # serial 0 of the 1900 system, from 1900-03-01 on
_MARCH_1900 = _dt.date(1900, 3, 1)
LAST = 2958465  # 9999-12-31 in the 1900 system

# --- text to number -------------------------------------------------------------------------

_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_NUMBER = re.compile(
    r"(?P<sign>[+-]?)\s*(?P<cur>[$€]?)\s*(?P<sign2>[+-]?)"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d*)(?P<frac>\.\d*)?(?P<exp>[eE][+-]?\d+)?\s*(?P<after>€?)"
    r"\s*(?P<pct>%?)"
)
_FRACTION = re.compile(r"([+-]?)(\d+)\s+(\d+)/(\d+)")


def number(v: Value) -> float | XlError:
    """A value as a number, the way arithmetic takes it: a blank is 0, a logical 1 or 0, a
    text what VALUE reads in it (``#VALUE!`` when nothing)."""
    if isinstance(v, float):
        return v
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, XlError):
        return v
    if isinstance(v, int):
        return float(v)
    if _PLAIN.fullmatch(v):  # the usual case, "12" or "-1.5"
        x = float(v)
        return x if math.isfinite(x) else VALUE  # "1e400" is no number (Excel's cached values)
    found = read_number(v)
    return VALUE if found is None else found


def read_number(text: str) -> float | None:
    """The number a text stands for, as Excel's VALUE reads it; None when it is not one."""
    t = text.strip()
    if not t:
        return None
    negative = False
    if t.startswith("(") and t.endswith(")"):  # (1,000) is -1000, as in accounting
        negative, t = True, t[1:-1].strip()
    m = _NUMBER.fullmatch(t)
    if m is not None and (m.group("int") or (m.group("frac") or ".") != "."):
        if (m.group("sign") and m.group("sign2")) or (negative and (m.group("sign") or
                                                                m.group("sign2"))):  # fmt: skip
            return None
        if m.group("cur") and m.group("after"):
            return None
        digits = m.group("int").replace(",", "") + (m.group("frac") or "")
        x = float(digits + (m.group("exp") or ""))
        if not math.isfinite(x):
            return None
        if m.group("pct"):
            x /= 100
        if "-" in (m.group("sign"), m.group("sign2")) or negative:
            x = -x
        return x
    if negative:
        return None
    m = _FRACTION.fullmatch(t)
    if m is not None:
        whole, top, bottom = int(m.group(2)), int(m.group(3)), int(m.group(4))
        if bottom == 0 or top >= bottom:
            return None
        x = whole + top / bottom
        return -x if m.group(1) == "-" else x
    if t != text:
        return None  # a date or time with spaces around it is not one (Excel's cached values)
    return read_date_time(t)


# --- dates and times written as text -------------------------------------------------------

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_TIME = re.compile(  # each part at most 4 digits: Excel's longest time is 9999:59:59
    r"(?P<h>\d{1,4})(?::(?P<m>\d{1,4})(?::(?P<s>\d{1,4}(?:\.\d+)?))?)?\s*(?P<ampm>[AaPp][Mm]?)?"
)
_DATE_FORMS = (
    # (pattern, the order of its parts: y m d, M a month's name)
    (re.compile(r"(\d{4}) ?[-/] ?(\d{1,2}) ?[-/] ?(\d{1,2})"), "ymd"),  # 2026 - 01 - 01 too
    (re.compile(r"(\d{1,2})[-/](\d{1,2})(?:[-/](\d{2}|\d{4}))?"), "mdy"),
    (re.compile(r"(\d{1,2})[-\s]+([A-Za-z]{3,9})\.?[-\s,]+(\d{2}|\d{4})"), "dMy"),
    (re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})"), "Mdy"),
    (re.compile(r"([A-Za-z]{3,9})\.?[-\s]+(\d{4})"), "My"),
)


def read_date_time(text: str) -> float | None:
    """A date, a time of day, or both (the date first), as a serial number; None when the text
    is not one Excel reads. A date without its year depends on the day it is read: reported."""
    t = " ".join(text.split()).replace(" :", ":").replace(": ", ":")  # "4 : 35" is 4:35
    date_part, time_part = t, ""
    found = _split_time(t)
    if found is not None:
        date_part, time_part = found
    serial = 0.0
    if date_part:
        day = _read_date(date_part)
        if day is None:
            return None
        serial = float(day)
    if time_part:
        clock = _read_time(time_part)
        if clock is None:
            return None
        serial += clock
    return serial


def _split_time(t: str) -> tuple[str, str] | None:
    """The text cut before its time of day (the part with a colon or AM/PM), if it has one."""
    m = re.search(r"(?:^|\s)(\d{1,4}(?::\d{1,4}(?::\d{1,4}(?:\.\d+)?)?\s*(?:[AaPp][Mm]?)?|"
                  r"\s*[AaPp][Mm]))$", t)  # fmt: skip
    if m is None or (":" not in m.group(1) and not re.search(r"[AaPp]", m.group(1))):
        return None
    return t[: m.start()].strip(), m.group(1).strip()


def _read_time(t: str) -> float | None:
    m = _TIME.fullmatch(t)
    if m is None:
        return None
    h, mi, s = int(m.group("h")), int(m.group("m") or 0), float(m.group("s") or 0)
    if m.group("ampm"):
        if not 1 <= h <= 12 or (m.group("m") is None and not m.group("ampm")):
            return None
        h = h % 12 + (12 if m.group("ampm")[0] in "Pp" else 0)
        if mi > 59 or s >= 60:
            return None
    # beyond 23, 59, 59 the parts add up (Excel reads "23:99" as 24:39, "24:00" as a day)
    return (h * 3600 + mi * 60 + s) / 86400


def _read_date(t: str) -> int | None:
    for pattern, order in _DATE_FORMS:
        m = pattern.fullmatch(t)
        if m is None:
            continue
        parts = dict(zip(order, m.groups(), strict=True))
        if order == "mdy":
            return _by_country(t, *m.groups())
        if order == "Mdy":  # read month first where dates are (US), #VALUE! where not
            raise Unsupported(f"the date {t!r}, which Excel reads by its country's settings")
        if "M" in parts:
            month = _MONTHS.get(parts["M"].lower().rstrip("."))
            if month is None:
                return None
        else:
            month = int(parts["m"])
        day = int(parts.get("d", "1"))
        year_text = parts["y"]
        year = int(year_text)
        if len(year_text) == 2:  # Excel's window: 00-29 this century, 30-99 the last
            year += 2000 if year < 30 else 1900
        return serial_of_date(year, month, day)
    return None


def _by_country(text: str, first: str, second: str, year: str | None) -> int | None:
    """A date of numbers only, ``8/26/1987``: month first in the United States, day first in
    most of the world, and the file does not say where it was saved. Where both readings give
    the same day, or neither a day at all (``7/5/1800``), that is the answer; else reported."""
    if year is None:
        raise Unsupported(f"the date {text!r}, without a year: the year it is read in")
    y = int(year)
    if len(year) == 2:
        y += 2000 if y < 30 else 1900
    readings = {serial_of_date(y, int(first), int(second)), serial_of_date(y, int(second),
                                                                          int(first))}  # fmt: skip
    if len(readings) == 1:
        return readings.pop()
    raise Unsupported(f"the date {text!r}, which Excel reads by its country's settings")


def serial_of_date(year: int, month: int, day: int) -> int | None:
    """The workbook's serial of a calendar date; None for one that does not exist or is
    before the date system's first day."""
    offset = DATE_OFFSET.get()
    if (year, month, day) == (1900, 2, 29):  # the day the 1900 system counts, as Lotus did
        return None if offset else 60
    try:
        when = _dt.date(year, month, day)
    except ValueError:
        return None
    serial = (when - EPOCH).days - (when < _MARCH_1900) - offset
    return serial if serial >= (0 if offset else 1) else None


# --- number to text ------------------------------------------------------------------------


def general(x: float) -> str:
    """A number as Excel's ``&`` writes it (its General format with no width): 15 significant
    digits, the plain form up to 15 integer digits or 18 decimals, else scientific; up to 20
    integer digits where 15 significant ones are the whole number (``"x"&1E19`` is x and 20
    digits in Excel's saved values, ``""&1234567890123456`` is 1.23456789012346E+15)."""
    if x == 0 or abs(x) < 2.2250738585072014e-308:  # zero, and denormals: Excel shows 0
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    mantissa, _, power = format(x, ".14e").partition("e")
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    exponent = int(power)
    if 0 <= exponent < 15 or (
        15 <= exponent < 20 and float(int(digits) * 10 ** (exponent + 1 - len(digits))) == abs(x)
    ):
        whole, decimals = digits[: exponent + 1].ljust(exponent + 1, "0"), digits[exponent + 1 :]
        return sign + whole + ("." + decimals if decimals else "")
    if exponent < 0 and -exponent - 1 + len(digits) <= 18:
        return sign + "0." + "0" * (-exponent - 1) + digits
    shown = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{shown}E{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def text_of(v: Value) -> str | XlError:
    """A value as text: a number in General (:func:`general`), a logical TRUE or FALSE, a
    blank the empty text."""
    if isinstance(v, str):
        return v
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, XlError):
        return v
    return general(float(v))


def truth(v: Value) -> bool | XlError:
    """A value as a logical."""
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        upper = v.strip().upper()
        if upper in ("TRUE", "FALSE"):
            return upper == "TRUE"
        return VALUE
    return bool(v)


# --- the operators ---------------------------------------------------------------------------


def rank_key(v: Value) -> tuple[Any, ...]:
    """Excel's order of values of different types: numbers, then texts (without regard to
    case, accents only between texts otherwise equal), then logicals; a blank as the
    smallest."""
    if v is None:
        return (0, 0.0)
    if isinstance(v, bool):
        return (3, v)
    if isinstance(v, float | int):
        return (1, float(v))
    if isinstance(v, str):
        low = v.lower()
        return (2, low if low.isascii() else _unaccented(low), low)
    return (4, 0)


@functools.lru_cache(maxsize=4096)
def _unaccented(text: str) -> str:
    """A text without its accents, which Excel's order of texts looks at only between texts
    otherwise equal ("Côte d'Ivoire" before "Croatia", as Excel's SORT saves them)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def same15(x: float, y: float) -> bool:
    """Whether two different numbers are equal to a comparison operator: Excel rounds both
    sides of ``=``, ``<>``, ``<``, ``>``, ``<=`` and ``>=`` to 15 significant digits for the
    comparison alone, so ``=0.1+0.2=0.3`` is TRUE while ``=10.01-10=0.01`` is FALSE (two
    numbers further apart than 1 in 10**14 never round alike: the cheap test first)."""
    return abs(x - y) <= 1e-14 * max(abs(x), abs(y)) and format(x, ".15g") == format(y, ".15g")


def compare(op: str, a: Value, b: Value, *, operator: bool = False) -> Value:
    """``a op b`` for the comparison operators: a blank compares as 0, "" or FALSE, whatever
    the other side is; values of different types by :func:`rank_key`. As an ``operator``,
    numbers equal to 15 significant digits are equal (:func:`same15`); a function's
    criteria compare them as they are."""
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    if a is None:
        a = "" if isinstance(b, str) else False if isinstance(b, bool) else 0.0
    if b is None:
        b = "" if isinstance(a, str) else False if isinstance(a, bool) else 0.0
    ka, kb = rank_key(a), rank_key(b)
    if operator and ka[0] == kb[0] == 1 and ka[1] != kb[1] and same15(ka[1], kb[1]):
        ka = kb
    if op == "=":
        return ka == kb
    if op == "<>":
        return ka != kb
    if op == "<":
        return ka < kb
    if op == ">":
        return ka > kb
    if op == "<=":
        return ka <= kb
    return ka >= kb


def power(x: float, y: float) -> float | XlError:
    """``x ^ y`` as Excel's POWER and ``^``: 0 to the power 0 is #NUM!, 0 to a negative power
    #DIV/0!, a negative number to a fractional power #NUM! unless the power is 1 over an odd
    number (an odd root). Computed as Excel computes it, so
    that its digits are Excel's (an actuarial model's discount factors, saved by Excel, agree
    to the bit): a whole power by squaring, a fractional one through ln and exp."""
    if x == 0:
        if y == 0:
            return NUM
        if y < 0:
            return DIV0
    if y == int(y) and 0 < abs(y) < 2**31:
        # a whole power is Excel's square-and-multiply from the lowest bit, then 1/x^n for
        # a negative one: its digits, not the correctly rounded pow's (1.0123^-163 differs in
        # the 14th digit; Excel-saved actuarial models show it bit for bit)
        n, base, whole = abs(int(y)), x, 1.0
        while True:
            if n & 1:
                whole *= base
            n >>= 1
            if not n:
                break
            base *= base
        if whole != 0 and math.isfinite(whole):
            return 1 / whole if y < 0 else whole
    elif x > 0:  # a fractional one is e^(y ln x), as Excel computes it, digits and all
        try:
            return math.exp(y * math.log(x))
        except OverflowError:
            return NUM
    elif (
        x < 0 and y and (1 / y) % 2 == 1
    ):  # an odd root of a negative number: (-8)^(1/3) is about -2
        try:
            return -math.exp(y * math.log(-x))
        except OverflowError:
            return NUM
    try:
        result = x**y
    except (OverflowError, ZeroDivisionError):
        return NUM
    if isinstance(result, complex):
        return NUM
    return float(result)


def arith(op: str, a: Value, b: Value) -> Value:
    x = number(a)
    if isinstance(x, XlError):
        return x
    y = number(b)
    if isinstance(y, XlError):
        return y
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if op == "/":
        return DIV0 if y == 0 else x / y
    return power(x, y)


def binary(op: str, a: Value, b: Value) -> Value:
    if op in ("+", "-", "*", "/", "^"):
        return arith(op, a, b)
    if op == "&":
        x, y = text_of(a), text_of(b)
        if isinstance(x, XlError):
            return x
        if isinstance(y, XlError):
            return y
        return x + y if len(x) + len(y) <= MAX_TEXT else VALUE  # Excel's longest text
    return compare(op, a, b, operator=True)


def cancelled(result: float, side: float) -> bool:
    """Whether a sum or difference is 0 in Excel: its result is below 8 units in the last
    place of ``side`` (2**(e-49) for a number of 2**e to 2**(e+1)): all but the last 3 of its
    52 bits cancelled. A formula's last addition gives its smaller side; SUM its largest
    number. Excel's saved values: 0.5-0.4-0.1 (2 units of 0.1) and 16.666666666666647 -
    16.666666666666668 (6 units) are 0; 3.999999999999993 - 3.9999999999999893 (8 units of
    3.99) and 0.9999999999999991 - 1 (8 units of 0.99) are not."""
    if not result or not abs(result) < abs(side) * 2.0**-49:
        return False
    return abs(result) < math.ldexp(1.0, math.frexp(side)[1] - 50)


def broadcast(op: str, a: Array, b: Array) -> Array:
    """``a op b`` element by element, the arrays stretched to a common size; a range cut at
    its sheet's last used row (:class:`Cut`) as the whole range it is (``(B:B<>"")*ROW(B:B)``
    over every row, a one-row cut never stretched as if it were one row)."""
    if a.__class__ is Cut or b.__class__ is Cut:
        return _cut(op, a, b)
    return _broadcast(op, a, b)


def _cut(op: str, a: Array, b: Array) -> Array:
    """:func:`broadcast` where a side is a :class:`Cut`: against one value, or a cut of the
    same whole shape, the result is cut too (its tail the operator's result over the tails);
    against anything else the cut side is given its tail up to the other's size (and one
    row or column past it, where Excel's result has #N/A there), and computed as it is."""
    fa = a.full if isinstance(a, Cut) else (len(a), len(a[0]))
    fb = b.full if isinstance(b, Cut) else (len(b), len(b[0]))
    ta = a.tail if isinstance(a, Cut) else a[0][0]
    tb = b.tail if isinstance(b, Cut) else b[0][0]
    if fb == (1, 1) and isinstance(a, Cut):
        return Cut(_broadcast(op, a, b), fa, binary(op, ta, tb))
    if fa == (1, 1) and isinstance(b, Cut):
        return Cut(_broadcast(op, a, b), fb, binary(op, ta, tb))
    if fa == fb and isinstance(a, Cut) and isinstance(b, Cut):
        rows, cols = max(len(a), len(b)), max(len(a[0]), len(b[0]))
        return Cut(
            _broadcast(op, a.padded(rows, cols), b.padded(rows, cols)), fa, binary(op, ta, tb)
        )
    ra, ca, rb, cb = len(a), len(a[0]), len(b), len(b[0])
    if isinstance(a, Cut):
        a = a.padded(_reach(ra, rb), _reach(ca, cb))
    if isinstance(b, Cut):
        b = b.padded(_reach(rb, ra), _reach(cb, ca))
    return _broadcast(op, a, b)


def _reach(held: int, other: int) -> int:
    """How far a cut side is given its tail against another side of ``other``: to its size,
    and one past it where that is more than one (Excel's #N/A beyond a shorter side)."""
    return max(held, other + 1 if other > 1 else other)


def _broadcast(op: str, a: Array, b: Array) -> Array:
    rows = max(len(a), len(b))
    cols = max(len(a[0]), len(b[0]))
    check_size(rows, cols)  # a column of a million against a row of a thousand: refused
    fast = _FAST.get(op)
    # two numbers (two floats: the usual case) at once, anything else as ``fast`` takes it;
    # the values taken row by row in one run, the rows made at the end
    plain = _PYTHON.get(op)
    if fast is not None and len(a) == len(b) and len(a[0]) == len(b[0]):  # the usual case
        pairs = zip(chain.from_iterable(a), chain.from_iterable(b), strict=True)
        if plain is None:
            return rows_of([fast(x, y) for x, y in pairs], cols)
        if op in _ORDER:
            # two floats further apart than 15 significant digits reach (:func:`same15`)
            return rows_of([plain(x, y) if x.__class__ is float and y.__class__ is float and
                            (x == y or abs(x - y) > 1e-14 * max(abs(x), abs(y)))
                          else fast(x, y) for x, y in pairs], cols)  # fmt: skip
        # + - *: numbers and logicals (a product of comparisons) as numbers
        return rows_of([plain(float(x), float(y)) if x.__class__ in _NUMERIC and
                      y.__class__ in _NUMERIC else binary(op, x, y) for x, y in pairs],
                     cols)  # fmt: skip
    if fast is not None and len(a) == len(a[0]) == 1:  # one value against an array
        return rows_of(_against(a[0][0], chain.from_iterable(b), fast, plain, op, True), cols)
    if fast is not None and len(b) == len(b[0]) == 1:
        return rows_of(_against(b[0][0], chain.from_iterable(a), fast, plain, op, False), cols)
    return [
        [binary(op, element(a, r, c), element(b, r, c)) for c in range(cols)] for r in range(rows)
    ]


def rows_of(values: list[Value], cols: int) -> Array:
    """Values taken row by row made rows of ``cols`` again. The cyclic garbage collector
    waits while they are made: a column of 30,000 values is 30,000 new lists, which would
    set it going over every object the workbook holds again and again, for lists that hold
    no cycle."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        if cols == 1:
            return [[v] for v in values]
        return [values[i : i + cols] for i in range(0, len(values), cols)]
    finally:
        if paused:
            gc.enable()


def _against(
    one: Value,
    values: Iterable[Value],
    fast: Callable[[Value, Value], Value],
    plain: Callable[[Any, Any], Any] | None,
    op: str,
    first: bool,
) -> list[Value]:
    """``one op x`` (``first``) or ``x op one`` for each ``x`` of the values: a number, or
    (for a comparison) a text compared without regard to case, made ready once."""
    if plain is not None and op not in _ORDER and one.__class__ in _NUMERIC:
        # + - *: a logical as a number too (``--ISNUMBER(...)`` is each one times -1)
        x = float(one)
        if first:
            return [plain(x, float(y)) if y.__class__ in _NUMERIC else binary(op, one, y)
                    for y in values]  # fmt: skip
        return [plain(float(y), x) if y.__class__ in _NUMERIC else binary(op, y, one)
                for y in values]  # fmt: skip
    if plain is not None and isinstance(one, float):
        # a number: each float further from it than 15 significant digits reach (else as
        # :func:`same15` says) compared at once
        size = abs(one)
        if first:
            return [plain(one, y) if y.__class__ is float and (y == one or abs(one - y) > 1e-14
                    * max(size, abs(y))) else fast(one, y) for y in values]  # fmt: skip
        return [plain(x, one) if x.__class__ is float and (x == one or abs(x - one) > 1e-14
                * max(abs(x), size)) else fast(x, one) for x in values]  # fmt: skip
    if plain is not None and op in _ORDER and isinstance(one, str) and one.isascii():
        low = one.lower()
        if first:
            return [plain(low, y.lower()) if y.__class__ is str and y.isascii() else fast(one, y)
                    for y in values]  # fmt: skip
        return [plain(x.lower(), low) if x.__class__ is str and x.isascii() else fast(x, one)
                for x in values]  # fmt: skip
    if first:
        return [fast(one, y) for y in values]
    return [fast(x, one) for x in values]


def _fast(op: str, plain: Callable[[float, float], Value]) -> Callable[[Value, Value], Value]:
    """``op`` of two numbers or logicals at once, of anything else as :func:`binary` takes
    it."""

    def f(x: Value, y: Value) -> Value:
        if x.__class__ in _NUMERIC and y.__class__ in _NUMERIC:
            return plain(float(x), float(y))
        return binary(op, x, y)

    return f


def _fast_compare(op: str, plain: Callable[[Any, Any], bool]) -> Callable[[Value, Value], Value]:
    """``op`` of two numbers, or two texts (without regard to case), at once; of anything
    else as :func:`compare` takes it."""

    def f(x: Value, y: Value) -> Value:
        kind = x.__class__
        if kind is y.__class__:
            if kind is float:
                return plain(x, x) if x != y and same15(x, y) else plain(x, y)  # type: ignore[arg-type]
            if kind is str and x.isascii() and y.isascii():  # type: ignore[union-attr]
                return plain(x.lower(), y.lower())  # type: ignore[union-attr]
        return compare(op, x, y, operator=True)

    return f


_NUMERIC = (float, bool)
# the operators whose result for two floats (and, for a comparison, for two texts in ASCII
# made lower case) is Python's own
_PYTHON: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
}
_ORDER = frozenset(("=", "<>", "<", ">", "<=", ">="))
_FAST: dict[str, Callable[[Value, Value], Value]] = {
    "+": _fast("+", lambda x, y: x + y),
    "-": _fast("-", lambda x, y: x - y),
    "*": _fast("*", lambda x, y: x * y),
    "&": lambda x, y: binary("&", x, y),
    "^": lambda x, y: binary("^", x, y),
    "/": lambda x, y: binary("/", x, y),
    "=": _fast_compare("=", lambda x, y: x == y),
    "<>": _fast_compare("<>", lambda x, y: x != y),
    "<": _fast_compare("<", lambda x, y: x < y),
    ">": _fast_compare(">", lambda x, y: x > y),
    "<=": _fast_compare("<=", lambda x, y: x <= y),
    ">=": _fast_compare(">=", lambda x, y: x >= y),
}


def exact(x: float) -> Decimal:
    """A number as the decimal Excel shows (15 significant digits)."""
    return Decimal(format(x, ".15g"))
