"""A spreadsheet formula engine: Excel formula text compiled once per shape to Python closures.

Formulas that differ only in their relative references (``=B5+C5`` in row 5, ``=B6+C6`` in
row 6) share one compiled closure: references are kept as offsets from the formula's own cell,
so a crosstable of thousands of formulas compiles a few dozen. Values follow the spreadsheet
conventions: numbers are floats, a blank cell is ``None``, texts are ``str``, logicals ``bool``,
errors :class:`XlError`.

The engine knows the FIDE functions (through :mod:`fide_rating.cells`, the same code as the
add-ins) and the standard functions that crosstables and ordinary sheets use. Anything else
raises :class:`Unsupported` at compile time, so the caller can leave that cell as it was.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation
from typing import Any, Protocol

from .cells import BY_NAME, call


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
_EPOCH = _dt.date(1899, 12, 30)


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


Array = list[list[Value]]
Result = Value | Area | Array
Fn = Callable[[Book, str, int, int], Result]  # (book, host sheet, host row, host col)

# --- tokens ---------------------------------------------------------------------------------

_COL = r"\$?[A-Za-z]{1,3}"
_ROW = r"\$?[0-9]{1,7}"
_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_\u00c0-\uffff][\w.\u00c0-\uffff]*)!"
_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<string>"(?:[^"]|"")*")
  | (?P<error>\#NULL!|\#DIV/0!|\#VALUE!|\#REF!|\#NAME\?|\#NUM!|\#N/A)
  | (?P<func>(?:_xlfn\.|_xlws\.)?[A-Za-z_][\w.]*(?=\())
  | (?P<ref>(?:{_SHEET})?(?:{_COL}{_ROW}(?::{_COL}{_ROW})?|{_COL}:{_COL}|{_ROW}:{_ROW})(?![\w(]))
  | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>(?:{_SHEET})?[A-Za-z_\\][\w.]*)
  | (?P<op><>|<=|>=|[-+*/^&=<>%(),;:{{}}])
    """,
    re.VERBOSE,
)


def col_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def col_letters(n: int) -> str:
    out = ""
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def tokenize(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise Unsupported(f"cannot read the formula at {text[pos : pos + 12]!r}")
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group()))
        pos = m.end()
    return out


# --- parsing to a tree ----------------------------------------------------------------------
# Nodes: ("num", float) ("str", s) ("bool", b) ("err", XlError) ("missing",)
# ("cell", sheet|None, row, row_abs, col, col_abs) ("area", sheet|None, (r1, ra1, c1, ca1),
# (r2, ra2, c2, ca2)) ("name", text) ("call", NAME, [args]) ("neg", x) ("pct", x)
# ("bin", op, a, b) ("array", rows)

_BINARY = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3, "*": 4,
           "/": 4, "^": 5}  # fmt: skip


def _sheet_name(text: str) -> str:
    return text[1:-1].replace("''", "'") if text.startswith("'") else text


def _split_ref(text: str) -> tuple[str | None, str]:
    if "!" in text:
        sheet, _, ref = text.rpartition("!")
        return _sheet_name(sheet), ref
    return None, text


def _corner(text: str) -> tuple[int, bool, int, bool]:
    m = re.fullmatch(r"(\$?)([A-Za-z]{1,3})(\$?)([0-9]+)", text)
    if m is None:
        raise Unsupported(f"bad reference {text!r}")
    return int(m.group(4)), m.group(3) == "$", col_number(m.group(2)), m.group(1) == "$"


