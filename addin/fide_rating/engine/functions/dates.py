"""Date and time functions (Excel's category): DATE, YEAR, MONTH, DAY, TODAY, WEEKDAY, EDATE,
EOMONTH, DATEDIF, DAYS, YEARFRAC, HOUR, MINUTE, SECOND, TIMEVALUE.

Serial numbers are Excel's 1900 date system, its leap day included: 1 is 1900-01-01, 60 is the
29 February 1900 that Excel counts, 61 is 1900-03-01, and 0 is "1900-01-00".

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re

from ..formula.values import EPOCH, NUM, VALUE, Book, Result, XlError, text_of
from .base import Impl, number_arg, one_value, optional_number, register

_MARCH_1900 = _dt.date(1900, 3, 1)  # from here on, serial = days since EPOCH
LAST = 2958465  # 9999-12-31


def _month_start(y: int, m: int) -> int:
    """Excel's serial of the first day of month ``m`` of year ``y`` (1900-02-29 counted)."""
    first = _dt.date(y, m, 1)
    return (first - EPOCH).days - (first < _MARCH_1900)


def ymd(serial: float) -> tuple[int, int, int]:
    """Year, month, day of a serial in [0, LAST], as Excel shows it."""
    n = int(serial)
    if n == 0:
        return 1900, 1, 0
    if n == 60:
        return 1900, 2, 29
    day = EPOCH + _dt.timedelta(days=n + (n < 60))
    return day.year, day.month, day.day


def _date_arg(book: Book, v: Result, r: int, c: int) -> float | XlError:
    x = number_arg(book, v, r, c)
    if isinstance(x, XlError):
        return x
    return x if 0 <= x < LAST + 1 else NUM


def _serial_of(y: int, m: int, d: int) -> Result:
    """Excel's DATE arithmetic: months beyond 12 carry into years, days from the month's start."""
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        return NUM
    serial = _month_start(y, m) + d - 1
    return float(serial) if 0 <= serial <= LAST else NUM


