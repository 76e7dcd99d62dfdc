"""The order of calculation: every pending formula computed (by recursion from each, and
bottom-up with a stack of its own where a chain is too deep for that), circles found and
reported, Excel's iterative calculation where the workbook turns it on, and the cells whose
value rests on a volatile function.

May import: :mod:`.book`, :mod:`fide_rating.engine.formula` and the standard library.
"""

from __future__ import annotations

import contextlib
import math
import re
import sys
from bisect import bisect_right
from collections.abc import Hashable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from .book import Book, Circular, NotComputed, Origins, not_computed, on_circle
from .compiler import Compiler, cells_of, references
from .formula import Unsupported, Value, col_letters


def compute_all(
    book: Book,
    pending: list[tuple[str, int, int]],
    sources: Origins,
    compiler: Compiler,
) -> dict[tuple[str, int, int], str]:
    """Compute every pending cell (those not computed yet); the cells left, with why."""
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    failed: dict[tuple[str, int, int], str] = {}

    def report(key: tuple[str, int, int], error: NotComputed) -> None:
        """Why a cell is left: its own formula's reason (found when run), or the cell it
        depends on."""
        own = f"{key[0]}!{col_letters(key[2])}{key[1]} ("
        text = str(error)
        if text.startswith(own) and text.endswith(")"):
            failed[key] = text[len(own) : -1]
        else:
            failed[key] = f"depends on {text}, which is not computed"

    def circular(key: tuple[str, int, int], error: Circular) -> None:
        """A cell on a circle of references, or behind one: the circle named (with iteration
        off, as Excel reports it); the circle's cells learn it at once when asked."""
        if not error.named:
            failed[key] = "circular reference (or behind one)"
            return
        on = key in error.members
        failed[key] = ("circular reference: " if on else "depends on the circular reference ") + (
            error.named)  # fmt: skip
        for cell in error.members:
            book.mark(cell, on_circle(error.named, error.members))

    results = book.results
    on_the_way: set[tuple[str, int, int]] = set()
    try:
        for key in pending:
            try:
                if key not in results:
                    book.compute(key)
            except NotComputed as error:
                report(key, error)
            except Circular as error:
                circular(key, error)
            except RecursionError:
                try:  # the chain as it runs (INDIRECT, OFFSET too), from its deepest cell up
                    _deepest_first(book, key)
                    continue
                except NotComputed as error:
                    report(key, error)
                    continue
                except Circular as error:
                    circular(key, error)
                    continue
                except _ChainTooDeepError as error:
                    on_the_way = error.cells
                except RecursionError:
                    on_the_way = set()
                try:  # the written references' order, with a stack of its own
                    _bottom_up(book, key, sources, compiler)
                    book.value(*key)
                except NotComputed as error:
                    report(key, error)
                    continue
                except Circular as error:
                    circular(key, error)
                except RecursionError:
                    failed[key] = "dependency chain too deep"
                    for cell in on_the_way:  # each would take as long to fail again
                        if cell not in results and cell in book.compiled:
                            where = f"{cell[0]}!{col_letters(cell[2])}{cell[1]}"
                            book.mark(cell, not_computed(f"{where} (dependency chain too deep)"))
            except Exception as error:  # a fault of ours: this cell, not the batch
                failed[key] = f"not computed, an internal error ({type(error).__name__}: {error})"
    finally:
        sys.setrecursionlimit(old_limit)
    for key in pending:  # the cells on or behind a circle found by the bottom-up order
        if key in book.on_circle and key not in failed:
            failed[key] = "circular reference (or behind one)"
    return failed


class _ChainTooDeepError(RecursionError):
    """A chain that :func:`_deepest_first` could not follow to its end, and its cells."""

    def __init__(self, cells: set[tuple[str, int, int]]) -> None:
        super().__init__("dependency chain too deep")
        self.cells = cells


