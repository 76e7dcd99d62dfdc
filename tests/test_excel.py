# mypy: disable-error-code=no-untyped-call
"""The xlwings functions, called the way Excel calls them (they stay plain callables)."""

from __future__ import annotations

import datetime as dt
import inspect

from fide_rating import excel
from fide_rating.cells import REGISTRY
from fide_rating.cells.generate import stale


def test_generated_artefacts_are_fresh() -> None:
    assert stale() == [], "run: python -m fide_rating.cells.generate"


def test_every_registry_function_is_exported_with_its_help() -> None:
    for fn in REGISTRY:
        f = getattr(excel, fn.name)
        assert f.__doc__ == fn.help
        params = inspect.signature(f).parameters
        assert list(params) == [p.name for p in fn.params]
        assert [v.default is None for v in params.values()] == [p.optional for p in fn.params]


def test_calls_as_excel_makes_them() -> None:
    column = [[1063.0], [1299.0], [1413.0], [1872.0], [1851.0], [1427.0], [1682.0]]
    results = [[1.0], [1.0], [1.0], [0.5], [0.0], [1.0], [1.0]]
    assert excel.FIDE_CHANGE(2000.0, column, results, 20.0, "2022-01") == -12.2
    assert excel.FIDE_CHANGE(2000.0, column, results, 20.0, dt.datetime(2022, 5, 1)) == -12.2
    assert excel.FIDE_EXPECT(2000.0, 1600.0) == 0.92
    assert excel.FIDE_EXPECT(2000.0, column, results, "2022-01") == 6.11
    assert excel.FIDE_DP(0.57) == 50
    assert excel.FIDE_K(2100.0, 12.0, 2001.0, False, None, None) == 40
    assert excel.FIDE_PERF([[2300.0] * 10], [[1.0] * 8 + [0.0] * 2]) == 2540
    assert excel.FIDE_ROUND(-17.5) == -18
    assert excel.FIDE_ADJUST2024(1999.0) == 1999
    assert excel.FIDE_EDITION(dt.datetime(2012, 7, 1)) == "2012-07"
    assert excel.FIDE_INITIAL([[1766.0]] * 5, [[0.5]] + [[0.0]] * 4, "2014-07") == 1400
    # error cells arrive as None: a readable text, never a traceback
    assert excel.FIDE_CHANGE(None, column, results, 20.0) == "#FIDE! rating: missing (required)"
