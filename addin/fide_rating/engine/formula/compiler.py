"""The syntax tree to closures, one per formula shape; FIDE functions through the cell layer.

May import: :mod:`.values`, :mod:`.parser`, :mod:`fide_rating.engine.functions`,
:mod:`fide_rating.cells` and the standard library.
"""

from __future__ import annotations

import re
from typing import Any

from ...cells.registry import BY_NAME, call
from ..functions import FUNCTIONS, REFERENCES, UNION_TAKERS, arity
from .parser import COLUMN_NUMBERS, SHAPE, STRINGS, WHOLE, Parser, col_number, quick_shape, tokenize
from .values import (
    NAME,
    NULL,
    VALUE,
    Area,
    Array,
    Book,
    Fn,
    Result,
    Unsupported,
    Value,
    XlError,
    arith,
    as_grid,
    binary,
    broadcast,
    element,
    scalar,
)

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
                    stack.append(Parser(tokenize(target.lstrip("=")), 1, 1).parse())
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


class Compiler:
    """Compiles formula text into closures; one closure per formula shape."""

    def __init__(self, names: dict[str, str] | None = None) -> None:
        self.names = {k.upper(): v for k, v in (names or {}).items()}
        self._cache: dict[str, Fn] = {}
        self._name_cache: dict[str, Fn] = {}

    def tree(self, formula: str, row: int, col: int) -> tuple[Any, ...]:
        """The formula's syntax tree, its relative references as offsets from (row, col)."""
        return Parser(tokenize(formula), row, col).parse()

    def compile(self, formula: str, row: int, col: int) -> Fn:
        """The closure for ``formula`` (without its leading =) written in cell (row, col)."""
        key = quick_shape(formula, row, col)
        if key is None:
            key = self.shape(formula, row, col)
            if WHOLE.search(STRINGS.sub('""', formula)):
                key = f"{row},{col}|{key}"  # whole rows or columns: not shifted by shape()
        found = self._cache.get(key)
        if found is None:
            tree = Parser(tokenize(formula), row, col).parse()
            found = self._cache[key] = self.node(tree, array=False)
        return found

    def compile_array(self, formula: str, row: int, col: int) -> Fn:
        """The closure for an array formula (Ctrl+Shift+Enter, or a dynamic array): ranges
        stay whole, operators and the functions that take one value work element by element,
        and the result is an array."""
        key = "{array}" + self.shape(formula, row, col)
        if WHOLE.search(STRINGS.sub('""', formula)):
            key = f"{row},{col}|{key}"
        found = self._cache.get(key)
        if found is None:
            tree = Parser(tokenize(formula), row, col).parse()
            found = self._cache[key] = self.node(tree, array=True)
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
        kind = n[0]
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
            return self.name(n[1], reference=reference)
        if kind in ("range", "isect"):
            return self.reference_operator(kind, n[1], n[2])
        if kind == "union":
            raise Unsupported("a union of ranges, (A1:B2,C3:D4), other than in SUM, COUNT ...")
        if kind == "neg":
            inner = self.node(n[1], array=array)

            def neg(book: Book, sh: str, r: int, c: int) -> Result:
                v = inner(book, sh, r, c)
                if array and isinstance(v, Area | list):
                    return broadcast("*", as_grid(book, v), [[-1.0]])
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
                        return broadcast(op, as_grid(book, a), as_grid(book, b))
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

    def name(self, text: str, *, reference: bool = False) -> Fn:
        upper = text.upper()
        key = f"{upper}|ref" if reference else upper
        found = self._name_cache.get(key)
        if found is not None:
            return found
        target = self.names.get(upper)
        if target is None:  # the workbook defines no such name: Excel's #NAME?
            return lambda book, sh, r, c: NAME
        tree = Parser(tokenize(target.lstrip("=")), 1, 1).parse()
        found = self._name_cache[key] = self.node(tree, array=False, reference=reference)
        return found

    def reference_operator(self, kind: str, a: tuple[Any, ...], b: tuple[Any, ...]) -> Fn:
        """``a:b`` (the range spanning both) or ``a b`` (their intersection, #NULL! where they
        do not meet) of two references found when computed; #VALUE! for anything else."""
        left = self.node(a, array=False, reference=True)
        right = self.node(b, array=False, reference=True)

        def run(book: Book, sh: str, r: int, c: int) -> Result:
            x, y = left(book, sh, r, c), right(book, sh, r, c)
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
                return Area(x.sheet, min(x.r1, y.r1), min(x.c1, y.c1), max(x.r2, y.r2),
                            max(x.c2, y.c2))  # fmt: skip
            top, first, bottom, last = max(x.r1, y.r1), max(x.c1, y.c1), min(x.r2, y.r2), min(
                x.c2, y.c2)  # fmt: skip
            if top > bottom or first > last:
                return NULL
            return Area(x.sheet, top, first, bottom, last)

        return run

    def function(self, name: str, args: list[tuple[Any, ...]], *, array: bool) -> Fn:
        if name in BY_NAME:
            return _fide(name, [self.node(a, array=False) for a in args])
        spec = FUNCTIONS.get(name)
        if spec is None:
            raise Unsupported(f"function {name} is not supported")
        impl, lazy, arrays = spec
        least, most = arity(name)
        if not least <= len(args) <= most:
            took = f"{least}" if least == most else f"{least} to {most}"
            noun = "argument" if most == 1 else "arguments"
            raise Unsupported(f"{name} takes {took} {noun}, the formula gives it {len(args)}")
        reference = name in REFERENCES
        if name in UNION_TAKERS:  # SUM((A1:A5,C1:C5)) is SUM(A1:A5,C1:C5)
            args = [part for a in args for part in (a[1] if a[0] == "union" else [a])]
        compiled = [self.node(a, array=arrays or array, reference=reference) for a in args]
        if array and not arrays and not reference:
            return _element_wise(impl, lazy, compiled)
        if lazy:
            return lambda book, sh, r, c: impl(book, sh, r, c, compiled)
        return lambda book, sh, r, c: impl(book, sh, r, c, [f(book, sh, r, c) for f in compiled])


def _element_wise(impl: Any, lazy: bool, args: list[Fn]) -> Fn:
    """A function of single values in an array formula: given arrays, it runs once for each
    element (the arrays stretched to a common size), and gives an array."""

    def run(book: Book, sh: str, r: int, c: int) -> Result:
        values = [f(book, sh, r, c) for f in args]
        grids = [as_grid(book, v) if isinstance(v, Area | list) else None for v in values]
        shapes = [(len(g), len(g[0])) for g in grids if g and g[0]]
        if not shapes:
            result: Result = impl(
                book, sh, r, c, [_constant(v) for v in values] if lazy else values
            )
            return result
        out: Array = []
        for i in range(max(s[0] for s in shapes)):
            line: list[Value] = []
            for j in range(max(s[1] for s in shapes)):
                picked: list[Result] = [
                    v if g is None else element(g, i, j) for v, g in zip(values, grids, strict=True)
                ]
                got = impl(book, sh, r, c, [_constant(p) for p in picked] if lazy else picked)
                line.append(scalar(book, got, r, c))
            out.append(line)
        return out

    return run


def _constant(v: Result) -> Fn:
    return lambda book, sh, r, c: v


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