def _ref_node(text: str, host_row: int, host_col: int) -> tuple[Any, ...]:
    """A reference with its relative parts as offsets from the host cell."""
    sheet, ref = _split_ref(text)

    def rel(row: int, rabs: bool, col: int, cabs: bool) -> tuple[int, bool, int, bool]:
        return (row if rabs else row - host_row, rabs, col if cabs else col - host_col, cabs)

    if ":" not in ref:
        return ("cell", sheet, *rel(*_corner(ref)))
    a, b = ref.split(":")
    if a.lstrip("$").isdigit():  # whole rows
        r1, r2 = int(a.lstrip("$")), int(b.lstrip("$"))
        return ("area", sheet, rel(r1, a.startswith("$"), 1, True),
                rel(r2, b.startswith("$"), MAX_COLS, True))  # fmt: skip
    if a.lstrip("$").isalpha():  # whole columns
        c1, c2 = col_number(a.lstrip("$")), col_number(b.lstrip("$"))
        return ("area", sheet, rel(1, True, c1, a.startswith("$")),
                rel(MAX_ROWS, True, c2, b.startswith("$")))  # fmt: skip
    return ("area", sheet, rel(*_corner(a)), rel(*_corner(b)))


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], row: int, col: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.row = row
        self.col = col

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        self.pos += 1
        return tok

    def expect(self, text: str) -> None:
        _, value = self.take()
        if value != text:
            raise Unsupported(f"expected {text!r} in the formula, found {value!r}")

    def parse(self) -> tuple[Any, ...]:
        node = self.expression(0)
        if self.peek()[0] != "end":
            raise Unsupported(f"unexpected {self.peek()[1]!r} in the formula")
        return node

    def expression(self, level: int) -> tuple[Any, ...]:
        left = self.unary()
        while True:
            kind, op = self.peek()
            prec = _BINARY.get(op) if kind == "op" else None
            if prec is None or prec <= level:
                return left
            self.take()
            # ^ is left-associative in spreadsheets, like the others
            right = self.expression(prec)
            left = ("bin", op, left, right)

    def unary(self) -> tuple[Any, ...]:
        kind, op = self.peek()
        if kind == "op" and op in "+-":
            self.take()
            operand = self.unary()
            return ("neg", operand) if op == "-" else operand
        return self.postfix()

    def postfix(self) -> tuple[Any, ...]:
        node = self.primary()
        while self.peek() == ("op", "%"):
            self.take()
            node = ("pct", node)
        return node

    def primary(self) -> tuple[Any, ...]:
        kind, text = self.take()
        if kind == "number":
            return ("num", float(text))
        if kind == "string":
            return ("str", text[1:-1].replace('""', '"'))
        if kind == "error":
            return ("err", ERRORS[text])
        if kind == "ref":
            node = _ref_node(text, self.row, self.col)
            if node[0] == "cell" and self.peek() == ("op", ":"):
                # A1:B2 written with a sheet only on the left, or ranges built from names
                self.take()
                k2, t2 = self.take()
                if k2 != "ref":
                    raise Unsupported("a range must join two cell references")
                other = _ref_node(t2, self.row, self.col)
                if other[0] != "cell":
                    raise Unsupported("a range must join two cell references")
                return ("area", node[1], node[2:], other[2:])
            return node
        if kind == "func":
            name = text.upper()
            for prefix in ("_XLFN.", "_XLWS."):
                name = name.removeprefix(prefix)
            self.expect("(")
            args: list[tuple[Any, ...]] = []
            if self.peek() == ("op", ")"):
                self.take()
                return ("call", name, args)
            while True:
                if self.peek()[1] in (",", ";", ")"):
                    args.append(("missing",))
                else:
                    args.append(self.expression(0))
                _, sep = self.take()
                if sep == ")":
                    return ("call", name, args)
                if sep not in (",", ";"):
                    raise Unsupported(f"expected , or ) in the arguments of {name}")
        if kind == "name":
            upper = text.upper()
            if upper in ("TRUE", "FALSE"):
                return ("bool", upper == "TRUE")
            return ("name", text)
        if (kind, text) == ("op", "("):
            node = self.expression(0)
            self.expect(")")
            return node
        if (kind, text) == ("op", "{"):
            return self.array()
        raise Unsupported(f"unexpected {text or 'end'!r} in the formula")

    def array(self) -> tuple[Any, ...]:
        rows: list[list[Value]] = [[]]
        while True:
            kind, text = self.take()
            sign = 1.0
            if (kind, text) == ("op", "-"):
                sign = -1.0
                kind, text = self.take()
            if kind == "number":
                rows[-1].append(sign * float(text))
            elif kind == "string":
                rows[-1].append(text[1:-1].replace('""', '"'))
            elif kind == "name" and text.upper() in ("TRUE", "FALSE"):
                rows[-1].append(text.upper() == "TRUE")
            elif kind == "error":
                rows[-1].append(ERRORS[text])
            else:
                raise Unsupported("array constants hold numbers, texts and logicals only")
            kind, sep = self.take()
            if sep == "}":
                return ("array", rows)
            if sep == ";":
                rows.append([])
            elif sep != ",":
                raise Unsupported("bad array constant")


