"""The function table and what the functions share: argument flattening, criteria.

Every function takes ``(book, host sheet, host row, host column, arguments)``; a function
registered ``lazy`` gets its arguments as closures (IF evaluates one branch only), one
registered ``arrays`` gets whole ranges and arrays (SUMPRODUCT).

May import: :mod:`fide_rating.engine.formula.values` and the standard library.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..formula.values import (
    ERRORS,
    Area,
    Book,
    Result,
    Value,
    XlError,
    as_grid,
    compare,
    number,
    scalar,
)

Impl = Callable[[Book, str, int, int, list[Any]], Result]
FUNCTIONS: dict[str, tuple[Impl, bool, bool]] = {}  # name -> (impl, lazy args, array args)


# functions whose arguments are references where a reference is written: a single cell given
# to them is a one-cell range (ROW(C12) is 12; MIN(A1, B1) skips a text in A1, as Excel does)
REFERENCES = frozenset({
    "ROW", "COLUMN", "ROWS", "COLUMNS", "SUM", "PRODUCT", "MIN", "MAX", "AVERAGE", "MEDIAN",
    "COUNT", "COUNTA", "COUNTBLANK", "AND", "OR", "LARGE", "SMALL", "COUNTIF", "COUNTIFS",
    "SUMIF", "SUMIFS", "AVERAGEIF", "INDEX", "MATCH", "VLOOKUP", "HLOOKUP", "RANK", "RANK.EQ",
    "LOOKUP", "OFFSET", "XOR", "SLOPE", "INTERCEPT", "FORECAST", "FORECAST.LINEAR", "NPV",
    "SUBTOTAL", "XLOOKUP", "XMATCH", "XNPV", "VAR", "VAR.S", "VARP", "VAR.P", "STDEV", "STDEV.S",
    "STDEVP", "STDEV.P",
})  # fmt: skip


_MANY = 255  # Excel's limit on a function's arguments
_BASES = ("BIN", "OCT", "DEC", "HEX")

# how many arguments each function takes, as Excel's function reference gives it: a formula
# outside these bounds is not a formula Excel would save, and is reported, not evaluated
ARITY: dict[str, tuple[int, int]] = {
    "TODAY": (0, 0), "NA": (0, 0), "TRUE": (0, 0), "FALSE": (0, 0), "PI": (0, 0),
    "DATE": (3, 3), "MID": (3, 3), "DATEDIF": (3, 3), "LOOKUP": (2, 3), "SUBSTITUTE": (3, 4),
    "VLOOKUP": (3, 4), "HLOOKUP": (3, 4),
    "INDEX": (2, 4), "MATCH": (2, 3), "SUMIF": (2, 3), "AVERAGEIF": (2, 3), "RANK": (2, 3),
    "RANK.EQ": (2, 3), "FIND": (2, 3), "SEARCH": (2, 3), "IF": (1, 3), "ROW": (0, 1),
    "COLUMN": (0, 1), "LEFT": (1, 2), "RIGHT": (1, 2), "TRUNC": (1, 2), "LOG": (1, 2),
    "WEEKDAY": (1, 2), "IFERROR": (2, 2), "IFNA": (2, 2), "ROUND": (2, 2), "ROUNDUP": (2, 2),
    "ROUNDDOWN": (2, 2), "MOD": (2, 2), "POWER": (2, 2), "LARGE": (2, 2), "SMALL": (2, 2),
    "COUNTIF": (2, 2), "EXACT": (2, 2), "REPT": (2, 2), "TEXT": (2, 2), "EDATE": (2, 2),
    "EOMONTH": (2, 2),
    "CHOOSE": (2, _MANY), "SUMIFS": (3, _MANY), "COUNTIFS": (2, _MANY), "IFS": (2, _MANY),
    "SWITCH": (3, _MANY), "ATAN2": (2, 2), "CEILING": (2, 2), "FLOOR": (2, 2),
    "REPLACE": (4, 4), "DAYS": (2, 2), "YEARFRAC": (2, 3), "SLOPE": (2, 2), "INTERCEPT": (2, 2),
    "FORECAST": (3, 3), "FORECAST.LINEAR": (3, 3), "PV": (3, 5), "FV": (3, 5), "PMT": (3, 5),
    "NPV": (2, _MANY), "SLN": (3, 3), "DB": (4, 5), "OFFSET": (3, 5),
    "INDIRECT": (1, 2), "SUBTOTAL": (2, _MANY), "XLOOKUP": (3, 6), "XMATCH": (2, 4),
    "VDB": (5, 7), "XNPV": (3, 3), "CONVERT": (3, 3),
    "LINEST": (1, 4), "TREND": (1, 4),
}  # fmt: skip
ARITY.update({f"{a}2{b}": (1, 1 if b == "DEC" else 2) for a in _BASES for b in _BASES if a != b})
# the rest take one argument, or one and more (SUM, AND, CONCATENATE ...)
_SEVERAL = frozenset({
    "SUM", "PRODUCT", "SUMPRODUCT", "MIN", "MAX", "AVERAGE", "MEDIAN", "COUNT", "COUNTA",
    "AND", "OR", "XOR", "CONCATENATE", "CONCAT", "VAR", "VAR.S", "VARP", "VAR.P", "STDEV",
    "STDEV.S", "STDEVP", "STDEV.P",
})  # fmt: skip


# functions that read every argument alike, as a list of values: a union of ranges given to
# one of them, SUM((A1:A5,C1:C5)), is its ranges given one by one
UNION_TAKERS = frozenset(_SEVERAL - {"AND", "OR", "XOR", "CONCATENATE", "CONCAT", "SUMPRODUCT"})


def arity(name: str) -> tuple[int, int]:
    """The least and the most arguments of a standard function."""
    return ARITY.get(name, (1, _MANY if name in _SEVERAL else 1))


def register(*names: str, lazy: bool = False, arrays: bool = False) -> Callable[[Impl], Impl]:
    def deco(f: Impl) -> Impl:
        for n in names:
            FUNCTIONS[n] = (f, lazy, arrays)
        return f

    return deco


def flatten(book: Book, args: list[Result]) -> Iterator[tuple[Value, bool]]:
    """Every value of the arguments, with whether it came from a range (ranges skip texts and
    logicals in SUM, COUNT ...)."""
    for a in args:
        if isinstance(a, Area | list):
            for line in as_grid(book, a):
                for v in line:
                    yield v, True
        else:
            yield a, False


def numbers_of(book: Book, args: list[Result]) -> list[float] | XlError:
    out: list[float] = []
    for v, from_range in flatten(book, args):
        if isinstance(v, XlError):
            return v
        if from_range:
            if isinstance(v, float | int) and not isinstance(v, bool):
                out.append(float(v))
        elif v is not None:
            x = number(v)
            if isinstance(x, XlError):
                return x
            out.append(x)
    return out


def one_value(book: Book, v: Result, r: int, c: int) -> Value:
    return scalar(book, v, r, c)


def number_arg(book: Book, v: Result, r: int, c: int) -> float | XlError:
    return number(one_value(book, v, r, c))


def two_numbers(book: Book, args: list[Result], r: int, c: int) -> tuple[float, float] | XlError:
    """The first two arguments as numbers; the first error among them is the result."""
    x, y = number_arg(book, args[0], r, c), number_arg(book, args[1], r, c)
    if isinstance(x, XlError):
        return x
    return y if isinstance(y, XlError) else (x, y)


def wildcards(text: str) -> re.Pattern[str]:
    """Excel's wildcards as a pattern, case-insensitive: ``*`` any run, ``?`` one character,
    ``~`` before either (or before ``~``) the character itself."""
    out: list[str] = []
    escaped = False
    for ch in text:
        if escaped and ch not in "*?~":
            out.append(re.escape("~"))  # a tilde before anything else is itself
        if escaped or ch not in "*?~":
            out.append(re.escape(ch))
            escaped = False
        elif ch == "~":
            escaped = True
        else:
            out.append(".*" if ch == "*" else ".")
    if escaped:
        out.append(re.escape("~"))
    return re.compile("".join(out), re.I | re.S)


def optional_number(
    book: Book, args: list[Result], i: int, r: int, c: int, default: float
) -> float | XlError:
    """Argument ``i`` as a number, the default when it is left out. Written but empty
    (``MATCH(x, A1:A9, )``) or an empty cell, it is 0, as in Excel (that MATCH is exact)."""
    return number_arg(book, args[i], r, c) if len(args) > i else default


def criterion(crit: Value) -> Callable[[Value], bool]:
    """COUNTIF-style criteria: a value, or a text such as ">=5", "<>x", "a*"."""
    if crit is None:
        crit = 0.0  # a criterion in an empty cell is 0, as Excel documents for COUNTIFS
    if isinstance(crit, float | int | bool):
        target = crit
        return lambda v: v == target and not (isinstance(v, bool) ^ isinstance(target, bool))
    if isinstance(crit, XlError):
        return lambda v: v == crit
    m = re.match(r"^(<=|>=|<>|<|>|=)?(.*)$", crit, re.S)
    assert m is not None
    op, rest = m.group(1) or "=", m.group(2)
    goal: Value = number(rest) if rest.strip() else rest
    if isinstance(goal, XlError):  # not a number: a logical, an error or a text
        upper = rest.upper()
        goal = (upper == "TRUE") if upper in ("TRUE", "FALSE") else ERRORS.get(upper, rest)
    if isinstance(goal, XlError):
        error = goal
        if op in ("=", "<>"):
            return (lambda v: v == error) if op == "=" else (lambda v: v != error)
        return lambda v: False  # an error is not ordered
    if isinstance(goal, str) and op in ("=", "<>") and any(ch in goal for ch in "*?"):
        pattern = wildcards(goal)

        def hit(v: Value) -> bool:
            return isinstance(v, str) and pattern.fullmatch(v) is not None

        return hit if op == "=" else (lambda v: not hit(v))
    if goal == "" and op == "=":
        return lambda v: v is None or v == ""
    if goal == "" and op == "<>":
        return lambda v: v is not None and v != ""

    def test(v: Value) -> bool:
        if isinstance(goal, bool) and not isinstance(v, bool):
            return op == "<>"
        if isinstance(goal, float) and not (isinstance(v, float | int) and not isinstance(v, bool)):
            return op == "<>"
        if isinstance(goal, str) and not isinstance(v, str):
            return op == "<>"
        return compare(op, v, goal) is True

    return test


def criterion_hits(book: Book, area: Result, crit: Result, r: int, c: int) -> list[bool]:
    test = criterion(one_value(book, crit, r, c))
    return [test(v) for line in as_grid(book, area) for v in line]


def sum_where(book: Book, hits: list[bool], area: Result) -> Result:
    """The numbers of ``area`` where the criteria hold; an error there is the result (Excel's
    SUMIF does not skip it)."""
    total = []
    for hit, v in zip(hits, (v for line in as_grid(book, area) for v in line), strict=False):
        if not hit:
            continue
        if isinstance(v, XlError):
            return v
        if isinstance(v, float | int) and not isinstance(v, bool):
            total.append(float(v))
    return math.fsum(total)
