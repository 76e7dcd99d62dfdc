"""Date and time functions (Excel's category): DATE, TIME, YEAR, MONTH, DAY, TODAY, NOW,
WEEKDAY, WEEKNUM, ISOWEEKNUM, EDATE, EOMONTH, DATEDIF, DAYS, DAYS360, YEARFRAC, NETWORKDAYS,
WORKDAY (and their .INTL forms), HOUR, MINUTE, SECOND, DATEVALUE, TIMEVALUE.

Serial numbers are the workbook's: in the 1900 date system (Excel's default), with its leap
day, 1 is 1900-01-01, 60 the 29 February 1900 that Excel counts, 61 1900-03-01, and 0
"1900-01-00"; in the 1904 date system (``<workbookPr date1904="1"/>``), 0 is 1904-01-01.
Internally every date is a day of the 1900 system; :data:`DATE_OFFSET` converts.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
import re

from ..formula.coerce import DATE_OFFSET, EPOCH, LAST, number, read_date_time
from ..formula.values import NUM, VALUE, Area, Book, Result, Value, XlError
from .base import Impl, define, now, values_of

_MARCH_1900 = _dt.date(1900, 3, 1)  # from here on, serial = days since EPOCH


def _month_start(y: int, m: int) -> int:
    """The 1900 system's serial of the first day of month ``m`` of year ``y`` (1900-02-29
    counted)."""
    first = _dt.date(y, m, 1)
    return (first - EPOCH).days - (first < _MARCH_1900)


def ymd(serial: float) -> tuple[int, int, int]:
    """Year, month, day of a serial of the workbook's date system, as Excel shows it."""
    n = int(serial) + DATE_OFFSET.get()
    if n == 0:
        return 1900, 1, 0
    if n == 60:
        return 1900, 2, 29
    day = EPOCH + _dt.timedelta(days=n + (n < 60))
    return day.year, day.month, day.day


def weekday0(serial: float) -> int:
    """The weekday of a serial, Sunday 0 (serial 1 of the 1900 system is a Sunday)."""
    return (int(serial) + DATE_OFFSET.get() + 6) % 7


def _in_range(x: float) -> bool:
    return x >= 0 and x + DATE_OFFSET.get() < LAST + 1


def _date(x: Value) -> float | XlError:
    """A date argument (already a number): #NUM! outside the date system."""
    assert isinstance(x, float)
    return x if _in_range(x) else NUM


def _atp_number(v: Value) -> float | XlError:
    """A number argument of the functions that came from the Analysis ToolPak (WEEKNUM,
    NETWORKDAYS, WORKDAY and their .INTL forms): as arithmetic takes it, but TRUE and FALSE
    are #VALUE! (Excel's saved values)."""
    return VALUE if isinstance(v, bool) else number(v)


def _atp_date(v: Value) -> float | XlError:
    """A date argument of the Analysis ToolPak's functions: :func:`_atp_number`, then #NUM!
    outside the date system."""
    x = _atp_number(v)
    return x if isinstance(x, XlError) else _date(x)


def _serial_of(y: int, m: int, d: int) -> Result:
    """Excel's DATE arithmetic: months beyond 12 carry into years, days from the month's
    start; the workbook's serial."""
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        return NUM
    serial = _month_start(y, m) + d - 1 - DATE_OFFSET.get()
    return float(serial) if _in_range(serial) else NUM


