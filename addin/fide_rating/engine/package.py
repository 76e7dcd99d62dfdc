"""The workbook package (.xlsx, .xlsm): its parts read and written directly, byte for byte.

A workbook is a zip of XML parts. This module reads the parts (checked against hostile files:
too many, too large, zip bombs, entity declarations), finds the worksheets, reads their cells,
shared strings and defined names with small regular expressions (no XML tree: a 500-player
crosstable is read in one pass), and writes a package back with only the value (``<v>``) and
type (``t``) of formula cells changed. Every other part is copied as it was, so nothing a
workbook holds is ever dropped.

May import: :mod:`fide_rating.engine.formula` (values and references) and the standard library.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
import posixpath
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import atomic, open_regular
from .formula import ERRORS, Value, XlError, col_letters, col_number
from .formula.structured import Table
from .xlsxout import text as xml_text

# limits against hostile packages
MAX_PARTS = 10_000
MAX_TOTAL = 1 << 29  # 512 MiB unpacked: a workbook's parts are all held in memory
MAX_RATIO = 200  # unpacked / packed, per part above 1 MiB and for the whole package
# what one workbook may hold in all its sheets together: each cell costs memory when read and
# each formula when compiled, so hundreds of sheets each under every per-part check are bounded
# too (20 million formulas in 480 small parts would take more than 2 GiB)
MAX_FORMULAS = 2_000_000
MAX_CELLS = 8_000_000
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


class WorkbookError(Exception):
    """A file that cannot be recomputed: not a workbook, encrypted, corrupt or hostile."""


# --- the package --------------------------------------------------------------------------

_NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_SHEET_TAG = re.compile(rb"<(?:\w+:)?sheet\b([^>]*)/?>")
_ATTR = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')
_REL_TAG = re.compile(rb"<(?:\w+:)?Relationship\b([^>]*)/?>")
_CELL = re.compile(rb"<(?P<p>(?:\w+:)?)c\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?P=p)c>)", re.S)
_F = re.compile(rb"<(?:\w+:)?f[\s>/]")
_V = re.compile(rb"<(?P<p>(?:\w+:)?)v(?:\s[^>]*)?>(?P<text>.*?)</(?P=p)v>|<(?:\w+:)?v\s*/>", re.S)
_T_ATTR = re.compile(rb'\s+t="[^"]*"')
_R_ATTR = re.compile(rb'\br="([A-Z]+)([0-9]+)"')
_CELL_REF = re.compile(r"([A-Z]+)([0-9]+)")


def _attrs(raw: bytes) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in _ATTR.findall(raw)}


_CHAR_REF = re.compile(r"&#(x[0-9A-Fa-f]+|[0-9]+);")
_XCHAR = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _unescape(text: bytes) -> str:
    """XML character data as text: entities and character references decoded, line ends
    normalised (a raw CR LF or CR reads as LF, as in any XML parser)."""
    out = text.decode("utf-8")
    if "\r" in out:
        out = out.replace("\r\n", "\n").replace("\r", "\n")
    if "&" not in out:
        return out
    if "&#" in out:
        out = _CHAR_REF.sub(
            lambda m: chr(int(m.group(1)[1:], 16) if m.group(1)[0] == "x" else int(m.group(1))),
            out,
        )
    return (
        out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&amp;", "&")
    )


def _text(text: bytes) -> str:
    """A cell's text (ST_Xstring): XML decoded, then ``_xHHHH_`` escapes, by which Excel
    writes the characters XML cannot hold (``_x000D_`` a CR, ``_x005F_`` a literal ``_``)."""
    out = _unescape(text)
    return _XCHAR.sub(lambda m: chr(int(m.group(1), 16)), out) if "_x" in out else out


def _cell_text(raw: bytes) -> str:
    """:func:`_text`, with a plain text (the usual case) taken as it is."""
    return _text(raw) if b"&" in raw or b"_x" in raw or b"\r" in raw else raw.decode()


_PROLOG_ITEM = re.compile(rb"\s+|<\?.*?\?>|<!--.*?-->", re.S)


def declares_doctype(content: bytes) -> bool:
    """Whether an XML part declares a document type (and so may declare entities): only in
    its prolog, after any number of comments, processing instructions and blanks."""
    at = 3 if content.startswith(b"\xef\xbb\xbf") else 0
    while True:
        m = _PROLOG_ITEM.match(content, at)
        if m is None or m.end() == at:
            break
        at = m.end()
    return content.startswith((b"<!DOCTYPE", b"<!ENTITY"), at)


def read_file(path: Path) -> bytes:
    """A workbook file's bytes, refused before it is read when it is larger than a workbook's
    parts may be unpacked (a package cannot hold more than it unpacks to)."""
    with open_regular(path) as f:  # a pipe or a device is refused, never read
        size = os.fstat(f.fileno()).st_size
        if size > MAX_TOTAL:
            raise WorkbookError(
                f"refused: the file holds {size / 2**20:,.0f} MiB, more than a workbook's parts "
                f"may hold unpacked ({MAX_TOTAL >> 20} MiB)"
            )
        data = f.read(MAX_TOTAL + 1)
    if len(data) > MAX_TOTAL:
        raise WorkbookError(f"refused: the file grew past {MAX_TOTAL >> 20} MiB while it was read")
    return data


def read_package(
    data: bytes, name: str = "workbook"
) -> tuple[list[zipfile.ZipInfo], dict[str, bytes]]:
    """The parts of a workbook package, checked against the usual hostile files."""
    if data[:8] == OLE_MAGIC:
        raise WorkbookError(
            "encrypted (password-protected) workbook or old .xls format: save it as .xlsx "
            "without a password"
        )
    if data[:2] != b"PK":
        raise WorkbookError("not a workbook: an .xlsx or .xlsm file is a zip package")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise WorkbookError(f"corrupt workbook package ({error})") from None
    if len(infos) > MAX_PARTS:
        raise WorkbookError(f"refused: {len(infos)} parts in the package (zip bomb?)")
    total = 0
    for info in infos:
        total += info.file_size
        ratio = info.file_size // max(1, info.compress_size)
        if info.file_size > 1 << 20 and ratio > MAX_RATIO:
            raise WorkbookError(
                f"refused: part {info.filename} unpacks {ratio} times its packed size (zip bomb?)"
            )
    if total > MAX_TOTAL:
        raise WorkbookError(
            f"refused: the package unpacks to {total >> 20:,} MiB, more than the limit of "
            f"{MAX_TOTAL >> 20:,} MiB (zip bomb?)"
        )
    packed = sum(info.compress_size for info in infos)
    if total > 1 << 24 and total // max(1, packed) > MAX_RATIO:
        raise WorkbookError(
            f"refused: the package unpacks to {total // max(1, packed):,} times its packed size, "
            f"more than the limit of {MAX_RATIO} (zip bomb?)"
        )
    parts: dict[str, bytes] = {}
    try:
        for info in infos:
            if info.is_dir():
                continue
            with archive.open(info) as member:
                parts[info.filename] = member.read(info.file_size + 1)
            if len(parts[info.filename]) > info.file_size:
                raise WorkbookError(f"refused: part {info.filename} is larger than it says")
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as error:
        raise WorkbookError(f"corrupt workbook package ({error})") from None
    for part, content in parts.items():
        if part.endswith((".xml", ".rels", ".vml")) and declares_doctype(content):
            raise WorkbookError(f"refused: part {part} declares a DOCTYPE or entities (XML bomb?)")
    if "xl/workbook.xml" not in parts and not any(p.endswith("workbook.xml") for p in parts):
        if "content.xml" in parts and "mimetype" in parts:
            raise WorkbookError(
                "an OpenDocument (.ods) file: open it in LibreOffice to recalculate"
            )
        raise WorkbookError("not a workbook: no xl/workbook.xml in the package")
    return infos, parts


def sheet_parts(parts: dict[str, bytes]) -> dict[str, str]:
    """Sheet name -> the worksheet part that holds it."""
    book_part = "xl/workbook.xml"
    rels_part = posixpath.join(posixpath.dirname(book_part), "_rels", "workbook.xml.rels")
    targets: dict[str, str] = {}
    for raw in _REL_TAG.findall(parts.get(rels_part, b"")):
        a = _attrs(raw)
        target = a.get("Target", "")
        path = (
            target.lstrip("/")
            if target.startswith("/")
            else posixpath.normpath(posixpath.join(posixpath.dirname(book_part), target))
        )
        targets[a.get("Id", "")] = path
    out: dict[str, str] = {}
    for raw in _SHEET_TAG.findall(parts.get(book_part, b"")):
        a = _attrs(raw)
        rid = next((v for k, v in a.items() if k.endswith(":id") or k == "r:id"), "")
        name = _unescape(a.get("name", "").encode())
        if rid in targets and targets[rid] in parts:
            out[name] = targets[rid]
    return out


def _tags(part: bytes, name: bytes) -> int:
    """How many elements ``name`` (``c``, ``f``) a worksheet part holds, counted without
    reading it: plain tags by byte counts, prefixed ones (``<x:c``) by a pattern."""
    n = part.count(b"<" + name + b" ") + part.count(b"<" + name + b">")
    n += part.count(b"<" + name + b"/>")
    if b":" + name + b" " in part or b":" + name + b">" in part or b":" + name + b"/" in part:
        n += sum(1 for _ in re.finditer(rb"<\w+:" + name + rb"[\s>/]", part))
    return n


def check_totals(parts: dict[str, bytes], sheets: dict[str, str]) -> None:
    """Refuse a workbook whose sheets together hold more cells or formulas than one workbook
    may (:data:`MAX_CELLS`, :data:`MAX_FORMULAS`), before any of them is read."""
    cells = formulas = 0
    for part in dict.fromkeys(sheets.values()):
        content = parts[part]
        cells += _tags(content, b"c")
        formulas += _tags(content, b"f")
    if formulas > MAX_FORMULAS:
        raise WorkbookError(
            f"refused: {formulas:,} formulas in {len(sheets)} sheets, more than the limit of "
            f"{MAX_FORMULAS:,} for one workbook"
        )
    if cells > MAX_CELLS:
        raise WorkbookError(
            f"refused: {cells:,} cells in {len(sheets)} sheets, more than the limit of "
            f"{MAX_CELLS:,} for one workbook"
        )


def _value_xml(value: Value) -> tuple[bytes | None, bytes]:
    """The ``t`` attribute (None for a number) and the ``<v>`` text of a computed value."""
    if isinstance(value, bool):
        return b"b", b"1" if value else b"0"
    if isinstance(value, XlError):
        return b"e", value.code.encode()
    if isinstance(value, str):
        return b"str", xml_text(value).encode("utf-8")
    if value is None:
        value = 0.0
    x = float(value)
    text = str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)
    return None, text.encode()


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


def _cell_key(m: re.Match[bytes]) -> tuple[int, int] | None:
    """A matched cell's (row, column), from its r attribute; None without one."""
    r = _R_ATTR.search(m.group("attrs"))
    return None if r is None else (int(r.group(2)), col_number(r.group(1).decode()))


