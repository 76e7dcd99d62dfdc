"""Excel's rules for the date and time functions, each on both sides of its boundary.

Every expected value is one Excel saved: in IronCalc's function tests (the PyPI sdist
ironcalc 0.9.1, ``xlsx/tests/calc_tests/DATE_AND_TIME/<file>``, workbooks saved by Excel with
their cached values; the comment names the file), or on the function's page of Excel's
documentation (support.microsoft.com).
"""

from __future__ import annotations

import pytest

from fide_rating.engine.book import NotComputed
from fide_rating.engine.formula.values import DIV0, NUM, VALUE
from test_formula import ev

# --- TIME, TIMEVALUE, DATEVALUE --------------------------------------------------------------


def test_time_computes_the_days_fraction_as_excel_does() -> None:
    """TIME's total in days less its whole days, in floating point: 24:02:03 is
    1.0014236111111112 - 1, a few units off 123/86400 (TIME_HOUR_MINUTE_SECOND.xlsx)."""
    assert ev("=TIME(24,2,3)") == 0.0014236111111110006
    assert ev("=TIME(32767,32767,32767)") == 0.4257754629629744
    assert ev("=TIME(0,2,3)") == 123 / 86400  # within the day: exact
    assert ev("=TIME(23,59,60)") == 0.0  # a whole day wraps to 0
    assert ev("=TIME(-1,1,1)") == NUM


def test_a_time_text_may_have_spaces_around_its_colon() -> None:
    """ "4 : 35" is 4:35 (TIMEVALUE_issue_1402.xlsx); "4::35" is not a time (TIMEVALUE.xlsx)."""
    assert ev('=TIMEVALUE("4 : 35")') == 0.1909722222222222
    assert ev('=TIMEVALUE("4:35")') == 0.1909722222222222
    assert ev('=TIMEVALUE("4::35")') == VALUE


def test_a_time_texts_parts_have_at_most_four_digits() -> None:
    """Excel's longest time is 9999:59:59 ("the maximum time value recognised by Excel"); a
    part of five digits is not a time: "0:0:86400" is #VALUE! where "23:59:60" adds up to a
    whole day, 0 (TIMEVALUE.xlsx)."""
    assert ev('=TIMEVALUE("0:0:86400")') == VALUE
    assert ev('=TIMEVALUE("23:59:60")') == 0.0
    assert isinstance(ev('=TIMEVALUE("9999:59:59")'), float)  # the longest, read
    assert ev('=TIMEVALUE("10000:00")') == VALUE
    assert ev('=TIMEVALUE("24:00")') == 0.0


def test_an_iso_date_text_may_have_spaces_around_its_separators() -> None:
    """ "2026 - 01 - 01" is 1 January 2026 (DATEVALUE_issue_1380.xlsx); a dot is no
    separator (DATEVALUE.xlsx)."""
    assert ev('=DATEVALUE("2026 - 01 - 01")') == 46023.0
    assert ev('=DATEVALUE("2026-01-01")') == 46023.0
    assert ev('=DATEVALUE("2026.01.01")') == VALUE


def test_a_months_name_before_the_day_is_read_by_the_country_and_reported() -> None:
    """An Excel of day-first dates, which reads "29-Feb-1900" (DATE.xlsx) and "26-01-01" as
    26 January 2001 (DATEVALUE.xlsx), gives #VALUE! for "July 1, 2026" (DAYS_DAYS360.xlsx,
    NETWORKDAYS_NETWORKDAYS.INTL.xlsx) that an Excel of month-first dates reads: the month's
    name before the day is read by the country's settings, which the file does not keep."""
    cells = {"A1": "July 1, 2026", "B1": "June 1, 2026"}
    for formula in ("=DAYS(A1,B1)", "=NETWORKDAYS(B1,A1)", '=DATEVALUE("August 26, 1987")'):
        with pytest.raises(NotComputed, match="by its country's settings"):
            ev(formula, cells)
    assert ev('=DATEVALUE("29-Feb-1900")') == 60.0  # the day before the month's name: read
    assert ev('=DATEVALUE("1-Jul-2026")') == 46204.0
    assert ev("=DAYS(A1,B1)", {"A1": "2026-07-01", "B1": "2026-06-01"}) == 30.0


# --- WEEKNUM, ISOWEEKNUM ---------------------------------------------------------------------

WEEKNUM_ROW = {"A1": 46023.0, "B1": True, "C1": -1.0, "D1": "abc", "E1": DIV0, "F1": 2.0}


