"""Text from a file is data: never a formula in a workbook we write, never a live formula in a
CSV that Excel opens (OWASP "CSV injection"), one test per entry point with the payloads an
attacker would put in a TRF or a rating list."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.commands.console import csv_text, inert
from fide_rating.formats import layout
from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line

PAYLOADS = [
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://x","click")',
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]


def _record(no: int, name: str, rating: int, fide_id: str, rounds: str, points: str) -> str:
    return (
        f"001 {no:>4} m    {name[:33]:<33} {rating:>4} GER {fide_id:>11} 1990/01/01 "
        f"{points:>4} {no:>4}{rounds}"
    )


def hostile_trf(tmp: Path, names: list[str]) -> Path:
    """A four-player round robin whose players are named by an attacker (a tab or CR in a
    name is the TRF's problem to report; the name is still read)."""
    games = {
        1: "     2 w 1     3 b 1     4 w 1",
        2: "     1 b 0     4 b 1     3 w 1",
        3: "     4 w 1     1 w 0     2 b 0",
        4: "     3 b 0     2 w 0     1 b 0",
    }
    points = {1: "3.0", 2: "2.0", 3: "1.0", 4: "0.0"}
    lines = ["012 Hostile names", "042 2025/11/10", "052 2025/11/12", "122 90+30"]
    for no in range(1, 5):
        lines.append(_record(no, names[no - 1], 2100 - 100 * no, str(1000 + no), games[no],
                             points[no]))  # fmt: skip
    path = tmp / "hostile.trf"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return path


def _formulas(book: Path) -> list[str]:
    """Every formula text in every sheet of the package."""
    with zipfile.ZipFile(book) as z:
        return [
            f
            for name in z.namelist()
            if name.startswith("xl/worksheets/")
            for f in re.findall(r"<f[^>]*>([^<]*)</f>", z.read(name).decode())
        ]


@pytest.mark.parametrize("names", [PAYLOADS[:4], PAYLOADS[2:6]])
def test_import_trf_writes_names_as_text(
    tmp_path: Path, names: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "event.xlsx"
    main(["import-trf", str(hostile_trf(tmp_path, names)), "-o", str(book)])
    assert not [f for f in _formulas(book) if "cmd" in f or "HYPERLINK" in f or "1+1" in f]
    ws = openpyxl.load_workbook(book)["Players"]
    header = {str(c.value): int(c.column or 0) for c in ws[layout.HEADER_ROW]}
    got = [ws.cell(layout.FIRST + i, header["Name"]) for i in range(4)]
    assert [c.data_type for c in got] == ["s"] * 4
    assert [c.value for c in got] == [n.strip() for n in names]  # the TRF's name, as text
    # and the workbook still computes every player's figures
    capsys.readouterr()
    out = tmp_path / "out.xlsx"
    assert main(["recalc", str(book), "-o", str(out), "--csv", str(tmp_path / "p.csv")]) == 0
    with (tmp_path / "p.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["n"] for r in rows] == ["3", "3", "3", "3"]
    assert all(r["K"] and r["We"] and r["K*chg"] for r in rows)


def test_fill_writes_list_names_as_text(tmp_path: Path) -> None:
    entries = [
        ListedPlayer(1001, PAYLOADS[0], "GER", "M", "", "", "", 2000, 0, 20, None, 0, None,
                     None, 0, None, 1990, ""),
        ListedPlayer(1002, PAYLOADS[1], "GER", "M", "", "", "", 1900, 0, 20, None, 0, None,
                     None, 0, None, 1990, ""),
    ]  # fmt: skip
    listed = tmp_path / "players_list_foa.txt"
    listed.write_bytes(("\r\n".join([HEADER, *map(format_line, entries)]) + "\r\n").encode())
    book = tmp_path / "rr.xlsx"
    assert main(["template", "rr", "--players", "4", "-o", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    header = {str(c.value): int(c.column or 0) for c in ws[layout.HEADER_ROW]}
    ws.cell(layout.FIRST, header["FIDE ID"], 1001)
    ws.cell(layout.FIRST + 1, header["FIDE ID"], 1002)
    wb.save(book)
    filled = tmp_path / "filled.xlsx"
    assert main(["fill", str(book), "--list", str(listed), "-o", str(filled)]) == 0
    assert not [f for f in _formulas(filled) if "cmd" in f or "HYPERLINK" in f]
    ws = openpyxl.load_workbook(filled)["Players"]
    names = [ws.cell(layout.FIRST + i, header["Name"]) for i in range(2)]
    assert [(c.value, c.data_type) for c in names] == [(PAYLOADS[0], "s"), (PAYLOADS[1], "s")]


def test_report_csv_makes_names_inert(tmp_path: Path) -> None:
    report = tmp_path / "report.csv"
    main(["report", str(hostile_trf(tmp_path, PAYLOADS[:4])), "--csv", str(report)])
    with report.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["Name"] for r in rows] == ["'" + n for n in PAYLOADS[:4]]
    assert rows[3]["K*chg"].startswith("-") and float(rows[3]["K*chg"]) < 0  # a number stays one


def test_recalc_csv_makes_names_inert(tmp_path: Path) -> None:
    book = tmp_path / "event.xlsx"
    main(["import-trf", str(hostile_trf(tmp_path, PAYLOADS[2:6])), "-o", str(book)])
    players = tmp_path / "players.csv"
    assert main(["recalc", str(book), "-o", str(tmp_path / "out"), "--csv", str(players)]) == 0
    text = players.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [r["Name"] for r in rows] == ["'" + n.strip() for n in PAYLOADS[2:6]]
    for r in rows:
        for value in r.values():
            assert not value.startswith(("=", "@", "+", "\t", "\r")), value


@pytest.mark.parametrize(
    ("given", "written"),
    [
        ("=1+1", "'=1+1"),
        ("@A1", "'@A1"),
        ("+A1", "'+A1"),
        ("-A1", "'-A1"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("\uff1d1+1", "'\uff1d1+1"),  # a full-width equals sign
        ("-9.70", "-9.70"),
        ("+15.00", "+15.00"),
        ("-", "'-"),
        ("Vasquez, Rodrigo", "Vasquez, Rodrigo"),
        ("", ""),
    ],
)
def test_inert(given: str, written: str) -> None:
    assert inert(given) == written


def test_csv_text_makes_the_header_inert_too() -> None:
    assert csv_text(["=A"], [["=B", 1, None]]).splitlines() == ["'=A", "'=B,1,"]


def test_files_larger_than_any_real_one_are_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 600 MiB 'workbook' and a 70 MiB 'TRF' (sparse files: no disk used) are refused by
    their size, before a byte is read into memory."""
    book = tmp_path / "huge.xlsx"
    with book.open("wb") as f:
        f.truncate(600 << 20)
    assert main(["recalc", str(book), "-o", str(tmp_path / "out")]) == 2  # nothing done
    err = capsys.readouterr().err
    assert "refused: the file holds 600 MiB, more than a workbook's parts may hold unpacked" in err
    trf = tmp_path / "huge.trf"
    with trf.open("wb") as f:
        f.truncate(70 << 20)
    assert main(["report", str(trf)]) == 2
    assert "a TRF of 70 MiB is larger than any tournament's report (at most 64 MiB)" in (
        capsys.readouterr().err
    )
