"""Spreadsheet values: errors, areas, the workbook protocol, and the coercions of the operators.

May import: the standard library only.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class Unsupported(Exception):  # noqa: N818 - reads as what it reports
    """A formula the engine cannot evaluate; the message says why."""


@dataclass(frozen=True, slots=True)
class XlError:
    """A spreadsheet error value such as ``#DIV/0!``."""

    code: str

    def __str__(self) -> str:
        return self.code


DIV0 = XlError("#DIV/0!")
VALUE = XlError("#VALUE!")
REF = XlError("#REF!")
NAME = XlError("#NAME?")
NUM = XlError("#NUM!")
NA = XlError("#N/A")
NULL = XlError("#NULL!")
ERRORS = {e.code: e for e in (DIV0, VALUE, REF, NAME, NUM, NA, NULL)}

Value = float | str | bool | XlError | None
MAX_ROWS = 1_048_576
MAX_COLS = 16_384
EPOCH = _dt.date(1899, 12, 30)


@dataclass(frozen=True, slots=True)
class Area:
    """A rectangular reference: sheet name, first and last row and column (1-based)."""

    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int

    @property
    def rows(self) -> int:
        return self.r2 - self.r1 + 1

    @property
    def cols(self) -> int:
        return self.c2 - self.c1 + 1


class Book(Protocol):
    """What the engine needs from a workbook."""

    def value(self, sheet: str, row: int, col: int) -> Value: ...

    def extent(self, sheet: str) -> tuple[int, int]: ...

    def left_out(self, sheet: str, row: int, col: int, hidden_too: bool) -> bool:
        """Whether SUBTOTAL leaves a cell out: a SUBTOTAL of its own, a row a filter hides,
        and with ``hidden_too`` any hidden row."""
        ...


Array = list[list[Value]]
Result = Value | Area | Array
Fn = Callable[[Book, str, int, int], Result]  # (book, host sheet, host row, host col)

# --- values ---------------------------------------------------------------------------------


_NUMERIC = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(%?)")


def number(v: Value) -> float | XlError:
    """A value as a number, the way arithmetic takes it."""
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, float):
        return v
    if isinstance(v, XlError):
        return v
    if isinstance(v, int):
        return float(v)
    m = _NUMERIC.fullmatch(v.strip())
    if m is None:  # not "inf", "nan" or "1_000": Python reads them, Excel does not
        return VALUE
    x = float(m.group(1))
    return x / 100 if m.group(2) else x


def text_of(v: Value) -> str | XlError:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, XlError):
        return v
    if isinstance(v, float | int):
        return format_number(float(v))
    return v


def format_number(x: float) -> str:
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return format(x, ".15g")


def truth(v: Value) -> bool | XlError:
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        upper = v.strip().upper()
        if upper in ("TRUE", "FALSE"):
            return upper == "TRUE"
        return VALUE
    return bool(v)


def rank_key(v: Value) -> tuple[int, Any]:
    if v is None:
        return (0, 0.0)
    if isinstance(v, bool):
        return (3, v)
    if isinstance(v, float | int):
        return (1, float(v))
    if isinstance(v, str):
        return (2, v.lower())
    return (4, 0)


def compare(op: str, a: Value, b: Value) -> Value:
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    if a is None:
        a = "" if isinstance(b, str) else False if isinstance(b, bool) else 0.0
    if b is None:
        b = "" if isinstance(a, str) else False if isinstance(a, bool) else 0.0
    ka, kb = rank_key(a), rank_key(b)
    if op == "=":
        return ka == kb
    if op == "<>":
        return ka != kb
    if op == "<":
        return ka < kb
    if op == ">":
        return ka > kb
    if op == "<=":
        return ka <= kb
    return ka >= kb


def arith(op: str, a: Value, b: Value) -> Value:
    x = number(a)
    if isinstance(x, XlError):
        return x
    y = number(b)
    if isinstance(y, XlError):
        return y
    try:
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op == "/":
            return DIV0 if y == 0 else x / y
        result = x**y
    except (OverflowError, ZeroDivisionError):
        return NUM if op == "^" else DIV0
    if isinstance(result, complex):
        return NUM
    return float(result)


def binary(op: str, a: Value, b: Value) -> Value:
    if op in ("+", "-", "*", "/", "^"):
        return arith(op, a, b)
    if op == "&":
        x, y = text_of(a), text_of(b)
        if isinstance(x, XlError):
            return x
        if isinstance(y, XlError):
            return y
        return x + y
    return compare(op, a, b)


def values_of(book: Book, area: Area) -> Array:
    rows, cols = book.extent(area.sheet)
    r2, c2 = min(area.r2, max(rows, area.r1)), min(area.c2, max(cols, area.c1))
    block = getattr(book, "block", None)
    if block is not None:
        return block(area.sheet, area.r1, area.c1, r2, c2)  # type: ignore[no-any-return]
    get = book.value
    sheet = area.sheet
    return [[get(sheet, r, c) for c in range(area.c1, c2 + 1)] for r in range(area.r1, r2 + 1)]


def scalar(book: Book, value: Result, row: int, col: int) -> Value:
    """A result as one value: a one-cell range is its cell, a range in the formula's own row or
    column gives the cell there (implicit intersection), anything else #VALUE!."""
    if isinstance(value, Area):
        if value.rows == 1 and value.cols == 1:
            return book.value(value.sheet, value.r1, value.c1)
        if value.cols == 1 and value.r1 <= row <= value.r2:
            return book.value(value.sheet, row, value.c1)
        if value.rows == 1 and value.c1 <= col <= value.c2:
            return book.value(value.sheet, value.r1, col)
        return VALUE
    if isinstance(value, list):
        return value[0][0] if value and value[0] else VALUE
    return value


def as_grid(book: Book, value: Result) -> Array:
    if isinstance(value, Area):
        return values_of(book, value)
    if isinstance(value, list):
        return value
    return [[value]]


def element(g: Array, r: int, c: int) -> Value:
    """Element (r, c) of an array stretched to a larger one, as Excel stretches it: a single
    value everywhere, a single row down, a single column across; beyond that, #N/A."""
    if len(g) == 1 and len(g[0]) == 1:
        return g[0][0]
    if r < len(g) and c < len(g[0]):
        return g[r][c]
    if len(g) == 1 and c < len(g[0]):
        return g[0][c]
    if len(g[0]) == 1 and r < len(g):
        return g[r][0]
    return NA


def broadcast(op: str, a: Array, b: Array) -> Array:
    rows = max(len(a), len(b))
    cols = max(len(a[0]), len(b[0]))
    return [
        [binary(op, element(a, r, c), element(b, r, c)) for c in range(cols)] for r in range(rows)
    ]