def test_weeknum_refuses_true_and_false() -> None:
    """WEEKNUM came from the Analysis ToolPak: TRUE or FALSE for the date or the type is
    #VALUE!, where ISOWEEKNUM takes TRUE as 1 (WEEKDAY_WEEKNUM_ISOWEEKNUM.xlsx)."""
    assert ev("=WEEKNUM(A1,F1)", WEEKNUM_ROW) == 1.0
    assert ev("=WEEKNUM(A1,B1)", WEEKNUM_ROW) == VALUE
    assert ev("=WEEKNUM(B1,F1)", WEEKNUM_ROW) == VALUE
    assert ev("=WEEKNUM(B1)", WEEKNUM_ROW) == VALUE
    assert ev("=WEEKNUM(1)") == 1.0
    assert ev("=ISOWEEKNUM(B1)", WEEKNUM_ROW) == 52.0


def test_weeknum_judges_the_date_before_the_type() -> None:
    """A date out of range is #NUM! whatever the type's cell holds, an error or a text; a good
    date takes the type's error (WEEKDAY_WEEKNUM_ISOWEEKNUM.xlsx)."""
    assert ev("=WEEKNUM(C1,D1)", WEEKNUM_ROW) == NUM
    assert ev("=WEEKNUM(C1,E1)", WEEKNUM_ROW) == NUM
    assert ev("=WEEKNUM(A1,D1)", WEEKNUM_ROW) == VALUE
    assert ev("=WEEKNUM(A1,E1)", WEEKNUM_ROW) == DIV0


def test_weeknum_takes_a_blank_cell_as_type_0() -> None:
    """A type left out is 1; a blank cell is 0, #NUM! (WEEKDAY_WEEKNUM_ISOWEEKNUM.xlsx)."""
    assert ev("=WEEKNUM(A1)", WEEKNUM_ROW) == 1.0
    assert ev("=WEEKNUM(A1,Z1)", WEEKNUM_ROW) == NUM
    assert ev("=WEEKNUM(A1,F1:F2)", WEEKNUM_ROW) == VALUE  # one cell only


def test_isoweeknum_counts_in_excels_calendar() -> None:
    """Excel's 1900-01-01 is a Sunday: the last day of ISO week 52 of 1899, and the Monday
    after it starts week 1 (WEEKDAY_WEEKNUM_ISOWEEKNUM.xlsx: ISOWEEKNUM(TRUE) is 52)."""
    assert ev("=ISOWEEKNUM(1)") == 52.0
    assert ev("=ISOWEEKNUM(2)") == 1.0
    assert ev("=ISOWEEKNUM(DATE(9999,12,31))") == 52.0
    assert ev("=ISOWEEKNUM(DATE(1995,7,23))") == 29.0
    assert ev("=ISOWEEKNUM(DATE(2012,3,9))") == 10.0  # Excel's documentation
    assert ev("=ISOWEEKNUM(-1)") == NUM


# --- NETWORKDAYS, WORKDAY --------------------------------------------------------------------


def test_networkdays_and_workday_refuse_true_and_false() -> None:
    """Dates and days of TRUE or FALSE are #VALUE! (NETWORKDAYS_NETWORKDAYS.INTL.xlsx,
    WORKDAY_WORKDAY.INTL.xlsx), numbers in their cells are not."""
    cells = {"A1": True, "B1": 61.0, "C1": False, "D1": 10.0, "E1": 6.0, "F1": 9.0, "G1": 8.0,
             "H1": 2.0}  # fmt: skip
    assert ev("=NETWORKDAYS(B1,A1)", cells) == VALUE
    assert ev("=NETWORKDAYS.INTL(A1,B1)", cells) == VALUE
    assert ev("=NETWORKDAYS(C1,A1)", cells) == VALUE
    assert ev("=NETWORKDAYS(E1,F1)", cells) == 2.0
    assert ev("=NETWORKDAYS.INTL(E1,F1)", cells) == 2.0
    assert ev("=WORKDAY(A1,D1)", cells) == VALUE
    assert ev("=WORKDAY.INTL(B1,C1)", cells) == VALUE
    assert ev("=WORKDAY(G1,H1)", cells) == 10.0
    assert ev("=WORKDAY.INTL(G1,H1)", cells) == 10.0


def test_networkdays_compares_whole_days() -> None:
    """A start later the same day than the end is the same day: 1, not -1
    (NETWORKDAYS_NETWORKDAYS.INTL.xlsx)."""
    assert ev("=NETWORKDAYS(DATE(2025,1,1)+0.9999999,DATE(2025,1,1))") == 1.0
    assert ev("=NETWORKDAYS.INTL(DATE(2025,1,1)+0.5,DATE(2024,12,31))") == -2.0
    assert ev("=NETWORKDAYS(DATE(2025,1,2)+0.5,DATE(2025,1,1)+0.5)") == -2.0


