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

from fide_rating.engine.formula import ERRORS
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


def test_a_data_table_of_a_volatile_formula_is_volatile(tmp_path: Path) -> None:
    """A table whose formula rests on RAND is new at every calculation, and so is a cell that
    reads the table (a Monte Carlo model's table of draws and their mean); a table of a formula
    that does not rest on one, and a cell reading only that table, are not."""
    cells: Cells = {"B1": 1, "B2": "=B1+RAND()", "B3": "=B1*2", "A6": 1, "A7": 2,
             "B5": "=B2", "B6": DataTableFormula(ref="B6:B7", r1="B1"), "D1": "=AVERAGE(B6:B7)",
             "E5": "=B3", "E6": DataTableFormula(ref="E6:E7", r1="B1"), "D2": "=SUM(E6:E7)", "D6": 1, "D7": 2
             }  # fmt: skip
    sheet = build(tmp_path / "a.xlsx", {"S": cells})
    out = run(sheet)
    marked = {f"{get_column_letter(c)}{r}" for (_, r, c) in out.volatile}
    assert {"B2", "B5", "B6", "B7", "D1"} <= marked
    assert not marked & {"B3", "E5", "E6", "E7", "D2"}
    assert values(out, "S")["D2"] == 6.0  # 2*1 + 2*2


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


# --- names -----------------------------------------------------------------------------------


def _with_names(path: Path, xml: str) -> Path:
    """The workbook part's defined names replaced (what openpyxl will not write: built-in
    names of one sheet)."""
    with zipfile.ZipFile(path) as z:
        book = z.read("xl/workbook.xml")
    names = b"<definedNames>" + xml.encode() + b"</definedNames>"
    new = re.sub(rb"<definedNames>.*?</definedNames>|<definedNames\s*/>", names, book, flags=re.S)
    if new == book:
        new = book.replace(b"<calcPr", names + b"<calcPr")
    return rewrite_part(path, "xl/workbook.xml", book, new)


def test_names_with_letters_of_any_alphabet(tmp_path: Path) -> None:
    cells: Cells = {"A1": 5, "B1": "=A1*μA", "B2": "=Δt*2", "B3": "=μA+nano"}
    path = build(tmp_path / "a.xlsx", {"S": cells}, {"μA": "1E-6", "Δt": "S!$A$1", "nano": "1E-9"})
    out = run(path)
    assert values(out, "S") == {"B1": 5 * 1e-6, "B2": 10.0, "B3": 1e-6 + 1e-9}
    assert not out.problems


def test_a_defined_name_is_computed_as_an_array_formula(tmp_path: Path) -> None:
    """Excel treats the formula of a defined name as an array formula wherever the name is
    used (Microsoft Knowledge Base Q83816, "Substituting Defined Names for Array Formulas":
    ``test`` defined as ``=SUM(IF($A$1:$A$5=1,$B$1:$B$5,0))``, ``=test`` in a cell), while a
    name that is a range stays a range, which a plain formula intersects with its row."""
    data: Cells = {f"A{r}": a for r, a in zip(range(1, 6), (1, 2, 1, 3, 1), strict=True)}
    data |= {f"B{r}": 10.0 * r for r in range(1, 6)}
    data |= {f"C{r}": float(r) for r in range(1, 5)}
    cells: Cells = {"E1": "=test", "E2": "=InSeq", "E3": "=Col*1", "E4": "=NotSeq"}
    cells |= {"E5": "=COUNT(Vals)", "E6": "=SUM(Vals)", "E7": "=test*2"}
    names = {
        "test": "SUM(IF(S!$A$1:$A$5=1,S!$B$1:$B$5,0))",
        "InSeq": "AND(S!$C$2:$C$4>S!$C$1:$C$3)",
        "NotSeq": "AND(S!$A$2:$A$5>S!$A$1:$A$4)",
        "Col": "S!$B$1:$B$5",
        "Vals": "IF(S!$B$1:$B$5>20,ROUND(S!$B$1:$B$5/3,2))",
    }
    out = run(build(tmp_path / "n.xlsx", {"S": data | cells}, names))
    got = {k: v for k, v in values(out, "S").items() if k.startswith("E")}
    assert got == {
        "E1": 90.0,  # 10 + 30 + 50
        "E2": True,
        "E3": 30.0,  # the range's cell in the formula's row
        "E4": False,
        "E5": 3.0,  # 10, 13.33, 16.67: the FALSE of IF is not counted
        "E6": 40.0,
        "E7": 180.0,
    }
    assert not out.problems


