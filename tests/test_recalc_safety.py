"""recalc against workbooks made to break it: what Excel would call corrupt is refused with
the file's place, what Excel computes is computed as Excel does (or bounded with a reason),
and no small input takes minutes or all the memory. Every input is built here."""

from __future__ import annotations

import os
import re
import warnings
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter

from fide_rating.commands.cli import main
from fide_rating.engine.formula import ERRORS, values
from fide_rating.engine.functions import math_trig
from fide_rating.engine.functions.wildcard import Wildcard
from fide_rating.engine.package import WorkbookError, iteration
from fide_rating.engine.recalc import Recalculated, evaluate, iter_sources

NS = (
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)


def package(
    path: Path,
    sheets: dict[str, str],
    *,
    strings: tuple[str, ...] = (),
    targets: dict[str, str] | None = None,
    parts: dict[str, bytes] | None = None,
) -> Path:
    """A workbook package written part by part: each sheet's ``<sheetData>`` as given (its
    part ``targets[title]``, else a part of its own), the shared strings, any other parts."""
    targets = targets or {}
    listed = rels = ""
    written: dict[str, bytes] = {}
    for i, (title, rows) in enumerate(sheets.items(), 1):
        part = targets.get(title, f"worksheets/sheet{i}.xml")
        listed += f'<sheet name="{title}" sheetId="{i}" r:id="rId{i}"/>'
        rels += f'<Relationship Id="rId{i}" Type="worksheet" Target="{part}"/>'
        written["xl/" + part] = (
            f"<worksheet {NS}><sheetData>{rows}</sheetData></worksheet>".encode()
        )
    members = {
        "xl/workbook.xml": f"<workbook {NS}><sheets>{listed}</sheets></workbook>".encode(),
        "xl/_rels/workbook.xml.rels": f"<Relationships>{rels}</Relationships>".encode(),
        **written,
    }
    if strings:
        items = "".join(f"<si><t>{s}</t></si>" for s in strings)
        members["xl/sharedStrings.xml"] = f"<sst {NS}>{items}</sst>".encode()
    members.update(parts or {})
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def run(path: Path) -> Recalculated:
    return evaluate(path.read_bytes(), path)[0]


def refused(path: Path) -> str:
    with pytest.raises(WorkbookError) as error:
        evaluate(path.read_bytes(), path)
    return str(error.value)


def values_of(outcome: Recalculated, sheet: str = "S") -> dict[str, object]:
    return {
        f"{get_column_letter(c)}{r}": v for (s, r, c), v in outcome.values.items() if s == sheet
    }


def reasons(outcome: Recalculated) -> dict[str, str]:
    return {p.cell: p.reason for p in outcome.problems}


# --- the package ------------------------------------------------------------------------------


def test_two_sheets_of_one_name_are_refused_regardless_of_case(tmp_path: Path) -> None:
    cell = '<row r="1"><c r="A1"><f>1+1</f></c></row>'
    ok = run(package(tmp_path / "ok.xlsx", {"Data": cell, "Data2": cell}))
    assert ok.computed == 2
    message = refused(package(tmp_path / "a.xlsx", {"Data": cell, "data": cell}))
    assert message == (
        "corrupt workbook: two sheets named 'Data' and 'data' (Excel's sheet names differ "
        "regardless of case)"
    )


def test_two_sheets_in_one_part_are_refused(tmp_path: Path) -> None:
    cell = '<row r="1"><c r="A1"><f>1+1</f></c></row>'
    path = package(
        tmp_path / "a.xlsx", {"A": cell, "B": cell}, targets={"A": "w.xml", "B": "w.xml"}
    )
    assert refused(path) == "corrupt workbook: the sheets 'A' and 'B' are both the part xl/w.xml"


def test_a_sheet_named_with_a_greater_than_sign_is_read(tmp_path: Path) -> None:
    """``name="a>b"`` is a well-formed attribute: the sheet is read, not dropped."""
    sheets = {"a&gt;b": '<row r="1"><c r="A1"><f>1+1</f></c></row>', "c": ""}
    outcome = run(package(tmp_path / "a.xlsx", sheets))
    assert outcome.computed == 1 and values_of(outcome, "a>b") == {"A1": 2.0}


