"""Excel's lookup and reference functions and its database functions, on the rules Excel's
saved values show: XLOOKUP's and XMATCH's searches, SORT and SORTBY, WRAPCOLS, WRAPROWS,
EXPAND, TRIMRANGE, INDIRECT in R1C1 style and of a defined name, OFFSET's sizes, CHOOSE as a
reference, and the database functions' computed criteria.

Unless a test says otherwise, each case is an input and the value Excel saved for it in
IronCalc's test workbooks (the PyPI package ironcalc 0.9.1, ``xlsx/tests/calc_tests/``: the
folder and file are named in each test), or an example of the function's page in Excel's
reference (support.microsoft.com)."""

from __future__ import annotations

from collections.abc import Mapping

from fide_rating.engine.book import Book
from fide_rating.engine.compiler import Compiler
from fide_rating.engine.formula.values import NA, NUM, REF, VALUE, Area, Result, XlError, as_grid
from test_formula import _rc

CALC = XlError("#CALC!")


def _book(
    cells: Mapping[str, object],
    formulas: Mapping[str, str] | None = None,
    names: dict[str, str] | None = None,
) -> tuple[Book, Compiler]:
    """A book of sheets "S" and "T" (addresses ``T!A1`` are T's): constants and formulas,
    and the defined names ``names``."""
    b = Book()
    for sheet in ("S", "T", "My sheet"):
        b.sheets[sheet.upper()] = sheet
        b.extents[sheet] = (0, 0)
    compiler = Compiler(names or {})
    b.compile_name = lambda text: compiler.name(text, reference=True)
    for ref, value in {**cells, **(formulas or {})}.items():
        sheet, _, place = ref.rpartition("!")
        sheet = sheet or "S"
        r, c = _rc(place)
        if ref in (formulas or {}):
            b.compiled[(sheet, r, c)] = compiler.compile(str(value).lstrip("="), r, c)
        else:
            plain_int = isinstance(value, int) and not isinstance(value, bool)
            b.results[(sheet, r, c)] = float(value) if plain_int else value  # type: ignore[assignment,arg-type]
        rows, cols = b.extents[sheet]
        b.extents[sheet] = (max(rows, r), max(cols, c))
    return b, compiler


def ev(
    text: str,
    cells: Mapping[str, object] | None = None,
    at: str = "Z99",
    names: dict[str, str] | None = None,
    formulas: Mapping[str, str] | None = None,
) -> object:
    """The value of ``text`` written in cell ``at`` of sheet S."""
    b, _ = _book(cells or {}, {**(formulas or {}), at: text}, names)
    r, c = _rc(at)
    return b.value("S", r, c)


def ev_array(text: str, cells: Mapping[str, object] | None = None, at: str = "Z99") -> Result:
    """The whole array an array formula ``text`` gives in cell ``at`` (a range as itself)."""
    b, compiler = _book(cells or {})
    r, c = _rc(at)
    out = compiler.compile_array(text.lstrip("="), r, c)(b, "S", r, c)
    return out if isinstance(out, Area | XlError) else as_grid(b, out)


def _column(values: list[object], letter: str = "A", first: int = 1) -> dict[str, object]:
    return {f"{letter}{first + k}": v for k, v in enumerate(values) if v is not None}


# --- XLOOKUP and XMATCH ---------------------------------------------------------------------

