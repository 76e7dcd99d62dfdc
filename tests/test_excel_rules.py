"""The glue of Excel's semantics, each rule on a workbook or formula of our own: coercion,
criteria, lookups, references, implicit intersection, errors. Each test cites the rule it holds
the engine to and checks both sides of it (issue 21's defects)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula

from fide_rating.engine.book import NotComputed
from fide_rating.engine.formula import col_letters
from fide_rating.engine.formula.values import DIV0, NA, NUM, REF, VALUE
from fide_rating.engine.recalc import Recalculated, recalc_file
from test_formula import book, ev

COLUMN_H = {"H1": 1, "H2": 2, "H3": "3", "H4": 3, "H5": "x"}


def _values(out: Recalculated) -> dict[str, object]:
    return {f"{s}!{col_letters(c)}{r}": v for (s, r, c), v in
            out.values.items()}  # fmt: skip


def _recalc(tmp_path: Path, wb: openpyxl.Workbook, name: str = "rules.xlsx") -> Recalculated:
    path = tmp_path / name
    wb.save(path)
    return recalc_file(path, out_dir=tmp_path / "out", force=True)


# --- lookups and criteria on whole columns -------------------------------------------------


def test_xlookup_on_whole_columns() -> None:
    """Whole columns line up with each other however far the sheet is used."""
    assert ev("=XLOOKUP(2,H:H,H:H)", COLUMN_H) == 2.0
    assert ev('=XLOOKUP("x",H:H,G:G)', {**COLUMN_H, "G5": "found"}) == "found"
    assert ev("=XLOOKUP(9,H:H,H:H)", COLUMN_H) == NA
    assert ev("=XLOOKUP(2,H:H,H1:H5)", COLUMN_H) == VALUE  # these do not line up


def test_criteria_take_a_number_and_a_numeric_text_alike() -> None:
    """COUNTIF's = converts texts that read as numbers, in the data and in the criterion
    (Excel counts the text "3" where it counts 3); the order operators count numbers only."""
    assert ev('=COUNTIF(H1:H5,"3")', COLUMN_H) == 2.0
    assert ev("=COUNTIF(H1:H5,3)", COLUMN_H) == 2.0
    assert ev('=COUNTIF(H1:H5,">2")', COLUMN_H) == 1.0  # the number 3, not the text
    assert ev('=COUNTIF(H1:H5,"x")', COLUMN_H) == 1.0
    assert ev('=COUNTIF(H1:H5,"<>3")', COLUMN_H) == 4.0  # the text "3" is not left out
    assert ev("=COUNTIF(H1:H5,A1)", {**COLUMN_H, "A1": NA, "H2": NA}) == 1.0  # an error
    assert ev('=SUMIF(H1:H5,"3",G1:G5)', {**COLUMN_H, "G3": 10, "G4": 20}) == 30.0


def test_a_whole_column_criterion_counts_the_blanks_beyond_the_used_rows() -> None:
    """COUNTIF(H:H,"<>x") is every cell of the column but the one "x": the blank cells too,
    all 1,048,571 below row 5; COUNTBLANK counts them as well."""
    assert ev('=COUNTIF(H:H,"<>x")', COLUMN_H) == 1_048_576 - 1
    assert ev('=COUNTIF(H:H,"x")', COLUMN_H) == 1.0
    assert ev('=COUNTIF(H:H,"")', COLUMN_H) == 1_048_576 - 5
    assert ev('=COUNTIF(H1:H3,"<>")', {"H1": "", "H2": 0}) == 2.0  # a formula's "" counts
    assert ev("=COUNTBLANK(H1:H7)", COLUMN_H) == 2.0
    assert ev('=COUNTIFS(H:H,"<>x",G:G,"")', COLUMN_H) == 1_048_576 - 1


def test_approximate_lookups_are_excels_binary_search() -> None:
    """MATCH 1, VLOOKUP TRUE and LOOKUP search as Excel does, by halves: on data out of order
    they give its answer, not a scan's (here a scan would stop at the 5 and find nothing)."""
    unsorted = {"A1": 5, "A2": 1, "A3": 2, "A4": 3, "A5": 4, "B1": "e", "B2": "a", "B3": "b",
                "B4": "c", "B5": "d"}  # fmt: skip
    assert ev("=MATCH(4,A1:A5,1)", unsorted) == 5.0
    assert ev("=VLOOKUP(4,A1:B5,2)", unsorted) == "d"
    assert ev("=LOOKUP(4,A1:A5,B1:B5)", unsorted) == "d"
    assert ev("=MATCH(4,A1:A5,0)", unsorted) == 5.0
    assert ev("=MATCH(0,A1:A5)", unsorted) == NA  # below the first value looked at
    # sorted data: the last value not above the goal, the last of a run of equal ones
    ordered = {"A1": 1, "A2": 2, "A3": 2, "A4": 2, "A5": 7}
    assert ev("=MATCH(2,A1:A5)", ordered) == 4.0
    assert ev("=MATCH(6.9,A1:A5)", ordered) == 4.0
    assert ev("=MATCH(100,A1:A5)", ordered) == 5.0
    # values of another type are stepped over: LOOKUP(2,1/(...)) finds the last match
    assert ev('=LOOKUP(2,1/(C1:C5="y"),B1:B5)',
              {**unsorted, "C1": "y", "C2": "n", "C4": "y"}) == "c"  # fmt: skip


