"""The whole list as FIDE changes it, through ``period`` with FIDE's text list and with a rating-list
workbook: the adjustment of 1 March 2024 on all three lists, players without games included
(FIDE's summary of the changes of 2024, point 1; the Norwegian and Swedish federations' notices
of February 2024); the raise of the rapid and blitz lists of 1 October 2022 to the standard
rating of the new list - 100; K of a junior to the end of the year of his 18th birthday on
FIDE's December list (2016). Each on both sides of its date."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.formats import trf
from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line, open_list
from fide_rating.formats.list_template import build_list

D = dt.date
R = trf.Round


def _player(fide_id: int, standard: int | None, rapid: int | None, blitz: int | None,
            born: int = 1980) -> ListedPlayer:  # fmt: skip
    return ListedPlayer(fide_id, f"Player, {fide_id}", "NOR", "M", "", "", "",
                        standard, 0, None if standard is None else 20,
                        rapid, 0, None if rapid is None else 20,
                        blitz, 0, None if blitz is None else 20, born, "")  # fmt: skip


def _fide_list(path: Path, players: list[ListedPlayer]) -> Path:
    path.write_bytes(("\r\n".join([HEADER, *map(format_line, players)]) + "\r\n").encode())
    return path


def _game(path: Path, start: dt.date, a: int, b: int, rating_a: int, rating_b: int,
          control: str) -> Path:  # fmt: skip
    """One game, a beats b (the period needs an event; the players of the list test have none)."""
    lines = ["012 One game", f"042 {start:%Y/%m/%d}", f"052 {start:%Y/%m/%d}", f"222 {control}"]
    lines.append(trf.format_player(trf.Player(1, "m", "", "A", rating_a, "NOR", str(a), "",
                                              trf.points_of("1"), 1, (R(2, "w", "1"),))))  # fmt: skip
    lines.append(trf.format_player(trf.Player(2, "m", "", "B", rating_b, "NOR", str(b), "",
                                              trf.points_of("0"), 2, (R(1, "b", "0"),))))  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return path


CONTROLS = {"standard": "5400+30", "rapid": "900+10", "blitz": "180+2"}
# the players of the event: far above the adjustment, so that their own games do not matter
PLAYING = [_player(1, 2500, 2500, 2500), _player(2, 2480, 2480, 2480)]


@pytest.mark.parametrize(
    ("kind", "before", "after"),
    [("standard", 1800, 1880), ("rapid", 1800, 1880), ("blitz", 1200, 1520)],
)
@pytest.mark.parametrize(
    ("date", "next_date", "crossed"),
    [(D(2024, 1, 1), D(2024, 2, 1), False), (D(2024, 2, 1), D(2024, 3, 1), True),
     (D(2024, 3, 1), D(2024, 4, 1), False)],
)  # fmt: skip
def test_the_2024_adjustment_of_every_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, before: int, after: int,
    date: dt.date, next_date: dt.date, crossed: bool,
) -> None:  # fmt: skip
    """A player without games on the list of 1 March 2024: standard 1800 -> 1880, rapid 1800 ->
    1880, blitz 1200 -> 1520 (above the new floor of 1400, so not unrated); the list before and
    the list after are not touched."""
    idle = _player(5, before, before, before)
    source = _fide_list(tmp_path / "players_list_foa.txt", [*PLAYING, idle])
    event = _game(tmp_path / "e.trf", date + dt.timedelta(days=3), 1, 2, 2500, 2480,
                  CONTROLS[kind])  # fmt: skip
    out = tmp_path / "next.txt"
    assert main(["period", str(source), str(event), "-o", str(out), "--date", f"{date}",
                 "--next", f"{next_date}", "--rating-type", kind]) == 0  # fmt: skip
    said = capsys.readouterr().out
    with open_list(out) as nxt:
        entry = nxt.get(5)
        assert entry is not None
        rating = entry.of(kind)[0]
        assert rating == (after if crossed else before)
        # the other two lists and the rest of the entry as they were
        others = {k for k in ("standard", "rapid", "blitz") if k != kind}
        assert all(entry.of(k) == idle.of(k) for k in others)
        assert (entry.name, entry.k if kind == "standard" else entry.of(kind)[2]) == (
            idle.name, 20)  # fmt: skip
    assert ("2024-03 adjustment of the list of 2024-03-01 applied" in said) is crossed
    if crossed:
        assert "1 rating(s) of players without games in the period changed" in said


def test_the_2024_adjustment_on_a_rating_list_workbook(tmp_path: Path) -> None:
    """The same with a rating-list workbook: every player of the list, with or without games."""
    wb = build_list()
    wb["Period"]["B1"], wb["Period"]["B2"] = dt.datetime(2024, 2, 1), dt.datetime(2024, 3, 1)
    wb["Period"]["B3"] = "blitz"
    rows = [(1, "A", 2500), (2, "B", 2480), (5, "Idle", 1200)]
    for r, (fide_id, name, rating) in enumerate(rows, start=2):
        for c, v in enumerate((fide_id, name, "NOR", "M", 1980, None, rating, 20, 100), start=1):
            wb["List"].cell(r, c, v)
    lst = tmp_path / "list.xlsx"
    wb.save(lst)
    event = _game(tmp_path / "e.trf", D(2024, 2, 3), 1, 2, 2500, 2480, CONTROLS["blitz"])
    assert main(["period", str(lst), str(event), "-o", str(tmp_path / "next.xlsx")]) == 0
    listed = {r[0]: r for r in openpyxl.load_workbook(tmp_path / "next.xlsx")["List"]
              .iter_rows(min_row=2, values_only=True)}  # fmt: skip
    assert listed[5][6] == 1520 and listed[5][8] == 100  # rating adjusted, games as listed


@pytest.mark.parametrize(
    ("date", "next_date", "raised"),
    [(D(2022, 8, 1), D(2022, 9, 1), False), (D(2022, 9, 1), D(2022, 10, 1), True)],
)
@pytest.mark.parametrize("kind", ["rapid", "blitz"])
def test_the_2022_raise_reads_the_new_lists_standard_rating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, date: dt.date,
    next_date: dt.date, raised: bool,
) -> None:  # fmt: skip
    """A player whose standard rating rose from 2000 to 2050 between the September and the
    October list, rapid 1800, no games: FIDE's October rapid list has 1950 (2050 - 100), not
    1900; without the October list the command uses September's and says so."""
    september = _fide_list(tmp_path / "september.txt", [*PLAYING, _player(7, 2000, 1800, 1800)])
    october = _fide_list(tmp_path / "october.txt", [*PLAYING, _player(7, 2050, 1800, 1800)])
    event = _game(tmp_path / "e.trf", date + dt.timedelta(days=3), 1, 2, 2500, 2480,
                  CONTROLS[kind])  # fmt: skip
    args = ["period", str(september), str(event), "--date", f"{date}", "--next",
            f"{next_date}", "--rating-type", kind]  # fmt: skip
    assert main([*args, "-o", str(tmp_path / "with.txt"), "--standard-from", str(october)]) == 0
    capsys.readouterr()
    assert main([*args, "-o", str(tmp_path / "without.txt")]) == 0
    said = capsys.readouterr().out
    for name, expected in (("with.txt", 1950), ("without.txt", 1900)):
        with open_list(tmp_path / name) as nxt:
            entry = nxt.get(7)
            assert entry is not None
            assert entry.of(kind)[0] == (expected if raised else 1800), name
            assert entry.rating == 2000  # a rapid or blitz period leaves the standard rating
    assert ("give it with --standard-from" in said) is raised