# LOOKUP_AND_REFERENCE/XLOOKUP.xlsx, sheet MultipleElements: sorted data with runs of equal
# values, up (A) and down (I), the results beside them (B and J)
_UP = _column([1, 2, 3, 4, 5, 5, 5, 6, 7, 7, 7, 8, 9]) | _column(
    ["aa", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"], "B"
)
_DOWN = _column([9, 8, 7, 7, 7, 6, 5, 5, 5, 4, 3, 2, 1], "I") | _column(
    ["aa", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"], "J"
)


def test_xlookup_binary_search_ascending_finds_the_first_of_equal_values() -> None:
    """Search mode 2 (sorted up): an exact match is the first of a run, the next smaller the
    last of the run below, the next larger the first of the run above; whole columns are
    searched to their last value, not through the blanks below."""
    assert ev("=XLOOKUP(5,A:A,B:B,,-1,2)", _UP) == "d"
    assert ev("=XLOOKUP(5,A:A,B:B,,1,2)", _UP) == "d"
    assert ev("=XLOOKUP(7,A1:A13,B1:B13,,0,2)", _UP) == "h"
    assert ev("=XLOOKUP(7.1,A:A,B:B,,-1,2)", _UP) == "j"
    assert ev("=XLOOKUP(7.1,A:A,B:B,,1,2)", _UP) == "k"
    assert ev("=XLOOKUP(6.8,A:A,B:B,,-1,2)", _UP) == "g"
    assert ev("=XLOOKUP(1.8,A:A,B:B,,-1,2)", _UP) == "aa"
    assert ev("=XLOOKUP(0.5,A:A,B:B,,-1,2)", _UP) == NA  # nothing below the first
    assert ev("=XLOOKUP(9.5,A:A,B:B,,1,2)", _UP) == NA  # nothing above the last
    assert ev("=XLOOKUP(7.1,A:A,B:B,,0,2)", _UP) == NA
    assert ev("=XMATCH(5,A1:A13,0,2)", _UP) == 5.0


def test_xlookup_binary_search_descending_finds_the_last_of_equal_values() -> None:
    """Search mode -2 (sorted down): an exact match is the last of a run, the next larger
    the last of the run above, the next smaller the first of the run below."""
    assert ev("=XLOOKUP(5,I1:I13,J1:J13,,-1,-2)", _DOWN) == "h"
    assert ev("=XLOOKUP(7,I1:I13,J1:J13,,1,-2)", _DOWN) == "d"
    assert ev("=XLOOKUP(7.1,I1:I13,J1:J13,,-1,-2)", _DOWN) == "b"
    assert ev("=XLOOKUP(7.1,I1:I13,J1:J13,,1,-2)", _DOWN) == "a"
    assert ev("=XLOOKUP(6.8,I1:I13,J1:J13,,1,-2)", _DOWN) == "d"
    assert ev("=XLOOKUP(1.8,I1:I13,J1:J13,,-1,-2)", _DOWN) == "l"
    assert ev("=XLOOKUP(0.5,I1:I13,J1:J13,,-1,-2)", _DOWN) == NA
    assert ev("=XLOOKUP(10,I1:I13,J1:J13,,1,-2)", _DOWN) == NA


def test_xlookup_next_smaller_and_larger_cross_types() -> None:
    """Match modes -1 and 1 order all values as Excel sorts them, numbers before texts before
    logicals: FALSE's next smaller is the last text, a text's next larger a logical, a
    number's next larger a text (sheets ReturnSmaller and ReturnLarger)."""
    cells = _column([2, 5, 4, 5, 3, True, "ala"], "A", 4) | _column(list("abcdefg"), "B", 4)
    lookup = "=XLOOKUP({},$A$4:$A$10,$B$4:$B$10,,{})"
    assert ev(lookup.format("FALSE", -1), cells) == "g"
    assert ev(lookup.format('"qwerty"', -1), cells) == "g"
    assert ev(lookup.format("TRUE", -1), cells) == "f"  # exact
    assert ev(lookup.format("10", -1), cells) == "b"  # 5, the first of the two
    assert ev(lookup.format("1.8", -1), cells) == NA
    assert ev(lookup.format("10", 1), cells) == "g"  # no number above 10: the text
    assert ev(lookup.format('"qwerty"', 1), cells) == "f"  # no text above: TRUE
    assert ev(lookup.format("4.8", 1), cells) == "b"
    assert ev(lookup.format("FALSE", 1), cells) == "f"
    # the binary search orders them alike: texts sorted up, a logical after all of them
    texts = _column(list("abcde"), "B", 19) | _column([2, 3, 4, 5, 6], "A", 19)
    assert ev("=XLOOKUP(TRUE,$B$19:$B$23,$A$19:$A$23,,-1,2)", texts) == 6.0
    assert ev("=XLOOKUP(12,$B$19:$B$23,$A$19:$A$23,,-1,2)", texts) == NA
    assert ev("=XLOOKUP(12,$B$19:$B$23,$A$19:$A$23,,1,2)", texts) == 2.0


def test_wildcards_and_regular_expressions_in_xlookup_and_xmatch() -> None:
    """Match mode 2 with a binary search is #VALUE! (sheet Wildcards); match mode 3 finds a
    regular expression in a text, case counting (LOOKUP_AND_REFERENCE/XMATCH.xlsx)."""
    cells = _column(["Abra", "Bra", "Cada", "Fun", "Dan"]) | _column([1, 2, 3, 4, 5], "B")
    assert ev('=XLOOKUP("Abra",A1:A5,B1:B5,,2,2)', cells) == VALUE
    assert ev('=XLOOKUP("Dan",A1:A5,B1:B5,,2,-2)', cells) == VALUE
    assert ev('=XLOOKUP("Abra",A1:A5,B1:B5,,2,1)', cells) == 1.0
    assert ev('=XLOOKUP("?an",A1:A5,B1:B5,,2,-1)', cells) == 5.0
    countries = _column(["Albania", "Indonesia", "India", "Germany", "Spain", "Venezuela",
                         "Italy", "Francialy"], "A", 2)  # fmt: skip
    assert ev('=XMATCH("[A-Z][a-z]+y",A2:A9,3,1)', countries) == 4.0
    assert ev('=XMATCH("[A-Z][a-z]+y",A2:A9,3,-1)', countries) == 8.0
    assert ev('=XMATCH("^germany$",A2:A9,3)', countries) == NA  # case counts
    assert ev('=XMATCH("(?i)^germany$",A2:A9,3)', countries) == 4.0
    assert ev('=XMATCH("ia",A2:A9,3)', countries) == 1.0  # found inside the text
    assert ev("=XMATCH(42,A14:A15,3)", {"A14": "apple", "A15": "bannana"}) == NA
    assert ev('=XMATCH("[",A2:A9,3)', countries) == VALUE  # not a regular expression
    assert ev('=XMATCH("a",A2:A9,3,2)', countries) == VALUE  # with a binary search
    assert ev('=XMATCH("a",A2:A9,4)', countries) == VALUE  # no such mode


def test_index_area_and_a_table_given_as_a_value() -> None:
    """INDEX's area_num is 1 for one range or array, another #REF! (INDEX.xlsx); VLOOKUP's
    table given as a text is #VALUE!, as a number a table of one (HVLOOKUP.xlsx)."""
    assert ev("=INDEX({1,2,3},1,0,1)") == 1.0
    assert ev("=INDEX({1,2,3},1,0,2)") == REF
    cells = {"M1": "Aranda"}
    assert ev('=VLOOKUP(M1,"Nothing",1)', cells) == VALUE
    assert ev('=HLOOKUP(M1,"Nothing",1)', cells) == VALUE
    assert ev("=VLOOKUP(M1,3,1)", cells) == NA
    assert ev("=VLOOKUP(M1,TRUE,1)", cells) == NA


# --- SORT, SORTBY, UNIQUE -------------------------------------------------------------------

# LOOKUP_AND_REFERENCE/SORT.xlsx, Sheet1: A1:A25 (A12 and A18:A25 blank) and B1:B17
_SORTED = _column([1, 5, 2, -2, 5, 7, "Hola", "De", "HOLA", XlError("#NAME?"), "Qwer", None,
                   "AAAA", 123, "2", XlError("#DIV/0!"), NA]) | _column(
    ["abra", "cada", "abra", "nos", "sin tu", "sf", "ad", "sa", "df", "ghdf", "xvsd", 12, "de",
     "efv", "uhgf", "nht", "ettyer"], "B")  # fmt: skip


def _flat(grid: Result) -> list[object]:
    assert isinstance(grid, list)
    return [v for line in grid for v in line]


def test_sort_puts_blanks_last_descending_too() -> None:
    """SORT(A1:A25,1,-1): errors by their number down, texts, numbers, then the blanks (the
    range's blank rows past the sheet's last used one too), equal texts in their order."""
    got = _flat(ev_array("=SORT(A1:A25,1,-1)", _SORTED))
    assert got[:16] == [NA, XlError("#NAME?"), XlError("#DIV/0!"), "Qwer", "Hola", "HOLA", "De",
                        "AAAA", "2", 123.0, 7.0, 5.0, 5.0, 2.0, 1.0, -2.0]  # fmt: skip
    assert got[16:] == [None] * 9
    assert len(_flat(ev_array("=SORT(A1:A25)", _SORTED))) == 25


def test_unique_lists_a_blank_past_the_used_rows() -> None:
    """UNIQUE(A1:A13) of names in A1:A12: the blank A13 is one more distinct value (Sheet2)."""
    names = _column(["Marie", "Random", "Elisa", "Marisa"] * 3)
    assert _flat(ev_array("=UNIQUE(A1:A13)", names)) == ["Marie", "Random", "Elisa", "Marisa",
                                                         None]  # fmt: skip
    assert _flat(ev_array("=UNIQUE(A1:A12)", names)) == ["Marie", "Random", "Elisa", "Marisa"]


def test_sortby() -> None:
    """SORTBY(A1:A17,B1:B17) and with -1 (SORT.xlsx), by two keys (Excel's example: by region
    then by age), by a row to sort columns; a key of another size or an order other than 1
    or -1 is #VALUE!."""
    up = _flat(ev_array("=SORTBY(A1:A17,B1:B17)", _SORTED))
    assert up == [None, 1.0, 2.0, "Hola", 5.0, "AAAA", "HOLA", 123.0, NA, XlError("#NAME?"),
                  XlError("#DIV/0!"), -2.0, "De", 7.0, 5.0, "2", "Qwer"]  # fmt: skip
    down = _flat(ev_array("=SORTBY(A1:A17,B1:B17,-1)", _SORTED))
    assert down == ["Qwer", "2", 5.0, 7.0, "De", -2.0, XlError("#DIV/0!"), XlError("#NAME?"), NA,
                    123.0, "HOLA", "AAAA", 5.0, "Hola", 1.0, 2.0, None]  # fmt: skip
    people = {"A1": "Tom", "B1": "Red", "C1": 52, "A2": "Fred", "B2": "Blue", "C2": 65,
              "A3": "Amy", "B3": "Green", "C3": 22, "A4": "Sal", "B4": "Red", "C4": 73,
              "A5": "Fritz", "B5": "Blue", "C5": 19}  # fmt: skip
    two = ev_array("=SORTBY(A1:C5,B1:B5,1,C1:C5,-1)", people)
    assert [line[0] for line in two] == ["Fred", "Fritz", "Amy", "Sal", "Tom"]  # type: ignore[union-attr]
    across = ev_array("=SORTBY(A1:C1,{3,1,2})", {"A1": "x", "B1": "y", "C1": "z"})
    assert across == [["y", "z", "x"]]
    assert ev_array("=SORTBY(A1:C5,B1:B4)", people) == VALUE
    assert ev_array("=SORTBY(A1:C5,B1:B5,0)", people) == VALUE
    assert ev_array("=SORTBY(A1:C5,A1:B5)", people) == VALUE


# --- WRAPCOLS, WRAPROWS, EXPAND, TRIMRANGE --------------------------------------------------

_ROW = {"A1": "London", "B1": "Paris", "C1": "Madrid", "D1": "Berlin", "E1": "Rome", "F1": 12,
        "G1": XlError("#DIV/0!"), "H1": "Warsaw"}  # fmt: skip


def test_wrapcols_and_wraprows() -> None:
    """LOOKUP_AND_REFERENCE/WRAPCOLS_ROWS.xlsx: the last column (row) padded with #N/A or
    ``pad_with``; a count below 1 is #NUM!, a block #VALUE! (Excel's reference)."""
    assert ev_array("=WRAPCOLS(A1:H1,3)", _ROW) == [
        ["London", "Berlin", XlError("#DIV/0!")], ["Paris", "Rome", "Warsaw"],
        ["Madrid", 12.0, NA]]  # fmt: skip
    assert _flat(ev_array('=WRAPCOLS(A1:H1,3,"xxx")', _ROW))[-1] == "xxx"
    assert ev_array("=WRAPROWS(A1:H1,5,NA())", _ROW) == [
        ["London", "Paris", "Madrid", "Berlin", "Rome"], [12.0, XlError("#DIV/0!"), "Warsaw", NA,
                                                          NA]]  # fmt: skip
    assert ev_array("=WRAPROWS(A1:H1,2)", _ROW)[3] == [XlError("#DIV/0!"), "Warsaw"]  # type: ignore[index]
    assert ev_array("=WRAPCOLS(FALSE,2)") == [[False]]  # fewer values than the count: unpadded
    assert ev_array("=WRAPROWS({1,2,3},3)") == [[1.0, 2.0, 3.0]]
    assert ev_array("=WRAPROWS({1,2,3},4)") == [[1.0, 2.0, 3.0]]
    assert ev_array("=WRAPCOLS(A1:H1,1)", _ROW) == [["London", "Paris", "Madrid", "Berlin",
                                                    "Rome", 12.0, XlError("#DIV/0!"), "Warsaw"]]  # fmt: skip
    assert ev_array("=WRAPCOLS(A1:H1,0)", _ROW) == NUM
    assert ev_array("=WRAPROWS(A1:H2,2)", _ROW) == VALUE


def test_expand() -> None:
    """LOOKUP_AND_REFERENCE/EXPAND.xlsx; a size below the array's is #VALUE!."""
    cells = {"A5": 1, "B5": 2, "C5": 3, "A6": 4, "B6": 5, "C6": 6}
    assert ev_array("=EXPAND(A5:C6,3)", cells) == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0],
                                                   [NA, NA, NA]]  # fmt: skip
    assert ev_array('=EXPAND(A5:C6,3,4,"x")', cells) == [[1.0, 2.0, 3.0, "x"],
                                                         [4.0, 5.0, 6.0, "x"], ["x"] * 4]  # fmt: skip
    assert ev_array("=EXPAND(A5:C6,2,3)", cells) == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    # Excel's reference: its two examples, and #NUM! for an array too large
    example = {"A2": 1, "B2": 2, "A3": 3, "B3": 4}
    assert ev_array("=EXPAND(A2:B3,3,3)", example) == [[1.0, 2.0, NA], [3.0, 4.0, NA], [NA] * 3]
    assert ev_array('=EXPAND(A2,3,3,"-")', example) == [[1.0, "-", "-"], ["-"] * 3, ["-"] * 3]
    assert ev_array("=EXPAND(A2,1048577)", example) == NUM
    assert ev_array("=EXPAND(A2,1,16385)", example) == NUM
    assert ev_array("=EXPAND(A5:C6,1)", cells) == VALUE
    assert ev_array("=EXPAND(A5:C6,2,2)", cells) == VALUE


