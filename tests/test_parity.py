"""One event and one list give the same figures through every command: ``report`` of the TRF,
``import-trf`` + ``recalc`` (and ``report`` of the recalculated workbook), ``fill`` + ``recalc``,
and ``period``: rated players, an unrated player, a rapid event with players who have only a
standard rating (R&B 7.2.1), a list whose rating differs from the file's, a player missing from
the list. The same Ro, K, W, We, K x chg and Ru for every player everywhere."""

from __future__ import annotations

import csv
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.formats import trf
from fide_rating.formats.fidelist import HEADER, ListedPlayer, format_line
from fide_rating.rules.berger import schedule

# FIDE ID, name, standard, rapid, rapid K, born, the rating in the file
PLAYERS = [
    (3001, "Aa, Top", 2710, 2705, 10, 1990, 2705),
    (3002, "Bb, Differs", 2450, 2440, 20, 1985, 2430),  # the file says otherwise than the list
    (3003, "Cc, Third", 2300, 2280, 20, 1970, 2280),
    (3004, "Dd, Fourth", 2200, 2210, 20, 1975, 2210),
    (3005, "Ee, Standard", 2150, None, None, 1980, None),  # no rapid rating: 7.2.1
    (3006, "Ff, Junior", 2050, 2000, 40, 2011, 2000),
    (3007, "Gg, Standard", 1950, None, None, 1992, None),  # no rapid rating: 7.2.1
    (3008, "Hh, New", 1900, 1850, 40, 1999, 1850),
    (3009, "Ii, Unrated", None, None, None, 2001, None),  # no rating at all: Ru
    (3010, "Jj, Tenth", 1800, 1790, 20, 1960, 1790),
    (3011, "Kk, Eleventh", 1700, 1720, 20, 1965, 1720),
    (3012, "Ll, Twelfth", 1650, 1600, 20, 1968, 1600),
]
FIGURES = ("Ro", "K", "W", "We", "K*chg", "Ru")


def _listed(fide_id: int, name: str, standard: int | None, rapid: int | None, k: int | None,
            born: int) -> ListedPlayer:  # fmt: skip
    return ListedPlayer(fide_id, name, "GER", "M", "", "", "", standard, 0,
                        None if standard is None else 20, rapid, 0, k, None, 0, None, born, "")  # fmt: skip


def make_event(folder: Path, kind: str, missing: int | None = None) -> tuple[Path, Path]:
    """FIDE's text list (without player ``missing``) and a 12-player round robin of
    2025-11-10 (TRF-2026, its time control encoded: rapid 15+10, or standard 90+30)."""
    listed = [_listed(f, n, s, r, k, b) for f, n, s, r, k, b, _ in PLAYERS if f != missing]
    source = folder / "players_list_foa.txt"
    source.write_bytes(("\r\n".join([HEADER, *map(format_line, listed)]) + "\r\n").encode())
    rnd = random.Random(3)
    result: dict[tuple[int, int], str] = {}
    for a in range(1, 13):
        for b in range(a + 1, 13):
            x = rnd.choice(["1", "=", "0"]) if abs(a - b) > 2 else "="
            result[(a, b)], result[(b, a)] = x, {"1": "0", "0": "1", "=": "="}[x]
    control = "222 900+10" if kind == "rapid" else "222 40/5400+30:1800+30"
    lines = ["012 Parity", "042 2025/11/10", "052 2025/11/11", control]
    berger = schedule(12, 1)
    for n, (fide_id, name, standard, _, _, born, in_file) in enumerate(PLAYERS, start=1):
        rating = in_file if kind == "rapid" else standard
        rounds = tuple(trf.Round(o, c, result[(n, o)]) for o, c in berger[n] if o is not None)
        lines.append(trf.format_player(trf.Player(
            n, "m", "", name, rating, "GER", str(fide_id), f"{born}/01/01",
            trf.points_of(r.result for r in rounds), n, rounds)))  # fmt: skip
    event = folder / "event.trf"
    event.write_text("\n".join(lines) + "\n")
    return source, event


def _number(text: str | None) -> Decimal | None:
    text = (text or "").strip()
    return Decimal(text) if text else None


