"""The single main.py for xlwings Lite (run in real Pyodide by test_xlwings_lite.py)."""

from __future__ import annotations

from fide_rating.cells.lite import bundle


def test_bundle_is_reproducible() -> None:
    assert bundle() == bundle()