def test_trimrange() -> None:
    """LOOKUP_AND_REFERENCE/TRIMRANGE.xlsx: the range less its blank edges, a range still
    (SUM of it, its ROWS); the modes of Excel's reference; all blank is #REF!."""
    cells = {"A3": 1, "B3": 2, "A4": 3, "B5": 4, "A7": 7, "B9": "Hola", "H3": 1, "H4": 2, "H5": 3}
    assert ev("=ROWS(TRIMRANGE(A1:C22))", cells) == 7.0
    assert ev("=COLUMNS(TRIMRANGE(A1:C22))", cells) == 2.0
    assert ev("=SUM(TRIMRANGE(H:H))", cells) == 6.0
    assert ev("=ROWS(TRIMRANGE(H:H))", cells) == 3.0
    assert ev("=ROWS(TRIMRANGE(A1:C22,1))", cells) == 20.0  # the leading rows only
    assert ev("=ROWS(TRIMRANGE(A1:C22,2))", cells) == 9.0  # the trailing rows only
    assert ev("=ROWS(TRIMRANGE(A1:C22,0))", cells) == 22.0
    assert ev("=COLUMNS(TRIMRANGE(A1:C22,3,0))", cells) == 3.0
    assert ev_array("=TRIMRANGE({0,1;0,2},3,3)") == [[0.0, 1.0], [0.0, 2.0]]
    assert ev("=ROWS(TRIMRANGE(D1:E9))", cells) == REF
    assert ev("=ROWS(TRIMRANGE(A1:C22,4))", cells) == VALUE


