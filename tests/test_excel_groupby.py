"""GROUPBY and PIVOTBY: each case a small table written in the test and the summary Excel's
GROUPBY and PIVOTBY pages (support.microsoft.com, "GROUPBY function", "PIVOTBY function")
describe for it, worked out by hand from their rules: the groups sorted ascending, texts
grouped without regard to case, a grand total row "Total", the header row guessed from the
values (a text first, a number second), the options' ranges. Both sides of every boundary;
what is not computed yet is reported, never guessed."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula.values import DIV0, NA, REF, VALUE, Result, Unsupported
from fide_rating.engine.functions import FUNCTIONS
from test_formula import book

# Region, Product, Sales, Units: a header row, then six rows ("East" written three ways)
TABLE: dict[str, object] = {
    "A1": "Region", "B1": "Product", "C1": "Sales", "D1": "Units",
    "A2": "East", "B2": "Pens", "C2": 10, "D2": 1,
    "A3": "west", "B3": "Pens", "C3": 5, "D3": 2,
    "A4": "East", "B4": "Ink", "C4": 7, "D4": 3,
    "A5": "West", "B5": "Ink", "C5": 1, "D5": 4,
    "A6": "North", "B6": "Pens", "C6": 4, "D6": 5,
    "A7": "east", "B7": "Pens", "C7": 2, "D7": 6,
}  # fmt: skip


def ev_array(text: str, cells: Mapping[str, object] | None = None) -> Result:
    """A dynamic array formula's whole result, written in S!Z99."""
    b = book(TABLE if cells is None else cells)
    return Compiler({}).compile_array(text.lstrip("="), 99, 26)(b, "S", 99, 26)


def gb(args: str) -> str:
    return f"=_xlfn.GROUPBY({args})"


def pb(args: str) -> str:
    return f"=_xlfn.PIVOTBY({args})"


