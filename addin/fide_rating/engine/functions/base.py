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

from ..formula.values import Area, Book, Result, Value, XlError, as_grid, compare, number, scalar

Impl = Callable[[Book, str, int, int, list[Any]], Result]
FUNCTIONS: dict[str, tuple[Impl, bool, bool]] = {}  # name -> (impl, lazy args, array args)


# functions whose arguments are references where a reference is written: a single cell given
# to them is a one-cell range (ROW(C12) is 12; MIN(A1, B1) skips a text in A1, as Excel does)
REFERENCES = frozenset({
    "ROW", "COLUMN", "ROWS", "COLUMNS", "SUM", "PRODUCT", "MIN", "MAX", "AVERAGE", "MEDIAN",
    "COUNT", "COUNTA", "COUNTBLANK", "AND", "OR", "LARGE", "SMALL", "COUNTIF", "COUNTIFS",
    "SUMIF", "SUMIFS", "AVERAGEIF", "INDEX", "MATCH", "VLOOKUP", "HLOOKUP", "RANK", "RANK.EQ",
})  # fmt: skip


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


def criterion(crit: Value) -> Callable[[Value], bool]:
    """COUNTIF-style criteria: a value, or a text such as ">=5", "<>x", "a*"."""
    if isinstance(crit, float | int | bool) or crit is None:
        target = crit
        return lambda v: v == target and not (isinstance(v, bool) ^ isinstance(target, bool))
    if isinstance(crit, XlError):
        return lambda v: v == crit
    m = re.match(r"^(<=|>=|<>|<|>|=)?(.*)$", crit, re.S)
    assert m is not None
    op, rest = m.group(1) or "=", m.group(2)
    try:
        goal: Value = float(rest)
    except ValueError:
        goal = rest
    if isinstance(goal, str) and op in ("=", "<>") and any(ch in goal for ch in "*?"):
        pattern = re.compile(
            "".join(
                ".*" if ch == "*" else "." if ch == "?" else re.escape(ch)
                for ch in re.sub(r"~([*?~])", lambda x: "\0" + x.group(1), goal)
            ).replace("\\\0", ""),
            re.I | re.S,
        )

        def hit(v: Value) -> bool:
            return isinstance(v, str) and pattern.fullmatch(v) is not None

        return hit if op == "=" else (lambda v: not hit(v))
    if goal == "" and op == "=":
        return lambda v: v is None or v == ""
    if goal == "" and op == "<>":
        return lambda v: v is not None and v != ""

    def test(v: Value) -> bool:
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
