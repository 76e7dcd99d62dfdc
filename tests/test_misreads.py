"""Input as users type it: one slip of the keyboard in a real 12-player round robin never gives a
figure printed as right that is wrong, nor a wrong verdict. A line whose fields do not sit in
their columns, a typo in an opponent, two players with one FIDE ID, a birth date after the event,
an end before the start, a points scale declared the older ways: each a named problem, through
the commands and through the workbook."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from fide_rating.commands.cli import main
from fide_rating.formats import trf
from fide_rating.rules.berger import schedule

NAMES = ["Aa, Top", "Bb, Second", "Cc, Third", "Dd, Fourth", "Ee, Fifth", "Ff, Sixth",
         "Gg, Seventh", "Hh, Eighth", "Ii, Ninth", "Jj, Tenth", "Kk, Eleventh", "Ll, Twelfth"]  # fmt: skip
RATINGS = [2710, 2450, 2300, 2200, 2150, 2050, 1950, 1900, 1850, 1800, 1700, 1650]


def round_robin(folder: Path, name: str = "event.trf", win: str = "1", draw: str = "=",
                points_of: dict[str, float] | None = None, extra: tuple[str, ...] = (),
                born: dict[int, str] | None = None, end: str = "2024/05/05") -> Path:  # fmt: skip
    """A 12-player round robin of 2024-05-03 (TRF-16, every field in its columns)."""
    rnd = random.Random(5)
    result: dict[tuple[int, int], str] = {}
    for a in range(1, 13):
        for b in range(a + 1, 13):
            x = rnd.choice(["1", "=", "0"])
            result[(a, b)], result[(b, a)] = x, {"1": "0", "0": "1", "=": "="}[x]
    lines = ["012 Slips Open", "042 2024/05/03", f"052 {end}", "122 90/40+30+30", *extra]
    worth = points_of or {"1": 1, "=": 0.5, "0": 0}
    for n, (who, rating) in enumerate(zip(NAMES, RATINGS, strict=True), start=1):
        rounds = tuple(trf.Round(o, c, result[(n, o)]) for o, c in schedule(12, 1)[n] if o)
        points = sum(worth[r.result] for r in rounds)
        line = trf.format_player(trf.Player(
            n, "m", "", who, rating, "GER", str(4000 + n), (born or {}).get(n, "1990/01/01"),
            None, n, rounds))  # fmt: skip
        line = line[:80] + f"{points:4.1f}" + line[84:]
        lines.append(line.replace(" 1 ", f" {win} ").replace(" = ", f" {draw} ") if win != "1"
                     else line)  # fmt: skip
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return path


def _edit(path: Path, number: int, change: str, at: int | None = None, new: str = "") -> Path:
    """Player ``number``'s line with ``change``: "blank" inserts a blank in the name;
    "replace" puts ``new`` at column ``at`` (1-based)."""
    lines = path.read_text().splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith(f"001 {number:>4}"))
    line = lines[i]
    if change == "blank":
        line = line[:20] + " " + line[20:]
    else:
        assert at is not None
        line = line[: at - 1] + new + line[at - 1 + len(new) :]
    lines[i] = line
    out = path.with_name(f"{path.stem}-{change}{number}.trf")
    out.write_text("\n".join(lines) + "\n")
    return out


def _rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as f:
        return {r["No"]: r for r in csv.DictReader(f)}


def test_a_shifted_line_is_that_players_problem(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """An extra blank in player 5's name moves every later field one column: his rating would
    read 215 (of 2150) and his FIDE ID 400; no row is computed against it, his row shows the
    misread values as misread, check cannot tell, import-trf writes nothing."""
    clean = round_robin(tmp_path)
    shifted = _edit(clean, 5, "blank")
    t = trf.read(shifted)
    assert t.players[5].misread.startswith("line 9 does not sit in its columns")
    assert [str(e) for e in t.errors] == [
        "line 9: player 5 (Ee, Fi fth): the line does not sit in its columns: the fields after "
        "the name sit 1 column to the right of their places (an extra or a missing blank?): "
        "none of them is used"
    ]
    assert main(["report", str(shifted), "--csv", str(tmp_path / "r.csv")]) == 1
    rows = _rows(tmp_path / "r.csv")
    assert rows["5"]["Ro"] == "misread" and rows["5"]["FIDE ID"] == "misread"
    assert rows["5"]["Ru"].startswith("not computed: line 9 does not sit in its columns")
    for n in map(str, range(1, 13)):  # everyone played him: nobody's figures from 215
        if n != "5":
            assert rows[n]["Rc/Ra"] == "" and rows[n]["K*chg"] == "", n
            assert rows[n]["Ru"] == ("not computed: played player 5, whose line 9 does not "
                                     "sit in its columns")  # fmt: skip
    capsys.readouterr()
    assert main(["check", str(shifted)]) == 1
    said = capsys.readouterr().out
    assert said.splitlines()[-1].startswith("cannot tell") and "\nno rule fails" not in said
    assert main(["import-trf", str(shifted), "-o", str(tmp_path / "s.xlsx")]) == 2
    assert "nothing written" in capsys.readouterr().err
    assert not (tmp_path / "s.xlsx").exists()
    # the clean file: every figure, check's verdict
    assert main(["report", str(clean), "--csv", str(tmp_path / "c.csv")]) == 0
    assert all(r["K*chg"] for r in _rows(tmp_path / "c.csv").values())
    assert main(["check", str(clean)]) == 0


def test_a_typo_in_an_opponent_counts_for_neither(tmp_path: Path) -> None:
    """Player 1's round against 8 typed ``l8``: the game counts for neither (9 games each, not
    10 and 11), and both rows say why."""
    clean = round_robin(tmp_path)
    line = next(x for x in clean.read_text().splitlines() if x.startswith("001    1"))
    at = line.index("   8 ", 89) + 1
    typo = _edit(clean, 1, "replace", at, "  l8")
    assert main(["report", str(clean), "--csv", str(tmp_path / "c.csv")]) == 0
    assert main(["report", str(typo), "--csv", str(tmp_path / "t.csv")]) == 1
    before, after = _rows(tmp_path / "c.csv"), _rows(tmp_path / "t.csv")
    assert (before["1"]["N"], before["8"]["N"]) == ("11", "11")
    assert (after["1"]["N"], after["8"]["N"]) == ("10", "10")
    assert "player 8's record has a game against him" in after["1"]["Ru"]
    assert "opponent 1 does not list 8 as their opponent" in after["8"]["Ru"]
    assert all(after[n]["N"] == "11" for n in map(str, range(2, 13)) if n != "8")


def test_two_players_with_one_fide_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Players 3 and 7 with one FIDE ID: a named problem; the list is applied to neither, and
    the period takes neither (nothing is merged, nothing written)."""
    from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line

    clean = round_robin(tmp_path)
    twice = _edit(clean, 7, "replace", 58, f"{4003:>11}")
    listed = tmp_path / "players_list_foa.txt"
    players = [ListedPlayer(4000 + n, name, "GER", "M", "", "", "", r + 5, 0, 20, None, 0, None,
                            None, 0, None, 1990, "")
               for n, (name, r) in enumerate(zip(NAMES, RATINGS, strict=True), start=1)]  # fmt: skip
    listed.write_bytes(("\r\n".join([HEADER, *map(format_line, players)]) + "\r\n").encode())
    assert (
        main(["report", str(twice), "--list", str(listed), "--csv", str(tmp_path / "r.csv")]) == 1
    )
    said = capsys.readouterr()
    assert "players 3 Cc, Third and 7 Gg, Seventh have one FIDE ID, 4003" in said.err
    rows = _rows(tmp_path / "r.csv")
    assert rows["3"]["Ro"] == "2300" and rows["7"]["Ro"] == "1950"  # the file's, not the list's
    assert rows["1"]["Ro"] == "2715"  # the others: the list's
    assert main(["period", str(listed), str(twice), "-o", str(tmp_path / "next.txt"),
                 "--date", "2024-05-01", "--next", "2024-06-01"]) == 1  # fmt: skip
    assert "have one FIDE ID, 4003" in capsys.readouterr().err
    assert not (tmp_path / "next.txt").exists()