@define("DATE", "n n n")
def _date_fn(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The serial of a year, month and day (each truncated; a year below 1900 is that many
    years after 1900; months and days beyond their range carry over)."""
    y, m, d = (int(p) for p in args)
    if y < 0 or y >= 10000:
        return NUM
    if y < 1900:
        y += 1900
    return _serial_of(y, m, d)  # DATE(0.9, 0.9, 0.9) is before day 0: #NUM!


@define("TIME", "n n n")
def _time(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The fraction of a day of an hour, minute and second (each truncated; beyond their range
    they carry over, the whole wrapping at 24 hours); a negative total is #NUM!."""
    h, m, s = (math.trunc(x) for x in args)
    if max(h, m, s) > 32767:
        return NUM
    seconds = h * 3600 + m * 60 + s
    if seconds < 0:
        return NUM
    days = seconds / 86400  # the day's fraction as Excel computes it: 24:02:03 is
    return days - math.floor(days)  # 1.0014236111111112 - 1, not 123/86400


def _part(which: int) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        x = _date(args[0])
        return x if isinstance(x, XlError) else float(ymd(x)[which])

    return impl


define("YEAR", "n")(_part(0))
define("MONTH", "n")(_part(1))
define("DAY", "n")(_part(2))


@define("TODAY", "")
def _today(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float((now().date() - EPOCH).days - DATE_OFFSET.get())


@define("NOW", "")
def _now_fn(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    moment = now()
    days = (moment.date() - EPOCH).days - DATE_OFFSET.get()
    seconds = moment.hour * 3600 + moment.minute * 60 + moment.second + moment.microsecond / 1e6
    return days + seconds / 86400


# WEEKDAY's return types: the weekday numbered 1 (or 0 for type 3), counted from Sunday = 0
_WEEK_STARTS = {1: (0, 1), 2: (1, 1), 3: (1, 0), 11: (1, 1), 12: (2, 1), 13: (3, 1),
                14: (4, 1), 15: (5, 1), 16: (6, 1), 17: (0, 1)}  # fmt: skip


@define("WEEKDAY", "n n?")
def _weekday(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    x = _date(args[0])
    if isinstance(x, XlError):
        return x
    start = _WEEK_STARTS.get(int(1.0 if args[1] is None else args[1]))
    if start is None:
        return NUM
    sunday_zero = weekday0(x)  # serial 0 is a Saturday in Excel, serial 1 a Sunday
    first, base = start
    return float((sunday_zero - first) % 7 + base)


def _months_on(end_of_month: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        if any(isinstance(a, bool) for a in args):
            return VALUE  # TRUE or FALSE for a date or months: #VALUE! (Excel's cached values)
        x, k = number(args[0]), number(args[1])
        if isinstance(x, XlError):
            return x
        if isinstance(k, XlError):
            return k
        x = _date(x)
        if isinstance(x, XlError):
            return x
        y, m, d = ymd(x)
        total = y * 12 + (m - 1) + int(k)  # Excel truncates the months
        y, m = divmod(total, 12)
        m += 1
        if not 1900 <= y <= 9999:
            return NUM
        start = _month_start(y, m) - DATE_OFFSET.get()
        length = 29 if (y, m) == (1900, 2) else calendar.monthrange(y, m)[1]  # Excel's 1900-02-29
        last = start + length - 1
        return float(last if end_of_month else min(start + max(d, 1) - 1, last))

    return impl


define("EDATE", "v v", single=True)(_months_on(False))
define("EOMONTH", "v v", single=True)(_months_on(True))


@define("DATEDIF", "n n s")
def _datedif(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """Whole years, months or days between two dates (Excel's compatibility function,
    "MD" with Excel's own arithmetic: it can be negative, as Excel documents)."""
    start, end, unit = _date(args[0]), _date(args[1]), args[2]
    for v in (start, end):
        if isinstance(v, XlError):
            return v
    assert isinstance(start, float) and isinstance(end, float) and isinstance(unit, str)
    if int(start) > int(end):  # the dates' days: a later time on the same day is no error
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
        anniversary = _month_start(y, m + 1) + min(d1, last) - 1 - DATE_OFFSET.get()
        return float(int(end) - anniversary)
    return NUM


@define("DAYS", "n n")
def _days(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    end, start = _date(args[0]), _date(args[1])
    if isinstance(end, XlError):
        return end
    if isinstance(start, XlError):
        return start
    return float(int(end) - int(start))


def _leap(y: int) -> bool:
    return calendar.isleap(y) or y == 1900  # Excel's 1900 has a 29 February


def _last_of_february(y: int, m: int, d: int) -> bool:
    return m == 2 and d == (29 if _leap(y) else 28)


@define("YEARFRAC", "n n v", single=True)
def _yearfrac(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The fraction of a year between two dates, by Excel's five day-count bases: 0 US (NASD)
    30/360, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360."""
    if isinstance(args[2], bool | str):
        return VALUE
    basis = number(args[2])  # checked first, as Excel does
    if isinstance(basis, XlError):
        return basis
    kind = int(basis)
    if kind not in (0, 1, 2, 3, 4):
        return NUM
    start, end = _date(args[0]), _date(args[1])
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


@define("TIMEVALUE", "v")
def _timevalue(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The time of day a text gives, as a fraction of a day (any date in it left out)."""
    v = args[0]
    if not isinstance(v, str):
        return VALUE
    found = read_date_time(v)
    return VALUE if found is None else found % 1


@define("DATEVALUE", "v")
def _datevalue(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The serial of the date a text gives (any time in it left out)."""
    v = args[0]
    if not isinstance(v, str):
        return VALUE
    found = read_date_time(v)
    if found is None or (found < 1 and not re.search(r"\d[-/ ]", v)):
        return VALUE
    return float(math.floor(found))


def _clock(which: int) -> Impl:
    """HOUR, MINUTE, SECOND of a serial (or a time text), to the nearest second."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        x = args[0]
        if not 0 <= x < LAST + 1:
            return NUM
        seconds = int((x - int(x)) * 86400 + 0.5) % 86400
        return float((seconds // 3600, seconds // 60 % 60, seconds % 60)[which])

    return impl


define("HOUR", "n")(_clock(0))
define("MINUTE", "n")(_clock(1))
define("SECOND", "n")(_clock(2))


# --- weeks and working days ------------------------------------------------------------------


@define("WEEKNUM", "v r?", single=True)
def _weeknum(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The week of the year: the week holding 1 January is week 1, weeks starting on Sunday
    (type 1 or 17), Monday (2 or 11), ... Sunday (17); type 21 is the ISO week. The date is
    judged first: one out of range is #NUM! whatever the type (an error or text in its cell
    too), TRUE or FALSE for either is #VALUE! (Excel's saved values). The type is taken as a
    reference to tell a blank cell (type 0, #NUM!) from a type left out (1)."""
    x = _atp_date(args[0])  # type: ignore[arg-type]
    if isinstance(x, XlError):
        return x
    kind_given = args[1]
    if isinstance(kind_given, Area):
        if kind_given.rows != 1 or kind_given.cols != 1:
            return VALUE  # one cell only, as the Analysis ToolPak's functions take
        kind_given = book.value(kind_given.sheet, kind_given.r1, kind_given.c1)
        if kind_given is None:
            return NUM  # a blank cell is type 0
    if isinstance(kind_given, list):
        return VALUE
    given = 1.0 if kind_given is None else _atp_number(kind_given)
    if isinstance(given, XlError):
        return given
    kind = int(given)
    if kind == 21:
        return _isoweek(x)
    starts = {1: 0, 2: 1, 11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 16: 6, 17: 0}
    if kind not in starts:
        return NUM
    y = ymd(x)[0]
    first = _month_start(y, 1) - DATE_OFFSET.get()
    shift = (weekday0(first) - starts[kind]) % 7
    return float((int(x) - first + shift) // 7 + 1)


def _isoweek(x: float) -> Result:
    """The ISO week (weeks from Monday, week 1 the one holding the year's first Thursday) in
    Excel's calendar: its weekdays, in which 1900-01-01 is a Sunday (ISOWEEKNUM(1) is 52, of
    1899), and its 29 February 1900."""
    monday0 = (weekday0(x) + 6) % 7
    thursday = int(x) - monday0 + 3  # the week's Thursday decides its year
    if thursday + DATE_OFFSET.get() < 1:  # in 1899, before the date system
        january1 = _month_start(1900, 1) - 365 - DATE_OFFSET.get()
    else:
        january1 = _month_start(ymd(thursday)[0], 1) - DATE_OFFSET.get()
    return float((thursday - january1) // 7 + 1)


@define("ISOWEEKNUM", "n")
def _isoweeknum(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    x = _date(args[0])
    return x if isinstance(x, XlError) else _isoweek(x)


_WEEKENDS = {1: "0000011", 2: "1000001", 3: "1100000", 4: "0110000", 5: "0011000",
             6: "0001100", 7: "0000110", 11: "0000001", 12: "1000000", 13: "0100000",
             14: "0010000", 15: "0001000", 16: "0000100", 17: "0000010"}  # fmt: skip


def _weekend(v: Value, every_day: bool) -> str | XlError:
    """NETWORKDAYS.INTL's and WORKDAY.INTL's weekend: a number (1 Saturday and Sunday ...) or
    seven 0s and 1s from Monday; seven 1s only where ``every_day`` allows it (NETWORKDAYS.INTL
    counts 0 working days, WORKDAY.INTL finds none: #VALUE!)."""
    if v is None:
        return _WEEKENDS[1]
    if isinstance(v, str):
        if len(v) != 7 or set(v) - {"0", "1"} or (v == "1111111" and not every_day):
            return VALUE
        return v
    if isinstance(v, bool) or not isinstance(v, float):
        return VALUE
    return _WEEKENDS.get(int(v), NUM)


def _holidays(book: Book, v: Result) -> set[int] | XlError:
    days: set[int] = set()
    if v is None:
        return days
    for x in values_of(book, v):
        if isinstance(x, XlError):
            return x
        if x is None:
            continue
        if not isinstance(x, float) or isinstance(x, bool):
            return VALUE
        if not _in_range(x):
            return NUM  # a holiday before the first date or after the last
        days.add(int(x))
    return days


def _working(book: Book, weekend: Value, holidays: Result, every_day: bool
             ) -> tuple[str, set[int]] | XlError:  # fmt: skip
    mask = _weekend(weekend, every_day)
    if isinstance(mask, XlError):
        return mask
    days = _holidays(book, holidays)
    return days if isinstance(days, XlError) else (mask, days)


def _is_workday(serial: int, mask: str, holidays: set[int]) -> bool:
    monday0 = (weekday0(serial) + 6) % 7
    return mask[monday0] == "0" and serial not in holidays


def _networkdays(book: Book, args: list[Result], weekend: Value) -> Result:
    start, end, holidays = args[0], args[1], args[2]
    found = _working(book, weekend, holidays, True)
    if isinstance(found, XlError):
        return found
    a, b = _atp_date(start), _atp_date(end)  # type: ignore[arg-type]
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    mask, days = found
    a, b = int(a), int(b)  # the days: a later time on the same day counts no less
    lo, hi = sorted((a, b))
    whole_weeks = (hi - lo + 1) // 7
    count = whole_weeks * mask.count("0")
    count += sum(1 for k in range(lo + whole_weeks * 7, hi + 1) if _is_workday(k, mask, set()))
    count -= sum(1 for h in days if lo <= h <= hi and _is_workday(h, mask, set()))
    return float(count if b >= a else -count)


@define("NETWORKDAYS", "v v r", single=True)
def _networkdays_fn(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return _networkdays(book, args, None)


@define("NETWORKDAYS.INTL", "v v v r")
def _networkdays_intl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return _networkdays(book, [args[0], args[1], args[3]], args[2])  # type: ignore[arg-type]


def _workday(book: Book, args: list[Result], weekend: Value) -> Result:
    start, offset, holidays = args[0], args[1], args[2]
    found = _working(book, weekend, holidays, False)
    if isinstance(found, XlError):
        return found
    a = _atp_date(start)  # type: ignore[arg-type]
    if isinstance(a, XlError):
        return a
    k = _atp_number(offset)  # type: ignore[arg-type]
    if isinstance(k, XlError):
        return k
    mask, days = found
    if abs(k) > LAST:
        return NUM  # beyond the date system whatever the weekends
    whole = math.floor(k)  # down: -0.5 working days is one day back (Excel's saved values)
    step = 1 if whole >= 0 else -1
    left = abs(whole)
    day = int(a)
    while left:
        day += step
        if _is_workday(day, mask, days):
            left -= 1
        if not _in_range(day):
            return NUM
    return float(day)


@define("WORKDAY", "v v r", single=True)
def _workday_fn(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return _workday(book, args, None)


@define("WORKDAY.INTL", "v v v r")
def _workday_intl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return _workday(book, [args[0], args[1], args[3]], args[2])  # type: ignore[arg-type]


def _to_second(x: float) -> float:
    """A serial rounded to the second, as DAYS360 reads its dates: 23:59:59.991 is the next
    day (Excel's saved values; DAYS and NETWORKDAYS cut the time off instead)."""
    return math.floor(x * 86400 + 0.5) / 86400


@define("DAYS360", "n n b?")
def _days360(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """Days between two dates in a year of twelve 30-day months: the US (NASD) method, or the
    European one with ``method`` TRUE."""
    a, b = _date(args[0]), _date(args[1])
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    (y1, m1, d1), (y2, m2, d2) = ymd(_to_second(a)), ymd(_to_second(b))
    if args[2]:
        d1, d2 = min(d1, 30), min(d2, 30)
    else:
        if _last_of_february(y1, m1, d1):
            d1 = 30
        if d1 == 31:
            d1 = 30
        if d2 == 31 and d1 >= 30:
            d2 = 30
    return float(360 * (y2 - y1) + 30 * (m2 - m1) + d2 - d1)
