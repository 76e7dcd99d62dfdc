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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import clean_stale
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
from .formula.compiler import cells_of, references
from .formula.structured import rewrite
from .formula.values import element
from .package import (
    BOOK,
    DATE1904,
    WorkbookError,
    defined_names,
    hidden_rows,
    patch_part,
    read_package,
    read_sheet,
    set_constants,
    settle_calculation,
    shared_strings,
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
    values: dict[tuple[str, int, int], Value] = field(default_factory=dict)
    players: list[dict[str, Value]] = field(default_factory=list)
    set_cells: int = 0  # constant cells set before computing (FIDE's list)


# --- evaluation ---------------------------------------------------------------------------


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
        self.subtotals: set[tuple[str, int, int]] = set()  # cells whose formula has SUBTOTAL

    def extent(self, sheet: str) -> tuple[int, int]:
        return self.extents.get(self._sheet(sheet), (0, 0))

    def left_out(self, sheet: str, row: int, col: int, hidden_too: bool) -> bool:
        sheet = self._sheet(sheet)  # as a formula wrote it: any case
        if (sheet, row, col) in self.subtotals:
            return True
        manual, filtered = self.hidden.get(sheet, (set(), set()))
        return row in filtered or (hidden_too and row in manual)

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
        f = self.compiled.get(key)
        if f is None:
            if sheet not in self.extents:
                real = self.sheets.get(sheet.upper())
                if real is None:
                    return ERRORS["#REF!"]
                return self.value(real, row, col)
            return None
        if key in self.active:
            raise Circular(f"{sheet}!{col_letters(col)}{row}")
        self.active.add(key)
        try:
            v = scalar(self, f(self, sheet, row, col), row, col)
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
        if isinstance(v, float) and not math.isfinite(v):
            v = ERRORS["#NUM!"]  # Excel has no infinity and no NaN
        if v is None:
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
    if DATE1904.search(parts.get("xl/workbook.xml", b"")):
        raise WorkbookError("workbooks in the 1904 date system are not supported")
    where = sheet_parts(parts)
    strings = shared_strings(parts)
    names = defined_names(parts)
    in_tables = tables(parts)
    book = Book()
    compiler = Compiler(names)
    outcome = Recalculated(source)
    pending: list[tuple[str, int, int]] = []
    # where each formula was written (a shared formula's first cell): for the order of
    # evaluation when a chain of references is too deep to follow by recursion
    sources: dict[tuple[str, int, int], tuple[str, int, int]] = {}
    written_at: dict[str, tuple[str, int, int]] = {}
    cached: dict[str, dict[tuple[int, int], Value]] = {}
    subtotal_in: dict[str, bool] = {}  # formula text -> whether it calls SUBTOTAL
    for title, part in where.items():
        book.sheets[title.upper()] = title
        fixed, formulas, stored, max_row, max_col = read_sheet(parts[part], strings)
        book.extents[title] = (max_row, max_col)
        book.hidden[title] = hidden_rows(parts[part])
        cached[title] = stored
        for (r, c), v in fixed.items():
            book.results[(title, r, c)] = v
        masters: dict[str, Fn | Unsupported] = {}
        array_cells: set[tuple[str, int, int]] = set()
        if in_tables:  # structured references: rewritten into the ranges they stand for
            for (r, c), f in formulas.items():
                if f.text is not None and "[" in f.text:
                    f.text = rewrite(f.text, in_tables, title, r, c)
        for (r, c), f in formulas.items():
            if f.kind == "shared" and f.text is not None and f.shared is not None:
                try:
                    masters[f.shared] = compiler.compile(f.text, r, c)
                    written_at[f.shared] = (f.text, r, c)
                except Unsupported as error:
                    masters[f.shared] = error
        for (r, c), f in formulas.items():
            key = (title, r, c)
            here = f"{col_letters(c)}{r}"
            outcome.formulas += 1
            text = f.text if f.text is not None else written_at.get(f.shared or "", ("",))[0]
            calls_subtotal = subtotal_in.get(text)
            if calls_subtotal is None:  # once a formula text (a shared one's cells share it)
                calls_subtotal = subtotal_in[text] = _SUBTOTAL.search(text) is not None
            if calls_subtotal:
                book.subtotals.add(key)
            if key in array_cells:  # in an array formula's range: computed with it
                continue
            if f.kind == "dataTable" or (f.kind == "" and f.text is None):
                what = "data tables" if f.kind == "dataTable" else "empty formulas"
                outcome.problems.append(Problem(title, here, f"{what} are not evaluated"))
                book.results[key] = stored.get((r, c))
                continue
            try:
                if f.kind == "array":
                    cells = _array_cells(title, r, c, f.ref)
                    master = compiler.compile_array(f.text or "", r, c)
                    for i, j, at in cells:
                        book.compiled[at] = _pick(master, key, i, j)
                        book.results.pop(at, None)  # a cached value, not a constant
                        sources[at] = (f.text or "", r, c)
                        array_cells.add(at)
                        if at != key and at[1:] in fixed:  # a cell holding only a value
                            pending.append(at)
                            outcome.formulas += 1
                            cached[title][at[1:]] = fixed[at[1:]]
                        elif at != key and at[1:] in formulas:
                            pending.append(at)
                    pending.append(key)
                    continue
                if f.kind == "shared" and f.shared is not None:
                    found = masters.get(f.shared)
                    if found is None:
                        raise Unsupported("a shared formula without its first cell")
                    if isinstance(found, Unsupported):
                        raise found
                    book.compiled[key] = found
                    sources[key] = written_at[f.shared]
                else:
                    book.compiled[key] = compiler.compile(f.text or "", r, c)
                    sources[key] = (f.text or "", r, c)
                pending.append(key)
            except Unsupported as error:
                outcome.problems.append(Problem(title, here, str(error)))
                book.compiled[key] = _not_computed(f"{title}!{here}")  # no value from it
    set_now: dict[tuple[str, int, int], Value] = {}
    if constants is not None:
        set_now = constants(lambda s, r, c: book.results.get((s, r, c)), dict(book.extents))
        for key, value in set_now.items():
            if key not in book.compiled:
                book.results[key] = value
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    failed: set[tuple[str, int, int]] = set()

    def left(key: tuple[str, int, int], why: str) -> None:
        failed.add(key)
        outcome.problems.append(Problem(key[0], f"{col_letters(key[2])}{key[1]}", why))

    def not_computed(key: tuple[str, int, int], error: NotComputed) -> None:
        """Why a cell is left: its own formula's reason (found when run), or the cell it
        depends on."""
        own = f"{key[0]}!{col_letters(key[2])}{key[1]} ("
        text = str(error)
        if text.startswith(own) and text.endswith(")"):
            left(key, text[len(own) : -1])
        else:
            left(key, f"depends on {text}, which is not computed")

    try:
        for key in pending:
            try:
                book.value(*key)
            except NotComputed as error:
                not_computed(key, error)
            except Circular as error:
                left(key, f"circular reference through {error}")
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
                        left(key, "dependency chain too deep")
                if value is CIRCULAR:
                    book.results[key] = CIRCULAR
            except Exception as error:  # a fault of ours: this cell, not the batch
                left(key, f"not computed, an internal error ({type(error).__name__}: {error})")
    finally:
        sys.setrecursionlimit(old_limit)
    for key in pending:  # the cells on or behind a circle found by the bottom-up order
        if book.results.get(key) is CIRCULAR and key not in failed:
            left(key, "circular reference (or behind one)")
    per_sheet: dict[str, dict[tuple[int, int], Value]] = {}
    for key in pending:
        if key in failed or key not in book.results:
            continue
        sheet, row, col = key
        value = book.results[key]
        outcome.values[key] = value
        outcome.computed += 1
        if _differs(cached[sheet].get((row, col)), value):
            outcome.changed += 1
        per_sheet.setdefault(sheet, {})[(row, col)] = value
    for sheet, values in per_sheet.items():
        parts[where[sheet]] = patch_part(parts[where[sheet]], values)
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
    sources: dict[tuple[str, int, int], tuple[str, int, int]],
    compiler: Compiler,
) -> None:
    """Compute the formulas ``start`` depends on, deepest first, with an explicit stack: each
    then finds its references computed, however long the chain (a column of 100,000 cells
    each referring to the next)."""
    trees: dict[tuple[str, int, int], list[tuple[Any, ...]]] = {}

    def dependencies(key: tuple[str, int, int]) -> list[tuple[str, int, int]]:
        source = sources.get(key)
        if source is None:
            return []
        nodes = trees.get(source)
        if nodes is None:
            try:
                nodes = references(compiler.tree(*source), compiler.names)
            except Unsupported:
                nodes = []
            trees[source] = nodes
        out = []
        sheet, row, col = key
        for node in nodes:
            area = cells_of(node, sheet, row, col)
            rows, cols = book.extent(area.sheet)
            for r in range(area.r1, min(area.r2, rows) + 1):
                for c in range(area.c1, min(area.c2, cols) + 1):
                    dep = (area.sheet, r, c)
                    if dep in book.compiled and dep not in book.results:
                        out.append(dep)
        return out

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


def _differs(old: Value, new: Value) -> bool:
    return old != new or type(old) is not type(new)


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
    if not in_place:
        if target.exists() and os.path.samefile(target, source):
            raise WorkbookError(
                "the output would overwrite the input: use --in-place to allow that"
            )
        if target.exists() and not force:
            raise WorkbookError(f"{target} exists: add --force to replace it")
    try:
        data = source.read_bytes()
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