def _from_report(path: Path) -> dict[int, tuple[Decimal | None, ...]]:
    """Each player's figures from ``report --csv``."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    figures = ("Ro", "K", "W", "We", "K*chg", "Ru")
    return {int(r["No"]): tuple(_number(r[x]) for x in figures) for r in rows}


def _from_recalc(path: Path) -> dict[int, tuple[Decimal | None, ...]]:
    """Each player's figures from ``recalc --csv`` (an unrated player's Ru is his Initial)."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    out: dict[int, tuple[Decimal | None, ...]] = {}
    for r in rows:
        rated = r["Ro"] != ""
        out[int(r["No"])] = (
            _number(r["Ro"]), _number(r["K"]), _number(r["W"]) if rated else None,
            _number(r["We"]), _number(r["K*chg"]), None if rated else _number(r["Initial"]),
        )  # fmt: skip
    return out


def _run(*args: object) -> int:
    return main([str(a) for a in args])


def _workbook_paths(folder: Path, source: Path, event: Path, kind: str) -> dict[str, Path]:
    """The same event through import-trf + recalc, the recalculated workbook's report, and fill
    + recalc: each a CSV of figures."""
    out = {}
    assert _run("import-trf", event, "--list", source, "--rating-type", kind,
                "-o", folder / "imported.xlsx") in (0, 1)  # fmt: skip
    assert _run("recalc", folder / "imported.xlsx", "-o", folder / "imported.recalc.xlsx",
                "--csv", folder / "imported.csv") == 0  # fmt: skip
    out["import-trf + recalc"] = folder / "imported.csv"
    assert _run("report", folder / "imported.recalc.xlsx", "--csv", folder / "book.csv") == 0
    out["report of the workbook"] = folder / "book.csv"
    assert _run("import-trf", event, "-o", folder / "bare.xlsx") == 0
    assert _run("fill", folder / "bare.xlsx", "--list", source, "--rating-type", kind,
                "-o", folder / "filled.xlsx") in (0, 1)  # fmt: skip
    assert _run("recalc", folder / "filled.xlsx", "-o", folder / "filled.recalc.xlsx",
                "--csv", folder / "filled.csv") == 0  # fmt: skip
    out["fill + recalc"] = folder / "filled.csv"
    return out


def _from_period(next_list: Path) -> dict[str, tuple[Decimal | None, ...]]:
    """By FIDE ID, each player's figures from the Calculations sheet ``period`` writes."""
    wb = openpyxl.load_workbook(next_list, read_only=True)
    rows = list(wb["Calculations"].iter_rows(min_row=2, max_col=11, values_only=True))
    wb.close()
    out: dict[str, tuple[Decimal | None, ...]] = {}
    current = None
    for fide_id, _, start, _, ro, w, _, _, k, k_chg, note in rows:
        if fide_id is not None and str(note or "").startswith("first rating"):
            out[str(fide_id)] = (None, None, None, None, None, Decimal(str(note).split()[-1]))
        elif fide_id is not None:
            current = str(fide_id)
        elif start is not None and current is not None:  # the event's line
            out[current] = (_d(ro), _d(k), _d(w), None, _d(k_chg), None)
    return out


def _d(x: object) -> Decimal | None:
    return None if x is None else Decimal(str(x)).normalize()


def _normal(figures: tuple[Decimal | None, ...]) -> tuple[Decimal | None, ...]:
    return tuple(None if x is None else x.normalize() for x in figures)


@pytest.mark.parametrize("kind", ["rapid", "standard"])
def test_every_command_gives_the_same_figures(tmp_path: Path, kind: str) -> None:
    source, event = make_event(tmp_path, kind)
    assert _run("report", event, "--list", source, "--rating-type", kind,
                "--csv", tmp_path / "report.csv") == 0  # fmt: skip
    reference = {n: _normal(f) for n, f in _from_report(tmp_path / "report.csv").items()}
    # the figures are there: every rated player has Ro, K, W, We and K x chg; 9 has Ru
    assert all(reference[n][:5] != (None,) * 5 for n in reference if n != 9)
    assert reference[9][5] is not None and reference[9][0] is None
    if kind == "rapid":  # 7.2.1: rated with the standard rating, K 40 (a new rapid player)
        assert reference[5][:2] == (Decimal(2150), Decimal(40))
        assert reference[7][:2] == (Decimal(1950), Decimal(40))
        assert reference[2][0] == Decimal(2440)  # the list's, not the file's 2430
    for how, path in _workbook_paths(tmp_path, source, event, kind).items():
        read = _from_report if how.startswith("report") else _from_recalc
        figures = {n: _normal(f) for n, f in read(path).items()}
        for n, mine in reference.items():
            theirs = figures[n]
            assert mine == theirs, (f"{how}: player {n}: {dict(zip(FIGURES, theirs, strict=True))}"
                                    f" != report's {dict(zip(FIGURES, mine, strict=True))}")  # fmt: skip
    # the period: the list's rating, K, W and K x chg of each player's line, and the first rating
    assert _run("period", source, event, "-o", tmp_path / "next.xlsx", "--date", "2025-11-01",
                "--next", "2025-12-01", "--rating-type", kind) == 0  # fmt: skip
    period = _from_period(tmp_path / "next.xlsx")
    for n, (fide_id, *_rest) in enumerate(PLAYERS, start=1):
        ro, k, w, _, k_chg, ru = period[str(fide_id)]
        mine = reference[n]
        assert (ro, k, w, k_chg, ru) == (mine[0], mine[1], mine[2], mine[4], mine[5]), n