def test_an_array_formula_chooses_branches_element_by_element(tmp_path: Path) -> None:
    """In an array formula IFS (and SWITCH) take each condition element by element, while
    IF with one condition computes only the branch it chooses (a workbook saved by Excel:
    {=IFS(F2:F10="Salesman","Sales",F2:F10="HR","Fire Immedietly",...)} down K2:K10)."""
    ifs = 'IFS(F2:F4="Salesman","Sales",F2:F4="HR","Fire",F2:F4="Accountant","Bonus")'
    cells: Cells = {"F2": "HR", "F3": "Salesman", "F4": "Accountant"}
    cells |= {"K2": ArrayFormula("K2", f'=TEXTJOIN("|",TRUE,{ifs})'),
              "M2": ArrayFormula("M2", '=TEXTJOIN("|",TRUE,IF(TRUE,F2:F4))')}  # fmt: skip
    out = run(build(tmp_path / "ifs.xlsx", {"S": cells}))
    got = values(out, "S")
    assert got["K2"] == "Fire|Sales|Bonus"
    assert got["M2"] == "HR|Salesman|Accountant"
    assert not out.problems


def test_a_defined_name_holding_a_structured_reference(tmp_path: Path) -> None:
    """``Data`` defined as ``Table14[]`` (the table's data) and ``Pts`` as a column of it."""
    from openpyxl.worksheet.table import Table

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    for row in (("Name", "Pts"), ("a", 1.5), ("b", 2), ("c", 3)):
        ws.append(row)
    ws.add_table(Table(displayName="Table14", ref="A1:B4"))
    ws["D1"], ws["D2"], ws["D3"] = "=ROWS(Data)", "=SUM(Pts)", "=COUNTA(Data)"
    wb.defined_names["Data"] = DefinedName("Data", attr_text="Table14[]")
    wb.defined_names["Pts"] = DefinedName("Pts", attr_text="Table14[Pts]")
    wb.save(tmp_path / "a.xlsx")
    out = run(tmp_path / "a.xlsx")
    assert values(out, "S") == {"D1": 3.0, "D2": 6.5, "D3": 6.0} and not out.problems


def test_the_database_functions_read_the_sheets_built_in_criteria(tmp_path: Path) -> None:
    """The advanced filter's names, defined for one sheet: ``_xlnm.Criteria`` and the others,
    named with or without the prefix; on another sheet they are not defined (#NAME?)."""
    cells: Cells = {"A1": "Tree", "B1": "Profit", "A2": "Apple", "B2": 105, "A3": "Pear",
                    "B3": 96, "A4": "Apple", "B4": 75, "E1": "Tree", "E2": "Apple",
                    "G1": '=DSUM(Database,"Profit",Criteria)',
                    "G2": '=DSUM(_xlnm.Database,2,_xlnm.Criteria)',
                    "G3": '=DCOUNT(A1:B4,"Profit",Criteria)'}  # fmt: skip
    path = build(tmp_path / "a.xlsx", {"S": cells, "T": {"A1": "=DSUM(Database,2,Criteria)"}})
    path = _with_names(
        path,
        '<definedName name="_xlnm.Criteria" localSheetId="0">S!$E$1:$E$2</definedName>'
        '<definedName name="_xlnm.Database" localSheetId="0">S!$A$1:$B$4</definedName>',
    )
    out = run(path)
    assert values(out, "S") == {"G1": 180.0, "G2": 180.0, "G3": 2.0}
    assert values(out, "T") == {"A1": ERRORS["#NAME?"]}