@register("DATE")
def _date(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    parts = [number_arg(book, a, r, c) for a in args[:3]]
    for p in parts:
        if isinstance(p, XlError):
            return p
    y, m, d = (int(p) for p in parts)  # type: ignore[arg-type]  # Excel truncates them
    if y < 0 or y >= 10000:
        return NUM
    if y < 1900:
        y += 1900
    return _serial_of(y, m, d)  # DATE(0.9, 0.9, 0.9) is before day 0: #NUM!


def _part(which: int) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x = _date_arg(book, args[0], r, c)
        return x if isinstance(x, XlError) else float(ymd(x)[which])

    return impl


register("YEAR")(_part(0))
register("MONTH")(_part(1))
register("DAY")(_part(2))


@register("TODAY")
def _today(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float((_dt.date.today() - EPOCH).days)


# WEEKDAY's return types: the weekday numbered 1 (or 0 for type 3), counted from Sunday = 0
_WEEK_STARTS = {1: (0, 1), 2: (1, 1), 3: (1, 0), 11: (1, 1), 12: (2, 1), 13: (3, 1),
                14: (4, 1), 15: (5, 1), 16: (6, 1), 17: (0, 1)}  # fmt: skip


@register("WEEKDAY")
def _weekday(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x = _date_arg(book, args[0], r, c)
    kind = optional_number(book, args, 1, r, c, 1.0)
    if isinstance(x, XlError):
        return x
    if isinstance(kind, XlError):
        return kind
    start = _WEEK_STARTS.get(int(kind))
    if start is None:
        return NUM
    sunday_zero = (int(x) + 6) % 7  # serial 0 is a Saturday in Excel, serial 1 a Sunday
    first, base = start
    return float((sunday_zero - first) % 7 + base)


def _months_on(end_of_month: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        if any(isinstance(one_value(book, a, r, c), bool) for a in args):
            return VALUE  # TRUE or FALSE for a date or months: #VALUE! (Excel's cached values)
        x = _date_arg(book, args[0], r, c)
        k = number_arg(book, args[1], r, c)
        if isinstance(x, XlError):
            return x
        if isinstance(k, XlError):
            return k
        y, m, d = ymd(x)
        total = y * 12 + (m - 1) + int(k)  # Excel truncates the months
        y, m = divmod(total, 12)
        m += 1
        if not 1900 <= y <= 9999:
            return NUM
        start = _month_start(y, m)
        length = 29 if (y, m) == (1900, 2) else calendar.monthrange(y, m)[1]  # Excel's 1900-02-29
        last = start + length - 1
        return float(last if end_of_month else min(start + max(d, 1) - 1, last))

    return impl


register("EDATE")(_months_on(False))
register("EOMONTH")(_months_on(True))


@register("DATEDIF")
def _datedif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Whole years, months or days between two dates (Excel's compatibility function,
    "MD" with Excel's own arithmetic: it can be negative, as Excel documents)."""
    start, end = _date_arg(book, args[0], r, c), _date_arg(book, args[1], r, c)
    unit = text_of(one_value(book, args[2], r, c))
    for v in (start, end, unit):
        if isinstance(v, XlError):
            return v
    assert isinstance(start, float) and isinstance(end, float) and isinstance(unit, str)
    if start > end:
        return NUM
    (y1, m1, d1), (y2, m2, d2) = ymd(start), ymd(end)
    months = (y2 - y1) * 12 + m2 - m1 - (d2 < d1)
    kind = unit.upper()
    if kind == "D":
        return float(int(end) - int(start))
    if kind == "M":
        return float(months)
    if kind == "Y":
        return float(months // 12)
    if kind == "YM":
        return float(months % 12)
    if kind == "MD":
        if d2 >= d1:
            return float(d2 - d1)
        py, pm = (y2, m2 - 1) if m2 > 1 else (y2 - 1, 12)
        return float(calendar.monthrange(py, pm)[1] - d1 + d2)
    if kind == "YD":
        years = months // 12
        y, m = divmod(y1 * 12 + m1 - 1 + years * 12, 12)
        last = calendar.monthrange(y, m + 1)[1]
        anniversary = _month_start(y, m + 1) + min(d1, last) - 1
        return float(int(end) - anniversary)
    return NUM


@register("DAYS")
def _days(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    end, start = _date_arg(book, args[0], r, c), _date_arg(book, args[1], r, c)
    if isinstance(end, XlError):
        return end
    if isinstance(start, XlError):
        return start
    return float(int(end) - int(start))


def _leap(y: int) -> bool:
    return calendar.isleap(y) or y == 1900  # Excel's 1900 has a 29 February


def _last_of_february(y: int, m: int, d: int) -> bool:
    return m == 2 and d == (29 if _leap(y) else 28)


@register("YEARFRAC")
def _yearfrac(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The fraction of a year between two dates, by Excel's five day-count bases: 0 US (NASD)
    30/360, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360."""
    if len(args) > 2 and isinstance(one_value(book, args[2], r, c), bool | str):
        return VALUE
    basis = optional_number(book, args, 2, r, c, 0.0)  # checked first, as Excel does
    if isinstance(basis, XlError):
        return basis
    kind = int(basis)
    if kind not in (0, 1, 2, 3, 4):
        return NUM
    start, end = _date_arg(book, args[0], r, c), _date_arg(book, args[1], r, c)
    if isinstance(start, XlError):
        return start
    if isinstance(end, XlError):
        return end
    a, b = sorted((int(start), int(end)))
    (y1, m1, d1), (y2, m2, d2) = ymd(a), ymd(b)
    if kind == 2:
        return (b - a) / 360
    if kind == 3:
        return (b - a) / 365
    if kind == 4:
        d1, d2 = min(d1, 30), min(d2, 30)
        return (360 * (y2 - y1) + 30 * (m2 - m1) + d2 - d1) / 360
    if kind == 0:
        if d1 == 31:
            d1 = 30
            d2 = 30 if d2 == 31 else d2
        elif d1 == 30 and d2 == 31:
            d2 = 30
        elif _last_of_february(y1, m1, d1):
            d1 = 30
            if _last_of_february(y2, m2, d2):
                d2 = 30
        return (360 * (y2 - y1) + 30 * (m2 - m1) + d2 - d1) / 360
    # actual/actual: within a year, a year of 366 days when the period touches a 29 February
    # (Excel's reading); over more years, the average length of the years it spans
    if y1 == y2 or (y2 == y1 + 1 and (m1, d1) >= (m2, d2)):
        feb29 = (
            (_leap(y1) and (m1, d1) <= (2, 29))
            or (_leap(y2) and (m2, d2) >= (2, 29))
            or (y1 == y2 and _leap(y1))
        )
        return (b - a) / (366 if feb29 else 365)
    years = range(y1, y2 + 1)
    return (b - a) / (sum(366 if _leap(y) else 365 for y in years) / len(years))


_TIME = re.compile(
    r"^\s*(?:(?P<date>\S+)\s+)?(?P<a>\d{1,4}):(?P<b>\d{1,4}(?:\.\d*)?)"
    r"(?::(?P<c>\d{1,4}(?:\.\d*)?))?\s*(?P<ampm>[AaPp][Mm]?)?\s*$"
)


def _time_of(text: str) -> float | XlError:
    """The time of day a text gives ("14:30", "2:30 PM", "2:30:15.5", "30:15.5" as minutes and
    seconds), as a fraction of a day; any date in front is left out, as TIMEVALUE does."""
    m = _TIME.match(text)
    if m is None:
        return VALUE
    a, b, sec = m.group("a"), m.group("b"), m.group("c")
    if sec is None and "." in b:  # mm:ss.0
        h, mi, se = 0.0, float(a), float(b)
    else:
        if "." in b:
            return VALUE
        h, mi, se = float(a), float(b), float(sec or 0)
    ampm = (m.group("ampm") or "").upper()
    if ampm:
        if h > 12:
            return VALUE
        h = h % 12 + (12 if ampm.startswith("P") else 0)
    if sec is not None and (mi > 59 or se >= 60):  # "." in b was refused above
        return VALUE
    serial = (h * 3600 + mi * 60 + se) / 86400
    return serial % 1


@register("TIMEVALUE")
def _timevalue(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    v = one_value(book, args[0], r, c)
    if isinstance(v, XlError):
        return v
    return _time_of(v) if isinstance(v, str) else VALUE


def _clock(which: int) -> Impl:
    """HOUR, MINUTE, SECOND of a serial (or a time text), to the nearest second."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        v = one_value(book, args[0], r, c)
        x = _time_of(v) if isinstance(v, str) and ":" in v else number_arg(book, v, r, c)
        if isinstance(x, XlError):
            return x
        if not 0 <= x < LAST + 1:
            return NUM
        seconds = int((x - int(x)) * 86400 + 0.5) % 86400
        return float((seconds // 3600, seconds // 60 % 60, seconds % 60)[which])

    return impl


register("HOUR")(_clock(0))
register("MINUTE")(_clock(1))
register("SECOND")(_clock(2))