def patch_part(
    part: bytes,
    values: Mapping[tuple[int, int], Value],
    cell: Callable[[int, int, bool], Any] | None = None,
) -> tuple[bytes, int]:
    """The worksheet part with the ``<v>`` and ``t`` of the given formula cells replaced (the
    cells of an array formula's range too, which hold only a value), and how many of them hold
    another value than before. The cells as Excel writes them are taken apart by one pattern;
    any other shape (a namespace prefix, more in the cell) by the general one. ``cell`` is a
    quicker way to the same values: (row, column, whether the cell has a formula) -> the value,
    or :data:`NO`."""
    changed = 0
    patched = 0
    if cell is None:
        get = values.get
        cell = lambda row, col, formula: get((row, col), NO)  # noqa: E731

    def fast(m: re.Match[bytes]) -> bytes:
        nonlocal changed, patched
        letters, digits, attrs, formula, old = m.groups()
        if formula is None and old is None:
            return m.group()
        col = _COLS.get(letters) or col_number(letters.decode())
        value = cell(int(digits), col, formula is not None)
        if value is NO:
            return m.group()
        patched += 1
        if value.__class__ is float:  # the usual case, as _value_xml writes it
            t = None
            text = (str(int(value)) if value.is_integer() and abs(value) < 1e15
                    else repr(value)).encode()  # fmt: skip
        else:
            t, text = _value_xml(value)
        i = attrs.find(b't="')
        old_t = attrs[i + 3 : attrs.index(b'"', i + 3)] if i >= 0 else b"n"
        if old is None or (old != text if t is None and old_t == b"n" else (
                _plain(old_t, old, []) != value or (old_t == b"n") != (t is None))):  # fmt: skip
            changed += 1
        if i >= 0:
            attrs = _T_ATTR.sub(b"", attrs)
        if t is not None:
            attrs += b' t="' + t + b'"'
        return (b'<c r="' + letters + digits + b'"' + attrs + b">" + (formula or b"") + b"<v>"
                + text + b"</v></c>")  # fmt: skip

    def sub(m: re.Match[bytes]) -> bytes:
        nonlocal changed
        body = m.group("body")
        if not body or not (_F.search(body) or _V.search(body)):
            return m.group()
        key = _cell_key(m)
        if key is None or key not in values:
            return m.group()
        changed += 1
        t, text = _value_xml(values[key])
        attrs = _T_ATTR.sub(b"", m.group("attrs"))
        if t is not None:
            attrs += b' t="' + t + b'"'
        p = m.group("p")
        new_v = b"<" + p + b"v>" + text + b"</" + p + b"v>"
        if _V.search(body):
            body = _V.sub(lambda _: new_v, body, count=1)
        else:
            end = re.search(rb"</(?:\w+:)?f>|<(?:\w+:)?f\b[^>]*/>", body)
            at = end.end() if end else len(body)
            body = body[:at] + new_v + body[at:]
        return b"<" + p + b"c" + attrs + b">" + body + b"</" + p + b"c>"

    if part.count(b"<c ") == part.count(b'<c r="'):
        out = _PATCH.sub(fast, part)
        if patched == len(values):
            return out, changed
        changed = 0  # a cell of another shape among them: the general way, for all
    return _CELL.sub(sub, part), changed