def _deepest_first(book: Book, start: tuple[str, int, int]) -> None:
    """Compute ``start`` whose chain of references is deeper than Python's recursion: the
    deepest cell the last try reached is computed first, from the top of the stack, and so on
    down; then each again from the bottom up, each finding the one below it computed. Follows
    the chain as the formulas run it, references made by INDIRECT or OFFSET too; a try that
    gets no deeper (a formula deep in itself) is left to the caller (RecursionError)."""
    stack = [start]
    seen: set[tuple[str, int, int]] = {start}  # the cells on the tries' paths
    while stack:
        key = stack[-1]
        book.deepest = None
        try:
            if key not in book.results:
                book.compute(key)
        except RecursionError:
            deeper, path = book.deepest, book.deep_path - {key}
            if deeper is None or deeper == key or not path.isdisjoint(seen):
                # no deeper, or round again: a circle (or two ways to one cell)
                raise _ChainTooDeepError(seen | path) from None
            seen |= path
            stack.append(deeper)
            continue
        except (NotComputed, Circular):
            if key == start:
                raise  # the cells on the way learn it when computed again
        stack.pop()


def iterate(
    book: Book,
    pending: list[tuple[str, int, int]],
    sources: Origins,
    compiler: Compiler,
    failed: dict[tuple[str, int, int], str],
    count: int,
    delta: float,
) -> dict[tuple[str, int, int], str]:
    """Excel's iterative calculation of circular references, the first pass done: the cells on
    a circle and every cell after them computed again, a cell met again on its circle taking
    its value of the pass before, up to ``count`` passes in all, or until no value moves by
    ``delta`` or more. The last values are kept whether or not they settled, as Excel keeps
    them (where a circle stops short, Excel's own order of computing decides the digits)."""
    again = readers_of(book, pending, sources, compiler, book.cyclic, dynamic=True)
    order = [k for k in pending if k in again]
    kept = {k: why for k, why in failed.items() if k not in again}
    for _ in range(count - 1):
        book.previous = {k: book.results.get(k) for k in order}
        for k in order:
            book.results.pop(k, None)
        book.blocks.clear()
        book.arrays.clear()
        failed = {**kept, **compute_all(book, order, sources, compiler)}
        # the change, where the circles are entered (the cells after them follow in Excel's
        # pass the same change, here one pass late)
        moved = (_moved(book.previous.get(k), book.results.get(k)) for k in book.cyclic)
        if max(moved, default=0.0) < delta:
            break
    # the cells where the circles were entered keep their last values; every other cell is
    # computed once more from them, as Excel's pass in order leaves it (A2 = A1 shows A1)
    rest = [k for k in order if k not in book.cyclic]
    for k in rest:
        book.results.pop(k, None)
    book.blocks.clear()
    book.arrays.clear()
    return {**kept, **compute_all(book, order, sources, compiler)}


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
        for sheet, r1, c1, r2, c2 in self.areas(key):
            for r in range(r1, r2 + 1):
                for c in range(c1, c2 + 1):
                    yield (sheet, r, c)

    def areas(self, key: tuple[str, int, int]) -> Iterator[tuple[str, int, int, int, int]]:
        """The same cells as rectangles (sheet as the book names it, first row and column,
        last row and column), each cut to its sheet's used range; empty ones left out."""
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
            r2, c2 = min(area.r2, rows), min(area.c2, cols)
            if area.r1 <= r2 and area.c1 <= c2:
                yield (self.book._sheet(area.sheet), area.r1, area.c1, r2, c2)


K = TypeVar("K", bound=Hashable)


class _Stabbing(Generic[K]):
    """Intervals of numbers, each with a key; :meth:`take` gives the keys of the intervals
    holding a number and removes them (a tree of the largest end over the intervals sorted by
    start: each interval is found once, in time logarithmic in their number)."""

    __slots__ = ("keys", "size", "starts", "tree")

    def __init__(self, items: list[tuple[int, int, K]]) -> None:
        items.sort(key=lambda item: item[0])
        self.starts = [item[0] for item in items]
        self.keys = [item[2] for item in items]
        size = 1
        while size < len(items):
            size *= 2
        tree = [-1] * (2 * size)
        for i, item in enumerate(items):
            tree[size + i] = item[1]
        for i in range(size - 1, 0, -1):
            tree[i] = max(tree[2 * i], tree[2 * i + 1])
        self.size, self.tree = size, tree

    def take(self, x: int) -> list[K]:
        tree, size = self.tree, self.size
        n = bisect_right(self.starts, x)  # the intervals that start at x or before
        if n == 0 or tree[1] < x:
            return []
        out = []
        stack = [(1, 0, size)]  # a node and the half-open run of intervals below it
        while stack:
            node, lo, hi = stack.pop()
            if lo >= n or tree[node] < x:
                continue
            if node >= size:  # an interval holding x: given, then removed
                out.append(self.keys[node - size])
                tree[node] = -1
                node >>= 1
                while node and tree[node] != (top := max(tree[2 * node], tree[2 * node + 1])):
                    tree[node] = top
                    node >>= 1
                continue
            mid = (lo + hi) // 2
            stack.append((2 * node + 1, mid, hi))
            stack.append((2 * node, lo, mid))
        return out


