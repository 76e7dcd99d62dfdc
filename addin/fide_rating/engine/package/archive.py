"""The package itself: a zip of XML parts, read whole into memory (checked against hostile
files: too many parts, too large, zip bombs, entity declarations, more cells or formulas than
one workbook may hold) and written back part by part, in its order, with its zip headers.

May import: :mod:`fide_rating.files` and the standard library.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import zipfile
from pathlib import Path

from ...files import atomic, open_regular

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
    seen: set[str] = set()
    total = 0
    for info in infos:
        if info.filename in seen:  # which of the two is the part? Excel's answer: neither
            raise WorkbookError(f"corrupt workbook package: part {info.filename} is there twice")
        seen.add(info.filename)
        if info.flag_bits & 0x1:
            raise WorkbookError(
                f"encrypted part {info.filename} in the package: save the workbook again "
                "without a password"
            )
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
        if part.startswith("xl/") and part.endswith((".xml", ".rels")):
            check_text(part, content)
    if "xl/workbook.xml" not in parts and not any(p.endswith("workbook.xml") for p in parts):
        if "content.xml" in parts and "mimetype" in parts:
            raise WorkbookError(
                "an OpenDocument (.ods) file: open it in LibreOffice to recalculate"
            )
        raise WorkbookError("not a workbook: no xl/workbook.xml in the package")
    return infos, parts


_CHUNK = 1 << 20
_CHAR_REF = re.compile(rb"&#(x[0-9A-Fa-f]+|[0-9]+);")


def check_text(part: str, content: bytes) -> None:
    """Refuse an XML part the engine reads that is not text XML allows: bytes that are not
    UTF-8 (Excel writes every part in UTF-8), or a character reference to no character XML 1.0
    allows (``&#x110000;``, ``&#0;``); the message names the part and the byte."""
    if not content.isascii():
        decoder = codecs.getincrementaldecoder("utf-8")()
        for at in range(0, len(content), _CHUNK):
            try:
                decoder.decode(content[at : at + _CHUNK], at + _CHUNK >= len(content))
            except UnicodeDecodeError as error:
                where = at + error.start
                raise WorkbookError(
                    f"corrupt workbook package: part {part} is not UTF-8 text at byte "
                    f"{where:,} ({content[where : where + 1].hex()})"
                ) from None
    if b"&#" not in content:
        return
    for m in _CHAR_REF.finditer(content):
        digits = m.group(1)
        code = -1  # a reference of more digits than any character has: none
        if len(digits) <= 9:
            code = int(digits[1:], 16) if digits.startswith(b"x") else int(digits)
        if not _xml_char(code):
            shown = m.group().decode()
            raise WorkbookError(
                f"corrupt workbook package: part {part} has the character reference "
                f"{shown[:16]} at byte {m.start():,}, which is no character XML allows"
            )


def _xml_char(code: int) -> bool:
    """Whether a code point is a character of XML 1.0 (its production Char)."""
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


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
    contents = [parts[part] for part in dict.fromkeys(sheets.values())]
    # at most as many as "<c" and ":c" (``<cols``, ``<x:c``) start: under the limits, no more
    # counting (each count a pass over the part); else the tags themselves counted
    cells = sum(content.count(b"<c") + content.count(b":c") for content in contents)
    formulas = sum(content.count(b"<f") + content.count(b":f") for content in contents)
    if cells <= MAX_CELLS and formulas <= MAX_FORMULAS:
        return
    cells = sum(_tags(content, b"c") for content in contents)
    formulas = sum(_tags(content, b"f") for content in contents)
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