NO = object()  # no value to write in a cell
# a cell as Excel writes it: place, attributes, formula element, value text
_PATCH = re.compile(
    rb'<c r="([A-Z]+)([0-9]+)"([^>]*?)>(<f\b[^>]*?(?:/>|>[^<]*</f>))?(?:<v>([^<]*)</v>|<v\s*/>)?'
    rb"</c>"
)


def _constant_xml(p: bytes, ref: bytes, attrs: bytes, value: Value) -> bytes:
    """A constant cell: a number, a logical, or a text written inline (no shared string)."""
    attrs = _T_ATTR.sub(b"", attrs)
    attrs = re.sub(rb'\s*\br="[^"]*"', b"", attrs)
    if value is None:
        return b"<" + p + b'c r="' + ref + b'"' + attrs + b"/>"
    if isinstance(value, str):
        text = xml_text(value).encode("utf-8")
        return (b"<" + p + b'c r="' + ref + b'"' + attrs + b' t="inlineStr"><' + p + b"is><"
                + p + b"t>" + text + b"</" + p + b"t></" + p + b"is></" + p + b"c>")  # fmt: skip
    t, text = _value_xml(value)
    kind = b' t="' + t + b'"' if t is not None else b""
    return (b"<" + p + b'c r="' + ref + b'"' + attrs + kind + b"><" + p + b"v>" + text + b"</"
            + p + b"v></" + p + b"c>")  # fmt: skip


