"""TEXT and Excel's number formats: the examples of Excel's function reference, and values Excel
itself saved for TEXT in a third-party workbook."""

from __future__ import annotations

import pytest

from fide_rating.engine.book import NotComputed
from fide_rating.engine.formula.values import DIV0, VALUE
from test_formula import ev

# Excel's reference page for TEXT ("TEXT function"), its examples with fixed values
EXCEL_REFERENCE = [
    ('=TEXT(1234.567,"$#,##0.00")', "$1,234.57"),
    ('=TEXT(0.285,"0.0%")', "28.5%"),
    ('=TEXT(12200000,"0.00E+00")', "1.22E+07"),
    ('=TEXT(1234,"0000000")', "0001234"),
    ("=TEXT(123456,\"##0° 00' 00''\")", "12° 34' 56''"),
    ('=TEXT(4.34,"# ?/?")', "4 1/3"),
    ('=TRIM(TEXT(0.34,"# ?/?"))', "1/3"),
    ('=TEXT(1234567898,"[<=9999999]###-####;(###) ###-####")', "(123) 456-7898"),
]

# (value, format, Excel's saved result) from tests/fixtures/text.xlsx of stephenrauch/pycel
# (commit 283c86cb), a workbook saved by Excel with its values cached
EXCEL_SAVED = [
    (-1.0, "#.###", "-1."),
    (0.0, "#.###", "."),
    (1.23, "#.###", "1.23"),
    (-2.34, "#.###", "-2.34"),
    (36526.0, "#.###", "36526."),
    (1234567.89, '#,#"ZZ"#.0"YY"00', "1,234,56ZZ7.8YY90"),
    (0.0, '#,#"ZZ"#.0z00', "ZZ.0z00"),
    (0.0, '#,#"ZZ"#.0Y00', VALUE),  # a date code among digits
    (-1.0, "w;x;z@", "x"),
    (0.0, "w;x;z@", "w"),
    (0.0, "w;x;z", "z"),
    (-1.0, "", "-"),
    (0.0, "", ""),
    (-1.0, "w;x@", "-w"),
    (890123.456789, "#.###.#.#.#", "890123.456.7.8.9"),
    (890123.456789, "#,###.##.#", "890,123.45.7"),
    (890123.456789, "#,#.##.##\\,#", "890,123.45.67,9"),
    (890123.456789, "0,x#.00.0", "89012x3.45.7"),
    (890123.456789, "#x,0,#.00.0", "890,1x,23.45.7"),
    (890123.456789, ",#.00.0", ",890123.45.7"),
    (890123.456789, "#.###,x,##", "890123.456x,79"),
    (890123.456789, "#%#", "8901234%6"),
    (890123.456789, "%#%#%#%", "%890123456789%0%0%"),
    (890123.456789, "#.#####00#0", "890123.45678900"),
    (1234.56, "$x*y#,##0* ", "$x1,235"),
    (1234.56, ".##0", "1234.560"),
    (-1.0, '##.00;-  ##.0;"ZERO"', "-  1.0"),
    (0.0, '##.00;-  ##.0;"ZERO"', "ZERO"),
    (-1.0, '##.00;##.0;"ZERO";->@<-', "1.0"),
    (0.0, '"-> "#.00;-#;"SS"m;"ZERO"@', "SS1"),
    (2958465.0, "[hh]", "71003160"),
    (2958466.0, "[h]", "71003184"),
    (2958466.0, "h", VALUE),  # after 9999-12-31
    (2958465.0, "h", "0"),
    (-1.0, "[h]", "-24"),
    (-1.0, "[h]:m", VALUE),
    (0.0, "[h]:m", "0:0"),
    (-1.0, "[m]", "-1440"),
    (-1.0, "[s].000", VALUE),
    (0.0, "[s].000", "0.000"),
    (-1.0, "s", VALUE),
    ("X", '##.00;-  ##.0;"ZERO";->@<-@', "->X<-X"),
    ("X", ';-  ##.0;"ZERO"@;"X"', VALUE),  # @ in a number section
    ("Plugh", "", "Plugh"),
    ("1.001", "#.##", "1."),  # a text that reads as a number
    (True, "#.###", "TRUE"),
]


@pytest.mark.parametrize(("formula", "expected"), EXCEL_REFERENCE)
def test_text_as_excel_documents_it(formula: str, expected: str) -> None:
    assert ev(formula) == expected


