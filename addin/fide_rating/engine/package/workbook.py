"""The workbook part and what hangs on it: where each sheet's part is, the sheets' order,
defined names (workbook and sheet scope), tables, other workbooks' cells kept by Excel, the
date system, and the calculation settings (read, and settled once every value is computed).

May import: :mod:`fide_rating.engine.formula` (values, tables), :mod:`.markup`, :mod:`.cells`
and the standard library.
"""

from __future__ import annotations

import math
import posixpath
import re

from ..formula import Value, col_number
from ..formula.structured import Table
from .archive import WorkbookError
from .cells import filter_rows, stored_value
from .markup import V, attributes, unescape, xstring

# an element's attributes, a quoted value may hold a ">" (a sheet named "a>b")
_ATTRS = rb'(?:[^>"]|"[^"]*")*'
_SHEET_TAG = re.compile(rb"<(?:\w+:)?sheet\b(" + _ATTRS + rb")/?>")
_REL_TAG = re.compile(rb"<(?:\w+:)?Relationship\b(" + _ATTRS + rb")/?>")


def sheet_parts(parts: dict[str, bytes]) -> dict[str, str]:
    """Sheet name -> the worksheet part that holds it. Two sheets of one name (Excel's names
    differ regardless of case) or two sheets in one part are refused: a formula naming the
    sheet, or a value written into it, would be one of them at random."""
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
    names: dict[str, str] = {}  # upper-case name -> name
    held: dict[str, str] = {}  # part -> the sheet in it
    for raw in _SHEET_TAG.findall(parts.get(book_part, b"")):
        a = attributes(raw)
        rid = next((v for k, v in a.items() if k.endswith(":id") or k == "r:id"), "")
        name = unescape(a.get("name", "").encode())
        if name.upper() in names:
            raise WorkbookError(
                f"corrupt workbook: two sheets named {names[name.upper()]!r} and {name!r} "
                "(Excel's sheet names differ regardless of case)"
            )
        names[name.upper()] = name
        if rid in targets and targets[rid] in parts:
            part = targets[rid]
            if part in held:
                raise WorkbookError(
                    f"corrupt workbook: the sheets {held[part]!r} and {name!r} are both the "
                    f"part {part}"
                )
            out[name], held[part] = part, name
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


# a definedName's formula is text: one holding elements is Excel's extension record of a
# user-defined function's argument descriptions (x14:definedName), no name at all
_NAME_EL = re.compile(
    rb"<(?:\w+:)?definedName\b(?P<attrs>" + _ATTRS + rb")>(?P<text>[^<]*)</(?:\w+:)?definedName>",
    re.S,
)


DATE1904 = re.compile(rb"<(?:\w+:)?workbookPr\b[^>]*\bdate1904=\"(?:1|true)\"")


def defined_names(parts: dict[str, bytes], *, scoped: bool = True) -> dict[str, str]:
    """Workbook-level defined names (with ``scoped``, a sheet-level name too where no
    workbook one exists)."""
    found: dict[str, str] = {}
    local: dict[str, str] = {}
    for m in _NAME_EL.finditer(parts.get("xl/workbook.xml", b"")):
        a = attributes(m.group("attrs"))
        name = a.get("name", "")
        if not name or name.startswith("_xlnm."):
            continue
        (local if "localSheetId" in a else found)[name] = unescape(m.group("text"))
    return {**local, **found} if scoped else found


def sheet_order(parts: dict[str, bytes]) -> list[str]:
    """The names of the workbook's sheets (chart sheets too), in the workbook's order: the
    order a 3-D reference (``First:Last!A1``) runs through and ``localSheetId`` counts in."""
    book = parts.get("xl/workbook.xml", b"")
    return [unescape(attributes(raw).get("name", "").encode()) for raw in _SHEET_TAG.findall(book)]


# the built-in names the database functions and the advanced filter use, each defined for
# one sheet (ECMA-376 Part 1, 18.2.5): a formula names them with or without the prefix
_DATABASE_NAMES = {"_XLNM.CRITERIA": "CRITERIA", "_XLNM.EXTRACT": "EXTRACT",
                   "_XLNM.DATABASE": "DATABASE"}  # fmt: skip