def set_constants(part: bytes, values: dict[tuple[int, int], Value]) -> tuple[bytes, list[str]]:
    """The worksheet part with the given cells set to constants (their style kept). A cell the
    part does not have yet is added to its row; the cells whose row is missing are named."""
    todo = dict(values)

    def cell(m: re.Match[bytes]) -> bytes:
        key = _cell_key(m)
        if key not in todo:
            return m.group()
        r = _R_ATTR.search(m.group("attrs"))
        assert r is not None  # a key was found
        if m.group("body") and _F.search(m.group("body")):
            todo.pop(key)
            return m.group()  # a formula stays a formula
        ref = r.group(1) + r.group(2)
        return _constant_xml(m.group("p"), ref, m.group("attrs"), todo.pop(key))

    part = _CELL.sub(cell, part)
    if not todo:
        return part, []

    def row(m: re.Match[bytes]) -> bytes:
        number = re.search(rb'\br="(\d+)"', m.group("attrs"))
        if number is None:
            return m.group()
        here = int(number.group(1))
        mine = sorted((c, v) for (r, c), v in todo.items() if r == here)
        if not mine:
            return m.group()
        body = m.group("body") or b""
        p = re.match(rb"<((?:\w+:)?)row", m.group()).group(1)  # type: ignore[union-attr]
        for c, value in mine:
            ref = col_letters(c).encode() + str(here).encode()
            new = _constant_xml(p, ref, b"", value)
            # before the first cell of a later column (cells stay in column order)
            after = next(
                (x.start() for x in _CELL.finditer(body)
                 if (rr := _R_ATTR.search(x.group("attrs"))) is not None
                 and col_number(rr.group(1).decode()) > c),
                len(body),
            )  # fmt: skip
            body = body[:after] + new + body[after:]
            del todo[(here, c)]
        return b"<" + p + b"row" + m.group("attrs") + b">" + body + b"</" + p + b"row>"

    part = _ROW_EL.sub(row, part)
    return part, [f"{col_letters(c)}{r}" for r, c in sorted(todo)]


