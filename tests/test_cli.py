"""The command line never loses a user's file: no overwrite without --force, never its own
input, clear errors for wrong outputs and options, no traceback for output a console cannot
show, and a --help with a description and examples for every command."""

from __future__ import annotations

import argparse
import os
import stat
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import build_parser, main
from fide_rating.engine import batch

ROOT = Path(__file__).resolve().parent.parent
REAL_TRF = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"


def _fails(argv: list[str], capsys: pytest.CaptureFixture[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err


def test_import_trf_does_not_replace_a_filled_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    trf = tmp_path / "event.trf"
    trf.write_bytes(REAL_TRF.read_bytes())
    filled = tmp_path / "event.xlsx"
    filled.write_bytes(b"the arbiter's work")
    _fails(["import-trf", str(trf)], capsys, "the output exists, add --force to replace it")
    assert filled.read_bytes() == b"the arbiter's work"
    assert main(["import-trf", str(trf), "--force"]) == 0
    assert filled.read_bytes()[:2] == b"PK"


def test_template_does_not_replace_a_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "rr.xlsx"
    target.write_bytes(b"filled")
    _fails(["template", "rr", "--players", "6", "-o", str(target)], capsys, "--force")
    assert target.read_bytes() == b"filled"


def test_period_never_writes_over_its_own_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "list.xlsx"
    listed.write_bytes((ROOT / "templates" / "rating-list.xlsx").read_bytes())
    before = listed.read_bytes()
    _fails(["period", str(listed), str(REAL_TRF), "-o", str(listed), "--force"], capsys,
           "the output is this command's own input")  # fmt: skip
    assert listed.read_bytes() == before


def test_export_trf_does_not_replace_a_trf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "event.trf"
    existing.write_text("012 keep me\n")
    workbook = ROOT / "examples" / "karl-mala-gedenkturnier-2005.xlsx"
    _fails(["export-trf", str(workbook), "-o", str(existing)], capsys, "--force")
    assert existing.read_text() == "012 keep me\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["template", "rr", "-o", "."], "expected a file name for the output, got the folder"),
        (["template", "rr", "-o", "x.ods"], "expected an output file ending in .xlsx"),
        (["template", "swiss", "--players", "20"], "needs its number of rounds: add --rounds"),
        (["template", "rr", "--rounds", "4"], "leave out --rounds, got: 4"),
        (["recalc", str(ROOT / "templates"), "-o", "one.xlsx"], "-o names one workbook"),
    ],
)
def test_wrong_outputs_and_options_are_clear(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    _fails(argv, capsys, message)
    assert list(tmp_path.iterdir()) == []


def test_recalc_o_with_a_workbook_name_writes_that_file(tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    assert main(["recalc", str(ROOT / "templates" / "rr-4.xlsx"), "-o", str(out), "-q"]) == 0
    assert out.is_file()


def test_recalc_twice_over_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The second run neither recalculates the first run's outputs (no .recalc.recalc) nor
    overwrites them without --force; an .ods in the folder is reported, not skipped."""
    for name in ("rr-4.xlsx", "rr-4.ods"):
        (tmp_path / name).write_bytes((ROOT / "templates" / name).read_bytes())
    assert main(["recalc", str(tmp_path), "-q"]) == 1  # the .ods failed, the .xlsx was done
    first = capsys.readouterr()
    assert "FAILED" in first.err and "rr-4.ods" in first.err and "OpenDocument" in first.err
    assert (tmp_path / "rr-4.recalc.xlsx").exists()
    assert main(["recalc", str(tmp_path), "-q"]) == 2  # nothing done: every file failed
    second = capsys.readouterr()
    assert "rr-4.recalc.xlsx exists: add --force" in second.err
    assert not any(p.name.endswith(".recalc.recalc.xlsx") for p in tmp_path.iterdir())
    assert main(["recalc", str(tmp_path / "rr-4.xlsx"), "-q", "--force"]) == 0


def test_recalc_in_place_keeps_mode_and_link(tmp_path: Path) -> None:
    real = tmp_path / "real.xlsx"
    real.write_bytes((ROOT / "templates" / "rr-4.xlsx").read_bytes())
    real.chmod(0o640)
    link = tmp_path / "event.xlsx"
    link.symlink_to(real)
    assert main(["recalc", str(link), "--in-place", "-q"]) == 0
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.xlsx", "real.xlsx"]


def test_a_console_that_cannot_show_a_name(tmp_path: Path) -> None:
    """Cyrillic names on a Latin-1 console: replaced, never a UnicodeEncodeError."""
    trf = tmp_path / "cyrillic.trf"
    text = REAL_TRF.read_text(encoding="latin-1").replace("Vasquez,Rodrigo", "Васкес,Родриго")
    trf.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "fide_rating.commands.cli", "report", str(trf)],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "latin-1"},
        check=False,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode("latin-1")
    assert b"??????,???????" in done.stdout


def test_every_command_has_help_with_a_description_and_an_example() -> None:
    parser = build_parser()
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    commands: dict[str, argparse.ArgumentParser] = found[0].choices
    assert set(commands) >= {"event", "initial", "editions", "template", "recalc", "report",
                             "import-trf", "export-trf", "period", "build-lite", "build-oxt"}  # fmt: skip
    for name, sub in commands.items():
        text = sub.format_help()
        assert sub.description and len(sub.description) > 40, name
        assert f"examples:\n  fide-rating {name}" in text, name
        for action in sub._actions:
            assert action.help, f"{name} {action.dest}: no help"


def test_the_command_line_installs_what_it_needs() -> None:
    """pip install fide-rating (no extra) brings openpyxl and defusedxml: template and
    import-trf need them."""
    import importlib.metadata

    plain = [r for r in importlib.metadata.requires("fide-rating") or [] if "extra ==" not in r]
    assert {r.split(">")[0].split("=")[0] for r in plain} >= {"openpyxl", "defusedxml"}


def test_a_round_robin_offers_what_its_list_takes() -> None:
    from fide_rating.formats import templates as tpl

    ws = tpl.build(tpl.spec_for("rr", 6))["Players"]
    (results,) = [dv for dv in ws.data_validations.dataValidation if "½" in str(dv.formula1)]
    offered = str(results.formula1).strip('"').split(",")
    assert "H" not in offered and "bye" not in str(results.prompt).lower()
    assert str(ws["A2"].value).startswith("1 win") and "bye" not in str(ws["A2"].value)


def test_the_readme_quick_calculations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["event", "2000", "--opponents", "1063,1299,1413,1872,1851,1427,1682",
                 "--results", "1,1,1,0.5,0,1,1", "-k", "20", "--edition", "2022-01"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["Rc", "Ro", "w", "n", "chg", "K", "K*chg"]
    assert out[2].split() == ["1592", "2000", "5.50", "7", "-0.61", "20", "-12.20"]
    # per game: the opponent's rating, then the rating counted (the cap marked)
    assert out[4].split() == ["opponent", "counted", "w", "chg", "K*chg"]
    assert out[5].split() == ["1063", "1600*", "1.00", "0.08", "1.60"]
    assert out[6].split()[:2] == ["1299", "1299"]
    assert main(["initial", "--opponents", "1902,1877,1884,2012,1832",
                 "--results", "0.5,0.5,1,0,1", "--edition", "2024-03"]) == 0  # fmt: skip
    assert capsys.readouterr().out.splitlines()[1:] == [
        "games    5 against rated opponents, 3.0 points",
        "Ra       1872.43 (with 2 fictitious draws against 1800: 4.0 of 7)",  # RULES 4
        "Ru       1922.43",
        "rating   1922",
    ]
    assert main(["initial", "--opponents", "1902,1877", "--results", "0.5,0.5",
                 "--edition", "2014-07"]) == 0  # fmt: skip
    assert capsys.readouterr().out.splitlines()[-1] == (
        "not rated: 2 games against rated opponents, 5 needed"
    )
    assert main(["editions"]) == 0
    editions = capsys.readouterr().out
    assert "  2024-03        in force from 2024-03-01  cap 400  K 40/20/10  FIDE Handbook B.02" \
        in editions  # fmt: skip
    assert "  2024-12 rapid  in force from 2024-12-01  cap 400  K 40/20/10  gap rule 600/2600" \
        in editions  # fmt: skip
    assert "seed" not in editions.lower()
    assert main(["editions", "--rating-type", "blitz", "--notes"]) == 0
    blitz = capsys.readouterr().out
    assert "standard:" not in blitz and "2012-01 blitz" in blitz
    assert "not confirmed / note: the rapid and blitz texts of 2012 to 2021 were not found" in blitz


def _dated(path: Path) -> Path:
    """A workbook of TODAY, NOW and a player's age in whole years from TODAY."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["A3"] = "=TODAY()", "=NOW()", '=DATEDIF(DATE(2008,7,1),TODAY(),"y")'
    wb.save(path)
    return path


def _saved(path: Path) -> list[object]:
    ws = openpyxl.load_workbook(path, data_only=True).active
    assert ws is not None
    return [ws[cell].value for cell in ("A1", "A2", "A3")]


def test_recalc_as_of_a_date_and_a_time(tmp_path: Path) -> None:
    """TODAY and NOW as of the event, not the computer's clock: a junior born on 1 July 2008
    is 17 on 30 June 2026 and 18 a day later."""
    book = _dated(tmp_path / "ages.xlsx")
    assert main(["recalc", str(book), "--as-of", "2026-06-30", "-o", str(tmp_path / "a.xlsx")]) == 0
    assert _saved(tmp_path / "a.xlsx") == [46203, 46203, 17]  # 46203 is 2026-06-30
    argv = ["recalc", str(book), "--as-of", "2026-07-01 18:00", "-o", str(tmp_path / "b.xlsx")]
    assert main(argv) == 0
    assert _saved(tmp_path / "b.xlsx") == [46204, 46204.75, 18]


def test_recalc_as_of_reaches_every_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch computed in worker processes: each workbook as of the date given."""
    monkeypatch.setattr(batch, "workers_for", lambda count: 2)
    books = [_dated(tmp_path / f"e{i}.xlsx") for i in range(4)]
    out = tmp_path / "out"
    assert main(["recalc", *map(str, books), "--as-of", "2026-06-30", "-o", str(out), "-q"]) == 0
    assert [_saved(out / book.name) for book in books] == [[46203, 46203, 17]] * 4


@pytest.mark.parametrize("when", ["30/06/2026", "2026-06-30T14:00+02:00", "1899-12-31", "today"])
def test_recalc_as_of_what_is_not_a_date_is_refused(
    when: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _dated(tmp_path / "ages.xlsx")
    _fails(["recalc", str(book), "--as-of", when, "-q"], capsys, "--as-of expects a date")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ages.xlsx"]  # nothing written


def test_each_worker_draws_its_own_random_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RAND in a batch computed by forked workers: no two workbooks get the same draws (each
    worker's generator is seeded anew, not copied from the command's)."""
    monkeypatch.setattr(batch, "workers_for", lambda count: 2)
    books = []
    for i in range(6):
        wb = openpyxl.Workbook()
        ws = wb.active
        assert ws is not None
        ws["A1"] = "=RAND()"
        wb.save(tmp_path / f"r{i}.xlsx")
        books.append(tmp_path / f"r{i}.xlsx")
    out = tmp_path / "out"
    assert main(["recalc", *map(str, books), "-o", str(out), "-q"]) == 0
    drawn = [openpyxl.load_workbook(out / book.name, data_only=True).active["A1"].value  # type: ignore[index]
             for book in books]  # fmt: skip
    assert len(set(drawn)) == 6, drawn