def scoped_names(parts: dict[str, bytes]) -> dict[str, dict[str, str]]:
    """The names defined for one sheet only: upper-case name -> {sheet: definition}. Within
    its sheet such a name wins over a workbook-level one of the same name. The built-in
    ``_xlnm.Criteria``, ``_xlnm.Extract`` and ``_xlnm.Database`` are there under their names
    with and without the prefix (a name the user defined keeps the short one)."""
    order = sheet_order(parts)
    out: dict[str, dict[str, str]] = {}
    built_in: list[tuple[str, str, str]] = []
    for m in _NAME_EL.finditer(parts.get("xl/workbook.xml", b"")):
        a = attributes(m.group("attrs"))
        name, local = a.get("name", ""), a.get("localSheetId")
        if not name or local is None or not local.isdigit() or int(local) >= len(order):
            continue
        upper, sheet, target = name.upper(), order[int(local)], unescape(m.group("text"))
        if upper.startswith("_XLNM."):
            if upper in _DATABASE_NAMES:
                built_in.append((upper, sheet, target))
            continue
        out.setdefault(upper, {})[sheet] = target
    for upper, sheet, target in built_in:
        out.setdefault(upper, {})[sheet] = target
        out.setdefault(_DATABASE_NAMES[upper], {}).setdefault(sheet, target)
    return out


_CELL_REF = re.compile(r"([A-Z]+)([0-9]+)")
_EXTERNAL_REF = re.compile(rb"<(?:\w+:)?externalReference\b(" + _ATTRS + rb")/?>")
_EXT_SHEET_NAME = re.compile(rb"<(?:\w+:)?sheetName\b(" + _ATTRS + rb")/?>")
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
            held = attributes(data.group("attrs"))
            index = held.get("sheetId", "")
            if not index.isdigit() or int(index) >= len(names):
                continue
            if held.get("refreshError") in ("1", "true") and not _EXT_CELL.search(
                data.group("body") or b""
            ):
                continue  # Excel could not read that workbook and keeps nothing: #REF!
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


_TABLE_TAG = re.compile(rb"<(?:\w+:)?table\b(" + _ATTRS + rb")>")
_TABLE_COLUMN = re.compile(rb"<(?:\w+:)?tableColumn\b(" + _ATTRS + rb")/?>")
_TABLE_TYPE = "/relationships/table"


def related(parts: dict[str, bytes], part: str, kind: str) -> list[str]:
    """The parts a part's relationships of one kind point to (``kind`` the end of the type's
    address: ``/table``, ``/pivotTable``), in their order."""
    folder, name = posixpath.split(part)
    out = []
    for raw in _REL_TAG.findall(parts.get(posixpath.join(folder, "_rels", name + ".rels"), b"")):
        a = attributes(raw)
        if not a.get("Type", "").endswith(kind):
            continue
        target = a.get("Target", "")
        out.append(target.lstrip("/") if target.startswith("/") else posixpath.normpath(
            posixpath.join(folder, target)))  # fmt: skip
    return out


def tables(parts: dict[str, bytes]) -> dict[str, Table]:
    """The workbook's tables by upper-case name (the name formulas use): where each lies, its
    header and totals rows and its columns' names, from the table parts of each sheet."""
    found: dict[str, Table] = {}
    for sheet, part in sheet_parts(parts).items():
        for path in related(parts, part, _TABLE_TYPE):
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


MAX_ITERATIONS = 32_767


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
        count = int(attrs.get(b"iterateCount", b"100"))
        delta = float(attrs.get(b"iterateDelta", b"0.001"))
    except ValueError:
        return 100, 0.001
    # Excel takes 1 to 32,767 iterations (File > Options > Formulas): a file's 2,000,000,000
    # is its most, not a night's work
    return min(max(count, 1), MAX_ITERATIONS), delta if math.isfinite(delta) else 0.001