def write_package(infos: list[zipfile.ZipInfo], parts: dict[str, bytes], target: Path) -> None:
    """Write the parts in their order, with their zip headers, atomically into ``target``
    (its mode and links kept: :func:`fide_rating.files.atomic`)."""
    with atomic(target) as raw, zipfile.ZipFile(raw, "w") as out:
        for info in infos:
            if info.is_dir():
                out.writestr(info, b"")
                continue
            copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            copy.compress_type = info.compress_type
            copy.external_attr = info.external_attr
            copy.create_system = info.create_system
            copy.comment = info.comment
            copy.extra = info.extra
            out.writestr(copy, parts[info.filename])


_ROW_EL = re.compile(rb"<(?:\w+:)?row\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?:\w+:)?row>)", re.S)
_F_EL = re.compile(rb"<(?:\w+:)?f\b(?P<attrs>[^>]*?)(?:/>|>(?P<text>.*?)</(?:\w+:)?f>)", re.S)
_IS_T = re.compile(rb"<(?:\w+:)?t\b[^>]*>(.*?)</(?:\w+:)?t>", re.S)
_SI = re.compile(rb"<(?:\w+:)?si(?:\s[^>]*)?(?<!/)>(.*?)</(?:\w+:)?si>|<(?:\w+:)?si\s*/>", re.S)
_NAME_EL = re.compile(
    rb"<(?:\w+:)?definedName\b(?P<attrs>[^>]*)>(?P<text>.*?)</(?:\w+:)?definedName>", re.S
)
DATE1904 = re.compile(rb"<(?:\w+:)?workbookPr\b[^>]*\bdate1904=\"(?:1|true)\"")


_SI_PLAIN = re.compile(rb'<si><t(?: xml:space="preserve")?>([^<]*)</t></si>')
_SI_ANY = re.compile(rb"<(?:\w+:)?si[\s>/]")


def shared_strings(parts: dict[str, bytes]) -> list[str]:
    raw = parts.get("xl/sharedStrings.xml", b"")
    plain = _SI_PLAIN.findall(raw)
    if len(plain) == len(_SI_ANY.findall(raw)):
        # every text a plain run (what Excel and most writers produce): one pass
        return [_cell_text(t) for t in plain]
    out = []
    for m in _SI.finditer(raw):
        body = m.group(1) or b""
        # rich text: the runs' texts; phonetic guides (rPh) are not part of the value
        body = re.sub(rb"<(?:\w+:)?rPh\b.*?</(?:\w+:)?rPh>", b"", body, flags=re.S)
        out.append("".join(_text(t) for t in _IS_T.findall(body)))
    return out


