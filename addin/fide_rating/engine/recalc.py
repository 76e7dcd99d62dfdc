"""Headless recomputation of .xlsx/.xlsm workbooks.

The package is read part by part (:mod:`fide_rating.engine.package`); the formula engine
(:mod:`fide_rating.engine.formula`) evaluates every formula it can; then the package is written
back with only the formula cells' values changed. A formula the engine cannot evaluate keeps
its cell exactly as it was, and is reported.

May import: the rest of :mod:`fide_rating.engine`, :mod:`fide_rating.cells` (through the
compiler) and the standard library.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import sys
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import clean_stale, dangling
from .formula import (
    ERRORS,
    Area,
    Compiler,
    Fn,
    Unsupported,
    Value,
    XlError,
    col_letters,
    col_number,
    scalar,
)
from .formula.coerce import CODE_PAGE, DATE_OFFSET
from .formula.compiler import cells_of, references
from .formula.structured import rewrite
from .formula.values import element
from .package import (
    BOOK,
    DATE1904,
    NO,
    WorkbookError,
    check_totals,
    defined_names,
    external_sheets,
    hidden_rows,
    patch_part,
    read_file,
    read_package,
    read_sheet,
    scoped_names,
    set_constants,
    settle_calculation,
    shared_strings,
    sheet_order,
    sheet_parts,
    tables,
    write_package,
)


@dataclass(frozen=True, slots=True)
class Problem:
    """A formula cell left as it was, and why."""

    sheet: str
    cell: str
    reason: str

    def __str__(self) -> str:
        return f"{self.sheet}!{self.cell}: {self.reason}"


@dataclass
class Recalculated:
    """The outcome for one workbook."""

    source: Path
    output: Path | None = None
    formulas: int = 0
    computed: int = 0
    changed: int = 0
    problems: list[Problem] = field(default_factory=list)
    values: Mapping[tuple[str, int, int], Value] = field(default_factory=dict)
    players: list[dict[str, Value]] = field(default_factory=list)
    set_cells: int = 0  # constant cells set before computing (FIDE's list)
    # cells whose value rests on a volatile function (RAND, NOW ...): new at every calculation,
    # so never compared with a value saved before
    volatile: set[tuple[str, int, int]] = field(default_factory=set)


# --- evaluation ---------------------------------------------------------------------------


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
        return self.get(key, _MISSING) is not _MISSING

    def cell(self, row: int, col: int, formula: bool) -> Any:
        """The value of this sheet's cell (row, col), or :data:`.package.NO`: quicker than
        ``get`` where the cell is known to hold a formula."""
        full = (self.sheet or "", row, col)
        found = self.book.results.get(full, NO)
        if found is NO or (self.failed and full in self.failed):
            return NO
        if not formula and full not in self.book.compiled:
            return NO  # a constant
        return found

    def __getitem__(self, key: Any) -> Value:
        found = self.get(key, _MISSING)
        if found is _MISSING:
            raise KeyError(key)
        return found  # type: ignore[no-any-return]

    def get(self, key: Any, default: Any = None) -> Any:
        full = key if self.sheet is None else (self.sheet, key[0], key[1])
        found = self.book.results.get(full, _MISSING)
        if found is _MISSING or full in self.failed or full not in self.book.compiled:
            return default
        return found

    def __iter__(self) -> Iterator[Any]:
        if self.sheet is None:
            return iter(self.done)
        return ((k[1], k[2]) for k in self.done if k[0] == self.sheet)

    def __len__(self) -> int:
        return len(self.done) if self.sheet is None else sum(1 for _ in self)


class Circular(Exception):  # noqa: N818 - reads as what it reports
    """A formula that depends on itself."""


class NotComputed(Exception):  # noqa: N818 - reads as what it reports
    """A formula that needs a cell left uncomputed (an unsupported formula): its value is not
    known, and the cached one may be stale."""


def _not_computed(where: str) -> Fn:
    def raise_(book: object, sheet: str, row: int, col: int) -> Value:
        raise NotComputed(where)

    return raise_


_MISSING = object()


class Book:
    """The cells of a workbook for the formula engine: formulas, and the values of the constant
    cells and of the formulas computed so far."""

    def __init__(self) -> None:
        self.compiled: dict[tuple[str, int, int], Fn] = {}
        self.results: dict[tuple[str, int, int], Value] = {}
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
                v = results.get(key, _MISSING)
                if v is _MISSING:
                    v = value(sheet, r, c) if key in compiled else None
                line.append(v)  # type: ignore[arg-type]
            out.append(line)
        self.blocks[area] = out
        return out

    def value(self, sheet: str, row: int, col: int) -> Value:
        key = (sheet, row, col)
        found = self.results.get(key, _MISSING)  # constants are there from the start
        if found is not _MISSING:
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
        if key in self.active:
            if self.iterating:
                self.cyclic.add(key)
                before = self.previous.get(key)
                return 0.0 if before is None else before
            raise Circular(f"{sheet}!{col_letters(col)}{row}")
        self.active.add(key)
        try:
            v = f(self, sheet, row, col)
            if v.__class__ is not float:  # a range or an array: the one value it gives here
                v = scalar(self, v, row, col)
        except (ArithmeticError, ValueError):  # 1e308 + 1e308 in a sum, a math domain: #NUM!
            v = ERRORS["#NUM!"]
        except NotComputed as error:  # this cell neither: the next one asking learns at once
            self.compiled[key] = _not_computed(str(error))
            raise
        except Unsupported as error:  # found only when run (INDIRECT of a defined name)
            where = f"{sheet}!{col_letters(col)}{row} ({error})"
            self.compiled[key] = _not_computed(where)
            raise NotComputed(where) from None
        finally:
            self.active.discard(key)
        if v.__class__ is float:
            if not math.isfinite(v):
                v = ERRORS["#NUM!"]  # Excel has no infinity and no NaN
        elif v is None:
            v = 0.0  # a formula showing an empty cell shows 0
        elif isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        self.results[key] = v
        return v


# given what a workbook holds (its cells' values by sheet, row and column), the constant cells
# to set before computing (a feature above the engine decides them: FIDE's list in a template)
Constants = Callable[[Callable[[str, int, int], Value], dict[str, tuple[int, int]]],
                     dict[tuple[str, int, int], Value]]  # fmt: skip


def evaluate(
    data: bytes, source: Path, constants: Constants | None = None
) -> tuple[Recalculated, list[zipfile.ZipInfo], dict[str, bytes]]:
    """Evaluate every formula of a workbook given as bytes; the patched parts come back.

    The package is read directly (the parts openpyxl would read, in one pass per sheet): the
    formulas of a shared-formula group compile once and serve every cell of the group. With
    ``constants``, the cells it names are set first and written into the package too.
    """
    infos, parts = read_package(data, source.name)
    # the workbook's date system, for every date the functions compute or read in a text
    token = DATE_OFFSET.set(1462 if DATE1904.search(parts.get("xl/workbook.xml", b"")) else 0)
    # CHAR and CODE: the character set of the computer the workbook was saved on
    mac = b"Macintosh" in parts.get("docProps/app.xml", b"")
    page = CODE_PAGE.set("mac_roman" if mac else "cp1252")
    try:
        return _evaluate(infos, parts, source, constants)
    finally:
        CODE_PAGE.reset(page)
        DATE_OFFSET.reset(token)


def _evaluate(
    infos: list[zipfile.ZipInfo],
    parts: dict[str, bytes],
    source: Path,
    constants: Constants | None,
) -> tuple[Recalculated, list[zipfile.ZipInfo], dict[str, bytes]]:
    where = sheet_parts(parts)
    check_totals(parts, where)
    strings = shared_strings(parts)
    names = defined_names(parts)
    in_tables = tables(parts)
    book = Book()
    compiler = Compiler(
        names,
        macros="xl/vbaProject.bin" in parts,
        local=scoped_names(parts),
        sheets=sheet_order(parts),
    )
    for title, linked in external_sheets(parts).items():  # other workbooks', as Excel kept them
        book.sheets[title.upper()] = title
        book.extents[title] = (max((r for r, _ in linked), default=0),
                               max((c for _, c in linked), default=0))  # fmt: skip
        for (r, c), v in linked.items():
            book.results[(title, r, c)] = v
    outcome = Recalculated(source)
    pending: list[tuple[str, int, int]] = []
    # where each formula was written (a shared formula's first cell): for the order of
    # evaluation when a chain of references is too deep to follow by recursion
    sources = Origins(book.compiled)
    written_at: dict[str, tuple[str, int, int]] = {}
    iteration = _iteration(parts.get("xl/workbook.xml", b""))
    cached: dict[str, dict[tuple[int, int], Value]] = {}  # saved values, where still needed
    subtotal_in: dict[str, bool] = {}  # formula text -> whether it calls SUBTOTAL
    for title, part in where.items():
        book.sheets[title.upper()] = title
        fixed, formulas, stored, max_row, max_col = read_sheet(
            parts[part], strings, keep_stored=iteration is not None
        )
        book.extents[title] = (max_row, max_col)
        filters = tuple(t.filtered for t in in_tables.values() if t.sheet == title and t.filtered)
        book.hidden[title] = hidden_rows(parts[part], filters)
        cached[title] = stored
        results = book.results
        for (r, c), v in fixed.items():
            results[(title, r, c)] = v
        masters: dict[str, Fn | Unsupported] = {}
        array_cells: set[tuple[str, int, int]] = set()
        if in_tables:  # structured references: rewritten into the ranges they stand for
            for (r, c), f in formulas.items():
                if f.text is not None and "[" in f.text:
                    f.text = rewrite(f.text, in_tables, title, r, c)
        for (r, c), f in formulas.items():
            if f.kind == "shared" and f.text is not None and f.shared is not None:
                try:
                    masters[f.shared] = found = compiler.compile(f.text, r, c)
                    written_at[f.shared] = (f.text, r, c)
                    sources.add(found, (f.text, r, c))
                except Unsupported as error:
                    masters[f.shared] = error
        outcome.formulas += len(formulas)
        compiled, add = book.compiled, pending.append
        last: tuple[object, Fn | None, bool] = (None, None, False)  # follower, closure, SUBTOTAL
        for (r, c), f in formulas.items():
            key = (title, r, c)
            if f is last[0] and not array_cells:  # the same shared formula as the cell before
                compiled[key] = last[1]  # type: ignore[assignment]
                add(key)
                if last[2]:
                    book.subtotals.add(key)
                continue
            if array_cells and key in array_cells:  # in an array formula's range: with it
                continue
            text = f.text if f.text is not None else written_at.get(f.shared or "", ("",))[0]
            calls_subtotal = subtotal_in.get(text)
            if calls_subtotal is None:  # once a formula text (a shared one's cells share it)
                calls_subtotal = subtotal_in[text] = _SUBTOTAL.search(text) is not None
            if calls_subtotal:
                book.subtotals.add(key)
            if f.text is None and f.kind == "shared":  # a shared formula's follower (most)
                master = masters.get(f.shared or "")
                if master is not None and not isinstance(master, Unsupported):
                    compiled[key] = master
                    add(key)
                    last = (f, master, calls_subtotal)
                    continue
            here = f"{col_letters(c)}{r}"
            if f.kind == "dataTable" or (f.kind == "" and f.text is None):
                what = "data tables" if f.kind == "dataTable" else "empty formulas"
                outcome.problems.append(Problem(title, here, f"{what} are not evaluated"))
                results[key] = stored.get((r, c))
                continue
            try:
                if f.kind == "array":
                    cells = _array_cells(title, r, c, f.ref)
                    master = compiler.compile_array(f.text or "", r, c)
                    for i, j, at in cells:
                        compiled[at] = picked = _pick(master, key, i, j)
                        results.pop(at, None)  # a cached value, not a constant
                        sources.add(picked, (f.text or "", r, c))
                        array_cells.add(at)
                        if at != key and at[1:] in fixed:  # a cell holding only a value
                            add(at)
                            outcome.formulas += 1
                        elif at != key and at[1:] in formulas:
                            add(at)
                    add(key)
                    continue
                if f.kind == "shared" and f.shared is not None:
                    master = masters.get(f.shared)
                    if master is None:
                        raise Unsupported("a shared formula without its first cell")
                    if isinstance(master, Unsupported):
                        raise master
                    compiled[key] = master
                else:
                    compiled[key] = closure = compiler.compile(f.text or "", r, c)
                    sources.add(closure, (f.text or "", r, c))
                add(key)
            except Unsupported as error:
                outcome.problems.append(Problem(title, here, str(error)))
                compiled[key] = _not_computed(f"{title}!{here}")  # no value from it
        del fixed, formulas  # read into the book: computing needs the book alone
    set_now: dict[tuple[str, int, int], Value] = {}
    if constants is not None:
        set_now = constants(lambda s, r, c: book.results.get((s, r, c)), dict(book.extents))
        for key, value in set_now.items():
            if key not in book.compiled:
                book.results[key] = value
    if iteration is not None:
        book.iterating = True
        book.previous = {k: cached[k[0]].get(k[1:]) for k in pending}
    failed = _compute(book, pending, sources, compiler)
    if iteration is not None and book.cyclic:
        failed = _iterate(book, pending, sources, compiler, failed, *iteration)
    for key, why in failed.items():
        outcome.problems.append(Problem(key[0], f"{col_letters(key[2])}{key[1]}", why))
    outcome.volatile = _volatile(book, pending, sources, compiler)
    done = [key for key in pending if key not in failed and key in book.results]
    outcome.values = Computed(book, failed, done)  # a view: the values stay where computed
    outcome.computed = len(done)
    for sheet in dict.fromkeys(key[0] for key in done):
        view = Computed(book, failed, done, sheet)
        parts[where[sheet]], changed = patch_part(parts[where[sheet]], view, view.cell)
        outcome.changed += changed
    by_sheet: dict[str, dict[tuple[int, int], Value]] = {}
    for (sheet, row, col), value in set_now.items():
        by_sheet.setdefault(sheet, {})[(row, col)] = value
    for sheet, values in by_sheet.items():
        parts[where[sheet]], missing = set_constants(parts[where[sheet]], values)
        outcome.problems += [Problem(sheet, ref, "no such row to write into") for ref in missing]
        outcome.set_cells += len(values) - len(missing)
    outcome.players = _players(names, book)
    if not outcome.problems and BOOK in parts:
        parts[BOOK] = settle_calculation(parts[BOOK])
    return outcome, infos, parts


def _compute(
    book: Book,
    pending: list[tuple[str, int, int]],
    sources: Origins,
    compiler: Compiler,
) -> dict[tuple[str, int, int], str]:
    """Compute every pending cell (those not computed yet); the cells left, with why."""
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    failed: dict[tuple[str, int, int], str] = {}

    def not_computed(key: tuple[str, int, int], error: NotComputed) -> None:
        """Why a cell is left: its own formula's reason (found when run), or the cell it
        depends on."""
        own = f"{key[0]}!{col_letters(key[2])}{key[1]} ("
        text = str(error)
        if text.startswith(own) and text.endswith(")"):
            failed[key] = text[len(own) : -1]
        else:
            failed[key] = f"depends on {text}, which is not computed"

    results = book.results
    try:
        for key in pending:
            try:
                if key not in results:
                    book.compute(key)
            except NotComputed as error:
                not_computed(key, error)
            except Circular as error:
                failed[key] = f"circular reference through {error}"
            except RecursionError:
                try:
                    _bottom_up(book, key, sources, compiler)
                    value = book.value(*key)
                except NotComputed as error:
                    not_computed(key, error)
                    continue
                except (RecursionError, Circular) as error:
                    value = CIRCULAR if isinstance(error, Circular) else None
                    if value is None:
                        failed[key] = "dependency chain too deep"
                if value is CIRCULAR:
                    book.results[key] = CIRCULAR
            except Exception as error:  # a fault of ours: this cell, not the batch
                failed[key] = f"not computed, an internal error ({type(error).__name__}: {error})"
    finally:
        sys.setrecursionlimit(old_limit)
    for key in pending:  # the cells on or behind a circle found by the bottom-up order
        if book.results.get(key) is CIRCULAR and key not in failed:
            failed[key] = "circular reference (or behind one)"
    return failed


_CALC_PR = re.compile(rb"<(?:\w+:)?calcPr\b([^>]*)/?>")


def _iteration(workbook: bytes) -> tuple[int, float] | None:
    """The workbook's iterative calculation (``<calcPr iterate="1" iterateCount="100"
    iterateDelta="0.001"/>``, Excel's defaults): the most iterations and the change at which
    they stop; None when it is off."""
    found = _CALC_PR.search(workbook)
    if found is None:
        return None
    attrs = dict(re.findall(rb'(\w+)="([^"]*)"', found.group(1)))
    if attrs.get(b"iterate") not in (b"1", b"true"):
        return None
    try:
        return int(attrs.get(b"iterateCount", b"100")), float(attrs.get(b"iterateDelta", b"0.001"))
    except ValueError:
        return 100, 0.001


def _iterate(
    book: Book,
    pending: list[tuple[str, int, int]],
    sources: Origins,
    compiler: Compiler,
    failed: dict[tuple[str, int, int], str],
    count: int,
    delta: float,
) -> dict[tuple[str, int, int], str]:
    """Excel's iterative calculation of circular references: every formula computed again,
    a cell on a circle taking its value of the pass before, until no value on a circle moves by
    ``delta`` or after ``count`` passes. Excel's own order of computing decides where such a
    calculation stops; the values are kept only where one more pass leaves them unchanged to 15
    digits (a fixed point, which any order reaches), the others are reported."""

    def again() -> dict[tuple[str, int, int], str]:
        book.previous = {k: book.results.get(k) for k in pending}
        for k in pending:
            book.results.pop(k, None)
        book.blocks.clear()
        book.arrays.clear()
        return _compute(book, pending, sources, compiler)

    for _ in range(max(0, count - 1)):
        failed = again()
        moved = [_moved(book.previous.get(k), book.results.get(k)) for k in book.cyclic]
        if max(moved, default=0.0) < delta:
            break
    failed = again()
    for k in pending:
        before, after = book.previous.get(k), book.results.get(k)
        scale = max(abs(before), abs(after)) if isinstance(before, float) and isinstance(
            after, float) else 0.0  # fmt: skip
        if k not in failed and _moved(before, after) > 1e-14 * scale:
            failed[k] = "circular reference: the iterative calculation has not settled"
    return failed


def _moved(before: Value, after: Value) -> float:
    """How far a value moved between two passes (infinitely, for a change of kind)."""
    if isinstance(before, float) and isinstance(after, float):
        return abs(after - before)
    return 0.0 if before == after and type(before) is type(after) else math.inf


class _Reads:
    """The cells a formula's written references (and its names') cover, bounded by each
    sheet's used range; the references are found once per formula shape."""

    def __init__(self, book: Book, sources: Origins, compiler: Compiler) -> None:
        self.book, self.sources, self.compiler = book, sources, compiler
        self.trees: dict[tuple[str, int, int], list[tuple[Any, ...]]] = {}

    def __call__(self, key: tuple[str, int, int]) -> Iterator[tuple[str, int, int]]:
        source = self.sources.get(key)
        if source is None:
            return
        nodes = self.trees.get(source)
        if nodes is None:
            try:
                nodes = references(self.compiler.tree(*source), self.compiler.names)
            except Unsupported:
                nodes = []
            self.trees[source] = nodes
        for node in nodes:
            area = cells_of(node, key[0], key[1], key[2])
            rows, cols = self.book.extent(area.sheet)
            for r in range(area.r1, min(area.r2, rows) + 1):
                for c in range(area.c1, min(area.c2, cols) + 1):
                    yield (area.sheet, r, c)


