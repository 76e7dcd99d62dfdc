"""The crosstable templates: shipped and fresh, and filled ones giving FIDE's figures."""

from __future__ import annotations

import datetime as dt
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

import fide_rating as fr
from fide_rating.engine.recalc import recalc_file
from fide_rating.formats import layout
from fide_rating.formats import templates as tpl
from filled import players_of, seed_round_robin, small_swiss

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "templates"


@pytest.mark.parametrize("spec", tpl.SHIPPED, ids=lambda s: s.name)
def test_shipped_templates_are_fresh(spec: tpl.Spec, tmp_path: Path) -> None:
    committed = SHIPPED / f"{spec.name}.xlsx"
    fresh = tpl.write(spec, tmp_path / committed.name)
    with zipfile.ZipFile(committed) as a, zipfile.ZipFile(fresh) as b:
        assert sorted(a.namelist()) == sorted(b.namelist())
        for name in a.namelist():
            if name != "docProps/core.xml":  # its modification time
                assert a.read(name) == b.read(name), f"{name}: run fide-rating template --all"
    assert (SHIPPED / f"{spec.name}.ods").exists(), "run: fide-rating template --all --ods"


def test_seed_000_round_robin_example_2012(tmp_path: Path) -> None:
    path = tmp_path / "seed.xlsx"
    seed_round_robin().save(path)
    out = recalc_file(path)
    assert out.problems == []
    assert out.output is not None
    p = players_of(out.output)
    # the unrated: Rc, Ru before and after the correction (B.02 2012, Hungarian translation, 8.58)
    expected = {"C": (2348, 2423, 2348, 2423), "E": (2348, 2393, 2348, 2393),
                "H": (2348, 2150, 2342, 2144), "I": (2348, 2032, 2322, 2006)}  # fmt: skip
    for name, (rc1, ru1, rc, ru) in expected.items():
        assert (p[name]["Rc 1st"], p[name]["Ru 1st"], p[name]["Rc/Ra"], p[name]["Ru"]) == (
            rc1,
            ru1,
            rc,
            ru,
        )
        assert p[name]["Initial"] == ru  # 2012-07 7.14 a: a round robin's 9 games all count
    # the rated: expected scores and K x chg (F's printed +44.3 is a misprint for 43.5)
    we = {"A": 7.36, "B": 6.48, "D": 5.40, "F": 2.55, "G": 4.21, "J": 4.21}
    kchg = {"A": 12.8, "B": 10.4, "D": 12.0, "F": 43.5, "G": -36.3, "J": -96.3}
    for name, want in we.items():
        assert p[name]["We"] == pytest.approx(want, abs=1e-9)
        assert p[name]["K*chg"] == pytest.approx(kchg[name], abs=1e-9)
    assert p["A"]["New"] == 2613
    assert [p[n]["Pts"] for n in "ABCDEFGHIJ"] == [8, 7, 7, 6, 6, 4, 3, 2, 1, 1]


def test_seed_000_round_robin_example_2005(tmp_path: Path) -> None:
    path = tmp_path / "seed2005.xlsx"
    seed_round_robin(dt.date(2007, 5, 1)).save(path)
    out = recalc_file(path)
    assert out.output is not None
    p = players_of(out.output)
    expected = {
        "C": (2411, 2351, 2414),
        "E": (2386, 2348, 2386),
        "H": (2150, 2337, 2139),
        "I": (2032, 2305, 1989),
    }
    for name, (ru1, rc, ru) in expected.items():
        assert (p[name]["Ru 1st"], p[name]["Rc/Ra"], p[name]["Ru"]) == (ru1, rc, ru)
        # 2005-07 9.14 (a): in a round robin (6.3) 9 games, all of them counting
        assert p[name]["Initial"] == ru


def test_small_swiss_matches_the_core(tmp_path: Path) -> None:
    path = tmp_path / "swiss.xlsx"
    small_swiss().save(path)
    out = recalc_file(path)
    assert out.problems == []
    assert out.output is not None
    p = players_of(out.output)
    ed = fr.get_edition(dt.date(2024, 5, 10))
    # Alpha: v Delta (unrated: not rated), v Bravo ½, v Charlie 1
    alpha = fr.event(2410, [2105, 1950], [0.5, 1], 10, ed)
    assert p["Alpha"]["K"] == 10 and p["Alpha"]["n"] == 2 and p["Alpha"]["Pts"] == 2.5
    assert p["Alpha"]["K*chg"] == float(alpha.k_chg) and p["Alpha"]["We"] == float(alpha.we)
    assert p["Alpha"]["Rc/Ra"] == float(alpha.rc)  # type: ignore[arg-type]
    # Bravo: junior in 2024 (born 2010, 40 games): K 40; the forfeit win counts 1 point, not rated
    assert p["Bravo"]["K"] == 40 and p["Bravo"]["Pts"] == 2.5 and p["Bravo"]["n"] == 2
    bravo = fr.event(2105, [1720, 2410], [1, 0.5], 40, ed)
    assert p["Bravo"]["K*chg"] == float(bravo.k_chg)
    # Delta, unrated: 3 games against rated opponents, not enough
    assert p["Delta"]["Initial"] == "not rated: 3 games against rated opponents, 5 needed"
    assert p["Delta"]["New"] is None
    # Echo: K from the list
    assert p["Echo"]["K"] == 20
    assert p["Charlie"]["New"] == 1950 + fr.fide_round(Fraction(str(p["Charlie"]["K*chg"])))


def test_template_validation_and_names() -> None:
    wb = tpl.build(tpl.spec_for("swiss", 20, 5))
    ws = wb["Players"]
    kinds = sorted(dv.type or "" for dv in ws.data_validations.dataValidation)
    assert kinds == ["list", "list", "list", "whole", "whole", "whole"]
    assert "FIDE_PLAYERS" in wb.defined_names
    assert wb.sheetnames == ["Instructions", "Event", "Players", "Chart"]
    assert wb["Event"]["B7"].value == "=FIDE_EDITION(Event!$B$5,Event!$B$8)"
    with pytest.raises(ValueError, match="500 players"):
        tpl.spec_for("swiss", 501, 9)


def test_empty_template_recalculates_without_errors(tmp_path: Path) -> None:
    out = recalc_file(SHIPPED / "rr-8.xlsx", out_dir=tmp_path)
    assert out.problems == []
    texts = [v for v in out.values.values() if isinstance(v, str) and v.startswith("#FIDE")]
    assert texts == []


def test_a_bad_result_shows_as_an_error_never_a_blank_or_a_number(tmp_path: Path) -> None:
    """A mistyped result: every figure built on it shows the error (n, Rc, K*chg, New), none
    turns it into a blank or a plausible number."""
    wb = small_swiss()
    ws = wb["Players"]
    titles = {c.value: c.column for c in ws[layout.HEADER_ROW - 1] if c.value is not None}
    first_result = titles["Result"]
    ws.cell(layout.FIRST + 2, first_result).value = "7"  # Charlie's first result
    path = tmp_path / "bad.xlsx"
    wb.save(path)
    out = recalc_file(path)
    assert out.output is not None
    charlie = players_of(out.output)["Charlie"]
    for column in ("Pts", "n", "Rc/Ra", "W", "We", "K", "K*chg", "Rp"):
        value = charlie[column]
        assert value == "#FIDE! results: expected 1, 0.5 or 0, got '7'", (column, value)
    assert charlie["New"] == "#VALUE!"  # Ro + an error text: Excel's own error
    assert players_of(out.output)["Alpha"]["New"] not in (None, "")  # the others unaffected
