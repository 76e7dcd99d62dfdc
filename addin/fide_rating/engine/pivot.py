"""Pivot tables as GETPIVOTDATA reads them: from the cache Excel saves with each table (its
fields, its shared items, its records: ECMA-376 Part 1, 18.10) and the table's definition
(where it lies, which fields it shows on its rows, columns and pages, the items it hides, its
data fields and how each summarises), the value of a data field over the records whose fields
hold the items named, as Excel's GETPIVOTDATA gives it.

A table whose values do not come from its records alone (calculated fields or items, grouped
fields, values shown as a percentage or a running total, a cache saved without its records)
is reported, not guessed.

May import: :mod:`.package`, :mod:`fide_rating.engine.formula` (values and coercions) and the
standard library.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

from .formula import ERRORS, Area, Unsupported, Value, XlError, col_number
from .formula.coerce import number
from .package import related
from .package.cells import stored_value
from .package.markup import attributes, unescape

REF = ERRORS["#REF!"]
_PIVOT_TABLE = "/pivotTable"
_CACHE_DEFINITION = "/pivotCacheDefinition"
_CACHE_RECORDS = "/pivotCacheRecords"
_TAG = re.compile(rb'<(?:\w+:)?(\w+)\b((?:[^>"]|"[^"]*")*?)(/?)>')
_ITEM = re.compile(rb'<(?:\w+:)?([xnsbmde])\b((?:[^>"]|"[^"]*")*?)/?>')
_RECORD = re.compile(rb"<(?:\w+:)?r\b[^>]*>(.*?)</(?:\w+:)?r>|<(?:\w+:)?r\s*/>", re.S)
_SPAN = re.compile(r"\$?([A-Z]{1,3})\$?([0-9]+)(?::\$?([A-Z]{1,3})\$?([0-9]+))?")


@dataclass
class DataField:
    name: str  # its caption: "Sum of Sales"
    field: int  # the cache field it summarises
    subtotal: str  # sum, count, average ...
    shown_as: str  # normal, or a percentage, a running total ... (reported)


@dataclass
class PivotTable:
    """One pivot table: where it lies, its cache's fields and records, its filters."""

    area: Area
    names: list[str]  # the cache fields' names
    records: list[list[Value]]
    axes: set[int] = field(default_factory=set)  # fields on its rows, columns and pages
    hidden: dict[int, list[Value]] = field(default_factory=dict)  # items each field hides
    pages: dict[int, Value] = field(default_factory=dict)  # the one item a page field shows
    data: list[DataField] = field(default_factory=list)
    unsupported: str = ""  # why its values are not its records' alone

    def value(self, wanted: Value, pairs: list[tuple[Value, Value]]) -> Value:
        """GETPIVOTDATA's value: the data field ``wanted`` (caption or field name) over the
        records holding the items of ``pairs``; #REF! where the table does not show it."""
        if self.unsupported:
            raise Unsupported(f"GETPIVOTDATA of a pivot table with {self.unsupported}")
        data = next((d for d in self.data if _same(d.name, wanted)), None) or next(
            (d for d in self.data if _same(self.names[d.field], wanted)), None)  # fmt: skip
        if data is None:
            return REF
        if data.shown_as not in ("", "normal"):
            raise Unsupported(f"GETPIVOTDATA of values shown as {data.shown_as}")
        tests: list[tuple[int, Value]] = []
        for name, item in pairs:
            at = next((i for i, n in enumerate(self.names) if _same(n, name)), None)
            if at is None or at not in self.axes:
                return REF
            shown = [r[at] for r in self._visible() if _equal(r[at], item)]
            if not shown:  # no such item, or one the table hides
                return REF
            tests.append((at, item))
        chosen = [r[data.field] for r in self._visible() if all(_equal(r[i], v) for i, v in tests)]
        if not chosen:
            return REF
        return _summary(data.subtotal, chosen)

    def _visible(self) -> list[list[Value]]:
        """The records the table counts: none holding an item it hides or a page not shown."""
        if not self.hidden and not self.pages:
            return self.records
        return [r for r in self.records
                if not any(any(_equal(r[i], h) for h in items) for i, items in self.hidden.items())
                and all(_equal(r[i], v) for i, v in self.pages.items())]  # fmt: skip


def _same(name: str, wanted: Value) -> bool:
    return isinstance(wanted, str) and name.strip().lower() == wanted.strip().lower()


def _equal(v: Value, item: Value) -> bool:
    """A record's value against an item named in GETPIVOTDATA: texts regardless of case, a
    number against a number or a text that reads as one."""
    if isinstance(v, str) and isinstance(item, str):
        return v.lower() == item.lower()
    if isinstance(v, float) and not isinstance(v, bool) and not isinstance(item, bool):
        x = number(item) if isinstance(item, str | float) else None
        return isinstance(x, float) and x == v
    return v == item and type(v) is type(item)


# a sum and an average added up in the records' order, as Excel's shown values are
_SUMMARIES: dict[str, Callable[[list[float]], float]] = {
    "sum": sum,
    "average": lambda xs: sum(xs) / len(xs),
    "max": max,
    "min": min,
    "product": math.prod,
    "stdDev": statistics.stdev,
    "stdDevp": statistics.pstdev,
    "var": statistics.variance,
    "varp": statistics.pvariance,
}


