"""Bonds with an odd first or last coupon period (Excel's Financial category): ODDFPRICE,
ODDFYIELD, ODDLPRICE, ODDLYIELD.

Excel's function reference gives the formulas: the odd period is cut into quasi-coupon
periods (stepping 12/frequency months from the first coupon back to the issue, or from the
last coupon on to maturity), each period's accrued days over its normal length (Mayle's
method, as :mod:`.securities` applies it for ACCRINT); a short first period is priced with
the days from settlement to the first coupon over the coupon period's length. The yields are
the roots of the prices (ODDLYIELD in closed form). The dates must follow each other: issue,
settlement, first coupon, maturity (else ``#NUM!``), and so must last interest, settlement,
maturity.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base`, :mod:`.securities` and the
standard library.
"""

from __future__ import annotations

import math

from ..formula.values import NUM, Book, Result, Value, XlError
from .base import Impl, define
from .securities import (
    Day,
    add_months,
    bond_args,
    coupon_count,
    coupons,
    days360_us,
    days_between,
    last_day,
    period_days,
    solve_yield,
    to_day,
)


def _days(a: Day, b: Day, basis: int) -> float:
    """Days from a to b in the basis, never below 0."""
    return max(days_between(a, b, basis), 0.0)


def _days_both(a: Day, b: Day, basis: int) -> float:
    """The same, with 30/360 US moving both ends (the length of an odd last period)."""
    return max(days360_us(a, b, both=True), 0.0) if basis == 0 else _days(a, b, basis)


def _quasi_count(anchor: Day, settlement: Day, months: int) -> int:
    """The whole quasi-coupon periods from settlement to ``anchor`` (the first coupon)."""
    month_end = last_day(anchor)
    if not month_end and anchor.month != 2 and anchor.day > 28:
        month_end = last_day(settlement)
    start = add_months(settlement, 0, month_end)
    count = 1 if settlement < start else 0
    front = add_months(start, months, month_end)
    while front < anchor:
        count += 1
        front = add_months(front, months, month_end)
    return count


def _first_price(s: Day, m: Day, issue: Day, first: Day, rate: float, yld: float,
                 redemption: float, frequency: int, basis: int) -> float:  # fmt: skip
    """ODDFPRICE's formula, for a short or a long first period."""
    months = 12 // frequency
    coupon = 100 * rate / frequency
    base = 1 + yld / frequency
    e = period_days(*coupons(s, first, frequency), frequency, basis)
    dfc = _days(issue, first, basis)
    if dfc < e:  # a short first period
        n = coupon_count(s, m, frequency)
        y = _days(s, first, basis) / e
        total = redemption / math.pow(base, n - 1 + y) + coupon * dfc / e / math.pow(base, y)
        for k in range(2, n + 1):
            total += coupon / math.pow(base, k - 1 + y)
        return total - _days(issue, s, basis) / e * coupon
    # a long one: its quasi-coupon periods back from the first coupon to the issue
    late = first
    dc_nl = a_nl = 0.0
    for index in range(coupon_count(issue, first, frequency), 0, -1):
        early = add_months(late, -months, False)
        nl = _days(early, late, basis) if basis == 1 else e
        dc = nl if index > 1 else _days(issue, late, basis)
        a_nl += _days(max(issue, early), min(s, late), basis) / nl
        dc_nl += dc / nl
        late = early
    before, after = coupons(s, first, frequency)
    dsc = _days(s, after, basis) if basis in (2, 3) else e - days_between(before, s, basis)
    nq = _quasi_count(first, s, months)
    n = coupon_count(first, m, frequency)
    y = dsc / e
    total = redemption / math.pow(base, y + nq + n) + coupon * dc_nl / math.pow(base, nq + y)
    for k in range(1, n + 1):
        total += coupon / math.pow(base, k + nq + y)
    return total - coupon * a_nl


def _last(s: Day, m: Day, last: Day, rate: float, given: float, redemption: float,
          frequency: int, basis: int, price: bool) -> float:  # fmt: skip
    """ODDLPRICE (``given`` the yield) or ODDLYIELD (``given`` the price), in closed form."""
    months = 12 // frequency
    early = last
    dc_nl = a_nl = dsc_nl = 0.0
    periods = coupon_count(last, m, frequency)
    for index in range(1, periods + 1):
        late = add_months(early, months, False)
        nl = _days_both(early, late, basis)
        dc = nl if index < periods else _days_both(early, m, basis)
        if late < s:
            a = dc
        elif early < s:
            a = _days(early, s, basis)
        else:
            a = 0.0
        dsc_nl += _days(max(s, early), min(m, late), basis) / nl
        dc_nl += dc / nl
        a_nl += a / nl
        early = late
    coupon = 100 * rate / frequency
    top = dc_nl * coupon + redemption
    if price:
        return top / (dsc_nl * given / frequency + 1) - a_nl * coupon
    paid = a_nl * coupon + given
    return (top - paid) / paid * frequency / dsc_nl


def _odd_first(price: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        order = [args[2], args[0], args[3], args[1], *args[4:]]  # issue < settle < first < mat
        checked = bond_args(order, 4, 8, 7)
        if isinstance(checked, XlError):
            return checked
        (issue_n, settle_n, first_n, mature_n, rate, given, redemption, *_), freq, basis = checked
        if not issue_n < settle_n < first_n < mature_n:
            return NUM
        if rate < 0 or given < 0 or redemption <= 0 or (given == 0 and not price):
            return NUM
        issue, s, first, m = (to_day(x) for x in (issue_n, settle_n, first_n, mature_n))
        if price:
            return _first_price(s, m, issue, first, rate, given, redemption, freq, basis)
        found = solve_yield(
            lambda y: _first_price(s, m, issue, first, rate, y, redemption, freq, basis),
            given, rate)  # fmt: skip
        return NUM if found is None else found

    return impl


def _odd_last(price: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        order = [args[2], args[0], args[1], *args[3:]]  # last interest < settlement < maturity
        checked = bond_args(order, 3, 7, 6)
        if isinstance(checked, XlError):
            return checked
        (last_n, settle_n, mature_n, rate, given, redemption, *_), freq, basis = checked
        if not last_n < settle_n < mature_n:
            return NUM
        if rate < 0 or given < 0 or redemption <= 0 or (given == 0 and not price):
            return NUM
        found = _last(to_day(settle_n), to_day(mature_n), to_day(last_n), rate, given,
                      redemption, freq, basis, price)  # fmt: skip
        return found if math.isfinite(found) else NUM

    return impl


define("ODDFPRICE", "v v v v v v v v v?", single=True)(_odd_first(True))
define("ODDFYIELD", "v v v v v v v v v?", single=True)(_odd_first(False))
define("ODDLPRICE", "v v v v v v v v?", single=True)(_odd_last(True))
define("ODDLYIELD", "v v v v v v v v?", single=True)(_odd_last(False))