@pytest.mark.parametrize(
    ("rows", "twice"),
    [
        ('<row r="1"><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row>', "A1"),
        ('<row r="1"><c r="B1"><f>1+1</f></c></row><row r="1"><c r="B1"><v>7</v></c></row>', "B1"),
        ('<row r="2"><c r="C2"><f>1</f></c><c r="C2"><f>2</f></c></row>', "C2"),
        # a namespace prefix: the general reader
        ('<x:row r="3"><x:c r="D3"><x:v>1</x:v></x:c><x:c r="D3"><x:v>2</x:v></x:c></x:row>', "D3"),
    ],
)
def test_a_cell_written_twice_is_refused(tmp_path: Path, rows: str, twice: str) -> None:
    message = refused(package(tmp_path / "a.xlsx", {"S": rows}))
    assert message == (
        f"sheet 'S' (xl/worksheets/sheet1.xml): corrupt sheet: the cell {twice} is written "
        "twice in it"
    )


def test_cells_once_each_and_empty_ones_twice_are_read(tmp_path: Path) -> None:
    rows = (
        '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>A1+1</f></c><c r="C1" s="1"/>'
        '<c r="C1" s="2"/></row>'
    )
    assert values_of(run(package(tmp_path / "a.xlsx", {"S": rows}))) == {"B1": 2.0}


@pytest.mark.parametrize("index", ["-1", "3", "x", "99999999999999999999"])
def test_a_shared_string_that_is_not_there_is_refused(tmp_path: Path, index: str) -> None:
    rows = f'<row r="1"><c r="A1" t="s"><v>{index}</v></c><c r="B1"><f>A1</f></c></row>'
    path = package(tmp_path / "a.xlsx", {"S": rows}, strings=("x", "y", "z"))
    assert refused(path) == (
        f"sheet 'S' (xl/worksheets/sheet1.xml): corrupt sheet: the cell A1 refers to shared "
        f"string {index[:20]!r}, and the workbook holds 3 (numbered from 0)"
    )


def test_the_first_and_last_shared_strings_are_read(tmp_path: Path) -> None:
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="A2" t="s"><v>2</v></c>'
        '<c r="B1"><f>A1&amp;A2</f></c></row>'
    )
    path = package(tmp_path / "a.xlsx", {"S": rows}, strings=("x", "y", "z"))
    assert values_of(run(path)) == {"B1": "xz"}


def test_a_part_twice_in_the_zip_is_refused(tmp_path: Path) -> None:
    path = package(tmp_path / "a.xlsx", {"S": '<row r="1"><c r="A1"><f>1</f></c></row>'})
    with zipfile.ZipFile(path, "a") as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate it is asked to write
        z.writestr("xl/worksheets/sheet1.xml", b"<worksheet/>")
    assert refused(path) == (
        "corrupt workbook package: part xl/worksheets/sheet1.xml is there twice"
    )


def test_an_encrypted_part_is_refused(tmp_path: Path) -> None:
    path = package(tmp_path / "a.xlsx", {"S": '<row r="1"><c r="A1"><f>1</f></c></row>'})
    data = bytearray(path.read_bytes())
    name = b"xl/worksheets/sheet1.xml"
    at = data.index(b"PK\x01\x02")  # the central directory's entries, one by one
    while data[at + 46 : at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    data[at + 8] |= 0x1  # the central directory's "encrypted" flag: zipfile would raise
    path.write_bytes(bytes(data))
    assert refused(path) == (
        "encrypted part xl/worksheets/sheet1.xml in the package: save the workbook again "
        "without a password"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            b"&#x110000;",
            "has the character reference &#x110000; at byte {at}, which is no character XML allows",
        ),
        (
            b"&#0;",
            "has the character reference &#0; at byte {at}, which is no character XML allows",
        ),
        (
            b"&#99999999999999999999;",
            "has the character reference &#99999999999999 at byte {at}, which is no character "
            "XML allows",
        ),
        (b"a\xff", "is not UTF-8 text at byte {at1} (ff)"),
        (b"\xe2\x82", "is not UTF-8 text at byte {at} (e2)"),
    ],
)
def test_text_xml_cannot_hold_is_refused_with_its_part_and_byte(
    tmp_path: Path, text: bytes, message: str
) -> None:
    head = f"<sst {NS}><si><t>".encode()
    part = head + text + b"</t></si></sst>"
    path = package(tmp_path / "a.xlsx", {"S": ""}, parts={"xl/sharedStrings.xml": part})
    expected = message.format(at=f"{len(head):,}", at1=f"{len(head) + 1:,}")
    assert refused(path) == f"corrupt workbook package: part xl/sharedStrings.xml {expected}"


def test_every_character_xml_allows_is_read(tmp_path: Path) -> None:
    text = "&#x9;&#xD7FF;&#xE000;&#xFFFD;&#x10000;&#x10FFFF;é€"
    rows = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><f>LEN(A1)</f></c></row>'
    path = package(tmp_path / "a.xlsx", {"S": rows}, strings=(text,))
    assert values_of(run(path)) == {"B1": 8.0}


