"""The formula language: Excel formula text compiled once per shape to Python closures.

Formulas that differ only in their relative references (``=B5+C5`` in row 5, ``=B6+C6`` in
row 6) share one compiled closure: references are kept as offsets from the formula's own cell,
so a crosstable of thousands of formulas compiles a few dozen. Values follow the spreadsheet
conventions: numbers are floats, a blank cell is ``None``, texts are ``str``, logicals ``bool``,
errors :class:`XlError`.

* :mod:`.values`: the value types and the operators' coercions;
* :mod:`.parser`: tokens and the syntax tree;
* :mod:`.compiler`: the tree to closures; the FIDE functions through :mod:`fide_rating.cells`;
* :mod:`fide_rating.engine.functions`: the standard functions, by Excel's categories.

Anything the engine cannot evaluate raises :class:`Unsupported` at compile time, so the caller
can leave that cell as it was.
"""

from __future__ import annotations

from .compiler import Compiler
from .parser import col_letters, col_number, tokenize
from .values import ERRORS, Area, Array, Book, Fn, Result, Unsupported, Value, XlError, scalar

__all__ = [
    "ERRORS",
    "Area",
    "Array",
    "Book",
    "Compiler",
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
