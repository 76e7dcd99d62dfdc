"""Structured references to Excel tables, as Excel's reference describes them ("Using
structured references with Excel tables"): rewritten into the ranges they stand for."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.table import Table as XlTable

from fide_rating.engine.formula.structured import Table, rewrite
from fide_rating.engine.recalc import recalc_file

# a table in D1:F4 of sheet "Event": a header row, two data rows, a totals row
EVENT = Table("Results", "Event", 1, 4, 4, 6, ("Name", "Pts", "Tie'#"), 1, 1)
GREEK = Table("Πίνακας1", "Event", 10, 1, 12, 2, ("Ποσό", "B"), 1, 0)  # Excel in Greek
TABLES = {"RESULTS": EVENT, "ΠΊΝΑΚΑΣ1": GREEK}


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("SUM(Results[])", "SUM('Event'!$D$2:$F$3)"),
        ("SUM(Results[#Data])", "SUM('Event'!$D$2:$F$3)"),
        ("SUM(Results[Pts])", "SUM('Event'!$E$2:$E$3)"),
        ("SUM(results[pts])", "SUM('Event'!$E$2:$E$3)"),  # names without regard to case
        ("COUNTA(Results[#All])", "COUNTA('Event'!$D$1:$F$4)"),
        ("CONCAT(Results[#Headers])", "CONCAT('Event'!$D$1:$F$1)"),
        ("SUM(Results[#Totals])", "SUM('Event'!$D$4:$F$4)"),
        ("Results[[#Headers],[Pts]]", "'Event'!$E$1"),
        ("SUM(Results[[#Data],[#Totals],[Pts]])", "SUM('Event'!$E$2:$E$4)"),
        ("SUM(Results[[Name]:[Pts]])", "SUM('Event'!$D$2:$E$3)"),
        ("SUM(Results[[Pts]:[Name]])", "SUM('Event'!$D$2:$E$3)"),
        ("Results[Tie'''#]", "'Event'!$F$2:$F$3"),  # ' escapes ' and #
        ("Results[@Pts]*2", "'Event'!$E2*2"),  # this row: relative, for shared formulas
        ("Results[@[Pts]]", "'Event'!$E2"),
        ("Results[[#This Row],[Pts]]", "'Event'!$E2"),
        ("[@Pts]+[Pts]", "'Event'!$E2+'Event'!$E$2:$E$3"),  # the table the formula is in
        ('"Results[Pts]"&Results[@Name]', "\"Results[Pts]\"&'Event'!$D2"),  # a text: kept
        ("SUM(Results[Rank])", "SUM(#REF!)"),  # no such column
        ("SUM(Other[Pts])", "SUM(Other[Pts])"),  # no such table: left for the parser
        ("ROWS(Πίνακας1[])", "ROWS('Event'!$A$11:$B$12)"),  # a name in another alphabet
        ("SUM(πίνακας1[ποσό])", "SUM('Event'!$A$11:$A$12)"),
        ("SUM(_Τ[Pts])", "SUM(_Τ[Pts])"),
        ("[1]Sheet1!A1+'[2]Other sheet'!A1", "[1]Sheet1!A1+'[2]Other sheet'!A1"),
        ("SUM([1]!Results[Pts])", "SUM([1]!Results[Pts])"),  # another workbook's table
    ],
)
def test_structured_references_rewritten(formula: str, expected: str) -> None:
    assert rewrite(formula, TABLES, "Event", 2, 7 if "[@" not in formula[:2] else 5) == expected


def test_this_row_outside_the_data_and_missing_rows() -> None:
    plain = Table("Plain", "Event", 10, 1, 12, 2, ("A", "B"), 1, 0)
    assert rewrite("Plain[@A]", {"PLAIN": plain}, "Event", 20, 5) == "#VALUE!"
    assert rewrite("SUM(Plain[#Totals])", {"PLAIN": plain}, "Event", 20, 5) == "SUM(#REF!)"


def test_a_workbook_with_a_table_and_a_calculated_column(tmp_path: Path) -> None:
    """A table as Excel writes one (the table part, its columns), with a calculated column
    ([@...]) and totals by structured reference, recomputed as Excel would."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Event"
    ws.append(["Name", "Pts", "Double"])
    for name, pts in (("Anna", 4.5), ("Ben", 3.0), ("Cleo", 2.5)):
        ws.append([name, pts, None])
    for r in range(2, 5):
        ws.cell(r, 3, "=Results[@Pts]*2")
    ws.add_table(XlTable(displayName="Results", ref="A1:C4"))
    ws["E1"] = "=SUM(Results[Pts])"
    ws["E2"] = "=COUNTA(Results[#All])"
    ws["E3"] = "=INDEX(Results[Name],MATCH(MAX(Results[Pts]),Results[Pts],0))"
    ws["E4"] = "=SUM(Results[Double])"
    path = tmp_path / "table.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {(r, c): v for (_, r, c), v in out.values.items()}
    assert [got[(r, 3)] for r in range(2, 5)] == [9.0, 6.0, 5.0]
    assert (got[(1, 5)], got[(2, 5)], got[(3, 5)], got[(4, 5)]) == (10.0, 12.0, "Anna", 20.0)
    assert not out.problems
