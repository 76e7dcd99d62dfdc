"""recalc against formulas and packages at and beyond Excel's limits: what Excel accepts is
computed, what it refuses is reported with Excel's reason, a package too large for memory is
refused before it is read; never a traceback."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from fide_rating.engine.formula.values import XlError
from fide_rating.engine.package import WorkbookError, archive
from fide_rating.engine.recalc import Recalculated, evaluate, recalc_file


def _run(tmp_path: Path, formulas: dict[str, str], names: dict[str, str] | None = None
         ) -> Recalculated:  # fmt: skip
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "S"
    ws["A1"] = 2
    for ref, text in formulas.items():
        ws[ref] = text
    for name, target in (names or {}).items():
        wb.defined_names[name] = DefinedName(name, attr_text=target)
    path = tmp_path / "limits.xlsx"
    wb.save(path)
    return recalc_file(path, out_dir=tmp_path / "out", force=True)


def _values(out: Recalculated) -> dict[str, object]:
    return {f"{chr(64 + c)}{r}": v for (_, r, c), v in out.values.items()}


def _reasons(out: Recalculated) -> dict[str, str]:
    return {p.cell: p.reason for p in out.problems}


def test_formulas_as_long_and_deep_as_excel_allows_are_computed(tmp_path: Path) -> None:
    long_sum = "=" + "+".join(["A1"] * 2730)  # 8,189 characters
    assert len(long_sum) - 1 <= 8192
    deep_parentheses = "=" + "(" * 4000 + "A1" + ")" * 4000
    nested_sums = "=" + "1+(" * 2000 + "A1" + ")" * 2000  # a right-deep tree, 2,000 levels
    signs = "=" + "-" * 8000 + "A1"  # an even run: A1 itself
    percents = "=A1" + "%" * 3  # 2e-06
    out = _run(tmp_path, {"B1": long_sum, "B2": deep_parentheses, "B3": nested_sums,
                          "B4": signs, "B5": percents, "B6": "=-" + "-" * 4000 + "A1"})  # fmt: skip
    got = _values(out)
    assert not out.problems
    assert got["B1"] == 2.0 * 2730
    assert got["B2"] == 2.0
    assert got["B3"] == 2002.0
    assert got["B4"] == 2.0
    assert got["B5"] == pytest.approx(2e-6, rel=1e-15)
    assert got["B6"] == -2.0


def test_what_excel_refuses_is_reported_with_its_reason(tmp_path: Path) -> None:
    too_long = "=" + "+".join(["A1"] * 2731) + "+1"  # 8,194 characters
    nested_64 = "=" + "ABS(" * 64 + "A1" + ")" * 64
    nested_65 = "=" + "ABS(" * 65 + "A1" + ")" * 65
    args_255 = "=SUM(" + ",".join(["A1"] * 255) + ")"
    args_256 = "=SUM(" + ",".join(["A1"] * 256) + ")"
    out = _run(tmp_path, {"B1": too_long, "B2": nested_64, "B3": nested_65, "B4": args_255,
                          "B5": args_256, "B6": "=LOOP+1"}, {"LOOP": "LOOP+1"})  # fmt: skip
    got, reasons = _values(out), _reasons(out)
    assert reasons["B1"] == "the formula is 8,194 characters long: Excel's limit is 8,192"
    assert got["B2"] == 2.0
    assert reasons["B3"] == "more than 64 levels of nested functions: Excel's limit"
    assert got["B4"] == 510.0
    assert reasons["B5"] == "more than 255 arguments to SUM: Excel's limit"
    assert reasons["B6"] == "the name LOOP is defined by itself"
    assert set(reasons) == {"B1", "B3", "B5", "B6"}
    assert not any("internal error" in r for r in reasons.values())


def test_a_lambda_calling_itself_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Recursion through names: computed within the depth limit, #NUM! beyond it (Excel's
    error for too many recursive calls), never a hang or Python's stack; a recursion that
    fans out is stopped at a number of calls and reported."""
    from fide_rating.engine.functions import lambdas

    monkeypatch.setattr(lambdas, "MAX_CALLS", 10_000)
    deep = lambdas.MAX_DEPTH - 1
    names = {
        "DOWN": "LAMBDA(n, IF(n=0, 0, n+DOWN(n-1)))",
        "LOOP": "LAMBDA(n, LOOP(n+1))",
        "PING": "LAMBDA(n, IF(n=0, 0, PONG(n-1)))",
        "PONG": "LAMBDA(n, IF(n=0, 1, PING(n-1)))",
        "FIB": "LAMBDA(n, IF(n<2, n, FIB(n-1)+FIB(n-2)))",
    }
    out = _run(tmp_path, {"B1": f"=DOWN({deep})", "B2": f"=DOWN({deep + 1})", "B3": "=LOOP(1)",
                          "B4": "=PING(5)", "B5": "=PING(4)", "B6": "=FIB(15)",
                          "B7": "=FIB(30)", "B8": "=B7+1"}, names)  # fmt: skip
    got, reasons = _values(out), _reasons(out)
    assert got["B1"] == deep * (deep + 1) / 2  # the deepest recursion followed
    assert got["B2"] == XlError("#NUM!")  # one call deeper
    assert got["B3"] == XlError("#NUM!")  # never ending
    assert (got["B4"], got["B5"]) == (1.0, 0.0)  # two names calling each other
    assert got["B6"] == 610.0  # 1,973 calls
    assert reasons["B7"] == "more than 10,000 LAMBDA calls in one formula"  # 2,692,537 calls
    assert reasons["B8"].startswith("depends on S!B7")
    assert set(reasons) == {"B7", "B8"}


