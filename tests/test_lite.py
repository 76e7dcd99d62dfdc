"""The single main.py for xlwings Lite (run in real Pyodide by test_xlwings_lite.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fide_rating import __version__
from fide_rating.cells.lite import bundle


def test_bundle_is_reproducible() -> None:
    assert bundle() == bundle()


def test_the_bundle_writes_nothing_and_follows_no_planted_link(tmp_path: Path) -> None:
    """main.py imports its package from memory: another user who plants a link at the name
    the older bundles wrote to (the shared temporary folder, a fixed name) gets nothing
    written through it, and the temporary folder stays as it was."""
    shared = tmp_path / "tmp"
    shared.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file")
    (shared / f"fide_rating-{__version__}.zip").symlink_to(victim)
    (tmp_path / "main.py").write_text(bundle(), encoding="utf-8")
    probe = (
        "import main, sys, fide_rating.rules.ratable as r\n"
        "print(main.FIDE_EXPECT(2000.0, 1600.0))\n"
        "print(r.__spec__.origin, type(r.__loader__).__name__)\n"
    )
    env = {**os.environ, "TMPDIR": str(shared), "TEMP": str(shared), "TMP": str(shared)}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
        check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figure, origin = done.stdout.splitlines()
    assert figure == "0.92"
    assert origin == "<main.py>/fide_rating/rules/ratable.py _Embedded"
    assert victim.read_text() == "the user's own file"
    assert [p.name for p in shared.iterdir()] == [f"fide_rating-{__version__}.zip"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main.py", "tmp", "victim.txt"]