def test_a_crafted_part_fails_its_file_with_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = f"<sst {NS}><si><t>&#x110000;</t></si></sst>".encode()
    package(tmp_path / "bad.xlsx", {"S": ""}, parts={"xl/sharedStrings.xml": bad})
    package(tmp_path / "good.xlsx", {"S": '<row r="1"><c r="A1"><f>1+1</f></c></row>'})
    code = main(["recalc", str(tmp_path / "bad.xlsx"), str(tmp_path / "good.xlsx"), "-q"])
    out, err = capsys.readouterr()
    assert code == 1 and "1 recalculated, 1 failed" in out
    assert "bad.xlsx: corrupt workbook package: part xl/sharedStrings.xml" in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("ref", ["A1048577", "XFE1"])
def test_a_cell_past_excels_grid_is_refused(tmp_path: Path, ref: str) -> None:
    rows = f'<row r="1"><c r="A1"><f>1</f></c></row><row><c r="{ref}"><v>1</v></c></row>'
    assert refused(package(tmp_path / "a.xlsx", {"S": rows})).endswith(
        f"corrupt sheet: the cell {ref} is beyond Excel's grid (1,048,576 rows, 16,384 columns)"
    )


# --- formulas ---------------------------------------------------------------------------------


Cells = dict[str, "str | float"]


def book(tmp_path: Path, cells: Cells, other: Cells | None = None) -> Recalculated:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    for ref, v in cells.items():
        ws[ref] = v
    if other is not None:
        t = wb.create_sheet("T")
        for ref, v in other.items():
            t[ref] = v
    wb.save(tmp_path / "a.xlsx")
    return run(tmp_path / "a.xlsx")


def test_a_reference_past_the_grid_is_a_name_as_in_excel(tmp_path: Path) -> None:
    """Excel reads XFE1 and A1048577 as names: #NAME? where the workbook defines none."""
    out = book(
        tmp_path,
        {
            "A1": "=XFE1+1",
            "A2": "=A1048577+1",
            "A3": "=XFD1+1",
            "A4": "=A1048576+1",
            "A5": "=SUM(B1:XFE1)",
            "A6": '=INDIRECT("XFE1")',
            "A7": '=ROWS(INDIRECT("B1:XFD1048576"))',
        },
    )
    name, ref = ERRORS["#NAME?"], ERRORS["#REF!"]
    assert values_of(out) == {
        "A1": name, "A2": name, "A3": 1.0, "A4": 1.0, "A5": name, "A6": ref, "A7": 1048576.0,
    }  # fmt: skip


def test_no_text_longer_than_excels_is_made(tmp_path: Path) -> None:
    """32,767 characters is Excel's longest text: one more is #VALUE!, whichever function or
    operator would make it, and the long text is never built."""
    cells: Cells = {
        "A1": '=LEN(REPT("a",32766)&"b")',
        "A2": '=REPT("a",32767)&"b"',
        "A3": '=LEN(SUBSTITUTE(REPT("a",16383),"a","aa")&"b")',
        "A4": '=SUBSTITUTE(REPT("a",16384),"a","aa")',
        "A5": '=SUBSTITUTE(REPT("a",32767),"a",REPT("b",32767))',
        "A6": '=CONCAT(REPT("a",32767),"b")',
        "A7": '=TEXTJOIN(",",FALSE,REPT("a",32767),"")',
        "A8": '=LEN(TEXTJOIN(",",FALSE,REPT("a",32766),""))',
        "A9": '=REGEXREPLACE(REPT("a",32767),"",REPT("b",32767))',
        "A10": '=UPPER(REPT("ß",16384))',
        "A11": '=LEN(UPPER(REPT("ß",16383)))',
        "B1": "ab",
    }
    for r in range(2, 42):  # doubling: 2^41 characters if nothing stopped it
        cells[f"B{r}"] = f"=B{r - 1}&B{r - 1}"
    out = values_of(book(tmp_path, cells))
    value = ERRORS["#VALUE!"]
    assert [out[f"A{r}"] for r in range(1, 12)] == [
        32767.0, value, 32767.0, value, value, value, value, 32767.0, value, value, 32766.0,
    ]  # fmt: skip
    assert out["B14"] == "ab" * 2**13 and out["B15"] == value and out["B41"] == value


