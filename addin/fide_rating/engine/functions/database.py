"""Database functions (Excel's category): DSUM, DAVERAGE, DCOUNT, DCOUNTA, DMAX, DMIN,
DPRODUCT, DGET, DSTDEV(P), DVAR(P).

A database is a range whose first row names its fields; ``field`` is a field's name (any
case) or its number; ``criteria`` is a range whose first row names fields and each row below
is one set of conditions, all of which must hold (a blank cell: none), any row being enough.
The conditions are :mod:`.criteria`'s, with Excel's one difference for databases: a text
without an operator matches the texts that begin with it ("Dav" finds "Davolio"; ``="=Dav"``
only "Dav"). Under a criteria heading blank or naming no field, a formula is a computed
criterion, evaluated for each record (Excel's "criteria created as the result of a
formula").

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.criteria`, :mod:`.statistical` (the aggregates) and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..formula.coerce import read_number, text_of
from ..formula.values import (
    NUM,
    VALUE,
    Area,
    Book,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
    scalar,
)
from .base import FUNCTIONS, Impl, define
from .criteria import Test, criterion

_OPERATOR = re.compile(r"^(<=|>=|<>|<|>|=)")


def _condition(v: Value) -> Test:
    plain_text = isinstance(v, str) and v and not _OPERATOR.match(v) and read_number(v) is None
    if plain_text and str(v).upper() not in ("TRUE", "FALSE"):
        return criterion(f"{v}{'' if str(v).endswith('*') else '*'}")  # begins with
    return criterion(v)


def _label(v: Value) -> str | None:
    shown = text_of(v)
    return None if isinstance(shown, XlError) or v is None else shown.strip().lower()


def _field(header: list[Value], field: Value) -> int | XlError:
    """The column ``field`` names: a number is its place (TRUE 1, FALSE 0: Excel's saved
    values), anything else a heading (any case)."""
    if isinstance(field, bool):
        field = float(field)
    if isinstance(field, float):
        k = int(field)
        return k - 1 if 1 <= k <= len(header) else VALUE
    return _labelled(header, field)


def _labelled(header: list[Value], name: Value) -> int | XlError:
    """The first column whose heading reads as ``name`` does."""
    wanted = _label(name)
    if wanted is None:
        return VALUE
    return next((i for i, v in enumerate(header) if _label(v) == wanted), VALUE)


Record = Callable[[int, list[Value]], bool]  # (the record's place, its values): it is met


def _records(book: Book, database: Result, criteria: Result) -> list[list[Value]] | XlError:
    """The database's rows (below its headings) that meet the criteria; a database of
    headings alone, or criteria of headings alone, is #VALUE!. Under a heading that names a
    field, each cell is a condition on that field (a formula's value too); under a heading
    blank or naming no field, each cell is a computed criterion: its formula, evaluated for
    each record as if the record stood in the database's first row (its relative references
    moved down with it), must give TRUE; a value typed there, the same (TRUE all records,
    anything else none); a blank cell, no condition."""
    rows = as_grid(book, database)
    if len(rows) < 2:
        return VALUE
    header, data = rows[0], rows[1:]
    table = as_grid(book, criteria)
    if len(table) < 2:
        return VALUE
    columns: list[int | None] = []
    for name in table[0]:
        at = None if name is None else _labelled(header, name)
        columns.append(None if isinstance(at, XlError) else at)
    sets: list[list[Record]] = []
    for i, line in enumerate(table[1:], 1):
        tests: list[Record] = []
        for j, (col, v) in enumerate(zip(columns, line, strict=False)):
            if col is not None:
                if v is not None:
                    tests.append(_on_field(col, _condition(v)))
            elif isinstance(criteria, Area) and book.computed(criteria.sheet, criteria.r1 + i,
                                                              criteria.c1 + j):  # fmt: skip
                tests.append(_computed(book, criteria.sheet, criteria.r1 + i, criteria.c1 + j))
            elif v is not None:
                tests.append(_typed(v is True))
        sets.append(tests)
    return [record for k, record in enumerate(data)
            if any(all(test(k, record) for test in tests) for tests in sets)]  # fmt: skip


def _typed(met: bool) -> Record:
    """A value typed under a heading naming no field: TRUE meets every record."""
    return lambda k, record: met


def _on_field(col: int, test: Test) -> Record:
    return lambda k, record: test(record[col])


def _computed(book: Book, sheet: str, row: int, col: int) -> Record:
    """A computed criterion: the formula of cell (row, col) evaluated for the record ``k``
    rows below the database's first one as if written ``k`` rows lower, TRUE meeting it."""
    find = getattr(book, "closure", None)
    closure = None if find is None else find(sheet, row, col)
    if closure is None:
        raise Unsupported("a database criterion computed by a formula outside a workbook")

    def met(k: int, record: list[Value]) -> bool:
        return scalar(book, closure(book, sheet, row + k, col), row + k, col) is True

    return met


def _selected(book: Book, args: list[Result]) -> list[Value] | XlError:
    """The field's values in the records of the database that meet the criteria (the three
    arguments every D-function takes)."""
    database, field, criteria = args
    at = _field(as_grid(book, database)[0], field)  # type: ignore[arg-type]
    if isinstance(at, XlError):
        return at
    found = _records(book, database, criteria)
    if isinstance(found, XlError):
        return found
    return [record[at] for record in found]


def _database(aggregate: str) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        found = _selected(book, args)
        if isinstance(found, XlError):
            return found
        column = [[value] for value in found]
        spec = FUNCTIONS[aggregate].impl
        assert spec is not None
        return spec(book, sh, r, c, [column])

    return impl


for _name, _aggregate in (("DSUM", "SUM"), ("DAVERAGE", "AVERAGE"), ("DCOUNT", "COUNT"),
                          ("DCOUNTA", "COUNTA"), ("DMAX", "MAX"), ("DMIN", "MIN"),
                          ("DPRODUCT", "PRODUCT"), ("DSTDEV", "STDEV"), ("DSTDEVP", "STDEVP"),
                          ("DVAR", "VAR"), ("DVARP", "VARP")):  # fmt: skip
    define(_name, "r v r")(_database(_aggregate))


@define("DGET", "r v r")
def _dget(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The one value of the field in the records that meet the criteria: none is #VALUE!,
    more than one #NUM!."""
    found = _selected(book, args)
    if isinstance(found, XlError):
        return found
    if not found:
        return VALUE
    if len(found) > 1:
        return NUM
    return found[0]
