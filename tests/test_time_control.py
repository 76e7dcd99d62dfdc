"""Time controls as programs and arbiters write them (TRF record 122, the Event sheet's cell,
FIDE_RATABLE): every notation with one meaning is read, one with two is refused with both
readings, nothing is guessed, and no text of any length holds the program up."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from fide_rating.cells import PREFIX, call
from fide_rating.commands.cli import main
from fide_rating.formats.trf import read as read_trf
from fide_rating.formats.trf_write import as_trf26
from fide_rating.rules.time_control import (
    LONGEST,
    TimeControl,
    TimeControlError,
    _tokens,
    parse_time_control,
)

ROOT = Path(__file__).resolve().parent.parent
REAL_TRF = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"
P = tuple[int | None, int]

# (text, periods (moves or None, minutes), increment from move 1, delay, minutes for 60 moves)
FIDE_90_30 = ([(40, 90), (None, 30)], 30, 0, 150)
NOTATIONS: list[tuple[str, list[P], int, int, int]] = [
    # FIDE Handbook C.02, article 12 (2017): the time controls of FIDE's world events
    ("90'/40+30'/end with incr. 30\"/move, starting from move 1", *FIDE_90_30),
    ("100'/40+50'/20+15'/end with incr. 30\"/move, starting from move 1",
     [(40, 100), (20, 50), (None, 15)], 30, 0, 180),
    ("100’/40+50’/20+15’/end with incr. 30”/move, starting from move 1",
     [(40, 100), (20, 50), (None, 15)], 30, 0, 180),  # as FIDE's page prints the quotes
    # FIDE's news of May 2015, the same controls written with brackets
    ("(90'/40+30')+30''/move", *FIDE_90_30),
    ("(100'/40+50'/20+15')+30''/move", [(40, 100), (20, 50), (None, 15)], 30, 0, 180),
    # FIDE Handbook C.07 (major FIDE events), in words
    ("90 minutes for the first 40 moves followed by 30 minutes for the rest of the game with "
     "an increment of 30 seconds per move starting from move one", *FIDE_90_30),
    # as pairing programs write it, and the same with bare numbers
    ("90'/40+30'+30\"", *FIDE_90_30),
    ("90/40+30+30", *FIDE_90_30),
    ("90'+30\"", [(None, 90)], 30, 0, 120),
    ("3'+2''", [(None, 3)], 2, 0, 5),
    ("90+30", [(None, 90)], 30, 0, 120),
    ("15+10", [(None, 15)], 10, 0, 25),
    # Swar (a pairing program) writes its controls so
    ("105 min/40 moves + 15 min. QPF", [(40, 105), (None, 15)], 0, 0, 120),
    ("60 min with incr. 30\"", [(None, 60)], 30, 0, 90),
    ("10 min. with incr.5\"", [(None, 10)], 5, 0, 15),
    ("90 min/40 moves + 30 min with incr. 30\" starting from 1st move", *FIDE_90_30),
    # real TRF files' record 122
    ("40/120, 60", [(40, 120), (None, 60)], 0, 0, 180),
    ("90 minutes + 30 seconds per move", [(None, 90)], 30, 0, 120),
    ("90 min/40 moves + 30 min + 30 s/move", *FIDE_90_30),
    ("90 min/40 moves + 30 min + 30 sec/move from move 1", *FIDE_90_30),
    ("40/90 + 30'+30\"", *FIDE_90_30),
    ("40/120, 20/60, G/30", [(40, 120), (20, 60), (None, 30)], 0, 0, 180),
    # minutes and moves either way round, with and without units
    ("40/90", [(40, 90)], 0, 0, 90),
    ("90/40", [(40, 90)], 0, 0, 90),
    ("40/90'", [(40, 90)], 0, 0, 90),
    ("90'/40", [(40, 90)], 0, 0, 90),
    ("40 moves/90", [(40, 90)], 0, 0, 90),
    ("90/40 moves", [(40, 90)], 0, 0, 90),
    ("40 moves in 90 minutes, then 30 minutes", [(40, 90), (None, 30)], 0, 0, 120),
    ("2h/40 + 1h", [(40, 120), (None, 60)], 0, 0, 180),
    ("40/2h, 1h", [(40, 120), (None, 60)], 0, 0, 180),
    ("40 moves in 2 hours, 20 moves in 1 hour, then 30 minutes",
     [(40, 120), (20, 60), (None, 30)], 0, 0, 180),
    ("100 minutes/40 moves + 40 minutes/rest with 30 seconds increment",
     [(40, 100), (None, 40)], 30, 0, 170),
    # hours and minutes
    ("2h", [(None, 120)], 0, 0, 120),
    ("120 min", [(None, 120)], 0, 0, 120),
    ("1h30 + 30s", [(None, 90)], 30, 0, 120),
    ("1 h 30 min + 30 sec", [(None, 90)], 30, 0, 120),
    ("1.5h + 30s", [(None, 90)], 30, 0, 120),
    ("90", [(None, 90)], 0, 0, 90),
    # US Chess: G/ and SD/, a delay (d5), increments after each period
    ("G/90;+30", [(None, 90)], 30, 0, 120),
    ("G/90; inc 30", [(None, 90)], 30, 0, 120),
    ("G/60 d5", [(None, 60)], 0, 5, 65),
    ("G/60;d5", [(None, 60)], 0, 5, 65),
    ("G/45 + 5 sec delay", [(None, 45)], 0, 5, 50),
    ("40/90, SD/30;d5", [(40, 90), (None, 30)], 0, 5, 125),
    ("30/90 G/60", [(30, 90), (None, 60)], 0, 0, 150),
    ("40/90 +30 SD/30 +30", *FIDE_90_30),
    ("40/90 SD/30 +30", *FIDE_90_30),
    ("Game in 60 minutes", [(None, 60)], 0, 0, 60),
    ("G/3;d2", [(None, 3)], 0, 2, 5),
    # increments written every way: +30s, +30", /move, per move, a move, increment, bonus
    ("90 min + 30 s increment", [(None, 90)], 30, 0, 120),
    ("90 min + 30 sec. bonus", [(None, 90)], 30, 0, 120),
    ("90 min + 30 s a move", [(None, 90)], 30, 0, 120),
    ("90 + 30/move", [(None, 90)], 30, 0, 120),
    ("90min + 30s/move", [(None, 90)], 30, 0, 120),
    ("90 min 30 s", [(None, 90)], 30, 0, 120),
    ("8 min/player + 3 s/move", [(None, 8)], 3, 0, 11),
    ("90 min per player + 30 s per move", [(None, 90)], 30, 0, 120),
    # B.02 (2005) 1.14's own examples
    ("all the moves in 2 hours", [(None, 120)], 0, 0, 120),
    ("40 moves in 75 minutes, followed by all the moves in 15 minutes + 30 s a move",
     [(40, 75), (None, 15)], 30, 0, 120),
    # other languages, as tournament announcements write them
    ("120 min/40 Zuege + 30 Minuten fuer Rest + 30 sec", [(40, 120), (None, 30)], 30, 0, 180),
    ("90 Minuten/40 Züge + 30 Minuten + 30 Sekunden pro Zug ab dem ersten Zug", *FIDE_90_30),
    ("90 min/40 Z + 30 min Rest + 30 Sek", *FIDE_90_30),
    ("10 Minuten + 3 Sekunden / Zug", [(None, 10)], 3, 0, 13),
    ("3min + 2sek/Zug", [(None, 3)], 2, 0, 5),
    ("1 Std.", [(None, 60)], 0, 0, 60),
    ("40 coups en 90 min + 30 min + 30 s par coup à partir du 1er coup", *FIDE_90_30),
    ("1h30 + 30 s par coup", [(None, 90)], 30, 0, 120),
    ("90 minutos + 30 segundos por jugada desde la primera jugada", [(None, 90)], 30, 0, 120),
    ("90 min + 30 seg por jugada", [(None, 90)], 30, 0, 120),
    ("90 minuti + 30 secondi a mossa", [(None, 90)], 30, 0, 120),
    ("90 minuten + 30 seconden per zet", [(None, 90)], 30, 0, 120),
    ("90 мин + 30 сек на ход", [(None, 90)], 30, 0, 120),
]  # fmt: skip


@pytest.mark.parametrize(("text", "periods", "increment", "delay", "for_60"), NOTATIONS)
def test_each_notation(text: str, periods: list[P], increment: int, delay: int,
                       for_60: int) -> None:  # fmt: skip
    tc = TimeControl.parse(text)
    assert tc.periods == tuple((m, Fraction(x)) for m, x in periods), tc
    assert (tc.increment, tc.delay) == (Fraction(increment), Fraction(delay)), tc
    assert tc.increments == (), tc
    assert tc.minutes_for(60) == for_60
    assert parse_time_control(text) == tc


@pytest.mark.parametrize(
    ("text", "increments", "for_60"),
    [
        # an increment from the move a period begins with: that period on
        ("120/40 + 60/20 + 15 + 30s from move 61", (0, 0, 30), 180),
        ("120/40 + 60 + 30s from move 41", (0, 30), 190),
        ("120/40 + 60 + 30s after move 40", (0, 30), 190),
        # an increment written after a period other than the last: from that period on
        ("40/120 + 20/60 +30s + 15", (0, 30, 30), 190),
    ],
)
def test_increments_from_a_period(text: str, increments: tuple[int, ...], for_60: int) -> None:
    tc = TimeControl.parse(text)
    assert tc.increments == tuple(map(Fraction, increments)) and tc.increment == 0
    assert tc.minutes_for(60) == for_60


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("40/2, SD/1", ["40 moves in 2 hours", "in 2 minutes", "40/2h or 40/2'"]),
        ("40/1", ["40 moves in 1 hour", "in 1 minute"]),
        ("G/1", ["1 hour", "1 minute", "1h or 1'"]),
        ("SD/1", ["1 hour", "1 minute"]),
        ("2+1", ["2 hours", "2 minutes"]),
        ("5400+30", ["5400 minutes (90 hours", "5400 seconds (90 minutes", "write 90'"]),
        ("1,5h", ["the decimal 1.5h", "1 then 5h"]),
        ("40/120,60", ["the decimal 120.60", "120 then 60"]),
        ("120 min/40 moves + 15 min. with incr. 30\" starting from 40th move",
         ["from move 41, where period 2 begins", "from move 40, the last of period 1"]),
    ],
)  # fmt: skip
def test_two_readings_are_named(text: str, readings: list[str]) -> None:
    with pytest.raises(TimeControlError, match="reads two ways") as caught:
        TimeControl.parse(text)
    message = str(caught.value)
    assert all(r in message for r in readings), message
    assert message.endswith(repr(text)[:50] if len(text) <= 60 else "...'")
    assert parse_time_control(text) is None


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "expected a time control such as 90+30"),
        ("rapid", "expected a time control such as 90+30"),
        ("Fischer", "expected a time control such as 90+30"),
        ("G/60 d", "expected the seconds of a delay"),
        ("90 min + 40/120", "expected no period after the rest of the game, got 40/120"),
        ("90 30", "expected + between 90 and 30"),
        ("90 + 30 + 30", "expected one increment"),
        ("30 s + 90 min", "expected a time before the increment 30"),
        ("40 moves", "expected the time for 40 moves"),
        ("nach Vereinbarung", "cannot read 'vereinbarung'"),
        ("90 min + 30 s a move (40/2 h)", "expected no period after the rest"),
        ("40/6000+30:900+30", "cannot read ':'"),
        ("1:30", "cannot read ':'"),
        ("90 min/40 moves + 30 min + 30 s from move 50",
         "expected an increment from a move a period begins with (1, 41), got from move 50"),
        ("900 min", "expected a period of more than 0 and at most 600 minutes, got 900"),
        ("0 min + 30 s", "expected a period of more than 0 and at most 600 minutes, got 0"),
        ("90 + 900", "expected an increment of 0 to 600 seconds, got 900"),
        ("90 min/300 moves", "expected a number of moves from 1 to 200"),
        ("90 min + 30 s/40 moves", "cannot read '/' here"),
        ("1" * 10 + "+30", "got one of 10 digits"),
    ],
)  # fmt: skip
def test_what_cannot_be_read_says_why(text: str, why: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse(text)
    assert why in str(caught.value), str(caught.value)
    assert parse_time_control(text) is None


def test_the_longest_text_read_and_one_more() -> None:
    words = "90 minutes for the first 40 moves followed by 30 minutes for the rest of the game"
    fits = words + " " * (LONGEST - len(words))
    assert TimeControl.parse(fits).minutes_for(60) == 120
    with pytest.raises(TimeControlError, match=f"at most {LONGEST} characters, got 201"):
        TimeControl.parse(fits + " ")


def test_a_delay_is_never_encoded_as_an_increment(tmp_path: Path) -> None:
    """Record 222 has no delay: a 122 with one gets no 222 rather than a wrong one."""
    t, _ = as_trf26(read_trf(_trf_with(tmp_path, "G/60 d5")))
    assert t.header("222") is None
    t, done = as_trf26(read_trf(_trf_with(tmp_path, "90'/40+30'+30\"")))
    assert t.header("222") == "40/5400+30:1800+30", done


# --- no input holds the program up --------------------------------------------------------------

SLOW = "1h" + " " * 32_000 + "x"  # froze a spreadsheet and hung check: quadratic backtracking


def test_a_long_text_in_a_cell_answers_at_once() -> None:
    out = call("FIDE_RATABLE", SLOW, None, None, 2450.0, "2024-03")
    assert out == (
        f"{PREFIX} minutes: expected a time control of at most 200 characters, got 32,003: "
        "'1h" + " " * 55 + "...'"
    )
    assert str(call("FIDE_RATABLE", "9" * 5000, None, None, 2450.0)).startswith(
        f"{PREFIX} minutes: expected the minutes"
    )


def test_the_scan_is_linear_in_the_text() -> None:
    """The tokenizer itself, without the length limit, on texts far longer than any: each
    returns (a scan quadratic in the text would take hours on the longest)."""
    script = (
        "from fide_rating.rules.time_control import TimeControlError, _tokens\n"
        "for text in ('1h' + ' ' * 2_000_000 + 'x', '9' * 9 + '+' * 1_000_000 + 'x',\n"
        "             '90' + \"'\" * 1_000_000 + 'x', 'min ' * 500_000 + 'x'):\n"
        "    try:\n"
        "        _tokens(text, text[:10])\n"
        "    except TimeControlError as error:\n"
        "        print(str(error)[:40])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    lines = done.stdout.splitlines()
    assert len(lines) == 4 and all(x.startswith("cannot read 'x' in a time control") for x in lines)


def test_tokens_of_a_notation() -> None:
    kinds = [t.kind for t in _tokens("90'/40+30'+30\"/move", "x")]
    assert kinds == ["number", "minute", "slash", "number", "separator", "number", "minute",
                     "separator", "number", "second", "slash", "move"]  # fmt: skip


def _trf_with(tmp: Path, record_122: str, name: str = "event.trf") -> Path:
    text = REAL_TRF.read_bytes().decode("latin-1").replace("122 40/120, 60", f"122 {record_122}")
    path = tmp / name
    path.write_bytes(text.encode("latin-1"))
    return path


def test_check_reads_what_pairing_programs_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """90/40+30+30 was read as 70 minutes for 60 moves and the event failed 1.1 (2005-07,
    the tournament's highest rating 2558: 120 minutes needed)."""
    for written in ("90/40+30+30", "90'/40+30'+30\""):
        main(["check", str(_trf_with(tmp_path, written))])
        out = capsys.readouterr().out
        assert "holds        1.1   time control record 122" in out, out
        assert "150 min for 60 moves, 120 needed" in out


def test_check_names_both_readings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(_trf_with(tmp_path, "40/2, SD/1"))])
    out = capsys.readouterr().out
    assert (
        "cannot tell  1.1   time control: cannot read record 122 '40/2, SD/1' ('40/2' reads " in out
    )
    assert "40 moves in 2 hours (as US Chess writes hours) or in 2 minutes" in out, out