def test_wildcards_against_long_texts_are_matched_without_backtracking(tmp_path: Path) -> None:
    pattern = '"*a*a*a*a*a*a*a*a*a*a*a*a*b"'
    out = book(
        tmp_path,
        {
            "A1": "a" * 40,
            "A2": "a" * 32767,
            "A3": "a" * 39 + "b",
            "B1": f"=COUNTIF(A1:A3,{pattern})",
            "B2": f"=MATCH({pattern},A1:A3,0)",
            "B3": f"=SEARCH({pattern},A1)",
            "B4": f"=SEARCH({pattern},A3)",
            "B5": f"=XMATCH({pattern},A1:A3,2)",
            "B6": '=SEARCH("a?b",A3,30)',
        },
    )
    assert values_of(out) == {
        "B1": 1.0, "B2": 3.0, "B3": ERRORS["#VALUE!"], "B4": 1.0, "B5": 3.0, "B6": 38.0,
    }  # fmt: skip


def _regex(pattern: str) -> re.Pattern[str]:
    """Excel's wildcards as the backtracking regular expression the engine used before."""
    out: list[str] = []
    escaped = False
    for ch in pattern:
        if escaped and ch not in "*?~":
            out.append(re.escape("~"))
        if escaped or ch not in "*?~":
            out.append(re.escape(ch))
            escaped = False
        elif ch == "~":
            escaped = True
        else:
            out.append(".*" if ch == "*" else ".")
    if escaped:
        out.append(re.escape("~"))
    return re.compile("".join(out), re.I | re.S)


@given(st.text("ab*?~A", max_size=7), st.text("abAB~*?", max_size=9), st.integers(0, 9))
def test_the_linear_wildcard_matcher_agrees_with_a_regular_expression(
    pattern: str, text: str, start: int
) -> None:
    mine, theirs = Wildcard(pattern), _regex(pattern)
    assert mine.fullmatch(text) == (theirs.fullmatch(text) is not None)
    start = min(start, len(text))
    found = theirs.search(text, start)
    assert mine.search(text, start) == (-1 if found is None else found.start())


def test_a_whole_sheet_with_one_far_cell_is_read_as_its_cells(tmp_path: Path) -> None:
    """SUM over 17 billion cells of which two hold something: their sum, as Excel; what must
    read every cell is refused with the reason."""
    out = book(
        tmp_path,
        {"A1": 5, "XFD1048576": 1},
        {
            "A1": "=SUM(S!A1:XFD1048576)",
            "A2": "=COUNT(S!A1:XFD1048576)",
            "A3": "=COUNTA(S!A:XFD)",
            "A4": "=MAX(S!1:1048576)",
            "A5": "=SUMPRODUCT(S!A1:XFD1048576)",
            "A6": '=COUNTIF(S!A1:XFD1048576,">0")',
            "A7": "=SUM(S!B1:XFD1048575)",
        },
    )
    assert values_of(out, "T") == {"A1": 6.0, "A2": 2.0, "A3": 2.0, "A4": 5.0, "A7": 0.0}
    limit = (
        "a range of 1,048,576 x 16,384 values: more than the 4,194,304 recalc holds at once "
        "(Excel: out of resources)"
    )
    assert reasons(out) == {"A5": limit, "A6": limit}


def test_the_bound_on_a_range_read_whole_on_both_sides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(values, "MAX_ARRAY", 6)
    out = book(tmp_path, {"A1": 1, "B3": 2, "D1": "=SUMPRODUCT(A1:B3)", "D2": "=SUMPRODUCT(A1:B4)",
                          "D3": "=ROWS(A1:A1*SEQUENCE(6))", "D4": "=ROWS(A1:A1*SEQUENCE(7))"})  # fmt: skip
    assert values_of(out) == {"D1": 3.0, "D3": 6.0}
    assert set(reasons(out)) == {"D2", "D4"}


def test_mmult_bounded_on_both_sides_of_its_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = book(
        tmp_path,
        {
            "A1": "=MMULT(SEQUENCE(1000,1000),SEQUENCE(1000,1000))",
            "A2": "=SUM(MMULT(SEQUENCE(30,30),SEQUENCE(30,30)))",
        },
    )
    n = 30
    a = [[i * n + j + 1 for j in range(n)] for i in range(n)]
    exact = sum(a[i][k] * a[k][j] for i in range(n) for j in range(n) for k in range(n))
    assert values_of(out) == {"A2": float(exact)}
    assert reasons(out) == {
        "A1": "MMULT of 1,000 x 1,000 by 1,000 x 1,000 arrays: 1,000,000,000 products, more "
        "than the 33,554,432 recalc computes in a formula"
    }
    monkeypatch.setattr(math_trig, "MAX_PRODUCTS", 27)  # 3 x 3 by 3 x 3: 27 products
    out = book(tmp_path, {"A1": "=SUM(MMULT(SEQUENCE(3,3),SEQUENCE(3,3)))",
                          "A2": "=SUM(MMULT(SEQUENCE(3,4),SEQUENCE(4,3)))"})  # fmt: skip
    assert values_of(out) == {"A1": 729.0} and set(reasons(out)) == {"A2"}