def test_a_junior_keeps_k_40_to_the_end_of_the_year(tmp_path: Path) -> None:
    """A junior born in 1998 turns 18 in 2016: K 40 on FIDE's December 2016 list (to the end of
    the year of his 18th birthday), K 20 on January 2017's. Through two periods with a
    rating-list workbook, each reading the list the previous one wrote."""
    wb = build_list()
    wb["Period"]["B1"], wb["Period"]["B2"] = dt.datetime(2016, 11, 1), dt.datetime(2016, 12, 1)
    rows: list[tuple[int, str, dt.datetime | int, int, int]] = [
        (1, "Junior", dt.datetime(1998, 3, 15), 2100, 60), (2, "Adult", 1970, 2100, 200)]  # fmt: skip
    for r, (fide_id, name, born, rating, games) in enumerate(rows, start=2):
        for c, v in enumerate((fide_id, name, "NOR", "M", born, None, rating, None, games),
                              start=1):  # fmt: skip
            wb["List"].cell(r, c, v)
    november = tmp_path / "2016-11.xlsx"
    wb.save(november)
    december, january = tmp_path / "2016-12.xlsx", tmp_path / "2017-01.xlsx"
    for source, target, day in ((november, december, D(2016, 11, 5)),
                                (december, january, D(2016, 12, 5))):  # fmt: skip
        event = _game(tmp_path / f"{day:%m}.trf", day, 1, 2, 2100, 2100, CONTROLS["standard"])
        listed = {r[0]: r for r in openpyxl.load_workbook(source)["List"]
                  .iter_rows(min_row=2, values_only=True)}  # fmt: skip
        event.write_text(event.read_text().replace(" 2100 NOR", f" {listed[1][6]} NOR", 1))
        assert main(["period", str(source), str(event), "-o", str(target)]) == 0
    k_of = {}
    for name, path in (("december", december), ("january", january)):
        rows_after = {r[0]: r for r in openpyxl.load_workbook(path)["List"]
                      .iter_rows(min_row=2, values_only=True)}  # fmt: skip
        k_of[name] = rows_after[1][7]
    assert k_of == {"december": 40, "january": 20}