def test_a_birth_date_after_the_event(tmp_path: Path) -> None:
    """Born 2030 in a 2024 event: no junior's K 40 from it, the row says why."""
    late = round_robin(tmp_path, born={9: "2030/02/01"})
    assert main(["report", str(late), "--csv", str(tmp_path / "r.csv")]) == 1
    rows = _rows(tmp_path / "r.csv")
    assert rows["9"]["K"] == "" and rows["9"]["K*chg"] == ""
    assert "expected a birth date before the event's start (2024-05-03), got: '2030-02-01'" in (
        rows["9"]["Ru"])  # fmt: skip
    young = round_robin(tmp_path, name="young.trf", born={9: "2010/02/01"})
    assert main(["report", str(young), "--csv", str(tmp_path / "y.csv")]) == 0
    assert _rows(tmp_path / "y.csv")["9"]["K"] == "40"  # a real junior


def test_an_end_before_the_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    early = round_robin(tmp_path, end="2024/04/03")
    assert main(["check", str(early)]) == 1
    said = capsys.readouterr()
    assert ("record 052: expected the end date on or after the start (2024-05-03), got: "
            "2024-04-03") in said.err  # fmt: skip
    assert "cannot tell" in said.out.splitlines()[-1]


@pytest.mark.parametrize("declared", [
    ("XXS WW=2.0 BW=2.0 WD=1.0 BD=1.0",),  # JaVaFo
    ("XXS W=2 D=1",),  # its shortcuts
    ("BBW  2.0", "BBD  1.0"),  # bbpPairings
    ("162  W 2.0    D 1.0    L 0.0",),  # TRF-2026
])  # fmt: skip
def test_a_points_scale_declared_the_older_ways(tmp_path: Path, declared: tuple[str, ...]) -> None:
    """A 2/1/0 event whose points are declared by JaVaFo's XXS or bbpPairings' BBW and BBD: the
    points add up (they did only with TRF-2026's 162), and the figures are the same."""
    scaled = round_robin(tmp_path, points_of={"1": 2, "=": 1, "0": 0}, extra=declared)
    t = trf.read(scaled)
    assert t.errors == [], [str(e) for e in t.errors]
    assert main(["report", str(scaled)]) == 0
    undeclared = round_robin(tmp_path, name="plain.trf", points_of={"1": 2, "=": 1, "0": 0})
    assert any("do not add up" in str(e) for e in trf.read(undeclared).errors)


