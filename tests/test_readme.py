"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples() -> None:
    failures, tried = doctest.testfile(str(README), module_relative=False)
    assert tried >= 9
    assert failures == 0
