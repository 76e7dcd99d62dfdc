"""The workbook package (.xlsx, .xlsm): its parts read and written directly, byte for byte.

A workbook is a zip of XML parts (:mod:`.archive`: read whole, checked against hostile files,
written back in its order). The workbook part says where the sheets are and what the names
are (:mod:`.workbook`); each sheet's cells are read with small regular expressions, no XML
tree, a 500-player crosstable in one pass (:mod:`.cells`); a package is written back with only
the value (``<v>``) and type (``t``) of formula cells changed (:mod:`.patch`). Every other
part is copied as it was, so nothing a workbook holds is ever dropped.

May import: :mod:`fide_rating.engine.formula` (values and references),
:mod:`fide_rating.engine.xlsxout`, :mod:`fide_rating.files` and the standard library.
"""

from __future__ import annotations

from .archive import WorkbookError, check_totals, read_file, read_package, write_package
from .cells import hidden_rows, read_sheet, rich_errors, shared_strings
from .patch import Formulas, patch_part, set_constants
from .workbook import (
    BOOK,
    CALC_ID,
    DATE1904,
    defined_names,
    external_sheets,
    iteration,
    related,
    scoped_names,
    settle_calculation,
    sheet_order,
    sheet_parts,
    tables,
)

__all__ = [
    "BOOK",
    "CALC_ID",
    "DATE1904",
    "Formulas",
    "WorkbookError",
    "check_totals",
    "defined_names",
    "external_sheets",
    "hidden_rows",
    "iteration",
    "patch_part",
    "read_file",
    "read_package",
    "read_sheet",
    "related",
    "rich_errors",
    "scoped_names",
    "set_constants",
    "settle_calculation",
    "shared_strings",
    "sheet_order",
    "sheet_parts",
    "tables",
    "write_package",
]
