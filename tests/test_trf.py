"""TRF files: the real one in tests/data, and malformed ones."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.engine.recalc import recalc_file
from fide_rating.events.rating import report
from fide_rating.formats import trf, trf_player
from fide_rating.formats.crosstable import from_workbook
from fide_rating.formats.crosstable_write import to_workbook
from fide_rating.formats.trf import is_round_robin

DATA = Path(__file__).resolve().parent / "data"
REAL = DATA / "karl-mala-gedenkturnier-2005.trf"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "karl-mala-gedenkturnier-2005.xlsx"


def test_real_file() -> None:
    t = trf.read(REAL)
    assert t.errors == []
    players = t.players
    assert len(players) == 284
    assert sum(p.rating is None for p in players.values()) == 138
    assert t.name == "9. Karl-Mala-Gedenkturnier" and t.rounds == 7
    assert (t.start, t.end) == (trf.parse_date("2005/07/28"), trf.parse_date("2005-07-31"))
    first = players[1]
    assert (first.name, first.rating, first.federation, first.fide_id, first.title_name) == (
        "Vasquez,Rodrigo", 2558, "CHI", "3400042", "GM")  # fmt: skip
    assert first.rounds[0] == trf.Round(141, "w", "1") and first.points == 6
    assert players[13].rounds[0] == trf.Round(153, "-", "-")  # a forfeit loss
    assert trf.write(t).encode() == REAL.read_bytes()


@pytest.mark.parametrize("newline", ["\r\n", "\n", "\r"])
@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_encodings_and_line_ends(newline: str, encoding: str) -> None:
    text = REAL.read_text().replace("Vasquez,Rodrigo  ", "Väsquez,Rødrigo  ").replace("\n", newline)
    data = text.encode(encoding)
    t = trf.parse(data)
    assert t.errors == [] and t.encoding == encoding and t.newline == newline
    assert t.players[1].name == "Väsquez,Rødrigo"
    assert trf.write(t).encode(encoding) == data


def _record(
    number: int, name: str, rating: int | None, points: str, rounds: list[trf.Round], **kw: str
) -> str:
    return trf.format_player(
        trf.Player(number=number, sex=kw.get("sex", " "), title=kw.get("title", ""), name=name,
                   rating=rating, federation=kw.get("fed", ""), fide_id=kw.get("fide", ""),
                   birth=kw.get("birth", ""), points=Fraction(points), rank=number, rounds=tuple(rounds))
    )  # fmt: skip


def test_every_result_code_and_records_kept() -> None:
    R = trf.Round  # noqa: N806
    lines = [
        "012 Codes", "042 2024/05/01", "### a comment", "XXR 3", "XXC white1",
        "162 W    1.0    D    0.5",
        _record(1, "Alpha,A", 2500, "2.5", [R(2, "w", "1"), R(3, "b", "="), R(None, "-", "H")],
                sex="m", title="GM", fed="GER", fide="1234567", birth="1990/01/01"),
        _record(2, "Bravo,B", 2100, "1.5", [R(1, "b", "0"), R(None, "-", "F"), R(3, "w", "=")],
                sex="w", title="WIM", birth="2001/02/03"),
        _record(3, "Charlie,C", None, "1.0", [R(None, "-", "U"), R(1, "w", "="), R(2, "b", "=")],
                birth="2005"),
        "GER    1 m     Alpha,Anna                        2400 BAV      9999",
        "013 Team One                            1    2",
    ]  # fmt: skip
    text = "\n".join(lines) + "\n"
    t = trf.parse(text)
    # Alpha: 1 + = + H is 2, not the 2.5 the record says; Charlie: U + = + = is 2, not 1
    assert [str(e) for e in t.errors] == [
        "line 7, column 81: points 2.5 do not add up: the results give 2",
        "line 9, column 81: points 1 do not add up: the results give 2",
    ]
    codes = [r.result for p in t.players.values() for r in p.rounds]
    assert set(codes) == {"1", "=", "0", "H", "F", "U"}
    assert trf.write(t) == text
    assert t.players[3].birth_date == 2005 and t.players[2].title_name == "WIM"
    # a TRF-2026 team record makes it a team event: a player's points are informative there
    team = trf.parse(text + "310   1 Team One\n")
    assert team.team_event and team.errors == [] and trf.write(team) == text + "310   1 Team One\n"


def _put(line: str, column: int, text: str) -> str:
    return line[: column - 1] + text + line[column - 1 + len(text) :]


def test_malformed_file_errors_with_line_and_column() -> None:
    R = trf.Round  # noqa: N806
    alpha = _record(1, "Alpha", 2500, "2.0", [R(2, "w", "1"), R(9, "b", "1")])
    bravo = _record(2, "Bravo", 2000, "0.0", [R(1, "b", "1"), R(None, "-", "Z")])
    bravo = _put(_put(bravo, 49, "2x00"), 109, "Q")
    charlie = _record(3, "Charlie", 2000, "1.0", [R(1, "w", "0")])
    t = trf.parse("\n".join(["012 Broken", alpha, bravo, charlie, "001   ab Nobody", "001"]))
    found = [str(e) for e in t.errors]
    assert "line 3, column 49: player 2 (Bravo): rating must be a number, got '2x00'" in found
    assert "line 3, column 109: player 2 (Bravo): round 2: unknown result code 'Q'" in found
    assert "line 5, column 5: starting rank must be a number, got 'ab'" in found
    assert "line 6: player record too short (3 characters)" in found
    assert "line 2, column 102: round 2: opponent 9 does not exist" in found
    assert "line 2, column 99: round 1: result 1 against 2, who has 1" in found
    assert "line 4, column 92: round 1: opponent 1 does not list 3 as their opponent" in found
    assert "line 3, column 81: points 0 do not add up: the results give 1" in found
    assert set(t.players) == {1, 2, 3}  # reading went on


def test_colours_must_differ() -> None:
    R = trf.Round  # noqa: N806
    a = _record(1, "A", 2000, "1.0", [R(2, "w", "1")])
    b = _record(2, "B", 2000, "0.0", [R(1, "w", "0")])
    t = trf.parse("\n".join(["012 Colours", a, b]) + "\n")
    assert [str(e) for e in t.errors] == [
        "line 2, column 97: round 1: colour w, and the opponent has 'w'",
        "line 3, column 97: round 1: colour w, and the opponent has 'w'",
    ]
    fine = trf.parse(
        "\n".join(["012 Colours", a, _record(2, "B", 2000, "0.0", [R(1, "b", "0")])]) + "\n"
    )
    assert fine.errors == []


def test_report_matches_the_workbook(tmp_path: Path) -> None:
    t = trf.read(REAL)
    lines = {x.player.number: x for x in report(t)}
    assert report(t)[0].calc is not None
    book = tmp_path / "event.xlsx"
    to_workbook(t).save(book)
    out = recalc_file(book)
    rows = {int(float(str(p["No"]))): p for p in out.players}
    for number, line in lines.items():
        row = rows[number]
        if line.calc is not None:
            assert row["K"] == line.k
            assert row["K*chg"] == float(line.calc.k_chg), number
            assert row["We"] == float(line.calc.we), number
        else:
            text = line.initial or ""
            assert str(row["Initial"]) == (
                text if text.startswith("not rated") else str(float(text))
            ), number
    assert not is_round_robin(t)


def test_round_trip_through_the_workbook(tmp_path: Path) -> None:
    t = trf.read(REAL)
    book = tmp_path / "event.xlsx"
    to_workbook(t).save(book)
    assert trf.write(from_workbook(book)).encode() == REAL.read_bytes()
    # an edit in the workbook shows in the TRF, in the TRF's columns
    wb = openpyxl.load_workbook(book)
    wb["Players"]["H5"] = 2560  # Vasquez's rating
    wb.save(book)
    again = from_workbook(book)
    assert again.players[1].rating == 2560
    assert trf.write(again).splitlines()[13][48:52] == "2560"


def test_round_robin_trf_goes_to_the_round_robin_template(tmp_path: Path) -> None:
    names = ["A", "B", "C", "D"]
    rounds = {1: [(4, "w", "1"), (3, "b", "="), (2, "w", "1")], 2: [(3, "w", "0"), (4, "b", "1"), (1, "b", "0")],
              3: [(2, "b", "1"), (1, "w", "="), (4, "w", "0")], 4: [(1, "b", "0"), (2, "w", "0"), (3, "b", "1")]}  # fmt: skip
    lines = ["012 Quad", "042 2013/02/01"]
    for n in range(1, 5):
        pts = trf.points_of(r for _, _, r in rounds[n])
        head = f"001 {n:>4}      {names[n - 1]:<33} {2000 + 100 * n:>4} {'':>3} {'':>11} {'':>10} {float(pts):>4.1f} {n:>4}"
        lines.append(head + "".join(f"  {o:>4} {c} {r}" for o, c, r in rounds[n]))
    t = trf.parse("\n".join(lines) + "\n")
    assert t.errors == [] and is_round_robin(t)
    book = tmp_path / "quad.xlsx"
    to_workbook(t).save(book)
    wb = openpyxl.load_workbook(book)
    assert wb["Event"]["B9"].value == "Round robin"
    assert trf.write(from_workbook(book)) == trf.write(t)


def test_example_workbook_is_the_imported_trf(tmp_path: Path) -> None:
    fresh = tmp_path / "example.xlsx"
    to_workbook(trf.read(EXAMPLE.with_suffix(".trf"))).save(fresh)
    with zipfile.ZipFile(EXAMPLE) as a, zipfile.ZipFile(fresh) as b:
        for name in a.namelist():
            if name != "docProps/core.xml":
                assert a.read(name) == b.read(name), name


def test_cli_report_and_conversions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(REAL), "--csv", str(tmp_path / "r.csv")]) == 0
    out = capsys.readouterr().out
    assert "edition 2005-07" in out and "Vasquez,Rodrigo" in out
    assert (tmp_path / "r.csv").read_text().splitlines()[
        0
    ] == "No,FIDE ID,Name,Ro,Rc/Ra,W,N,We,chg,K,K from,K*chg,Ru"
    assert main(["import-trf", str(REAL), "-o", str(tmp_path / "e.xlsx")]) == 0
    e16, e26 = tmp_path / "e16.trf", tmp_path / "e26.trf"
    assert main(["export-trf", str(tmp_path / "e.xlsx"), "-o", str(e16), "--format", "trf16"]) == 0
    assert e16.read_bytes() == REAL.read_bytes()
    # TRF-2026 (the default): the rounds and the time control encoded added, the dates in its
    # form; every other line as it was
    assert main(["export-trf", str(tmp_path / "e.xlsx"), "-o", str(e26)]) == 0
    assert "(TRF-2026; added: 142 7 (the number of rounds), 222 40/7200:3600 (the time " \
           "control '40/120, 60', encoded), 042 2005/07/28 (was '28. 07. 2005'), 052 2005/07/31 " \
           "(was '31. 07. 2005'))" in capsys.readouterr().out  # fmt: skip
    old, new = REAL.read_bytes().decode("latin-1"), e26.read_bytes().decode("latin-1")
    assert (
        new.replace("042 2005/07/28", "042 28. 07. 2005")
        .replace("052 2005/07/31", "052 31. 07. 2005")
        .replace("142 7\n222 40/7200:3600\n", "")
        == old
    )
    again = trf.read(e26)
    assert again.errors == [] and again.start == trf.parse_date("2005-07-28")
    assert main(["export-trf", str(tmp_path / "nothing.xlsx")]) == 2
    (tmp_path / "notes.xlsx").write_text("not a workbook")
    assert main(["export-trf", str(tmp_path / "notes.xlsx")]) == 2
    assert main(["import-trf", str(tmp_path / "notes.xlsx"), "-o", str(tmp_path / "n.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "nothing.xlsx: No such file or directory" in err
    assert "notes.xlsx: not an .xlsx package (not a zip archive, or a damaged one)" in err
    assert "notes.xlsx: it is one already (export-trf writes a workbook's TRF)" in err
    broken = tmp_path / "broken.trf"
    broken.write_text("012 X\n001    1      A                                 2x00\n")
    assert main(["report", str(broken), "--edition", "2024-03-15"]) == 1
    assert "line 2, column 49: player 1 (A): rating must be a number" in capsys.readouterr().err


def test_scoring_record_162() -> None:
    R = trf.Round  # noqa: N806
    a = _record(1, "A", 2000, "3.0", [R(2, "w", "1")])
    b = _record(2, "B", 2000, "1.0", [R(1, "b", "0")])
    plain = trf.parse("\n".join(["012 Three points a win", a, b]) + "\n")
    assert [str(e) for e in plain.errors] == [
        "line 2, column 81: points 3 do not add up: the results give 1",
        "line 3, column 81: points 1 do not add up: the results give 0",
    ]
    scored = trf.parse("\n".join(["012 Three points a win", "162  W 3.0    L 1.0", a, b]) + "\n")
    assert scored.errors == []
    assert trf.scoring(scored)["1"] == 3 and trf.scoring(scored)["="] == Fraction(1, 2)
    assert trf.scoring(scored)["U"] == 3  # P (the pairing-allocated bye) is a win's points


def test_points_helper() -> None:
    assert trf.points_of(["1", "=", "+", "H", "U", "Z", "-", "L", "D"]) == Fraction(9, 2)


# --- files other people get wrong: every problem with its line, nothing crashes ---------------


def _real_lines() -> list[str]:
    return REAL.read_bytes().decode("latin-1").splitlines()


def test_an_impossible_start_date_is_named_with_its_line() -> None:
    lines = _real_lines()
    lines[3] = "042 2025/02/30"
    t = trf.parse("\n".join(lines) + "\n")
    assert "line 4, column 5: record 042 (start date): expected a date such as 2025/02/28, " \
           "got '2025/02/30'" in [str(e) for e in t.errors]  # fmt: skip


def test_empty_binary_and_utf16_files() -> None:
    assert [str(e) for e in trf.parse(b"").errors] == ["line 1: the file is empty"]
    garbage = trf.parse(bytes(range(256)) * 40)
    assert any("not a TRF file" in str(e) for e in garbage.errors) and not garbage.players
    utf16 = trf.parse(REAL.read_bytes().decode("latin-1").encode("utf-16"))
    assert len(utf16.players) == 284 and utf16.errors == [] and utf16.encoding == "utf-16"


def test_an_impossible_birth_date_is_refused() -> None:
    lines = _real_lines()
    i = next(i for i, x in enumerate(lines) if x.startswith("001"))
    lines[i] = lines[i][:69] + "1999/13/45" + lines[i][79:]
    t = trf.parse("\n".join(lines) + "\n")
    assert f"line {i + 1}, column 70: player 1 (Vasquez,Rodrigo): birth date: expected YYYY/MM/DD or a year, got '1999/13/45'" \
        in [str(e) for e in t.errors]  # fmt: skip
    for fine in ("1999", "1999/00/00", "1999/01/15", "1999.01.15", ""):
        assert trf_player._valid_birth(fine) or fine == ""


def test_a_nul_in_a_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _real_lines()
    i = next(i for i, x in enumerate(lines) if x.startswith("001"))
    lines[i] = lines[i][:20] + "\x00" + lines[i][21:]
    source = tmp_path / "nul.trf"
    source.write_text("\n".join(lines) + "\n", encoding="latin-1")
    assert main(["import-trf", str(source), "-o", str(tmp_path / "nul.xlsx")]) == 1
    err = capsys.readouterr().err
    assert (
        f"line {i + 1}, column 21: player 1 (Vasque\\x00,Rodrigo): a control character (U+0000) in the record"
        in err
    )
    assert "Traceback" not in err and (tmp_path / "nul.xlsx").exists()


def test_one_huge_line_is_one_problem(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = _real_lines()
    lines.append("001  285 m    Endless,Line" + "  0001 w 1x" * 200_000)  # 2 MB
    t = trf.parse("\n".join(lines) + "\n")
    assert len([e for e in t.errors if e.line == len(lines)]) == 1
    (huge,) = [e for e in t.errors if e.line == len(lines)]
    assert str(huge).startswith(f"line {len(lines)}: player record too long (")
    garbled = [*lines[:-1], "001  285 m    Garbled" + "x" * 200]
    t = trf.parse("\n".join(garbled) + "\n")
    assert (
        len([e for e in t.errors if e.line == len(garbled)]) <= trf_player.MAX_ERRORS_PER_LINE + 1
    )


def test_report_without_a_start_date(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [x for x in _real_lines() if not x.startswith(("042", "052"))]
    source = tmp_path / "no-date.trf"
    source.write_text("\n".join(lines) + "\n", encoding="latin-1")
    assert main(["report", str(source), "--edition", "2005-07"]) == 2
    assert "the event's start date is missing (record 042)" in capsys.readouterr().err
    assert main(["report", str(source), "--edition", "2005-07-28"]) == 0
    assert "edition 2005-07" in capsys.readouterr().out


def _hostile(tmp: Path, edit: Callable[[list[str]], object]) -> Path:
    """The real file with one change made by ``edit`` on its lines."""
    lines = _real_lines()
    edit(lines)
    path = tmp / "edited.trf"
    path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return path


def _player_line(lines: list[str], number: int) -> int:
    return next(i for i, x in enumerate(lines) if x.startswith(f"001 {number:>4}"))


@pytest.mark.parametrize(
    ("rating", "message"),
    [
        ("9999", "player 5 (Mikhaletz,Lubomir): rating must be from 1 to 4000, got 9999"),
        ("99999", "player 5 (Mikhaletz,Lubomir): rating: the field is columns 49-52 and column "
                  "53 is blank, got '99999'"),
    ],
)  # fmt: skip
def test_an_out_of_range_rating_is_that_players_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rating: str, message: str
) -> None:
    def edit(lines: list[str]) -> None:
        i = _player_line(lines, 5)
        lines[i] = lines[i][:48] + rating + lines[i][48 + len(rating) :]

    path = _hostile(tmp_path, edit)
    assert main(["report", str(path)]) == 1
    out, err = capsys.readouterr()
    assert f"edited.trf: line 18, column 49: {message}" in err
    rows = {line.split()[0]: line for line in out.splitlines() if line[:4].strip().isdigit()}
    assert "not computed: rating 9999 is out of range (1 to 4000)" in rows["5"]
    # who played 5 cannot be computed; who did not, is
    assert "not computed: played player 5, whose rating 9999 is out of range" in rows["145"]
    assert "not computed" not in rows["1"] and rows["1"].split()[-1] == "0.10"


def test_a_missing_start_date_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _hostile(tmp_path, lambda lines: lines.pop(3))  # 042
    assert main(["report", str(path)]) == 2
    assert f"{path}: the event's start date is missing (record 042)" in capsys.readouterr().err


@pytest.mark.parametrize(("day", "what"), [("2099/07/28", "after today"),
                                           ("1925/07/28", "before FIDE's first rating list")])  # fmt: skip
def test_an_unlikely_start_date_is_a_warning(day: str, what: str) -> None:
    lines = _real_lines()
    lines[3] = f"042 {day}"
    t = trf.parse("\n".join(lines) + "\n")
    assert [str(w) for w in t.warnings if what in str(w)] != []
    assert not [e for e in t.errors if "042" in str(e)]


def test_results_beyond_the_declared_rounds_are_reported() -> None:
    lines = [*_real_lines(), "XXR 5"]
    t = trf.parse("\n".join(lines) + "\n")
    beyond = [str(e) for e in t.errors if "but the file declares 5 rounds (record XXR)" in str(e)]
    assert "line 14, column 142: player 1 (Vasquez,Rodrigo): results for round 6 to 7, but " \
           "the file declares 5 rounds (record XXR)" in beyond  # fmt: skip
    assert len(beyond) == 284 - sum(len(p.rounds) <= 5 for p in t.players.values())
    lines[-1] = "XXR 7"
    assert not [e for e in trf.parse("\n".join(lines) + "\n").errors if "declares" in str(e)]


def test_a_tab_is_reported_with_its_line() -> None:
    lines = _real_lines()
    i = _player_line(lines, 3)
    lines[i] = lines[i][:40] + "\t" + lines[i][41:]
    t = trf.parse("\n".join(lines) + "\n")
    assert f"line {i + 1}, column 41: player 3 (Grabarczyk,Bogdan): a tab character in the " \
           "record (a TRF's columns are filled with spaces)" in [str(e) for e in t.errors]  # fmt: skip


def test_both_ways_of_checking_the_rounds_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small file's rounds are checked game by game, a large one's column by column: the
    same problems either way (here the real file, broken in several ways)."""
    from fide_rating.formats import trf_check

    lines = _real_lines()
    i = _player_line(lines, 3)
    lines[i] = lines[i][:98] + "=" + lines[i][99:]  # a result its opponent does not mirror
    j = _player_line(lines, 7)
    lines[j] = lines[j][:91] + " 999" + lines[j][95:]  # an opponent who does not exist
    k = _player_line(lines, 13)
    lines[k] = lines[k][:96] + "w" + lines[k][97:]  # a colour
    m = _player_line(lines, 20)  # an opponent who does not exist, with a bye's codes
    lines[m] = lines[m][:91] + " 998 - U" + lines[m][99:]
    text = "\n".join(lines) + "\n"
    by_games = [str(e) for e in trf.parse(text).errors]
    assert len(by_games) >= 5 and "round 1: opponent 998 does not exist" in str(by_games)
    monkeypatch.setattr(trf_check, "COLUMNS_FROM", 0)
    assert [str(e) for e in trf.parse(text).errors] == by_games
    assert trf.parse(REAL.read_bytes()).errors == []
