"""The standard spreadsheet functions, one module per Excel category.

:data:`FUNCTIONS` maps each name to its implementation; importing this package registers every
category. The FIDE functions are not here: the compiler calls them through the cell layer.

May import: :mod:`fide_rating.engine.formula.values` and the standard library.
"""

from __future__ import annotations

from . import (
    dates,
    engineering,
    financial,
    information,
    logical,
    lookup,
    math_trig,
    statistical,
    text,
    units,
)
from .base import FUNCTIONS, REFERENCES, UNION_TAKERS, Impl, arity, register

__all__ = [
    "FUNCTIONS",
    "REFERENCES",
    "UNION_TAKERS",
    "Impl",
    "arity",
    "dates",
    "engineering",
    "financial",
    "information",
    "logical",
    "lookup",
    "math_trig",
    "register",
    "statistical",
    "text",
    "units",
]
