"""Values written into a worksheet part: the ``<v>`` and ``t`` of formula cells replaced by
their computed values (nothing else in the part touched), and constant cells set.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`fide_rating.engine.xlsxout`,
:mod:`.markup`, :mod:`.cells` and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping
from dataclasses import dataclass
from typing import Any

from ..formula import Value, XlError, col_letters, col_number
from ..xlsxout import text as xml_text
from .cells import chunks, stored_value
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


@dataclass(frozen=True, slots=True)
class Formulas:
    """The values of one sheet's formula cells, read straight from the book's dictionaries
    (the quick way to a million of them): ``results`` by (sheet, row, column), less those in
    ``failed``, and a cell holding no formula only where ``compiled`` has it (a cell of an
    array formula's range); ``count`` of them to write."""

    sheet: str
    results: Mapping[tuple[str, int, int], Value]
    failed: Container[tuple[str, int, int]]
    compiled: Container[tuple[str, int, int]]
    count: int


def patch_part(
    part: bytes,
    values: Mapping[tuple[int, int], Value],
    formulas: Formulas | None = None,
) -> tuple[bytes, int]:
    """The worksheet part with the ``<v>`` and ``t`` of the given formula cells replaced (the
    cells of an array formula's range too, which hold only a value), and how many of them hold
    another value than before. The cells as Excel writes them are taken apart by one pattern;
    any other shape (a namespace prefix, more in the cell) by the general one. ``formulas`` is
    a quicker way to the same values."""
    if part.count(b"<c ") == part.count(b'<c r="'):
        if formulas is None:
            formulas = Formulas("", {("", r, c): v for (r, c), v in values.items()}, (),
                                {("", r, c) for r, c in values}, len(values))  # fmt: skip
        done = _fast(part, formulas)
        if done is not None:
            return done
    changed = 0  # a cell of another shape among them: the general way, for all

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

    return CELL.sub(sub, part), changed


def _fast(part: bytes, formulas: Formulas) -> tuple[bytes, int] | None:
    """:func:`patch_part` for the cells as Excel writes them, a span of the part at a time
    (only that span's pieces held at once); None where a cell to write is of another shape."""
    sheet, get, failed, compiled = (formulas.sheet, formulas.results.get, formulas.failed,
                                    formulas.compiled)  # fmt: skip
    changed = patched = 0
    cols, keep = COLS, _KEEP
    spans = []
    for start, end in chunks(part):
        pieces = _PATCH.split(part[start:end])
        it = iter(pieces)
        out = [next(it)]
        add = out.append
        for letters, digits, attrs, formula, v, space, old, gap in zip(*[it] * 8, strict=False):
            if old is None and formula is None:
                add(keep % (letters, digits, attrs, v or b"", gap))
                continue
            key = (sheet, int(digits), cols.get(letters) or col_number(letters.decode()))
            value: Any = get(key, _NO)
            if value is _NO or (failed and key in failed) or (formula is None
                                                             and key not in compiled):  # fmt: skip
                add(keep % (letters, digits, attrs, (formula or b"") + (v or b""), gap))
                continue
            patched += 1
            if value.__class__ is float and not attrs:  # the usual case: a number, as before
                text = (b"%d" % value if value.is_integer() and -1e15 < value < 1e15
                        else b"%r" % value)  # fmt: skip
                changed += old != text  # (no value before: None)
                add(_NEW % (letters, digits, b"", formula or b"", space or b"", text, gap))
                continue
            if value.__class__ is float:  # as _value_xml writes it
                t = None
                text = (b"%d" % value if value.is_integer() and -1e15 < value < 1e15
                        else b"%r" % value)  # fmt: skip
            else:
                t, text = _value_xml(value)
            i = attrs.find(b't="') if attrs else -1
            old_t = attrs[i + 3 : attrs.index(b'"', i + 3)] if i >= 0 else b"n"
            if old is None or (old != text if t is None and old_t == b"n" else (
                    stored_value(old_t, old, []) != value
                    or (old_t == b"n") != (t is None))):  # fmt: skip
                changed += 1
            kind = _T_ATTR.sub(b"", attrs) if i >= 0 else attrs
            if t is not None:
                kind += b' t="' + t + b'"'
            add(_NEW % (letters, digits, kind, formula or b"", space or b"", text, gap))
        spans.append(b"".join(out))
        del pieces, out
    if patched != formulas.count:
        return None
    return b"".join(spans), changed


_NO = object()  # no value to write in a cell
# a cell as Excel writes it: place, attributes, formula element, value element (its space
# attribute, its text); a text with spaces at either end: <v xml:space="preserve">, kept
_PATCH = re.compile(
    rb'<c r="([A-Z]+)([0-9]+)"([^>]*)>(<f\b[^>]*(?:(?<=/)>|(?<!/)>[^<]*</f>))?'
    rb'(<v( xml:space="preserve")?>([^<]*)</v>|<v\s*/>)?</c>'
)  # greedy attributes to the ">" (a "/" before it: an empty element), as in .cells
_KEEP = b'<c r="%s%s"%s>%s</c>%s'  # a cell as it was, and what follows it
_NEW = b'<c r="%s%s"%s>%s<v%s>%s</v></c>%s'  # a cell with its new value


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
