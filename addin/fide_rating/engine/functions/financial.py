"""Financial functions (Excel's category): PV, FV, PMT, NPER, RATE, IPMT, PPMT, NPV, XNPV,
IRR, XIRR, MIRR, EFFECT, NOMINAL; RRI, PDURATION, FVSCHEDULE, ISPMT, CUMIPMT, CUMPRINC,
DOLLARDE, DOLLARFR. The securities (bonds, bills) are :mod:`.securities`, the depreciation
functions :mod:`.depreciation`.

The time-value formulas are those of Excel's function reference (and of OpenFormula, which
writes them out): ``type`` 1 is a payment at the start of each period.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..formula.coerce import cancelled, number
from ..formula.values import DIV0, NUM, VALUE, Book, Result, Value, XlError, as_grid
from .base import Impl, define, numbers_of


def with_defaults(args: list[float | None], *defaults: float) -> list[float]:
    """The arguments, those left out (or written empty) given their defaults in order from
    the first optional one."""
    first = len(args) - len(defaults)
    filled = (0.0,) * first + defaults
    return [d if v is None and i >= first else (v or 0.0)
            for i, (v, d) in enumerate(zip(args, filled, strict=True))]  # fmt: skip


def _growth(rate: float, nper: float) -> float | XlError:
    """(1 + rate) ** nper - 1, to the last bit (``expm1`` and ``log1p``: Excel's own figures,
    which a plain power misses by some units in the 15th digit). A rate below -100 % has a
    power for a whole ``nper`` only (else #NUM!), -100 % none for a negative one (#DIV/0!),
    as Excel's saved values show."""
    try:
        if rate > -1:
            return math.expm1(nper * math.log1p(rate))
        if rate == -1:
            return DIV0 if nper < 0 else -1.0 if nper > 0 else 0.0
        if nper != math.floor(nper):
            return NUM
        return math.pow(1 + rate, nper) - 1
    except (OverflowError, ValueError):
        return NUM


@define("PV", "n n n n? n?")
def _pv(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    found = with_defaults(args, 0.0, 0.0)
    rate, nper, pmt, fv, when = found
    if rate == 0:
        return -(fv + pmt * nper)
    g = _growth(rate, nper)
    if isinstance(g, XlError):
        return g
    if g == -1:  # nothing left of a value after nper periods: none to discount back
        return DIV0
    return -(fv + pmt * (1 + rate * (when != 0)) * g / rate) / (g + 1)


@define("FV", "n n n n? n?")
def _fv(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    found = with_defaults(args, 0.0, 0.0)
    rate, nper, pmt, pv, when = found
    if rate == 0:
        return -(pv + pmt * nper)
    g = _growth(rate, nper)
    if isinstance(g, XlError):
        return g
    grown, paid = pv + pv * g, pmt * (1 + rate * (when != 0)) * g / rate
    total = grown + paid
    if cancelled(total, min(grown, paid, key=abs)):
        return 0.0  # the value and the payments cancelled to their last bits: 0, as in Excel
    return -total


@define("PMT", "n n n n? n?")
def _pmt(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    found = with_defaults(args, 0.0, 0.0)
    rate, nper, pv, fv, when = found
    if nper == 0:
        return NUM
    if rate == 0:
        return -(pv + fv) / nper
    if rate <= -1:  # Excel's PMT takes no rate of -100 % or below (its saved values)
        return NUM
    g = _growth(rate, nper)
    if isinstance(g, XlError) or g == 0:
        return NUM
    # -r (pv (1+r)^n + fv) / ((1 + r type)((1+r)^n - 1)), OpenFormula's order: Excel's saved
    # payments to the 15th digit where -r (pv + (pv + fv)/g) / (1 + r type) missed some
    return -(rate * (pv * (g + 1) + fv)) / ((1 + rate * (when != 0)) * g)


@define("NPV", "n r")
def _npv(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The value today of payments at the end of periods 1, 2 ... (texts, logicals and blanks
    in a range skipped, as SUM skips them)."""
    rate = args[0]
    assert isinstance(rate, float)
    flows = numbers_of(book, args[1:])
    if isinstance(flows, XlError):
        return flows
    if rate == -1:
        return DIV0
    total, discount = 0.0, 1.0
    for v in flows:  # in order, each period's discount from the last (Excel's own figures)
        discount *= 1 + rate
        total += v / discount
    return total


@define("XNPV", "n x x")
def _xnpv(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The net present value of payments on given dates: each discounted by ``(1 + rate)``
    to the power of its days after the first payment over 365, as Excel documents it."""
    rate = args[0]
    assert isinstance(rate, float)
    dated = _dated(book, args[1], args[2], irr=False)
    if isinstance(dated, XlError):
        return dated
    values, days = dated
    if rate < 0:  # Excel's XNPV takes no negative rate (its saved values)
        return NUM
    return math.fsum(v / (1 + rate) ** ((d - days[0]) / 365)
                     for v, d in zip(values, days, strict=True))  # fmt: skip


def _dated(
    book: Book, payments: Result, dates: Result, *, irr: bool
) -> tuple[list[float], list[int]] | XlError:
    """XNPV's and XIRR's payments and their dates (whole days): an error among them is the
    result; a count that differs, none, a date before 0 or before the first is #NUM!. A
    payment not a number is #NUM! in XNPV; in XIRR a blank is 0 and a text or logical
    #VALUE! (Excel's saved values)."""
    values = [v for line in as_grid(book, payments) for v in line]
    days = [v for line in as_grid(book, dates) for v in line]
    for v in (*values, *days):
        if isinstance(v, XlError):
            return v
    if len(values) != len(days) or not values:
        return NUM
    if irr:
        values = [0.0 if v is None else v for v in values]
    numeric = [isinstance(v, float | int) and not isinstance(v, bool) for v in values]
    if not all(numeric):
        return VALUE if irr else NUM
    if not all(isinstance(v, float | int) and not isinstance(v, bool) for v in days):
        return VALUE
    whole = [math.floor(float(d)) for d in days]  # type: ignore[arg-type]
    if any(d < 0 or d < whole[0] for d in whole):
        return NUM
    return [float(v) for v in values], whole  # type: ignore[arg-type]


def _annuity(rate: float, nper: float, pmt: float, pv: float, fv: float, when: float) -> float:
    """The time-value equation, 0 when the five figures are consistent (Excel's reference:
    pv*(1+rate)^nper + pmt*(1+rate*type)*((1+rate)^nper-1)/rate + fv = 0)."""
    if rate == 0:
        return pv + pmt * nper + fv
    g = math.expm1(nper * math.log1p(rate))
    return pv * (g + 1) + pmt * (1 + rate * when) * g / rate + fv


@define("NPER", "n n n n? n?")
def _nper(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    """The number of periods of an investment: payments ``pmt`` at ``rate`` from ``pv`` to
    ``fv`` (0), at the end of each period (``type`` 0) or the start (1)."""
    rate, pmt, pv, fv, when = with_defaults(args, 0.0, 0.0)
    kind = 1.0 if when else 0.0
    if rate == 0:
        return DIV0 if pmt == 0 else -(pv + fv) / pmt
    if rate <= -1:
        return NUM
    a = pmt * (1 + rate * kind) / rate
    try:
        ratio = (a - fv) / (a + pv)
        return math.log(ratio) / math.log1p(rate)
    except (ValueError, ZeroDivisionError):
        return NUM


@define("RATE", "n n n n? n? n?")
def _rate(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    """The rate per period that makes the time-value equation hold, by Newton's method from
    ``guess`` (10 %): #NUM! when 50 steps do not settle. Excel documents 20 steps; its saved
    values solve 300 periods (28 steps here) and not 3300 (240 steps here)."""
    nper, pmt, pv, fv, when, guess = with_defaults(args, 0.0, 0.0, 0.1)
    kind = 1.0 if when else 0.0
    rate = guess
    for _ in range(50):
        try:
            f = _annuity(rate, nper, pmt, pv, fv, kind)
            h = 1e-6 * max(abs(rate), 1e-6)
            d = (_annuity(rate + h, nper, pmt, pv, fv, kind) - f) / h
        except (OverflowError, ValueError):
            return NUM
        if d == 0:
            return NUM
        step = f / d
        rate -= step
        if abs(step) < 1e-10:
            return rate if rate > -1 else NUM  # no rate of -100 % or below (Excel's #NUM!)
    return NUM


def _payment(rate: float, nper: float, pv: float, fv: float, kind: float) -> float:
    if rate == 0:
        return -(pv + fv) / nper
    g = math.expm1(nper * math.log1p(rate))
    return -(rate * (pv * (g + 1) + fv)) / ((1 + rate * kind) * g)


def _interest(rate: float, per: float, nper: float, pv: float, fv: float, kind: float) -> float:
    """The interest part of payment ``per`` (IPMT): the rate on the balance before it,
    -r (pv ((1+r)^n - (1+r)^(per-1)) - fv ((1+r)^(per-1) - 1)) / ((1+r)^n - 1) in closed
    form (the balance as a future value less the payments cancels at high rates, where
    Excel's figure is exact to the 15th digit), discounted a period for payments at the
    start; none in the first payment at the start."""
    if rate == 0 or (per == 1 and kind):
        return 0.0
    log = math.log1p(rate)
    whole, before = math.expm1(nper * log), math.expm1((per - 1) * log)
    interest = -rate * (pv * (whole - before) - fv * before) / whole
    return interest / (1 + rate) if kind else interest


def _principal(rate: float, per: float, nper: float, pv: float, fv: float, kind: float) -> float:
    """The principal part of payment ``per`` (PPMT): the first one's, growing by (1 + r) a
    period, -r (pv + fv) (1+r)^(per-1) / ((1+r)^n - 1) in closed form (the payment less the
    interest cancels at high rates), discounted a period for payments at the start; the
    whole first payment at the start."""
    if rate == 0 or (per == 1 and kind):
        return _payment(rate, nper, pv, fv, kind)
    log = math.log1p(rate)
    part = -rate * (pv + fv) * (math.expm1((per - 1) * log) + 1) / math.expm1(nper * log)
    return part / (1 + rate) if kind else part


def _per_period(part: Callable[[float, float, float, float, float, float], float]) -> Impl:
    """IPMT's or PPMT's figure for period ``per`` of ``nper`` (rate, per, nper, pv, fv, type):
    a period before the first or from ``nper + 1`` on is #NUM! (a fraction of a period past
    ``nper`` is computed, as Excel's saved values show)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
        rate, per, nper, pv, fv, when = with_defaults(args, 0.0, 0.0)
        if not 1 <= per < nper + 1 or nper == 0:
            return NUM
        return part(rate, per, nper, pv, fv, 1.0 if when else 0.0)

    return impl


define("IPMT", "n n n n n? n?")(_per_period(_interest))
define("PPMT", "n n n n n? n?")(_per_period(_principal))


def _cash_flows(book: Book, v: Result) -> list[float] | XlError:
    """IRR's and MIRR's cash flows: the numbers of the range in order (texts, logicals and
    blanks skipped, as Excel's reference says)."""
    return numbers_of(book, [v])


def _irr_of(flows: list[float], times: list[float], guess: float) -> float | XlError:
    """The rate at which the flows at the given times (in periods) are worth 0 today: Newton's
    method from ``guess``, then a bisection if it fails; #NUM! when there is none."""
    if not any(x > 0 for x in flows) or not any(x < 0 for x in flows):
        return NUM

    def npv(rate: float) -> float:
        return math.fsum(x / (1 + rate) ** t for x, t in zip(flows, times, strict=True))

    def slope(rate: float) -> float:
        return math.fsum(-t * x / (1 + rate) ** (t + 1) for x, t in zip(flows, times, strict=True))

    rate = guess
    for _ in range(100):
        try:
            f, d = npv(rate), slope(rate)
        except (OverflowError, ZeroDivisionError, ValueError):
            break
        if d == 0:
            break
        step = f / d
        rate -= step
        if rate <= -1:
            break
        if abs(step) < 1e-12 * max(1.0, abs(rate)):
            return rate
    low, high = -0.999999, 10.0
    try:
        f_low, f_high = npv(low), npv(high)
    except (OverflowError, ZeroDivisionError):
        return NUM
    if f_low * f_high > 0:
        return NUM
    for _ in range(200):
        mid = (low + high) / 2
        f_mid = npv(mid)
        if f_low * f_mid <= 0:
            high = mid
        else:
            low, f_low = mid, f_mid
    return (low + high) / 2


@define("IRR", "x n?")
def _irr(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The internal rate of return of cash flows at regular periods (at least one positive and
    one negative), from ``guess`` (10 %; one of -100 % or below is #VALUE!)."""
    flows = _cash_flows(book, args[0])
    if isinstance(flows, XlError):
        return flows
    guess = 0.1 if args[1] is None else args[1]
    assert isinstance(guess, float)
    if guess <= -1:  # no rate of -100 % or below to start from (Excel's #VALUE!)
        return VALUE
    return _irr_of(flows, [float(i) for i in range(len(flows))], guess)


@define("XIRR", "x x n?")
def _xirr(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The internal rate of return of payments on dates, in years of 365 days from the first
    payment's date (XNPV's discounting)."""
    dated = _dated(book, args[0], args[1], irr=True)
    if isinstance(dated, XlError):
        return dated
    values, days = dated
    guess = 0.1 if args[2] is None else args[2]
    assert isinstance(guess, float)
    return _irr_of(values, [(d - days[0]) / 365 for d in days], guess)


@define("MIRR", "x n n")
def _mirr(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The modified internal rate of return: negative flows financed at ``finance_rate``,
    positive ones reinvested at ``reinvest_rate``. No negative flow is #DIV/0!, no positive
    one -100 %, a sum turned negative by a rate below -100 % #NUM! (Excel's saved values)."""
    flows = _cash_flows(book, args[0])
    if isinstance(flows, XlError):
        return flows
    finance, reinvest = args[1], args[2]
    assert isinstance(finance, float) and isinstance(reinvest, float)
    n = len(flows)
    try:
        negative = math.fsum(x / (1 + finance) ** i for i, x in enumerate(flows) if x < 0)
        positive = math.fsum(
            x * (1 + reinvest) ** (n - 1 - i) for i, x in enumerate(flows) if x > 0
        )
    except ZeroDivisionError:
        return DIV0
    if negative == 0 or n < 2:
        return DIV0
    ratio = -positive / negative
    if ratio < 0:  # a negative rate below -100 % turns a value's sign: no real root
        return NUM
    if ratio == 0:  # nothing paid back: all is lost (Excel's -1)
        return -1.0
    return math.pow(ratio, 1 / (n - 1)) - 1


def _per_year(effective: bool) -> Impl:
    """EFFECT and NOMINAL: a nominal annual rate compounded ``npery`` times a year (truncated
    to whole periods) to the effective rate, and back; a rate not above 0 or fewer than one
    period is #NUM!, a logical #VALUE! (an Analysis ToolPak function's rule)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = atp_numbers(args)
        if isinstance(found, XlError):
            return found
        rate, periods = found[0], math.trunc(found[1])
        if rate <= 0 or periods < 1:
            return NUM
        try:
            if effective:
                return float((1 + rate / periods) ** periods - 1)
            return float(periods * ((1 + rate) ** (1 / periods) - 1))
        except OverflowError:
            return NUM

    return impl


define("EFFECT", "v v", single=True)(_per_year(True))
define("NOMINAL", "v v", single=True)(_per_year(False))


# --- growth, schedules and cumulative payments ------------------------------------------------


@define("RRI", "n n n")
def _rri(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The equivalent interest rate for the growth of an investment: (fv/pv)^(1/nper) - 1."""
    nper, pv, fv = args
    if nper <= 0 or pv == 0:
        return NUM
    ratio = fv / pv
    if ratio < 0:
        return NUM
    return math.pow(ratio, 1 / nper) - 1


@define("PDURATION", "n n n")
def _pduration(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The periods an investment takes to grow from pv to fv at ``rate`` a period."""
    rate, pv, fv = args
    if rate <= 0 or pv <= 0 or fv <= 0:
        return NUM
    return (math.log(fv) - math.log(pv)) / math.log(1 + rate)


@define("FVSCHEDULE", "n x")
def _fvschedule(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The principal grown by each rate of the schedule in turn (a blank is 0)."""
    value = args[0]
    assert isinstance(value, float)
    for line in as_grid(book, args[1]):
        for rate in line:
            if isinstance(rate, XlError):
                return rate
            if rate is None:
                continue
            if isinstance(rate, bool | str):
                return VALUE
            value *= 1 + float(rate)
    return value


@define("ISPMT", "n n n n")
def _ispmt(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The interest paid in period ``per`` (counted from 0) of a loan repaid in equal parts
    of its principal."""
    rate, per, nper, pv = args
    if nper == 0:
        return DIV0
    return pv * rate * (per / nper - 1)


def atp_numbers(args: list[Value]) -> list[float] | XlError:
    """The numbers given to a function of the Analysis ToolPak: a logical is #VALUE! there,
    as Excel's saved values show (CUMIPMT, DOLLARDE, the securities' functions)."""
    found: list[float] = []
    for v in args:
        x = VALUE if isinstance(v, bool) else number(v)
        if isinstance(x, XlError):
            return x
        found.append(x)
    return found


def _cumulative(principal: bool) -> Impl:
    """CUMIPMT and CUMPRINC: the interest (or the principal) paid from period ``start`` to
    ``end`` of a loan, each period's part in closed form, without cancellation: the
    principal pv·r·(1+r)^(k-1) / ((1+r)^n - 1) (a period earlier, and the first payment all
    principal, for payments at the start), so that a loan at 700 % still has Excel's
    principal of -3.3E-21; the interest r·pv·((1+r)^n - (1+r)^(k-1)) / ((1+r)^n - 1) on the
    balance (discounted a period, and none in the first payment, for payments at the
    start), so that a loan at 0.83 % a month has Excel's interest to the 15th digit where
    the payment less the principal misses it. A logical given is #VALUE! (an Analysis
    ToolPak function's rule)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = atp_numbers(args)
        if isinstance(found, XlError):
            return found
        rate, nper, pv, start, end, kind = found
        first, last = math.ceil(start), math.trunc(end)
        if rate <= 0 or nper <= 0 or pv <= 0 or kind not in (0, 1):
            return NUM
        if first < 1 or last < first or last > nper:
            return NUM
        pmt = _payment(rate, nper, pv, 0.0, kind)
        growth = (1 + rate) ** nper
        base = -pv * rate / (growth - 1)
        total = 0.0
        for per in range(first, last + 1):
            if principal:
                total += pmt if kind and per == 1 else base * (1 + rate) ** (per - 1 - kind)
            elif not (kind and per == 1):
                interest = base * (growth - (1 + rate) ** (per - 1))
                total += interest / (1 + rate) if kind else interest
        return total

    return impl


define("CUMIPMT", "v v v v v v")(_cumulative(False))
define("CUMPRINC", "v v v v v v")(_cumulative(True))


def _dollar(to_decimal: bool) -> Impl:
    """DOLLARDE and DOLLARFR: a price written as whole units and a fraction's numerator
    (1.02 with fraction 16 is 1 2/16) to a decimal, and back."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = atp_numbers(args)
        if isinstance(found, XlError):
            return found
        price, fraction = found
        denominator = math.trunc(fraction)
        if denominator < 0:
            return NUM
        if denominator == 0:
            return DIV0
        whole = math.trunc(price)
        part = price - whole
        scale = 10.0 ** math.ceil(math.log10(denominator))
        if to_decimal:
            return whole + part * scale / denominator
        return whole + part * denominator / scale

    return impl


define("DOLLARDE", "v v", single=True)(_dollar(True))
define("DOLLARFR", "v v", single=True)(_dollar(False))
