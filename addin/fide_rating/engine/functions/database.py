"""Database functions (Excel's category): DSUM, DAVERAGE, DCOUNT, DCOUNTA, DMAX, DMIN,
DPRODUCT, DGET, DSTDEV(P), DVAR(P).

A database is a range whose first row names its fields; ``field`` is a field's name (any
case) or its number; ``criteria`` is a range whose first row names fields and each row below
is one set of conditions, all of which must hold (a blank cell: none), any row being enough.
The conditions are :mod:`.criteria`'s, with Excel's one difference for databases: a text
without an operator matches the texts that begin with it ("Dav" finds "Davolio"; ``="=Dav"``
only "Dav"). A criteria heading that names no field (a computed criterion) is reported.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.criteria`, :mod:`.statistical` (the aggregates) and the standard library.
"""

from __future__ import annotations

import re

from ..formula.coerce import read_number, text_of
from ..formula.values import NUM, VALUE, Area, Book, Result, Unsupported, Value, XlError, as_grid
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
    """The column ``field`` names: a number is its place, anything else a heading (any case;
    TRUE the heading TRUE)."""
    if isinstance(field, float) and not isinstance(field, bool):
        k = int(field)
        return k - 1 if 1 <= k <= len(header) else VALUE
    return _labelled(header, field)


def _labelled(header: list[Value], name: Value) -> int | XlError:
    """The first column whose heading reads as ``name`` does."""
    wanted = _label(name)
    if wanted is None:
        return VALUE
    return next((i for i, v in enumerate(header) if _label(v) == wanted), VALUE)


def _records(book: Book, database: Result, criteria: Result) -> list[list[Value]] | XlError:
    """The database's rows (below its headings) that meet the criteria: a database of
    headings alone is #VALUE!; a criterion computed by a formula, or under a heading that
    names no field, is reported (Excel's rules for those are its own)."""
    rows = as_grid(book, database)
    if len(rows) < 2:
        return VALUE
    header, data = rows[0], rows[1:]
    if isinstance(criteria, Area):
        for r in range(criteria.r1, criteria.r2 + 1):
            for c in range(criteria.c1, criteria.c2 + 1):
                if book.computed(criteria.sheet, r, c):
                    raise Unsupported("a database criterion computed by a formula")
    table = as_grid(book, criteria)
    if len(table) < 2:
        return VALUE
    names = table[0]
    columns: list[int | None] = []
    for name in names:
        if name is None:
            columns.append(None)
            continue
        at = _labelled(header, name)
        if isinstance(at, XlError):
            raise Unsupported(f"a database criterion under {name!r}, which names no field")
        columns.append(at)
    sets: list[list[tuple[int, Test]]] = []
    for line in table[1:]:
        tests = [(col, _condition(v)) for col, v in zip(columns, line, strict=False)
                 if col is not None and v is not None]  # fmt: skip
        sets.append(tests)
    return [record for record in data
            if any(all(test(record[col]) for col, test in tests) for tests in sets)]  # fmt: skip


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