# --- functions that read the workbook ----------------------------------------------------------


def test_formulatext_as_excel_saved_it(tmp_path: Path) -> None:
    """The cases of IronCalc's FORMULATEXT.xlsx (saved by Excel for the Mac), with the values
    Excel cached there: a shared formula's text for each cell, no ``_xlfn.``, #N/A for a cell
    holding no formula, no circle from a formula showing its own text."""
    cells: Cells = {"A1": "value", "A2": 1, "A3": "Hello", "A5": "=1", "A6": "=1/0",
                    "A7": "=B7", "A8": "=SIN(1/16)", "A10": "=1+1", "A11": "=A1",
                    "A13": "=_xlfn.FORMULATEXT(A13)", "A14": "=_xlfn.FORMULATEXT(OFFSET(A1,2,1))",
                    "E1": '=CONCATENATE(_xlfn.FORMULATEXT(F1)," NOT CIRCULAR!")', "F1": "=E1"}  # fmt: skip
    for r in range(2, 17):
        cells[f"B{r}"] = f"=_xlfn.FORMULATEXT(A{r})"
    got = values(run(build(tmp_path / "a.xlsx", {"S": cells})), "S")
    na = ERRORS["#N/A"]
    assert {k: got[k] for k in ("E1", "F1", "A13", "A14")} == {
        "E1": "=E1 NOT CIRCULAR!", "F1": "=E1 NOT CIRCULAR!", "A13": "=FORMULATEXT(A13)",
        "A14": "=FORMULATEXT(A3)",
    }  # fmt: skip
    assert [got[f"B{r}"] for r in range(2, 17)] == [
        na, na, na, "=1", "=1/0", "=B7", "=SIN(1/16)", na, "=1+1", "=A1", na,
        "=FORMULATEXT(A13)", "=FORMULATEXT(OFFSET(A1,2,1))", na, na,
    ]  # fmt: skip


def test_formulatext_of_a_shared_formula_moves_its_references(tmp_path: Path) -> None:
    sheet = (
        b'<row r="1"><c r="A1"><f t="shared" ref="A1:A3" si="0">$B1+C$1+_xlfn.XLOOKUP(D1,E:E,F:F)'
        b'</f></c><c r="H1"><f t="shared" ref="H1:H3" si="1">FORMULATEXT(A1)</f></c></row>'
        b'<row r="2"><c r="A2"><f t="shared" si="0"/></c><c r="H2"><f t="shared" si="1"/></c></row>'
        b'<row r="3"><c r="A3"><f t="shared" si="0"/></c><c r="H3"><f t="shared" si="1"/></c></row>'
    )
    path = build(tmp_path / "a.xlsx", {"S": {"Z9": 0}})
    path = rewrite_part(path, "xl/worksheets/sheet1.xml", b'<row r="9">', sheet + b'<row r="9">')
    got = values(run(path), "S")
    assert [got[f"H{r}"] for r in (1, 2, 3)] == [
        "=$B1+C$1+XLOOKUP(D1,E:E,F:F)", "=$B2+C$1+XLOOKUP(D2,E:E,F:F)",
        "=$B3+C$1+XLOOKUP(D3,E:E,F:F)",
    ]  # fmt: skip


