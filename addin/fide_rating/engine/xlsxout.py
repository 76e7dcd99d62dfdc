"""A small, fast .xlsx writer for large plain tables (the rating list of a whole federation).

openpyxl builds a cell object per cell; a 50,000-player list with its calculation pages is
millions of cells, so this writes the package's XML directly: texts inline, numbers, dates
with the built-in date format, bold header rows. The file is written to a temporary name and
renamed, so it is never half-written.
"""

from __future__ import annotations

import datetime as _dt
import re
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..files import atomic
from .formula import col_letters

Cell = str | int | float | bool | _dt.date | None


class RowXml(str):
    """A row already written as ``<row r="N">...</row>`` (for tables of millions of cells
    whose layout the caller knows: one f-string a row instead of a call a cell)."""

    __slots__ = ()


_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\ufffe\uffff\ud800-\udfff]|_(?=x[0-9A-Fa-f]{4}_)")


def text(value: str) -> str:
    """A text for a cell (``<v>``, ``<t>``): XML-escaped, and what XML cannot hold (control
    characters, CR, U+FFFF) written as Excel writes it, ``_xHHHH_`` (``_x005F_`` for a ``_``
    that would read as the start of one)."""
    return escape(_UNSAFE.sub(lambda m: f"_x{ord(m.group()):04X}_", value))


class SharedStrings:
    """The workbook's table of texts: each text written once, cells refer to it by number
    (what Excel writes too, and the fastest kind of text cell to read back)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, value: str) -> int:
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.index)
        return found

    def cell(self, ref: str, value: str, style: str = "") -> str:
        """A text cell referring to the table."""
        return f'<c r="{ref}" t="s"{style}><v>{self(value)}</v></c>'

    def xml(self) -> str:
        items = []
        for value in self.index:
            body = text(value)
            space = ' xml:space="preserve"' if body != body.strip() else ""
            items.append(f"<si><t{space}>{body}</t></si>")
        n = len(items)
        return f'{_XML}<sst xmlns="{_MAIN}" count="{n}" uniqueCount="{n}">{"".join(items)}</sst>'


def serial(day: _dt.date) -> int:
    return (day - _EPOCH).days


_EPOCH = _dt.date(1899, 12, 30)


def _text_cell(ref: str, value: str, style: str) -> str:
    body = text(value)
    space = ' xml:space="preserve"' if body != body.strip() else ""
    return f'<c r="{ref}" t="inlineStr"{style}><is><t{space}>{body}</t></is></c>'


def _number_cell(ref: str, value: float, style: str) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f'<c r="{ref}"{style}><v>{value!r}</v></c>'
    return f'<c r="{ref}"{style}><v>{int(value)}</v></c>'


def _bool_cell(ref: str, value: bool, style: str) -> str:
    return f'<c r="{ref}" t="b"{style}><v>{int(value)}</v></c>'


def _date_cell(ref: str, value: _dt.date, style: str) -> str:
    day = value.date() if isinstance(value, _dt.datetime) else value
    return f'<c r="{ref}" s="1"><v>{(day - _EPOCH).days}</v></c>'


_WRITERS = {str: _text_cell, int: _number_cell, float: _number_cell, bool: _bool_cell,
            _dt.date: _date_cell, _dt.datetime: _date_cell}  # fmt: skip


def _sheet(
    rows: Iterable[Sequence[Cell] | RowXml],
    bold_rows: set[int],
    widths: Sequence[int],
    strings: SharedStrings | None = None,
) -> str:
    parts = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" '
        'activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>',
    ]
    if widths:
        parts.append("<cols>")
        parts += [
            f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>'
            for i, w in enumerate(widths, 1)
        ]
        parts.append("</cols>")
    parts.append("<sheetData>")
    letters = [col_letters(i) for i in range(1, 64)]
    writers: dict[type, Any] = dict(_WRITERS)
    if strings is not None:
        writers[str] = strings.cell
    for r, row in enumerate(rows, start=1):
        if type(row) is RowXml:
            parts.append(row)
            continue
        style = ' s="2"' if r in bold_rows else ""
        cells = "".join(
            [
                writers[type(v)](f"{letters[c]}{r}", v, style)
                for c, v in enumerate(row)
                if v is not None and v != ""
            ]
        )
        parts.append(f'<row r="{r}">{cells}</row>')
    parts.append("</sheetData></worksheet>")
    return "".join(parts)


STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)


_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_OD = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006"
_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _content_types(n: int, shared: bool = False) -> str:
    overrides = [
        f'<Override PartName="/xl/workbook.xml" ContentType="{_CT}.sheet.main+xml"/>',
        f'<Override PartName="/xl/styles.xml" ContentType="{_CT}.styles+xml"/>',
    ] + [
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{_CT}.worksheet+xml"/>'
        for i in range(1, n + 1)
    ]
    if shared:
        overrides.append(
            f'<Override PartName="/xl/sharedStrings.xml" ContentType="{_CT}.sharedStrings+xml"/>'
        )
    return (
        f'{_XML}<Types xmlns="{_PKG}/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>' + "".join(overrides) + "</Types>"
    )


def _relationships(links: list[tuple[str, str]]) -> str:
    items = "".join(
        f'<Relationship Id="rId{i}" Type="{_OD}/{kind}" Target="{target}"/>'
        for i, (kind, target) in enumerate(links, 1)
    )
    return f'{_XML}<Relationships xmlns="{_PKG}/relationships">{items}</Relationships>'


def write(
    path: Path,
    sheets: Sequence[tuple[str, Iterable[Sequence[Cell] | RowXml], set[int], Sequence[int]]],
    strings: SharedStrings | None = None,
) -> Path:
    """Write sheets of rows: (name, rows, 1-based numbers of bold rows, column widths); texts
    inline, or through ``strings`` (whose numbers rows given as :class:`RowXml` may use)."""
    # level 1: a list is written once and read often; speed over the last percent of size
    with (
        atomic(path) as raw,
        zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z,
    ):
        n = len(sheets)
        sheet_xml = [_sheet(rows, bold, widths, strings) for _, rows, bold, widths in sheets]
        z.writestr("[Content_Types].xml", _content_types(n, strings is not None))
        z.writestr("_rels/.rels", _relationships([("officeDocument", "xl/workbook.xml")]))
        names = "".join(
            f'<sheet name={quoteattr(name)} sheetId="{i}" r:id="rId{i}"/>'
            for i, (name, *_rest) in enumerate(sheets, 1)
        )
        book = f'<workbook xmlns="{_MAIN}" xmlns:r="{_OD}"><sheets>{names}</sheets></workbook>'
        z.writestr("xl/workbook.xml", _XML + book)
        links = [("worksheet", f"worksheets/sheet{i}.xml") for i in range(1, n + 1)]
        links.append(("styles", "styles.xml"))
        if strings is not None:
            links.append(("sharedStrings", "sharedStrings.xml"))
        z.writestr("xl/_rels/workbook.xml.rels", _relationships(links))
        z.writestr("xl/styles.xml", STYLES)
        for i, xml in enumerate(sheet_xml, 1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", xml)
        if strings is not None:
            z.writestr("xl/sharedStrings.xml", strings.xml())
    return path