_VOLATILE = re.compile(r"\b(?:_xlfn\.)?(?:RAND|RANDBETWEEN|RANDARRAY|NOW|TODAY)\s*\(", re.I)


def _volatile(
    book: Book,
    pending: list[tuple[str, int, int]],
    sources: Origins,
    compiler: Compiler,
) -> set[tuple[str, int, int]]:
    """The cells whose formula calls a volatile function (RAND, RANDBETWEEN, RANDARRAY, NOW,
    TODAY), and the cells that refer to them, however indirectly (through the references
    written in the formulas and their names)."""
    if not any(_VOLATILE.search(text) for text, _, _ in sources.by_closure.values()):
        return set()  # no formula calls one (the common case, found per formula shape)
    calls: dict[str, bool] = {}
    seeds = []
    for key in pending:
        origin = sources.get(key)
        text = "" if origin is None else origin[0]
        found = calls.get(text)
        if found is None:
            found = calls[text] = _VOLATILE.search(text) is not None
        if found:
            seeds.append(key)
    if not seeds:
        return set()
    readers: dict[tuple[str, int, int], list[tuple[str, int, int]]] = {}
    read = _Reads(book, sources, compiler)
    for key in pending:
        for cell in read(key):
            readers.setdefault((book._sheet(cell[0]), cell[1], cell[2]), []).append(key)
    out = set(seeds)
    todo = list(seeds)
    while todo:
        for reader in readers.get(todo.pop(), ()):
            if reader not in out:
                out.add(reader)
                todo.append(reader)
    return out


