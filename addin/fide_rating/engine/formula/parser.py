"""Formula text to a syntax tree: tokens, references (kept relative to the host cell), shapes.

May import: :mod:`.values` and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from .values import ERRORS, MAX_COLS, MAX_ROWS, Unsupported, Value

# --- tokens ---------------------------------------------------------------------------------

_COL = r"\$?[A-Za-z]{1,3}"
_ROW = r"\$?[0-9]{1,7}"
_WORD = r"[A-Za-z_\u00c0-\uffff][\w.\u00c0-\uffff]*"
# a sheet: quoted, or a plain name; [1] in front for another workbook's (Excel's external
# link number), and First:Last for a 3-D reference through the sheets between them
_SHEET = rf"(?:'(?:[^']|'')+'|(?:\[\d+\])?{_WORD}(?::{_WORD})?)!"
_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<string>"(?:[^"]|"")*")
  | (?P<error>(?:{_SHEET})?\#REF!|\#NULL!|\#DIV/0!|\#VALUE!|\#NAME\?|\#NUM!|\#N/A)
  | (?P<func>(?:\[\d+\]!)?(?:_xlfn\.|_xlws\.)?[A-Za-z_][\w.]*(?=\())
  | (?P<ref>(?:{_SHEET})?(?:{_COL}{_ROW}(?::{_COL}{_ROW})?|{_COL}:{_COL}|{_ROW}:{_ROW})(?![\w(]))
  | (?P<number>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>(?:{_SHEET}|\[\d+\]!)?(?:[^\W\d]|\\)[\w.]*)
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
    """The formula's tokens; a space between two references (``A1:B5 B2:C3``) is Excel's
    intersection operator, given as the token ``("op", " ")``."""
    out: list[tuple[str, str]] = []
    pos = 0
    spaced = False
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise Unsupported(f"cannot read the formula at {text[pos : pos + 12]!r}")
        kind = m.lastgroup or ""
        if kind == "ws":
            spaced = True
        else:
            tokens = [(kind, m.group())]
            if kind == "ref" and not _in_grid(m.group()):
                tokens = _beyond_grid(m.group())
            if spaced and out and _ends_operand(out[-1]) and _starts_operand(tokens[0]):
                out.append(("op", " "))
            out += tokens
            spaced = False
        pos = m.end()
    return out


_CORNER = re.compile(r"\$?([A-Za-z]{1,3})?\$?([0-9]+)?")


def _in_grid(text: str) -> bool:
    """Whether a reference's corners are on Excel's grid (A1 to XFD1048576)."""
    ref = text.rpartition("!")[2]
    for corner in ref.split(":"):
        m = _CORNER.fullmatch(corner)
        if m is None:
            return False
        letters, digits = m.groups()
        if letters is not None and col_number(letters) > MAX_COLS:
            return False
        if digits is not None and not 1 <= int(digits) <= MAX_ROWS:
            return False
    return True


def _beyond_grid(text: str) -> list[tuple[str, str]]:
    """A reference written past Excel's grid (``XFE1``, ``A1048577``) as Excel reads it: such
    a corner is a name (#NAME? where the workbook does not define it), ``A1:XFE1`` the range
    between a cell and a name."""
    sheet, bang, ref = text.rpartition("!")
    out: list[tuple[str, str]] = []
    for i, corner in enumerate(ref.split(":")):
        if i:
            out.append(("op", ":"))
        whole = (sheet + bang if i == 0 else "") + corner
        m = _CORNER.fullmatch(corner)
        if m is not None and m.group(1) and m.group(2) and _in_grid(corner):
            out.append(("ref", whole))
        elif corner.lstrip("$").isdigit():
            out.append(("number", corner.lstrip("$")))
        else:
            out.append(("name", whole))
    return out


def _ends_operand(token: tuple[str, str]) -> bool:
    return token[0] in ("ref", "name") or token == ("op", ")")


def _starts_operand(token: tuple[str, str]) -> bool:
    return token[0] in ("ref", "name", "func") or token == ("op", "(")


# --- parsing to a tree ----------------------------------------------------------------------
# Nodes: ("num", float) ("str", s) ("bool", b) ("err", XlError) ("missing",)
# ("cell", sheet|None, row, row_abs, col, col_abs) ("area", sheet|None, (r1, ra1, c1, ca1),
# (r2, ra2, c2, ca2)) ("name", text) ("call", NAME, [args]) ("neg", x) ("pct", x)
# ("bin", op, a, b) ("array", rows) ("range", a, b) ("isect", a, b): the reference operators
# (":" between references other than two cells, and the space), tighter than any other;
# ("union", [parts]): (A1:B2,C3:D4); ("invoke", callee, [args]): a function value called,
# LAMBDA(x,x+1)(2)

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


_REFERENCE_NODES = frozenset(("cell", "area", "name", "call", "range", "isect", "invoke"))

# Excel's limits on a formula ("Excel specifications and limits"): what goes beyond them is not
# a formula Excel saves, and is reported with Excel's reason
MAX_LENGTH = 8_192  # characters of a formula's contents
MAX_NESTING = 64  # levels of nested functions
MAX_ARGUMENTS = 255  # arguments of one function

Node = tuple[Any, ...]
# a parsing step: asks for sub-steps (each one's result sent back), gives a node (or a list)
_Step = Generator[Any, Any, Any]


def parse(text: str, row: int, col: int) -> Node:
    """The syntax tree of ``text`` (a formula without its ``=``) written in cell (row, col).

    The grammar is read by recursive descent, each rule a generator that yields the rules it
    needs; :func:`drive` runs them with a stack of its own, so no formula Excel accepts (8,192
    characters of ``(((...)))`` or ``--...-1``) meets Python's recursion limit.
    """
    shown = len(text) - 6 * (text.count("_xlfn.") + text.count("_xlws."))  # as Excel shows it
    if shown > MAX_LENGTH:
        raise Unsupported(
            f"the formula is {shown:,} characters long: Excel's limit is {MAX_LENGTH:,}"
        )
    return Parser(tokenize(text), row, col).parse()


def drive(step: Generator[Any, Any, Any]) -> Any:
    """Run a generator that yields the generators it depends on (each one's result is sent
    back into it), with an explicit stack instead of Python's."""
    stack = [step]
    result: Any = None
    while stack:
        try:
            wanted = stack[-1].send(result)
        except StopIteration as done:
            stack.pop()
            result = done.value
            continue
        stack.append(wanted)
        result = None
    return result


class Parser:
    def __init__(self, tokens: list[tuple[str, str]], row: int, col: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.row = row
        self.col = col
        self.nesting = 0  # functions open around the current token

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

    def parse(self) -> Node:
        node: Node = drive(self.expression(0))
        if self.peek()[0] != "end":
            raise Unsupported(f"unexpected {self.peek()[1]!r} in the formula")
        return node

    def expression(self, level: int) -> _Step:
        left = yield self.unary()
        while True:
            kind, op = self.peek()
            prec = _BINARY.get(op) if kind == "op" else None
            if prec is None or prec <= level:
                return left
            self.take()
            # ^ is left-associative in spreadsheets, like the others
            right = yield self.expression(prec)
            left = ("bin", op, left, right)

    def unary(self) -> _Step:
        minus = 0
        while True:  # a run of signs read in a loop: "=------1" is as deep as "=1"
            kind, op = self.peek()
            if kind != "op" or op not in "+-":
                break
            self.take()
            minus += op == "-"
        operand = yield self.postfix()
        if not minus:
            return operand  # "+x" leaves x as it is
        # "-x" negates; "--x" (any even run) makes x a number, as two negations do
        return ("neg", operand) if minus % 2 else ("neg", ("neg", operand))

    def postfix(self) -> _Step:
        node = yield self.intersection()
        while self.peek() == ("op", "%"):
            self.take()
            node = ("pct", node)
        return node

    def intersection(self) -> _Step:
        node = yield self.range_()
        while self.peek() == ("op", " "):
            self.take()
            node = ("isect", node, (yield self.range_()))
        return node

    def range_(self) -> _Step:
        """``a:b``: two cells make an area as written; anything else (``INDEX(..):INDEX(..)``,
        ``A1:OFFSET(..)``, names) a range spanning both references, found when computed."""
        node = yield self.primary()
        while self.peek() == ("op", ":"):
            self.take()
            other = yield self.primary()
            if node[0] not in _REFERENCE_NODES or other[0] not in _REFERENCE_NODES:
                raise Unsupported("a range must join two references")
            if node[0] == "cell" and other[0] == "cell" and other[1] in (None, node[1]):
                node = ("area", node[1], node[2:], other[2:])
            else:
                node = ("range", node, other)
        return node

    def primary(self) -> _Step:
        kind, text = self.take()
        if kind == "number":
            return ("num", float(text))
        if kind == "string":
            return ("str", text[1:-1].replace('""', '"'))
        if kind == "error":  # 'Sheet'!#REF!: a reference Excel found deleted
            return ("err", ERRORS[text[text.index("#") :]])
        if kind == "ref":
            return _ref_node(text, self.row, self.col)
        if kind == "func":
            name = text.upper()
            for prefix in ("_XLFN.", "_XLWS."):
                name = name.removeprefix(prefix)
            self.expect("(")
            node: Node = ("call", name, (yield self.arguments(name)))
            return (yield self.invocations(node))
        if kind == "name":
            upper = text.upper()
            if upper in ("TRUE", "FALSE"):
                return ("bool", upper == "TRUE")
            # a name called: Sheet1!Fn(2) (a name defined for a sheet), μFn(2)
            return (yield self.invocations(("name", text)))
        if (kind, text) == ("op", "("):
            node = yield self.expression(0)
            if self.peek() == ("op", ","):  # a union of ranges: (A1:B2,C3:D4)
                parts = [node]
                while self.peek() == ("op", ","):
                    self.take()
                    parts.append((yield self.expression(0)))
                node = ("union", parts)
            self.expect(")")
            return (yield self.invocations(node))
        if (kind, text) == ("op", "{"):
            return self.array()
        raise Unsupported(f"unexpected {text or 'end'!r} in the formula")

    def arguments(self, name: str) -> _Step:  # gives list[Node]
        """A call's arguments after its ``(``, up to and with its ``)``; one written empty
        (``IF(A1,,2)``) is ``("missing",)``."""
        args: list[Node] = []
        if self.peek() == ("op", ")"):
            self.take()
            return args
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise Unsupported(f"more than {MAX_NESTING} levels of nested functions: Excel's limit")
        while True:
            if self.peek()[1] in (",", ";", ")"):
                args.append(("missing",))
            else:
                args.append((yield self.expression(0)))
            if len(args) > MAX_ARGUMENTS:
                raise Unsupported(f"more than {MAX_ARGUMENTS} arguments to {name}: Excel's limit")
            _, sep = self.take()
            if sep == ")":
                self.nesting -= 1
                return args
            if sep not in (",", ";"):
                raise Unsupported(f"expected , or ) in the arguments of {name}")

    def invocations(self, node: Node) -> _Step:
        """A function value called where it is made: ``LAMBDA(x,x+1)(2)``, ``(f)(2)``,
        ``Sheet1!Fn(2)``: each ``(...)`` written right after a call, a bracket or a name an
        ``("invoke", callee, args)``."""
        while self.peek() == ("op", "("):
            self.take()
            node = ("invoke", node, (yield self.arguments("the LAMBDA called")))
        return node

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


def translate(text: str, rows: int, cols: int, *, shown: bool = False) -> str:
    """A formula as written ``rows`` down and ``cols`` across from where ``text`` was written:
    its relative references moved (a shared formula's text for each of its cells), one
    moved off the grid ``#REF!``; with ``shown``, as Excel shows it (no ``_xlfn.``,
    ``_xlws.`` or ``_xlpm.`` in front of names)."""
    out: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # not a formula recalc reads: the rest as it is
            out.append(text[pos:])
            break
        token, kind = m.group(), m.lastgroup
        if kind == "ref" and (rows or cols):
            token = _moved(token, rows, cols)
        elif shown and kind in ("func", "name"):
            token = re.sub(r"(?i)^_xl(?:fn|ws|pm)\.", "", token)
        out.append(token)
        pos = m.end()
    return "".join(out)


def _moved(ref: str, rows: int, cols: int) -> str:
    """A reference moved by ``rows`` and ``cols``: its relative parts only."""
    sheet, bang, body = ref.rpartition("!")
    parts = []
    for corner in body.split(":"):
        m = re.fullmatch(r"(\$?)([A-Za-z]{0,3})(\$?)([0-9]*)", corner)
        if m is None:
            return ref
        cabs, letters, rabs, digits = m.groups()
        if letters and not cabs:
            n = col_number(letters) + cols
            if not 1 <= n <= MAX_COLS:
                return "#REF!"
            letters = col_letters(n)
        if digits and not rabs:
            n = int(digits) + rows
            if not 1 <= n <= MAX_ROWS:
                return "#REF!"
            digits = str(n)
        parts.append(f"{cabs}{letters}{rabs}{digits}")
    return sheet + bang + ":".join(parts)


SHAPE = re.compile(  # not inside a name: AddressLine1 and AddressLine2 are not L1 and L2
    rf"(?<![\w.$])(?P<sheet>{_SHEET})?(?P<cabs>\$?)(?P<col>[A-Za-z]{{1,3}})(?P<rabs>\$?)(?P<row>[0-9]{{1,7}})"
    r'(?![\w(])|"(?:[^"]|"")*"'
)
COLUMN_NUMBERS = {col_letters(n): n for n in range(1, 703)}  # A .. ZZ
_LETTER_DIGIT = re.compile(r"(?<=[A-Za-z])[0-9]")
_LETTER_NUMBER = re.compile(r"(?<=[A-Za-z])[0-9]+")  # a row number after a column letter


def quick_shape(formula: str, row: int, col: int) -> str | None:
    """A cheap shape key for the common case, or None.

    In the formula's own column, the row number after a column letter is the formula's own
    row in a relative reference: replaced by #, formulas filled down a column share one key.
    The key is only used when nothing else could differ: no text but "", no other
    letter-digit pair left (a reference to another row, a name with digits, 1E5 ...).
    """
    if '"' in formula.replace('""', "") or (":" in formula and WHOLE.search(formula)):
        return None
    own = str(row)
    key = _LETTER_NUMBER.sub(lambda m: "#" if m.group() == own else m.group(), formula)
    if _LETTER_DIGIT.search(key):
        return None
    return f"{col}|{key}"


STRINGS = re.compile(r'"(?:[^"]|"")*"')
WHOLE = re.compile(
    r"(?<![\w$.])\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![\w(])|(?<![\w$.])\$?\d+:\$?\d+(?![\w.])"
)
