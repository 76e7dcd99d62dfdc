"""The workbook part and what hangs on it: where each sheet's part is, the sheets' order,
defined names (workbook and sheet scope), tables, other workbooks' cells kept by Excel, the
date system, and the calculation settings (read, and settled once every value is computed).

May import: :mod:`fide_rating.engine.formula` (values, tables), :mod:`.markup`, :mod:`.cells`
and the standard library.
"""

from __future__ import annotations

import posixpath
import re

from ..formula import Value, col_number
from ..formula.structured import Table
from .cells import filter_rows, stored_value
from .markup import V, attributes, unescape, xstring

_SHEET_TAG = re.compile(rb"<(?:\w+:)?sheet\b([^>]*)/?>")
_REL_TAG = re.compile(rb"<(?:\w+:)?Relationship\b([^>]*)/?>")


def sheet_parts(parts: dict[str, bytes]) -> dict[str, str]:
    """Sheet name -> the worksheet part that holds it."""
    book_part = "xl/workbook.xml"
    rels_part = posixpath.join(posixpath.dirname(book_part), "_rels", "workbook.xml.rels")
    targets: dict[str, str] = {}
    for raw in _REL_TAG.findall(parts.get(rels_part, b"")):
        a = attributes(raw)
        target = a.get("Target", "")
        path = (
            target.lstrip("/")
            if target.startswith("/")
            else posixpath.normpath(posixpath.join(posixpath.dirname(book_part), target))
        )
        targets[a.get("Id", "")] = path
    out: dict[str, str] = {}
    for raw in _SHEET_TAG.findall(parts.get(book_part, b"")):
        a = attributes(raw)
        rid = next((v for k, v in a.items() if k.endswith(":id") or k == "r:id"), "")
        name = unescape(a.get("name", "").encode())
        if rid in targets and targets[rid] in parts:
            out[name] = targets[rid]
    return out


BOOK = "xl/workbook.xml"
#: The calculation engine of Excel 2019, 2021 and Microsoft 365 (ECMA-376 18.2.2 calcPr calcId).
#: Excel recomputes every formula on opening a workbook last calculated by an older engine (a
#: smaller calcId, or none), as it does with ``fullCalcOnLoad``.
CALC_ID = b"191029"
_CALC_PR = re.compile(rb"<(?P<p>(?:\w+:)?)calcPr\b(?P<attrs>[^>]*?)\s*/?>(?:</(?:\w+:)?calcPr>)?")
_FULL_CALC = re.compile(rb'\s+fullCalcOnLoad="[^"]*"')
_CALC_ID = re.compile(rb'(\s+calcId=")[^"]*(")')
# calcPr's place among the workbook's children (ECMA-376 18.2.27): after these, the last present
_BEFORE_CALC = re.compile(
    rb"</(?:\w+:)?(?:definedNames|externalReferences|functionGroups|sheets)>"
    rb"|<(?:\w+:)?(?:definedNames|externalReferences|functionGroups)\s*/>"
)


def settle_calculation(book: bytes) -> bytes:
    """The workbook part once every formula holds its computed value: no forced recalculation
    on opening (``fullCalcOnLoad`` gone, ``calcId`` of current Excel), so that Excel shows
    the values written instead of recomputing them (and, without the add-in, showing #NAME?
    in every FIDE cell)."""
    found = _CALC_PR.search(book)
    if found is None:
        places = list(_BEFORE_CALC.finditer(book))
        if not places:
            return book
        p = re.search(rb"<((?:\w+:)?)workbook\b", book)
        prefix = p.group(1) if p else b""
        at = places[-1].end()
        return book[:at] + b"<" + prefix + b'calcPr calcId="' + CALC_ID + b'"/>' + book[at:]
    attrs = _FULL_CALC.sub(b"", found.group("attrs"))
    if _CALC_ID.search(attrs):
        attrs = _CALC_ID.sub(lambda m: m.group(1) + CALC_ID + m.group(2), attrs)
    else:
        attrs += b' calcId="' + CALC_ID + b'"'
    return (
        book[: found.start()]
        + b"<"
        + found.group("p")
        + b"calcPr"
        + attrs
        + b"/>"
        + book[found.end() :]
    )


