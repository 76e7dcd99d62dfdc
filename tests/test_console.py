"""The console as users meet it: a closed pipe (``| head``) never costs a file, and a name with
a control character cannot print a line of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fide_rating.commands.cli import main
from fide_rating.commands.console import CLOSED_OUTPUT, shown

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "karl-mala-gedenkturnier-2005.xlsx"
TRF = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"
CLI = f"{sys.executable} -m fide_rating.commands.cli"


def _piped(command: str, cwd: Path, unbuffered: bool = False) -> tuple[int, int, str]:
    """``command | head -2`` in a real shell: our exit status, head's, and what head printed."""
    env = dict(os.environ, PYTHONUNBUFFERED="1" if unbuffered else "")
    done = subprocess.run(
        ["bash", "-c", f'{command} | head -2; echo "status ${{PIPESTATUS[0]}} ${{PIPESTATUS[1]}}"'],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    *shown_lines, status = done.stdout.splitlines()
    ours, head = (int(x) for x in status.split()[1:])
    assert "Traceback" not in done.stderr, done.stderr
    return ours, head, "\n".join(shown_lines)


def test_recalc_csv_is_written_when_the_output_is_cut(tmp_path: Path) -> None:
    # three workbooks: a table longer than a pipe holds (64 KiB), so that the cut is certain
    for name in ("a", "b", "c"):
        shutil.copy(EXAMPLE, tmp_path / f"{name}.xlsx")
    ours, head, shown_lines = _piped(
        f"{CLI} recalc a.xlsx b.xlsx c.xlsx -o out --csv players.csv", tmp_path
    )
    assert (head, len(shown_lines.splitlines())) == (0, 2)
    assert ours == CLOSED_OUTPUT == 141
    rows = (tmp_path / "players.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 3 * 284 and rows[0].startswith("File,No,Name")
    assert (tmp_path / "out" / "c.xlsx").stat().st_size > 100_000


def test_report_csv_is_written_when_the_output_is_cut(tmp_path: Path) -> None:
    ours, _, _ = _piped(f"{CLI} report {TRF} --csv report.csv", tmp_path)
    # a report that fits in the pipe is written whole before head leaves: then 0, as any tool
    assert ours in (0, CLOSED_OUTPUT)
    assert len((tmp_path / "report.csv").read_text(encoding="utf-8").splitlines()) == 285


def test_a_batch_goes_on_when_the_output_is_closed(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        shutil.copy(EXAMPLE, tmp_path / f"{name}.xlsx")
    ours, _, shown_lines = _piped(
        f"{CLI} recalc a.xlsx b.xlsx c.xlsx -o out -q", tmp_path, unbuffered=True
    )
    assert ours == CLOSED_OUTPUT and shown_lines.startswith("ok     a.xlsx")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.xlsx", "b.xlsx", "c.xlsx"]


def test_an_output_read_to_its_end_is_status_0(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", f"{CLI} report {TRF} | cat > /dev/null; echo ${{PIPESTATUS[0]}}"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "0"


def test_a_name_with_a_newline_prints_no_line_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sly = tmp_path / "x.xlsx\nok     fake.xlsx -> fake.xlsx: 1 of 1 formulas computed"
    sly.mkdir()
    book = sly / "event.xlsx"
    shutil.copy(EXAMPLE, book)
    assert main(["recalc", str(book), "-q", "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    oks = [line for line in out.splitlines() if line.startswith("ok")]
    assert len(oks) == 1
    assert oks[0].startswith(f"ok     {shown(book)} -> {tmp_path / 'out' / 'event.xlsx'}: ")
    assert "x.xlsx\\nok     fake.xlsx" in out
    assert main(["report", str(sly / "missing.trf")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "\\nok" in err


@pytest.mark.parametrize(
    ("name", "seen"),
    [
        ("plain name.xlsx", "plain name.xlsx"),
        ("a\nb", "'a\\nb'"),
        ("tab\there", "'tab\\there'"),
        ("it's\r", "'it\\'s\\r'"),
        ("esc\x1b[2J", "'esc\\x1b[2J'"),
    ],
)
def test_shown(name: str, seen: str) -> None:
    assert shown(name) == seen


def test_messages_say_what_went_wrong_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No exception's name or [Errno 2] reaches the user."""
    import datetime as dt

    from fide_rating.formats.list_template import build_list

    book = tmp_path / "list.xlsx"
    wb = build_list()
    wb["Period"]["B1"], wb["Period"]["B2"] = dt.date(2025, 1, 1), dt.date(2025, 2, 1)
    wb.save(book)
    assert main(["period", str(book), str(tmp_path / "*.trf"), "-o", str(tmp_path / "n.xlsx")]) == 1
    err = capsys.readouterr().err
    assert "*.trf: No such file or directory" in err and "Errno" not in err
    old = tmp_path / "old.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0 an old binary workbook")
    for command in (["export-trf", str(old)], ["check", str(tmp_path / "x.xlsm")]):
        (tmp_path / "x.xlsm").write_text("not a package")
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "Exception" not in err and "BadZipFile" not in err and "Errno" not in err, err
        assert "not an .xls" in err


def test_no_csv_of_a_header_alone_when_every_file_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_text("not a workbook")
    csv = tmp_path / "players.csv"
    assert (
        main(["recalc", str(bad), "-o", str(tmp_path / "out"), "--csv", str(csv)]) == 2
    )  # nothing done
    assert not csv.exists()
    assert "no CSV written" in capsys.readouterr().err


def test_the_conformance_script_runs_with_any_python(tmp_path: Path) -> None:
    """`python tests/conformance.py` with a Python that has not installed the package (the
    README's command, run outside the virtual environment)."""
    done = subprocess.run(
        [sys.executable, "-S", str(ROOT / "tests" / "conformance.py"), "--help"],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "usage: conformance.py" in done.stdout


def test_report_lines_end_without_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    main(["report", str(TRF)])
    out = capsys.readouterr().out.splitlines()
    assert len(out) > 280 and [line for line in out if line.endswith(" ")] == []