def test_the_same_words_for_what_the_list_says(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """A rating that differs from the file's and a standard rating used for a rapid one are
    said in the same words by report, check, import-trf and period."""
    source, event = make_event(tmp_path, "rapid")
    differs = "rating differs: 2 Bb, Differs: 2430 in the file, 2440 on the list"
    seven = ("no rapid rating on the list: 5 Ee, Standard is rated with the standard rating 2150 "
             "as a new rapid player (R&B 7.2.1)")  # fmt: skip
    for args in (["report", event], ["check", event], ["import-trf", event, "-o",
                 tmp_path / "e.xlsx"]):  # fmt: skip
        _run(*args, "--list", source)
        said = capsys.readouterr().out
        assert differs in said and seven in said, args
    assert _run("period", source, event, "-o", tmp_path / "next.txt", "--date", "2025-11-01",
                "--next", "2025-12-01", "--rating-type", "rapid") == 0  # fmt: skip
    said = capsys.readouterr().out
    assert f"event.trf: {differs}" in said and f"event.trf: {seven}" in said


def test_a_player_missing_from_the_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player the list does not have is rated with the file's rating by report and the
    workbook alike; the period, which must write his next entry, names him and writes nothing."""
    source, event = make_event(tmp_path, "standard", missing=3012)
    assert _run("report", event, "--list", source, "--csv", tmp_path / "report.csv") == 0
    assert "not on the list: 12 Ll, Twelfth (FIDE ID 3012)" in capsys.readouterr().out
    reference = {n: _normal(f) for n, f in _from_report(tmp_path / "report.csv").items()}
    assert reference[12][0] == Decimal(1650)  # the file's
    for how, path in _workbook_paths(tmp_path, source, event, "standard").items():
        read = _from_report if how.startswith("report") else _from_recalc
        figures = {n: _normal(f) for n, f in read(path).items()}
        assert figures == reference, how
    assert _run("period", source, event, "-o", tmp_path / "next.xlsx", "--date", "2025-11-01",
                "--next", "2025-12-01") == 1  # fmt: skip
    assert "FIDE ID 3012) is not on the list" in capsys.readouterr().err
    assert not (tmp_path / "next.xlsx").exists()


def test_the_example_is_rated_alike_by_report_and_period(tmp_path: Path) -> None:
    """The event as the README's round trip uses it: a rapid round robin's report and the
    period agree on every new rating (Ro + the rounded K x chg)."""
    source, event = make_event(tmp_path, "rapid")
    assert _run("report", event, "--list", source, "--csv", tmp_path / "r.csv") == 0
    reference = _from_report(tmp_path / "r.csv")
    assert _run("period", source, event, "-o", tmp_path / "next.txt", "--date", "2025-11-01",
                "--next", "2025-12-01", "--rating-type", "rapid") == 0  # fmt: skip
    from fide_rating.formats.fidelist import open_list
    from fide_rating.rules.rounding import fide_round

    with open_list(tmp_path / "next.txt") as nxt:
        for n, (fide_id, *_rest) in enumerate(PLAYERS, start=1):
            entry = nxt.get(fide_id)
            assert entry is not None
            ro, _, _, _, k_chg, ru = reference[n]
            if ro is not None:
                assert k_chg is not None
                assert entry.rapid == int(ro) + fide_round(Fraction(str(k_chg))), n
            else:
                assert entry.rapid == ru, n