_SHAPE = re.compile(
    rf"(?P<sheet>{_SHEET})?(?P<cabs>\$?)(?P<col>[A-Za-z]{{1,3}})(?P<rabs>\$?)(?P<row>[0-9]{{1,7}})"
    r'(?![\w(])|"(?:[^"]|"")*"'
)
_COLUMN_NUMBERS = {col_letters(n): n for n in range(1, 703)}  # A .. ZZ
_LETTER_DIGIT = re.compile(r"(?<=[A-Za-z])[0-9]")
_ROW_PATTERNS: dict[int, re.Pattern[str]] = {}


def _quick_shape(formula: str, row: int, col: int) -> str | None:
    """A cheap shape key for the common case, or None.

    In the formula's own column, the row number after a column letter is the formula's own
    row in a relative reference: replaced by #, formulas filled down a column share one key.
    The key is only used when nothing else could differ: no text but "", no other
    letter-digit pair left (a reference to another row, a name with digits, 1E5 ...).
    """
    if '"' in formula.replace('""', "") or (":" in formula and _WHOLE.search(formula)):
        return None
    pattern = _ROW_PATTERNS.get(row)
    if pattern is None:
        pattern = _ROW_PATTERNS[row] = re.compile(rf"(?<=[A-Za-z]){row}(?![0-9])")
    key = pattern.sub("#", formula)
    if _LETTER_DIGIT.search(key):
        return None
    return f"{col}|{key}"


_STRINGS = re.compile(r'"(?:[^"]|"")*"')
_WHOLE = re.compile(
    r"(?<![\w$.])\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![\w(])|(?<![\w$.])\$?\d+:\$?\d+(?![\w.])"
)

# --- values ---------------------------------------------------------------------------------


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
    text = v.strip()
    if not text:
        return VALUE
    try:
        return float(text)
    except ValueError:
        return VALUE


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


def _rank(v: Value) -> tuple[int, Any]:
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
    ka, kb = _rank(a), _rank(b)
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


# --- the compiler ---------------------------------------------------------------------------