# --- coercion -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=VALUE("1987-08-26")', 32015.0),  # DATE(1987,8,26)
        ('=VALUE("26-Aug-1987")', 32015.0),
        ('=VALUE("1987-08-26 12:00")', 32015.5),
        ('=VALUE("2:30 PM")', 14.5 / 24),
        ('=VALUE("14:30:36")', (14 * 3600 + 30 * 60 + 36) / 86400),
        ('="$1,000"*1', 1000.0),
        ('=VALUE(" (1,234.5) ")', -1234.5),
        ('=VALUE("12%")', 0.12),
        ('=VALUE("1 1/2")', 1.5),
        ('=VALUE("-$5")', -5.0),
        ('=VALUE("1e3")', 1000.0),
        ('=VALUE("1,23")', VALUE),  # not groups of three
        ('=VALUE("abc")', VALUE),
        ('=VALUE("")', VALUE),
        ("=VALUE(TRUE)", VALUE),
        ('="1987-08-26"+1', 32016.0),  # arithmetic reads texts as VALUE does
    ],
)
def test_text_to_number_as_value_reads_it(formula: str, expected: object) -> None:
    """Excel's VALUE: "Text can be in any of the constant number, date, or time formats
    recognized by Microsoft Excel"; anything else is #VALUE!."""
    assert ev(formula) == expected


@pytest.mark.parametrize("text", ["8/26/1987", "26/8/1987", "1/2/2020", "26/08"])
def test_a_date_of_numbers_only_is_read_by_the_country_and_reported(text: str) -> None:
    """Excel reads 8/26/1987 in the United States and 26/8/1987 in Europe, each country's
    Excel only its own order; the file does not say which country saved it. Where both
    readings agree (5/5/2020), or neither is a day (2/30/2020, 7/5/1800), there is no doubt."""
    with pytest.raises(NotComputed, match=r"by its country's settings|without a year"):
        ev(f'=VALUE("{text}")')
    assert ev(f'=VALUE(" {text}")') == VALUE  # a date with a space before it is none
    assert ev('=VALUE("5/5/2020")') == 43956.0
    assert ev('=VALUE("2/30/2020")') == VALUE
    assert ev('=YEAR("7/5/1800")') == VALUE