def _sheet(rows: int, formula: bytes) -> bytes:
    """A worksheet part of ``rows`` rows each with a formula in A and B: repetitive, so it packs
    to almost nothing."""
    row = b'<row r="%d"><c r="A%d"><f>' + formula + b'</f></c><c r="B%d"><f>' + formula
    row += b"</f></c></row>"
    body = b"".join(row % (r, r, r) for r in range(1, rows + 1))
    return b"<worksheet><sheetData>" + body + b"</sheetData></worksheet>"


def _many_sheets(path: Path, sheets: int, rows: int) -> Path:
    """A package of ``sheets`` worksheet parts that share one content (written once, packed
    each time: the test stays small in memory)."""
    content = _sheet(rows, b"1+1")
    listed = "".join(f'<sheet name="S{i}" sheetId="{i + 1}" r:id="r{i}"/>' for i in range(sheets))
    rels = "".join(
        f'<Relationship Id="r{i}" Type="worksheet" Target="worksheets/sheet{i}.xml"/>'
        for i in range(sheets)
    )
    ns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("xl/workbook.xml", f"<workbook {ns}><sheets>{listed}</sheets></workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", f"<Relationships>{rels}</Relationships>")
        for i in range(sheets):
            z.writestr(f"xl/worksheets/sheet{i}.xml", content)
    return path


def test_a_package_of_many_parts_each_small_is_bounded_in_total(tmp_path: Path) -> None:
    """480 sheets of 4,200 formulas each: every part passes the per-part checks, the whole
    (2 million formulas) is refused before anything is read."""
    path = _many_sheets(tmp_path / "wide.xlsx", 480, 2_100)
    with pytest.raises(WorkbookError) as refused:
        evaluate(path.read_bytes(), path)
    assert str(refused.value) == (
        "refused: 2,016,000 formulas in 480 sheets, more than the limit of 2,000,000 for one "
        "workbook"
    )


def test_the_totals_are_limits_on_both_sides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:  # fmt: skip
    path = _many_sheets(tmp_path / "small.xlsx", 3, 5)  # 30 formulas, 30 cells
    monkeypatch.setattr(archive, "MAX_FORMULAS", 30)
    monkeypatch.setattr(archive, "MAX_CELLS", 30)
    outcome = evaluate(path.read_bytes(), path)[0]
    assert (outcome.formulas, outcome.computed) == (30, 30)
    monkeypatch.setattr(archive, "MAX_FORMULAS", 29)
    with pytest.raises(WorkbookError, match="30 formulas in 3 sheets, more than the limit of 29"):
        evaluate(path.read_bytes(), path)
    monkeypatch.setattr(archive, "MAX_FORMULAS", 30)
    monkeypatch.setattr(archive, "MAX_CELLS", 29)
    with pytest.raises(WorkbookError, match="30 cells in 3 sheets, more than the limit of 29"):
        evaluate(path.read_bytes(), path)


def test_a_package_packed_far_beyond_the_usual_ratio_is_refused(tmp_path: Path) -> None:
    """Parts each under 1 MiB (no per-part ratio check) that together unpack to 40 MiB from
    almost nothing."""
    path = tmp_path / "ratio.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
        for i in range(40):
            z.writestr(f"xl/media/{i}.bin", bytes((1 << 20) - 1))
    with pytest.raises(WorkbookError, match=r"times its packed size, more than the limit of 200"):
        evaluate(path.read_bytes(), path)