def test_check_of_a_long_or_huge_record_122_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for record in (SLOW, "9" * 5000):
        assert main(["check", str(_trf_with(tmp_path, record))]) in (0, 1)
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        assert f"at most 200 characters, got {len(record):,})" in out, out


def test_check_of_a_huge_record_222_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _trf_with(tmp_path, "40/120, 60\n222 " + "9" * 5000)
    assert main(["check", str(path)]) in (0, 1)
    out, err = capsys.readouterr()
    assert "record 222 (time control (encoded)): expected a period such as 40/6000+30, got a " \
           "number of 5000 digits" in err  # fmt: skip
    assert "Traceback" not in err and len(max(out.splitlines(), key=len)) < 300


@pytest.mark.parametrize(
    ("written", "ratable"),
    [
        ("90'/40+30'+30\"", True),
        ("90/40+30+30", True),
        ("40/2, SD/1", f"{PREFIX} minutes: '40/2' reads two ways"),
    ],
)
def test_the_event_sheet_reads_it(tmp_path: Path, written: str, ratable: object) -> None:
    """Through the workbook: import-trf puts record 122 in the Event sheet, recalc computes
    its Ratable? cell (FIDE_RATABLE)."""
    book, out = tmp_path / "event.xlsx", tmp_path / "out.xlsx"
    assert main(["import-trf", str(_trf_with(tmp_path, written)), "-o", str(book)]) == 0
    assert main(["recalc", str(book), "-o", str(out), "-q"]) == 0
    ws = openpyxl.load_workbook(out, data_only=True)["Event"]
    assert ws["A12"].value == "Time control" and ws["B12"].value == written
    value = ws["B13"].value
    if ratable is True:
        assert value in (True, 1), value
    else:
        assert isinstance(value, str) and value.startswith(str(ratable)), value


def test_the_readme_table_is_what_is_read() -> None:
    """Every notation in the README's table reads as its last column says."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("### Time controls as they are written", 1)[1].split("\n* ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) >= 10
    checked = 0
    for row in rows:
        written, _, minutes = row.strip("|").split(" | ")
        notations = re.findall(r"`([^`]+)`", written)
        figures = [int(x) for x in re.findall(r"\d+", minutes)]
        if len(figures) == 1:
            figures *= len(notations)
        for notation, figure in zip(notations, figures, strict=True):
            assert TimeControl.parse(notation).minutes_for(60) == figure, notation
            checked += 1
    assert checked >= 25
