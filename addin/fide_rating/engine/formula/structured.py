"""Structured references to Excel tables (``Table1[Score]``, ``[@Score]``,
``Table1[[#Headers],[Name]:[Score]]``), rewritten into the A1 ranges they stand for.

A table is fixed in the file (its range, its header and totals rows, its columns' names), so a
structured reference is the same range whenever it is computed: it is rewritten before the
formula is read. Following Excel's reference ("Using structured references with Excel
tables"):

* ``Table1[]`` and ``Table1[#Data]``: the data rows; ``[#All]`` with the header and totals
  rows; ``[#Headers]``, ``[#Totals]``: those rows (``#REF!`` when the table has none);
  ``[#This Row]`` or ``@``: the formula's own row (a relative reference, so a calculated
  column's shared formula stays right in every row);
* ``[Score]``: one column; ``[[Name]:[Score]]``: the columns between; items combine with
  commas (``[[#Headers],[#Data],[Score]]``); ``'`` escapes ``[ ] # '`` in a column's name;
* ``[Score]`` without a table name: the table the formula is in.

May import: :mod:`.parser` and the standard library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .parser import col_letters

_SPECIALS = ("#all", "#data", "#headers", "#totals", "#this row")


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int
    columns: tuple[str, ...]
    header_rows: int = 1
    totals_rows: int = 0
    filtered: tuple[int, int] | None = None  # the rows its autofilter filters, if it does

    def holds(self, sheet: str, row: int, col: int) -> bool:
        return sheet == self.sheet and self.r1 <= row <= self.r2 and self.c1 <= col <= self.c2


# a table name (letters of any alphabet, as Excel in Greek names its tables "Πίνακας1", digits,
# _ . \) or nothing, then a bracketed specifier whose items may be bracketed once more; a name
# straight after [1] (an external workbook) is not one
_REFERENCE = re.compile(
    r"(?P<name>(?:[^\W\d]|\\)[\w.\\]*)?\[(?P<spec>(?:[^\[\]']|'.|\[(?:[^\[\]']|'.)*\])*)\]"
)
_ITEM = re.compile(r"\[((?:[^\[\]']|'.)*)\]|(,)|(:)|(\s+)")


def rewrite(formula: str, tables: dict[str, Table], sheet: str, row: int, col: int) -> str:
    """``formula`` with each structured reference replaced by its range (``#REF!`` where it
    names no table, column or row there is); texts in quotes are left alone."""
    if "[" not in formula:
        return formula
    out: list[str] = []
    for quoted, piece in _pieces(formula):
        if quoted or "[" not in piece:
            out.append(piece)  # a text, or a quoted sheet name (an external one: '[1]S'!A1)
        else:
            out.append(_REFERENCE.sub(lambda m: _resolve(m, tables, sheet, row, col), piece))
    return "".join(out)


def _pieces(formula: str) -> list[tuple[bool, str]]:
    """The formula cut into quoted texts and sheet names (True) and the rest; a quote inside
    brackets is a column name's escape, not a quote."""
    out: list[tuple[bool, str]] = []
    start = depth = i = 0
    while i < len(formula):
        ch = formula[i]
        if depth and ch == "'":
            i += 2  # an escaped character of a column name
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif ch in "\"'" and not depth:
            end = i + 1
            while end < len(formula):
                if formula[end] == ch and formula[end + 1 : end + 2] != ch:
                    break
                end += 2 if formula[end] == ch else 1
            out += [(False, formula[start:i]), (True, formula[i : end + 1])]
            start = i = end + 1
            continue
        i += 1
    out.append((False, formula[start:]))
    return out


