"""Text from a file or a name reaches no terminal raw: control characters (ESC, OSC, BEL) and
the bidirectional controls that show a name backwards are escaped in messages and in the CSV
files we write (which stay inert, OWASP's formula neutralising as it was); Ctrl-C ends a
command with one line and status 130, no traceback, no half-written file."""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from fide_rating.commands.cli import main
from fide_rating.commands.console import csv_text, escaped, say, shown
from test_injection import PAYLOADS, hostile_trf

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "templates" / "drr-10.xlsx"

# every bidirectional control: ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
TERMINAL = "\x1b[2J\x1b]0;owned\x07\x9b31m"  # clear screen, OSC title + BEL, C1 CSI
RAW = [c for c in TERMINAL + BIDI if not c.isprintable()]  # what must never be written as it is


@pytest.mark.parametrize("char", list(BIDI))
def test_each_bidi_control_is_escaped(char: str) -> None:
    name = f"event{char}gsm.xlsx"
    assert shown(name) == f"'event\\u{ord(char):04x}gsm.xlsx'"
    assert escaped(name) == f"event\\u{ord(char):04x}gsm.xlsx"


@pytest.mark.parametrize(
    "kept", ["Ærøskøbing", "Müller, Jürgen", "شطرنج", "שחמט", "Иванов", "a\u200bb", "x\u00a0y"]
)
def test_letters_of_any_script_are_shown_as_they_are(kept: str) -> None:
    """Arabic and Hebrew names show as they are (their direction is the letters' own); only the
    controls are escaped (a zero-width space or a no-break space is no control)."""
    assert shown(kept) == kept and escaped(kept) == kept


def test_a_reversed_file_name_is_shown_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "event\u202egsm.xlsx"
    assert main(["check", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "\u202e" not in err and "event\\u202egsm.xlsx" in err, err


def test_say_escapes_what_was_not_shown(capsys: pytest.CaptureFixture[str]) -> None:
    say(f"name {TERMINAL}{BIDI}")
    say(f"name {TERMINAL}{BIDI}", err=True)
    out, err = capsys.readouterr()
    for text in (out, err):
        assert not any(c in text for c in RAW), repr(text)
        assert "\\x1b[2J" in text and "\\u202e" in text and "\\x07" in text and "\\x9b" in text


def test_csv_carries_no_control_nor_bidi_character() -> None:
    text = csv_text(["Name", "Note"], [[f"Ann{TERMINAL}", f"x{BIDI}y"], ["=1+1", "-9.70"]])
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1] == ["Ann\\x1b[2J\\x1b]0;owned\\x07\\x9b31m", "x" + escaped(BIDI) + "y"]
    assert rows[2] == ["'=1+1", "-9.70"]  # the formula neutralised, the number kept
    assert not any(c in text.replace("\r\n", "") for c in RAW)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_csv_formula_neutralising_is_kept(payload: str) -> None:
    row = list(csv.reader(io.StringIO(csv_text(["x"], [[payload]]), newline="")))[1]
    assert row[0].startswith("'") and escaped(payload) == row[0][1:], row


def test_report_csv_of_hostile_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = [f"Ann{TERMINAL}", "Bob\u202eevil", "=cmd|' /C calc'!A0", "Dan\u2066x\u2069"]
    report = tmp_path / "report.csv"
    main(["report", str(hostile_trf(tmp_path, names)), "--csv", str(report)])
    out, err = capsys.readouterr()
    raw = report.read_text(encoding="utf-8")
    for text in (raw.replace("\r\n", ""), out, err):
        assert not any(c in text for c in RAW), repr(text)
    rows = list(csv.DictReader(io.StringIO(raw, newline="")))
    assert [r["Name"] for r in rows] == [
        "Ann\\x1b[2J\\x1b]0;owned\\x07\\x9b31m",
        "Bob\\u202eevil",
        "'=cmd|' /C calc'!A0",
        "Dan\\u2066x\\u2069",
    ]


# --- Ctrl-C ---------------------------------------------------------------------------------


def test_ctrl_c_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fide_rating.commands import editions

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(editions, "main", interrupted)
    assert main(["editions"]) == 130
    err = capsys.readouterr().err
    assert err.splitlines() == ["fide-rating: interrupted; no file was left half-written"]


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are a POSIX thing")
def test_ctrl_c_in_a_batch_stops_it_cleanly(tmp_path: Path) -> None:
    """A terminal's Ctrl-C interrupts the command and its workers: the command stops with one
    line and status 130 (it hung, now and then, when a worker was interrupted holding a lock),
    every workbook written is whole, no temporary file is left."""
    for i in range(150):
        shutil.copyfile(TEMPLATE, tmp_path / f"e{i:03}.xlsx")
    command = [sys.executable, "-m", "fide_rating.commands.cli", "recalc", str(tmp_path), "-q"]
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("*.recalc.xlsx")) and time.monotonic() < deadline:
        time.sleep(0.02)  # the batch has begun: workers are at work
    os.killpg(run.pid, signal.SIGINT)
    try:
        _, err = run.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        pytest.fail("the command did not stop after Ctrl-C")
    written = sorted(tmp_path.glob("*.recalc.xlsx"))
    assert run.returncode == 130, err
    assert err.decode().splitlines() == ["fide-rating: interrupted; no file was left half-written"]
    assert 0 < len(written) < 150
    for book in written:
        with zipfile.ZipFile(book) as z:
            assert z.testzip() is None
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
