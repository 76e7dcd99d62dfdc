"""The rating-list workbook's template (``templates/rating-list.xlsx``): the Period, List and
Pending sheets that ``fide-rating period`` reads and writes (:mod:`.listbook`)."""

from __future__ import annotations

import datetime as _dt

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.utils import get_column_letter as letter
from openpyxl.worksheet.datavalidation import DataValidation

from .book_style import BOLD, HEAD_FILL
from .layout import LIST_COLUMNS, PENDING_COLUMNS


def build_list() -> Workbook:
    """The rating-list workbook that ``fide-rating period`` reads and writes."""

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Period"
    ws["A1"], ws["A2"], ws["A3"] = "List date", "Next list", "Rating type"
    ws["B3"] = "standard"
    ws["C1"] = "The date of this list (the first day it is in force)"
    ws["C2"] = "The date of the next list: the period's events start before it"
    ws["C3"] = "standard, rapid or blitz: which rating the list holds"
    kinds = DataValidation(type="list", formula1='"standard,rapid,blitz"', allow_blank=False)
    ws.add_data_validation(kinds)
    kinds.add("B3")
    for cell in ("B1", "B2"):
        ws[cell].number_format = "yyyy-mm-dd"
    ws["A1"].font = ws["A2"].font = ws["A3"].font = BOLD
    ws.column_dimensions["A"].width = 14
    ws.column_dimensions["B"].width = 14
    notes = {
        "FIDE ID": "Unique: the events' players are matched by it",
        "Rating": "Blank for an unrated player",
        "K": "K on this list; blank: computed from the facts",
        "Games": "Rated games so far",
        "Reached 2400": "TRUE once a published rating reached 2400",
        "Active": "TRUE or FALSE",
        "Last game": "Date of the last rated game",
    }
    for name, columns in (("List", LIST_COLUMNS), ("Pending", PENDING_COLUMNS)):
        sheet = wb.create_sheet(name)
        for i, header in enumerate(columns, start=1):
            cell = sheet.cell(1, i, header)
            cell.font = BOLD
            cell.fill = HEAD_FILL
            if header in notes and name == "List":
                cell.comment = Comment(notes[header], "fide-rating")
            sheet.column_dimensions[letter(i)].width = max(8, len(header) + 2)
        sheet.freeze_panes = "A2"
    pending = wb["Pending"]
    pending["G1"] = "Unrated players' games from earlier periods, pooled for a first rating"
    wb.properties.creator = "fide-rating"
    wb.properties.created = wb.properties.modified = _dt.datetime(2025, 1, 1)
    return wb