BY_REGION = [["East", 19.0], ["North", 4.0], ["west", 6.0]]


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # the header row guessed from the values ("Sales" then 10) and not shown; the groups
        # ascending, "East" and "east" one group shown as first met; the grand total last
        (gb("A1:A7,C1:C7,_xleta.SUM"), [*BY_REGION, ["Total", 29.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM"), [*BY_REGION, ["Total", 29.0]]),
        # field_headers: 3 shows the headers, 1 has them and hides them, 0 has none
        (gb("A1:A7,C1:C7,_xleta.SUM,3"), [["Region", "Sales"], *BY_REGION, ["Total", 29.0]]),
        (gb("A1:A7,C1:C7,_xleta.SUM,1"), [*BY_REGION, ["Total", 29.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM,0"), [*BY_REGION, ["Total", 29.0]]),
        (gb("A1:A7,C1:C7,_xleta.SUM,4"), VALUE),
        (gb("A1:A7,C1:C7,_xleta.SUM,-1"), VALUE),
        # no header guessed where the second value is not a number: the first row is data
        (gb("B1:B3,A1:A3,_xleta.COUNTA"), [["Pens", 2.0], ["Product", 1.0], ["Total", 3.0]]),
        # total_depth: 0 none, 1 at the bottom, -1 at the top; 3 is out of range
        (gb("A2:A7,C2:C7,_xleta.SUM,,0"), BY_REGION),
        (gb("A2:A7,C2:C7,_xleta.SUM,,1"), [*BY_REGION, ["Total", 29.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM,,-1"), [["Total", 29.0], *BY_REGION]),
        (gb("A2:A7,C2:C7,_xleta.SUM,,3"), VALUE),
        # sort_order: -1 the groups descending; 2 by the values, -2 descending (the page's
        # example 2, "sorted by sales descending"); 0 and a column past the values: #VALUE!
        (gb("A2:A7,C2:C7,_xleta.SUM,,,-1"),
         [["west", 6.0], ["North", 4.0], ["East", 19.0], ["Total", 29.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM,,,2"),
         [["North", 4.0], ["west", 6.0], ["East", 19.0], ["Total", 29.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM,,,-2"),
         [["East", 19.0], ["west", 6.0], ["North", 4.0], ["Total", 29.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM,,,0"), VALUE),
        (gb("A2:A7,C2:C7,_xleta.SUM,,,3"), VALUE),
        # filter_array keeps the rows where it is TRUE; one of another length is #VALUE!
        (gb("A2:A7,C2:C7,_xleta.SUM,,,,C2:C7>4"), [["East", 17.0], ["west", 5.0], ["Total", 22.0]]),
        (gb("A2:A7,C2:C7,_xleta.SUM,,,,C2:C6>4"), VALUE),
        # fields and values of different lengths
        (gb("A2:A7,C2:C6,_xleta.SUM"), VALUE),
        # the function: any LAMBDA of the group's values; the total aggregates all values
        (gb("A2:A7,C2:C7,_xlfn.LAMBDA(_xlpm.x,MAX(_xlpm.x)-MIN(_xlpm.x))"),
         [["East", 8.0], ["North", 0.0], ["west", 4.0], ["Total", 9.0]]),
        (gb("A2:A7,C2:C7,_xleta.AVERAGE"),
         [["East", 19 / 3], ["North", 4.0], ["west", 3.0], ["Total", 29 / 6]]),
        # PERCENTOF: each group's share of all the values
        (gb("A2:A7,C2:C7,_xleta.PERCENTOF"),
         [["East", 19 / 29], ["North", 4 / 29], ["west", 6 / 29], ["Total", 1.0]]),
        # a function given one row of one function is that function
        (gb("A2:A7,C2:C7,_xlfn.HSTACK(_xleta.SUM)"), [*BY_REGION, ["Total", 29.0]]),
        # not a function: #VALUE!; an error given for an argument is the result
        (gb("A2:A7,C2:C7,5"), VALUE),
        (gb("A2:A7,C2:C7,#N/A"), NA),
        (gb("#REF!,C2:C7,_xleta.SUM"), REF),
        (gb("A2:A7,C2:C7,_xleta.SUM,,,,IF(C2:C7>4,TRUE,#DIV/0!)"), DIV0),
        # several value columns: one aggregate each
        (gb("A2:A7,C2:D7,_xleta.SUM"),
         [["East", 19.0, 10.0], ["North", 4.0, 5.0], ["west", 6.0, 6.0], ["Total", 29.0, 21.0]]),
        # several row fields: grouped by both, sorted by the first then the second; the
        # grand total only (Excel's saved values), its lower field empty
        (gb("A2:B7,C2:C7,_xleta.SUM"),
         [["East", "Ink", 7.0], ["East", "Pens", 12.0], ["North", "Pens", 4.0],
          ["West", "Ink", 1.0], ["west", "Pens", 5.0], ["Total", "", 29.0]]),
        # ... a header row guessed is shown with several fields
        (gb("A1:B7,C1:C7,_xleta.SUM,,0"),
         [["Region", "Product", "Sales"], ["East", "Ink", 7.0], ["East", "Pens", 12.0],
          ["North", "Pens", 4.0], ["West", "Ink", 1.0], ["west", "Pens", 5.0]]),
        # ... sorted by one number for each field, in their order
        (gb("A2:B7,C2:C7,_xleta.SUM,,0,{1,-2}"),
         [["East", "Pens", 12.0], ["East", "Ink", 7.0], ["North", "Pens", 4.0],
          ["west", "Pens", 5.0], ["West", "Ink", 1.0]]),
    ],
)  # fmt: skip
def test_groupby(formula: str, expected: object) -> None:
    assert ev_array(formula) == expected


PIVOT: list[list[object]] = [
    ["", "Ink", "Pens", "Total"],
    ["East", 7.0, 12.0, 19.0],
    ["North", "", 4.0, 4.0],
    ["west", 1.0, 5.0, 6.0],
    ["Total", 8.0, 21.0, 29.0],
]


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # the corner empty, the columns' keys ascending, a Total column and row, an
        # intersection without values empty; a header row guessed and not shown
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM"), PIVOT),
        (pb("A1:A7,B1:B7,C1:C7,_xleta.SUM"), PIVOT),
        # totals: none, at the top and on the left
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,0,,0"), [row[:3] for row in PIVOT[:4]]),
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,-1,,-1"),
         [["", "Total", "Ink", "Pens"], ["Total", 29.0, 8.0, 21.0], ["East", 19.0, 7.0, 12.0],
          ["North", 4.0, "", 4.0], ["west", 6.0, 1.0, 5.0]]),
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,3"), VALUE),
        # sort orders: -1 descending
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,0,-1,0,-1"),
         [["", "Pens", "Ink"], ["west", 5.0, 1.0], ["North", 4.0, ""], ["East", 12.0, 7.0]]),
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,0,0"), VALUE),
        # relative_to: what PERCENTOF measures each share against: 0 the column's values
        # (the default), 1 the row's, 2 all; 5 is out of range
        (pb("A2:A7,B2:B7,C2:C7,_xleta.PERCENTOF"),
         [["", "Ink", "Pens", "Total"], ["East", 7 / 8, 12 / 21, 19 / 29],
          ["North", "", 4 / 21, 4 / 29], ["west", 1 / 8, 5 / 21, 6 / 29],
          ["Total", 1.0, 1.0, 1.0]]),
        (pb("A2:A7,B2:B7,C2:C7,_xleta.PERCENTOF,,,,,,,1"),
         [["", "Ink", "Pens", "Total"], ["East", 7 / 19, 12 / 19, 1.0],
          ["North", "", 1.0, 1.0], ["west", 1 / 6, 5 / 6, 1.0],
          ["Total", 8 / 29, 21 / 29, 1.0]]),
        (pb("A2:A7,B2:B7,C2:C7,_xleta.PERCENTOF,,,,,,,2"),
         [["", "Ink", "Pens", "Total"], ["East", 7 / 29, 12 / 29, 19 / 29],
          ["North", "", 4 / 29, 4 / 29], ["west", 1 / 29, 5 / 29, 6 / 29],
          ["Total", 8 / 29, 21 / 29, 1.0]]),
        (pb("A2:A7,B2:B7,C2:C7,_xleta.PERCENTOF,,,,,,,5"), VALUE),
        # the filter, and lengths that differ
        (pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,0,,0,,C2:C7>4"),
         [["", "Ink", "Pens"], ["East", 7.0, 10.0], ["west", "", 5.0]]),
        (pb("A2:A7,B2:B6,C2:C7,_xleta.SUM"), VALUE),
        (pb("A2:A6,B2:B7,C2:C7,_xleta.SUM"), VALUE),
    ],
)  # fmt: skip
def test_pivotby(formula: str, expected: object) -> None:
    assert ev_array(formula) == expected


@pytest.mark.parametrize(
    "formula",
    [
        gb("A2:A7,C2:C7,_xlfn.HSTACK(_xleta.SUM,_xleta.AVERAGE)"),  # several functions
        gb("A2:B7,C2:C7,_xleta.SUM,,2"),  # subtotals
        gb("A2:A7,C2:C7,_xleta.SUM,2"),  # headers generated
        gb("A2:B7,C2:C7,_xleta.SUM,,,,,1"),  # a table field relationship
        gb("A2:B7,C2:C7,_xleta.SUM,,,2"),  # several fields sorted by their values
        gb("A2:A8,C2:C8,_xleta.SUM"),  # a blank key and a blank value
        gb("A2:A7,C2:C7,_xleta.SUM,,,,C2:C7>99"),  # every row filtered out
        pb("A2:B7,B2:B7,C2:C7,_xleta.SUM"),  # several row fields
        pb("A2:A7,B2:B7,C2:D7,_xleta.SUM"),  # several value columns
        pb("A1:A7,B1:B7,C1:C7,_xleta.SUM,3"),  # PIVOTBY's headers shown
        pb("A2:A7,B2:B7,C2:C7,_xleta.PERCENTOF,,,,,,,3"),  # a parent total
        pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,,2"),  # sorted by the values
        pb(",B2:B7,C2:C7,_xleta.SUM"),  # no row fields
        pb("A2:A7,,C2:C7,_xleta.SUM"),  # no column fields
    ],
)
def test_what_is_not_computed_yet_is_reported(formula: str) -> None:
    with pytest.raises(Unsupported):
        ev_array(formula)


def test_blank_values_only_where_blank_and_0_agree() -> None:
    # a blank among the values: SUM and PERCENTOF read it as they read 0; COUNT, AVERAGE
    # would not, and Excel's array may hold it either way: reported
    cells = {**TABLE, "A8": "North", "B8": "Ink"}
    assert ev_array(gb("A2:A8,C2:C8,_xleta.SUM"), cells) == [*BY_REGION, ["Total", 29.0]]
    shares = ev_array(gb("A2:A8,C2:C8,_xleta.PERCENTOF"), cells)
    assert shares == [["East", 19 / 29], ["North", 4 / 29], ["west", 6 / 29], ["Total", 1.0]]
    assert ev_array(pb("A2:A8,B2:B8,C2:C8,_xleta.SUM"), cells) == [
        ["", "Ink", "Pens", "Total"],
        ["East", 7.0, 12.0, 19.0],
        ["North", 0.0, 4.0, 4.0],
        ["west", 1.0, 5.0, 6.0],
        ["Total", 8.0, 21.0, 29.0],
    ]
    with pytest.raises(Unsupported):
        ev_array(gb("A2:A8,C2:C8,_xleta.COUNT"), cells)
    with pytest.raises(Unsupported):
        ev_array(gb("A2:A8,C2:C8,_xlfn.LAMBDA(_xlpm.x,SUM(_xlpm.x))"), cells)
    # and without the blank, COUNT is computed
    assert ev_array(gb("A2:A7,C2:C7,_xleta.COUNT"), cells) == [
        ["East", 3.0],
        ["North", 1.0],
        ["west", 2.0],
        ["Total", 6.0],
    ]


def test_both_sides_of_the_not_computed_options() -> None:
    # a table relationship of one field is that field's grouping; PIVOTBY's relative_to 3
    # matters only to a function of two values
    assert ev_array(gb("A2:A7,C2:C7,_xleta.SUM,,,,,1")) == [*BY_REGION, ["Total", 29.0]]
    assert ev_array(pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,,,,,,3")) == PIVOT
    assert ev_array(pb("A2:A7,B2:B7,C2:C7,_xleta.SUM,,,1")) == PIVOT


def test_stacking_keeps_errors_and_function_values() -> None:
    # an error given to HSTACK or VSTACK itself is still the result; a function value is
    # stacked as a value (shown as #CALC! in a cell)
    assert ev_array("=_xlfn.HSTACK(1,#N/A)") == NA
    assert ev_array("=_xlfn.VSTACK(#VALUE!,1)") == VALUE
    stacked = ev_array("=_xlfn.HSTACK(_xleta.SUM,_xleta.MAX)")
    assert isinstance(stacked, list) and len(stacked[0]) == 2
    assert all(v == "#CALC!" or getattr(v, "code", None) == "#CALC!" for v in stacked[0])


def test_both_functions_are_computed() -> None:
    assert FUNCTIONS["GROUPBY"].impl is not None
    assert FUNCTIONS["PIVOTBY"].impl is not None