def test_anchorarray_as_excel_saved_it(tmp_path: Path) -> None:
    """The cases of IronCalc's spill_operator.xlsx (saved by Excel for the Mac), with the
    values Excel cached: ``B2#`` is the array formula's range, a dynamic array's or a legacy
    one's; a cell holding none, or inside another's range, is #REF!."""
    cells: Cells = {"A2": 12, "A3": 24, "A4": 34, "A5": 1245, "K2": "Hola", "K3": "Mundo",
                    "B2": ArrayFormula("B2:B5", "=A2:A5"), "C2": ArrayFormula("C2:C5", "=123"),
                    "L2": ArrayFormula("L2:L3", "=K2:K3"),
                    "E2": "=SUM(_xlfn.ANCHORARRAY(A2))", "F2": "=SUM(_xlfn.ANCHORARRAY(B2))",
                    "G2": "=SUM(_xlfn.ANCHORARRAY(C2))",
                    "I2": "=SUM(_xlfn.ANCHORARRAY(OFFSET(A1,1,1)))",
                    "M2": "=_xlfn.CONCAT(_xlfn.ANCHORARRAY(L2))",
                    "E4": "=SUM(_xlfn.ANCHORARRAY(B3))", "E6": "=SUM(_xlfn.ANCHORARRAY(B10))"}  # fmt: skip
    got = values(run(build(tmp_path / "a.xlsx", {"S": cells})), "S")
    ref = ERRORS["#REF!"]
    assert {k: got[k] for k in ("E2", "F2", "G2", "I2", "M2", "E4", "E6")} == {
        "E2": ref, "F2": 1315.0, "G2": 492.0, "I2": 1315.0, "M2": "HolaMundo", "E4": ref,
        "E6": ref,
    }  # fmt: skip


_PIVOT_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def _pivot(path: Path, definition: str) -> Path:
    """A pivot table on the second sheet over a cache of six records (Region, Product,
    Sales), as Excel writes its parts (the table's definition given)."""
    cache = (
        f'<pivotCacheDefinition {_PIVOT_NS} recordCount="6"><cacheFields count="3">'
        '<cacheField name="Region"><sharedItems count="3"><s v="North"/><s v="South"/>'
        '<s v="East"/></sharedItems></cacheField>'
        '<cacheField name="Product"><sharedItems count="2"><s v="A"/><s v="B"/></sharedItems>'
        '</cacheField><cacheField name="Sales"><sharedItems containsNumber="1"/></cacheField>'
        "</cacheFields></pivotCacheDefinition>"
    )
    rows = [(0, 0, 100), (0, 1, 200), (1, 0, 300), (1, 1, 400), (2, 0, 50), (0, 0, 1)]
    records = (
        f'<pivotCacheRecords {_PIVOT_NS} count="6">'
        + "".join(f'<r><x v="{a}"/><x v="{b}"/><n v="{n}"/></r>' for a, b, n in rows)
        + "</pivotCacheRecords>"
    )

    def rels(kind: str, target: str) -> bytes:
        return (f'<Relationships><Relationship Id="rId1" Type="{_REL}{kind}" '
                f'Target="{target}"/></Relationships>').encode()  # fmt: skip

    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    members.update({
        "xl/worksheets/_rels/sheet2.xml.rels": rels("pivotTable", "../pivotTables/pivotTable1.xml"),
        "xl/pivotTables/pivotTable1.xml": f"<pivotTableDefinition {_PIVOT_NS} name=\"P\" "
        f'cacheId="1"><location ref="A3:C8" firstHeaderRow="1" firstDataRow="2" '
        f'firstDataCol="1"/>{definition}</pivotTableDefinition>'.encode(),
        "xl/pivotTables/_rels/pivotTable1.xml.rels": rels(
            "pivotCacheDefinition", "../pivotCache/pivotCacheDefinition1.xml"),
        "xl/pivotCache/pivotCacheDefinition1.xml": cache.encode(),
        "xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels": rels(
            "pivotCacheRecords", "pivotCacheRecords1.xml"),
        "xl/pivotCache/pivotCacheRecords1.xml": records.encode(),
    })  # fmt: skip
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def test_getpivotdata_from_the_pivot_cache(tmp_path: Path) -> None:
    """Regions on the rows, products on the columns, the sum of Sales: the grand total, one
    region, one cell, named by caption or by field, items in any case; #REF! for a field not
    on the table, an item it does not have, a data field it does not show."""
    fields = (
        '<pivotFields count="3"><pivotField axis="axisRow"><items count="4"><item x="0"/>'
        '<item x="1"/><item x="2"/><item t="default"/></items></pivotField>'
        '<pivotField axis="axisCol"><items count="3"><item x="0"/><item x="1"/>'
        '<item t="default"/></items></pivotField><pivotField dataField="1"/></pivotFields>'
        '<dataFields count="2"><dataField name="Sum of Sales" fld="2"/>'
        '<dataField name="Most Sales" fld="2" subtotal="max"/></dataFields>'
    )
    formulas: Cells = {
        "F1": '=GETPIVOTDATA("Sales",$A$3)',
        "F2": '=GETPIVOTDATA("Sum of Sales",$A$3,"Region","north")',
        "F3": '=GETPIVOTDATA("Sales",B5,"Region","North","Product","A")',
        "F4": '=GETPIVOTDATA("Most Sales",$A$3,"Product","B")',
        "F5": '=GETPIVOTDATA("Sales",$A$3,"Region","West")',
        "F6": '=GETPIVOTDATA("Sales",$A$3,"Sales",100)',
        "F7": '=GETPIVOTDATA("Count of Sales",$A$3)',
        "F8": '=GETPIVOTDATA("Sales",$A$3,"Region","East","Product","B")',
        "F9": '=GETPIVOTDATA("Sales",$H$20)',
    }
    path = _pivot(build(tmp_path / "a.xlsx", {"Data": {"A1": 0}, "P": formulas}), fields)
    got = values(run(path), "P")
    ref = ERRORS["#REF!"]
    assert got == {"F1": 1051.0, "F2": 301.0, "F3": 101.0, "F4": 400.0, "F5": ref, "F6": ref,
                   "F7": ref, "F8": ref, "F9": ref}  # fmt: skip


