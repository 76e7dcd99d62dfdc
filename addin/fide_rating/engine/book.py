"""The cells of a workbook for the formula engine: formulas compiled, the constant cells'
values, and each formula's value computed on demand (its references' first, by recursion),
kept once computed; the cells left uncomputed and why.

May import: :mod:`fide_rating.engine.formula` and the standard library.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from .formula import ERRORS, Area, Fn, Unsupported, Value, XlError, col_letters, scalar
from .formula.parser import translate
from .package import Formulas
from .pivot import PivotTable


@dataclass(frozen=True, slots=True)
class Problem:
    """A formula cell left as it was, and why."""

    sheet: str
    cell: str
    reason: str

    def __str__(self) -> str:
        return f"{self.sheet}!{self.cell}: {self.reason}"


class Origins:
    """Where each formula was written (its text and first cell), for the order of evaluation
    when a chain is too deep to follow by recursion: found through the formula's closure, as
    the cells of one shape share one (a shared formula's million cells: one entry)."""

    def __init__(self, compiled: dict[tuple[str, int, int], Fn]) -> None:
        self.compiled = compiled
        self.by_closure: dict[Fn, tuple[str, int, int]] = {}

    def add(self, closure: Fn, source: tuple[str, int, int]) -> None:
        self.by_closure.setdefault(closure, source)

    def get(
        self, key: tuple[str, int, int], default: tuple[str, int, int] | None = None
    ) -> tuple[str, int, int] | None:
        closure = self.compiled.get(key)
        return default if closure is None else self.by_closure.get(closure, default)


class Computed(Mapping[Any, Value]):
    """The values of the formula cells computed, by (sheet, row, column), or of one sheet by
    (row, column): a view of the book's results, not a copy (a million formulas, one list)."""

    def __init__(
        self,
        book: Book,
        failed: Mapping[tuple[str, int, int], str],
        done: list[tuple[str, int, int]],
        sheet: str | None = None,
    ) -> None:
        self.book, self.failed, self.done, self.sheet = book, failed, done, sheet

    def __contains__(self, key: object) -> bool:
        return self.get(key, MISSING) is not MISSING

    def formulas(self) -> Formulas:
        """This sheet's values as the package's writer reads them, straight from the book's
        dictionaries: quicker than ``get`` for a million cells (``done`` all this sheet's)."""
        book = self.book
        return Formulas(self.sheet or "", book.results, self.failed, book.compiled, len(self.done))

    def __getitem__(self, key: Any) -> Value:
        found = self.get(key, MISSING)
        if found is MISSING:
            raise KeyError(key)
        return found  # type: ignore[no-any-return]

    def get(self, key: Any, default: Any = None) -> Any:
        full = key if self.sheet is None else (self.sheet, key[0], key[1])
        found = self.book.results.get(full, MISSING)
        if found is MISSING or full in self.failed or full not in self.book.compiled:
            return default
        return found

    def __iter__(self) -> Iterator[Any]:
        if self.sheet is None:
            return iter(self.done)
        return ((k[1], k[2]) for k in self.done if k[0] == self.sheet)

    def __len__(self) -> int:
        return len(self.done) if self.sheet is None else sum(1 for _ in self)


class Circular(Exception):  # noqa: N818 - reads as what it reports
    """A formula that depends on itself: the cells of its circle as the computation met them
    on its way back, ``named`` once it came back to the circle's first cell."""

    def __init__(
        self,
        start: tuple[str, int, int] | None,
        named: str = "",
        members: frozenset[tuple[str, int, int]] = frozenset(),
    ) -> None:
        super().__init__(named)
        self.start = start
        self.cells: list[tuple[str, int, int]] = []
        self.named = named
        self.members = members

    def __str__(self) -> str:
        return self.named

    def met(self, key: tuple[str, int, int]) -> None:
        """The computation of ``key`` gives up on the circle: one more of its cells, or (the
        circle closed) a cell behind it."""
        if self.start is None or self.named:
            return
        self.cells.append(key)
        if key == self.start:
            self.members = frozenset(self.cells)
            path = [_where(k) for k in reversed(self.cells)]
            if len(path) > 8:
                path = [*path[:4], f"... ({len(path) - 6:,} more)", *path[-2:]]
            self.named = " -> ".join([*path, path[0]])


def _where(key: tuple[str, int, int]) -> str:
    return f"{key[0]}!{col_letters(key[2])}{key[1]}"


class NotComputed(Exception):  # noqa: N818 - reads as what it reports
    """A formula that needs a cell left uncomputed (an unsupported formula): its value is not
    known, and the cached one may be stale."""


def on_circle(named: str = "", members: frozenset[tuple[str, int, int]] = frozenset()) -> Fn:
    """The closure of a cell found on a circle of references (or behind one): no value, the
    circle named where it is known."""

    def raise_(book: object, sheet: str, row: int, col: int) -> Value:
        raise Circular(None, named, members)

    return raise_


def not_computed(where: str) -> Fn:
    def raise_(book: object, sheet: str, row: int, col: int) -> Value:
        raise NotComputed(where)

    return raise_


MISSING = object()


class Book:
    """The cells of a workbook for the formula engine: formulas, and the values of the constant
    cells and of the formulas computed so far."""

    def __init__(self) -> None:
        self.compiled: dict[tuple[str, int, int], Fn] = {}
        # the cells' values: the constants, then the formulas as computed (a data table's
        # computation puts a layer of its own over the constants: :mod:`.whatif`)
        self.results: MutableMapping[tuple[str, int, int], Value] = {}
        self.extents: dict[str, tuple[int, int]] = {}
        self.active: set[tuple[str, int, int]] = set()
        self.blocks: dict[tuple[str, int, int, int, int], list[list[Value]]] = {}
        self.sheets: dict[str, str] = {}  # upper-case name -> name
        self.arrays: dict[tuple[str, int, int], Any] = {}  # array formulas' results
        self.hidden: dict[str, tuple[set[int], set[int]]] = {}  # rows: by hand, by a filter
        # iterative calculation (<calcPr iterate="1">): a cell met again on its own circle
        # gives its previous value (at first the one the file holds) instead of failing
        self.iterating = False
        self.previous: dict[tuple[str, int, int], Value] = {}
        self.cyclic: set[tuple[str, int, int]] = set()
        self.subtotals: set[tuple[str, int, int]] = set()  # cells whose formula has SUBTOTAL
        self.held_keys: dict[str, list[tuple[int, int]]] = {}  # a sheet's cells, in order
        self.deepest: tuple[str, int, int] | None = None  # where the recursion ran out
        self.on_circle: set[tuple[str, int, int]] = set()  # found by the bottom-up order
        self.substituted: dict[tuple[str, int, int], Value] = {}  # a data table's inputs
        self._constants: dict[tuple[str, int, int], Value] | None = None
        # what FORMULATEXT and ANCHORARRAY read: where each formula was written, each array
        # formula's range by its first cell, and the first cell of each cell of such a range
        self.origins: Origins | None = None
        self.spills: dict[tuple[str, int, int], Area] = {}
        self.array_of: dict[tuple[str, int, int], tuple[str, int, int]] = {}
        self.read_pivots: Callable[[], list[PivotTable]] | None = None  # read when asked
        self._pivots: list[PivotTable] | None = None
        self.deep_path: set[tuple[str, int, int]] = set()  # the cells computing then
        # a defined name's closure as a reference (INDIRECT("Rate")), set by the loader
        self.compile_name: Callable[[str], Fn] | None = None

    def extent(self, sheet: str) -> tuple[int, int]:
        return self.extents.get(self._sheet(sheet), (0, 0))

    def computed(self, sheet: str, row: int, col: int) -> bool:
        return (self._sheet(sheet), row, col) in self.compiled

    def left_out(
        self, sheet: str, row: int, col: int, *, nested: bool, filtered: bool, manual: bool
    ) -> bool:
        sheet = self._sheet(sheet)  # as a formula wrote it: any case
        if nested and (sheet, row, col) in self.subtotals:
            return True
        by_hand, by_filter = self.hidden.get(sheet, (set(), set()))
        return (filtered and row in by_filter) or (manual and row in by_hand)

    def closure(self, sheet: str, row: int, col: int) -> Fn | None:
        """A cell's compiled formula (None for a constant): a database's computed criterion
        evaluates it once for each record, as if written in the record's row."""
        return self.compiled.get((self._sheet(sheet), row, col))

    def _sheet(self, sheet: str) -> str:
        return self.sheets.get(sheet.upper(), sheet)

    def block(self, sheet: str, r1: int, c1: int, r2: int, c2: int) -> list[list[Value]]:
        """The values of a rectangle, the computed ones computed (the engine's hot path).

        Kept once read: every cell in it is final by then (a constant, or a formula computed
        on the way), and a crosstable reads each player's ranges a dozen times.
        """
        area = (sheet, r1, c1, r2, c2)
        found = self.blocks.get(area)
        if found is not None:
            return found
        if sheet not in self.extents:
            real = self.sheets.get(sheet.upper())
            if real is None:
                return [[ERRORS["#REF!"]] * (c2 - c1 + 1) for _ in range(r2 - r1 + 1)]
            sheet = real
        results, compiled, value = self.results, self.compiled, self.value
        out = []
        for r in range(r1, r2 + 1):
            line: list[Value] = []
            for c in range(c1, c2 + 1):
                key = (sheet, r, c)
                v = results.get(key, MISSING)
                if v is MISSING:
                    v = value(sheet, r, c) if key in compiled else None
                line.append(v)  # type: ignore[arg-type]
            out.append(line)
        self.blocks[area] = out
        return out

    def mark(self, key: tuple[str, int, int], closure: Fn) -> None:
        """Give a formula cell another closure (one that says why it has no value), its
        formula's text kept for FORMULATEXT."""
        origin = None if self.origins is None else self.origins.get(key)
        self.compiled[key] = closure
        if origin is not None and self.origins is not None:
            self.origins.add(closure, origin)

    def formula_text(self, sheet: str, row: int, col: int) -> str | None:
        """The formula of a cell as Excel shows it (``=SUM(A1:A9)``: a shared formula's text
        for this cell, without ``_xlfn.``); None for a cell holding no formula."""
        key = (self._sheet(sheet), row, col)
        anchor = self.array_of.get(key, key)
        origin = None if self.origins is None else self.origins.get(anchor)
        if origin is None:
            return None
        text, r, c = origin
        if anchor != key:  # a cell of an array formula's range: the formula of the range
            r, c = row, col
        return "=" + translate(text, row - r, col - c, shown=True)

    def pivot(self, sheet: str, row: int, col: int) -> PivotTable | None:
        """The pivot table that holds this cell, if one does (GETPIVOTDATA's second argument)."""
        if self._pivots is None:
            self._pivots = [] if self.read_pivots is None else self.read_pivots()
        sheet = self._sheet(sheet)
        return next((p for p in self._pivots if p.area.sheet == sheet
                     and p.area.r1 <= row <= p.area.r2 and p.area.c1 <= col <= p.area.c2),
                    None)  # fmt: skip

    def spill(self, sheet: str, row: int, col: int) -> Area | None:
        """The range of the array formula written in this cell (``A1#``), if it holds one."""
        return self.spills.get((self._sheet(sheet), row, col))

    def constants(self) -> dict[tuple[str, int, int], Value]:
        """The values of the cells that hold no formula (found once)."""
        if self._constants is None:
            compiled = self.compiled
            self._constants = {k: v for k, v in self.results.items() if k not in compiled}
        return self._constants

    def held(self, area: Area) -> Iterator[Value] | None:
        """The values of the cells of ``area`` that hold something, row by row, where the
        area (up to its sheet's used end) is larger than all its sheet holds: a whole sheet
        with one far cell is read as its cells, not as 17 billion blanks. None for an area
        read whole as usual."""
        sheet = self._sheet(area.sheet)
        rows, cols = self.extents.get(sheet, (0, 0))
        r2, c2 = min(area.r2, rows), min(area.c2, cols)
        size = max(0, r2 - area.r1 + 1) * max(0, c2 - area.c1 + 1)
        if size < SPARSE_FROM:
            return None
        keys = self.held_keys.get(sheet)
        if keys is None:
            every = {(k[1], k[2]) for k in self.results if k[0] == sheet}
            every.update((k[1], k[2]) for k in self.compiled if k[0] == sheet)
            keys = self.held_keys[sheet] = sorted(every)
        if size <= len(keys):
            return None
        first = bisect.bisect_left(keys, (area.r1, 0))
        last = bisect.bisect_right(keys, (r2, cols + 1))
        c1 = area.c1
        return (self.value(sheet, r, c) for r, c in keys[first:last] if c1 <= c <= c2)

    def value(self, sheet: str, row: int, col: int) -> Value:
        key = (sheet, row, col)
        found = self.results.get(key, MISSING)  # constants are there from the start
        if found is not MISSING:
            return found  # type: ignore[return-value]
        return self.compute(key)

    def compute(self, key: tuple[str, int, int]) -> Value:
        """A cell's value, computed now (its formula's, else blank, else #REF! for a sheet that
        is not there); kept under ``key`` itself (the pending list's: one tuple a cell)."""
        sheet, row, col = key
        f = self.compiled.get(key)
        if f is None:
            if sheet not in self.extents:
                real = self.sheets.get(sheet.upper())
                if real is None:
                    return ERRORS["#REF!"]
                return self.value(real, row, col)
            return None
        active = self.active
        if key in active:
            if self.iterating:
                self.cyclic.add(key)
                before = self.previous.get(key)
                return 0.0 if before is None else before
            raise Circular(key)
        active.add(key)
        try:
            v = f(self, sheet, row, col)
            if v.__class__ is not float:  # a range or an array: the one value it gives here
                v = scalar(self, v, row, col)
        except (ArithmeticError, ValueError):  # 1e308 + 1e308 in a sum, a math domain: #NUM!
            v = ERRORS["#NUM!"]
        except Circular as error:  # the way back from the circle: its cells, in order
            error.met(key)
            raise
        except RecursionError:  # the chain is deeper than Python's stack: where it got to
            if self.deepest is None:
                self.deepest, self.deep_path = key, set(self.active)
            raise
        except NotComputed as error:  # this cell neither: the next one asking learns at once
            self.mark(key, not_computed(str(error)))
            raise
        except Unsupported as error:  # found only when run (INDIRECT of a defined name)
            where = f"{sheet}!{col_letters(col)}{row} ({error})"
            self.mark(key, not_computed(where))
            raise NotComputed(where) from None
        finally:
            active.discard(key)
        if v.__class__ is float:
            if v - v:  # an infinity or NaN (a finite number less itself is 0): Excel has none
                v = ERRORS["#NUM!"]
        elif v is None:
            v = 0.0  # a formula showing an empty cell shows 0
        elif isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        elif v.__class__ is not XlError and isinstance(v, XlError):  # a LAMBDA left uncalled
            v = XlError(v.code)  # its error value, #CALC!
        self.results[key] = v
        return v


SPARSE_FROM = 1 << 16  # cells in a range: from this many, one with few cells read as its cells