def _summary(how: str, values: list[Value]) -> Value:
    """The values summarised as a data field does (Excel's names, sum when it says none)."""
    for v in values:
        if isinstance(v, XlError):
            return v
    if how == "count":
        return float(sum(v is not None for v in values))
    numbers = [float(v) for v in values if isinstance(v, float) and not isinstance(v, bool)]
    if how == "countNums":
        return float(len(numbers))
    summarise = _SUMMARIES.get(how or "sum")
    if summarise is None:
        raise Unsupported(f"GETPIVOTDATA of a data field summarised by {how}")
    if not numbers:
        return 0.0 if how in ("sum", "") else ERRORS["#DIV/0!"]
    try:
        return float(summarise(numbers))
    except statistics.StatisticsError:
        return ERRORS["#DIV/0!"]


def read_pivots(parts: dict[str, bytes], sheets: dict[str, str]) -> list[PivotTable]:
    """Every pivot table of the workbook (``sheets``: sheet name -> its part)."""
    out = []
    for sheet, part in sheets.items():
        for path in related(parts, part, _PIVOT_TABLE):
            table = _pivot_table(parts, path, sheet)
            if table is not None:
                out.append(table)
    return out


def _pivot_table(parts: dict[str, bytes], path: str, sheet: str) -> PivotTable | None:
    xml = parts.get(path, b"")
    location = re.search(rb"<(?:\w+:)?location\b([^>]*)>", xml)
    span = (
        None if location is None else _SPAN.fullmatch(attributes(location.group(1)).get("ref", ""))
    )
    if span is None:
        return None
    c1, r1 = col_number(span.group(1)), int(span.group(2))
    c2, r2 = (col_number(span.group(3)), int(span.group(4))) if span.group(3) else (c1, r1)
    area = Area(sheet, r1, c1, r2, c2)
    cache = next(iter(related(parts, path, _CACHE_DEFINITION)), "")
    names, shared, why = _cache_fields(parts.get(cache, b""))
    records_part = next(iter(related(parts, cache, _CACHE_RECORDS)), "")
    if records_part not in parts:
        why = why or "a cache saved without its records"
    table = PivotTable(area, names, _records(parts.get(records_part, b""), shared), unsupported=why)
    _definition(xml, table, shared)
    return table


def _cache_fields(xml: bytes) -> tuple[list[str], list[list[Value]], str]:
    """The cache's fields: their names, their shared items, and what makes the cache's values
    more than its records (a calculated or grouped field)."""
    names: list[str] = []
    shared: list[list[Value]] = []
    why = ""
    inside = False
    for m in _TAG.finditer(xml):
        tag, attrs, closed = m.group(1), m.group(2), m.group(3)
        if tag == b"cacheField":
            a = attributes(attrs)
            names.append(unescape(a.get("name", "").encode()))
            shared.append([])
            if "formula" in a:
                why = why or "a calculated field"
        elif tag == b"fieldGroup":
            why = why or "a grouped field"
        elif tag == b"sharedItems":
            inside = not closed
        elif inside and names and tag in (b"x", b"n", b"s", b"b", b"m", b"d", b"e"):
            shared[-1].append(_item(tag, attrs, []))
    return names, shared, why


def _item(tag: bytes, attrs: bytes, shared: list[Value]) -> Value:
    """A cached value: ``<n v="1"/>``, ``<s v="East"/>``, ``<m/>`` (missing), ``<x v="2"/>``
    (the field's shared item 2) ..."""
    v = attributes(attrs).get("v", "").encode()
    if tag == b"m":
        return None
    if tag == b"x":
        k = int(v) if v.isdigit() else -1
        return shared[k] if 0 <= k < len(shared) else REF
    kind = {b"n": b"n", b"s": b"str", b"b": b"b", b"e": b"e", b"d": b"d"}[tag]
    return stored_value(kind, v, [])


def _records(xml: bytes, shared: list[list[Value]]) -> list[list[Value]]:
    out = []
    for m in _RECORD.finditer(xml):
        line = [_item(tag, attrs, shared[i] if i < len(shared) else [])
                for i, (tag, attrs) in enumerate(_ITEM.findall(m.group(1) or b""))]  # fmt: skip
        out.append(line + [None] * (len(shared) - len(line)))
    return out


def _definition(xml: bytes, table: PivotTable, shared: list[list[Value]]) -> None:
    """The table's fields on its axes, the items they hide, its pages and its data fields."""
    fld = -1
    listed: list[list[int]] = []  # each pivot field's items: the shared items they stand for
    for m in _TAG.finditer(xml):
        tag, a = m.group(1), attributes(m.group(2))
        if tag == b"pivotField":
            fld += 1
            listed.append([])
            if a.get("axis"):
                table.axes.add(fld)
        elif tag == b"item" and fld >= 0 and a.get("x", "").isdigit():
            k = int(a["x"])
            listed[fld].append(k)
            items = shared[fld] if fld < len(shared) else []
            if a.get("h") in ("1", "true") and k < len(items):
                table.hidden.setdefault(fld, []).append(items[k])
        elif tag == b"pageField" and a.get("fld", "").isdigit():
            page = int(a["fld"])
            table.axes.add(page)
            kept = listed[page] if page < len(listed) else []
            items = shared[page] if page < len(shared) else []
            at = int(a["item"]) if a.get("item", "").isdigit() else -1  # the field's item
            if 0 <= at < len(kept) and kept[at] < len(items):
                table.pages[page] = items[kept[at]]
        elif tag == b"dataField" and a.get("fld", "").isdigit():
            caption = unescape(a.get("name", "").encode())
            how, shown = a.get("subtotal", "sum"), a.get("showDataAs", "")
            table.data.append(DataField(caption, int(a["fld"]), how, shown))
        elif tag == b"calculatedItem":
            table.unsupported = table.unsupported or "a calculated item"
    table.data = [d for d in table.data if d.field < len(table.names)]