_NAME_EL = re.compile(
    rb"<(?:\w+:)?definedName\b(?P<attrs>[^>]*)>(?P<text>.*?)</(?:\w+:)?definedName>", re.S
)


DATE1904 = re.compile(rb"<(?:\w+:)?workbookPr\b[^>]*\bdate1904=\"(?:1|true)\"")


def defined_names(parts: dict[str, bytes]) -> dict[str, str]:
    """Workbook-level defined names (a sheet-level name only where no workbook one exists)."""
    found: dict[str, str] = {}
    local: dict[str, str] = {}
    for m in _NAME_EL.finditer(parts.get("xl/workbook.xml", b"")):
        a = attributes(m.group("attrs"))
        name = a.get("name", "")
        if not name or name.startswith("_xlnm."):
            continue
        (local if "localSheetId" in a else found)[name] = unescape(m.group("text"))
    return {**local, **found}


def sheet_order(parts: dict[str, bytes]) -> list[str]:
    """The names of the workbook's sheets (chart sheets too), in the workbook's order: the
    order a 3-D reference (``First:Last!A1``) runs through and ``localSheetId`` counts in."""
    book = parts.get("xl/workbook.xml", b"")
    return [unescape(attributes(raw).get("name", "").encode()) for raw in _SHEET_TAG.findall(book)]


def scoped_names(parts: dict[str, bytes]) -> dict[str, dict[str, str]]:
    """The names defined for one sheet only: upper-case name -> {sheet: definition}. Within
    its sheet such a name wins over a workbook-level one of the same name."""
    order = sheet_order(parts)
    out: dict[str, dict[str, str]] = {}
    for m in _NAME_EL.finditer(parts.get("xl/workbook.xml", b"")):
        a = attributes(m.group("attrs"))
        name, local = a.get("name", ""), a.get("localSheetId")
        if not name or name.startswith("_xlnm.") or local is None or not local.isdigit():
            continue
        if int(local) < len(order):
            out.setdefault(name.upper(), {})[order[int(local)]] = unescape(m.group("text"))
    return out


_CELL_REF = re.compile(r"([A-Z]+)([0-9]+)")
_EXTERNAL_REF = re.compile(rb"<(?:\w+:)?externalReference\b([^>]*)/?>")
_EXT_SHEET_NAME = re.compile(rb"<(?:\w+:)?sheetName\b([^>]*)/?>")
_EXT_SHEET_DATA = re.compile(
    rb"<(?:\w+:)?sheetData\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?:\w+:)?sheetData>)", re.S
)


_EXT_CELL = re.compile(
    rb"<(?:\w+:)?cell\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?:\w+:)?cell>)", re.S
)