# --- INDIRECT, OFFSET, HYPERLINK, CHOOSE ----------------------------------------------------

_GRID = {"A1": 1, "B1": 2, "C1": 3, "A2": 4, "B2": 5, "C2": 6, "T!A1": 1, "T!B1": 2, "T!C1": 3,
         "T!A2": 4, "T!B2": 5, "T!C2": 6, "My sheet!B2": 50}  # fmt: skip


def test_indirect_in_r1c1_style() -> None:
    """LOOKUP_AND_REFERENCE/INDIRECT.xlsx: absolute and relative R1C1 references (relative to
    the formula's cell), ranges either way round, other sheets, whole rows and columns; the
    second argument written empty is R1C1 too."""
    assert ev('=INDIRECT("R2C2",FALSE)', _GRID) == 5.0
    assert ev('=INDIRECT("r2c1",0)', _GRID) == 4.0
    assert ev('=SUM(INDIRECT("R2C3:R1C2",FALSE))', _GRID) == 16.0
    assert ev('=INDIRECT("R2C2",)', _GRID) == 5.0
    assert ev('=INDIRECT("R[-1]C",FALSE)', _GRID, at="B3") == 5.0
    assert ev('=INDIRECT("R[-1]C[-2]",FALSE)', _GRID, at="C3") == 4.0
    assert ev('=INDIRECT("RC[-1]",FALSE)', _GRID, at="D2") == 6.0
    assert ev('=INDIRECT("RC1",FALSE)', _GRID, at="E2") == 4.0
    assert ev('=SUM(INDIRECT("R[-4]C[-5]:R[-3]C[-3]",FALSE))', _GRID, at="F5") == 21.0
    assert ev('=INDIRECT("T!R2C2",FALSE)', _GRID) == 5.0
    assert ev("=INDIRECT(\"'My sheet'!R2C2\",FALSE)", _GRID) == 50.0
    assert ev('=SUM(INDIRECT("t!R1C1:R2C3",FALSE))', _GRID) == 21.0
    assert ev('=SUM(INDIRECT("T!R2",FALSE))', _GRID) == 15.0
    assert ev('=SUM(INDIRECT("T!R1:R2",FALSE))', _GRID) == 21.0
    assert ev('=SUM(INDIRECT("T!C2",FALSE))', _GRID) == 7.0
    assert ev('=SUM(INDIRECT("T!C2:C3",FALSE))', _GRID) == 16.0
    assert ev('=SUM(INDIRECT("T!C",FALSE))', _GRID, at="B9") == 7.0
    assert ev('=SUM(INDIRECT("T!C[1]",FALSE))', _GRID, at="A9") == 7.0


