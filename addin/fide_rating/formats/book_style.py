"""What our own workbooks share: their styles, and their saving (reproducible: the same
sources give the same file)."""

from __future__ import annotations

import io
import zipfile

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill, Side
from openpyxl.writer.excel import ExcelWriter

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
HEAD_FILL = PatternFill("solid", fgColor="DDE7F0")
CALC_FILL = PatternFill("solid", fgColor="F2F2F2")
DIAGONAL = PatternFill("solid", fgColor="808080")
THIN = Side(style="thin", color="A0A0A0")


def saved(wb: Workbook, vba: zipfile.ZipFile | None = None) -> bytes:
    """The workbook's file as bytes, the same for the same workbook: openpyxl's parts (with
    the VBA project of ``vba``, a macro workbook), each member dated 1980-01-01."""
    raw = io.BytesIO()
    wb.vba_archive = vba
    try:
        with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as archive:
            ExcelWriter(wb, archive).write_data()  # unlike wb.save, keeps the fixed dates
    finally:
        wb.vba_archive = None
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, source.read(item), compresslevel=9)
    return out.getvalue()
