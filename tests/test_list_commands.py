"""FIDE's list in the commands: report, import-trf and fill take players' ratings and K from
it (matched by FIDE ID), say where K came from, and name the players whose rating differs or
who are not on the list."""

from __future__ import annotations

import csv as csvlib
import re
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.formats import layout
from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"


def _entry(fide_id: int, name: str, rating: int | None, k: int | None) -> ListedPlayer:
    return ListedPlayer(fide_id, name, "GER", "M", "GM", "", "", rating, 0, k, None, 0, None,
                        None, 0, None, 1969, "")  # fmt: skip


def fide_list(tmp: Path) -> Path:
    """A list in FIDE's text layout: Vasquez as in the file, Milov with another rating, Kammerer
    with K 40; the file's other players are not on it."""
    entries = [
        _entry(3400042, "Vasquez, Rodrigo", 2558, 10),
        _entry(14101068, "Milov, Leonid", 2490, 10),
        _entry(4692578, "Kammerer, Peter", 2005, 40),
    ]
    path = tmp / "players_list_foa.txt"
    path.write_bytes(("\r\n".join([HEADER, *map(format_line, entries)]) + "\r\n").encode())
    return path


def test_report_with_the_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = fide_list(tmp_path)
    report = tmp_path / "r.csv"
    assert main(["report", str(REAL), "--list", str(listed), "--csv", str(report)]) == 0
    out = capsys.readouterr().out
    assert f"rating list {listed} (standard): 3 of 284 players found by FIDE ID" in out
    assert "rating differs: 2 Milov,Leonid: 2482 in the file, 2490 on the list" in out
    assert "not on the list: 3 Grabarczyk,Bogdan (FIDE ID 1101463)" in out
    assert "K from the list for 3 player(s)" in out
    with report.open(encoding="utf-8") as f:
        rows = {r["No"]: r for r in csvlib.DictReader(f)}
    assert (rows["280"]["K"], rows["280"]["K from"]) == ("40", "list")  # the list's, not 15
    assert rows["3"]["K from"] == "assumed"  # not on the list: 30 games assumed
    assert (rows["2"]["Ro"], rows["2"]["Ro in file"]) == ("2490", "2482")  # the Ro used
    assert main(["report", str(REAL), "--list", str(listed)]) == 0  # the index is reused
    assert (tmp_path / "players_list_foa.txt.fide-rating-index").exists()


def test_import_trf_with_the_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "event.xlsx"
    assert main(["import-trf", str(REAL), "-o", str(book), "--list", str(fide_list(tmp_path))]) == 0
    ws = openpyxl.load_workbook(book)["Players"]
    header: dict[str, int] = {str(c.value): int(c.column or 0) for c in ws[layout.HEADER_ROW]}
    milov = layout.FIRST + 1
    assert ws.cell(milov, header["Ro"]).value == 2490
    assert ws.cell(milov, header["K list"]).value == 10
    assert "rating differs: 2 Milov,Leonid" in capsys.readouterr().out


