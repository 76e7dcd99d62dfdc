"""An ordinary formula (entered with Enter, not an array formula) as Excel computes it: a range
given where one value goes is intersected with the formula's row or column, while an array
(a constant such as ``{"red","blue"}``, or a function's array) stays whole and is computed
element by element; and Excel's comparison operators, which round both sides to 15
significant digits."""

from __future__ import annotations

import pytest

from fide_rating.engine.book import NotComputed
from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula.values import NA, VALUE
from test_formula import book, ev

# Exceljet, "Count cells equal to this or that": D5:D15 holds "red" 4 times and "blue" 3
# times; =SUM(COUNTIF(color,{"red","blue"})) is 7, an array constant needing no Ctrl+Shift+
# Enter, where criteria given as cells need it (the cells are intersected instead)
_COLORS = ["red", "blue", "green", "red", "blue", "red", "green", "blue", "red", "gray", "x"]


def _colors() -> dict[str, object]:
    return {f"D{5 + i}": color for i, color in enumerate(_COLORS)}


def test_an_array_constant_given_for_a_value_is_computed_element_by_element() -> None:
    assert ev('=SUM(COUNTIF(D5:D15,{"red","blue"}))', _colors()) == 7.0
    assert ev('=SUMPRODUCT(COUNTIF(D5:D15,{"red","blue"}))', _colors()) == 7.0
    assert ev('=COUNTIF(D5:D15,{"red","blue"})', _colors()) == 4.0  # one cell: the first
    assert ev('=SUM(LEN({"a","bb"}))') == 3.0
    assert ev("=MAX(ABS({-5,2}))") == 5.0


def test_a_range_given_for_a_value_is_intersected_not_iterated() -> None:
    cells = {**_colors(), "F1": "red", "F2": "blue"}
    # F1:F2 meets neither the formula's row (99) nor its column (Z): the criterion is
    # #VALUE!, which no cell of D5:D15 holds
    assert ev("=SUM(COUNTIF(D5:D15,F1:F2))", cells) == 0.0
    b = book(cells, {"G2": "=SUM(COUNTIF(D5:D15,F1:F2))"})
    assert b.value("S", 2, 7) == 3.0  # row 2 meets F2: "blue" alone


def test_operators_over_an_array_constant() -> None:
    assert ev("=SUM({1,2,3}*2)") == 12.0
    assert ev("=SUM(({1,2,3}>1)*1)") == 2.0
    assert ev('=SUM(--(MID("a1b2",{1,2,3,4},1)="1"))') == 1.0
    assert ev("=SUM(-{1,2})") == -3.0
    assert ev("=SUM({10,20}%)") == pytest.approx(0.3)
    assert ev("={1,2}*10") == 10.0  # the cell shows the array's first element
    # a range beside the array is intersected first: A2 in row 2, then times each element
    b = book(
        {"A1": -1, "A2": 2, "A3": 3}, {"C2": "=SUM(A1:A3*{1,2,3})", "C9": "=SUM(A1:A3*{1,2,3})"}
    )
    assert b.value("S", 2, 3) == 12.0
    assert b.value("S", 9, 3) == VALUE


def test_the_branches_chosen_by_an_array() -> None:
    # the left look-up written without Ctrl+Shift+Enter: CHOOSE({1,2},B,A) pairs the columns
    cells = {"A1": "x", "A2": "y", "B1": 10, "B2": 20}
    assert ev("=VLOOKUP(20,CHOOSE({1,2},B1:B2,A1:A2),2,FALSE)", cells) == "y"
    assert ev("=SUM(CHOOSE({1,2},5,7))") == 12.0
    assert ev("=SUM(IF({1,0,1},{5,6,7},0))") == 12.0
    assert ev("=SUM(IFERROR({1,2}/{0,1},9))") == 11.0
    assert ev("=IF(TRUE,5,1/0)") == 5.0  # one condition: one branch, as before