def test_indirect_r1c1_wraps_round_the_sheet() -> None:
    """Sheet WrapAroud: a relative place before row 1 or column A comes round from the last
    row or column (and past the last back to the first); an offset of a whole sheet is
    #REF!."""
    cells = {"XFD2": 7, "F1048576": 42, "F1048575": 41, "B1": 2}
    assert ev('=INDIRECT("RC[-5]",FALSE)', cells, at="E2") == 7.0
    assert ev('=INDIRECT("R[-6]C",FALSE)', cells, at="F6") == 42.0
    assert ev('=INDIRECT("R[-7]C[-1]",FALSE)', cells, at="G6") == 41.0
    assert ev('=INDIRECT("R[1]C[1]",FALSE)', cells, at="A1048576") == 2.0
    assert ev('=INDIRECT("R[1048575]C",FALSE)', cells, at="F1") == 42.0  # within a sheet
    assert ev('=INDIRECT("R[-1048576]C",FALSE)', cells, at="H7") == REF
    assert ev('=INDIRECT("RC[16384]",FALSE)', cells, at="H8") == REF
    assert ev('=INDIRECT("R[-2147483648]C",FALSE)', cells, at="J12") == REF


def test_indirect_errors() -> None:
    """Sheet errors and a1_notation: a text that is no reference in the style asked for, a
    row 0, a cell joined to a row, a sheet the workbook does not have: #REF!; errors given
    are the result, a style that is no logical #VALUE!."""
    assert ev('=INDIRECT("",FALSE)', _GRID) == REF
    assert ev('=INDIRECT("R0C1",FALSE)', _GRID) == REF
    assert ev('=INDIRECT("R1C1:R2",FALSE)', _GRID) == REF
    assert ev('=INDIRECT("B2",FALSE)', _GRID) == REF
    assert ev('=INDIRECT("R2C2")', _GRID) == REF
    assert ev('=INDIRECT("R2C2",TRUE)', _GRID) == REF
    assert ev('=INDIRECT("B2",TRUE)', _GRID) == 5.0
    assert ev('=INDIRECT("Sheet7!R2C2",FALSE)', _GRID) == REF
    assert ev('=ROW(INDIRECT("NonExist!W3"))', _GRID) == REF  # ROW_COLUM.xlsx
    assert ev('=ROW(INDIRECT("T!W3"))', _GRID) == 3.0
    assert ev('=INDIRECT("R1C1","no")', _GRID) == VALUE
    assert ev("=INDIRECT(1/0,FALSE)", _GRID) == XlError("#DIV/0!")


