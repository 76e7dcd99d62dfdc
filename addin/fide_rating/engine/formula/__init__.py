"""The formula language: Excel formula text read into a tree, and the values it computes with
(compiled once per shape to Python closures by :mod:`fide_rating.engine.compiler`).

Formulas that differ only in their relative references (``=B5+C5`` in row 5, ``=B6+C6`` in
row 6) share one compiled closure: references are kept as offsets from the formula's own cell,
so a crosstable of thousands of formulas compiles a few dozen. Values follow the spreadsheet
conventions: numbers are floats, a blank cell is ``None``, texts are ``str``, logicals ``bool``,
errors :class:`XlError`.

* :mod:`.values`: the value types; :mod:`.coerce`: the operators' coercions;
* :mod:`.parser`: tokens and the syntax tree;
* :mod:`.structured`: Excel tables' structured references, rewritten as ranges.

Anything the engine cannot evaluate raises :class:`Unsupported` at compile time, so the caller
can leave that cell as it was.
"""

from __future__ import annotations

from .parser import col_letters, col_number, tokenize
from .values import ERRORS, Area, Array, Book, Fn, Result, Unsupported, Value, XlError, scalar

__all__ = [
    "ERRORS",
    "Area",
    "Array",
    "Book",
    "Fn",
    "Result",
    "Unsupported",
    "Value",
    "XlError",
    "col_letters",
    "col_number",
    "scalar",
    "tokenize",
]