def test_a_holiday_outside_the_dates_is_num() -> None:
    """A negative holiday is #NUM! (NETWORKDAYS_NETWORKDAYS.INTL.xlsx,
    WORKDAY_WORKDAY.INTL.xlsx); 1.25 is day 1."""
    assert ev("=NETWORKDAYS(DATE(2025,1,1),DATE(2026,1,1),-2)") == NUM
    assert ev("=NETWORKDAYS.INTL(DATE(2025,1,1),DATE(2026,12,31),1,-2)") == NUM
    assert ev("=WORKDAY(DATE(2025,1,10),10,-2)") == NUM
    assert ev("=WORKDAY.INTL(DATE(2025,1,10),10,1,A1)", {"A1": -2.0}) == NUM
    assert ev("=NETWORKDAYS(DATE(2025,1,1),DATE(2026,1,1),1.25)") == 262.0
    assert ev("=NETWORKDAYS(DATE(2025,1,1),DATE(2026,1,1),0)") == 262.0


def test_a_weekend_of_every_day() -> None:
    """ "1111111": NETWORKDAYS.INTL counts no working day (NETWORKDAYS_NETWORKDAYS.INTL.xlsx);
    WORKDAY.INTL has none to find, #VALUE! (Excel's documentation)."""
    assert ev('=NETWORKDAYS.INTL(DATE(2025,1,1),DATE(2026,12,31),"1111111")') == 0.0
    assert ev('=NETWORKDAYS.INTL(DATE(2025,1,1),DATE(2026,12,31),"1101111")') == 105.0
    assert ev('=WORKDAY.INTL(DATE(2025,1,10),10,"1111111")') == VALUE
    assert ev('=NETWORKDAYS.INTL(DATE(2025,1,1),DATE(2026,12,31),"000001")') == VALUE


def test_workday_takes_the_whole_days_below() -> None:
    """The days are rounded down: -0.0000001 is a day back, 0.9999999 none
    (WORKDAY_WORKDAY.INTL.xlsx); beyond the date system, #NUM!."""
    assert ev("=WORKDAY(DATE(2025,1,10),-1E-9)") == 45666.0
    assert ev("=WORKDAY(DATE(2025,1,10),-0.9999999)") == 45666.0
    assert ev("=WORKDAY(DATE(2025,1,10),0)") == 45667.0
    assert ev("=WORKDAY(DATE(2025,1,10),0.9999999)") == 45667.0
    assert ev("=WORKDAY.INTL(DATE(2025,1,10),1E-9)") == 45667.0
    assert ev("=WORKDAY(DATE(2025,1,10),1E15)") == NUM
    assert ev("=WORKDAY(DATE(2025,1,10),-1E15)") == NUM


# --- DAYS360, DATEDIF ------------------------------------------------------------------------


def test_days360_reads_its_dates_to_the_second() -> None:
    """23:59:59.991 is the next day for DAYS360 (a date rounded to the second), 23:59:51 is
    not; DAYS cuts the time off (DAYS_DAYS360.xlsx)."""
    assert ev("=DAYS360(45992.000001,46000.999999)") == 9.0
    assert ev("=DAYS360(DATE(2025,1,1)+0.0000001,DATE(2025,1,1)+0.9999999)") == 1.0
    assert ev("=DAYS360(DATE(2025,1,1)+0.9999999,DATE(2025,1,2)+0.0000001)") == 0.0
    assert ev("=DAYS360(DATE(2025,1,1)+0.9999999,DATE(2025,1,1))") == -1.0
    assert ev("=DAYS360(DATE(2025,1,1)+0.0001,DATE(2025,1,1)+0.9999)") == 0.0
    assert ev("=DAYS(DATE(2025,1,1)+0.9999999,DATE(2025,1,1)+0.0000001)") == 0.0


def test_datedif_compares_whole_days() -> None:
    """A start later the same day than the end is no error: 0 days
    (YEARFRAC_DATEDIF.xlsx); a day later is #NUM!."""
    assert ev('=DATEDIF(DATE(2025,1,10)+TIME(20,30,0),DATE(2025,1,10)+TIME(16,30,0),"D")') == 0.0
    assert ev('=DATEDIF(DATE(2025,1,11),DATE(2025,1,10)+TIME(16,30,0),"D")') == NUM
