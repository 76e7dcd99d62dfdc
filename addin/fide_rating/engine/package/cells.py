"""A worksheet's cells read from its part: constants, formulas (a shared formula's followers
one object), the formulas' stored values, the shared strings, and the rows hidden by hand or
by a filter.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`.markup` and the standard
library.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from typing import Any

from ..formula import ERRORS, Value, XlError, col_letters, col_number
from ..formula.values import MAX_COLS, MAX_ROWS
from .archive import WorkbookError
from .markup import CELL, COLS, R_ATTR, ROW_EL, V, attributes, unescape, xstring

_IS_T = re.compile(rb"<(?:\w+:)?t\b[^>]*>(.*?)</(?:\w+:)?t>", re.S)
_SI = re.compile(rb"<(?:\w+:)?si(?:\s[^>]*)?(?<!/)>(.*?)</(?:\w+:)?si>|<(?:\w+:)?si\s*/>", re.S)
_SI_PLAIN = re.compile(rb'<si><t(?: xml:space="preserve")?>([^<]*)</t></si>')
_SI_ANY = re.compile(rb"<(?:\w+:)?si[\s>/]")


def shared_strings(parts: dict[str, bytes]) -> list[str]:
    raw = parts.get("xl/sharedStrings.xml", b"")
    plain = _SI_PLAIN.findall(raw)
    if len(plain) == len(_SI_ANY.findall(raw)):
        # every text a plain run (what Excel and most writers produce): one pass
        return [xstring(t) for t in plain]
    out = []
    for m in _SI.finditer(raw):
        body = m.group(1) or b""
        # rich text: the runs' texts; phonetic guides (rPh) are not part of the value
        body = re.sub(rb"<(?:\w+:)?rPh\b.*?</(?:\w+:)?rPh>", b"", body, flags=re.S)
        out.append("".join(xstring(t) for t in _IS_T.findall(body)))
    return out


@dataclass(slots=True)
class Formula:
    text: str | None  # None: a follower of a shared formula
    kind: str  # "", "shared", "array", "dataTable"
    shared: str | None
    ref: str | None = None  # an array formula's range (or a shared formula's)
    table: dict[str, str] | None = None  # a data table's attributes (r1, r2, dt2D, dtr ...)


_F_EL = re.compile(rb"<(?:\w+:)?f\b(?P<attrs>[^>]*?)(?:/>|>(?P<text>.*?)</(?:\w+:)?f>)", re.S)
# a cell in its parts: place, attributes, formula (its attributes and text), value, the rest
_CELL_PARTS = re.compile(
    rb'<c r="([A-Z]+)([0-9]+)"([^>]*?)(?:/>|>(?:(<f)([^>]*?)(?:/>|>([^<]*)</f>))?'
    rb"(?:(<v>)([^<]*)</v>)?(.*?)</c>)",
    re.S,
)


# the errors of Excel's rich values (MS-XLSX 2.3.6, structure "_error"), by errorType: one less
# than ERROR.TYPE's number; a cell holding one is written #VALUE! with a vm attribute
_RICH_ERRORS = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
                "#GETTING_DATA", "#SPILL!", "#CONNECT!", "#BLOCKED!", "#UNKNOWN!", "#FIELD!",
                "#CALC!")  # fmt: skip
_BK = re.compile(rb"<(?:\w+:)?bk\b[^>]*>(.*?)</(?:\w+:)?bk>", re.S)
_RC = re.compile(rb'<(?:\w+:)?rc\b[^>]*\bv="(\d+)"')
_RVB = re.compile(rb'<(?:\w+:)?rvb\b[^>]*\bi="(\d+)"')
_RV = re.compile(rb'<(?:\w+:)?rv\b[^>]*\bs="(\d+)"[^>]*>(.*?)</(?:\w+:)?rv>', re.S)
_S = re.compile(rb"<(?:\w+:)?s\b([^>]*)>(.*?)</(?:\w+:)?s>", re.S)
_K = re.compile(rb'<(?:\w+:)?k\b[^>]*\bn="([^"]*)"')
_RICH_FUTURE = re.compile(
    rb'<(?:\w+:)?futureMetadata\b[^>]*\bname="XLRICHVALUE"[^>]*>(.*?)</(?:\w+:)?futureMetadata>',
    re.S,
)
_VM_ERROR = re.compile(rb'<c r="([A-Z]+)([0-9]+)"[^>]*?\bt="e"[^>]*?\bvm="(\d+)"')


def rich_errors(parts: dict[str, bytes]) -> dict[int, XlError]:
    """The errors a cell's ``vm`` attribute (1-based) stands for, where Excel keeps an error
    other than the classic seven (#SPILL!, #CALC! ...) as a rich value: xl/metadata.xml's
    value metadata point into its rich value blocks, these into xl/richData/rdrichvalue.xml,
    whose ``_error`` values hold the error's type."""
    meta = parts.get("xl/metadata.xml", b"")
    values = parts.get("xl/richData/rdrichvalue.xml", b"")
    if not meta or not values:
        return {}
    structures = []
    for m in _S.finditer(parts.get("xl/richData/rdrichvaluestructure.xml", b"")):
        kind = attributes(m.group(1)).get("t", "")
        structures.append((kind, [k.decode() for k in _K.findall(m.group(2))]))
    rich: list[XlError | None] = []
    for m in _RV.finditer(values):
        s = int(m.group(1))
        found = None
        if s < len(structures) and structures[s][0] == "_error":
            texts = [v.group("text") or b"" for v in V.finditer(m.group(2))]
            fields = dict(zip(structures[s][1], texts, strict=False))
            kind = fields.get("errorType", b"").strip()
            if kind.isdigit() and int(kind) < len(_RICH_ERRORS):
                found = ERRORS.get(_RICH_ERRORS[int(kind)]) or XlError(_RICH_ERRORS[int(kind)])
        rich.append(found)
    found_future = _RICH_FUTURE.search(meta)  # not the metadataType of that name before it
    future = found_future.group(1) if found_future else b""
    blocks = [_RVB.search(b) for b in _BK.findall(future)]
    value_meta = meta.partition(b"<valueMetadata")[2].partition(b"</valueMetadata>")[0]
    out: dict[int, XlError] = {}
    for n, body in enumerate(_BK.findall(value_meta), 1):
        rc = _RC.search(body)
        if rc is None or int(rc.group(1)) >= len(blocks):
            continue
        block = blocks[int(rc.group(1))]
        if block is not None and int(block.group(1)) < len(rich):
            error = rich[int(block.group(1))]
            if error is not None:
                out[n] = error
    return out


def read_sheet(
    part: bytes,
    strings: list[str],
    *,
    keep_stored: bool = True,
    errors: dict[int, XlError] | None = None,
) -> tuple[
    dict[tuple[int, int], Value],
    dict[tuple[int, int], Formula],
    dict[tuple[int, int], Value],
    int,
    int,
]:
    """Constants, formulas and the formulas' stored values of one worksheet part (unless not
    ``keep_stored``: the plain formulas' then left out), and its extent (the last row and
    column with content); an error cell whose ``vm`` is among ``errors`` (:func:`rich_errors`)
    is that error."""
    seen: dict[bytes, Formula | tuple[Any, ...]] = {}
    constants: dict[tuple[int, int], Value] = {}
    formulas: dict[tuple[int, int], Formula] = {}
    stored: dict[tuple[int, int], Value] = {}
    cols = COLS
    cells = 0  # cells read, each stored once or empty: fewer stored means one written twice
    empty = 0
    plain = part.count(b"<c ")
    if plain == part.count(b'<c r="') and (plain or (b":c " not in part and b":c>" not in part)):
        # every cell says where it is, without a namespace prefix (Excel, LibreOffice, openpyxl):
        # one pattern takes the common shapes apart; anything else goes through _cell
        found_cells = _CELL_PARTS.findall(part)
        cells = len(found_cells)
        for letters, digits, attrs, fmark, fattrs, ftext, vmark, vtext, rest in found_cells:
            key = (int(digits), cols.get(letters) or col_number(letters.decode()))
            if fmark and not rest and not keep_stored:
                found = seen.get(fattrs)  # a shared formula's follower: its one object at once
                formulas[key] = found if isinstance(found, Formula) and not ftext else _formula(
                    fattrs, ftext, seen)  # fmt: skip
                continue
            i = attrs.find(b't="')
            kind = attrs[i + 3 : attrs.index(b'"', i + 3)] if i >= 0 else b"n"
            if rest:
                body = (b"<f" + fattrs + b">" + ftext + b"</f>" if fmark else b"") + (
                    b"<v>" + vtext + b"</v>" if vmark else b"") + rest  # fmt: skip
                empty += not _cell(key, kind, body, strings, constants, formulas, stored)
            elif fmark:
                found = seen.get(fattrs)  # a shared formula's follower: its one object at once
                formulas[key] = found if isinstance(found, Formula) and not ftext else _formula(
                    fattrs, ftext, seen)  # fmt: skip
                if keep_stored:
                    stored[key] = stored_value(kind, vtext, strings) if vmark else None
            elif vmark:
                if kind == b"n":
                    try:
                        constants[key] = float(vtext)
                        continue
                    except ValueError:
                        if not vtext.strip():  # <v></v>: a number cell without a number
                            empty += 1
                            continue
                elif kind == b"s":
                    constants[key] = shared(strings, vtext, key)
                    continue
                constants[key] = stored_value(kind, vtext, strings)
            else:
                empty += 1
    else:
        row = 0
        for rm in ROW_EL.finditer(part):
            r_attr = re.search(rb'\br="(\d+)"', rm.group("attrs"))
            row = int(r_attr.group(1)) if r_attr else row + 1
            col = 0
            for cm in CELL.finditer(rm.group("body") or b""):
                attrs = cm.group("attrs")
                ref = R_ATTR.search(attrs)
                col = col_number(ref.group(1).decode()) if ref else col + 1
                body = cm.group("body")
                cells += 1
                if body:
                    i = attrs.find(b't="')
                    kind = attrs[i + 3 : attrs.index(b'"', i + 3)] if i >= 0 else b"n"
                    empty += not _cell((row, col), kind, body, strings, constants, formulas,
                                       stored)  # fmt: skip
                else:
                    empty += 1
    if errors and b'vm="' in part:
        for letters, digits, vm in _VM_ERROR.findall(part):
            error = errors.get(int(vm))
            key = (int(digits), cols.get(letters) or col_number(letters.decode()))
            if error is not None and key in constants:
                constants[key] = error
            elif error is not None and key in stored:
                stored[key] = error
    if len(constants) + len(formulas) + empty != cells or not constants.keys().isdisjoint(
            formulas):  # fmt: skip
        raise WorkbookError(f"corrupt sheet: the cell {_twice(part)} is written twice in it")
    max_row = max(max((k[0] for k in constants), default=0),
                  max((k[0] for k in formulas), default=0))  # fmt: skip
    max_col = max(max((k[1] for k in constants), default=0),
                  max((k[1] for k in formulas), default=0))  # fmt: skip
    if max_row > MAX_ROWS or max_col > MAX_COLS:
        far = next(k for k in [*constants, *formulas] if k[0] > MAX_ROWS or k[1] > MAX_COLS)
        raise WorkbookError(
            f"corrupt sheet: the cell {col_letters(far[1])}{far[0]} is beyond Excel's grid "
            f"({MAX_ROWS:,} rows, {MAX_COLS:,} columns)"
        )
    return constants, formulas, stored, max_row, max_col


def shared(strings: list[str], index: bytes, key: tuple[int, int]) -> str:
    """The shared string a cell's ``<v>`` gives the number of; anything but the number of one
    of the workbook's strings is refused (Excel would say the file is corrupt)."""
    try:
        k = int(index)
    except ValueError:
        k = -1
    if 0 <= k < len(strings):
        return strings[k]
    raise WorkbookError(
        f"corrupt sheet: the cell {col_letters(key[1])}{key[0]} refers to shared string "
        f"{index.decode(errors='replace')[:20]!r}, and the workbook holds {len(strings):,} "
        f"(numbered from 0)"
    )


def _twice(part: bytes) -> str:
    """The first cell a sheet writes twice (found again, slowly: only for the message)."""
    seen: set[tuple[int, int]] = set()
    row = 0
    for rm in ROW_EL.finditer(part):
        r_attr = re.search(rb'\br="(\d+)"', rm.group("attrs"))
        row = int(r_attr.group(1)) if r_attr else row + 1
        col = 0
        for cm in CELL.finditer(rm.group("body") or b""):
            ref = R_ATTR.search(cm.group("attrs"))
            col = col_number(ref.group(1).decode()) if ref else col + 1
            key = (int(ref.group(2)) if ref else row, col)
            if key in seen:
                return f"{col_letters(key[1])}{key[0]}"
            seen.add(key)
    return "?"


def _formula(attrs: bytes, text: bytes, seen: dict[bytes, Formula | tuple[Any, ...]]) -> Formula:
    """A formula from its ``<f>`` attributes and text. The attributes are read once for all
    the cells that share them: every follower of a shared formula is one object."""
    known = seen.get(attrs)
    if known is None:
        a = attributes(attrs)
        kind = a.get("t", "")
        if not text and kind == "shared" and "ref" not in a:
            known = seen[attrs] = Formula(None, "shared", a.get("si"))
        else:
            table = a if kind == "dataTable" else None
            known = seen[attrs] = (kind, a.get("si"), a.get("ref"), table)
    if isinstance(known, Formula):
        return known
    if not text:
        return Formula(None, *known)
    shown = xstring(text) if b"&" in text or b"_x" in text or b"\r" in text else text.decode()
    return Formula(shown, *known)


def _cell(
    key: tuple[int, int],
    kind: bytes,
    body: bytes,
    strings: list[str],
    constants: dict[tuple[int, int], Value],
    formulas: dict[tuple[int, int], Formula],
    stored: dict[tuple[int, int], Value],
) -> bool:
    """Read one cell of any shape into its dictionary; whether it held anything."""
    fm = _F_EL.search(body)
    vm = V.search(body)
    vtext = vm.group("text") if vm and vm.group("text") is not None else None
    if kind == b"inlineStr":
        value: Value = "".join(xstring(x) for x in _IS_T.findall(body))
    elif vtext is None or (kind == b"n" and not vtext.strip()):  # no value, or <v></v>
        value = None
    elif kind == b"s" and fm is None:
        value = shared(strings, vtext, key)
    else:
        value = stored_value(kind, vtext, strings)
    if fm is not None:
        fa = attributes(fm.group("attrs"))
        text = fm.group("text")
        ftype = fa.get("t", "")
        formulas[key] = Formula(
            xstring(text) if text else None, ftype, fa.get("si"), fa.get("ref"),
            fa if ftype == "dataTable" else None,
        )  # fmt: skip
        stored[key] = value
        return True
    if value is not None:
        constants[key] = value
        return True
    return False


def stored_value(kind: bytes, vtext: bytes, strings: list[str]) -> Value:
    """A stored value from its type and ``<v>`` text."""
    if kind == b"n":
        try:
            return float(vtext)
        except ValueError:
            return unescape(vtext)
    if kind == b"s":
        try:
            k = int(vtext)
        except ValueError:
            return ERRORS["#REF!"]
        return strings[k] if 0 <= k < len(strings) else ERRORS["#REF!"]
    if kind == b"b":
        return vtext.strip() in (b"1", b"true")
    if kind == b"e":
        code = unescape(vtext)
        return ERRORS.get(code, XlError(code))
    if kind == b"d":
        return _iso_serial(unescape(vtext))
    return xstring(vtext)


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
