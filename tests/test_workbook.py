"""Headless recalculation: values filled in, nothing else in the package touched."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.drawing.image import Image
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from PIL import Image as PILImage

from fide_rating.commands.cli import main
from fide_rating.engine.formula import ERRORS
from fide_rating.engine.package import WorkbookError, patch_part, shared_strings, sheet_parts
from fide_rating.engine.recalc import evaluate, recalc_file

SPARKLINES = (
    b'<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" '
    b'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
    b'<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    b"<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>Games!B2:H2</xm:f>"
    b"<xm:sqref>J2</xm:sqref></x14:sparkline></x14:sparklines></x14:sparklineGroup>"
    b"</x14:sparklineGroups></ext></extLst>"
)


def user_workbook(path: Path, *, vba: bool = False) -> Path:
    """A workbook laid out by a user, with every kind of part a recalculation must keep."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Games"
    ws.append(["Player", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "Change", "Note"])
    ws.append([2000, 1063, 1299, 1413, 1872, 1851, 1427, 1682])
    ws.append(["Results", 1, 1, 1, "½", 0, 1, 1])
    ws["I2"] = '=FIDE_CHANGE(A2,B2:H2,B3:H3,20,"2022-01")'
    ws["I3"] = "=ROUND(I2,0)+SUM(B3:H3)"
    ws["I4"] = '=IF(I2<0,"lost","won")&" "&_xlfn.TEXTJOIN(",",TRUE,B2:C2)'  # as Excel saves it
    ws["I5"] = '=CUBEVALUE("Sales")'  # an Excel function not computed: kept as it was
    ws["I7"] = "=FOO(1)"  # not an Excel function: #NAME?, unless a macro of the workbook's
    ws["I6"] = "=Rating*2"
    ws["A1"].font = Font(bold=True)
    ws["A1"].fill = PatternFill("solid", fgColor="FFFF00")
    ws["B2"].number_format = "0.00"
    ws.merge_cells("A8:C8")
    ws["A8"] = "merged"
    ws["J2"].comment = Comment("a note", "arbiter")
    ws["J3"].hyperlink = "https://handbook.fide.com/"
    dv = DataValidation(type="list", formula1='"1,½,0"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("B3:H3")
    red = PatternFill("solid", fgColor="FF0000")
    rule = CellIsRule(operator="lessThan", formula=["0"], fill=red)  # type: ignore[no-untyped-call]
    ws.conditional_formatting.add("I2", rule)
    ws.freeze_panes = "B2"
    wb.defined_names["Rating"] = DefinedName("Rating", attr_text="Games!$A$2")
    picture = io.BytesIO()
    PILImage.new("RGB", (4, 4), "red").save(picture, format="PNG")
    ws.add_image(Image(picture), "L2")
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=2, min_row=2, max_col=8), from_rows=True)
    ws.add_chart(chart, "L10")  # type: ignore[call-arg]
    other = wb.create_sheet("Other")
    other["A1"] = "=Games!I2*2"
    other["A2"] = "=SUM(Games!B2:H2)/7"
    wb.save(path)
    # parts openpyxl would drop: sparklines in the sheet, and a VBA project
    with zipfile.ZipFile(path) as z:
        members = [(i, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in members:
            if info.filename == "xl/worksheets/sheet1.xml":
                z.writestr(info, data.replace(b"</worksheet>", SPARKLINES + b"</worksheet>"))
            else:
                z.writestr(info, data)
        if vba:
            z.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 not really VBA, but bytes to keep")
    return path


def _strip_formula_values(part: bytes) -> bytes:
    """A worksheet with the values and types of its formula cells removed."""

    def sub(m: re.Match[bytes]) -> bytes:
        body = m.group(2) or b""
        if b"<f" not in body:
            return m.group()
        attrs = re.sub(rb'\s+t="[^"]*"', b"", m.group(1))
        return (
            b"<c" + attrs + b">" + re.sub(rb"<v>.*?</v>|<v\s*/>", b"", body, flags=re.S) + b"</c>"
        )

    return re.sub(rb"<c\b([^>]*?)(?:/>|>(.*?)</c>)", sub, part, flags=re.S)


@pytest.mark.filterwarnings("ignore:Sparkline Group extension is not supported")
@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm"])
def test_every_part_kept_only_formula_values_change(tmp_path: Path, suffix: str) -> None:
    source = user_workbook(tmp_path / f"user{suffix}", vba=suffix == ".xlsm")
    outcome = recalc_file(source)
    assert outcome.output == tmp_path / f"user.recalc{suffix}"
    with zipfile.ZipFile(source) as a, zipfile.ZipFile(outcome.output) as b:
        assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()]
        parts = {i.filename: a.read(i.filename) for i in a.infolist()}
        sheets = set(sheet_parts(parts).values())
        for name, before in parts.items():
            after = b.read(name)
            if name in sheets:
                assert _strip_formula_values(before) == _strip_formula_values(after), name
            else:
                assert before == after, name
        assert SPARKLINES in b.read("xl/worksheets/sheet1.xml")
        if suffix == ".xlsm":
            assert b.read("xl/vbaProject.bin") == parts["xl/vbaProject.bin"]
    values = openpyxl.load_workbook(outcome.output, data_only=True)
    assert values["Games"]["I2"].value == -12.2
    assert values["Games"]["I3"].value == -12 + 5  # the text ½ is not summed
    assert values["Games"]["I6"].value == 4000
    assert values["Other"]["A1"].value == -24.4
    assert values["Other"]["A2"].value == pytest.approx(10607 / 7)
    # formulas kept as they were
    formulas = openpyxl.load_workbook(outcome.output)
    assert formulas["Games"]["I2"].value == '=FIDE_CHANGE(A2,B2:H2,B3:H3,20,"2022-01")'
    assert values["Games"]["I4"].value == "lost 1063,1299"
    problems = {str(p) for p in outcome.problems}
    expected = {"Games!I5: CUBEVALUE is an Excel function recalc does not compute"}
    if suffix == ".xlsm":  # FOO may be one of its macros
        expected.add("Games!I7: FOO is not an Excel function (one of the workbook's macros?)")
    else:
        assert values["Games"]["I7"].value == "#NAME?"
    assert problems == expected


def test_unsupported_cell_left_exactly_as_it_was(tmp_path: Path) -> None:
    source = user_workbook(tmp_path / "user.xlsx")
    out = recalc_file(source).output
    assert out is not None

    def cell(path: Path, ref: bytes) -> bytes:
        with zipfile.ZipFile(path) as z:
            xml = z.read("xl/worksheets/sheet1.xml")
        m = re.search(rb'<c r="' + ref + rb'".*?</c>', xml, re.S)
        assert m is not None
        return m.group()

    assert cell(source, b"I5") == cell(out, b"I5")
    assert cell(source, b"I2") != cell(out, b"I2")


def test_recalculating_twice_changes_nothing(tmp_path: Path) -> None:
    first = recalc_file(user_workbook(tmp_path / "user.xlsx")).output
    assert first is not None
    second = recalc_file(first, out_dir=tmp_path / "again")
    assert second.changed == 0
    assert second.output is not None
    assert second.output.read_bytes() == first.read_bytes()


def test_never_overwrites_the_input_unless_in_place(tmp_path: Path) -> None:
    source = user_workbook(tmp_path / "user.xlsx")
    before = source.read_bytes()
    recalc_file(source, out_dir=tmp_path / "out")
    assert source.read_bytes() == before
    assert (tmp_path / "out" / "user.xlsx").exists()
    with pytest.raises(WorkbookError, match="overwrite the input"):
        recalc_file(source, out_dir=tmp_path)
    recalc_file(source, in_place=True)
    assert source.read_bytes() != before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def _raw(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("notes.xlsx", lambda p: _raw(p, b"just text"), "not a workbook"),
        (
            "locked.xlsx",
            lambda p: _raw(p, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600)),
            "encrypted",
        ),
        ("cut.xlsx", lambda p: _raw(p, b"PK\x03\x04" + bytes(40)), "corrupt"),
        (
            "bomb.xlsx",
            lambda p: _zip(p, {"xl/workbook.xml": b"<workbook/>", "xl/big.bin": bytes(20 << 20)}),
            "zip bomb",
        ),
        (
            "entities.xlsx",
            lambda p: _zip(
                p, {"xl/workbook.xml": b'<!DOCTYPE x [<!ENTITY a "aaaa">]><workbook>&a;</workbook>'}
            ),
            "entities",
        ),
        ("empty.xlsx", lambda p: _zip(p, {"docProps/app.xml": b"<x/>"}), "no xl/workbook.xml"),
        (
            "late-doctype.xlsx",  # the declaration after a 70 KB comment in the prolog
            lambda p: _zip(
                p,
                {
                    "xl/workbook.xml": b'<?xml version="1.0"?><!--'
                    + b"x" * 70_000
                    + b'--><!DOCTYPE x [<!ENTITY a "aaaa">]><workbook>&a;</workbook>'
                },
            ),
            "entities",
        ),
        (
            "many-parts.xlsx",  # 600 parts of 1 MiB: 600 MiB to hold in memory
            lambda p: _zip(
                p,
                {
                    "xl/workbook.xml": b"<workbook/>",
                    **{f"xl/media/{i}.bin": bytes(1 << 20) for i in range(600)},
                },
            ),
            "unpacks to 600 MiB",
        ),
    ],
)
def test_hostile_and_broken_files_are_refused(
    tmp_path: Path, name: str, make: object, message: str
) -> None:
    path = make(tmp_path / name)  # type: ignore[operator]
    with pytest.raises(WorkbookError, match=message):
        evaluate(path.read_bytes(), path)