def test_a_reference_function_over_an_array_of_positions_is_reported() -> None:
    with pytest.raises(NotComputed, match="INDEX of an array of positions"):
        ev("=SUM(INDEX(A1:A3,{1,3}))", {"A1": 1, "A2": 2, "A3": 3})
    assert ev("=SUM(INDEX(A1:A3,0))", {"A1": 1, "A2": 2, "A3": 3}) == 6.0  # not an array


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=0.1+0.2=0.3", True),  # 0.30000000000000004 and 0.3: alike to 15 digits
        ("=(0.1+0.2)>0.3", False),
        ("=(0.1+0.2)<=0.3", True),
        ("=10.01-10=0.01", False),  # 0.009999999999999787: 0.00999999999999979
        ("=1.2675-1.2664=0.0011", False),  # 0.0011000000000001
        ("=0=0.5-0.4-0.1", False),  # -2.8E-17 against 0: no digit in common
        ("=1.00000000000001=1", False),  # the 15th digit differs
        ("=1.000000000000001=1", True),  # the 16th
    ],
)
def test_comparison_operators_round_both_sides_to_15_digits(formula: str, excel: bool) -> None:
    assert ev(formula) is excel


def test_a_comparison_excel_saved() -> None:
    """The IMF/World Bank LIC DSF template (excel-grapher 24.1.3's test fixture, saved by
    Excel), C4_Market_financing!E98: =IF(E97>E96,1,"") with E97 16.507447382610895 and E96
    16.50744738261089, one unit in the last place apart: Excel saved "" (not greater)."""
    cells = {"E97": 16.507447382610895, "E96": 16.50744738261089}
    assert ev('=IF(E97>E96,1,"")', cells) == ""
    assert ev("=(E97-E96)*1", cells) != 0.0  # the numbers differ; only the comparison rounds
    assert ev("=COUNTIF(E97,16.50744738261089)", cells) == 0.0  # a criterion compares exactly


# --- a whole column past its sheet's last used row ------------------------------------------
# The engine reads a whole column only down to the sheet's last used row; what lies past it
# is blank, and an operator's or function's result there is what it gives for a blank, on
# every one of the column's 1,048,576 rows, as in Excel.


def test_a_whole_column_against_another_of_its_rows() -> None:
    """IronCalc 0.9.1's ``LOOKUP_AND_REFERENCE/ROW_COLUM.xlsx``, saved by Excel: Ranges!C18,
    =MAX((Sheet2!B:B<>"")*ROW(Sheet2!B:B)), the last used row, is 7 (it was #N/A: the column
    read to its last row against ROW's 1,048,576)."""
    cells = {f"B{r}": "v" for r in range(1, 8)}
    assert ev('=SUMPRODUCT(MAX((B1:B1048576<>"")*ROW(B1:B1048576)))', cells) == 7.0
    assert ev('=SUMPRODUCT((B:B="v")*ROW(B:B))', cells) == 28.0
    # a column against a shorter array is #N/A past it, as Excel stretches neither
    assert ev('=SUMPRODUCT((B:B="v")*{1;2;3})', cells) == NA


def test_past_the_last_used_row_every_blank_counts() -> None:
    cells = {"B1": "x", "B2": "y"}
    assert ev('=SUMPRODUCT(--(B:B=""))', cells) == 1048574.0  # it was the used rows' 97
    assert ev('=SUMPRODUCT((B:B<>"x")*1)', cells) == 1048575.0
    assert ev('=SUMPRODUCT((B:B="x")*(C:C=""))', cells) == 1.0
    assert ev('=SUMPRODUCT((B:B<>"")*1)', cells) == 2.0  # 0 past them: nothing added
    assert ev('=LOOKUP(2,1/(B:B<>""),B:B)', cells) == "y"  # the last value, errors past it