def test_a_date_with_spaces_around_it_is_not_one() -> None:
    assert ev('=VALUE("2024-01-10")') == 45301.0
    assert ev('=VALUE(" 2024-01-10 ")') == VALUE
    assert ev('=VALUE(" 12 ")') == 12.0  # a number may have them


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=""&0.00001', "0.00001"),
        ('=""&1.2345678901234568E-5', "1.23456789012346E-05"),
        ('=""&1.2345678901234567E-4', "0.000123456789012346"),
        ('=""&5.6789012345E-8', "0.000000056789012345"),
        ('=""&5.67890123456E-8', "5.67890123456E-08"),
        ('=""&123456789012345', "123456789012345"),
        ('=""&1234567890123456', "1.23456789012346E+15"),
        # up to 20 digits where 15 significant ones are the whole number (PyPI cellproof 0.2.1,
        # examples/functions.xlsx, saved by Excel: G8, G9, G52, G53)
        ('="x"&1000000000000000', "x1000000000000000"),
        ('="x"&123456789012345000', "x123456789012345000"),
        ('="x"&10000000000000000000', "x10000000000000000000"),
        ('=""&-1E+16', "-10000000000000000"),
        ('=""&1/3', "0.333333333333333"),
        ('=""&-0.5', "-0.5"),
        ('=""&1E+100', "1E+100"),
        ("=LEN(0.1+0.2)", 3.0),
    ],
)
def test_number_to_text_as_excels_general(formula: str, expected: object) -> None:
    """A number joined to text: 15 significant digits, plain up to 15 integer digits (20 where
    15 significant digits are the whole number) or 18 decimals, else scientific with a signed
    two-digit exponent (the values Excel gives, as Apache POI's NumberToTextConverter
    tabulates them, and as workbooks saved by Excel hold them)."""
    assert ev(formula) == expected


def test_power_and_floor_at_zero() -> None:
    """POWER(0,0) is #NUM!, POWER(0,-1) #DIV/0! (the ^ operator alike); FLOOR(0,0) is 0 but
    FLOOR(x,0) of any other x #DIV/0!; CEILING(x,0) is 0."""
    assert ev("=POWER(0,0)") == NUM
    assert ev("=0^0") == NUM
    assert ev("=POWER(0,-1)") == DIV0
    assert ev("=POWER(0,1)") == 0.0
    assert ev("=POWER(-8,1/2)") == NUM  # an odd root is computed: tests/test_excel_math_text.py
    assert ev("=FLOOR(0,0)") == 0.0
    assert ev("=FLOOR(1,0)") == DIV0
    assert ev("=CEILING(5,0)") == 0.0


# --- errors, implicit intersection ----------------------------------------------------------


def test_which_error_wins() -> None:
    """The arguments are taken from the left: an error, or a value of the wrong type, met
    first is the result (FLOOR("x",#N/A) is #VALUE!); AND skips texts, typed in or in ranges,
    but TRUE and FALSE (AND(TRUE,"0",#REF!) is #REF!, AND(TRUE,"0") TRUE, as Excel saves
    them); INDEX of a block given only a row is #REF!."""
    assert ev('=AND(TRUE,"0",#REF!)') == REF
    assert ev('=AND(TRUE,"0")') is True
    assert ev('=AND("0")') == VALUE  # no logical at all
    assert ev('=OR("TRUE",FALSE)') is True
    assert ev('=FLOOR("x",#N/A)') == VALUE
    assert ev('=FLOOR(#N/A,"x")') == NA
    assert ev("=AND(A1:A2)", {"A1": "x", "A2": True}) is True
    assert ev("=AND(A1:A2)", {"A1": "x"}) == VALUE  # no logical at all
    assert ev("=INDEX(C1:D2,2)", {"C2": 5}) == REF
    assert ev("=INDEX(C1:D2,2,1)", {"C2": 5}) == 5.0
    assert ev("=INDEX(C1:C2,2)", {"C2": 5}) == 5.0
    assert ev("=ROUND(#N/A,#DIV/0!)") == NA  # the first error, in argument order