def external_sheets(parts: dict[str, bytes]) -> dict[str, dict[tuple[int, int], Value]]:
    """The values Excel keeps of other workbooks' cells a formula refers to
    (``xl/externalLinks/externalLinkN.xml``), as sheets named as the formulas name them:
    ``[1]Sheet1`` for the first external workbook's sheet Sheet1."""
    rels: dict[str, str] = {}
    for raw in _REL_TAG.findall(parts.get("xl/_rels/workbook.xml.rels", b"")):
        a = attributes(raw)
        target = a.get("Target", "")
        rels[a.get("Id", "")] = (
            target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
        )
    out: dict[str, dict[tuple[int, int], Value]] = {}
    for number, raw in enumerate(_EXTERNAL_REF.findall(parts.get("xl/workbook.xml", b"")), 1):
        a = attributes(raw)
        rid = next((v for k, v in a.items() if k.endswith(":id") or k == "r:id"), "")
        xml = parts.get(rels.get(rid, ""), b"")
        names = [
            unescape(attributes(n).get("val", "").encode()) for n in _EXT_SHEET_NAME.findall(xml)
        ]
        for data in _EXT_SHEET_DATA.finditer(xml):
            index = attributes(data.group("attrs")).get("sheetId", "")
            if not index.isdigit() or int(index) >= len(names):
                continue
            cells: dict[tuple[int, int], Value] = {}
            for cell in _EXT_CELL.finditer(data.group("body") or b""):
                ca = attributes(cell.group("attrs"))
                where = _CELL_REF.fullmatch(ca.get("r", ""))
                v = V.search(cell.group("body") or b"")
                if where is None or v is None or v.group("text") is None:
                    continue
                kind = ca.get("t", "n")
                text = v.group("text")
                value: Value = (
                    unescape(text)
                    if kind in ("s", "str", "inlineStr")
                    else stored_value(kind.encode(), text, [])
                )
                cells[(int(where.group(2)), col_number(where.group(1)))] = value
            out[f"[{number}]{names[int(index)]}"] = cells
    return out


_TABLE_TAG = re.compile(rb"<(?:\w+:)?table\b([^>]*)>")
_TABLE_COLUMN = re.compile(rb"<(?:\w+:)?tableColumn\b([^>]*?)/?>")
_TABLE_TYPE = "/relationships/table"


def tables(parts: dict[str, bytes]) -> dict[str, Table]:
    """The workbook's tables by upper-case name (the name formulas use): where each lies, its
    header and totals rows and its columns' names, from the table parts of each sheet."""
    found: dict[str, Table] = {}
    for sheet, part in sheet_parts(parts).items():
        folder, name = posixpath.split(part)
        rels = parts.get(posixpath.join(folder, "_rels", name + ".rels"), b"")
        for raw in _REL_TAG.findall(rels):
            a = attributes(raw)
            if not a.get("Type", "").endswith(_TABLE_TYPE):
                continue
            target = a.get("Target", "")
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
                posixpath.join(folder, target))  # fmt: skip
            table = _table(parts.get(path, b""), sheet)
            if table is not None:
                found[table.name.upper()] = table
    return found


def _table(xml: bytes, sheet: str) -> Table | None:
    head = _TABLE_TAG.search(xml)
    if head is None:
        return None
    a = attributes(head.group(1))
    span = re.fullmatch(r"\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)", a.get("ref", ""))
    if span is None:
        return None
    columns = tuple(xstring(attributes(raw).get("name", "").encode())
                    for raw in _TABLE_COLUMN.findall(xml))  # fmt: skip
    try:
        header_rows, totals_rows = int(a.get("headerRowCount", "1")), int(
            a.get("totalsRowCount", "0"))  # fmt: skip
    except ValueError:
        return None
    c1, c2 = col_number(span.group(1)), col_number(span.group(3))
    if len(columns) != c2 - c1 + 1:
        return None
    return Table(a.get("displayName") or a.get("name", ""), sheet, int(span.group(2)), c1,
                 int(span.group(4)), c2, columns, header_rows, totals_rows,
                 filter_rows(xml))  # fmt: skip


def iteration(book: bytes) -> tuple[int, float] | None:
    """The workbook's iterative calculation (``<calcPr iterate="1" iterateCount="100"
    iterateDelta="0.001"/>``, Excel's defaults): the most iterations and the change at which
    they stop; None when it is off."""
    found = _CALC_PR.search(book)
    if found is None:
        return None
    attrs = dict(re.findall(rb'(\w+)="([^"]*)"', found.group("attrs")))
    if attrs.get(b"iterate") not in (b"1", b"true"):
        return None
    try:
        return int(attrs.get(b"iterateCount", b"100")), float(attrs.get(b"iterateDelta", b"0.001"))
    except ValueError:
        return 100, 0.001