def defined_names(parts: dict[str, bytes]) -> dict[str, str]:
    """Workbook-level defined names (a sheet-level name only where no workbook one exists)."""
    found: dict[str, str] = {}
    local: dict[str, str] = {}
    for m in _NAME_EL.finditer(parts.get("xl/workbook.xml", b"")):
        a = _attrs(m.group("attrs"))
        name = a.get("name", "")
        if not name or name.startswith("_xlnm."):
            continue
        (local if "localSheetId" in a else found)[name] = _unescape(m.group("text"))
    return {**local, **found}


def sheet_order(parts: dict[str, bytes]) -> list[str]:
    """The names of the workbook's sheets (chart sheets too), in the workbook's order: the
    order a 3-D reference (``First:Last!A1``) runs through and ``localSheetId`` counts in."""
    book = parts.get("xl/workbook.xml", b"")
    return [_unescape(_attrs(raw).get("name", "").encode()) for raw in _SHEET_TAG.findall(book)]


def scoped_names(parts: dict[str, bytes]) -> dict[str, dict[str, str]]:
    """The names defined for one sheet only: upper-case name -> {sheet: definition}. Within
    its sheet such a name wins over a workbook-level one of the same name."""
    order = sheet_order(parts)
    out: dict[str, dict[str, str]] = {}
    for m in _NAME_EL.finditer(parts.get("xl/workbook.xml", b"")):
        a = _attrs(m.group("attrs"))
        name, local = a.get("name", ""), a.get("localSheetId")
        if not name or name.startswith("_xlnm.") or local is None or not local.isdigit():
            continue
        if int(local) < len(order):
            out.setdefault(name.upper(), {})[order[int(local)]] = _unescape(m.group("text"))
    return out


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
        a = _attrs(raw)
        target = a.get("Target", "")
        rels[a.get("Id", "")] = (
            target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
        )
    out: dict[str, dict[tuple[int, int], Value]] = {}
    for number, raw in enumerate(_EXTERNAL_REF.findall(parts.get("xl/workbook.xml", b"")), 1):
        a = _attrs(raw)
        rid = next((v for k, v in a.items() if k.endswith(":id") or k == "r:id"), "")
        xml = parts.get(rels.get(rid, ""), b"")
        names = [_unescape(_attrs(n).get("val", "").encode()) for n in _EXT_SHEET_NAME.findall(xml)]
        for data in _EXT_SHEET_DATA.finditer(xml):
            index = _attrs(data.group("attrs")).get("sheetId", "")
            if not index.isdigit() or int(index) >= len(names):
                continue
            cells: dict[tuple[int, int], Value] = {}
            for cell in _EXT_CELL.finditer(data.group("body") or b""):
                ca = _attrs(cell.group("attrs"))
                where = _CELL_REF.fullmatch(ca.get("r", ""))
                v = _V.search(cell.group("body") or b"")
                if where is None or v is None or v.group("text") is None:
                    continue
                kind = ca.get("t", "n")
                text = v.group("text")
                value: Value = _unescape(text) if kind in ("s", "str", "inlineStr") else _plain(
                    kind.encode(), text, [])  # fmt: skip
                cells[(int(where.group(2)), col_number(where.group(1)))] = value
            out[f"[{number}]{names[int(index)]}"] = cells
    return out


@dataclass(slots=True)
class _Formula:
    text: str | None  # None: a follower of a shared formula
    kind: str  # "", "shared", "array", "dataTable"
    shared: str | None
    ref: str | None = None  # an array formula's range (or a shared formula's)


# a cell in its parts: place, attributes, formula (its attributes and text), value, the rest
_CELL_PARTS = re.compile(
    rb'<c r="([A-Z]+)([0-9]+)"([^>]*?)(?:/>|>(?:(<f)([^>]*?)(?:/>|>([^<]*)</f>))?'
    rb"(?:(<v>)([^<]*)</v>)?(.*?)</c>)",
    re.S,
)


