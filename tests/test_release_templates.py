"""The shipped sizes of the crosstable templates, odd round robins among them, and the macro
workbook a user makes with ``fide-rating template --xlsm``."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import pytest

import fide_rating as fr
from fide_rating.commands.cli import main
from fide_rating.engine.recalc import recalc_file
from fide_rating.formats import templates as tpl
from fide_rating.formats import xlsm
from filled import players_of

ROOT = Path(__file__).resolve().parent.parent


def test_every_round_robin_size_is_shipped_odd_and_even() -> None:
    sizes = {(s.system, s.players): s.rounds for s in tpl.SHIPPED}
    for n in range(4, 17):
        assert sizes[("rr", n)] == (n if n % 2 else n - 1)
        assert (ROOT / "templates" / f"rr-{n}.xlsx").is_file()
        assert (ROOT / "templates" / f"rr-{n}.ods").is_file()
    for n in range(4, 11):
        assert sizes[("drr", n)] == 2 * (n if n % 2 else n - 1)
        assert (ROOT / "templates" / f"drr-{n}.ods").is_file()
    assert ("rr", 3) not in sizes and ("rr", 17) not in sizes and ("drr", 11) not in sizes


def test_an_odd_round_robin_with_its_byes_and_a_forfeit(tmp_path: Path) -> None:
    """Five players, five rounds, each sitting one out: the bye is not entered (no cell is
    for it), scores nothing and is not rated; a forfeit (+ and -) scores and is not rated."""
    ratings = [2210, 2105, 1990, 1850, None]
    # row's result against column's; the pairs' cells mirror each other
    table: list[list[object]] = [
        [None, "½", 1, 1, "+"],
        ["½", None, 0, 1, 1],
        [0, 1, None, "½", 1],
        [0, 0, "½", None, "½"],
        ["-", 0, 0, "½", None],
    ]
    players = [tpl.Player(name=n, rating=r, k=20 if r else None)
               for n, r in zip("ABCDE", ratings, strict=True)]  # fmt: skip
    event = tpl.Event(name="Odd", place="Graz", start=dt.date(2025, 11, 1))
    wb = tpl.fill_round_robin(tpl.spec_for("rr", 5), event, players, table)  # type: ignore[arg-type]
    path = tmp_path / "rr-5.xlsx"
    wb.save(path)
    out = recalc_file(path)
    assert out.problems == [] and out.output is not None
    p = players_of(out.output)
    # A: ½ v B, 1 v C, 1 v D, + v E (a forfeit: a point, no game): 3.5 points, 3 rated games
    a = fr.event(2210, [2105, 1990, 1850], [0.5, 1, 1], 20, "2025-10")
    assert (p["A"]["Pts"], p["A"]["Played"], p["A"]["n"]) == (3.5, 3, 3)
    assert p["A"]["K*chg"] == pytest.approx(float(a.k_chg), abs=1e-12)
    # D played E (unrated): 4 games, 3 of them rated
    d = fr.event(1850, [2210, 2105, 1990], [0, 0, 0.5], 20, "2025-10")
    assert (p["D"]["Pts"], p["D"]["Played"], p["D"]["n"]) == (1.0, 4, 3)
    assert p["D"]["K*chg"] == pytest.approx(float(d.k_chg), abs=1e-12)
    # E, unrated: the forfeit loss is no game; 3 games against rated opponents
    assert (p["E"]["Pts"], p["E"]["Played"], p["E"]["n"]) == (0.5, 3, 3)


def test_template_writes_a_macro_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "rr-9.xlsm"
    assert main(["template", "rr", "--players", "9", "--xlsm", "-o", str(target)]) == 0
    assert target.read_bytes() == (ROOT / "release" / "xlwings-classic" / "rr-9.xlsm").read_bytes()
    assert capsys.readouterr().out.strip() == f"wrote {target}"
    with zipfile.ZipFile(target) as book:
        assert "xl/vbaProject.bin" in book.namelist()
    # the other side: an .xlsx name, both kinds at once, an existing file
    assert main(["template", "rr", "--players", "9", "--xlsm", "-o", str(tmp_path / "a.xlsx")]) == 2
    assert "ending in .xlsm" in capsys.readouterr().err
    assert main(["template", "rr", "--xlsm", "--ods"]) == 2
    assert "expected --xlsm or --ods, got: both" in capsys.readouterr().err
    assert main(["template", "rr", "--players", "9", "--xlsm", "-o", str(target)]) == 2
    assert "--force" in capsys.readouterr().err


def test_without_xlwings_the_macro_workbook_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.metadata
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "xlwings" else real(name, *a))  # fmt: skip
    with pytest.raises(fr.FideInputError, match="install xlwings"):
        xlsm.standalone()

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    with pytest.raises(fr.FideInputError, match="install xlwings"):
        xlsm.xlwings_version()
    assert main(["template", "rr", "--xlsm", "-o", str(tmp_path / "x.xlsm")]) == 2
    assert "install xlwings" in capsys.readouterr().err
    assert not (tmp_path / "x.xlsm").exists()