def test_indirect_of_a_defined_name() -> None:
    """A name the workbook defines as a range is that range (in either style); one it does
    not define, or defines as a value, is #REF! (ROW_COLUM.xlsx: ``INDIRECT("hola")``)."""
    names = {"Block": "S!$A$1:$C$2", "Rate": "0.5", "Corner": "S!$B$2"}
    assert ev('=SUM(INDIRECT("Block"))', _GRID, names=names) == 21.0
    assert ev('=SUM(INDIRECT("block",FALSE))', _GRID, names=names) == 21.0
    assert ev('=INDIRECT("Corner")', _GRID, names=names) == 5.0
    assert ev('=INDIRECT("Rate")', _GRID, names=names) == REF
    assert ev('=ROW(INDIRECT("hola"))', _GRID, names=names) == REF
    assert ev('=INDIRECT("h")', _GRID, names=names) == REF


def test_offset_sizes_between_0_and_1_are_one_cell() -> None:
    """ROW_COLUM.xlsx, sheet OFFSET: a height or width is truncated (3.99 is 3), but one
    between 0 and 1 is one cell; 0 is #REF!."""
    cells = {"Y41": 50, "Z41": 12, "AA41": -13.5, "Z42": 7, "AA43": 3, "AB43": 7, "AB44": 5}
    assert ev("=SUM(OFFSET(W39,2,2,3,0.9))", cells) == 50.0
    assert ev("=SUM(OFFSET(W39,2,2,3.1,3.99))", cells) == 58.5
    assert ev("=SUM(OFFSET(W39,2,2,3,4.2))", cells) == 65.5
    assert ev("=SUM(OFFSET(W39,2,2,3,0))", cells) == REF
    assert ev("=SUM(OFFSET(W39,2,2,0.5,1))", cells) == 50.0


