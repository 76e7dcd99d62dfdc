"""recalc on what models people make in Excel use: data tables, circles computed iteratively,
and no value computed from a cell that was not.

The workbooks are built here; the values expected are those Excel's documentation gives for
the feature ("Calculate multiple results by using a data table", "Change formula
recalculation, iteration, or precision in Excel"), worked out by hand in each test: no
Excel-saved workbook with a data table was at hand to take cached values from."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

from fide_rating.engine.recalc import Recalculated, evaluate

Cells = dict[str, "str | float | DataTableFormula | ArrayFormula"]


def build(path: Path, sheets: dict[str, Cells], names: dict[str, str] | None = None) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    wb.remove(first)
    for title, cells in sheets.items():
        ws = wb.create_sheet(title)
        for ref, v in cells.items():
            ws[ref] = v
    for name, target in (names or {}).items():
        wb.defined_names[name] = DefinedName(name, attr_text=target)
    wb.save(path)
    return path


def run(path: Path) -> Recalculated:
    return evaluate(path.read_bytes(), path)[0]


def values(out: Recalculated, sheet: str) -> dict[str, object]:
    return {f"{get_column_letter(c)}{r}": v for (s, r, c), v in out.values.items() if s == sheet}


def reasons(out: Recalculated, sheet: str | None = None) -> dict[str, str]:
    return {p.cell: p.reason for p in out.problems if sheet is None or p.sheet == sheet}


def rewrite_part(path: Path, part: str, old: bytes, new: bytes) -> Path:
    """The package with one part's bytes replaced (what openpyxl cannot write)."""
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    assert old in members[part]
    members[part] = members[part].replace(old, new)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


# --- nothing computed from a cell that was not ------------------------------------------------


def test_no_value_is_computed_from_a_cell_not_computed_through_any_chain(tmp_path: Path) -> None:
    """Four kinds of cell recalc leaves uncomputed (a function it lacks, an empty formula, a
    data table whose input cell was deleted, a constant inside an array formula's range too
    large to compute), each read every way a formula can read a cell: directly, through a
    chain, a range, a whole column, a defined name, INDIRECT, OFFSET, INDEX, a lookup, an
    error test, another sheet, an array formula. None of them is computed, each names the
    cell at the root; a formula that does not read them is computed."""
    roots: Cells = {"A1": '=CUBEVALUE("x")', "A2": "=1+0", "B1": 1,
             "B3": DataTableFormula(ref="B3:B3", r1="B1", del1=True),
             "C1": ArrayFormula("C1:D60000", "=ROW(C1:D60000)"), "C5": 5}  # fmt: skip
    readers: Cells = {}
    for root in ("A1", "A2", "B3", "C5"):
        col = {"A1": "A", "A2": "B", "B3": "C", "C5": "D"}[root]
        column = re.sub(r"\d", "", root)
        for i, formula in enumerate(
            (
                f"=S!{root}+1",
                f"={col}1*2",  # a chain: the cell above
                f"=SUM(S!{root}:{root})",
                f"=SUM(S!{column}:{column})",
                f"=ROOT_{root}+0",
                f'=INDIRECT("S!{root}")',
                f"=OFFSET(S!{root},0,0)",
                f"=INDEX(S!{root}:{root},1)",
                f"=VLOOKUP(S!{root},S!{root}:{root},1,FALSE)",
                f"=IFERROR(S!{root},0)",
                f"=ISNUMBER(S!{root})",
                f"=COUNT(S!{root})",
            ),
            1,
        ):
            readers[f"{col}{i}"] = formula
    readers["F1"] = "=1+1"  # reads none of them
    readers["F2"] = ArrayFormula("F2", "=SUM(S!A1:A2*1)")
    path = build(tmp_path / "a.xlsx", {"S": roots, "T": readers},
                 {f"ROOT_{r}": f"S!${r[0]}${r[1:]}" for r in ("A1", "A2", "B3", "C5")})  # fmt: skip
    path = rewrite_part(path, "xl/worksheets/sheet1.xml", b"<f>1+0</f>", b"<f/>")
    out = run(path)
    assert values(out, "T") == {"F1": 2.0}
    got = reasons(out, "T")
    assert set(got) == set(readers) - {"F1"}
    for col, root in (("A", "S!A1"), ("B", "S!A2"), ("C", "S!B3"), ("D", "S!C1")):
        for i in range(1, 13):  # the whole column (4) meets the first root in it
            named = "S!A1" if i == 4 and col == "B" else root
            assert got[f"{col}{i}"].startswith(f"depends on {named}"), (col, i, got[f"{col}{i}"])
    assert reasons(out, "S") == {
        "A1": "CUBEVALUE is an Excel function recalc does not compute",
        "A2": "an empty formula",
        "B3": "a data table whose input cell was deleted",
        "C1": "an array formula over more than 100,000 cells",
    }
    assert out.computed == 1


# --- data tables ---------------------------------------------------------------------------------


def _model() -> Cells:
    """A small loan model: rate B1, principal B2, the amount after a year B3."""
    return {"B1": 0.05, "B2": 1000, "B3": "=B2*(1+B1)", "B4": "=B3-B2"}


