"""An array formula's element-wise calls and operators: each element what the same formula
gives for that element alone (the ordinary formula in the element's cell), whatever the types
in the column; errors taken from the left, a single value's included; arrays stretched as
Excel stretches them; wildcard patterns compiled once for each text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula.coerce import compare
from fide_rating.engine.formula.values import NA, VALUE, Result, Value, XlError, as_grid
from fide_rating.engine.functions.criteria import criterion
from fide_rating.engine.functions.wildcard import Wildcard, compiled
from test_formula import book, ev

# a column of every kind of value: texts (one not ASCII, one with a wildcard in it, one that
# reads as a number), numbers (two equal to 15 significant digits), logicals, a blank (H6),
# errors
COLUMN = {"H1": "Abc", "H2": 3, "H3": True, "H4": "STRASSE", "H5": "straße", "H7": NA,
          "H8": "a*b", "H9": "12", "H10": 0, "H11": False, "H12": "x~y", "H13": -2.5,
          "H14": VALUE, "H15": "",
          "H16": 0.1 + 0.2,  # 0.30000000000000004: 0.3 to a comparison (15 digits)
          "H17": 0.3}  # fmt: skip
ROWS = 17


def ev_array(text: str, cells: dict[str, object]) -> Result:
    """The array an array formula gives, written in Z99."""
    b = book(cells)
    out = Compiler().compile_array(text.lstrip("="), 99, 26)(b, "S", 99, 26)
    return out if isinstance(out, XlError) else as_grid(b, out)


@pytest.mark.parametrize(
    "formula",
    [
        '=SEARCH("b",{X})',
        '=SEARCH("A*C",{X})',
        '=SEARCH("~*",{X})',
        '=SEARCH({X},"xAbcSTRASSE3")',
        '=FIND("b",{X})',
        '=ISNUMBER(SEARCH("s",{X}))',
        "=IF({X},1,2)",
        '=IF({X}>1,{X},"no")',
        "=LEN({X})",
        "=MID({X},2,2)",
        "=ROUND({X},0)",
        "=FLOOR({X},#N/A)",
        '=FLOOR("x",{X})',
        "=ROUND(#N/A,{X})",
        "=ISTEXT({X})",
        '={X}="abc"',
        '="STRASSE"={X}',
        '={X}="Straße"',
        '={X}<>"a*b"',
        '={X}<"m"',
        "={X}>0",
        "=0<={X}",
        "={X}=TRUE",
        "={X}*2",
        "=-{X}",
        "=({X}>0)*({X}<>3)",
        '=({X}="abc")*{X}',
        "={X}+{X}",
        '={X}&"!"',
        "={X}=H1",
        "=H2-{X}",
        "={X}=0.3",
        "=0.3<{X}",
        "={X}>=0.30000000000001",
        "={X}=H17",
        "={X}<=H16",
        "=({X}=0.3)*{X}",
    ],
)
def test_each_element_is_the_formula_for_that_element_alone(formula: str) -> None:
    """The array formula over H1:H15 against the ordinary formula over each of its cells."""
    got = ev_array(formula.replace("{X}", f"H1:H{ROWS}"), COLUMN)
    assert isinstance(got, list)
    alone = [[ev(formula.replace("{X}", f"H{i}"), COLUMN)] for i in range(1, ROWS + 1)]
    assert got == alone


def test_errors_are_taken_from_the_left_a_single_value_included() -> None:
    """FLOOR(x,#N/A) is #N/A for a number x, #VALUE! for "x" (the error on the left comes
    first); a single value that cannot be converted is the result of every element."""
    cells = {"A1": 1, "A2": "x", "A3": NA}
    assert ev_array("=FLOOR(A1:A3,#N/A)", cells) == [[NA], [VALUE], [NA]]
    assert ev_array('=FLOOR(A1:A3,"y")', cells) == [[VALUE], [VALUE], [NA]]
    assert ev_array('=FLOOR("y",A1:A3)', cells) == [[VALUE], [VALUE], [VALUE]]
    assert ev_array("=FLOOR(A1:A3,1)", cells) == [[1.0], [VALUE], [NA]]
    assert ev_array('=MID("abc",{1,2},{1})', {}) == [["a", "b"]]  # a 1 x 1 array: one value


def test_arrays_are_stretched_as_excel_stretches_them() -> None:
    """A column against a row: every pair; a shorter array than the others: #N/A beyond its
    end; a single row or column repeated across."""
    assert ev_array('=MID({"abc";"def"},{1,2,3},1)', {}) == [["a", "b", "c"], ["d", "e", "f"]]
    assert ev_array('=MID({"abc";"def";"ghi"},{1;2},1)', {}) == [["a"], ["e"], [NA]]
    assert ev_array('=MID({"abc","def";"ghi","jkl"},{1,2},1)', {}) == [["a", "e"], ["g", "k"]]
    assert ev_array('=MID({"abc","def";"ghi","jkl"},{1;3},1)', {}) == [["a", "d"], ["i", "l"]]
    assert ev_array("={1,2;3,4}*{10;100}", {}) == [[10.0, 20.0], [300.0, 400.0]]
    assert ev_array("={1,2;3,4}*{1,2,3}", {}) == [[1.0, 4.0, NA], [3.0, 8.0, NA]]
    assert ev_array('={"a","B"}={"A";"b"}', {}) == [[True, False], [False, True]]


def test_a_pattern_is_compiled_once_for_each_text() -> None:
    """The same text gives the same compiled pattern; another text its own."""
    assert compiled("da*an") is compiled("da*an")
    assert compiled("da*an") is not compiled("da?an")
    assert compiled("da*an").fullmatch("Data Analyst") is False
    assert compiled("da*an").search("Data Analyst") == 0
    assert compiled("da?an").search("a dazan") == 2


def test_a_pattern_without_wildcards_is_its_text_regardless_of_case() -> None:
    """No * or ?: the text itself (a tilde's * or ? included), found or matched whole."""
    plain = Wildcard("a~*B")
    assert plain.plain == "a*b"
    assert (plain.fullmatch("A*b"), plain.fullmatch("axb"), plain.fullmatch("a*bc")) == (
        True, False, False)  # fmt: skip
    assert (plain.search("xxA*B"), plain.search("xxA*B", 3), plain.search("aab")) == (2, -1, -1)
    assert Wildcard("a?b").plain is None
    assert Wildcard("").search("abc", 3) == 3
    assert Wildcard("").search("abc", 4) == -1


# the criteria of COUNTIFS over a column of every kind of value, against a second column
_SECOND = {f"G{i}": v for i, v in enumerate((5, 1, "x", 7, 0, 9, 2, 3, None, 8, 6, 4, 1, 2, 3),
                                            1) if v is not None}  # fmt: skip


@pytest.mark.parametrize(
    "criteria",
    [
        '"abc"',
        '"a*"',
        '"<>a~*b"',
        '">0"',
        '"3"',
        "TRUE",
        '""',
        '"<>"',
        '"#N/A"',
    ],
)
def test_countifs_over_columns_counts_each_row_as_that_row_alone(criteria: str) -> None:
    """COUNTIFS over H1:H15 and G1:G15 is the sum of COUNTIFS over each row's two cells (a
    row that fails the first criterion is not counted whatever the second); SUMIFS alike."""
    cells = {**COLUMN, **_SECOND}
    counted = ev(f'=COUNTIFS(H1:H{ROWS},{criteria},G1:G{ROWS},">2")', cells)
    assert counted == sum(ev(f'=COUNTIFS(H{i},{criteria},G{i},">2")', cells)  # type: ignore[misc]
                          for i in range(1, ROWS + 1))  # fmt: skip
    added = ev(f"=SUMIFS(G1:G{ROWS},H1:H{ROWS},{criteria})", cells)
    assert added == sum(ev(f"=SUMIFS(G{i},H{i},{criteria})", cells)  # type: ignore[misc]
                        for i in range(1, ROWS + 1))  # fmt: skip


def test_a_sum_range_is_taken_in_the_criteria_range_s_size() -> None:
    """SUMIF's sum range from its first cell in the criteria range's size (Excel's SUMIF
    documentation), a column and a block of two columns alike."""
    cells = {"A1": 1, "A2": 2, "A3": 3, "B1": 10, "B2": 20, "B3": 30, "C1": 100, "C3": 300}
    assert ev('=SUMIF(A1:A3,">1",B1)', cells) == 50.0
    assert ev('=SUMIF(A1:B3,">2",B1)', cells) == 30.0 + 100.0 + 300.0  # B3, C1, C3
    assert ev('=SUMIF(A1:A3,">1",B1:B2)', cells) == 50.0
    assert ev('=COUNTIFS(A1:A3,">1",B1:B3,"<30")', cells) == 1.0


_CELL_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from(["", "3", "abc", "-2", "TRUE"]),
    st.sampled_from([NA, VALUE]),
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["<", "<=", ">", ">="]),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.lists(_CELL_VALUES, max_size=20),
)
def test_an_ordering_criterion_on_a_number_takes_numbers_alone_compared_exactly(
    op: str, goal: float, values: list[Value]
) -> None:
    """ ">=5" holds for the numbers (not a logical, not the text "3", not a blank) at or above
    5, compared exactly: what compare() says of two numbers."""
    test = criterion(f"{op}{goal!r}")
    for v in values:
        number = isinstance(v, float | int) and not isinstance(v, bool)
        assert test(v) == (number and compare(op, float(v), goal) is True), v  # type: ignore[arg-type]