_SUBTOTAL = re.compile(r"\b(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.I)


def _array_cells(
    sheet: str, row: int, col: int, ref: str | None
) -> list[tuple[int, int, tuple[str, int, int]]]:
    """The cells of an array formula's range, each with its place in the result."""
    area = (ref or "").replace("$", "").split(":")
    m1, m2 = _REF.fullmatch(area[0]), _REF.fullmatch(area[-1])
    if m1 is None or m2 is None:
        return [(0, 0, (sheet, row, col))]
    r1, c1 = int(m1.group(2)), col_number(m1.group(1))
    r2, c2 = int(m2.group(2)), col_number(m2.group(1))
    if (r2 - r1 + 1) * (c2 - c1 + 1) > 100_000 or not (r1 <= row <= r2 and c1 <= col <= c2):
        return [(0, 0, (sheet, row, col))]
    return [(r - r1, c - c1, (sheet, r, c)) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


_REF = re.compile(r"([A-Z]{1,3})([0-9]+)")


def _pick(master: Fn, key: tuple[str, int, int], i: int, j: int) -> Fn:
    """A cell of an array formula's range: element (i, j) of the formula's result, computed
    once for the whole range."""

    def pick(book: Any, sheet: str, row: int, col: int) -> Value:
        got = book.arrays.get(key, _MISSING)
        if got is _MISSING:
            got = book.arrays[key] = master(book, key[0], key[1], key[2])
        if isinstance(got, Area):  # a range: its cells, stretched as an array is
            ii = 0 if got.rows == 1 else i
            jj = 0 if got.cols == 1 else j
            if ii >= got.rows or jj >= got.cols:
                return ERRORS["#N/A"]
            return book.value(got.sheet, got.r1 + ii, got.c1 + jj)  # type: ignore[no-any-return]
        if isinstance(got, list):
            return element(got, i, j) if got and got[0] else ERRORS["#N/A"]
        return got  # type: ignore[no-any-return]

    return pick


def _bottom_up(
    book: Book,
    start: tuple[str, int, int],
    sources: Origins,
    compiler: Compiler,
) -> None:
    """Compute the formulas ``start`` depends on, deepest first, with an explicit stack: each
    then finds its references computed, however long the chain (a column of 100,000 cells
    each referring to the next)."""
    read = _Reads(book, sources, compiler)

    def dependencies(key: tuple[str, int, int]) -> list[tuple[str, int, int]]:
        return [dep for dep in read(key) if dep in book.compiled and dep not in book.results]

    # depth-first with an explicit path: the post-order computes every dependency first; a
    # reference back onto the path is a circle, and whatever reaches it cannot be computed
    order: list[tuple[str, int, int]] = []
    state: dict[tuple[str, int, int], int] = {}  # 1: on the path, 2: done
    circular: set[tuple[str, int, int]] = set()
    path: list[tuple[tuple[str, int, int], Iterator[tuple[str, int, int]]]] = [
        (start, iter(dependencies(start)))
    ]
    state[start] = 1
    while path:
        key, deps = path[-1]
        dep = next(deps, None)
        if dep is None:
            path.pop()
            state[key] = 2
            order.append(key)
            if key in circular and path:
                circular.add(path[-1][0])  # reaching a circle: not computable either
            continue
        seen = state.get(dep)
        if seen == 1:  # a circle: every key on the path from dep to here
            at = next(i for i, (k, _) in enumerate(path) if k == dep)
            circular.update(k for k, _ in path[at:])
        elif seen == 2:
            if dep in circular:
                circular.add(key)
        else:
            state[dep] = 1
            path.append((dep, iter(dependencies(dep))))
    for key in order:
        if key in circular:
            book.results[key] = CIRCULAR
        elif key != start and key not in book.results:
            with contextlib.suppress(Circular, RecursionError, NotComputed):
                book.value(*key)


CIRCULAR = XlError("#CIRCULAR")  # a cell on or behind a circle of references: reported


def _players(names: dict[str, str], book: Book) -> list[dict[str, Value]]:
    """The player table of a fide-rating template (the defined name FIDE_PLAYERS), if any."""
    target = names.get("FIDE_PLAYERS")
    if target is None:
        return []
    m = re.fullmatch(
        r"(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)", target.strip()
    )
    if m is None:
        return []
    sheet = (m.group(1) or "").replace("''", "'") or m.group(2)
    c1, r1 = col_number(m.group(3)), int(m.group(4))
    c2, r2 = col_number(m.group(5)), int(m.group(6))

    def shown(r: int, c: int) -> Value:  # a cell left uncomputed shows nothing
        try:
            return book.value(sheet, r, c)
        except (NotComputed, Circular, RecursionError):
            return None

    header = [shown(r1, c) for c in range(c1, c2 + 1)]
    rows = []
    for r in range(r1 + 1, r2 + 1):
        line = {str(h): shown(r, c) for h, c in zip(header, range(c1, c2 + 1), strict=True)}
        if any(v not in (None, "") for k, v in line.items() if k in ("Name", "FIDE ID")):
            rows.append(line)
    return rows


def output_path(
    source: Path, out_dir: Path | None, in_place: bool, output: Path | None = None
) -> Path:
    """Where a recomputed workbook goes: the file ``output``, over the input with
    ``in_place``, into the folder ``out_dir`` under its own name, or next to the input as
    NAME.recalc.xlsx."""
    if output is not None:
        return output
    if in_place:
        return source
    if out_dir is not None:
        return out_dir / source.name
    return source.with_name(f"{source.stem}.recalc{source.suffix}")


def recalc_file(
    source: Path,
    *,
    out_dir: Path | None = None,
    in_place: bool = False,
    output: Path | None = None,
    force: bool = False,
    constants: Constants | None = None,
) -> Recalculated:
    """Recompute one workbook and write it atomically. Never over the input unless
    ``in_place``; never over another existing file unless ``force``."""
    if source.suffix.lower() not in (".xlsx", ".xlsm"):
        if source.suffix.lower() == ".ods":
            raise WorkbookError(
                "an OpenDocument (.ods) file: open it in LibreOffice to recalculate"
            )
        if source.suffix.lower() == ".xls":
            raise WorkbookError("the old .xls format: save it as .xlsx first")
    target = output_path(source, out_dir, in_place, output)
    if (where := dangling(target)) is not None:
        raise WorkbookError(
            f"{target} is a symbolic link to a missing file ({where}), never written through: "
            "remove the link or choose another name"
        )
    if not in_place:
        if target.exists() and os.path.samefile(target, source):
            raise WorkbookError(
                "the output would overwrite the input: use --in-place to allow that"
            )
        if target.exists() and not force:
            raise WorkbookError(f"{target} exists: add --force to replace it")
    try:
        data = read_file(source)
    except OSError as error:
        raise WorkbookError(f"cannot read the file ({error.strerror})") from None
    clean_stale(target.parent)
    outcome, infos, parts = evaluate(data, source, constants)
    try:
        write_package(infos, parts, target)
    except OSError as error:
        raise WorkbookError(f"cannot write {target} ({error.strerror or error})") from None
    outcome.output = target
    return outcome


SOURCES = (".xlsx", ".xlsm", ".ods", ".xls")  # in a folder: workbooks; .ods and .xls are reported


def iter_sources(paths: Iterable[str]) -> list[Path]:
    """Files from paths, folders (their workbooks) and glob patterns, in a stable order."""
    import glob

    out: list[Path] = []
    for raw in paths:
        matched = (
            sorted(glob.glob(raw, recursive=True)) if any(ch in raw for ch in "*?[") else [raw]
        )
        for item in matched or [raw]:
            p = Path(item)
            if p.is_dir():
                out += sorted(
                    q
                    for q in p.iterdir()
                    if q.suffix.lower() in SOURCES
                    and not q.name.startswith(".")
                    and not q.stem.endswith(".recalc")  # a previous run's output
                )
            else:
                out.append(p)
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    return unique