def read_sheet(
    part: bytes, strings: list[str], *, keep_stored: bool = True
) -> tuple[
    dict[tuple[int, int], Value],
    dict[tuple[int, int], _Formula],
    dict[tuple[int, int], Value],
    int,
    int,
]:
    """Constants, formulas and the formulas' stored values of one worksheet part (unless not
    ``keep_stored``: the plain formulas' then left out), and its extent (the last row and
    column with content)."""
    seen: dict[bytes, _Formula | tuple[str, str | None, str | None]] = {}
    constants: dict[tuple[int, int], Value] = {}
    formulas: dict[tuple[int, int], _Formula] = {}
    stored: dict[tuple[int, int], Value] = {}
    cols = _COLS
    if part.count(b"<c ") == part.count(b'<c r="'):
        # every cell says where it is, without a namespace prefix (Excel, LibreOffice, openpyxl):
        # one pattern takes the common shapes apart; anything else goes through _cell
        for letters, digits, attrs, fmark, fattrs, ftext, vmark, vtext, rest in _CELL_PARTS.findall(
            part
        ):
            key = (int(digits), cols.get(letters) or col_number(letters.decode()))
            if fmark and not rest and not keep_stored:
                found = seen.get(fattrs)  # a shared formula's follower: its one object at once
                formulas[key] = found if isinstance(found, _Formula) and not ftext else _formula(
                    fattrs, ftext, seen)  # fmt: skip
                continue
            i = attrs.find(b't="')
            kind = attrs[i + 3 : attrs.index(b'"', i + 3)] if i >= 0 else b"n"
            if rest:
                body = (b"<f" + fattrs + b">" + ftext + b"</f>" if fmark else b"") + (
                    b"<v>" + vtext + b"</v>" if vmark else b"") + rest  # fmt: skip
                _cell(key, kind, body, strings, constants, formulas, stored)
            elif fmark:
                found = seen.get(fattrs)  # a shared formula's follower: its one object at once
                formulas[key] = found if isinstance(found, _Formula) and not ftext else _formula(
                    fattrs, ftext, seen)  # fmt: skip
                if keep_stored:
                    stored[key] = _plain(kind, vtext, strings) if vmark else None
            elif vmark:
                if kind == b"n":
                    try:
                        constants[key] = float(vtext)
                        continue
                    except ValueError:
                        pass
                elif kind == b"s":
                    try:
                        constants[key] = strings[int(vtext)]
                        continue
                    except (ValueError, IndexError):
                        pass
                constants[key] = _plain(kind, vtext, strings)
    else:
        row = 0
        for rm in _ROW_EL.finditer(part):
            r_attr = re.search(rb'\br="(\d+)"', rm.group("attrs"))
            row = int(r_attr.group(1)) if r_attr else row + 1
            col = 0
            for cm in _CELL.finditer(rm.group("body") or b""):
                attrs = cm.group("attrs")
                ref = _R_ATTR.search(attrs)
                col = col_number(ref.group(1).decode()) if ref else col + 1
                body = cm.group("body")
                if body:
                    i = attrs.find(b't="')
                    kind = attrs[i + 3 : attrs.index(b'"', i + 3)] if i >= 0 else b"n"
                    _cell((row, col), kind, body, strings, constants, formulas, stored)
    keys = list(constants) + list(formulas)
    max_row = max((k[0] for k in keys), default=0)
    max_col = max((k[1] for k in keys), default=0)
    return constants, formulas, stored, max_row, max_col


def _formula(
    attrs: bytes, text: bytes, seen: dict[bytes, _Formula | tuple[str, str | None, str | None]]
) -> _Formula:
    """A formula from its ``<f>`` attributes and text. The attributes are read once for all
    the cells that share them: every follower of a shared formula is one object."""
    known = seen.get(attrs)
    if known is None:
        a = _attrs(attrs)
        kind = a.get("t", "")
        if not text and kind == "shared" and "ref" not in a:
            known = seen[attrs] = _Formula(None, "shared", a.get("si"))
        else:
            known = seen[attrs] = (kind, a.get("si"), a.get("ref"))
    if isinstance(known, _Formula):
        return known
    if not text:
        return _Formula(None, known[0], known[1], known[2])
    shown = _text(text) if b"&" in text or b"_x" in text or b"\r" in text else text.decode()
    return _Formula(shown, known[0], known[1], known[2])


