"""The syntax tree to closures, one per formula shape; the standard functions through their
records (:mod:`.functions`), the FIDE functions through the cell layer. It stands above the
formula language (:mod:`.formula`) and the functions, which both need the language alone.

May import: :mod:`fide_rating.engine.formula`, :mod:`fide_rating.engine.functions`,
:mod:`fide_rating.cells`, :mod:`.udfs` (the user's xlwings functions) and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from ..cells.registry import BY_NAME, call
from .formula.coerce import arith, binary, broadcast, cancelled, number
from .formula.parser import (
    COLUMN_NUMBERS,
    SHAPE,
    STRINGS,
    WHOLE,
    col_number,
    drive,
    parse,
    quick_shape,
)
from .formula.values import (
    NAME,
    NULL,
    REF,
    VALUE,
    Area,
    Array,
    Book,
    Fn,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
    scalar,
)
from .functions import FUNCTIONS, bind
from .functions.lambdas import HELPERS, Frames
from .scopes import Scopes
from .udfs import SESSION

# --- the compiler ---------------------------------------------------------------------------


def _area_of(node: tuple[Any, ...], sheet: str, row: int, col: int) -> Area:
    def at(part: tuple[int, bool, int, bool]) -> tuple[int, int]:
        r, rabs, c, cabs = part
        return (r if rabs else row + r, c if cabs else col + c)

    r1, c1 = at(node[2])
    r2, c2 = at(node[3])
    return Area(node[1] or sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def references(tree: tuple[Any, ...], names: dict[str, str]) -> list[tuple[Any, ...]]:
    """The cell and area nodes of a formula's tree (through the defined names it uses), for
    the order of evaluation; references made at run time (INDIRECT, OFFSET) are not known."""
    out: list[tuple[Any, ...]] = []
    stack = [tree]
    seen_names: set[str] = set()
    while stack:
        node = stack.pop()
        if not isinstance(node, tuple) or not node:
            continue
        kind = node[0]
        if kind in ("cell", "area"):
            out.append(node)
        elif kind == "name":
            upper = str(node[1]).upper()
            target = names.get(upper)
            if target is not None and upper not in seen_names:
                seen_names.add(upper)
                try:
                    stack.append(parse(target.lstrip("="), 1, 1))
                except Unsupported:
                    continue
        else:
            for child in node[1:]:
                if isinstance(child, tuple):
                    stack.append(child)
                elif isinstance(child, list):
                    stack.extend(c for c in child if isinstance(c, tuple))
    return out


def cells_of(node: tuple[Any, ...], sheet: str, row: int, col: int) -> Area:
    """The area a cell or area node stands for, written in cell (row, col) of ``sheet``."""
    if node[0] == "area":
        return _area_of(node, sheet, row, col)
    _, other, r, rabs, c, cabs = node
    at_r, at_c = (r if rabs else row + r), (c if cabs else col + c)
    return Area(other or sheet, at_r, at_c, at_r, at_c)


class Compiler(Scopes):
    """Compiles formula text into closures; one closure per formula shape."""

    def __init__(
        self,
        names: dict[str, str] | None = None,
        *,
        macros: bool = False,
        local: dict[str, dict[str, str]] | None = None,
        sheets: list[str] | None = None,
    ) -> None:
        self.names = {k.upper(): v for k, v in (names or {}).items()}
        # names defined for one sheet: upper-case name -> {sheet: definition}
        self.local = {k.upper(): v for k, v in (local or {}).items()}
        self.sheets = sheets or []  # in the workbook's order, for 3-D references
        # a workbook with macros may define functions of its own: a name Excel does not know
        # is reported there, not taken for #NAME?
        self.macros = macros
        self._cache: dict[str, Fn] = {}
        self._name_cache: dict[str, Fn] = {}
        self._naming: set[str] = set()  # the names being compiled: one met again is a circle
        # the names LET and LAMBDA give values to, the innermost last: each scope's names,
        # its frames (one list of values per computation under way), and for a LAMBDA's
        # parameters their places (ISOMITTED reads them as given)
        self._scopes: list[tuple[dict[str, Fn], Frames, dict[str, int] | None]] = []

    def tree(self, formula: str, row: int, col: int) -> tuple[Any, ...]:
        """The formula's syntax tree, its relative references as offsets from (row, col)."""
        return parse(formula, row, col)

    def compile(self, formula: str, row: int, col: int) -> Fn:
        """The closure for ``formula`` (without its leading =) written in cell (row, col)."""
        key = quick_shape(formula, row, col)
        if key is None:
            key = self.shape(formula, row, col)
            if WHOLE.search(STRINGS.sub('""', formula)):
                key = f"{row},{col}|{key}"  # whole rows or columns: not shifted by shape()
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self.formula(parse(formula, row, col))
        return found

    def formula(self, tree: tuple[Any, ...]) -> Fn:
        """A whole formula's closure: a sum or difference as its last operation is 0 where
        its two sides cancel to within Excel's 15 digits (Excel's rounding of a result near 0:
        =0.5-0.4-0.1 is 0, while =1*(0.5-0.4-0.1) shows the binary remainder)."""
        if tree[0] != "bin" or tree[1] not in "+-":
            return self.node(tree, array=False)
        op, left, right = tree[1], self.node(tree[2], array=False), self.node(tree[3], array=False)
        plus = op == "+"

        def slow(book: Book, a: Result, b: Result, r: int, c: int) -> Result:
            """Either side not a number: its one value here, then Excel's rules."""
            av, bv = scalar(book, a, r, c), scalar(book, b, r, c)
            result = binary(op, av, bv)
            if not isinstance(result, float) or not result:
                return result
            x, y = number(av), number(bv)
            if isinstance(x, float) and isinstance(y, float) and cancelled(
                    result, y if abs(x) > abs(y) else x):  # fmt: skip
                return 0.0
            return result

        if tree[3][0] == "num":  # a number written on the right (=A1+1): no call for it
            b: float = tree[3][1]
            near_b = abs(b) * 2e-15
            cell = tree[2]
            # a relative reference on the left (A1 in B2): its cell read here, as its closure would
            rel = cell[0] == "cell" and cell[1] is None and not cell[3] and not cell[5]
            dr, dc = (cell[2], cell[4]) if rel else (0, 0)

            def settled_number(book: Book, sh: str, r: int, c: int) -> Result:
                a = book.value(sh, r + dr, c + dc) if rel else left(book, sh, r, c)
                if a.__class__ is float:
                    total = a + b if plus else a - b
                    t = abs(total)
                    if t < near_b and _cancels(t, a, b):
                        return 0.0
                    return total
                return slow(book, a, b, r, c)

            return settled_number

        def settled(book: Book, sh: str, r: int, c: int) -> Result:
            a = left(book, sh, r, c)
            b = right(book, sh, r, c)
            if a.__class__ is float and b.__class__ is float:  # the usual case, at once
                total = a + b if plus else a - b
                t = abs(total)  # below either side's 15th digit (max() costs a call a cell)
                if t < abs(b) * 2e-15 and _cancels(t, a, b):
                    return 0.0
                return total
            return slow(book, a, b, r, c)

        return settled

    def compile_array(self, formula: str, row: int, col: int) -> Fn:
        """The closure for an array formula (Ctrl+Shift+Enter, or a dynamic array): ranges
        stay whole, operators and the functions that take one value work element by element,
        and the result is an array."""
        key = "{array}" + self.shape(formula, row, col)
        if WHOLE.search(STRINGS.sub('""', formula)):
            key = f"{row},{col}|{key}"
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self.node(parse(formula, row, col), array=True)
        return found

    @staticmethod
    def shape(formula: str, row: int, col: int) -> str:
        """The formula with relative references written as offsets (R1C1-like)."""

        def sub(m: re.Match[str]) -> str:
            letters = m.group("col")
            if letters is None:
                return m.group()
            r = int(m.group("row"))
            c = COLUMN_NUMBERS.get(letters) or col_number(letters)
            rs = f"R{r}" if m.group("rabs") else f"R[{r - row}]"
            cs = f"C{c}" if m.group("cabs") else f"C[{c - col}]"
            return f"{m.group('sheet') or ''}{rs}{cs}"

        return SHAPE.sub(sub, formula)

    def node(self, n: tuple[Any, ...], *, array: bool, reference: bool = False) -> Fn:
        """The closure computing a syntax tree; the tree is walked with a stack of its own
        (:func:`.parser.drive`), however deep it is."""
        found: Fn = drive(self._node(n, array, reference))
        return found

    def _node(self, n: tuple[Any, ...], array: bool, reference: bool = False) -> _Compiling:
        kind = n[0]
        if kind in ("cell", "area") and n[1] and ":" in n[1]:
            raise Unsupported("a 3-D reference (Sheet1:Sheet3!A1) other than in SUM, COUNT ...")
        if kind == "cell" and reference:  # a one-cell range, not the cell's value
            corner = n[2:]
            as_area = ("area", n[1], corner, corner)
            return lambda book, sh, r, c: _area_of(as_area, sh, r, c)
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
            bound = self._bound(n[1])
            if bound is not None:
                return bound
            if n[1].upper().startswith("_XLETA."):  # BYROW(A1:C3, SUM): SUM as a LAMBDA
                return self.eta(n[1], array)
            return self.name(n[1], reference=reference)
        if kind == "invoke":
            callee = yield self._node(n[1], array, True)
            return (yield from self.invoke(callee, n[2], array=array))
        if kind in ("range", "isect"):
            spine = []  # A1:B2:C3 ...: one loop, however long
            while n[0] == kind:
                spine.append(n[2])
                n = n[1]
            first = yield self._node(n, False, True)
            others = []
            for part in reversed(spine):
                others.append((yield self._node(part, False, True)))
            return _reference_operator(kind, first, others)
        if kind == "union":
            raise Unsupported("a union of ranges, (A1:B2,C3:D4), other than in SUM, COUNT ...")
        if kind == "neg":
            inner = yield self._node(n[1], array)

            def neg(book: Book, sh: str, r: int, c: int) -> Result:
                v = inner(book, sh, r, c)
                if isinstance(v, list) or (array and isinstance(v, Area)):
                    return broadcast("*", as_grid(book, v), [[-1.0]])
                return arith("*", scalar(book, v, r, c), -1.0)

            return neg
        if kind == "pct":
            times = 0
            while n[0] == "pct":  # 1%%%: one closure, dividing as often
                times += 1
                n = n[1]
            of = yield self._node(n, array)

            def pct(book: Book, sh: str, r: int, c: int) -> Result:
                got = of(book, sh, r, c)
                if isinstance(got, list) or (array and isinstance(got, Area)):  # each element
                    return broadcast("/", as_grid(book, got), [[100.0**times]])
                v = scalar(book, got, r, c)
                for _ in range(times):
                    v = arith("/", v, 100.0)
                return v

            return pct
        if kind == "bin":
            # a run of operators (A1+A1+...+A1, 2,700 of them in 8,192 characters) is a left
            # spine in the tree: computed in one loop, not by as many nested closures
            chain = []
            while n[0] == "bin":
                chain.append((n[1], n[3]))
                n = n[2]
            left = yield self._node(n, array)
            steps: list[tuple[str, Fn]] = []
            for op, operand in reversed(chain):
                steps.append((op, (yield self._node(operand, array))))
            return _operators(left, steps, array)
        if kind == "call":
            return (yield from self.function(n[1], n[2], array=array, reference=reference))
        raise Unsupported(f"cannot evaluate {kind}")

    def name(self, text: str, *, reference: bool = False) -> Fn:
        """A defined name: the sheet's own definition where the formula's sheet has one (or
        the sheet the formula names, ``Sheet1!Rate``), else the workbook's; a name of another
        workbook is reported; an undefined one is #NAME?. A relative reference in a name is
        relative to the cell that uses it (Excel keeps it relative to A1)."""
        sheet, _, bare = text.rpartition("!")
        if sheet.startswith("[") or sheet.startswith("'["):
            raise Unsupported(f"the name {text} of another workbook")
        upper = bare.upper()
        scoped = self.local.get(upper, {})
        if sheet:
            owner = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
            match = next((k for k in scoped if k.upper() == owner.upper()), None)
            if match is None:
                return self._name(upper, self.names.get(upper), reference)
            return self._name(f"{upper}@{match}", scoped[match], reference)
        shared = self._name(upper, self.names.get(upper), reference)
        if not scoped:
            return shared
        own = {k: self._name(f"{upper}@{k}", v, reference) for k, v in scoped.items()}
        by_upper = {k.upper(): f for k, f in own.items()}

        def pick(book: Book, sh: str, r: int, c: int) -> Result:
            f = own.get(sh) or by_upper.get(sh.upper()) or shared
            return f(book, sh, r, c)

        return pick

    def _name(self, upper: str, target: str | None, reference: bool) -> Fn:
        """A name's definition compiled (once), as a reference or a value, and always as an
        array formula; compiled without the LET names of the formula that uses it."""
        key = upper + ("|ref" if reference else "")
        found = self._name_cache.get(key)
        if found is not None:
            return found
        if target is None:  # the workbook defines no such name: Excel's #NAME?
            return lambda book, sh, r, c: NAME
        text = upper.partition("@")[0]
        if key in self._naming:
            raise Unsupported(f"the name {text} is defined by itself")
        self._naming.add(key)
        scopes, self._scopes = self._scopes, []
        try:
            # Excel computes a name's formula as an array formula wherever the name is used
            # (Knowledge Base Q83816); a name that is a range stays one
            found = self.node(parse(target.lstrip("="), 1, 1), array=True, reference=reference)
        finally:
            self._naming.discard(key)
            self._scopes = scopes
        self._name_cache[key] = found
        return found

    def through_sheets(self, node: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """A 3-D reference (``First:Last!A1``) as the same reference on each sheet from the
        first to the last in the workbook's order; any other node as itself."""
        if node[0] not in ("cell", "area") or not node[1] or ":" not in node[1]:
            return [node]
        first, last = node[1].split(":")
        upper = [s.upper() for s in self.sheets]
        if first.upper() not in upper or last.upper() not in upper:
            return [("err", REF)]  # a sheet that is not there
        i, j = sorted((upper.index(first.upper()), upper.index(last.upper())))
        return [(node[0], sheet, *node[2:]) for sheet in self.sheets[i : j + 1]]

    def function(
        self, name: str, args: list[tuple[Any, ...]], *, array: bool, reference: bool = False
    ) -> _Compiling:
        """A call: a FIDE function through the cell layer, a standard function through its
        record (:func:`fide_rating.engine.functions.bind`). Where a reference is wanted, the
        branches IF, CHOOSE, IFERROR ... choose among stay references
        (``SUM(A1:CHOOSE(2,A2,A3))``)."""
        if name in BY_NAME:
            fide_args = []
            for a in args:
                fide_args.append((yield self._node(a, False)))
            return _fide(name, fide_args)
        if name == "LET":
            return (yield from self.let(args, array=array))
        if name == "LAMBDA":
            return (yield from self.lambda_(args, array=array))
        if name == "ISOMITTED":
            return self.isomitted(args)
        if name in ("SHEET", "SHEETS"):
            return (yield from self.sheet_number(name, args))
        if name in HELPERS:
            return (yield from self.helper(name, args))
        bound = self._bound(name)
        if bound is not None:  # LET(f, LAMBDA(...), f(2))
            return (yield from self.invoke(bound, args, array=array))
        spec = FUNCTIONS.get(name)
        if spec is None:
            session = SESSION.get()  # the functions of the modules named (recalc --udfs)
            udf = None if session is None else session.find(name)
            if session is not None and udf is not None:
                given = []  # references stay ranges: Excel hands the function a Range
                for a in args:
                    given.append((yield self._node(a, array, True)))
                return session.closure(udf, given, [a[0] == "missing" for a in args], array)
            if name.startswith(("_XLL.", "_XLUDF.")) or "!" in name:
                bare = name.rpartition("!")[2]
                if bare.startswith(("_XLL.", "_XLUDF.")):
                    bare = bare.split(".", 1)[1]
                raise Unsupported(f"{bare} is a function of an add-in or of another workbook")
            if name in self.names or name in self.local:
                return (yield from self.invoke(self.named_lambda(name), args, array=array))
            if self.macros:
                raise Unsupported(
                    f"{name} is not an Excel function (one of the workbook's macros?)"
                )
            return lambda book, sh, r, c: NAME  # not a function Excel knows: #NAME?, as Excel
        if spec.impl is None:
            raise Unsupported(f"{name} is an Excel function recalc does not compute")
        if not spec.least <= len(args) <= spec.most:
            took = f"{spec.least}" if spec.least == spec.most else f"{spec.least} to {spec.most}"
            noun = "argument" if spec.most == 1 else "arguments"
            raise Unsupported(f"{name} takes {took} {noun}, the formula gives it {len(args)}")
        if spec.union:  # SUM((A1:A5,C1:C5)) is SUM(A1:A5,C1:C5), SUM(S1:S3!A1) its sheets'
            args = [part for a in args for part in (a[1] if a[0] == "union" else [a])]
            args = [part for a in args for part in self.through_sheets(a)]
        compiled = []
        for i, a in enumerate(args):
            kind = spec.kind(i).rstrip("?")
            if kind in ("r", "x"):
                compiled.append((yield self._node(a, array or kind == "x", True)))
            else:
                branch = reference and kind == "f"
                compiled.append((yield self._node(a, array or kind == "a", branch)))
        return bind(spec, compiled, [a[0] == "missing" for a in args], array)


def _cancels(t: float, a: float, b: float) -> bool:
    """Whether ``t``, the size of ``a + b`` or ``a - b`` and already below ``b``'s 15th
    digit, is 0 in Excel: not 0 itself, below ``a``'s 15th digit too, and :func:`cancelled`
    against the smaller side. Called only past the cheap test on ``b``, off the usual path."""
    return bool(t) and t < abs(a) * 2e-15 and cancelled(t, b if abs(a) > abs(b) else a)


_Compiling = Generator[Any, Fn, Fn]  # a step of compiling: asks for its children's closures


def _operators(left: Fn, steps: list[tuple[str, Fn]], array: bool) -> Fn:
    """``left op1 x1 op2 x2 ...``, applied from the left as Excel does."""
    if array:

        def vec(book: Book, sh: str, r: int, c: int) -> Result:
            a = left(book, sh, r, c)
            for op, right in steps:
                b = right(book, sh, r, c)
                if isinstance(a, Area | list) or isinstance(b, Area | list):
                    a = broadcast(op, as_grid(book, a), as_grid(book, b))
                else:
                    a = binary(op, a, b)
            return a

        return vec

    def run(book: Book, sh: str, r: int, c: int) -> Result:
        # in an ordinary formula a range is intersected with the formula's row or column,
        # while an array stays whole and is computed element by element ({1,2,3}*2)
        a = left(book, sh, r, c)
        if isinstance(a, Area):
            a = scalar(book, a, r, c)
        for op, right in steps:
            b = right(book, sh, r, c)
            if isinstance(b, Area):
                b = scalar(book, b, r, c)
            if isinstance(a, list) or isinstance(b, list):
                a = broadcast(op, as_grid(book, a), as_grid(book, b))
            else:
                a = binary(op, a, b)
        return a

    return run


def _reference_operator(kind: str, first: Fn, others: list[Fn]) -> Fn:
    """``a:b`` (the range spanning both) or ``a b`` (their intersection, #NULL! where they
    do not meet) of references found when computed, applied from the left; #VALUE! for
    anything that is not a reference."""

    def run(book: Book, sh: str, r: int, c: int) -> Result:
        x = first(book, sh, r, c)
        for other in others:
            y = other(book, sh, r, c)
            if isinstance(x, XlError):
                return x
            if isinstance(y, XlError):
                return y
            if (
                not isinstance(x, Area)
                or not isinstance(y, Area)
                or x.sheet.upper() != y.sheet.upper()
            ):
                return VALUE
            if kind == "range":
                x = Area(x.sheet, min(x.r1, y.r1), min(x.c1, y.c1), max(x.r2, y.r2),
                         max(x.c2, y.c2))  # fmt: skip
                continue
            top, first_col = max(x.r1, y.r1), max(x.c1, y.c1)
            bottom, last = min(x.r2, y.r2), min(x.c2, y.c2)
            if top > bottom or first_col > last:
                return NULL
            x = Area(x.sheet, top, first_col, bottom, last)
        return x

    return run


def _fide(name: str, args: list[Fn]) -> Fn:
    """A FIDE function: ranges as lists of rows, blanks as None (what xlwings passes); any
    error among the arguments is the result, as in LibreOffice."""
    function = BY_NAME[name]

    def run(book: Book, sh: str, r: int, c: int) -> Result:
        values: list[object] = []
        for f in args:
            v = f(book, sh, r, c)
            if isinstance(v, Area | list):
                grid = as_grid(book, v)
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
        # FIDE_RATABLE's TRUE as the number 1, as LibreOffice's add-in hands it over (and as
        # LibreOffice keeps a cached value: it recomputes every cached logical); the templates
        # show it as TRUE with the cell's format
        return float(out) if isinstance(out, int) else out

    return run