def test_a_column_used_in_one_row_is_not_one_value() -> None:
    # the sheet's last used row is 1: B:B held as one row is still a column of 1,048,576
    b = book({"B1": "x"}, {"D1": '=SUMPRODUCT((B:B="x")*ROW(B:B))'})
    assert b.value("S", 1, 4) == 1.0  # not the sum of every row number


def test_a_whole_column_as_the_functions_read_it() -> None:
    cells = {"A1": "x", "A2": "x", "B1": -5, "B2": -3}
    # 0 past the last used row: counted by COUNT and AVERAGE, the largest for MAX, as in Excel
    assert ev('=SUMPRODUCT(COUNT((A:A="x")*1))', cells) == 1048576.0
    assert ev('=SUMPRODUCT(AVERAGE((A:A="x")*1))', cells) == 2 / 1048576
    assert ev('=SUMPRODUCT(MAX((A:A="x")*B:B))', cells) == 0.0
    assert ev('=SUMPRODUCT(--AND(A:A="x"))', cells) == 0.0  # FALSE past the rows held
    # ... and nothing to a sum: the rows held are enough
    assert ev('=SUMPRODUCT((A:A="x")*B:B)', cells) == -8.0
    assert ev('=SUMPRODUCT(SUM((A:A="x")*1))', cells) == 2.0


def test_the_tail_counts_once_for_the_largest_and_smallest() -> None:
    # every row used is negative; past the last used row (2) the products are 0: the largest
    b = book(
        {"A1": "x", "A2": "x", "B1": -5, "B2": -3},
        {"D1": '=SUMPRODUCT(MAX((A:A="x")*B:B))', "D2": '=SUMPRODUCT(MIN((A:A="x")*B:B))'},
    )
    assert b.value("S", 1, 4) == 0.0  # the rows held alone give -3
    assert b.value("S", 2, 4) == -5.0


def _array(text: str, cells: dict[str, object]) -> object:
    """What an array formula (Ctrl+Shift+Enter) written in Z99 gives, reduced to one value."""
    b = book(cells)
    return Compiler().compile_array(text.lstrip("="), 99, 26)(b, "S", 99, 26)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=SUM(IF(A:A="",1))', 1048574.0),  # every blank of the column: it was the rows held'
        ('=SUM(IF(A:A="",1,0))', 1048574.0),
        ('=COUNT(IF(A:A="",1))', 1048574.0),
        ("=SUM(IF(ISBLANK(A:A),1))", 1048574.0),
        ("=SUM(--(LEN(A:A)=0))", 1048574.0),
        ("=SUM(IF(A:A<1,1))", 1048574.0),
        ('=ROWS(IF(A:A="",1))', 1048576.0),
        ("=SUM(IF(A:A>0,B:B))", 12.0),  # FALSE past the rows held: nothing added
        ('=SUM(IF(A:A="",0,1))', 2.0),
        ('=MIN(IF(A:A="",5,A:A))', 1.0),
        ('=MAX(IF(A:A="",5,A:A))', 5.0),  # the blanks' 5, past the rows held too
        ("=SUM(ABS(A:A))", 4.0),
    ],
)
def test_a_function_taking_one_value_at_a_time_over_a_whole_column(
    formula: str, expected: float
) -> None:
    """In an array formula IF, LEN, ISBLANK, ABS ... over a whole column give what they give
    for a blank on every row past the last used one (Excel computes all 1,048,576)."""
    cells = {"A1": 1, "A3": 3, "B1": 5, "B2": 6, "B3": 7, "C12": "the last used row"}
    assert _array(formula, cells) == expected


def test_whole_rows_past_their_last_used_column() -> None:
    # five whole rows (81,920 cells) are read to the last used column, B; past it, 0
    cells = {f"{col}{row}": "x" for col in "AB" for row in range(1, 6)}
    b = book(cells, {"A6": '=SUMPRODUCT(MAX((A1:XFD5="x")*-1))'})
    assert b.value("S", 6, 1) == 0.0  # the columns held alone give -1
