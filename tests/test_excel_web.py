"""FILTERXML as Excel documents it ("FILTERXML function", support.microsoft.com: #VALUE! for
XML that is not valid; WorksheetFunction.FilterXML: an XPath of at most 1,024 characters) and
as workbooks use it, to cut a text into pieces; what it cannot be sure of is reported."""

from __future__ import annotations

import pytest

from fide_rating.engine.book import NotComputed
from fide_rating.engine.formula.values import VALUE
from test_formula import ev

SPLIT = '"<t><s>"&SUBSTITUTE(A1,", ","</s><s>")&"</s></t>"'
BOOKS = (
    "<bookstore><book id='a'><title>Harry Potter</title><price>29.99</price></book>"
    "<book id='b'><title>Learning XML</title><price>39.95</price></book></bookstore>"
)


def test_filterxml_cuts_a_text_into_a_column_of_pieces() -> None:
    cells = {"A1": "New Year, Easter, 12, Labour Day"}
    assert ev(f'=ROWS(FILTERXML({SPLIT},"//s"))', cells) == 4.0
    assert ev(f'=COLUMNS(FILTERXML({SPLIT},"//s"))', cells) == 1.0
    assert ev(f'=INDEX(FILTERXML({SPLIT},"//s"),2)', cells) == "Easter"
    assert ev(f'=INDEX(FILTERXML({SPLIT},"//s"),3)', cells) == 12.0  # a plain number is one
    assert ev(f'=FILTERXML({SPLIT},"//s[last()]")', cells) == "Labour Day"
    assert ev(f'=FILTERXML({SPLIT},"/t/s[1]")', cells) == "New Year"
    assert ev('=FILTERXML("<t><s>one</s></t>","//s")') == "one"  # one value, not an array


def test_filterxml_selects_by_name_position_and_attribute() -> None:
    cells = {"A1": BOOKS}
    assert ev('=TEXTJOIN("|",TRUE,FILTERXML(A1,"//book/@id"))', cells) == "a|b"
    assert ev("=FILTERXML(A1,\"//book[@id='b']/title\")", cells) == "Learning XML"
    assert ev('=SUM(FILTERXML(A1,"//price"))', cells) == 29.99 + 39.95
    assert ev('=FILTERXML(A1,"/bookstore/book[2]/price/text()")', cells) == 39.95
    assert ev('=ROWS(FILTERXML(A1,"//book"))', cells) == 2.0  # an element: all its text


@pytest.mark.parametrize(
    "xml",
    [
        "<t><s>a</s>",  # not well-formed
        "plain text",
        '<!DOCTYPE t [<!ENTITY e "x">]><t>&e;</t>',  # a document type is never read
        "<t><s>a</s></t><u/>",  # two root elements
    ],
)
def test_filterxml_of_xml_that_is_not_valid_is_a_value_error(xml: str) -> None:
    assert ev('=FILTERXML(A1,"//s")', {"A1": xml}) == VALUE


def test_filterxml_selecting_nothing_or_with_an_overlong_xpath_is_a_value_error() -> None:
    assert ev('=FILTERXML("<t><s>a</s></t>","//u")') == VALUE
    assert ev('=FILTERXML("<t><s>a</s></t>",REPT("/",1025))') == VALUE
    assert ev('=FILTERXML("<t><s>a</s></t>","")') == VALUE


@pytest.mark.parametrize(
    "xpath",
    [
        "//s[.>1]",  # a comparison in a predicate
        "count(//s)",  # a function
        "s",  # relative to no node
    ],
)
def test_filterxml_with_an_xpath_it_does_not_read_is_reported(xpath: str) -> None:
    with pytest.raises(NotComputed, match="XPath"):
        ev(f'=FILTERXML("<t><s>2</s></t>","{xpath}")')


def test_filterxml_never_guesses_what_excel_reads_by_its_settings() -> None:
    """An empty element, and a text that is a number only in some country's way of writing
    one (a date, a thousands separator), are reported rather than given a value."""
    with pytest.raises(NotComputed, match="empty"):
        ev('=FILTERXML("<t><s>a</s><s></s></t>","//s")')
    with pytest.raises(NotComputed, match="country"):
        ev('=FILTERXML("<t><s>1/2/2020</s></t>","//s")')