def _cell(
    key: tuple[int, int],
    kind: bytes,
    body: bytes,
    strings: list[str],
    constants: dict[tuple[int, int], Value],
    formulas: dict[tuple[int, int], _Formula],
    stored: dict[tuple[int, int], Value],
) -> None:
    fm = _F_EL.search(body)
    vm = _V.search(body)
    vtext = vm.group("text") if vm and vm.group("text") is not None else None
    if kind == b"inlineStr":
        value: Value = "".join(_text(x) for x in _IS_T.findall(body))
    elif vtext is None:
        value = None
    else:
        value = _plain(kind, vtext, strings)
    if fm is not None:
        fa = _attrs(fm.group("attrs"))
        text = fm.group("text")
        formulas[key] = _Formula(
            _text(text) if text else None, fa.get("t", ""), fa.get("si"), fa.get("ref")
        )
        stored[key] = value
    elif value is not None:
        constants[key] = value


_COLS = {col_letters(n).encode(): n for n in range(1, 703)}  # A .. ZZ


def _plain(kind: bytes, vtext: bytes, strings: list[str]) -> Value:
    """A stored value from its type and ``<v>`` text."""
    if kind == b"n":
        try:
            return float(vtext)
        except ValueError:
            return _unescape(vtext)
    if kind == b"s":
        try:
            return strings[int(vtext)]
        except (ValueError, IndexError):
            return ERRORS["#REF!"]
    if kind == b"b":
        return vtext.strip() in (b"1", b"true")
    if kind == b"e":
        code = _unescape(vtext)
        return ERRORS.get(code, XlError(code))
    if kind == b"d":
        return _iso_serial(_unescape(vtext))
    return _text(vtext)


def _iso_serial(text: str) -> Value:
    try:
        moment = _dt.datetime.fromisoformat(text)
    except ValueError:
        return text
    delta = moment - _dt.datetime(1899, 12, 30)
    return delta.days + delta.seconds / 86400


_ROW_TAG = re.compile(rb"<row\b[^>]*>")
_ROW_NUMBER = re.compile(rb'\br="(\d+)"')
_HIDDEN = re.compile(rb'\bhidden="(?:1|true)"')
_AUTOFILTER = re.compile(
    rb'<(?:\w+:)?autoFilter\b[^>]*\bref="[A-Z]+(\d+):[A-Z]+(\d+)"[^>]*?(?:/>|>(.*?)</(?:\w+:)?autoFilter>)',
    re.S,
)


def filter_rows(xml: bytes) -> tuple[int, int] | None:
    """The data rows of an autofilter that filters (has a criterion on some column), from a
    worksheet or a table part; None for none, or one that only shows its buttons."""
    found = _AUTOFILTER.search(xml)
    if found is None or b"filterColumn" not in (found.group(3) or b""):
        return None
    return int(found.group(1)) + 1, int(found.group(2))


def hidden_rows(
    part: bytes, filters: tuple[tuple[int, int], ...] = ()
) -> tuple[set[int], set[int]]:
    """A worksheet's hidden rows: those hidden by hand, and those a filter hides (hidden rows
    within the data of the sheet's autofilter, or of a table's, ``filters``, when it has a
    criterion; rows hidden where nothing filters are hidden by hand)."""
    manual: set[int] = set()
    if b'hidden="' not in part:
        return manual, set()
    for tag in _ROW_TAG.findall(part):
        number = _ROW_NUMBER.search(tag)
        if number is not None and _HIDDEN.search(tag):
            manual.add(int(number.group(1)))
    spans = list(filters)
    own = filter_rows(part)
    if own is not None:
        spans.append(own)
    filtered = {row for row in manual if any(first <= row <= last for first, last in spans)}
    return manual - filtered, filtered


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
            a = _attrs(raw)
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
    a = _attrs(head.group(1))
    span = re.fullmatch(r"\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)", a.get("ref", ""))
    if span is None:
        return None
    columns = tuple(_text(_attrs(raw).get("name", "").encode())
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