@pytest.mark.parametrize(("d", "change"), [(326, 9), (327, 9), (328, 9), (329, 10)])
def test_table_8_1_2_in_2008_as_fides_english_text_prints_it(
    tmp_path: Path, d: int, change: int
) -> None:
    """A draw of a player rated 2000 (K 25 on the list) against one D points above him, in a
    2008 event, through period with FIDE's text list: PD .13 for D = 316 to 328, .12 from 329
    (FIDE Handbook B.02 of 2005-2009, English, table 8.1.2, as Elo's table prints it; the Polish
    translation of 2006 read 327 and 328 as .12): 25 x (0.5 - 0.13) = 9.25 -> 9; 25 x 0.38 =
    9.5 -> 10."""
    low = ListedPlayer(11, "Low, Player", "NOR", "M", "", "", "", 2000, 0, 25, None, 0, None,
                       None, 0, None, 1980, "")  # fmt: skip
    high = ListedPlayer(12, "High, Player", "NOR", "M", "", "", "", 2000 + d, 0, 15, None, 0,
                        None, None, 0, None, 1980, "")  # fmt: skip
    source = _fide_list(tmp_path / "players_list_foa.txt", [low, high])
    lines = ["012 Draw", "042 2008/05/05", "052 2008/05/05", "222 5400+30",
             trf.format_player(trf.Player(1, "m", "", "Low, Player", 2000, "NOR", "11", "",
                                          trf.points_of("="), 1, (R(2, "w", "="),))),
             trf.format_player(trf.Player(2, "m", "", "High, Player", 2000 + d, "NOR", "12", "",
                                          trf.points_of("="), 2, (R(1, "b", "="),)))]  # fmt: skip
    event = tmp_path / "draw.trf"
    event.write_text("\n".join(lines) + "\n")
    out = tmp_path / "next.txt"
    assert main(["period", str(source), str(event), "-o", str(out), "--date", "2008-04-01",
                 "--next", "2008-07-01"]) == 0  # fmt: skip
    with open_list(out) as nxt:
        entry = nxt.get(11)
        assert entry is not None and entry.rating == 2000 + change


@pytest.mark.parametrize(("date", "next_date", "k"), [
    (D(2016, 11, 1), D(2016, 12, 1), 40), (D(2016, 12, 1), D(2017, 1, 1), 20),
])  # fmt: skip
@pytest.mark.parametrize("plays", [True, False])
def test_a_juniors_k_on_fides_list_at_the_years_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], date: dt.date, next_date: dt.date,
    k: int, plays: bool,
) -> None:  # fmt: skip
    """A junior born in 1998 with K 40 on FIDE's list: still 40 on the December 2016 list, 20 on
    January 2017's (the K of 30 or more games: FIDE's list does not count them), whether he
    played in the period or not; the command says so."""
    junior = ListedPlayer(21, "Junior, Kid", "NOR", "M", "", "", "", 2100, 0, 40, None, 0, None,
                          None, 0, None, 1998, "")  # fmt: skip
    source = _fide_list(tmp_path / "players_list_foa.txt", [*PLAYING, junior])
    a, b = (21, 1) if plays else (1, 2)
    event = _game(tmp_path / "e.trf", date + dt.timedelta(days=3), a, b,
                  2100 if plays else 2500, 2500 if plays else 2480, CONTROLS["standard"])  # fmt: skip
    out = tmp_path / "next.txt"
    assert main(["period", str(source), str(event), "-o", str(out), "--date", f"{date}",
                 "--next", f"{next_date}"]) == 0  # fmt: skip
    said = capsys.readouterr().out
    with open_list(out) as nxt:
        entry = nxt.get(21)
        assert entry is not None and entry.k == k
    assert ("junior(s) whose K 40 ended with the year" in said) is (k == 20)