def test_implicit_intersection_in_an_ordinary_cell_iteration_in_an_array_formula(
    tmp_path: Path,
) -> None:
    """A range given where one value is taken: the cell in the formula's own row (or column),
    #VALUE! where there is none; in an array formula the range is taken element by element."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    ws["H1"], ws["H2"] = "a", "b"
    ws["J1"], ws["J2"] = 1, 2
    ws["I1"] = "=CONCATENATE(H1:H2)"
    ws["I2"] = "=J1:J2*2"
    ws["I5"] = "=CONCATENATE(H1:H2)"  # row 5: the range does not reach it
    ws["K1"] = ArrayFormula("K1:K2", "=J1:J2*2")
    ws["L1"] = ArrayFormula("L1", "=SUM(LEN(H1:H2)*J1:J2)")
    ws["K2"] = 0
    # the Analysis ToolPak's functions take no range for a value, in an array formula neither
    ws["M1"] = ArrayFormula("M1:M2", "=ISODD(J1:J2)")
    ws["M2"] = 0
    got = _values(_recalc(tmp_path, wb))
    assert (got["S!I1"], got["S!I2"], got["S!I5"]) == ("a", 4.0, VALUE)
    assert (got["S!K1"], got["S!K2"], got["S!L1"]) == (2.0, 4.0, 3.0)
    assert (got["S!M1"], got["S!M2"]) == (VALUE, VALUE)


# --- references ------------------------------------------------------------------------------


def test_three_dimensional_references_and_names_of_one_sheet(tmp_path: Path) -> None:
    """SUM(T:V!A1) sums A1 of every sheet from T to V in the workbook's order; a name defined
    for one sheet wins there over the workbook's name of the same name; a name with relative
    references moves with the cell that uses it."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "T"
    for title, value in (("T", 1), ("U", 10), ("V", 100), ("W", 1000)):
        ws = wb[title] if title in wb.sheetnames else wb.create_sheet(title)
        ws["A1"] = value
        ws["B1"], ws["B2"], ws["B3"] = 5, 6, 7
    first["C1"] = "=SUM(T:V!A1)"
    first["C2"] = "=SUM(V:T!A1)"  # either order
    first["C3"] = "=COUNT(T:W!A1:B3)"
    first["C4"] = "=Rate"
    first["C5"] = "=SUM(U:X!A1)"  # no sheet X: #REF!
    wb["U"]["C1"] = "=Rate"
    wb["U"]["A5"] = "=NextRow"  # B6
    wb["U"]["A6"] = "=NextRow"  # B7
    wb["U"]["B6"], wb["U"]["B7"] = 60, 70
    wb.defined_names["Rate"] = DefinedName("Rate", attr_text="T!$A$1")
    wb["U"].defined_names["Rate"] = DefinedName("Rate", attr_text="U!$A$1")
    # relative: kept in the file as seen from A1, one row down and one column right
    wb.defined_names["NextRow"] = DefinedName("NextRow", attr_text="U!B2")
    got = _values(_recalc(tmp_path, wb))
    assert (got["T!C1"], got["T!C2"], got["T!C3"]) == (111.0, 111.0, 16.0)
    assert (got["T!C4"], got["U!C1"]) == (1.0, 10.0)
    assert (got["U!A5"], got["U!A6"]) == (60.0, 70.0)
    assert got["T!C5"] == REF


_PRICES = (
    '<sheetData sheetId="0"><row r="1"><cell r="A1" t="str"><v>tea</v></cell></row>'
    '<row r="2"><cell r="B2"><v>2.5</v></cell></row></sheetData>'
)


