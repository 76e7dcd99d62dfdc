"""Date and time functions (Excel's category): DATE, YEAR, MONTH, DAY, TODAY.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import datetime as _dt

from ..formula.values import EPOCH, NUM, Book, Result, XlError
from .base import Impl, number_arg, register


def _serial(d: _dt.date) -> float:
    return float((d - EPOCH).days)


def _date_of(book: Book, v: Result, r: int, c: int) -> _dt.date | XlError:
    x = number_arg(book, v, r, c)
    if isinstance(x, XlError):
        return x
    if not 0 <= x < 2958466:
        return NUM
    return EPOCH + _dt.timedelta(days=int(x))


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
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    try:
        day = _dt.date(y, m, 1) + _dt.timedelta(days=d - 1)
    except (ValueError, OverflowError):
        return NUM
    if day == _dt.date(1899, 12, 31):
        return 0.0  # DATE(1900, 1, 0): Excel's day 0
    if day < _dt.date(1899, 12, 31):  # before Excel's first day: DATE(0.9, 0.9, 0.9)
        return NUM
    return _serial(day)


def _part(which: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        d = _date_of(book, args[0], r, c)
        if isinstance(d, XlError):
            return d
        return float(getattr(d, which))

    return impl


register("YEAR")(_part("year"))
register("MONTH")(_part("month"))
register("DAY")(_part("day"))


@register("TODAY")
def _today(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return _serial(_dt.date.today())
