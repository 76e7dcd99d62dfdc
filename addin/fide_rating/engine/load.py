"""A workbook's sheets read into a :class:`.book.Book`: the constant cells' values, and each
formula compiled once per shape (a shared formula's thousand cells: one closure; an array
formula's range: one computation, each cell its element), structured references rewritten
into the ranges they stand for; what cannot be compiled is a problem, and no value.

May import: :mod:`.book`, :mod:`.package`, :mod:`fide_rating.engine.formula` and the standard
library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .book import MISSING, Book, Origins, Problem, not_computed
from .compiler import Compiler
from .formula import ERRORS, Area, Fn, Unsupported, Value, col_letters, col_number
from .formula.structured import Table, rewrite
from .formula.values import Result, XlError, element
from .package import (
    WorkbookError,
    check_totals,
    defined_names,
    external_sheets,
    hidden_rows,
    read_sheet,
    rich_errors,
    scoped_names,
    shared_strings,
    sheet_order,
    sheet_parts,
    tables,
)
from .pivot import read_pivots
from .whatif import DataTable, data_table, table_cell


@dataclass(slots=True)
class Loaded:
    """A workbook read for computing: its book, the formula cells to compute in the order
    written, where each formula was written, the problems met, and what the file holds."""

    book: Book
    compiler: Compiler
    names: dict[str, str]  # the defined names
    where: dict[str, str]  # sheet name -> its part
    pending: list[tuple[str, int, int]]
    sources: Origins
    problems: list[Problem]
    formulas: int  # formula cells (an array formula's range: each of its cells)
    cached: dict[str, dict[tuple[int, int], Value]]  # the formulas' saved values, if kept
    tables: list[DataTable] = field(default_factory=list)  # the data tables (What-If)


def load(parts: dict[str, bytes], *, keep_stored: bool = False) -> Loaded:
    """The workbook's sheets read and their formulas compiled (with ``keep_stored``, the
    values the file holds for its formulas kept too)."""
    where = sheet_parts(parts)
    check_totals(parts, where)
    strings = shared_strings(parts)
    rich = rich_errors(parts)  # #SPILL!, #CALC! ... kept as rich values
    in_tables = tables(parts)
    names = {name: _structured(text, in_tables) for name, text in defined_names(parts).items()}
    local = {name: {sheet: _structured(text, in_tables, sheet) for sheet, text in by.items()}
             for name, by in scoped_names(parts).items()}  # fmt: skip
    book = Book()
    # a name defined for one sheet only is #NAME? on the others (Excel): the compiler finds
    # it among the sheet's own (``local``), never as a workbook's name
    shared = {name: _structured(text, in_tables)
              for name, text in defined_names(parts, scoped=False).items()}  # fmt: skip
    compiler = Compiler(
        shared,
        macros="xl/vbaProject.bin" in parts,
        local=local,
        sheets=sheet_order(parts),
    )
    for title, linked in external_sheets(parts).items():  # other workbooks', as Excel kept them
        book.sheets[title.upper()] = title
        book.extents[title] = (max((r for r, _ in linked), default=0),
                               max((c for _, c in linked), default=0))  # fmt: skip
        for (r, c), v in linked.items():
            book.results[(title, r, c)] = v
    problems: list[Problem] = []
    count = 0
    pending: list[tuple[str, int, int]] = []
    data_tables: list[DataTable] = []
    # where each formula was written (a shared formula's first cell): for the order of
    # evaluation when a chain of references is too deep to follow by recursion
    sources = book.origins = Origins(book.compiled)
    book.read_pivots = lambda: read_pivots(parts, where)
    book.compile_name = lambda text: compiler.name(text, reference=True)
    written_at: dict[str, tuple[str, int, int]] = {}
    cached: dict[str, dict[tuple[int, int], Value]] = {}  # saved values, where still needed
    subtotal_in: dict[str, bool] = {}  # formula text -> whether it calls SUBTOTAL
    for title, part in where.items():
        book.sheets[title.upper()] = title
        try:
            fixed, formulas, stored, max_row, max_col = read_sheet(
                parts[part], strings, keep_stored=keep_stored, errors=rich
            )
        except WorkbookError as error:  # where: the sheet, and its part
            raise WorkbookError(f"sheet {title!r} ({part}): {error}") from None
        book.extents[title] = (max_row, max_col)
        dynamic = _dynamic_cells(parts[part])
        filters = tuple(t.filtered for t in in_tables.values() if t.sheet == title and t.filtered)
        book.hidden[title] = hidden_rows(parts[part], filters)
        cached[title] = stored
        results = book.results
        for (r, c), v in fixed.items():
            results[(title, r, c)] = v
        masters: dict[str, Fn | Unsupported] = {}
        array_cells: set[tuple[str, int, int]] = set()
        # the cells of an array formula not computed: the formula's cell and its reason
        array_left: dict[tuple[str, int, int], str] = {}
        if in_tables:  # structured references: rewritten into the ranges they stand for
            for (r, c), f in formulas.items():
                if f.text is not None and "[" in f.text:
                    f.text = rewrite(f.text, in_tables, title, r, c)
        for (r, c), f in formulas.items():
            if f.kind == "shared" and f.text is not None and f.shared is not None:
                written_at[f.shared] = (f.text, r, c)
                try:
                    masters[f.shared] = found = compiler.compile(f.text, r, c)
                    sources.add(found, (f.text, r, c))
                except Unsupported as error:
                    masters[f.shared] = error
        count += len(formulas)
        compiled, add = book.compiled, pending.append
        # the follower of a shared formula met last, its closure, whether it calls SUBTOTAL
        last: object = None
        last_closure: Fn | None = None
        last_subtotal = False
        for (r, c), f in formulas.items():
            key = (title, r, c)
            if f is last and not array_cells:  # the same shared formula as the cell before
                compiled[key] = last_closure  # type: ignore[assignment]
                add(key)
                if last_subtotal:
                    book.subtotals.add(key)
                continue
            if array_cells and key in array_cells:  # in an array formula's range: with it
                if key in array_left:
                    problems.append(Problem(title, f"{col_letters(c)}{r}", array_left[key]))
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
                    last, last_closure, last_subtotal = f, master, calls_subtotal
                    continue
            here = f"{col_letters(c)}{r}"
            try:
                if f.kind == "dataTable":  # each cell of its range computed by the table
                    table = data_table(title, f.table or {})
                    data_tables.append(table)
                    closure = table_cell(table)
                    for at in table.cells():
                        compiled[at] = closure
                        results.pop(at, None)  # a cached value, not a constant
                        array_cells.add(at)
                        add(at)
                        count += at != key
                    continue
                if f.kind == "" and f.text is None:
                    raise Unsupported("an empty formula")
                if f.kind == "array":
                    cells = _array_cells(title, r, c, f.ref)
                    corner = cells[-1][2]
                    book.spills[key] = Area(title, r, c, corner[1], corner[2])
                    try:
                        if len(cells) == 1 and corner != key:  # more cells than recalc holds
                            raise Unsupported(
                                f"an array formula over more than {MAX_ARRAY_CELLS:,} cells"
                            )
                        master = compiler.compile_array(f.text or "", r, c)
                        if (r, c) in dynamic:
                            master = _spilling(master, book.spills[key])
                    except Unsupported as error:  # its range's values, as the file has them,
                        _uncomputed(book, fixed, key, corner, f"{title}!{here}")  # may be stale
                        why = f"in the array formula at {here}, not computed: {error}"
                        for _, _, at in cells:
                            if at != key:
                                array_cells.add(at)
                                array_left[at] = why
                        raise
                    for i, j, at in cells:
                        book.array_of[at] = key
                        compiled[at] = picked = _pick(master, key, i, j)
                        results.pop(at, None)  # a cached value, not a constant
                        sources.add(picked, (f.text or "", r, c))
                        array_cells.add(at)
                        if at != key and at[1:] in fixed:  # a cell holding only a value
                            add(at)
                            count += 1
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
                problems.append(Problem(title, here, str(error)))
                # no value from it; whoever reads it learns why
                compiled[key] = raiser = not_computed(f"{title}!{here} ({error})")
                if text:  # FORMULATEXT shows it all the same
                    sources.add(raiser, (text, r, c) if f.text is not None else
                                written_at.get(f.shared or "", (text, r, c)))  # fmt: skip
        del fixed, formulas  # read into the book: computing needs the book alone
    return Loaded(
        book, compiler, names, where, pending, sources, problems, count, cached, data_tables
    )


def _structured(text: str, in_tables: dict[str, Table], sheet: str = "") -> str:
    """A defined name's definition with its structured references (``Table14[]``,
    ``Sales[Amount]``) written as the ranges they stand for; as it was where they are not
    ones (its formula then says why)."""
    if not in_tables or "[" not in text:
        return text
    try:
        return rewrite(text, in_tables, sheet, 1, 1)
    except Unsupported:
        return text


_SUBTOTAL = re.compile(r"\b(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.I)


MAX_ARRAY_CELLS = 100_000  # cells of one array formula's range


def _array_cells(
    sheet: str, row: int, col: int, ref: str | None
) -> list[tuple[int, int, tuple[str, int, int]]]:
    """The cells of an array formula's range, each with its place in the result; for a range
    of more than :data:`MAX_ARRAY_CELLS`, its last corner alone (at -1, -1)."""
    area = (ref or "").replace("$", "").split(":")
    m1, m2 = _REF.fullmatch(area[0]), _REF.fullmatch(area[-1])
    if m1 is None or m2 is None:
        return [(0, 0, (sheet, row, col))]
    r1, c1 = int(m1.group(2)), col_number(m1.group(1))
    r2, c2 = int(m2.group(2)), col_number(m2.group(1))
    if not (r1 <= row <= r2 and c1 <= col <= c2):
        return [(0, 0, (sheet, row, col))]
    if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_ARRAY_CELLS:
        return [(-1, -1, (sheet, r2, c2))]
    return [(r - r1, c - c1, (sheet, r, c)) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def _uncomputed(
    book: Book,
    fixed: dict[tuple[int, int], Value],
    first: tuple[str, int, int],
    last: tuple[str, int, int],
    where: str,
) -> None:
    """The cells of a range not computed (``first`` to ``last``) hold no value for the
    formulas that read them: the values the file keeps there may be stale."""
    sheet, r1, c1 = first
    _, r2, c2 = last
    raiser = not_computed(where)
    for r, c in fixed:
        if r1 <= r <= r2 and c1 <= c <= c2:
            book.results.pop((sheet, r, c), None)
            book.compiled[(sheet, r, c)] = raiser


_REF = re.compile(r"([A-Z]{1,3})([0-9]+)")
_DYNAMIC = re.compile(rb'<c r="([A-Z]+)([0-9]+)"[^>]*?\bcm="\d+"')
SPILL = XlError("#SPILL!")


def _dynamic_cells(part: bytes) -> set[tuple[int, int]]:
    """The cells of a sheet's dynamic array formulas (Excel 365's, which spill): those with
    cell metadata (a ``cm`` attribute, Excel's XLDAPR)."""
    if b' cm="' not in part:
        return set()
    return {(int(digits), col_number(letters.decode())) for letters, digits in
            _DYNAMIC.findall(part)}  # fmt: skip


def _spilling(master: Fn, spill: Area) -> Fn:
    """A dynamic array formula's result, or #SPILL! where it is larger than the range it
    spilled into when saved and a cell it would spill into holds something, as in Excel
    (FILTER(L1:L2,M1:M2,{1,2,3}) in D9 with a text in E9 is #SPILL! in IronCalc's
    INFORMATION/ISREF.xlsx)."""

    def run(book: Any, sheet: str, row: int, col: int) -> Result:
        got = master(book, sheet, row, col)
        if isinstance(got, Area):
            rows, cols = got.rows, got.cols
        elif isinstance(got, list) and got and got[0]:
            rows, cols = len(got), len(got[0])
        else:
            return got
        if rows <= spill.rows and cols <= spill.cols:
            return got
        last_row, last_col = book.extents.get(spill.sheet, (0, 0))
        for r in range(spill.r1, min(spill.r1 + rows - 1, last_row) + 1):
            for c in range(spill.c1, min(spill.c1 + cols - 1, last_col) + 1):
                at = (spill.sheet, r, c)
                beyond = r > spill.r2 or c > spill.c2  # where it did not spill when saved
                if beyond and (at in book.compiled or book.results.get(at) is not None):
                    return SPILL
        return got

    return run


def _pick(master: Fn, key: tuple[str, int, int], i: int, j: int) -> Fn:
    """A cell of an array formula's range: element (i, j) of the formula's result, computed
    once for the whole range."""

    def pick(book: Any, sheet: str, row: int, col: int) -> Value:
        got = book.arrays.get(key, MISSING)
        if got is MISSING:
            got = book.arrays[key] = master(book, key[0], key[1], key[2])
        if isinstance(got, Area):  # a range: its cells, stretched as an array is
            ii = 0 if got.rows == 1 else i
            jj = 0 if got.cols == 1 else j
            if ii >= got.rows or jj >= got.cols:
                return ERRORS["#N/A"]
            return book.value(got.sheet, got.r1 + ii, got.c1 + jj)  # type: ignore[no-any-return]
        if isinstance(got, list):
            return element(got, i, j) if got and got[0] else ERRORS["#N/A"]
        if got == SPILL and (i, j) != (0, 0):
            return None  # a formula that cannot spill: its first cell alone says so
        return got  # type: ignore[no-any-return]

    return pick
