"""`check` and `report` on TRF-2026 files and on the habits of other programs' files: the
rating type from record 222, --start, round robins the round-robin method cannot rate whole.
Every file here is written by the test (nothing third-party)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fide_rating.commands.cli import main
from fide_rating.events.rating import report
from fide_rating.formats import trf
from fide_rating.rules.berger import schedule

R = trf.Round


def player(n: int, name: str, rating: int | None, rounds: list[trf.Round]) -> str:
    points = trf.points_of(r.result for r in rounds)
    return trf.format_player(
        trf.Player(n, "m", "", name, rating, "SUI", "", "", points, n, tuple(rounds))
    )


def write(tmp: Path, lines: list[str], name: str = "event.trf") -> Path:
    path = tmp / name
    path.write_text("\n".join(lines) + "\n")
    return path


def rows(out: str) -> dict[str, str]:
    return {line.split()[0]: line for line in out.splitlines() if line[:3].strip().isdigit()}


SWISS = [
    player(1, "Alpha", 2100, [R(2, "w", "1"), R(3, "b", "=")]),
    player(2, "Bravo", 2000, [R(1, "b", "0"), R(4, "w", "1")]),
    player(3, "Charlie", 1900, [R(4, "b", "1"), R(1, "w", "=")]),
    player(4, "Delta", 1800, [R(3, "w", "0"), R(2, "b", "0")]),
]


@pytest.mark.parametrize(
    ("code", "kind", "why"),
    [
        ("222 5400+30", "standard", "record 222 '5400+30': 120 min for 60 moves: 60 or more is "
                                    "standard"),
        ("222 600+5", "rapid", "record 222 '600+5': 15 min for 60 moves: rapid is more than 10 "
                               "and less than 60 min"),
        ("222 180+2", "blitz", "record 222 '180+2': 5 min for 60 moves: blitz is more than 3 "
                               "and at most 10 min"),
        (None, "standard", "the file has no encoded time control (record 222): standard "
                           "assumed"),
    ],
)  # fmt: skip
def test_check_says_the_rating_type_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], code: str | None, kind: str, why: str
) -> None:
    head = ["012 Typed", "042 2025/10/04", "052 2025/10/04", *([code] if code else [])]
    path = write(tmp_path, [*head, *SWISS])
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"  rating type: {kind} ({why}" in out
    if kind != "standard":  # B.02's minimum times are a standard event's
        assert "holds        1.1   time control record 222" in out
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"rating type: {kind} ({why}" in out
    # the edition of the event's rating type and start date
    assert ("edition 2025-10" if kind == "standard" else f" {kind}") in out.splitlines()[0]


def test_the_rating_type_given_wins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ["012 Typed", "042 2025/10/04", "222 600+5", *SWISS])
    assert main(["report", str(path), "--rating-type", "blitz"]) == 0
    assert "rating type: blitz (given with --rating-type)" in capsys.readouterr().out
    # a rapid time control checked as blitz: the rule fails, and says why
    assert main(["check", str(path), "--rating-type", "blitz"]) == 1
    assert "FAILS        1.1   time control record 222 '600+5': 15 min for 60 moves: rapid is " \
        in capsys.readouterr().out  # fmt: skip


def test_record_122_alone_only_hints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ["012 Blitz", "042 2025/10/04", "122 8 min/player + 3 s/move", *SWISS])
    main(["check", str(path)])
    out = capsys.readouterr().out
    # 8 min + 60 x 3 s is 11 minutes: rapid by FIDE's definition, though the file's own
    # program called it blitz (KDE chessament's anonymised event)
    assert "rating type: standard (the file has no encoded time control (record 222): standard " \
           "assumed; record 122 '8 min/player + 3 s/move' reads as rapid: give --rating-type " \
           "rapid if it is)" in out  # fmt: skip


def test_an_armageddon_time_control_is_not_guessed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, ["012 Armageddon", "042 2025/10/04", "222 W300-B240", *SWISS])
    main(["check", str(path)])
    assert "White has 5 min for 60 moves and Black 4: games where the players have different " \
           "playing times are not rated" in capsys.readouterr().out  # fmt: skip


def test_start_dates_as_other_programs_write_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lichess = write(tmp_path, ["012 Lichess", "042 May 10, 2020", *SWISS], "lichess.trf")
    assert main(["report", str(lichess)]) == 0
    assert "edition 2014-07" in capsys.readouterr().out
    ambiguous = write(tmp_path, ["012 Either", "042 05/06/2020", *SWISS], "either.trf")
    assert main(["report", str(ambiguous)]) == 0
    _, err = capsys.readouterr()
    assert "record 042 (start date): '05/06/2020' read as 2020-06-05 (DD/MM/YYYY, the likeliest " \
           "form); it could also be 2020-05-06 (MM/DD/YYYY): give --start if it is" in err  # fmt: skip
    none = write(tmp_path, ["012 Undated", *SWISS], "undated.trf")
    assert main(["report", str(none)]) == 2
    assert "give it with --start YYYY-MM-DD" in capsys.readouterr().err
    assert main(["report", str(none), "--start", "2024-03-01"]) == 0
    assert "edition 2024-03" in capsys.readouterr().out
    assert main(["check", str(none), "--start", "2024-03-01"]) == 0
    capsys.readouterr()
    assert main(["report", str(none), "--start", "01.03.2024"]) == 0  # day first, as dots are
    assert "edition 2024-03" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # a date that reads two ways is refused with both
        main(["report", str(none), "--start", "03/01/2024"])
    assert "it could be 2024-01-03 (DD/MM/YYYY) or 2024-03-01 (MM/DD/YYYY)" in (
        capsys.readouterr().err)  # fmt: skip


def _round_robin(ratings: list[int | None], table: list[str], start: str = "2010/05/01") -> str:
    """A round robin (Berger's tables) from its crosstable rows: 1, = or 0 against each
    player in turn."""
    n = len(ratings)
    lines = ["012 Round robin", f"042 {start}"]
    for number, pairings in sorted(schedule(n, 1).items()):
        rounds = [R(None, "-", "Z") if opp is None else R(opp, colour, table[number - 1][opp - 1])
                  for opp, colour in pairings]  # fmt: skip
        lines.append(player(number, f"Player {chr(64 + number)}", ratings[number - 1], rounds))
    return "\n".join(lines) + "\n"


def test_an_unrated_player_who_scores_zero_in_a_2010_round_robin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the file: A beats both, C (unrated) loses both; dp is undefined at 0 and at 1
    t = trf.parse(_round_robin([2200, 2100, None], ["x11", "0x1", "00x"]))
    assert t.errors == []
    lines = {x.player.number: x for x in report(t)}
    assert lines[3].initial == (
        "not rated: scored 0 of 2 in a round robin: dp is undefined at p = 0 (B.02 2009-07 "
        "10.1), and so is his Ru (10.21 disregards a first event of less than one point); his "
        "games are rated for nobody"
    )
    for n in (1, 2):  # the rated players' game against each other is rated
        calc = lines[n].calc
        assert calc is not None and calc.n == 1 and lines[n].note is None
    assert lines[1].calc is not None and lines[1].calc.w == 1
    path = tmp_path / "rr.trf"
    path.write_text(_round_robin([2200, 2100, None], ["x11", "0x1", "00x"]))
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "not computed" not in out and "Traceback" not in out


def test_a_rated_player_at_100_percent_leaves_the_method_without_ra() -> None:
    # D (unrated) scores 2 of 3: the method is needed, but A's 3 of 3 leaves dp(pa) undefined
    t = trf.parse(_round_robin([2200, 2100, 2000, None], ["x111", "0x=0", "0=x0", "011x"]))
    lines = {x.player.number: x for x in report(t)}
    assert lines[4].initial == (
        "not rated: player 1 (Player A) scored 100 % against the others: dp is undefined at "
        "p = 1 (B.02 2009-07 10.1), so the round-robin method has no Ra; games against the "
        "unrated players are not rated"
    )
    for n in (1, 2, 3):
        calc = lines[n].calc
        assert calc is not None and calc.n == 2, n  # the games between the rated players
    # from 2012-07 dp is defined at 0 and 1: the method rates everyone
    later = trf.parse(_round_robin([2200, 2100, 2000, None], ["x111", "0x=0", "0=x0", "011x"],
                                   "2013/05/01"))  # fmt: skip
    assert later.errors == []
    initial = {x.player.number: x for x in report(later)}[4].initial or ""
    # the method ran (Ru is defined); 3 games are too few for a first rating
    assert initial.startswith("not rated: 3 games against rated opponents, ")


def test_a_round_robin_where_nobody_is_rated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "unrated.trf"
    path.write_text(_round_robin([None, None, None], ["x1=", "0x1", "=0x"]))
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    for n in ("1", "2", "3"):
        assert rows(out)[n].endswith(
            "not rated: nobody in this round robin is rated: the round-robin method has no Rar"
        )
    assert "[None" not in out


# --- import-trf and export-trf: nothing lost ---------------------------------------------------


def _round_trip(tmp: Path, lines: list[str], *extra: str) -> tuple[int, int, str]:
    source = write(tmp, lines, "source.trf")
    book, back = tmp / "book.xlsx", tmp / "back.trf"
    imported = main(["import-trf", str(source), "-o", str(book)])
    exported = main(["export-trf", str(book), "-o", str(back), *extra])
    return imported, exported, back.read_text() if back.exists() else ""


def _imported(tmp: Path, lines: list[str]) -> tuple[Path, Any]:
    """A TRF through import-trf: the workbook's path, and the workbook opened to edit."""
    import openpyxl

    source = write(tmp, lines, "imported.trf")
    book = tmp / "imported.xlsx"
    assert main(["import-trf", str(source), "-o", str(book)]) == 0
    return book, openpyxl.load_workbook(book)


def test_players_without_a_name_survive_the_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unnamed = [x[:14] + " " * 33 + x[47:] for x in SWISS]  # columns 15-47 blank
    lines = ["012 No names", "042 2025/10/04", *unnamed]
    assert trf.parse("\n".join(lines) + "\n").errors == []
    imported, exported, back = _round_trip(tmp_path, lines, "--format", "trf16")
    out, err = capsys.readouterr()
    assert "4 player(s) have no name in the TRF (No 1, 2, 3, 4): the workbook names them " \
           "'(no name in the TRF)'" in err  # fmt: skip
    assert (imported, exported) == (0, 0) and "4 players" in out.splitlines()[-1]
    assert back == "\n".join(lines) + "\n"


def test_export_refuses_a_workbook_without_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, wb = _imported(tmp_path, ["012 Named", "042 2025/10/04", *SWISS])
    wb["Players"]["C6"] = None  # player 2's name deleted
    wb.save(book)
    assert main(["export-trf", str(book), "-o", str(tmp_path / "some.trf")]) == 1
    assert "1 player(s) of the TRF the workbook was made from are not in it (their rows have no " \
           "name) and are not written: 2 Bravo" in capsys.readouterr().err  # fmt: skip
    for row in range(5, 9):
        wb["Players"][f"C{row}"] = None
    wb.save(book)
    assert main(["export-trf", str(book), "-o", str(tmp_path / "none.trf")]) == 2
    assert "expected players in the workbook (rows with a name on the Players sheet), got none" \
        in capsys.readouterr().err  # fmt: skip
    assert not (tmp_path / "none.trf").exists()


def test_starting_ranks_with_gaps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    to = {1: 10, 2: 20, 3: 30, 4: 40}
    gapped = [
        trf.format_player(p._replace(number=to[p.number], rounds=tuple(
            r._replace(opponent=to[r.opponent]) if r.opponent else r for r in p.rounds)))
        for p in trf.parse("\n".join(SWISS) + "\n").players.values()
    ]  # fmt: skip
    lines = ["012 Gaps", "042 2025/10/04", *gapped]
    t = trf.parse("\n".join(lines) + "\n")
    assert t.errors == [] and sorted(t.players) == [10, 20, 30, 40]
    assert [x.calc is not None for x in report(t)] == [True] * 4  # report reads them
    imported, exported, back = _round_trip(tmp_path, lines, "--format", "trf16")
    out = capsys.readouterr().out
    assert "starting ranks 10, 20, 30, 40 are numbered 1 to 4 in the workbook" in out
    assert (imported, exported) == (0, 0) and back == "\n".join(lines) + "\n"


def test_trf26_round_trip_keeps_every_line(tmp_path: Path) -> None:
    from test_trf26 import _text

    imported, exported, back = _round_trip(tmp_path, _text().splitlines())
    assert (imported, exported) == (0, 0)
    assert back == _text()  # 162's points, 240's bye (shown in the workbook), every record
    imported, exported, back16 = _round_trip(tmp_path, _text().splitlines(), "--format", "trf16",
                                             "--force")  # fmt: skip
    (delta,) = [x for x in back16.splitlines() if x.startswith("001    4")]
    assert delta[99:109] == "  0000 - H"  # round 2: record 240's bye, in the player record
    assert not [x for x in back16.splitlines() if x[:3] in ("142", "162", "240", "###", "SUI")]


def test_import_takes_the_rating_type_and_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import openpyxl

    source = write(tmp_path, ["012 Rapid", "222 600+5", *SWISS])
    book = tmp_path / "rapid.xlsx"
    assert main(["import-trf", str(source), "-o", str(book), "--start", "2025-10-04"]) == 0
    wb = openpyxl.load_workbook(book)
    assert wb["Event"]["B8"].value == "Rapid"
    assert str(wb["Event"]["B5"].value)[:10] == "2025-10-04"
    assert "rating type: rapid (record 222 '600+5'" in capsys.readouterr().out


def test_a_workbook_says_its_own_rating_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, wb = _imported(tmp_path, ["012 Rapid", "042 2025/10/04", *SWISS])
    wb["Event"]["B8"] = "Rapid"
    wb.save(book)
    capsys.readouterr()
    assert main(["report", str(book)]) == 0
    assert "rating type: rapid (the workbook's Event sheet)" in capsys.readouterr().out
    assert main(["export-trf", str(book), "-o", str(tmp_path / "rapid.trf")]) == 0
    assert "warning: the workbook's rating type is rapid, but the TRF's is standard" \
        in capsys.readouterr().err  # fmt: skip