def _external_workbook(path: Path, sheet_data: str = _PRICES) -> Path:
    """A workbook whose formulas read another workbook, with the values Excel keeps of it in
    xl/externalLinks/externalLink1.xml (``sheet_data``), and a reference Excel saved as
    deleted."""
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    parts = {
        "[Content_Types].xml": "<Types/>",
        "xl/workbook.xml": f'<workbook {ns} {rns}><sheets><sheet name="S" sheetId="1" '
        'r:id="rId1"/></sheets><externalReferences><externalReference r:id="rId2"/>'
        "</externalReferences></workbook>",
        "xl/_rels/workbook.xml.rels": "<Relationships>"
        '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="externalLink" Target="externalLinks/externalLink1.xml"/>'
        "</Relationships>",
        "xl/worksheets/sheet1.xml": f"<worksheet {ns}><sheetData>"
        '<row r="1"><c r="A1"><f>[1]Prices!B2*2</f><v>0</v></c>'
        '<c r="B1"><f>\'[1]Prices\'!A1&amp;"!"</f><v>0</v></c>'
        "<c r=\"C1\"><f>SUM('S'!#REF!,1)</f><v>0</v></c>"
        "<c r=\"D1\"><f>'S'!#REF!</f><v>0</v></c></row>"
        "</sheetData></worksheet>",
        "xl/externalLinks/externalLink1.xml": f"<externalLink {ns}><externalBook {rns} "
        'r:id="rId1"><sheetNames><sheetName val="Prices"/></sheetNames><sheetDataSet>'
        f"{sheet_data}</sheetDataSet></externalBook></externalLink>",
    }
    with zipfile.ZipFile(path, "w") as z:
        for name, text in parts.items():
            z.writestr(name, text)
    return path


def test_references_to_another_workbook_use_the_values_excel_kept(tmp_path: Path) -> None:
    path = _external_workbook(tmp_path / "linked.xlsx")
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = _values(out)
    assert (got["S!A1"], got["S!B1"]) == (5.0, "tea!")
    assert (got["S!C1"], got["S!D1"]) == (REF, REF)  # a deleted reference: #REF!
    assert not out.problems


def test_a_workbook_excel_could_not_read_is_a_ref_error(tmp_path: Path) -> None:
    """Where Excel could not refresh the other workbook and keeps none of its cells
    (``refreshError="1"``, an empty sheetData), a reference to it is #REF! (IronCalc's
    xlsx/tests/link_test.xlsx, B21: ``=[1]Sheet1!A1`` saved #REF!); with cells kept, they
    are its values; a sheet refreshed with no cells is blank."""
    failed = '<sheetData sheetId="0" refreshError="1"/>'
    out = tmp_path / "out"
    got = _values(recalc_file(_external_workbook(tmp_path / "a.xlsx", failed), out_dir=out))
    assert (got["S!A1"], got["S!B1"]) == (REF, REF)
    stale = _PRICES.replace('sheetId="0"', 'sheetId="0" refreshError="1"')
    got = _values(recalc_file(_external_workbook(tmp_path / "b.xlsx", stale), out_dir=out))
    assert (got["S!A1"], got["S!B1"]) == (5.0, "tea!")
    refreshed = _external_workbook(tmp_path / "c.xlsx", '<sheetData sheetId="0"/>')
    got = _values(recalc_file(refreshed, out_dir=out))
    assert (got["S!A1"], got["S!B1"]) == (0.0, "!")


def test_indirect_of_a_text_that_is_no_reference_is_a_ref_error() -> None:
    assert ev('=INDIRECT("foo bar")') == REF
    assert ev('=INDIRECT("")') == REF
    assert ev('=INDIRECT("A1:")') == REF
    assert ev('=INDIRECT("B"&2)', {"B2": 7}) == 7.0


def test_a_table_column_whose_name_ends_in_a_space(tmp_path: Path) -> None:
    from openpyxl.worksheet.table import Table

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    for row in (["Name", "Score "], ["a", 1], ["b", 2]):
        ws.append(row)
    ws.add_table(Table(displayName="Results", ref="A1:B3"))
    ws["D1"] = "=SUM(Results[Score ])"
    ws["D2"] = "=SUM(Results[Nope])"
    got = _values(_recalc(tmp_path, wb))
    assert (got["S!D1"], got["S!D2"]) == (3.0, REF)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=CONVERT(36,"km/h","m/s")', 10.0),
        ('=CONVERT(1,"kWh","J")', 3_600_000.0),
        ('=CONVERT(1,"mm^2","m^2")', 1e-6),
        ('=CONVERT(1,"mi/h","m/s")', NA),  # not a unit of Excel's table
        ('=CONVERT(1,"km/h","kg")', NA),  # of different kinds
    ],
)
def test_convert_prefixed_and_compound_units(formula: str, expected: object) -> None:
    """CONVERT's unit table: a metric prefix before m/h, m/s, Wh; an area's prefix squared."""
    assert ev(formula) == expected


