"""The XML of a package's parts, read with small regular expressions (no XML tree): the
patterns of a cell and its value, attributes, and XML text decoded.

May import: :mod:`fide_rating.engine.formula` (column letters) and the standard library.
"""

from __future__ import annotations

import re

from ..formula import col_letters

_ATTR = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')
# a cell in any shape (a namespace prefix, attributes in any order), its value, its place
CELL = re.compile(rb"<(?P<p>(?:\w+:)?)c\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?P=p)c>)", re.S)
V = re.compile(rb"<(?P<p>(?:\w+:)?)v(?:\s[^>]*)?>(?P<text>.*?)</(?P=p)v>|<(?:\w+:)?v\s*/>", re.S)
R_ATTR = re.compile(rb'\br="([A-Z]+)([0-9]+)"')
ROW_EL = re.compile(rb"<(?:\w+:)?row\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?:\w+:)?row>)", re.S)


def attributes(raw: bytes) -> dict[str, str]:
    """An element's attributes, by name."""
    return {k.decode(): v.decode() for k, v in _ATTR.findall(raw)}


_CHAR_REF = re.compile(r"&#(x[0-9A-Fa-f]+|[0-9]+);")
_XCHAR = re.compile(r"_x([0-9A-Fa-f]{4})_")


def unescape(text: bytes) -> str:
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


def xstring(text: bytes) -> str:
    """A cell's text (ST_Xstring): XML decoded, then ``_xHHHH_`` escapes, by which Excel
    writes the characters XML cannot hold (``_x000D_`` a CR, ``_x005F_`` a literal ``_``); a
    plain text (the usual case) taken as it is."""
    if b"&" not in text and b"_x" not in text and b"\r" not in text:
        return text.decode()
    out = unescape(text)
    return _XCHAR.sub(lambda m: chr(int(m.group(1), 16)), out) if "_x" in out else out


COLS = {col_letters(n).encode(): n for n in range(1, 703)}  # A .. ZZ
