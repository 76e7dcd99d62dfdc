"""The command line as a person uses it: one convention for the exit status, dates as arbiters
write them, an output name that is not what the command writes, the command that was meant,
a K the edition has no place for, and every command's help saying what it needs."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from fide_rating.commands.cli import build_parser, main
from fide_rating.commands.console import date_arg

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"
TEMPLATE = ROOT / "templates" / "rr-4.xlsx"


def test_a_missing_file_is_exit_status_2_in_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nothing.xlsx")
    for args in (["report", missing], ["check", missing], ["export-trf", missing],
                 ["recalc", missing], ["fill", missing, "--list", missing],
                 ["import-trf", str(tmp_path / "nothing.trf")]):  # fmt: skip
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert "No such file or directory" in err or "not a file" in err, (args, err)
    good = tmp_path / "rr-4.xlsx"
    good.write_bytes(TEMPLATE.read_bytes())
    assert main(["recalc", str(good), missing, "-q"]) == 1  # one done, one failed
    assert (tmp_path / "rr-4.recalc.xlsx").exists()


@pytest.mark.parametrize(("text", "day"), [
    ("2025-10-01", "2025-10-01"), ("2025/10/01", "2025-10-01"), ("01.10.2025", "2025-10-01"),
    ("1.10.2025", "2025-10-01"), ("13/01/2025", "2025-01-13"), ("October 1, 2025", "2025-10-01"),
])  # fmt: skip
def test_dates_as_arbiters_write_them(text: str, day: str) -> None:
    assert date_arg(text).isoformat() == day


@pytest.mark.parametrize(("text", "message"), [
    ("10/01/2025", "it could be 2025-01-10 (DD/MM/YYYY) or 2025-10-01 (MM/DD/YYYY)"),
    ("01.10.25", "it could be"),
    ("tomorrow", "expected a date such as 2025-10-01 or 01.10.2025, got 'tomorrow'"),
])  # fmt: skip
def test_a_date_with_two_readings_is_refused_with_both(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message.replace("(", r"\(")
                       .replace(")", r"\)")):  # fmt: skip
        date_arg(text)


def test_a_day_first_date_through_the_commands(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert main(["report", str(REAL), "--start", "28.07.2005"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["report", str(REAL), "--start", "07/08/2005"])
    assert stop.value.code == 2
    assert "it could be 2005-08-07 (DD/MM/YYYY) or 2005-07-08 (MM/DD/YYYY)" in (
        capsys.readouterr().err)  # fmt: skip
    assert main(["report", str(REAL), "--edition", "28.07.2005"]) == 0


def test_recalc_to_a_csv_name_is_refused_and_makes_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "us.xlsx"
    book.write_bytes(TEMPLATE.read_bytes())
    assert main(["recalc", str(book), "-o", str(tmp_path / "out.csv")]) == 2
    assert "the players' figures go to a CSV file with --csv" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()


def test_the_command_that_was_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trf = tmp_path / "event.trf"
    trf.write_bytes(REAL.read_bytes())
    assert main(["export-trf", str(trf)]) == 2
    assert "import-trf makes a workbook of a TRF" in capsys.readouterr().err
    book = tmp_path / "event.xlsx"
    book.write_bytes(TEMPLATE.read_bytes())
    assert main(["import-trf", str(book), "-o", str(tmp_path / "x.xlsx")]) == 2
    assert "export-trf writes a workbook's TRF" in capsys.readouterr().err


def test_a_k_the_edition_has_no_place_for(capsys: pytest.CaptureFixture[str]) -> None:
    game = ["2000", "--opponents", "1900,2100", "--results", "1,0"]
    assert main(["event", *game, "-k", "20", "--edition", "2025-10"]) == 0
    assert "K 20" not in capsys.readouterr().err
    assert main(["event", *game, "-k", "22", "--edition", "2009-07"]) == 1
    assert "warning: K 22 is no K of edition 2009-07 (25, 15, 10)" in capsys.readouterr().err
    assert main(["event", *game, "-k", "25", "--edition", "2025-10"]) == 0  # K x n gives it
    assert ("K x n <= 700 gives it to a player with K 40 and 27 to 28 games in the period"
            in capsys.readouterr().err)  # fmt: skip


def test_every_commands_help_says_what_it_needs() -> None:
    parser = build_parser()
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {name: " ".join(sub.format_help().split()) for name, sub in found[0].choices.items()}
    for name, text in helps.items():
        assert "exit status: 0 done; 1 done, with problems" in text, name
    assert "TRF-16 or TRF-2026" in helps["report"]
    assert "record 222" in helps["check"] and "B12" in helps["check"]
    assert "needed for a Swiss" in helps["template"] and "default: the template's name" in (
        helps["template"])  # fmt: skip
    assert "a round robin 3 to 30, a Swiss 2 to 500" in helps["template"]
    assert "any other name is a folder" in helps["recalc"] and "one CSV file" in helps["recalc"]
    assert helps["period"].count("needed with FIDE's list") == 2


def test_export_trf_says_when_it_cannot_encode_the_time_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A time control record 222 cannot be made from is said, never left out without a word;
    one that can is added."""
    import openpyxl

    book = tmp_path / "rr.xlsx"
    book.write_bytes(TEMPLATE.read_bytes())
    wb = openpyxl.load_workbook(book)
    wb["Event"]["B12"] = "90 minutes and a cup of tea"
    players = wb["Players"]
    for row, name in ((5, "A, B"), (6, "C, D"), (7, "E, F"), (8, "G, H")):
        players.cell(row, 3, name)
    wb.save(book)
    assert main(["export-trf", str(book), "-o", str(tmp_path / "a.trf")]) == 0
    err = capsys.readouterr().err
    assert "warning: record 222 not added: record 122 '90 minutes and a cup of tea' cannot be " \
           "read" in err  # fmt: skip
    wb["Event"]["B12"] = "90'/40+30'+30\""
    wb.save(book)
    assert main(["export-trf", str(book), "-o", str(tmp_path / "b.trf")]) == 0
    assert "222 not added" not in capsys.readouterr().err
    assert "222 40/5400+30:1800+30" in (tmp_path / "b.trf").read_text()