def test_a_sum_that_cancels_to_within_15_digits_is_0_as_the_last_operation_only() -> None:
    """Excel rounds the result of a formula's last addition or subtraction to 0 where it is
    below 8 units in the last place of its smaller side (all but 3 of the 52 bits cancelled,
    about 15 digits); inside the formula the binary remainder stays."""
    assert ev("=0.5-0.4-0.1") == 0.0
    assert ev("=1*(0.5-0.4-0.1)") == pytest.approx(-2.7755575615628914e-17, rel=1e-12)
    assert ev("=0.3-0.1") == 0.3 - 0.1  # far from 0: untouched
    # the bound is 8 units in the last place: Excel's saved values keep 8 units
    # (the IMF and World Bank's LIC DSF template: =T46-S46; qsdsan's _masm2d.xlsx: =Z5/X5-1)
    cells = {"A1": 3.999999999999993, "B1": 3.9999999999999893, "A2": 0.9999999999999991}
    assert ev("=A1-B1", cells) == 3.552713678800501e-15
    assert ev("=A2/1-1", cells) == 0.9999999999999991 - 1
    assert ev("=A2-0.99999999999999889", cells) == 0.0  # 2 units in the last place: 0
    # 6 units in the last place of 16.67, a larger part of it than 8 of 3.99: 0 all the same
    # (the LIC DSF template, PV_Base!P103: =O103-P104)
    assert ev("=16.666666666666647-16.666666666666668") == 0.0


def test_a_sum_of_a_range_that_cancels_to_within_15_digits_is_0() -> None:
    """SUM whose last addition cancels to within 15 digits is 0 in Excel's saved values (the
    Brink's operating model of PyPI fin-model-course 0.1.17, 'Operating Model'!G65: 2.1, 4.8,
    7.9, -4.7 and -10.1 add up to 0, where one after the other they leave 1.8e-15)."""
    cells = {"A1": 2.1, "A2": 4.8, "A3": 7.9, "A4": -4.7, "A5": -10.1}
    assert ev("=SUM(A1:A5)", cells) == 0.0
    assert ev("=SUM(A1:A4)", cells) == 2.1 + 4.8 + 7.9 - 4.7  # far from 0: its digits
    assert ev("=SUM(A1,A2)", cells) == 2.1 + 4.8


def test_a_sum_keeps_what_cancelled_before_its_last_addition() -> None:
    """Only SUM's last addition is made 0 where it cancels: heavylight 1.0.11's protection
    model (PyPI), prot_model!S9 =SUM(S5:S8), the present values of premiums, claims,
    expenses and a commission of 0 netted, is -3.410605131648481e-13 in Excel's saved value;
    the same numbers with the 0 before the last one cancel in the last addition, and are 0."""
    cells = {"A1": 4147.376179014694, "A2": -3553.38081175597, "A3": -593.9953672587238}
    cells["A4"] = 0.0
    assert ev("=SUM(A1:A4)", cells) == -3.410605131648481e-13
    assert ev("=SUM(A1:A3)", cells) == 0.0
    assert ev("=SUM(A1,A2,A4,A3)", cells) == 0.0
    assert ev("=SUM(A4,A1:A3)", cells) == 0.0