def _resolve(m: re.Match[str], tables: dict[str, Table], sheet: str, row: int, col: int) -> str:
    name, spec = m.group("name"), m.group("spec")
    start = m.start()
    if start > 0 and m.string[start - 1] in "]!":
        return m.group(0)  # [1]Sheet!A1, Book2.xlsx!Table1[Col]: another workbook's
    if name is None and spec.isdigit():
        return m.group(0)  # an external workbook's number
    if name is None:
        table = next((t for t in tables.values() if t.holds(sheet, row, col)), None)
    else:
        table = tables.get(name.upper())
        if table is None:
            return m.group(0)  # not a table: left for the parser (a defined name, an error)
    if table is None:
        return "#REF!"
    found = _area(table, spec, row)
    if isinstance(found, str):
        return found
    r1, c1, r2, c2, this_row = found
    where = "'" + table.sheet.replace("'", "''") + "'!"
    first = f"${col_letters(c1)}{'' if this_row else '$'}{r1}"
    last = f"${col_letters(c2)}{'' if this_row else '$'}{r2}"
    return where + first + ("" if first == last else ":" + last)


def _unescape(text: str) -> str:
    return re.sub(r"'(.)", r"\1", text).strip()


def _area(table: Table, spec: str, row: int) -> tuple[int, int, int, int, bool] | str:
    """The rows and columns a specifier gives, and whether it is the formula's own row; or
    the error it gives: #REF! for what the table does not have, #VALUE! for this row outside
    the table's data."""
    specials: list[str] = []
    columns: list[tuple[str, str]] = []
    if spec.startswith("@"):
        specials.append("#this row")
        spec = spec[1:].strip()
        if spec and not spec.startswith("["):
            spec = f"[{spec}]"
    if spec and not spec.startswith("["):
        spec = f"[{spec}]"
    items = [m for m in _ITEM.finditer(spec) if not m.group(4)]
    if "".join(m.group(0) for m in _ITEM.finditer(spec)) != spec:
        return "#REF!"
    i = 0
    while i < len(items):
        item = items[i]
        if item.group(1) is None:  # a comma
            i += 1
            continue
        text = _unescape(item.group(1))
        if text.lower() in _SPECIALS:
            specials.append(text.lower())
            i += 1
        elif i + 2 < len(items) and items[i + 1].group(3) and items[i + 2].group(1) is not None:
            columns.append((text, _unescape(items[i + 2].group(1))))
            i += 3
        else:
            columns.append((text, text))
            i += 1
    rows = _rows(table, specials, row)
    if isinstance(rows, str):
        return rows
    if not columns:
        c1, c2 = table.c1, table.c2
    else:
        picked: list[int] = []
        for first, last in columns:
            for name in (first, last):
                at = _column(table, name)
                if at is None:
                    return "#REF!"
                picked.append(at)
        c1, c2 = table.c1 + min(picked), table.c1 + max(picked)
    return rows[0], c1, rows[1], c2, "#this row" in specials


def _column(table: Table, name: str) -> int | None:
    """The place of a column named ``name`` (any case; a name ending in a space, "Score ",
    is found as Excel writes it, "[Score ]", or without the space)."""
    low = name.lower()
    for i, column in enumerate(table.columns):
        if column.lower() == low:
            return i
    for i, column in enumerate(table.columns):
        if column.strip().lower() == low.strip():
            return i
    return None


def _rows(table: Table, specials: list[str], row: int) -> tuple[int, int] | str:
    header = (table.r1, table.r1 + table.header_rows - 1) if table.header_rows else None
    data = (table.r1 + table.header_rows, table.r2 - table.totals_rows)
    totals = (table.r2 - table.totals_rows + 1, table.r2) if table.totals_rows else None
    if "#this row" in specials:
        if len(specials) > 1:
            return "#REF!"
        return (row, row) if data[0] <= row <= data[1] else "#VALUE!"
    if not specials:
        specials = ["#data"]
    if "#all" in specials:
        return table.r1, table.r2
    chosen = {"#headers": header, "#data": data, "#totals": totals}
    spans = [chosen[s] for s in specials]
    if any(s is None for s in spans):
        return "#REF!"
    first = min(s[0] for s in spans if s is not None)
    last = max(s[1] for s in spans if s is not None)
    return first, last
