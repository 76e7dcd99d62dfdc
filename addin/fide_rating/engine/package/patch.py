"""Values written into a worksheet part: the ``<v>`` and ``t`` of formula cells replaced by
their computed values (nothing else in the part touched), and constant cells set.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`fide_rating.engine.xlsxout`,
:mod:`.markup`, :mod:`.cells` and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..formula import Value, XlError, col_letters, col_number
from ..xlsxout import text as xml_text
from .cells import stored_value
from .markup import CELL, COLS, R_ATTR, ROW_EL, V

_F = re.compile(rb"<(?:\w+:)?f[\s>/]")
_T_ATTR = re.compile(rb'\s+t="[^"]*"')


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


def _cell_key(m: re.Match[bytes]) -> tuple[int, int] | None:
    """A matched cell's (row, column), from its r attribute; None without one."""
    r = R_ATTR.search(m.group("attrs"))
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
        letters, digits, attrs, formula, space, old = m.groups()
        if formula is None and old is None:
            return m.group()
        col = COLS.get(letters) or col_number(letters.decode())
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
                stored_value(old_t, old, []) != value
                or (old_t == b"n") != (t is None))):  # fmt: skip
            changed += 1
        if i >= 0:
            attrs = _T_ATTR.sub(b"", attrs)
        if t is not None:
            attrs += b' t="' + t + b'"'
        return (b'<c r="' + letters + digits + b'"' + attrs + b">" + (formula or b"") + b"<v"
                + (space or b"") + b">" + text + b"</v></c>")  # fmt: skip

    def sub(m: re.Match[bytes]) -> bytes:
        nonlocal changed
        body = m.group("body")
        if not body or not (_F.search(body) or V.search(body)):
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
        if V.search(body):
            body = V.sub(lambda _: new_v, body, count=1)
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
    return CELL.sub(sub, part), changed


NO = object()  # no value to write in a cell
# a cell as Excel writes it: place, attributes, formula element, value text
_PATCH = re.compile(
    rb'<c r="([A-Z]+)([0-9]+)"([^>]*?)>(<f\b[^>]*?(?:/>|>[^<]*</f>))?'
    rb'(?:<v( xml:space="preserve")?>([^<]*)</v>|<v\s*/>)?</c>'
)  # a text with spaces at either end: <v xml:space="preserve">, kept as it is


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
        r = R_ATTR.search(m.group("attrs"))
        assert r is not None  # a key was found
        if m.group("body") and _F.search(m.group("body")):
            todo.pop(key)
            return m.group()  # a formula stays a formula
        ref = r.group(1) + r.group(2)
        return _constant_xml(m.group("p"), ref, m.group("attrs"), todo.pop(key))

    part = CELL.sub(cell, part)
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
                (x.start() for x in CELL.finditer(body)
                 if (rr := R_ATTR.search(x.group("attrs"))) is not None
                 and col_number(rr.group(1).decode()) > c),
                len(body),
            )  # fmt: skip
            body = body[:after] + new + body[after:]
            del todo[(here, c)]
        return b"<" + p + b"row" + m.group("attrs") + b">" + body + b"</" + p + b"row>"

    part = ROW_EL.sub(row, part)
    return part, [f"{col_letters(c)}{r}" for r, c in sorted(todo)]