def test_database_criteria_name_fields_by_their_headings() -> None:
    """A criteria heading names a field by its text (the heading 1 is the field headed 1,
    not the first field); a database of headings alone is #VALUE!; a formula under a field's
    heading is an ordinary criterion, its value the condition."""
    cells = {"A1": "Name", "B1": 1.0, "C1": "Pts", "A2": "a", "B2": "x", "C2": 3,
             "A3": "b", "B3": "y", "C3": 5, "E1": 1.0, "E2": "y"}  # fmt: skip
    assert ev("=DSUM(A1:C3,3,E1:E2)", cells) == 5.0
    assert ev('=DSUM(A1:C3,"1",E1:E2)', cells) == 0.0  # the field headed 1 holds texts
    assert ev("=DSUM(A1:C1,3,E1:E2)", cells) == VALUE
    computed = book({k: v for k, v in cells.items() if k != "E2"},
                    {"E2": '="y"', "Z99": "=DSUM(A1:C3,3,E1:E2)"})  # fmt: skip
    assert computed.value("S", 99, 26) == 5.0  # a formula's value under a field's heading


def test_texts_are_ordered_without_their_accents_first() -> None:
    """Excel orders texts as a language does, the accents weighed only between texts otherwise
    equal: a dashboard's SORT of country names, saved by Excel, has "Côte d'Ivoire" between
    "Colombia" and "Croatia"; ``=`` still tells "é" from "e"."""
    names = '{"Czechia";"Croatia";"Côte d\'Ivoire";"Colombia";"Cyprus"}'
    assert ev(f'=TEXTJOIN("|",TRUE,SORT({names}))') == (
        "Colombia|Côte d'Ivoire|Croatia|Cyprus|Czechia"
    )
    assert ev('="Côte"<"Croatia"') is True
    assert ev('="e"<"é"') is True  # otherwise equal: the accent after
    assert ev('="é"<"f"') is True
    assert ev('="é"="e"') is False
    assert ev('="É"="é"') is True


def test_stdev_adds_the_numbers_and_their_squares_as_excel_does() -> None:
    """STDEV.S of the 30 sales a workbook's LET and FILTER pick (a sales analysis saved by
    Excel 365): 1244.0988933318679 in Excel's saved value, the one-pass (sum of squares -
    sum * sum / n) / (n - 1) to the bit, where the exact deviation sum gives ...318524; where
    the one-pass difference cancels to below 1 % of the sum of squares, the deviations are
    added instead (STDEV(C32:G32) of the Brink's model of PyPI fin-model-course 0.1.17,
    'Operating Model'!K32: 0.001175705396604062, the one-pass giving ...601966)."""
    sales = [12001.0, 10993.5, 10172.7, 11623.7, 9264.86, 9774.03, 9245.76, 9160.36, 9631.0,
             11279.2, 10606.2, 9470.94, 9240.44, 9169.0, 12536.5, 9240.0, 9534.5, 9218.16,
             14082.8, 11336.7, 10468.9, 11739.7, 9720.0, 11886.6, 10758.0, 10039.6, 11887.8,
             10066.6, 9558.8, 9661.44]  # fmt: skip
    cells = {f"A{i}": x for i, x in enumerate(sales, 1)}
    assert ev("=STDEV.S(A1:A30)", cells) == 1244.0988933318679
    assert ev("=STDEV(A1:A30)", cells) == 1244.0988933318679
    assert ev("=VAR.S(A1:A30)", cells) == pytest.approx(1244.0988933318679**2, rel=1e-14)
    assert ev("=STDEV.P(1,2,3,4)", cells) == pytest.approx(1.118033988749895, rel=1e-15)
    assert ev("=STDEV(2,2,2)", cells) == 0.0  # never the root of a negative rounding
    growth = {"B1": 0.0445, "B2": 0.0431, "B3": 0.0452, "B4": 0.0437, "B5": 0.0449}
    one_pass = (sum(x * x for x in growth.values()) - sum(growth.values()) ** 2 / 5) / 4
    assert one_pass < 0.01 * sum(x * x for x in growth.values())  # a case for the deviations
    mean = sum(growth.values()) / 5
    deviations = sum((x - mean) * (x - mean) for x in growth.values())
    assert ev("=VAR(B1:B5)", growth) == deviations / 4