def test_points_by_colour_are_said_not_guessed(tmp_path: Path) -> None:
    path = round_robin(tmp_path, extra=("XXS WW=1.0 BW=1.5",))
    errors = [str(e) for e in trf.read(path).errors]
    assert any("points by colour (WW=1, BW=3/2) cannot be checked by result" in e for e in errors)


@pytest.mark.parametrize(("at", "text", "message"), [
    (81, " 1/0", "points must be a number such as 5.5, got '1/0'"),
    (5, "   ²", "starting rank must be a number, got '²'"),
    (49, "20²0", "rating must be a number, got '20²0'"),
])  # fmt: skip
def test_digits_int_refuses_are_problems_not_tracebacks(tmp_path: Path, at: int, text: str,
                                                        message: str) -> None:  # fmt: skip
    path = _edit(round_robin(tmp_path), 3, "replace", at, text)
    errors = [str(e) for e in trf.read(path).errors]
    assert any(message in e for e in errors), errors
    assert main(["report", str(path)]) in (1, 2)


# --- through the workbook ------------------------------------------------------------------


def test_the_workbook_is_not_made_from_a_game_the_records_disagree_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = round_robin(tmp_path)
    line = next(x for x in clean.read_text().splitlines() if x.startswith("001    1"))
    typo = _edit(clean, 1, "replace", line.index("   8 ", 89) + 1, "  l8")
    assert main(["import-trf", str(typo), "-o", str(tmp_path / "t.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "nothing written: 2 game(s) where the two players' records disagree" in err
    assert not (tmp_path / "t.xlsx").exists()


def _workbook(tmp_path: Path, source: Path) -> Path:
    book = tmp_path / f"{source.stem}.xlsx"
    assert main(["import-trf", str(source), "-o", str(book)]) == 0
    return book


def test_one_fide_id_on_two_rows_of_a_workbook(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """fill does not give two rows with one FIDE ID the list's values: both keep their own,
    and both are named; recalc and report then rate them with their own ratings."""
    import openpyxl

    from fide_rating.formats import layout
    from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line

    book = _workbook(tmp_path, round_robin(tmp_path))
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    column = [c.value for c in ws[layout.HEADER_ROW]].index("FIDE ID") + 1
    ws.cell(layout.FIRST + 6, column, 4003)  # player 7's row takes player 3's FIDE ID
    wb.save(book)
    listed = tmp_path / "players_list_foa.txt"
    players = [ListedPlayer(4000 + n, name, "GER", "M", "", "", "", r + 5, 0, 20, None, 0, None,
                            None, 0, None, 1990, "")
               for n, (name, r) in enumerate(zip(NAMES, RATINGS, strict=True), start=1)]  # fmt: skip
    listed.write_bytes(("\r\n".join([HEADER, *map(format_line, players)]) + "\r\n").encode())
    assert main(["fill", str(book), "--list", str(listed), "-o", str(tmp_path / "f.xlsx")]) == 1
    err = capsys.readouterr().err
    assert f"Players row {layout.FIRST + 2}, FIDE ID 4003 is on another row too" in err
    assert f"Players row {layout.FIRST + 6}, FIDE ID 4003 is on another row too" in err
    assert main(["recalc", str(tmp_path / "f.xlsx"), "-o", str(tmp_path / "r.xlsx"),
                 "--csv", str(tmp_path / "r.csv")]) == 0  # fmt: skip
    rows = _rows(tmp_path / "r.csv")
    assert (rows["3"]["Ro"], rows["7"]["Ro"], rows["1"]["Ro"]) == ("2300", "1950", "2715")


def test_a_birth_after_the_event_in_the_workbook(tmp_path: Path) -> None:
    """The crosstable's K of a player born after the event is an error text, not 40; the
    workbook's report says why, as the TRF's does."""
    book = _workbook(tmp_path, round_robin(tmp_path, born={9: "2030/02/01"}))
    assert main(["recalc", str(book), "-o", str(tmp_path / "r.xlsx"),
                 "--csv", str(tmp_path / "r.csv")]) == 0  # fmt: skip
    row = _rows(tmp_path / "r.csv")["9"]
    assert row["K"] == ("#FIDE! birth_year: expected a birth year from 1900 to 2024 (or a birth "
                        "date), got '2030-02-01'")  # fmt: skip
    assert row["K*chg"].startswith("#FIDE!")
    assert main(["report", str(tmp_path / "r.xlsx"), "--csv", str(tmp_path / "w.csv")]) == 1
    assert "expected a birth date before the event's start" in _rows(tmp_path / "w.csv")["9"]["Ru"]


def test_an_end_before_the_start_in_the_workbook(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    import datetime as dt

    import openpyxl

    book = _workbook(tmp_path, round_robin(tmp_path))
    wb = openpyxl.load_workbook(book)
    wb["Event"]["B6"] = dt.datetime(2024, 4, 3)
    wb.save(book)
    capsys.readouterr()
    assert main(["check", str(book)]) == 1
    said = capsys.readouterr()
    assert ("the Event sheet, B6: expected the end date on or after the start (2024-05-03), "
            "got: 2024-04-03") in said.err  # fmt: skip


def test_a_points_scale_through_the_workbook_and_back(tmp_path: Path) -> None:
    scaled = round_robin(tmp_path, points_of={"1": 2, "=": 1, "0": 0},
                         extra=("XXS WW=2.0 BW=2.0 WD=1.0 BD=1.0",))  # fmt: skip
    book = _workbook(tmp_path, scaled)
    assert main(["export-trf", str(book), "-o", str(tmp_path / "back.trf"),
                 "--format", "trf16"]) == 0  # fmt: skip
    again = trf.read(tmp_path / "back.trf")
    assert again.errors == [] and "XXS WW=2.0 BW=2.0 WD=1.0 BD=1.0" in again.records("XXS")
