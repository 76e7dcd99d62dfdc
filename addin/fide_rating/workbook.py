"""Headless recomputation of .xlsx/.xlsm workbooks.

openpyxl reads the cells, formulas and defined names; :mod:`fide_rating.formula` evaluates
every formula; then the package is written back part by part: every part is copied byte for
byte except the worksheets, and in a worksheet only the value (``<v>``) and type (``t``) of the
formula cells change. Nothing openpyxl cannot keep (shapes, sparklines, extensions, VBA, ...) is
ever lost, because the package is never re-serialised by openpyxl; and a formula the engine
cannot evaluate keeps its cell exactly as it was.
"""

from __future__ import annotations

import datetime as _dt
import io
import os
import posixpath
import re
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from .formula import (
    ERRORS,
    Compiler,
    Fn,
    Unsupported,
    Value,
    XlError,
    col_letters,
    scalar,
)

# limits against hostile packages
MAX_PARTS = 10_000
MAX_TOTAL = 1 << 30  # 1 GiB unpacked
MAX_RATIO = 200  # unpacked / packed, per part, above 1 MiB
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


class WorkbookError(Exception):
    """A file that cannot be recomputed: not a workbook, encrypted, corrupt or hostile."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A formula cell left as it was, and why."""

    sheet: str
    cell: str
    reason: str

    def __str__(self) -> str:
        return f"{self.sheet}!{self.cell}: {self.reason}"


@dataclass
class Recalculated:
    """The outcome for one workbook."""

    source: Path
    output: Path | None = None
    formulas: int = 0
    computed: int = 0
    changed: int = 0
    problems: list[Problem] = field(default_factory=list)
    values: dict[tuple[str, int, int], Value] = field(default_factory=dict)
    players: list[dict[str, Value]] = field(default_factory=list)


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


def _unescape(text: bytes) -> str:
    return (
        text.decode("utf-8")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&amp;", "&")
    )


def _col_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


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
        raise WorkbookError(f"refused: the package unpacks to {total >> 20} MiB (zip bomb?)")
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
        if part.endswith((".xml", ".rels", ".vml")) and re.search(
            rb"<!(?:DOCTYPE|ENTITY)", content[:65536]
        ):
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


def _decode_cached(attrs: bytes, body: bytes) -> Value:
    m = _V.search(body)
    if m is None or m.group("text") is None:
        return None
    text = _unescape(m.group("text"))
    t = re.search(rb'\bt="([^"]*)"', attrs)
    kind = t.group(1).decode() if t else "n"
    if kind == "b":
        return text.strip() == "1"
    if kind == "e":
        return ERRORS.get(text, XlError(text))
    if kind in ("str", "inlineStr", "s"):
        return text
    try:
        return float(text)
    except ValueError:
        return text


def cached_formula_values(part: bytes) -> dict[tuple[int, int], Value]:
    """(row, col) -> the value stored with each formula cell of a worksheet part."""
    out: dict[tuple[int, int], Value] = {}
    for m in _CELL.finditer(part):
        body = m.group("body")
        if not body or not _F.search(body):
            continue
        r = _R_ATTR.search(m.group("attrs"))
        if r is None:
            continue
        out[(int(r.group(2)), _col_number(r.group(1).decode()))] = _decode_cached(
            m.group("attrs"), body
        )
    return out


def _value_xml(value: Value) -> tuple[bytes | None, bytes]:
    """The ``t`` attribute (None for a number) and the ``<v>`` text of a computed value."""
    if isinstance(value, bool):
        return b"b", b"1" if value else b"0"
    if isinstance(value, XlError):
        return b"e", value.code.encode()
    if isinstance(value, str):
        return b"str", escape(value).encode("utf-8")
    if value is None:
        value = 0.0
    x = float(value)
    text = str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)
    return None, text.encode()


def patch_part(part: bytes, values: dict[tuple[int, int], Value]) -> bytes:
    """The worksheet part with the ``<v>`` and ``t`` of the given formula cells replaced."""

    def sub(m: re.Match[bytes]) -> bytes:
        body = m.group("body")
        if not body or not _F.search(body):
            return m.group()
        r = _R_ATTR.search(m.group("attrs"))
        if r is None:
            return m.group()
        key = (int(r.group(2)), _col_number(r.group(1).decode()))
        if key not in values:
            return m.group()
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

    return _CELL.sub(sub, part)


