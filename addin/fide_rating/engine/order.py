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
from collections.abc import Iterator
from typing import Any

from .book import CIRCULAR, Book, Circular, NotComputed, Origins
from .formula import Compiler, Unsupported, Value, col_letters
from .formula.compiler import cells_of, references


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


def iterate(
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
        return compute_all(book, pending, sources, compiler)

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