def test_getpivotdata_counts_only_what_the_table_shows(tmp_path: Path) -> None:
    """An item the table hides and a page field showing one item leave their records out."""
    fields = (
        '<pivotFields count="3"><pivotField axis="axisRow"><items count="4"><item x="0"/>'
        '<item x="1" h="1"/><item x="2"/><item t="default"/></items></pivotField>'
        '<pivotField axis="axisPage"><items count="3"><item x="0"/><item x="1"/>'
        '<item t="default"/></items></pivotField><pivotField dataField="1"/></pivotFields>'
        '<pageFields count="1"><pageField fld="1" item="0"/></pageFields>'
        '<dataFields count="1"><dataField name="Sum of Sales" fld="2"/></dataFields>'
    )
    formulas: Cells = {
        "F1": '=GETPIVOTDATA("Sales",$A$3)',  # North A 100 + 1, East A 50
        "F2": '=GETPIVOTDATA("Sales",$A$3,"Region","South")',
        "F3": '=GETPIVOTDATA("Sales",$A$3,"Product","B")',
    }
    path = _pivot(build(tmp_path / "a.xlsx", {"Data": {"A1": 0}, "P": formulas}), fields)
    ref = ERRORS["#REF!"]
    assert values(run(path), "P") == {"F1": 151.0, "F2": ref, "F3": ref}


def test_formulatext_of_a_cell_without_a_value_is_its_formula(tmp_path: Path) -> None:
    """A cell on a circle, or one that needs a function recalc lacks, has no value; its
    formula is there all the same."""
    cells: Cells = {"A1": "=A2+1", "A2": "=A1", "A3": '=CUBEVALUE("x")+1',
                    "B1": "=_xlfn.FORMULATEXT(A1)", "B2": "=_xlfn.FORMULATEXT(A2)",
                    "B3": "=_xlfn.FORMULATEXT(A3)"}  # fmt: skip
    got = values(run(build(tmp_path / "a.xlsx", {"S": cells})), "S")
    assert got == {"B1": "=A2+1", "B2": "=A1", "B3": '=CUBEVALUE("x")+1'}