def _area_of(node: tuple[Any, ...], sheet: str, row: int, col: int) -> Area:
    def at(part: tuple[int, bool, int, bool]) -> tuple[int, int]:
        r, rabs, c, cabs = part
        return (r if rabs else row + r, c if cabs else col + c)

    r1, c1 = at(node[2])
    r2, c2 = at(node[3])
    return Area(node[1] or sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


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


def _grid(book: Book, value: Result) -> Array:
    if isinstance(value, Area):
        return values_of(book, value)
    if isinstance(value, list):
        return value
    return [[value]]


def _broadcast(op: str, a: Array, b: Array) -> Array:
    rows = max(len(a), len(b))
    cols = max(len(a[0]), len(b[0]))

    def at(g: Array, r: int, c: int) -> Value:
        if len(g) == 1 and len(g[0]) == 1:
            return g[0][0]
        if r < len(g) and c < len(g[0]):
            return g[r][c]
        if len(g) == 1 and c < len(g[0]):
            return g[0][c]
        if len(g[0]) == 1 and r < len(g):
            return g[r][0]
        return NA

    return [[binary(op, at(a, r, c), at(b, r, c)) for c in range(cols)] for r in range(rows)]


class Compiler:
    """Compiles formula text into closures; one closure per formula shape."""

    def __init__(self, names: dict[str, str] | None = None) -> None:
        self.names = {k.upper(): v for k, v in (names or {}).items()}
        self._cache: dict[str, Fn] = {}
        self._name_cache: dict[str, Fn] = {}

    def compile(self, formula: str, row: int, col: int) -> Fn:
        """The closure for ``formula`` (without its leading =) written in cell (row, col)."""
        key = _quick_shape(formula, row, col)
        if key is None:
            key = self.shape(formula, row, col)
            if _WHOLE.search(_STRINGS.sub('""', formula)):
                key = f"{row},{col}|{key}"  # whole rows or columns: not shifted by shape()
        found = self._cache.get(key)
        if found is None:
            tree = _Parser(tokenize(formula), row, col).parse()
            found = self._cache[key] = self.node(tree, array=False)
        return found

    @staticmethod
    def shape(formula: str, row: int, col: int) -> str:
        """The formula with relative references written as offsets (R1C1-like)."""

        def sub(m: re.Match[str]) -> str:
            letters = m.group("col")
            if letters is None:
                return m.group()
            r = int(m.group("row"))
            c = _COLUMN_NUMBERS.get(letters) or col_number(letters)
            rs = f"R{r}" if m.group("rabs") else f"R[{r - row}]"
            cs = f"C{c}" if m.group("cabs") else f"C[{c - col}]"
            return f"{m.group('sheet') or ''}{rs}{cs}"

        return _SHAPE.sub(sub, formula)

    def node(self, n: tuple[Any, ...], *, array: bool) -> Fn:
        kind = n[0]
        if kind in ("num", "str", "bool", "err"):
            constant: Value = n[1]
            return lambda book, sh, r, c: constant
        if kind == "missing":
            return lambda book, sh, r, c: None
        if kind == "array":
            rows: Array = n[1]
            return lambda book, sh, r, c: rows
        if kind == "cell":
            _, sheet, row, rabs, col, cabs = n
            if rabs and cabs:
                if sheet is None:
                    return lambda book, sh, r, c: book.value(sh, row, col)
                return lambda book, sh, r, c: book.value(sheet, row, col)
            if sheet is None and not rabs and not cabs:
                return lambda book, sh, r, c: book.value(sh, r + row, c + col)
            return lambda book, sh, r, c: book.value(
                sheet or sh, row if rabs else r + row, col if cabs else c + col
            )
        if kind == "area":
            return lambda book, sh, r, c: _area_of(n, sh, r, c)
        if kind == "name":
            return self.name(n[1])
        if kind == "neg":
            inner = self.node(n[1], array=array)

            def neg(book: Book, sh: str, r: int, c: int) -> Result:
                v = inner(book, sh, r, c)
                if array and isinstance(v, Area | list):
                    return _broadcast("*", _grid(book, v), [[-1.0]])
                return arith("*", scalar(book, v, r, c), -1.0)

            return neg
        if kind == "pct":
            inner = self.node(n[1], array=array)
            return lambda book, sh, r, c: arith(
                "/", scalar(book, inner(book, sh, r, c), r, c), 100.0
            )
        if kind == "bin":
            op = n[1]
            left, right = self.node(n[2], array=array), self.node(n[3], array=array)
            if array:

                def vec(book: Book, sh: str, r: int, c: int) -> Result:
                    a, b = left(book, sh, r, c), right(book, sh, r, c)
                    if isinstance(a, Area | list) or isinstance(b, Area | list):
                        return _broadcast(op, _grid(book, a), _grid(book, b))
                    return binary(op, a, b)

                return vec
            return lambda book, sh, r, c: binary(
                op,
                scalar(book, left(book, sh, r, c), r, c),
                scalar(book, right(book, sh, r, c), r, c),
            )
        if kind == "call":
            return self.function(n[1], n[2], array=array)
        raise Unsupported(f"cannot evaluate {kind}")

    def name(self, text: str) -> Fn:
        upper = text.upper()
        found = self._name_cache.get(upper)
        if found is not None:
            return found
        target = self.names.get(upper)
        if target is None:
            raise Unsupported(f"unknown name {text!r}")
        tree = _Parser(tokenize(target.lstrip("=")), 1, 1).parse()
        found = self._name_cache[upper] = self.node(tree, array=False)
        return found

    def function(self, name: str, args: list[tuple[Any, ...]], *, array: bool) -> Fn:
        if name in BY_NAME:
            return _fide(name, [self.node(a, array=False) for a in args])
        spec = FUNCTIONS.get(name)
        if spec is None:
            raise Unsupported(f"function {name} is not supported")
        impl, lazy, arrays = spec
        compiled = [self.node(a, array=arrays or array) for a in args]
        if lazy:
            return lambda book, sh, r, c: impl(book, sh, r, c, compiled)
        return lambda book, sh, r, c: impl(book, sh, r, c, [f(book, sh, r, c) for f in compiled])


def _fide(name: str, args: list[Fn]) -> Fn:
    """A FIDE function: ranges as lists of rows, blanks as None (what xlwings passes); any
    error among the arguments is the result, as in LibreOffice."""
    function = BY_NAME[name]

    def run(book: Book, sh: str, r: int, c: int) -> Result:
        values: list[object] = []
        for f in args:
            v = f(book, sh, r, c)
            if isinstance(v, Area | list):
                grid = _grid(book, v)
                for line in grid:
                    for x in line:
                        if isinstance(x, XlError):
                            return x
                values.append(grid)
            elif isinstance(v, XlError):
                return v
            else:
                values.append(v)
        out = call(function, *values)
        return float(out) if isinstance(out, int) else out

    return run


# --- the standard functions -------------------------------------------------------------------

Impl = Callable[[Book, str, int, int, list[Any]], Result]
FUNCTIONS: dict[str, tuple[Impl, bool, bool]] = {}  # name -> (impl, lazy args, array args)


def register(*names: str, lazy: bool = False, arrays: bool = False) -> Callable[[Impl], Impl]:
    def deco(f: Impl) -> Impl:
        for n in names:
            FUNCTIONS[n] = (f, lazy, arrays)
        return f

    return deco


def _flat(book: Book, args: list[Result]) -> Iterator[tuple[Value, bool]]:
    """Every value of the arguments, with whether it came from a range (ranges skip texts and
    logicals in SUM, COUNT ...)."""
    for a in args:
        if isinstance(a, Area | list):
            for line in _grid(book, a):
                for v in line:
                    yield v, True
        else:
            yield a, False


def _numbers(book: Book, args: list[Result]) -> list[float] | XlError:
    out: list[float] = []
    for v, from_range in _flat(book, args):
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


def _one(book: Book, v: Result, r: int, c: int) -> Value:
    return scalar(book, v, r, c)


def _num_arg(book: Book, v: Result, r: int, c: int) -> float | XlError:
    return number(_one(book, v, r, c))


@register("SUM")
def _sum(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _numbers(book, args)
    return nums if isinstance(nums, XlError) else math.fsum(nums)


@register("PRODUCT")
def _product(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _numbers(book, args)
    return nums if isinstance(nums, XlError) else math.prod(nums) if nums else 0.0


@register("AVERAGE")
def _average(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _numbers(book, args)
    if isinstance(nums, XlError):
        return nums
    return math.fsum(nums) / len(nums) if nums else DIV0


@register("MIN")
def _min(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _numbers(book, args)
    return nums if isinstance(nums, XlError) else min(nums, default=0.0)


@register("MAX")
def _max(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _numbers(book, args)
    return nums if isinstance(nums, XlError) else max(nums, default=0.0)


@register("MEDIAN")
def _median(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _numbers(book, args)
    if isinstance(nums, XlError):
        return nums
    if not nums:
        return NUM
    s = sorted(nums)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


@register("COUNT")
def _count(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    n = 0
    for v, from_range in _flat(book, args):
        if (isinstance(v, float | int) and not isinstance(v, bool)) or (
            not from_range and v is not None and not isinstance(number(v), XlError)
        ):
            n += 1
    return float(n)


@register("COUNTA")
def _counta(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(v is not None for v, _ in _flat(book, args)))


@register("COUNTBLANK")
def _countblank(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(v is None or v == "" for v, _ in _flat(book, args)))


def _criterion(crit: Value) -> Callable[[Value], bool]:
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


def _pairs(book: Book, area: Result, crit: Result, r: int, c: int) -> list[bool]:
    test = _criterion(_one(book, crit, r, c))
    return [test(v) for line in _grid(book, area) for v in line]


@register("COUNTIF")
def _countif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(sum(_pairs(book, args[0], args[1], r, c)))


@register("COUNTIFS")
def _countifs(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    hits = [all(t) for t in zip(*(_pairs(book, args[i], args[i + 1], r, c)
                                  for i in range(0, len(args), 2)), strict=True)]  # fmt: skip
    return float(sum(hits))


def _sum_where(book: Book, hits: list[bool], area: Result) -> Result:
    total = []
    for hit, v in zip(hits, (v for line in _grid(book, area) for v in line), strict=False):
        if hit and isinstance(v, float | int) and not isinstance(v, bool):
            total.append(float(v))
    return math.fsum(total)


@register("SUMIF")
def _sumif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return _sum_where(
        book, _pairs(book, args[0], args[1], r, c), args[2] if len(args) > 2 else args[0]
    )


@register("SUMIFS")
def _sumifs(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    hits = [all(t) for t in zip(*(_pairs(book, args[i], args[i + 1], r, c)
                                  for i in range(1, len(args), 2)), strict=True)]  # fmt: skip
    return _sum_where(book, hits, args[0])


@register("AVERAGEIF")
def _averageif(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    hits = _pairs(book, args[0], args[1], r, c)
    area = args[2] if len(args) > 2 else args[0]
    cells = (v for line in _grid(book, area) for v in line)
    vals = [
        float(v)
        for hit, v in zip(hits, cells, strict=False)
        if hit and isinstance(v, float | int) and not isinstance(v, bool)
    ]
    return math.fsum(vals) / len(vals) if vals else DIV0


@register("SUMPRODUCT", arrays=True)
def _sumproduct(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    grids = [_grid(book, a) for a in args]
    flat = [[v for line in g for v in line] for g in grids]
    if len({len(f) for f in flat}) > 1:
        return VALUE
    total = []
    for items in zip(*flat, strict=True):
        prod = 1.0
        for v in items:
            if isinstance(v, XlError):
                return v
            prod *= float(v) if isinstance(v, float | int) else 0.0
        total.append(prod)
    return math.fsum(total)


def _decimal_round(x: float, digits: float, mode: str) -> float:
    try:
        q = Decimal(1).scaleb(-int(digits))
        return float(Decimal(repr(x)).quantize(q, rounding=mode))
    except (InvalidOperation, ValueError, OverflowError):
        return x


def _rounder(mode: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x = _num_arg(book, args[0], r, c)
        d = _num_arg(book, args[1], r, c) if len(args) > 1 else 0.0
        if isinstance(x, XlError):
            return x
        if isinstance(d, XlError):
            return d
        return _decimal_round(x, d, mode)

    return impl


register("ROUND")(_rounder(ROUND_HALF_UP))
register("ROUNDUP")(_rounder(ROUND_UP))
register("ROUNDDOWN", "TRUNC")(_rounder(ROUND_DOWN))


def _math1(f: Callable[[float], float]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        x = _num_arg(book, args[0], r, c)
        if isinstance(x, XlError):
            return x
        try:
            return float(f(x))
        except (ValueError, OverflowError):
            return NUM

    return impl


register("ABS")(_math1(abs))
register("INT")(_math1(lambda x: float(math.floor(x))))
register("SIGN")(_math1(lambda x: float((x > 0) - (x < 0))))
register("SQRT")(_math1(math.sqrt))


@register("MOD")
def _mod(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x, y = _num_arg(book, args[0], r, c), _num_arg(book, args[1], r, c)
    if isinstance(x, XlError):
        return x
    if isinstance(y, XlError):
        return y
    return DIV0 if y == 0 else x - y * math.floor(x / y)


@register("POWER")
def _power(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return arith("^", _one(book, args[0], r, c), _one(book, args[1], r, c))


@register("IF", lazy=True)
def _if(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    cond = truth(scalar(book, args[0](book, sh, r, c), r, c))
    if isinstance(cond, XlError):
        return cond
    if cond:
        return args[1](book, sh, r, c) if len(args) > 1 else True
    return args[2](book, sh, r, c) if len(args) > 2 else False


@register("IFERROR", lazy=True)
def _iferror(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    v = scalar(book, args[0](book, sh, r, c), r, c)
    return args[1](book, sh, r, c) if isinstance(v, XlError) else v


@register("IFNA", lazy=True)
def _ifna(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    v = scalar(book, args[0](book, sh, r, c), r, c)
    return args[1](book, sh, r, c) if v == NA else v


@register("CHOOSE", lazy=True)
def _choose(book: Book, sh: str, r: int, c: int, args: list[Fn]) -> Result:
    i = number(scalar(book, args[0](book, sh, r, c), r, c))
    if isinstance(i, XlError):
        return i
    k = int(i)
    return args[k](book, sh, r, c) if 1 <= k < len(args) else VALUE


def _logic(all_: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        seen = []
        for v, from_range in _flat(book, args):
            if isinstance(v, XlError):
                return v
            if v is None or (from_range and isinstance(v, str)):
                continue
            t = truth(v)
            if isinstance(t, XlError):
                return t
            seen.append(t)
        if not seen:
            return VALUE
        return all(seen) if all_ else any(seen)

    return impl


register("AND")(_logic(True))
register("OR")(_logic(False))


@register("NOT")
def _not(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    t = truth(_one(book, args[0], r, c))
    return t if isinstance(t, XlError) else not t


@register("TRUE")
def _true(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return True


@register("FALSE")
def _false(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return False


@register("NA")
def _na(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return NA


def _is(test: Callable[[Value], bool]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        return test(_one(book, args[0], r, c))

    return impl


register("ISBLANK")(_is(lambda v: v is None))
register("ISNUMBER")(_is(lambda v: isinstance(v, float | int) and not isinstance(v, bool)))
register("ISTEXT")(_is(lambda v: isinstance(v, str)))
register("ISNONTEXT")(_is(lambda v: not isinstance(v, str)))
register("ISLOGICAL")(_is(lambda v: isinstance(v, bool)))
register("ISERROR")(_is(lambda v: isinstance(v, XlError)))
register("ISERR")(_is(lambda v: isinstance(v, XlError) and v != NA))
register("ISNA")(_is(lambda v: v == NA))


@register("N")
def _n(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    v = _one(book, args[0], r, c)
    if isinstance(v, XlError):
        return v
    return 1.0 * v if isinstance(v, float | int) else 0.0


@register("INDEX")
def _index(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    area = args[0]
    row = _num_arg(book, args[1], r, c) if len(args) > 1 and args[1] is not None else 0.0
    col = _num_arg(book, args[2], r, c) if len(args) > 2 and args[2] is not None else 0.0
    if isinstance(row, XlError):
        return row
    if isinstance(col, XlError):
        return col
    i, j = int(row), int(col)
    if isinstance(area, Area):
        if area.rows == 1 and len(args) == 2:
            i, j = 1, i
        elif area.cols == 1 and j == 0:
            j = 1
        if i < 0 or j < 0 or i > area.rows or j > area.cols:
            return REF
        if i == 0 or j == 0:  # a whole row or column of the area
            top, bottom = (area.r1, area.r2) if i == 0 else (area.r1 + i - 1, area.r1 + i - 1)
            left, right = (area.c1, area.c2) if j == 0 else (area.c1 + j - 1, area.c1 + j - 1)
            return Area(area.sheet, top, left, bottom, right)
        return Area(area.sheet, area.r1 + i - 1, area.c1 + j - 1, area.r1 + i - 1, area.c1 + j - 1)
    grid = _grid(book, area)
    if len(grid) == 1 and len(args) == 2:
        i, j = 1, i
    j = j or 1
    if not (1 <= i <= len(grid) and 1 <= j <= len(grid[0])):
        return REF
    return grid[i - 1][j - 1]


def _lookup_line(book: Book, v: Result) -> list[Value]:
    return [x for line in _grid(book, v) for x in line]


def _match_pos(goal: Value, line: list[Value], mode: float) -> int | None:
    if mode == 0:
        test = (
            _criterion(goal) if isinstance(goal, str) else (lambda v: compare("=", v, goal) is True)
        )
        for k, v in enumerate(line):
            if v is not None and test(v):
                return k
        return None
    best = None
    for k, v in enumerate(line):
        if v is None or isinstance(v, XlError) or _rank(v)[0] != _rank(goal)[0]:
            continue
        ok = compare("<=", v, goal) if mode > 0 else compare(">=", v, goal)
        if ok is True:
            best = k
        else:
            break
    return best


@register("MATCH")
def _match(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    goal = _one(book, args[0], r, c)
    if isinstance(goal, XlError):
        return goal
    mode = _num_arg(book, args[2], r, c) if len(args) > 2 and args[2] is not None else 1.0
    if isinstance(mode, XlError):
        return mode
    k = _match_pos(goal, _lookup_line(book, args[1]), mode)
    return NA if k is None else float(k + 1)


def _lookup(vertical: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        goal = _one(book, args[0], r, c)
        if isinstance(goal, XlError):
            return goal
        grid = _grid(book, args[1])
        if not vertical:
            grid = [list(t) for t in zip(*grid, strict=True)]
        idx = _num_arg(book, args[2], r, c)
        if isinstance(idx, XlError):
            return idx
        approx = True
        if len(args) > 3 and args[3] is not None:
            t = truth(_one(book, args[3], r, c))
            if isinstance(t, XlError):
                return t
            approx = t
        k = _match_pos(goal, [line[0] for line in grid], 1.0 if approx else 0.0)
        if k is None:
            return NA
        j = int(idx)
        if not 1 <= j <= len(grid[k]):
            return REF
        return grid[k][j - 1]

    return impl


register("VLOOKUP")(_lookup(True))
register("HLOOKUP")(_lookup(False))


@register("ROWS")
def _rows(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return float(a.rows) if isinstance(a, Area) else float(len(_grid(book, a)))


@register("COLUMNS")
def _columns(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a = args[0]
    return float(a.cols) if isinstance(a, Area) else float(len(_grid(book, a)[0]))


@register("ROW")
def _row(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(args[0].r1) if args and isinstance(args[0], Area) else float(r)


@register("COLUMN")
def _column(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return float(args[0].c1) if args and isinstance(args[0], Area) else float(c)


def _text1(f: Callable[[str], Value]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        t = text_of(_one(book, args[0], r, c))
        return t if isinstance(t, XlError) else f(t)

    return impl


register("LEN")(_text1(lambda t: float(len(t))))
register("UPPER")(_text1(str.upper))
register("LOWER")(_text1(str.lower))
register("TRIM")(_text1(lambda t: " ".join(part for part in t.split(" ") if part)))
register("VALUE")(_text1(number))


def _cut(which: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        t = text_of(_one(book, args[0], r, c))
        if isinstance(t, XlError):
            return t
        if which == "MID":
            start, n = _num_arg(book, args[1], r, c), _num_arg(book, args[2], r, c)
            if isinstance(start, XlError) or isinstance(n, XlError):
                return VALUE
            return t[int(start) - 1 : int(start) - 1 + int(n)] if start >= 1 and n >= 0 else VALUE
        n = _num_arg(book, args[1], r, c) if len(args) > 1 else 1.0
        if isinstance(n, XlError) or n < 0:
            return VALUE
        k = int(n)
        return t[:k] if which == "LEFT" else (t[-k:] if k else "")

    return impl


register("LEFT")(_cut("LEFT"))
register("RIGHT")(_cut("RIGHT"))
register("MID")(_cut("MID"))


@register("CONCATENATE", "CONCAT")
def _concat(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    out = []
    for v, _ in _flat(book, args):
        t = text_of(v)
        if isinstance(t, XlError):
            return t
        out.append(t)
    return "".join(out)


@register("EXACT")
def _exact(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    a, b = text_of(_one(book, args[0], r, c)), text_of(_one(book, args[1], r, c))
    return a == b


def _serial(d: _dt.date) -> float:
    return float((d - _EPOCH).days)


def _date_of(book: Book, v: Result, r: int, c: int) -> _dt.date | XlError:
    x = _num_arg(book, v, r, c)
    if isinstance(x, XlError):
        return x
    if not 0 <= x < 2958466:
        return NUM
    return _EPOCH + _dt.timedelta(days=int(x))


@register("DATE")
def _date(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    parts = [_num_arg(book, a, r, c) for a in args[:3]]
    for p in parts:
        if isinstance(p, XlError):
            return p
    y, m, d = (int(p) for p in parts)  # type: ignore[arg-type]
    if y < 1900:
        y += 1900
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    try:
        return _serial(_dt.date(y, m, 1) + _dt.timedelta(days=d - 1))
    except (ValueError, OverflowError):
        return NUM


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


def _nth(largest: bool) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        nums = _numbers(book, [args[0]])
        k = _num_arg(book, args[1], r, c)
        if isinstance(nums, XlError):
            return nums
        if isinstance(k, XlError):
            return k
        s = sorted(nums, reverse=largest)
        return s[int(k) - 1] if 1 <= k <= len(s) else NUM

    return impl


register("LARGE")(_nth(True))
register("SMALL")(_nth(False))


@register("RANK", "RANK.EQ")
def _rankfn(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    x = _num_arg(book, args[0], r, c)
    if isinstance(x, XlError):
        return x
    nums = _numbers(book, [args[1]])
    if isinstance(nums, XlError):
        return nums
    asc = (
        len(args) > 2
        and args[2] is not None
        and number(_one(book, args[2], r, c)) not in (0.0, VALUE)
    )
    if x not in nums:
        return NA
    return float(1 + sum((v < x) if asc else (v > x) for v in nums))
