"""The securities of Excel's Financial category: coupon bonds (PRICE, YIELD, DURATION,
MDURATION, ACCRINT, ACCRINTM, the COUP functions), discounted and interest-at-maturity
securities (DISC, INTRATE, RECEIVED, PRICEDISC, YIELDDISC, PRICEMAT, YIELDMAT) and
Treasury bills (TBILLEQ, TBILLPRICE, TBILLYIELD).

Excel's function reference gives each formula; the day counts are its five bases (0 US
NASD 30/360, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360) and the coupon
dates step back from maturity by 12/frequency months, on the last day of each month where
maturity is one (Mayle, "Standard Securities Calculation Methods", as Excel applies it). A
date is truncated to a day; settlement not before maturity, a frequency other than 1, 2 or
4, or a basis outside 0 to 4 is ``#NUM!``; a logical given is ``#VALUE!`` (these came from
the Analysis ToolPak).

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.dates`, :mod:`.financial` and the standard library.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
from collections.abc import Callable

from ..formula.coerce import DATE_OFFSET, EPOCH
from ..formula.values import NUM, VALUE, Book, Result, Value, XlError
from .base import FUNCTIONS, Impl, define
from .dates import ymd
from .financial import atp_numbers

Day = _dt.date


def to_day(serial: float) -> Day:
    return Day(*ymd(serial))


def to_serial(d: Day) -> float:
    return float((d - EPOCH).days - (d < Day(1900, 3, 1)) - DATE_OFFSET.get())


def last_day(d: Day) -> bool:
    return d.day == calendar.monthrange(d.year, d.month)[1]


def add_months(d: Day, months: int, month_end: bool) -> Day:
    """d moved by whole months, its day kept where the month has it (else the month's last),
    or the month's last day where ``month_end``."""
    total = d.year * 12 + d.month - 1 + months
    y, m = divmod(total, 12)
    last = calendar.monthrange(y, m + 1)[1]
    return Day(y, m + 1, last if month_end else min(d.day, last))


def days360_us(a: Day, b: Day, both: bool = False) -> float:
    """US (NASD) 30/360 days from a to b; ``both`` moves a last of February at the end to
    the 30th whatever the start (the length of a coupon period)."""
    d1, d2 = a.day, b.day
    feb_a = a.month == 2 and last_day(a)
    feb_b = b.month == 2 and last_day(b)
    if feb_b and (feb_a or both):
        d2 = 30
    if d2 == 31 and (d1 >= 30 or both):
        d2 = 30
    if d1 == 31 or feb_a:
        d1 = 30
    return float(360 * (b.year - a.year) + 30 * (b.month - a.month) + d2 - d1)


def days_between(a: Day, b: Day, basis: int) -> float:
    """Days from a to b in a basis: 30/360 for 0 and 4, actual for the others."""
    if basis == 0:
        return days360_us(a, b)
    if basis == 4:
        return float(360 * (b.year - a.year) + 30 * (b.month - a.month)
                     + min(b.day, 30) - min(a.day, 30))  # fmt: skip
    return float((b - a).days)


def _year_fraction(book: Book, a: float, b: float, basis: int) -> float:
    """YEARFRAC's fraction of a year, the denominator of the discounted securities."""
    impl = FUNCTIONS["YEARFRAC"].impl
    assert impl is not None
    found = impl(book, "", 0, 0, [a, b, float(basis)])
    assert isinstance(found, float)
    return found


# --- the coupon schedule ------------------------------------------------------------------


def coupons(settlement: Day, maturity: Day, frequency: int) -> tuple[Day, Day]:
    """The coupon dates before (or on) and after settlement."""
    step = 12 // frequency
    month_end = last_day(maturity)
    front = trailing = maturity
    while front > settlement:
        trailing = front
        front = add_months(front, -step, month_end)
    return front, trailing


def coupon_count(settlement: Day, maturity: Day, frequency: int) -> int:
    after = coupons(settlement, maturity, frequency)[1]
    months = (maturity.year - after.year) * 12 + maturity.month - after.month
    return months // (12 // frequency) + 1


def period_days(before: Day, after: Day, frequency: int, basis: int) -> float:
    """E, the days of the coupon period (actual for basis 1, else 360 or 365 a year)."""
    if basis == 1:
        return float((after - before).days)
    return (365.0 if basis == 3 else 360.0) / frequency


def _since(before: Day, settlement: Day, basis: int) -> float:
    """A, the days from the coupon period's start to settlement."""
    return days_between(before, settlement, basis)


def _until(before: Day, settlement: Day, after: Day, frequency: int, basis: int) -> float:
    """DSC, the days from settlement to the next coupon (for 30/360 US, the period's days
    less those before settlement)."""
    if basis == 0:
        return days360_us(before, after, both=True) - days360_us(before, settlement)
    return days_between(settlement, after, basis)


def bond_args(args: list[Value], n_dates: int, basis_at: int, freq_at: int | None
               ) -> tuple[list[float], int, int] | XlError:  # fmt: skip
    """The numbers (dates truncated), the frequency and the basis, checked: a logical is
    #VALUE!, settlement not before maturity, a frequency other than 1, 2, 4 or a basis
    outside 0 to 4 is #NUM!."""
    given = list(args)
    if given[basis_at] is None:
        given[basis_at] = 0.0
    found = atp_numbers(given)
    if isinstance(found, XlError):
        return found
    for i in range(n_dates):
        found[i] = float(math.floor(found[i]))
    basis = math.trunc(found[basis_at])
    frequency = math.trunc(found[freq_at]) if freq_at is not None else 1
    if not 0 <= basis <= 4 or frequency not in (1, 2, 4) or found[0] >= found[1]:
        return NUM
    if min(found[:n_dates]) < 0:
        return NUM
    return found, frequency, basis


def _coupon_function(what: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        checked = bond_args(args, 2, 3, 2)
        if isinstance(checked, XlError):
            return checked
        (settle, mature, *_), frequency, basis = checked
        s, m = to_day(settle), to_day(mature)
        before, after = coupons(s, m, frequency)
        if what == "PCD":
            return to_serial(before)
        if what == "NCD":
            return to_serial(after)
        if what == "NUM":
            return float(coupon_count(s, m, frequency))
        if what == "DAYS":
            return period_days(before, after, frequency, basis)
        if what == "DAYBS":
            return _since(before, s, basis)
        return _until(before, s, after, frequency, basis)

    return impl


for _what in ("PCD", "NCD", "NUM", "DAYS", "DAYBS", "DAYSNC"):
    define(f"COUP{_what}", "v v v v?", single=True)(_coupon_function(_what))


# --- coupon bonds --------------------------------------------------------------------------


def _price(s: Day, m: Day, rate: float, yld: float, redemption: float, frequency: int,
           basis: int) -> float:  # fmt: skip
    """PRICE's formula: the coupons and the redemption discounted from the next coupon date
    (simple interest for the last period), less the interest accrued."""
    before, after = coupons(s, m, frequency)
    e = period_days(before, after, frequency, basis)
    a = _since(before, s, basis)
    dsc = e - a  # Excel's DSC here, whatever the basis counts from settlement
    n = coupon_count(s, m, frequency)
    coupon = 100 * rate / frequency
    if n == 1:
        return (redemption + coupon) / (1 + dsc / e * yld / frequency) - a / e * coupon
    base = 1 + yld / frequency
    total = redemption / math.pow(base, n - 1 + dsc / e)
    for k in range(1, n + 1):
        total += coupon / math.pow(base, k - 1 + dsc / e)
    return total - a / e * coupon


def solve_yield(price: Callable[[float], float], target: float, guess: float) -> float | None:
    """The yield whose price is ``target``: Newton's steps (a numeric derivative), bisection
    where they stray; None where no yield gives it."""
    y = guess
    for _ in range(100):
        f = price(y) - target
        if abs(f) < 1e-12 * max(1.0, abs(target)):
            return y
        h = max(abs(y), 1.0) * 1e-7
        slope = (price(y + h) - price(y - h)) / (2 * h)
        if slope == 0 or not math.isfinite(slope):
            break
        nxt = y - f / slope
        if abs(nxt - y) < 1e-15 * max(abs(y), 1.0):
            return nxt
        y = nxt
    lo, hi = -0.999999, 10.0
    if (price(lo) - target) * (price(hi) - target) > 0:
        return None
    for _ in range(200):
        mid = (lo + hi) / 2
        if (price(lo) - target) * (price(mid) - target) <= 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


@define("PRICE", "v v v v v v v?", single=True)
def _price_fn(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    checked = bond_args(args, 2, 6, 5)
    if isinstance(checked, XlError):
        return checked
    (settle, mature, rate, yld, redemption, *_), frequency, basis = checked
    if rate < 0 or yld < 0 or redemption <= 0:
        return NUM
    return _price(to_day(settle), to_day(mature), rate, yld, redemption, frequency, basis)


@define("YIELD", "v v v v v v v?", single=True)
def _yield_fn(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The yield of a coupon bond at a price: in closed form with one coupon left, else the
    root of PRICE."""
    checked = bond_args(args, 2, 6, 5)
    if isinstance(checked, XlError):
        return checked
    (settle, mature, rate, pr, redemption, *_), frequency, basis = checked
    if rate < 0 or pr <= 0 or redemption <= 0:
        return NUM
    s, m = to_day(settle), to_day(mature)
    before, after = coupons(s, m, frequency)
    if coupon_count(s, m, frequency) == 1:
        e = period_days(before, after, frequency, basis)
        a = _since(before, s, basis)
        dsr = _until(before, s, after, frequency, basis)
        paid = pr / 100 + a / e * rate / frequency
        return (redemption / 100 + rate / frequency - paid) / paid * frequency * e / dsr
    found = solve_yield(lambda y: _price(s, m, rate, y, redemption, frequency, basis), pr, rate)
    return NUM if found is None else found


def _duration(modified: bool) -> Impl:
    """DURATION (Macaulay's, in years) and MDURATION (divided by 1 + yield/frequency)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        checked = bond_args(args, 2, 5, 4)
        if isinstance(checked, XlError):
            return checked
        (settle, mature, coupon, yld, *_), frequency, basis = checked
        if coupon < 0 or yld < 0:
            return NUM
        s, m = to_day(settle), to_day(mature)
        before, after = coupons(s, m, frequency)
        e = period_days(before, after, frequency, basis)
        dsc = _until(before, s, after, frequency, basis)
        n = coupon_count(s, m, frequency)
        base = 1 + yld / frequency
        weighted = total = 0.0
        for k in range(1, n + 1):
            t = k - 1 + dsc / e
            flow = 100 * coupon / frequency + (100 if k == n else 0)
            present = flow / math.pow(base, t)
            weighted += t * present
            total += present
        years = weighted / total / frequency
        return years / base if modified else years

    return impl


define("DURATION", "v v v v v v?", single=True)(_duration(False))
define("MDURATION", "v v v v v v?", single=True)(_duration(True))


@define("ACCRINT", "v v v v v v v? v?", single=True)
def _accrint(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The interest accrued from issue (or, with ``calc_method`` FALSE, from the first
    interest date) to settlement: par · rate/frequency · Σ Aᵢ/NLᵢ over the quasi-coupon
    periods, the days accrued in each over its normal length (Mayle's method)."""
    method = args[7]
    if isinstance(method, str | XlError):
        return method if isinstance(method, XlError) else VALUE
    by_issue = method is None or bool(method)
    given = [args[0], args[2], args[1], *args[3:7]]  # issue, settlement first for the check
    checked = bond_args(given, 3, 6, 5)
    if isinstance(checked, XlError):
        return checked
    (issue_n, settle_n, first_n, rate, par, *_), frequency, basis = checked
    if rate <= 0 or par <= 0:
        return NUM
    issue, first, settle = to_day(issue_n), to_day(first_n), to_day(settle_n)
    step = 12 // frequency
    month_end = last_day(first)
    whole = 1.0 if by_issue else 0.0
    regular = add_months(first, -step, month_end)
    start = regular
    if settle > first and by_issue:  # the schedule's last date before settlement
        front = first
        while front < settle:
            start, front = front, add_months(front, step, month_end)
    accrued = days_between(max(issue, start), settle, basis) / period_days(
        regular, first, frequency, basis
    )
    front = start
    while front > issue:
        end = front
        front = add_months(front, -step, month_end)
        if issue <= front:
            accrued += whole
            continue
        days = days360_us(issue, end) if basis == 0 else days_between(issue, end, basis)
        if basis == 0:
            length = days360_us(front, end, both=True)
        elif basis == 3:
            length = 365.0 / frequency
        elif basis == 2:
            length = days360_us(front, end)
        else:
            length = days_between(front, end, basis)
        accrued += days / length
    return par * rate / frequency * accrued


@define("ACCRINTM", "v v v v v?", single=True)
def _accrintm(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The interest of a security paying it at maturity: par · rate · the year fraction."""
    checked = bond_args(args, 2, 4, None)
    if isinstance(checked, XlError):
        return checked
    (issue, settle, rate, par, *_), _, basis = checked
    if rate <= 0 or par <= 0:
        return NUM
    return par * rate * _year_fraction(book, issue, settle, basis)


# --- discounted securities and Treasury bills --------------------------------------------


def _discounted(formula: Callable[[float, float, float], float | None]) -> Impl:
    """DISC, INTRATE, RECEIVED, PRICEDISC, YIELDDISC: a formula of the two amounts given
    and the year fraction from settlement to maturity; an amount not above 0 is #NUM!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        checked = bond_args(args, 2, 4, None)
        if isinstance(checked, XlError):
            return checked
        (settle, mature, a, b, *_), _, basis = checked
        if a <= 0 or b <= 0:
            return NUM
        found = formula(a, b, _year_fraction(book, settle, mature, basis))
        return NUM if found is None or not math.isfinite(found) else found

    return impl


define("DISC", "v v v v v?", single=True)(_discounted(lambda pr, red, t: (red - pr) / red / t))
define("INTRATE", "v v v v v?", single=True)(_discounted(lambda inv, red, t: (red - inv) / inv / t))
define("RECEIVED", "v v v v v?", single=True)(
    _discounted(lambda inv, disc, t: inv / (1 - disc * t) if disc * t < 1 else None)
)
define("PRICEDISC", "v v v v v?", single=True)(
    _discounted(lambda disc, red, t: red - disc * red * t)
)
define("YIELDDISC", "v v v v v?", single=True)(_discounted(lambda pr, red, t: (red - pr) / pr / t))


def _at_maturity(price: bool) -> Impl:
    """PRICEMAT and YIELDMAT: a security paying its interest at maturity, the year
    fractions from issue (to maturity, to settlement) and from settlement to maturity."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        checked = bond_args(args, 3, 5, None)
        if isinstance(checked, XlError):
            return checked
        (settle, mature, issue, rate, given, *_), _, basis = checked
        if rate < 0 or given < 0 or (given == 0 and not price):
            return NUM
        dim = _year_fraction(book, issue, mature, basis)
        a = _year_fraction(book, issue, settle, basis)
        dsm = _year_fraction(book, settle, mature, basis)
        if price:
            return (100 + dim * rate * 100) / (1 + dsm * given) - a * rate * 100
        paid = given / 100 + a * rate
        return ((1 + dim * rate) - paid) / paid / dsm

    return impl


define("PRICEMAT", "v v v v v v?", single=True)(_at_maturity(True))
define("YIELDMAT", "v v v v v v?", single=True)(_at_maturity(False))


def _tbill(which: str) -> Impl:
    """TBILLPRICE, TBILLYIELD, TBILLEQ: a bill of at most a year, its days counted actual
    over 360; TBILLEQ the bond-equivalent yield (over 365, compounded past half a year)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = atp_numbers(args)
        if isinstance(found, XlError):
            return found
        settle, mature, x = math.floor(found[0]), math.floor(found[1]), found[2]
        days = mature - settle
        if (
            settle >= mature
            or x <= 0
            or days > 366
            or to_day(mature) > add_months(to_day(settle), 12, False)
        ):
            return NUM
        if which == "PRICE":
            price = 100 * (1 - x * days / 360)
            return price if price > 0 else NUM
        if which == "YIELD":
            return (100 - x) / x * 360 / days
        if days <= 182:
            return 365 * x / (360 - x * days)
        price = 100 * (1 - x * days / 360)
        if price <= 0:
            return NUM
        term = days / (366 if days == 366 else 365)  # a leap year's bill: Excel's 366
        root = term * term - (2 * term - 1) * (1 - 100 / price)
        if root < 0:
            return NUM
        return (-term + math.sqrt(root)) / (term - 0.5)

    return impl


define("TBILLPRICE", "v v v", single=True)(_tbill("PRICE"))
define("TBILLYIELD", "v v v", single=True)(_tbill("YIELD"))
define("TBILLEQ", "v v v", single=True)(_tbill("EQ"))