class AreaIndex(Generic[K]):
    """Rectangles of cells, each with a key (the formula that reads it); :meth:`take` gives
    the keys of the rectangles holding a cell that were not given before (a key may come
    again from another column or row of its rectangle). A rectangle is kept once per column
    when it is taller than wide, else once per row, so a column of a million rows costs one
    entry, not a million."""

    def __init__(self) -> None:
        self._cells: dict[tuple[str, int, int], list[K]] = {}
        self._columns: dict[tuple[str, int], list[tuple[int, int, K]]] = {}
        self._rows: dict[tuple[str, int], list[tuple[int, int, K]]] = {}
        self._built: dict[tuple[bool, str, int], _Stabbing[K]] = {}

    def add(self, sheet: str, r1: int, c1: int, r2: int, c2: int, key: K) -> None:
        if r1 == r2 and c1 == c2:
            self._cells.setdefault((sheet, r1, c1), []).append(key)
        elif r2 - r1 >= c2 - c1:
            for c in range(c1, c2 + 1):
                self._columns.setdefault((sheet, c), []).append((r1, r2, key))
        else:
            for r in range(r1, r2 + 1):
                self._rows.setdefault((sheet, r), []).append((c1, c2, key))

    def take(self, sheet: str, row: int, col: int) -> list[K]:
        out = self._cells.pop((sheet, row, col), [])
        for by_column, line, at in ((True, col, row), (False, row, col)):
            built = self._built.get((by_column, sheet, line))
            if built is None:
                items = (self._columns if by_column else self._rows).pop((sheet, line), None)
                if items is None:
                    continue
                built = self._built[(by_column, sheet, line)] = _Stabbing(items)
            out += built.take(at)
        return out


_VOLATILE = re.compile(r"\b(?:_xlfn\.)?(?:RAND|RANDBETWEEN|RANDARRAY|NOW|TODAY)\s*\(", re.I)


def volatile_cells(
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
    seeds = _calling(pending, sources, _VOLATILE)
    return readers_of(book, pending, sources, compiler, seeds) if seeds else set()


_DYNAMIC = re.compile(r"\b(?:INDIRECT|OFFSET)\s*\(", re.I)


def _calling(
    pending: list[tuple[str, int, int]], sources: Origins, pattern: re.Pattern[str]
) -> list[tuple[str, int, int]]:
    """The pending cells whose formula's text has ``pattern`` (read once per formula)."""
    calls: dict[str, bool] = {}
    out = []
    for key in pending:
        origin = sources.get(key)
        text = "" if origin is None else origin[0]
        found = calls.get(text)
        if found is None:
            found = calls[text] = pattern.search(text) is not None
        if found:
            out.append(key)
    return out


def readers_of(
    book: Book,
    pending: list[tuple[str, int, int]],
    sources: Origins,
    compiler: Compiler,
    seeds: Iterable[tuple[str, int, int]],
    *,
    dynamic: bool = False,
) -> set[tuple[str, int, int]]:
    """The ``seeds`` and every pending cell that reads one of them, however indirectly,
    through the references written in the formulas and their names; with ``dynamic``, the
    formulas calling INDIRECT or OFFSET too (whose references are found only as they run)."""
    out = set(seeds)
    if dynamic:
        out.update(_calling(pending, sources, _DYNAMIC))
    readers: AreaIndex[tuple[str, int, int]] = AreaIndex()
    read = _Reads(book, sources, compiler)
    for key in pending:
        for area in read.areas(key):
            readers.add(*area, key)
    todo = list(out)
    while todo:
        sheet, row, col = todo.pop()
        for reader in readers.take(book._sheet(sheet), row, col):
            if reader not in out:
                out.add(reader)
                todo.append(reader)
    return out


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
        if key in circular:  # no value: whoever reads it learns it is on a circle
            book.on_circle.add(key)
            book.mark(key, on_circle())
        elif key != start and key not in book.results:
            with contextlib.suppress(Circular, RecursionError, NotComputed):
                book.value(*key)