def test_hyperlink_shows_a_blank_friendly_name_as_0() -> None:
    """link_test.xlsx (xlsx/tests/): HYPERLINK("https://"&E21,E21) with E21 blank shows 0;
    without a friendly name, the link."""
    assert ev('=HYPERLINK("https://"&E21,E21)') == 0.0
    assert ev('=HYPERLINK("https://"&E21)') == "https://"
    assert ev('=HYPERLINK("https://x",E21)', {"E21": "x"}) == "x"


def test_sequence_sizes() -> None:
    """MATH_AND_TRIGONOMETRY/SEQUENCE.xlsx: rows written empty are 1, a negative size
    #VALUE!, a size of 0 an empty array (Excel's #CALC!)."""
    assert ev_array("=SEQUENCE(,4,,2.5)") == [[1.0, 3.5, 6.0, 8.5]]
    assert ev_array("=SEQUENCE(2.3,2,7)") == [[7.0, 8.0], [9.0, 10.0]]
    assert ev_array("=SEQUENCE(-1)") == VALUE
    assert ev_array("=SEQUENCE(1,-1)") == VALUE
    assert ev_array("=SEQUENCE(0.3)") == CALC


def test_choose_gives_a_reference_where_one_is_wanted() -> None:
    """LOOKUP_AND_REFERENCE/CHOOSE.xlsx, range_operator.xlsx: ``A9:CHOOSE(2,A10,A11,A12)`` is
    a range; SUM of a chosen cell skips its text as SUM of a range does; as a value, CHOOSE
    gives the cell's value."""
    cells = {"A1": 1, "A2": 2, "A3": 3, "A4": 4, "A5": 5, "B1": "7"}
    assert ev("=SUM(A1:CHOOSE(3,A2,A3,A4))", cells) == 10.0
    assert ev("=SUM(CHOOSE(1,A1,A2,A3,A4):CHOOSE(4,A1,A3,A4,A5))", cells) == 15.0
    assert ev("=ROW(CHOOSE(2,A1,A4))", cells) == 4.0
    assert ev("=SUM(CHOOSE(1,B1))", cells) == 0.0  # a text in a reference: skipped
    assert ev("=CHOOSE(1,B1)+1", cells) == 8.0  # a value: the text read as a number
    assert ev("=SUM(IF(TRUE,A1,A2):A3)", cells) == 6.0


# --- the database functions' criteria -------------------------------------------------------

# Excel's example of the database functions (DAVERAGE's page): a tree, its height, age,
# yield and profit
_TREES = [("Tree", "Height", "Age", "Yield", "Profit"), ("Apple", 18, 20, 14, 105),
          ("Pear", 12, 12, 10, 96), ("Cherry", 13, 14, 9, 105), ("Apple", 14, 15, 10, 75),
          ("Pear", 9, 8, 8, 76.8), ("Apple", 8, 9, 6, 45)]  # fmt: skip
_DB = {f"{'ABCDE'[c]}{r}": v for r, row in enumerate(_TREES, 1) for c, v in enumerate(row)}


def test_computed_criteria_are_evaluated_for_each_record() -> None:
    """A formula under a heading that is blank or names no field is evaluated for each record
    as if it stood in the record's row (written beside the first record, its relative
    references move down with the record): the records where it gives TRUE (Excel's
    "criteria created as the result of a formula"). The figures are the example's."""
    above = {"G1": "Above"}
    # profit above the average of all (83.8): 105, 96, 105
    assert ev("=DSUM(A1:E7,5,G1:G2)", {**_DB, **above},
              formulas={"G2": "=E2>AVERAGE($E$2:$E$7)"}) == 306.0  # fmt: skip
    assert ev("=DCOUNT(A1:E7,5,H1:H2)", _DB, formulas={"H2": "=B2>=13"}) == 3.0
    # with an ordinary criterion beside it: both must hold
    both = {**_DB, "I1": "Tree", "I2": "Apple"}
    assert ev("=DSUM(A1:E7,5,H1:I2)", both, formulas={"H2": "=B2>=13"}) == 180.0
    # a second criteria row is another way to be chosen
    rows = {**_DB, "I1": "Tree", "I3": "Pear"}
    assert ev("=DCOUNT(A1:E7,5,H1:I3)", rows, formulas={"H2": "=B2>=14"}) == 4.0