@pytest.mark.parametrize(("value", "code", "expected"), EXCEL_SAVED)
def test_text_as_excel_saved_it(value: object, code: str, expected: object) -> None:
    assert ev("=TEXT(A1,B1)", {"A1": value, "B1": code}) == expected


@pytest.mark.parametrize(
    ("value", "code", "expected"),
    [
        (45292.75, "yyyy-mm-dd hh:mm", "2024-01-01 18:00"),
        (45292.75, "dddd d mmmm yyyy h:mm AM/PM", "Monday 1 January 2024 6:00 PM"),
        (45292.5, "ddd d mmm yy", "Mon 1 Jan 24"),
        (1.5, "[h]:mm", "36:00"),
        (0.99998, "h:mm:ss", "23:59:58"),
        (0.9999999, "h:mm:ss", "0:00:00"),  # rounded to the second, then cut
        (0.5, "mm:ss.00", "00:00.00"),
        (1e6, '#,##0,"K"', "1,000K"),
        (2.5e6, '0.0,,"M"', "2.5M"),
        (0.000123, "0.00E+00", "1.23E-04"),
        (12345.0, "##0.0E+0", "12.3E+3"),
        (5.0, "0,000", "0,005"),
        (99.996, "0.00", "100.00"),
        (2.5, "0", "3"),  # half away from zero
        (-2.5, "0", "-3"),
        (1 / 3, "General", "0.333333333"),
        (1234.5, "[Red]0.0;[Blue]-0.0", "1234.5"),
        (1234.5, "[$€-407] #,##0.00", "€ 1,234.50"),
        ("abc", "@", "abc"),
        (5.0, "x@", "x5"),
        (45292.5, "mmm d, yyyy", "Jan 1, 2024"),
        (45292.0, "dd/mm/yyyy", "01/01/2024"),
        (-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)"),
        (7.0, '0" pts"', "7 pts"),
        (5551234.0, "[<=9999999]###-####;(###) ###-####", "555-1234"),
        (4.0, "# ?/?", "4    "),  # nothing left over: blanks
        (4.34, "?/?", "13/3"),
        (1.5, "# ??/??", "1  1/2 "),
        (2.26, "# ?/4", "2 1/4"),
        (0.99, "# ?/?", "1    "),  # rounds up to the next whole
    ],
)
def test_text_formats_arbiters_use(value: float, code: str, expected: str) -> None:
    assert ev("=TEXT(A1,B1)", {"A1": value, "B1": code}) == expected


def test_text_errors_and_what_is_reported() -> None:
    assert ev('=TEXT(1/0,"0")') == DIV0
    assert ev('=TEXT(1,"0;0;0;@;0")') == VALUE  # five sections
    for value, code in ((-5.0, "[<0]0;0"), (4.34, "[$-ja-JP]ggge")):
        with pytest.raises(NotComputed):  # reported, never guessed
            ev("=TEXT(A1,B1)", {"A1": value, "B1": code})
    # a date and time written as text is read as VALUE reads it: 2007-02-03 is day 39116
    assert ev('=TEXT("2007-02-03 19:08","[h]")') == str(39116 * 24 + 19)


@pytest.mark.parametrize("code", ["0,00", "#,#", "0,0000", "#.##0,00", "0,00%"])
def test_a_format_written_with_a_decimal_comma_is_reported(code: str) -> None:
    """TEXT's format is written as the saving Excel's country writes numbers: a Greek
    workbook's TEXT(C61,"0,00") is "34,93" in Excel's saved values, where Excel in English
    would group thousands ("035"). A comma that groups no three digits, in a format of
    placeholders alone, is reported, never read one way or the other."""
    with pytest.raises(NotComputed, match="decimal comma"):
        ev("=TEXT(A1,B1)", {"A1": 34.93, "B1": code})


@pytest.mark.parametrize(
    ("code", "expected"), [("#,##0", "1,235"), ("0,000", "1,235"), ("#,##0.00,", "1.23")]
)
def test_a_comma_grouping_three_digits_is_read_as_excel_in_english_reads_it(
    code: str, expected: str
) -> None:
    assert ev("=TEXT(A1,B1)", {"A1": 1234.5, "B1": code}) == expected
