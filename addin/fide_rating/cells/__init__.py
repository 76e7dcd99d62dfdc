"""The cell layer and its hosts: spreadsheet values in, FIDE figures or a short error text out.

Owns: coercing what a spreadsheet hands over (:mod:`.coerce`), the spreadsheet functions
(:mod:`.functions`), their registry and :func:`call` (:mod:`.registry`), and every host generated
from that registry: xlwings (:mod:`.excel`), the xlwings Lite bundle (:mod:`.lite`), the
LibreOffice Calc add-in (:mod:`.calc`) and the generator itself (:mod:`.generate`).

May import: :mod:`fide_rating.rules` and the standard library; only the host modules import
their host (xlwings in :mod:`.excel`, UNO in :mod:`.calc.office`). This ``__init__`` imports the
dependency-free modules only: the add-ins pack them alone.
"""

from __future__ import annotations

from .coerce import PREFIX, CellError, CellResult, CellValue
from .registry import BY_NAME, REGISTRY, Function, Param, call

__all__ = [
    "BY_NAME",
    "PREFIX",
    "REGISTRY",
    "CellError",
    "CellResult",
    "CellValue",
    "Function",
    "Param",
    "call",
]
