"""Web functions (Excel's category) that need no network: FILTERXML.

WEBSERVICE fetches from the internet and is not computed (reported, as Excel's other functions
recalc lacks). FILTERXML is mostly used to cut a text into pieces
(``FILTERXML("<t><s>"&SUBSTITUTE(A1,",","</s><s>")&"</s></t>","//s")``): the text is read as
XML with no document type (an entity declaration is refused, so a cell's text can never expand
or reach outside the workbook), and the XPath is the part of XPath 1.0 that selects elements
by name, position and attribute, then an element's text, an attribute's value or ``text()``.
What reads otherwise (a comparison in a predicate, a function) is reported, never guessed.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..formula.coerce import read_number
from ..formula.values import VALUE, Book, Result, Unsupported, Value
from .base import define

# Excel's documentation of WorksheetFunction.FilterXML: "The XPath parameter is limited to
# 1024 characters"
MAX_XPATH = 1024

_PLAIN = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_STEP = re.compile(
    r"(?:\*|[^\W\d][\w.\-]*)(?:\[(?:\d+|last\(\)(?:-\d+)?|@[\w.\-]+(?:='[^']*')?)\])*"
)
_TAIL = re.compile(r"/(@[^\W\d][\w.\-]*|text\(\))$")


@define("FILTERXML", "s s")
def _filterxml(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The texts (a number where one is written plainly) the XPath selects in the XML: one
    value, or a column of them; #VALUE! for XML that is not well-formed, an XPath that is not
    one, or nothing selected."""
    xml, xpath = str(args[0]), str(args[1])
    if len(xpath) > MAX_XPATH or not xpath.strip():
        return VALUE
    if "<!" in xml.replace("<![CDATA[", ""):  # a document type or a declaration: never read
        return VALUE
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return VALUE
    texts = _select(root, xpath.strip())
    if not texts:
        return VALUE
    values = [_value(t) for t in texts]
    return values[0] if len(values) == 1 else [[v] for v in values]


def _select(root: ET.Element, xpath: str) -> list[str]:
    """The string values the XPath selects, in document order."""
    tail = _TAIL.search(xpath)
    path = xpath[: tail.start()] if tail else xpath
    if path.startswith("//"):
        rest, start = path[2:], ".//"
    elif path.startswith("/"):
        rest, start = path[1:], "./"
    else:
        raise Unsupported(f"FILTERXML with an XPath relative to no node: {xpath[:60]}")
    steps = rest.split("//") if rest else []
    for piece in steps:
        for step in piece.split("/"):
            if not _STEP.fullmatch(step):
                raise Unsupported(f"FILTERXML with an XPath recalc does not read: {xpath[:60]}")
    document = ET.Element("\0document")  # the document node above the root element
    document.append(root)
    try:
        found = document.findall(start + rest) if rest else [root]
    except (SyntaxError, KeyError) as e:
        raise Unsupported(f"FILTERXML with an XPath recalc does not read: {xpath[:60]}") from e
    if tail is None or tail.group(1) == "text()":
        if tail is not None:
            texts = [e.text for e in found if e.text]
        else:
            texts = ["".join(e.itertext()) for e in found]
    else:
        name = tail.group(1)[1:]
        texts = [e.attrib[name] for e in found if name in e.attrib]
    if any(not t for t in texts):  # Excel's way with an empty element is not documented
        raise Unsupported("FILTERXML selecting an empty element")
    return texts


def _value(text: str) -> Value:
    """A number where the text is a plain one; a text that reads as a number only in some
    country's settings (a date, a thousands separator, a currency) is reported."""
    if _PLAIN.fullmatch(text.strip()):
        return float(text)
    if read_number(text) is not None:
        raise Unsupported(
            f"FILTERXML of {text[:30]!r}, which Excel reads by its country's settings"
        )
    return text
