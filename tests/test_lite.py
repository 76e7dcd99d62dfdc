"""The single main.py for xlwings Lite works on its own."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from fide_rating.cells.lite import bundle
from fide_rating.commands.cli import main


def test_main_py_runs_without_the_package(tmp_path: Path) -> None:
    assert main(["build-lite", "-o", str(tmp_path / "main.py")]) == 0
    script = textwrap.dedent(
        f"""
        import sys
        sys.path = [p for p in sys.path if "addin" not in p and "site-packages" not in p]
        sys.modules.pop("fide_rating", None)
        # a stand-in for xlwings Lite's module: its decorators
        import types
        xw = types.ModuleType("xlwings")
        xw.func = lambda f=None, **kw: f if f else (lambda g: g)
        xw.arg = lambda *a, **kw: (lambda g: g)
        sys.modules["xlwings"] = xw
        ns = {{}}
        exec(open({str(tmp_path / "main.py")!r}).read(), ns)
        import fide_rating
        assert "site-packages" not in fide_rating.__file__ and "addin" not in fide_rating.__file__
        print(ns["FIDE_EXPECT"](2600.0, 2500.0, None, "2012-07"), ns["FIDE_CHANGE"](2000.0, [[1063.0]], [[1.0]], 20.0, "2022-01"))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0.64", "1.6"]


def test_bundle_is_reproducible() -> None:
    assert bundle() == bundle()
