"""The depreciation functions of Excel's Financial category: SLN, SYD, DB, DDB, VDB, and the
French accounting system's AMORLINC and AMORDEGRC.

The formulas are those of Excel's function reference; AMORLINC and AMORDEGRC (from the
Analysis ToolPak) prorate the first period by YEARFRAC from the purchase to the end of the
first period, and AMORDEGRC rounds each period's depreciation to a whole unit.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.financial` (the Analysis ToolPak's arguments) and the standard library.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from ..formula.values import DIV0, NUM, Book, Result, Value, XlError
from .base import FUNCTIONS, Impl, define
from .financial import atp_numbers, with_defaults


@define("SLN", "n n n")
def _sln(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    cost, salvage, life = args
    return DIV0 if life == 0 else (cost - salvage) / life


@define("DB", "n n n n n?")
def _db(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    """Fixed-declining-balance depreciation of ``period``: the rate rounded to three decimals,
    the first and the extra last period prorated by ``month``, as Excel documents it."""
    cost, salvage, life, period, month = with_defaults(args, 12.0)
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


@define("VDB", "n n n n n n? b?")
def _vdb(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """Variable-declining-balance depreciation from ``start_period`` to ``end_period``:
    ``factor`` (2, double declining) times the straight-line rate on the value left, switching
    to the straight line over the rest of the life when that gives more, unless ``no_switch``.
    With a fractional start the periods run from its fraction (a short first period, then
    whole ones), as Excel's saved values show."""
    cost, salvage, life, start, end = args[:5]
    factor = 2.0 if args[5] is None else args[5]
    no_switch = bool(args[6])
    assert isinstance(factor, float) and isinstance(cost, float) and isinstance(end, float)
    assert isinstance(salvage, float) and isinstance(life, float) and isinstance(start, float)
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


@define("SYD", "n n n n")
def _syd(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    cost, salvage, life, per = args
    if life <= 0 or per <= 0 or per > life:
        return NUM
    return (cost - salvage) * (life - per + 1) * 2 / (life * (life + 1))


@define("DDB", "n n n n n?")
def _ddb(book: Book, sh: str, r: int, c: int, args: list[float | None]) -> Result:
    """Double (or ``factor``) declining-balance depreciation of one period."""
    cost, salvage, life, period, factor = with_defaults(args, 2.0)
    if cost < 0 or salvage < 0 or life <= 0 or period <= 0 or factor <= 0 or period > life:
        return NUM
    return _declining(cost, salvage, life, period, factor)


# --- the French accounting system (AMORLINC, AMORDEGRC) ----------------------------------


def _whole(x: float) -> float:
    """``x`` rounded to a whole unit, halves away from zero."""
    return float(Decimal(repr(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _amortisation(degressive: bool) -> Impl:
    """AMORLINC and AMORDEGRC(cost, date_purchased, first_period, salvage, period, rate,
    [basis]): the depreciation of accounting ``period`` (0 is the first, prorated from the
    purchase to the end of the first period by YEARFRAC's ``basis``). AMORLINC is the
    straight line, ``cost * rate`` a period until the cost less salvage is written off;
    AMORDEGRC the declining balance at ``rate`` times Excel's coefficient for a life of
    ``1 / rate`` years (1.5 for 3 to 4, 2 for 5 to 6, 2.5 above 6; any other life #NUM!),
    each period rounded to a whole unit, half the value left in the period before the last
    and none after. A purchase after the first period's end, a salvage below 0 or above the
    cost, a negative period, a rate not above 0 or a basis other than 0, 1, 3 or 4 is #NUM!;
    a logical #VALUE! (an Analysis ToolPak function's rule)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = atp_numbers([0.0 if v is None else v for v in args[:6]])
        if isinstance(found, XlError):
            return found
        basis_given = atp_numbers([args[6]]) if len(args) > 6 and args[6] is not None else [0.0]
        if isinstance(basis_given, XlError):
            return basis_given
        cost, bought, first, salvage, period, rate = found
        basis = math.trunc(basis_given[0])
        bought, first, period = math.floor(bought), math.floor(first), math.trunc(period)
        if bought > first or salvage < 0 or salvage > cost or period < 0 or rate <= 0:
            return NUM
        if basis not in (0, 1, 3, 4):
            return NUM
        yearfrac = FUNCTIONS["YEARFRAC"].impl
        assert yearfrac is not None
        part = yearfrac(book, sh, r, c, [float(bought), float(first), float(basis)])
        if not isinstance(part, float):
            return NUM
        if degressive:
            return _degressive(cost, part, salvage, period, rate)
        return _linear(cost, part, salvage, period, rate)

    return impl


def _linear(cost: float, part: float, salvage: float, period: int, rate: float) -> Result:
    full = cost * rate
    first = part * rate * cost
    if full == 0:  # nothing to write off
        return 0.0
    whole_periods = math.trunc((cost - salvage - first) / full)
    if period == 0:
        return first
    if period <= whole_periods:
        return full
    if period == whole_periods + 1:
        return cost - salvage - full * whole_periods - first
    return 0.0


def _degressive(cost: float, part: float, salvage: float, period: int, rate: float) -> Result:
    life = 1 / rate
    if 3 <= life <= 4:
        coefficient = 1.5
    elif 5 <= life <= 6:
        coefficient = 2.0
    elif life > 6:
        coefficient = 2.5
    else:
        return NUM
    rate *= coefficient
    dep = _whole(part * rate * cost)
    cost -= dep
    rest = cost - salvage
    for n in range(period):
        dep = _whole(rate * cost)
        rest -= dep
        if rest < 0:
            return _whole(cost * 0.5) if period - n <= 1 else 0.0
        cost -= dep
    return dep


define("AMORLINC", "v v v v v v v?")(_amortisation(False))
define("AMORDEGRC", "v v v v v v v?")(_amortisation(True))