def test_values_under_a_heading_that_names_no_field() -> None:
    """DATABASE/*.xlsx: under "Revnu" a blank cell is no condition (every record), a text
    none (DGET's #VALUE!); TRUE typed there, every record. A formula whose value is a text
    under a field's heading (="East" under ="Region") is an ordinary criterion."""
    assert ev("=DSUM(A1:E7,5,G1:G2)", {**_DB, "G1": "Revnu"}) == 502.8
    assert ev("=DGET(A1:E7,5,G1:G2)", {**_DB, "G1": "Rgn", "G2": "Pear"}) == VALUE
    assert ev("=DCOUNT(A1:E7,5,G1:G2)", {**_DB, "G1": "Revnu", "G2": True}) == 6.0
    assert ev("=DCOUNT(A1:E7,5,G1:G2)", {**_DB, "G1": NA, "G2": "Apple"}) == 0.0
    assert ev("=DSUM(A1:E7,5,G1:G2)", _DB, formulas={"G1": '="Tree"', "G2": '="Pear"'}) == 172.8
    assert ev("=DCOUNT(A1:E7,5,H1:H2)", _DB, formulas={"H2": '="Pear"'}) == 0.0


def test_a_field_given_as_a_logical_is_a_column_number() -> None:
    """DCOUNT_DCOUNTA_DGET_DPRODUCT.xlsx: the field TRUE is column 1, FALSE #VALUE!; the text
    "true" is the heading TRUE."""
    cells = {**_DB, "G1": "Tree", "G2": "Apple", "F1": True, "F2": 1, "F4": 2}
    assert ev("=DCOUNTA(A1:F7,TRUE,G1:G2)", cells) == 3.0
    assert ev("=DCOUNT(A1:F7,TRUE,G1:G2)", cells) == 0.0  # the trees' names: no numbers
    assert ev('=DCOUNT(A1:F7,"true",G1:G2)', cells) == 1.0  # column F, headed TRUE
    assert ev("=DCOUNT(A1:F7,FALSE,G1:G2)", cells) == VALUE


def test_array_operators_take_a_small_range_whole() -> None:
    """LOOKUP_AND_REFERENCE/ROW_COLUM.xlsx, Sheet2: ``{=MAX((C1:C20<>"")*ROW(C1:C20))}`` is
    the last used row, 6, though the sheet is used to row 6 only: the range's blank rows are
    there for the operators as ROW's rows are; ``{=A1:A4*2}`` of two values has four rows."""
    cells = {"C1": 1, "C2": "a", "C4": 3, "C6": "z"}
    assert ev_array('=MAX((C1:C20<>"")*ROW(C1:C20))', cells) == [[6.0]]
    assert ev_array('=MAX((A3:J3<>"")*COLUMN(A3:J3))', {"A3": 1, "C3": 2}) == [[3.0]]
    assert ev_array("=A1:A4*2", {"A1": 1, "A2": 2}) == [[2.0], [4.0], [0.0], [0.0]]
    assert ev_array("=-A1:A3", {"A1": 1}) == [[-1.0], [0.0], [0.0]]


def test_filter_lines_up_with_an_include_computed_over_the_whole_range() -> None:
    """LOOKUP_AND_REFERENCE/SORT.xlsx, Sheet3: ``FILTER(A2:A12,A2:A12>10)`` of a sheet used
    to row 10 (the include has the range's eleven rows, the array too); over whole columns
    both stop at the sheet's used end."""
    cells = _column([23, 5, 24, 12, 3, 12, 1, 8, 2], "A", 2)
    assert ev_array("=FILTER(A2:A12,A2:A12>10)", cells) == [[23.0], [24.0], [12.0], [12.0]]
    assert ev_array("=FILTER(A:A,A:A>20)", cells) == [[23.0], [24.0]]
    assert ev_array("=FILTER(A2:A12,A2:A12>100)", cells) == CALC


def test_index_with_its_column_written_empty_is_the_whole_row() -> None:
    """``INDEX(block,1,)``: a column written empty is 0, the whole row (the IMF and World
    Bank's LIC DSF template, PyPI excel-grapher 24.1.3: MATCH(x,INDEX(DSF__LIST_DSA,1,),0));
    left out, a block of several rows and columns is #REF!."""
    cells = {"A1": "id", "B1": "date", "C1": "value", "A2": 1, "B2": 2, "C2": 3}
    assert ev('=MATCH("value",INDEX(A1:C2,1,),0)', cells) == 3.0
    assert ev("=SUM(INDEX(A1:C2,2,))", cells) == 6.0
    assert ev("=INDEX(A1:C2,2)", cells) == REF
    assert ev("=INDEX(A1:C2,2,3)", cells) == 3.0