def test_a_chain_of_12000_indirect_cells_is_computed(tmp_path: Path) -> None:
    """Each cell reads the next through INDIRECT (a reference found only when it runs): the
    chain is followed from its deepest cell, however deep."""
    n = 12_000
    cells: Cells = {f"A{r}": f'=INDIRECT("A{r + 1}")+1' for r in range(1, n)}
    cells[f"A{n}"] = 1
    out = values_of(book(tmp_path, cells))
    assert out["A1"] == n and out[f"A{n - 1}"] == 2 and len(out) == n - 1


def test_a_circle_of_12000_indirect_cells_is_reported(tmp_path: Path) -> None:
    n = 12_000
    cells: Cells = {f"A{r}": f'=INDIRECT("A{r + 1}")+1' for r in range(1, n)}
    cells[f"A{n}"] = '=INDIRECT("A1")'
    out = book(tmp_path, cells)
    assert out.computed == 0 and len(out.problems) == n


@pytest.mark.parametrize(
    ("written", "taken"),
    [
        (b' iterateCount="2000000000"', (32767, 0.001)),
        (b' iterateCount="32767"', (32767, 0.001)),
        (b' iterateCount="0" iterateDelta="nan"', (1, 0.001)),
        (b' iterateCount="5" iterateDelta="0.5"', (5, 0.5)),
        (b"", (100, 0.001)),
    ],
)
def test_the_iterations_a_file_asks_for_are_at_most_excels(
    written: bytes, taken: tuple[int, float]
) -> None:
    assert iteration(b'<workbook><calcPr iterate="1"' + written + b"/></workbook>") == taken


def test_a_folder_linked_into_itself_is_walked_once(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    (folder / "sub").mkdir(parents=True)
    for name in ("d/a.xlsx", "d/sub/b.xlsx"):
        (tmp_path / name).write_bytes(b"PK")
    os.symlink("..", folder / "sub" / "up")
    os.symlink(".", folder / "self")
    found = iter_sources([str(folder / "**" / "*.xlsx")])
    assert found == [folder / "a.xlsx", folder / "sub" / "b.xlsx"]
    assert iter_sources([str(folder / "**")]) == found
    assert iter_sources([str(folder / "*" / "*.xlsx")]) == [
        folder / "self" / "a.xlsx", folder / "sub" / "b.xlsx"
    ]  # fmt: skip


def test_a_long_text_of_digits_is_read_without_backtracking(tmp_path: Path) -> None:
    """A number's pattern with one way to read each text: 32,766 digits and a letter are not
    a number at once (the pattern before took 19 seconds to say so)."""
    out = book(tmp_path, {"A1": "1" * 32766 + "x", "A2": "1" * 300, "B1": "=A1+0", "B2": "=A2+0",
                          "B3": '=VALUE("1.5e3")', "B4": '=VALUE("1.")'})  # fmt: skip
    assert values_of(out) == {"B1": ERRORS["#VALUE!"], "B2": float("1" * 300), "B3": 1500.0,
                              "B4": 1.0}  # fmt: skip


def test_a_regular_expression_that_may_backtrack_exponentially_is_reported(
    tmp_path: Path,
) -> None:
    text = '"' + "a" * 40 + '"'
    out = book(
        tmp_path,
        {
            "A1": f'=REGEXTEST({text},"(a+)+b")',
            "A2": f'=REGEXTEST({text},"(a|aa)*b")',
            "A3": '=REGEXTEST("abab","(ab)\\1")',
            "A4": f'=REGEXTEST({text},"a+b")',
            "A5": '=REGEXEXTRACT("x-12.5-y","\\d+\\.\\d+")',
            "A6": '=REGEXTEST("abab","(?:ab)+")',
        },
    )
    assert values_of(out) == {"A4": False, "A5": "12.5", "A6": True}
    assert reasons(out) == {
        "A1": "the regular expression '(a+)+b' has a repetition inside a repetition: it may "
        "take exponential time",
        "A2": "the regular expression '(a|aa)*b' has alternatives inside a repetition: it may "
        "take exponential time",
        "A3": "the regular expression '(ab)\\\\1' has a back-reference: it may take exponential "
        "time",
    }