def test_fill_a_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "rr.xlsx"
    assert main(["template", "rr", "--players", "4", "-o", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    header: dict[str, int] = {str(c.value): int(c.column or 0) for c in ws[layout.HEADER_ROW]}
    for i, fide_id in enumerate([3400042, 14101068, 999]):
        ws.cell(layout.FIRST + i, header["FIDE ID"], fide_id)
    ws.cell(layout.FIRST + 1, header["Ro"], 2482)
    ws.cell(layout.FIRST + 1, header["Name"], "Milov, L.")
    wb.save(book)
    capsys.readouterr()
    assert main(["fill", str(book), "--list", str(fide_list(tmp_path))]) == 1  # 999 missing
    out = capsys.readouterr().out
    assert "not on the list: Players row 7, FIDE ID 999" in out
    assert "changed: Players row 6, Ro: 2482 -> 2490" in out
    assert "2 of 3 players filled from the list" in out
    filled = openpyxl.load_workbook(tmp_path / "rr.filled.xlsx")["Players"]
    assert filled.cell(layout.FIRST, header["Name"]).value == "Vasquez, Rodrigo"
    assert filled.cell(layout.FIRST + 1, header["Name"]).value == "Milov, L."  # kept
    assert (filled.cell(layout.FIRST, header["Ro"]).value,
            filled.cell(layout.FIRST, header["2400"]).value) == (2558, True)  # fmt: skip
    assert filled.cell(layout.FIRST, header["Born"]).value == 1969
    # the original workbook is untouched; a second fill needs --force
    assert openpyxl.load_workbook(book)["Players"].cell(layout.FIRST, header["Ro"]).value is None
    assert main(["fill", str(book), "--list", str(fide_list(tmp_path))]) == 2


def test_a_file_that_is_not_a_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("nothing\n")
    assert main(["report", str(REAL), "--list", str(notes)]) == 2
    assert "expected FIDE's list header" in capsys.readouterr().err
    out = tmp_path / "next.txt"
    period = ["period", str(notes), str(REAL), "-o", str(out), "--date", "2005-01-01",
              "--next", "2005-02-01"]  # fmt: skip
    assert main(period) == 2  # the same for a period: a message, no traceback, nothing written
    assert "notes.txt: expected FIDE's list header" in capsys.readouterr().err
    assert not out.exists()


def test_recalc_a_template_with_the_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The players' facts come from the list by FIDE ID, written into the workbook as
    constants, and every figure is computed with them; every other part stays as it was."""
    import zipfile

    book = tmp_path / "rr.xlsx"
    assert main(["template", "rr", "--players", "4", "-o", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    header: dict[str, int] = {str(c.value): int(c.column or 0) for c in ws[layout.HEADER_ROW]}
    first = len(layout.COLUMNS) + len(layout.RR_EXTRA) + 2
    for i, fide_id in enumerate([3400042, 14101068, 4692578, 999]):
        ws.cell(layout.FIRST + i, header["FIDE ID"], fide_id)
        ws.cell(layout.FIRST + i, header["Name"], f"Row {i}")
    table: list[list[int | str | None]] = [
        [None, 1, "½", 1],
        [0, None, 1, "½"],
        ["½", 0, None, 1],
        [0, "½", 0, None],
    ]
    for i, line in enumerate(table):
        for j, value in enumerate(line):
            if value is not None:
                ws.cell(layout.FIRST + i, first + j, value)
    wb["Event"]["B5"] = __import__("datetime").date(2025, 5, 1)
    wb.save(book)
    capsys.readouterr()
    out = tmp_path / "done.xlsx"
    assert (
        main(["recalc", str(book), "-o", str(out), "-q", "--list", str(fide_list(tmp_path))]) == 0
    )
    assert "cells from the list" in capsys.readouterr().out
    done = openpyxl.load_workbook(out, data_only=True)["Players"]
    row = {name: done.cell(layout.FIRST + 1, c).value for name, c in header.items()}
    assert (row["Name"], row["Ro"], row["K list"], row["K"]) == ("Row 1", 2490, 10, 10)
    assert row["We"] is not None and row["K*chg"] is not None  # computed with the list's Ro
    kammerer = {name: done.cell(layout.FIRST + 2, c).value for name, c in header.items()}
    assert (kammerer["Ro"], kammerer["K"]) == (2005, 40)
    assert done.cell(layout.FIRST + 3, header["Ro"]).value is None  # 999 is not on the list
    with zipfile.ZipFile(book) as a, zipfile.ZipFile(out) as b:
        assert a.namelist() == b.namelist()
        for name in a.namelist():
            if name == "xl/workbook.xml":  # only its calculation settings (nothing forced)
                calc = re.compile(rb"<calcPr[^>]*>")
                assert calc.sub(b"", a.read(name)) == calc.sub(b"", b.read(name))
                assert calc.search(b.read(name)).group() == b'<calcPr calcId="191029"/>'  # type: ignore[union-attr]
            elif not name.startswith("xl/worksheets/"):  # only the sheets' cells change
                assert a.read(name) == b.read(name), name


def book_list(tmp: Path) -> Path:
    """The same three players in a rating-list workbook (the template's layout), with what
    FIDE's list does not print: Kammerer's 12 rated games (so K 40 without a K column)."""
    import datetime as dt

    from fide_rating.formats.list_template import build_list

    wb = build_list()
    wb["Period"]["B1"], wb["Period"]["B2"] = dt.date(2005, 7, 1), dt.date(2005, 10, 1)
    ws = wb["List"]
    for i, row in enumerate(
        [
            (3400042, "Vasquez, Rodrigo", "CHI", "M", 1969, "GM", 2558, 10, 500, True, True),
            (14101068, "Milov, Leonid", "SUI", "M", 1966, "IM", 2490, 10, 400, True, True),
            (4692578, "Kammerer, Peter", "GER", "M", 1960, "", 2005, None, 12, False, True),
        ],
        start=2,
    ):
        for c, value in enumerate(row, start=1):
            if value is not None:
                ws.cell(i, c, value)
    path = tmp / "federation-list.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize("kind", ["fide", "book", "period"])
def test_every_list_in_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """report, check, fill, import-trf and recalc take every list period takes: FIDE's, a
    rating-list workbook, and the next list period wrote from it."""
    listed = {"fide": fide_list, "book": book_list}.get(kind, book_list)(tmp_path)
    if kind == "period":  # a period with no event: the list carried to the next month
        nxt = tmp_path / "next.xlsx"
        event = tmp_path / "empty.trf"
        event.write_text("012 Nothing\n042 2005/07/02\n")
        assert main(["period", str(listed), "-o", str(nxt), str(_quiet_event(tmp_path))]) == 0
        listed = nxt
    capsys.readouterr()
    assert main(["report", str(REAL), "--list", str(listed)]) == 0
    assert "3 of 284 players found by FIDE ID" in capsys.readouterr().out
    assert main(["check", str(REAL), "--list", str(listed)]) in (0, 1)
    assert "3 of 284 players found by FIDE ID" in capsys.readouterr().out
    book = tmp_path / "event.xlsx"
    assert main(["import-trf", str(REAL), "-o", str(book), "--list", str(listed)]) == 0
    assert main(["fill", str(book), "--list", str(listed), "-o", str(tmp_path / "f.xlsx")]) == 1
    assert "3 of 146 players filled from the list" in capsys.readouterr().out
    assert main(["recalc", str(book), "-q", "-o", str(tmp_path / "r"), "--list", str(listed)]) == 0
    err = capsys.readouterr().err
    assert "expected one .txt or .xml list" not in err and "Traceback" not in err


def _quiet_event(tmp: Path) -> Path:
    """An event of the period between two listed players (Vasquez draws Milov)."""
    path = tmp / "quiet.trf"
    path.write_text(
        "012 Quiet\n042 2005/07/02\n052 2005/07/02\n"
        "001    1 m  g Vasquez,Rodrigo                   2558 CHI     3400042 1969/12/06  0.5"
        "    1     2 w =\n"
        "001    2 m  m Milov,Leonid                      2490 SUI    14101068 1966/02/06  0.5"
        "    2     1 b =\n"
    )
    return path


def test_a_list_of_another_rating_type_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = book_list(tmp_path)
    assert main(["report", str(REAL), "--list", str(listed), "--rating-type", "rapid"]) == 2
    assert "the list holds standard ratings, and rapid ones were asked for" in (
        capsys.readouterr().err
    )


def test_k_does_not_drift_on_the_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Kammerer has 12 rated games: K 25 in the 2005 event (new players until 30 games). The
    workbook knows it; a TRF cannot carry it. Export says so, a report of the TRF says what it
    assumes, and a report of the workbook itself (or of the TRF with the list) keeps K 25."""
    import csv as csvlib

    book = tmp_path / "event.xlsx"
    assert main(["import-trf", str(REAL), "-o", str(book), "--list", str(book_list(tmp_path))]) == 0
    ws = openpyxl.load_workbook(book)["Players"]
    header = {str(c.value): int(c.column or 0) for c in ws[layout.HEADER_ROW]}
    kammerer = layout.FIRST + 279
    assert ws.cell(kammerer, header["Name"]).value == "Kammerer,Peter"
    assert ws.cell(kammerer, header["Games"]).value == 12  # from the list workbook
    capsys.readouterr()
    trf_out = tmp_path / "event.trf"
    assert main(["export-trf", str(book), "-o", str(trf_out)]) == 0
    assert "warning: the K of 3 player(s) (No 1, 2, 280) rests on the workbook's Games" in (
        capsys.readouterr().err
    )

    def k_of_280(*args: str) -> tuple[str, str, str]:
        csv = tmp_path / "r.csv"
        assert main(["report", *args, "--csv", str(csv), "--force"]) == 0
        with csv.open(encoding="utf-8") as f:
            row = next(r for r in csvlib.DictReader(f) if r["No"] == "280")
        return row["K"], row["K from"], capsys.readouterr().out

    k, source, out = k_of_280(str(trf_out))
    assert (k, source) == ("15", "assumed")
    assert "K 10/15 assumed for 146 player(s)" in out and "give --list for the list's K" in out
    assert k_of_280(str(book))[:2] == ("25", "computed")
    assert k_of_280(str(trf_out), "--list", str(book_list(tmp_path)))[:2] == ("25", "computed")
    # and recalc of the workbook itself says 25 too
    done = tmp_path / "done.csv"
    assert main(["recalc", str(book), "-q", "-o", str(tmp_path / "o"), "--csv", str(done)]) == 0
    with done.open(encoding="utf-8") as f:
        assert next(r for r in csvlib.DictReader(f) if r["No"] == "280")["K"] == "25"
