"""The standard spreadsheet functions, one module per Excel category.

:data:`FUNCTIONS` holds one record (:class:`Function`) for every function of Excel's catalogue
(:mod:`.catalogue`); importing this package gives the ones the engine computes their
parameters' classes and implementations. The FIDE functions are not here: the compiler calls
them through the cell layer.

May import: :mod:`fide_rating.engine.formula.values` and the standard library.
"""

from __future__ import annotations

from . import (
    arithmetic,
    arrays,
    bessel,
    complex_numbers,
    context,
    database,
    dates,
    depreciation,
    discrete,
    distributions,
    dynamic,
    engineering,
    financial,
    groupby,
    inference,
    information,
    logical,
    lookup,
    math_trig,
    matrices,
    odd_bonds,
    reference,
    regex,
    regression,
    securities,
    statistical,
    text,
    trig,
    units,
    web,
    whole,
)
from .base import FUNCTIONS, Function, Impl, bind, define

__all__ = [
    "FUNCTIONS",
    "Function",
    "Impl",
    "arithmetic",
    "arrays",
    "bessel",
    "bind",
    "complex_numbers",
    "context",
    "database",
    "dates",
    "define",
    "depreciation",
    "discrete",
    "distributions",
    "dynamic",
    "engineering",
    "financial",
    "groupby",
    "inference",
    "information",
    "logical",
    "lookup",
    "math_trig",
    "matrices",
    "odd_bonds",
    "reference",
    "regex",
    "regression",
    "securities",
    "statistical",
    "text",
    "trig",
    "units",
    "web",
    "whole",
]
