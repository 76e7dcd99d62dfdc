"""Financial functions (Excel's category): PV, FV, PMT, NPV, XNPV, SLN, DB, VDB.

The time-value formulas are those of Excel's function reference (and of OpenFormula, which
writes them out): ``type`` 1 is a payment at the start of each period.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from ..formula.values import DIV0, NUM, VALUE, Book, Result, XlError, as_grid
from .base import number_arg, numbers_of, optional_number, register


def _numbers(book: Book, args: list[Result], r: int, c: int, n: int) -> list[float] | XlError:
    """The first ``n`` arguments (the optional ones 0 when left out) as numbers."""
    out = []
    for i in range(n):
        x = optional_number(book, args, i, r, c, 0.0)
        if isinstance(x, XlError):
            return x
        out.append(x)
    return out


def _growth(rate: float, nper: float) -> float | XlError:
    """(1 + rate) ** nper - 1, to the last bit (``expm1`` and ``log1p``: Excel's own figures,
    which a plain power misses by some units in the 15th digit)."""
    try:
        return math.expm1(nper * math.log1p(rate))
    except (OverflowError, ValueError):
        return NUM


@register("PV")
def _pv(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _numbers(book, args, r, c, 5)
    if isinstance(found, XlError):
        return found
    rate, nper, pmt, fv, when = found
    if rate == 0:
        return -(fv + pmt * nper)
    g = _growth(rate, nper)
    if isinstance(g, XlError) or g == -1:
        return NUM
    return -(fv + pmt * (1 + rate * (when != 0)) * g / rate) / (g + 1)


@register("FV")
def _fv(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _numbers(book, args, r, c, 5)
    if isinstance(found, XlError):
        return found
    rate, nper, pmt, pv, when = found
    if rate == 0:
        return -(pv + pmt * nper)
    g = _growth(rate, nper)
    if isinstance(g, XlError):
        return g
    return -(pv + pv * g + pmt * (1 + rate * (when != 0)) * g / rate)


@register("PMT")
def _pmt(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _numbers(book, args, r, c, 5)
    if isinstance(found, XlError):
        return found
    rate, nper, pv, fv, when = found
    if nper == 0:
        return NUM
    if rate == 0:
        return -(pv + fv) / nper
    g = _growth(rate, nper)
    if isinstance(g, XlError) or g == 0:
        return NUM
    return -rate * (pv + (pv + fv) / g) / (1 + rate * (when != 0))


@register("NPV")
def _npv(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The value today of payments at the end of periods 1, 2 ... (texts, logicals and blanks
    in a range skipped, as SUM skips them)."""
    rate = number_arg(book, args[0], r, c)
    if isinstance(rate, XlError):
        return rate
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