def write_package(infos: list[zipfile.ZipInfo], parts: dict[str, bytes], target: Path) -> None:
    """Write the parts in their order, with their zip headers, atomically into ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as raw, zipfile.ZipFile(raw, "w") as out:
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
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --- evaluation ---------------------------------------------------------------------------


class Circular(Exception):  # noqa: N818 - reads as what it reports
    """A formula that depends on itself."""


_MISSING = object()


class Book:
    """The cells of a workbook for the formula engine: constants, formulas, results."""

    def __init__(self) -> None:
        self.constants: dict[tuple[str, int, int], Value] = {}
        self.compiled: dict[tuple[str, int, int], Fn] = {}
        self.results: dict[tuple[str, int, int], Value] = {}
        self.extents: dict[str, tuple[int, int]] = {}
        self.active: set[tuple[str, int, int]] = set()
        self.sheets: dict[str, str] = {}  # upper-case name -> name

    def extent(self, sheet: str) -> tuple[int, int]:
        return self.extents.get(self._sheet(sheet), (0, 0))

    def _sheet(self, sheet: str) -> str:
        return self.sheets.get(sheet.upper(), sheet)

    def value(self, sheet: str, row: int, col: int) -> Value:
        key = (sheet, row, col)
        found = self.results.get(key, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        f = self.compiled.get(key)
        if f is None:
            if sheet not in self.extents:
                real = self.sheets.get(sheet.upper())
                if real is None:
                    return ERRORS["#REF!"]
                return self.value(real, row, col)
            return self.constants.get(key)
        if key in self.active:
            raise Circular(f"{sheet}!{col_letters(col)}{row}")
        self.active.add(key)
        try:
            v = scalar(self, f(self, sheet, row, col), row, col)
        finally:
            self.active.discard(key)
        if v is None:
            v = 0.0  # a formula showing an empty cell shows 0
        elif isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        self.results[key] = v
        return v


def _constant(cell: Any, epoch: _dt.datetime) -> Value:
    v = cell.value
    if v is None:
        return None
    if isinstance(v, bool | str):
        return v
    if isinstance(v, int | float):
        return float(v)
    if isinstance(v, _dt.datetime | _dt.date):
        moment = v if isinstance(v, _dt.datetime) else _dt.datetime(v.year, v.month, v.day)
        delta = moment - epoch
        return delta.days + delta.seconds / 86400 + delta.microseconds / 86_400_000_000
    if isinstance(v, _dt.time):
        return (v.hour * 3600 + v.minute * 60 + v.second) / 86400
    if isinstance(v, _dt.timedelta):
        return v.total_seconds() / 86400
    return str(v)


def evaluate(
    data: bytes, source: Path
) -> tuple[Recalculated, list[zipfile.ZipInfo], dict[str, bytes]]:
    """Evaluate every formula of a workbook given as bytes; the patched parts come back."""
    import openpyxl  # the workbook layer's one dependency, imported where it is needed
    from openpyxl.cell.cell import TYPE_ERROR, TYPE_FORMULA
    from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

    infos, parts = read_package(data, source.name)
    where = sheet_parts(parts)
    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False, keep_links=False)
    except Exception as error:  # openpyxl raises many kinds on broken packages
        raise WorkbookError(f"cannot read the workbook ({type(error).__name__}: {error})") from None
    epoch = _dt.datetime(1904, 1, 1) if wb.epoch.year == 1904 else _dt.datetime(1899, 12, 30)
    names: dict[str, str] = {}
    for name, defined in wb.defined_names.items():
        if defined.value and not defined.is_external:
            names[name] = defined.value
    book = Book()
    compiler = Compiler(names)
    outcome = Recalculated(source)
    pending: list[tuple[str, int, int]] = []
    cached: dict[str, dict[tuple[int, int], Value]] = {}
    for ws in wb.worksheets:
        title = ws.title
        book.sheets[title.upper()] = title
        book.extents[title] = (ws.max_row, ws.max_column)
        part = where.get(title)
        cached[title] = cached_formula_values(parts[part]) if part else {}
        for line in ws.iter_rows():
            for cell in line:
                if cell.value is None:
                    continue
                key = (title, cell.row, cell.column)
                if cell.data_type == TYPE_FORMULA:
                    outcome.formulas += 1
                    text = cell.value
                    here = f"{cell.column_letter}{cell.row}"
                    if isinstance(text, ArrayFormula | DataTableFormula) or not isinstance(
                        text, str
                    ):
                        kind = "array formula" if isinstance(text, ArrayFormula) else "data table"
                        outcome.problems.append(Problem(title, here, f"{kind}s are not evaluated"))
                        book.results[key] = cached[title].get((cell.row, cell.column))
                        continue
                    try:
                        book.compiled[key] = compiler.compile(text[1:], cell.row, cell.column)
                        pending.append(key)
                    except Unsupported as error:
                        outcome.problems.append(Problem(title, here, str(error)))
                        book.results[key] = cached[title].get((cell.row, cell.column))
                elif cell.data_type == TYPE_ERROR:
                    book.constants[key] = ERRORS.get(str(cell.value), XlError(str(cell.value)))
                else:
                    book.constants[key] = _constant(cell, epoch)
    for chart in wb.chartsheets:
        book.sheets[chart.title.upper()] = chart.title
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    failed: set[tuple[str, int, int]] = set()
    try:
        for key in pending:
            try:
                book.value(*key)
            except Circular as error:
                failed.add(key)
                outcome.problems.append(
                    Problem(
                        key[0],
                        f"{col_letters(key[2])}{key[1]}",
                        f"circular reference through {error}",
                    )
                )
            except RecursionError:
                failed.add(key)
                outcome.problems.append(
                    Problem(key[0], f"{col_letters(key[2])}{key[1]}", "dependency chain too deep")
                )
    finally:
        sys.setrecursionlimit(old_limit)
    per_sheet: dict[str, dict[tuple[int, int], Value]] = {}
    for key in pending:
        if key in failed or key not in book.results:
            continue
        sheet, row, col = key
        value = book.results[key]
        outcome.values[key] = value
        outcome.computed += 1
        if _differs(cached[sheet].get((row, col)), value):
            outcome.changed += 1
        per_sheet.setdefault(sheet, {})[(row, col)] = value
    for sheet, values in per_sheet.items():
        part = where.get(sheet)
        if part is not None:
            parts[part] = patch_part(parts[part], values)
    outcome.players = _players(wb, book)
    return outcome, infos, parts


def _differs(old: Value, new: Value) -> bool:
    if isinstance(old, float) and isinstance(new, float):
        return old != new
    return old != new or type(old) is not type(new)


def _players(wb: Any, book: Book) -> list[dict[str, Value]]:
    """The player table of a fide-rating template (the defined name FIDE_PLAYERS), if any."""
    defined = wb.defined_names.get("FIDE_PLAYERS")
    if defined is None:
        return []
    try:
        (sheet, ref), *_ = defined.destinations
    except ValueError:
        return []
    m = re.fullmatch(r"\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)", ref)
    if m is None:
        return []
    c1, r1, c2, r2 = (
        _col_number(m.group(1)),
        int(m.group(2)),
        _col_number(m.group(3)),
        int(m.group(4)),
    )
    header = [book.value(sheet, r1, c) for c in range(c1, c2 + 1)]
    rows = []
    for r in range(r1 + 1, r2 + 1):
        line = {
            str(h): book.value(sheet, r, c) for h, c in zip(header, range(c1, c2 + 1), strict=True)
        }
        if any(v not in (None, "") for k, v in line.items() if k in ("Name", "FIDE ID")):
            rows.append(line)
    return rows


def output_path(source: Path, out_dir: Path | None, in_place: bool) -> Path:
    """Where a recomputed workbook goes: next to the input as NAME.recalc.xlsx, into the
    output folder under its own name, or over the input with ``in_place``."""
    if in_place:
        return source
    if out_dir is not None:
        return out_dir / source.name
    return source.with_name(f"{source.stem}.recalc{source.suffix}")


def recalc_file(
    source: Path, *, out_dir: Path | None = None, in_place: bool = False
) -> Recalculated:
    """Recompute one workbook and write it (atomically; never over the input unless in place)."""
    if source.suffix.lower() not in (".xlsx", ".xlsm"):
        if source.suffix.lower() == ".ods":
            raise WorkbookError(
                "an OpenDocument (.ods) file: open it in LibreOffice to recalculate"
            )
        if source.suffix.lower() == ".xls":
            raise WorkbookError("the old .xls format: save it as .xlsx first")
    try:
        data = source.read_bytes()
    except OSError as error:
        raise WorkbookError(f"cannot read the file ({error.strerror})") from None
    outcome, infos, parts = evaluate(data, source)
    target = output_path(source, out_dir, in_place)
    if not in_place and target.resolve() == source.resolve():
        raise WorkbookError("the output would overwrite the input: use --in-place to allow that")
    write_package(infos, parts, target)
    outcome.output = target
    return outcome


def iter_sources(paths: Iterable[str]) -> list[Path]:
    """Files from paths, folders (their workbooks) and glob patterns, in a stable order."""
    import glob

    out: list[Path] = []
    for raw in paths:
        matched = (
            sorted(glob.glob(raw, recursive=True)) if any(ch in raw for ch in "*?[") else [raw]
        )
        for item in matched or [raw]:
            p = Path(item)
            if p.is_dir():
                out += sorted(q for q in p.iterdir() if q.suffix.lower() in (".xlsx", ".xlsm"))
            else:
                out.append(p)
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    return unique