def test_a_one_variable_data_table_of_inputs_down_a_column(tmp_path: Path) -> None:
    """Rates down A6:A8 into the input cell B1; two formulas across the row above the table
    (B5 =B3, C5 =B4): each cell is its column's formula with B1 set to its row's rate."""
    cells: Cells = {**_model(), "A6": 0.01, "A7": 0.02, "A8": 0.03, "B5": "=B3", "C5": "=B4",
             "B6": DataTableFormula(ref="B6:C8", r1="B1"),
             "E1": "=ABS((B6-B7)/B6)", "E2": "=SUM(B6:C8)"}  # fmt: skip
    out = run(build(tmp_path / "a.xlsx", {"S": cells}))
    got = values(out, "S")
    table = {k: got[k] for k in ("B6", "C6", "B7", "C7", "B8", "C8")}
    assert table == pytest.approx({"B6": 1010, "C6": 10, "B7": 1020, "C7": 20, "B8": 1030,
                                   "C8": 30}, rel=1e-15)  # fmt: skip
    assert got["E1"] == pytest.approx(10 / 1010) and got["E2"] == pytest.approx(3120)
    assert got["B3"] == 1050 and got["B4"] == 50  # the model itself, as the file says
    assert not out.problems and out.computed == out.formulas


def test_a_one_variable_data_table_of_inputs_across_a_row(tmp_path: Path) -> None:
    """Principals across B9:C9 into the input cell B2; formulas down the column left of the
    table (A10 =B3, A11 =B4): each cell is its row's formula with B2 set to its column's."""
    cells: Cells = {**_model(), "B9": 100, "C9": 2000, "A10": "=B3", "A11": "=B4",
             "B10": DataTableFormula(ref="B10:C11", dtr=True, r1="B2")}  # fmt: skip
    got = values(run(build(tmp_path / "a.xlsx", {"S": cells})), "S")
    assert {k: got[k] for k in ("B10", "C10", "B11", "C11")} == pytest.approx(
        {"B10": 105, "C10": 2100, "B11": 5, "C11": 100}, rel=1e-15
    )


def test_a_two_variable_data_table(tmp_path: Path) -> None:
    """The formula in the corner (A13 =B4); principals across the row above into the row input
    cell B2, rates down the column left into the column input cell B1."""
    cells: Cells = {**_model(), "A13": "=B4", "B13": 100, "C13": 200, "A14": 0.1, "A15": "=A14*2",
             "B14": DataTableFormula(ref="B14:C15", dt2D=True, r1="B2", r2="B1")}  # fmt: skip
    got = values(run(build(tmp_path / "a.xlsx", {"S": cells})), "S")
    assert {k: got[k] for k in ("B14", "C14", "B15", "C15")} == pytest.approx(
        {"B14": 10, "C14": 20, "B15": 20, "C15": 40}, rel=1e-12
    )


def test_a_data_table_follows_its_input_through_chains_names_and_indirect(
    tmp_path: Path,
) -> None:
    """Whatever way the formula reaches the input cell, the substitution reaches it too; a
    cell that does not depend on the input keeps its value."""
    cells: Cells = {"B1": 2, "B2": "=B1*10", "B3": '=INDIRECT("B"&1)+RATE_IN', "B4": "=SUM(B1:B3)",
             "B5": 7, "A8": 1, "A9": 3, "B7": "=B4", "C7": "=B5",
             "B8": DataTableFormula(ref="B8:C9", r1="B1")}  # fmt: skip
    out = run(build(tmp_path / "a.xlsx", {"S": cells}, {"RATE_IN": "S!$B$1"}))
    got = values(out, "S")
    # B4 = B1 + 10*B1 + 2*B1 = 13*B1
    assert {k: got[k] for k in ("B8", "C8", "B9", "C9", "B4")} == {
        "B8": 13.0, "C8": 7.0, "B9": 39.0, "C9": 7.0, "B4": 26.0
    }  # fmt: skip
    assert not out.problems


def test_a_data_table_reading_itself_is_a_circle(tmp_path: Path) -> None:
    cells: Cells = {"B1": 1, "A3": 1, "B2": "=B1+C3", "B3": DataTableFormula(ref="B3:B3", r1="B1"),
             "C3": "=B3"}  # fmt: skip
    out = run(build(tmp_path / "a.xlsx", {"S": cells}))
    assert "B3" in reasons(out) and all("circular" in r for r in reasons(out).values())


# --- iterative calculation -------------------------------------------------------------------


def test_an_iteration_count_beyond_excels_stops_at_excels_most(tmp_path: Path) -> None:
    """A circle that never settles, in a file asking for 2,000,000,000 iterations: Excel's
    most, 32,767 passes, and the last values are kept."""
    path = build(tmp_path / "a.xlsx", {"S": {"A1": "=A2+1", "A2": "=A1", "A3": "=A1*2"}})
    path = rewrite_part(path, "xl/workbook.xml", b"<calcPr ",
                        b'<calcPr iterate="1" iterateCount="2000000000" iterateDelta="0.001" ')  # fmt: skip
    out = run(path)
    assert values(out, "S") == {"A1": 32767.0, "A2": 32767.0, "A3": 65534.0}
    assert not out.problems