@register("SLN")
def _sln(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    found = _numbers(book, args, r, c, 3)
    if isinstance(found, XlError):
        return found
    cost, salvage, life = found
    return DIV0 if life == 0 else (cost - salvage) / life


@register("DB")
def _db(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Fixed-declining-balance depreciation of ``period``: the rate rounded to three decimals,
    the first and the extra last period prorated by ``month``, as Excel documents it."""
    found = _numbers(book, args[:4], r, c, 4)
    month = optional_number(book, args, 4, r, c, 12.0)
    if isinstance(found, XlError):
        return found
    if isinstance(month, XlError):
        return month
    cost, salvage, life, period = found
    months = int(month)
    last = int(life) + (months < 12)
    if cost < 0 or salvage < 0 or life <= 0 or period <= 0 or not 1 <= months <= 12:
        return NUM
    if int(period) > last:
        return NUM
    if cost == 0:
        return 0.0
    exact = Decimal(repr(1 - (salvage / cost) ** (1 / life)))
    rate = float(exact.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
    total = 0.0
    dep = 0.0
    for p in range(1, int(period) + 1):
        if p == 1:
            dep = cost * rate * months / 12
        elif p == int(life) + 1:
            dep = (cost - total) * rate * (12 - months) / 12
        else:
            dep = (cost - total) * rate
        total += dep
    return dep


def _declining(cost: float, salvage: float, life: float, period: float, factor: float) -> float:
    """The declining-balance depreciation of whole period ``period`` (1-based) at ``factor``
    over ``life``, never taking the value below ``salvage``."""
    rate = min(factor / life, 1.0)
    before = cost * math.pow(1 - rate, period - 1) if rate < 1 else (cost if period == 1 else 0.0)
    after = cost * math.pow(1 - rate, period)
    return max(0.0, before - max(after, salvage))


def _depreciation(cost: float, salvage: float, life: float, left: float, periods: float,
                  factor: float, switch: bool) -> float:  # fmt: skip
    """Depreciation over the first ``periods`` (the last may be a fraction, prorated) of an
    asset worth ``cost`` with ``left`` periods of its life to go: declining balance, switching
    (with ``switch``) to the straight line over the rest of the life once that gives more."""
    total = 0.0
    to_write_off = cost - salvage
    straight = 0.0
    switched = False
    whole = math.ceil(periods)
    for p in range(1, whole + 1):
        if not switched:
            dec = _declining(cost, salvage, life, p, factor)
            straight = to_write_off / (left - (p - 1))
            if switch and straight > dec:
                term, switched = straight, True
            else:
                term = dec
                to_write_off -= dec
        else:
            term = straight
        if p == whole:
            term *= periods + 1 - whole
        total += term
    return total


@register("VDB")
def _vdb(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Variable-declining-balance depreciation from ``start_period`` to ``end_period``:
    ``factor`` (2, double declining) times the straight-line rate on the value left, switching
    to the straight line over the rest of the life when that gives more, unless ``no_switch``.
    With a fractional start the periods run from its fraction (a short first period, then
    whole ones), as Excel's saved values show."""
    found = _numbers(book, args[:5], r, c, 5)
    factor = optional_number(book, args, 5, r, c, 2.0) if len(args) > 5 and args[5] is not None \
        else 2.0  # fmt: skip
    no_switch = optional_number(book, args, 6, r, c, 0.0)
    for v in (found, factor, no_switch):
        if isinstance(v, XlError):
            return v
    assert not isinstance(found, XlError) and isinstance(factor, float)
    cost, salvage, life, start, end = found
    if start < 0 or end < start or end > life or cost < 0 or salvage > cost or factor <= 0:
        return NUM
    if life <= 0:
        return NUM
    switch = not no_switch
    value, left = cost, life
    part = start - math.floor(start)
    if part:  # the schedule's periods begin at the start's fraction: a short first period
        value -= _depreciation(value, salvage, life, left, part, factor, switch)
        left -= part
    value -= _depreciation(value, salvage, life, left, math.floor(start), factor, switch)
    return _depreciation(value, salvage, life, life - start, end - start, factor, switch)


@register("XNPV")
def _xnpv(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The net present value of payments on given dates: each discounted by ``(1 + rate)``
    to the power of its days after the first payment over 365, as Excel documents it."""
    rate = number_arg(book, args[0], r, c)
    if isinstance(rate, XlError):
        return rate
    values = [v for line in as_grid(book, args[1]) for v in line]
    dates = [v for line in as_grid(book, args[2]) for v in line]
    for v in (*values, *dates):
        if isinstance(v, XlError):
            return v
    if len(values) != len(dates) or not values:
        return NUM
    if not all(isinstance(v, float | int) and not isinstance(v, bool) for v in (*values, *dates)):
        return VALUE
    days = [math.floor(float(d)) for d in dates]  # type: ignore[arg-type]
    if any(d < days[0] for d in days) or rate <= -1:
        return NUM
    return math.fsum(float(v) / (1 + rate) ** ((d - days[0]) / 365)  # type: ignore[arg-type]
                     for v, d in zip(values, days, strict=True))  # fmt: skip