def test_batch_goes_on_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = user_workbook(tmp_path / "a.xlsx")
    (tmp_path / "b.xlsx").write_text("not a workbook")
    user_workbook(tmp_path / "c.xlsx")
    code = main(
        [
            "recalc",
            str(tmp_path / "*.xlsx"),
            "-o",
            str(tmp_path / "out"),
            "--csv",
            str(tmp_path / "out" / "players.csv"),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 1
    assert "FAILED" in err and "b.xlsx" in err and "not a workbook" in err
    assert (tmp_path / "out" / "a.xlsx").exists() and (tmp_path / "out" / "c.xlsx").exists()
    assert "2 recalculated, 1 failed" in out
    assert "Games!I5: CUBEVALUE is an Excel function recalc does not compute" in out
    assert good.exists()
    assert (tmp_path / "out" / "players.csv").read_text().startswith("File,No,Name")


def test_shared_formulas_as_excel_writes_them(tmp_path: Path) -> None:
    """Excel stores a formula filled down as one shared formula: each cell gets its value."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for r in range(1, 5):
        ws.cell(r, 1, r * 100)
        ws.cell(r, 2, f"=A{r}*2")
    path = tmp_path / "shared.xlsx"
    wb.save(path)
    with zipfile.ZipFile(path) as z:
        members = [(i, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, content in members:
            if info.filename == "xl/worksheets/sheet1.xml":
                master = b'<f t="shared" ref="B1:B4" si="0">A1*2</f>'
                shared = re.sub(rb"<f>A1\*2</f>", master, content)
                shared = re.sub(rb"<f>A[234]\*2</f>", b'<f t="shared" si="0"/>', shared)
                assert shared.count(b'si="0"') == 4
                z.writestr(info, shared)
            else:
                z.writestr(info, content)
    out = recalc_file(path)
    assert out.problems == [] and out.computed == 4
    assert [out.values[("Sheet", r, 2)] for r in range(1, 5)] == [200.0, 400.0, 600.0, 800.0]
    assert out.output is not None
    with zipfile.ZipFile(out.output) as z:
        assert z.read("xl/worksheets/sheet1.xml").count(b'<f t="shared" si="0"/>') == 3


@pytest.mark.parametrize(
    ("xml", "expected"),
    [
        (b"<sst><si><t>a</t></si><si><t>x&amp;y</t></si></sst>", ["a", "x&y"]),
        # an empty item must not swallow the one after it
        (b"<sst><si/><si><t>z</t></si></sst>", ["", "z"]),
        # rich text runs are joined; phonetic guides are not part of the value
        (
            b'<sst><si><r><t>a</t></r><r><t xml:space="preserve"> b</t></r></si>'
            b"<si><t>c</t><rPh sb='0' eb='1'><t>k</t></rPh></si></sst>",
            ["a b", "c"],
        ),
    ],
)
def test_shared_strings_plain_rich_and_empty(xml: bytes, expected: list[str]) -> None:
    assert shared_strings({"xl/sharedStrings.xml": xml}) == expected


def test_shared_strings_with_excels_escapes_and_line_ends() -> None:
    """``_xHHHH_`` is how Excel writes a character XML cannot hold (``_x005F_`` a literal
    ``_``); a raw CR LF reads as LF, as in any XML parser, and ``&#13;`` as CR."""
    xml = (
        b"<sst><si><t>a_x000D_b_x0001_</t></si><si><t>_x005F_x000F_</t></si>"
        b"<si><t>l1\r\nl2&#13;</t></si><si><t>x_y_x</t></si></sst>"
    )
    assert shared_strings({"xl/sharedStrings.xml": xml}) == [
        "a\rb\x01",
        "_x000F_",
        "l1\nl2\r",
        "x_y_x",
    ]


def test_a_text_value_with_spaces_at_its_ends_is_replaced_as_excel_wrote_it() -> None:
    """Excel writes a formula's text value with a space at either end as ``<v
    xml:space="preserve">``: its new value goes into that element, the attribute kept, and the
    other cells of the sheet are patched alike."""
    part = (
        b'<worksheet><sheetData><row r="1"><c r="A1" s="4" t="str"><f>B1&amp;" "</f>'
        b'<v xml:space="preserve">Exports </v></c><c r="B1" t="s"><v>0</v></c>'
        b'<c r="C1"><f>1+1</f><v>5</v></c></row></sheetData></worksheet>'
    )
    out, changed = patch_part(part, {(1, 1): "Imports ", (1, 3): 2.0})
    assert (
        b'<c r="A1" s="4" t="str"><f>B1&amp;" "</f><v xml:space="preserve">Imports </v></c>' in out
    )
    assert b'<c r="B1" t="s"><v>0</v></c>' in out  # a constant, as it was
    assert b'<c r="C1"><f>1+1</f><v>2</v></c>' in out
    assert changed == 2
    same, unchanged = patch_part(out, {(1, 1): "Imports ", (1, 3): 2.0})
    assert same == out and unchanged == 0


def test_texts_xml_cannot_hold_are_written_as_excel_writes_them(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    # in a formula too, Excel writes a literal "_x0041_" as "_x005F_x0041_"
    ws["A1"] = '=CHAR(1)&"_x005F_x0041_"&CHAR(13)&CHAR(10)&"end"'
    ws["A2"] = "=LEN(A1)"
    path = tmp_path / "controls.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    assert out.values[("Sheet", 1, 1)] == "\x01_x0041_\r\nend"
    assert out.values[("Sheet", 2, 1)] == 13.0
    assert out.output is not None
    with zipfile.ZipFile(out.output) as z:
        part = z.read("xl/worksheets/sheet1.xml")
    assert b"<v>_x0001__x005F_x0041__x000D_\nend</v>" in part  # well-formed XML
    again = evaluate(out.output.read_bytes(), out.output)[0]  # and read back the same
    assert again.values[("Sheet", 1, 1)] == "\x01_x0041_\r\nend"


def test_player_table_prints_why_a_player_is_not_rated_in_full(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = Path(__file__).resolve().parent.parent / "examples"
    code = main(
        [
            "recalc",
            str(example / "karl-mala-gedenkturnier-2005.xlsx"),
            "-o",
            str(tmp_path),
            "--csv",
            str(tmp_path / "players.csv"),
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    line = next(x for x in out.splitlines() if "Andersen,Henrik" in x)
    # the reason is not cut short; the Initial column shows "-"
    assert re.search(r"\s-\s+not rated: 5 games against rated opponents, 9 needed$", line)
    rated = next(x for x in out.splitlines() if "Kammerer,Peter" in x)
    assert rated.split()[-1] == "1997"
    # the CSV keeps the reason in the Initial column
    with (tmp_path / "players.csv").open(newline="") as f:
        andersen = next(r for r in csv.DictReader(f) if r["Name"] == "Andersen,Henrik")
    assert andersen["Initial"] == "not rated: 5 games against rated opponents, 9 needed"


def test_a_chain_deeper_than_any_recursion(tmp_path: Path) -> None:
    """A{r} = A{r+1} + 1 down 20,000 rows: computed bottom-up once recursion runs out, every
    cell right; a circle at the end of a long chain is still reported as circular."""
    import openpyxl

    n = 20_000
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for r in range(1, n):
        ws.cell(r, 1, f"=A{r + 1}+1")
    ws.cell(n, 1, 1)
    ws.cell(1, 2, f"=SUM(A1:A{n})")
    for r in range(1, n):  # a second column whose chain ends in a circle
        ws.cell(r, 3, f"=C{r + 1}+1")
    ws.cell(n, 3, "=C1")
    path = tmp_path / "chain.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    assert out.values[("Sheet", 1, 1)] == n and out.values[("Sheet", n - 1, 1)] == 2
    assert out.values[("Sheet", 1, 2)] == n * (n + 1) // 2
    circular = [p for p in out.problems if p.reason.startswith("circular reference")]
    assert circular and all(p.cell.startswith("C") for p in out.problems)
    assert not any("too deep" in p.reason for p in out.problems)


def test_overflow_and_not_a_number_are_num_errors(tmp_path: Path) -> None:
    """Excel has no infinity and no NaN: #NUM!, and the batch goes on."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"] = 1e308
    ws["B1"] = "=SUM(A1,A1)"
    ws["B2"] = "=A1*10"
    ws["B3"] = "=A1+A1-A1"
    ws["B4"] = "=SQRT(-1)"
    ws["B5"] = "=A1/2"
    path = tmp_path / "huge.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    assert [out.values[("Sheet", r, 2)] for r in range(1, 5)] == [ERRORS["#NUM!"]] * 4
    assert out.values[("Sheet", 5, 2)] == 5e307
    assert out.output is not None
    reread = openpyxl.load_workbook(out.output, data_only=True)["Sheet"]
    assert reread["B1"].value == "#NUM!"  # a file that opens, not inf in <v>


def test_a_fault_of_ours_costs_a_cell_or_a_file_never_the_batch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A function that fails inside (a fault injected here: nothing known does it) leaves its
    cell and the cells on it as they were, reported; a workbook that fails inside is reported
    and the batch goes on."""
    from fide_rating.engine import functions, recalc

    def broken(*args: object) -> float:
        raise IndexError("list index out of range")

    monkeypatch.setitem(
        functions.FUNCTIONS, "ABS", dataclasses.replace(functions.FUNCTIONS["ABS"], impl=broken)
    )
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["A3"] = "=ABS(-1)", "=A1+1", "=2+2"
    wb.save(tmp_path / "a.xlsx")
    outcome = recalc_file(tmp_path / "a.xlsx", out_dir=tmp_path / "out")
    assert [(p.cell, "internal error (IndexError" in p.reason) for p in outcome.problems] == [
        ("A1", True), ("A2", True)
    ]  # fmt: skip
    assert outcome.values[("Sheet", 3, 1)] == 4.0

    real = recalc.evaluate

    def fails_on_b(data: bytes, source: Path, *rest: object) -> object:
        if source.name == "b.xlsx":
            raise RuntimeError("an unforeseen fault")
        return real(data, source, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(recalc, "evaluate", fails_on_b)
    user_workbook(tmp_path / "b.xlsx")
    user_workbook(tmp_path / "c.xlsx")
    code = main(
        ["recalc", str(tmp_path / "b.xlsx"), str(tmp_path / "c.xlsx"), "-o", str(tmp_path / "o2")]
    )
    out, err = capsys.readouterr()
    assert code == 1 and "1 recalculated, 1 failed" in out
    assert "FAILED" in err and "internal error (RuntimeError: an unforeseen fault)" in err
    assert "Traceback" not in err and (tmp_path / "o2" / "c.xlsx").exists()
    assert not (tmp_path / "o2" / "b.xlsx").exists()


def test_cells_on_an_uncomputed_formula_are_reported_not_computed_from_its_stale_value(
    tmp_path: Path,
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["A3"] = '=CUBEVALUE("x")', "=A1+1", "=IFERROR(A2,0)"
    ws["A4"], ws["A5"], ws["B1"] = "=SUM(A1:A3)", "=2+2", 7
    for r in range(10, 30_010):  # a deep chain ending on it: followed bottom-up, then reported
        ws.cell(r, 3, f"=C{r + 1}+1")
    ws.cell(30_010, 3, "=A2")
    wb.save(tmp_path / "a.xlsx")
    outcome = recalc_file(tmp_path / "a.xlsx", out_dir=tmp_path / "out")
    reasons = {p.cell: p.reason for p in outcome.problems}
    assert reasons["A1"] == "CUBEVALUE is an Excel function recalc does not compute"
    for cell in ("A2", "A3", "A4", "C10", "C30010"):  # each names the root cause
        assert reasons[cell] == (
            "depends on Sheet!A1 (CUBEVALUE is an Excel function recalc does not compute), "
            "which is not computed"
        ), cell
    assert len(reasons) == 5 + 30_000
    assert outcome.values == {("Sheet", 5, 1): 4.0}
    out = openpyxl.load_workbook(tmp_path / "out" / "a.xlsx")["Sheet"]
    assert out["A2"].value == "=A1+1"  # formulas kept, as they were


def test_array_formulas_legacy_and_dynamic(tmp_path: Path) -> None:
    """Ctrl+Shift+Enter formulas: one cell (an aggregate of an element-wise IF), a range (each
    cell its element, a row stretched down the range, #N/A beyond a smaller result), and cells
    of other formulas that read an array's cells."""
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for r, (a, b) in enumerate([(1, 10), (2, 20), (3, 30)], 1):
        ws.cell(r, 1, a)
        ws.cell(r, 2, b)
    ws["D1"] = ArrayFormula("D1", "=SUM(IF(A1:A3>1,B1:B3))")
    ws["E1"] = ArrayFormula("E1:E4", "=A1:A3*B1:B3")
    ws["F1"] = ArrayFormula("F1:G2", "={1,2}")
    ws["H1"] = ArrayFormula("H1:H3", '=IF(MOD(A1:A3,2)=1,"odd",LEN(B1:B3))')
    ws["I1"] = "=SUM(E1:E3)"
    ws["J1"] = ArrayFormula("J1", '=MAX(LEN(B1:B3&"x"))')
    for ref in ("E2", "E3", "E4", "F2", "G1", "G2", "H2", "H3"):
        ws[ref] = 0  # Excel writes each cell of the range with its value (stale here)
    path = tmp_path / "arrays.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {(r, c): v for (_, r, c), v in out.values.items()}
    assert got[(1, 4)] == 50.0
    assert [got[(r, 5)] for r in range(1, 5)] == [10.0, 40.0, 90.0, ERRORS["#N/A"]]
    assert [got[(1, 6)], got[(1, 7)], got[(2, 6)], got[(2, 7)]] == [1.0, 2.0, 1.0, 2.0]
    assert [got[(r, 8)] for r in range(1, 4)] == ["odd", 2.0, "odd"]
    assert got[(1, 9)] == 140.0
    assert got[(1, 10)] == 3.0
    assert not out.problems
    assert out.output is not None
    reread = openpyxl.load_workbook(out.output, data_only=True).active
    assert reread is not None
    assert [reread.cell(r, 5).value for r in range(1, 5)] == [10, 40, 90, "#N/A"]
    formulas = openpyxl.load_workbook(out.output).active
    assert formulas is not None
    assert isinstance(formulas["E1"].value, ArrayFormula)  # still an array formula
    assert formulas["E1"].value.ref == "E1:E4"


def test_subtotal_leaves_out_nested_subtotals_and_hidden_rows(tmp_path: Path) -> None:
    """SUBTOTAL as Excel's reference gives it: a SUBTOTAL inside the range is not counted
    twice; rows a filter hides are left out by 9 and by 109, rows hidden by hand by 109 only
    (in the range of an autofilter that filters nothing, a hidden row is hidden by hand)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for r, v in enumerate([120, 10, 150, 23], 1):
        ws.cell(r, 1, v)
    ws["A5"] = "=SUBTOTAL(9,A1:A4)"  # 303, not counted again below
    ws["B1"] = "=SUBTOTAL(9,A1:A5)"
    ws["B2"] = "=SUBTOTAL(109,A1:A5)"
    ws["B3"] = "=SUBTOTAL(1,A1:A5)"
    ws["B4"] = "=SUM(A1:A5)"  # SUM counts everything
    ws.row_dimensions[2].hidden = True  # by hand
    ws["A10"] = "x"  # the filter's heading
    for r, v in enumerate([1, 2, 3], 11):
        ws.cell(r, 1, v)
    ws.auto_filter.ref = "A10:A13"
    ws.auto_filter.add_filter_column(0, ["1", "3"])  # showing 1 and 3
    ws.row_dimensions[12].hidden = True  # by the filter
    ws["B10"] = "=SUBTOTAL(9,A11:A13)"
    ws["B11"] = "=SUBTOTAL(109,A11:A13)"
    plain = wb.create_sheet("Plain")
    plain["A1"] = "x"
    for r, v in enumerate([1, 2, 3], 2):
        plain.cell(r, 1, v)
    plain.auto_filter.ref = "A1:A4"  # the buttons only: nothing filtered
    plain.row_dimensions[3].hidden = True  # by hand
    plain["B1"] = "=SUBTOTAL(9,A2:A4)"
    plain["B2"] = "=SUBTOTAL(109,A2:A4)"
    path = tmp_path / "subtotals.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    got = {f"{s[0]}{'AB'[c - 1]}{r}": v for (s, r, c), v in out.values.items()}
    assert (got["SA5"], got["SB1"], got["SB2"], got["SB3"], got["SB4"]) == (
        303.0, 303.0, 293.0, 75.75, 606.0)  # fmt: skip
    assert (got["SB10"], got["SB11"]) == (4.0, 4.0)
    assert (got["PB1"], got["PB2"]) == (6.0, 4.0)
    assert not out.problems


def test_a_formula_found_unsupported_when_run_says_why_itself(tmp_path: Path) -> None:
    """A formula reported only when computed (a regular expression read from a cell that may
    take exponential time) gives its own reason; the cells reading it say they depend on it."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Sheet"
    ws["A1"] = "(a+)+b"
    ws["B1"] = '=_xlfn.REGEXTEST("aaaa",A1)'
    ws["C1"] = '=B1&"!"'
    path = tmp_path / "names.xlsx"
    wb.save(path)
    out = recalc_file(path, out_dir=tmp_path / "out")
    reasons = {p.cell: p.reason for p in out.problems}
    assert reasons["B1"].startswith("the regular expression '(a+)+b'")
    assert reasons["C1"].startswith("depends on Sheet!B1 (the regular expression")
