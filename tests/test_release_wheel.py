"""The shipped wheel, release/fide_rating-VERSION-py3-none-any.whl: what a user without a clone
installs (pip or pipx) to have the ``fide-rating`` command.

It is a fresh build of these sources (a rebuild has the same members, byte for byte), the
build is reproducible (two builds are the same bytes), and the very file committed installs
into a new virtual environment, with its dependencies, and runs: ``fide-rating event`` prints
FIDE's figures. Refresh it with ``bash scripts/build-release.sh``.
"""

from __future__ import annotations

import calendar
import email.parser
import importlib.util
import os
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

import fide_rating as fr

ROOT = Path(__file__).resolve().parent.parent
REFRESH = "bash scripts/build-release.sh"


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_wheel", ROOT / "scripts" / "build_wheel.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _builder()
SHIPPED = ROOT / "release" / BUILD.wheel_name()

Entry = tuple[str, tuple[int, ...], int, int, bytes]


def entries(path: Path) -> list[Entry]:
    """What a rebuild must reproduce: names in order, dates, modes, compression, content (the
    compressed bytes may differ with another zlib)."""
    with zipfile.ZipFile(path) as z:
        return [(i.filename, i.date_time, i.external_attr, i.compress_type, z.read(i))
                for i in z.infolist()]  # fmt: skip


def test_two_builds_are_the_same_bytes(tmp_path: Path) -> None:
    one = BUILD.build(tmp_path / "one")
    two = BUILD.build(tmp_path / "two")
    assert one.read_bytes() == two.read_bytes()


def test_the_date_is_source_date_epoch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    default = BUILD.build(tmp_path / "default")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225601")  # 2026-01-01 00:00:01 UTC
    dated = BUILD.build(tmp_path / "dated")
    with zipfile.ZipFile(default) as a, zipfile.ZipFile(dated) as b:
        assert {i.date_time for i in a.infolist()} == {(2025, 1, 1, 0, 0, 0)}
        assert {i.date_time for i in b.infolist()} == {(2026, 1, 1, 0, 0, 0)}  # zip: 2 s steps
        assert [a.read(n) for n in a.namelist()] == [b.read(n) for n in b.namelist()]


def test_the_builder_refuses_to_replace_a_wheel(tmp_path: Path) -> None:
    BUILD.build(tmp_path)
    with pytest.raises(FileExistsError):
        BUILD.build(tmp_path)
    BUILD.build(tmp_path, force=True)


def test_the_shipped_wheel_is_fresh(tmp_path: Path) -> None:
    assert SHIPPED.is_file(), f"{SHIPPED.name} is missing: run {REFRESH}"
    with zipfile.ZipFile(SHIPPED) as z:
        year, month, day, hour, minute, second = z.infolist()[0].date_time
    epoch = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    fresh = BUILD.build(tmp_path, epoch=epoch)
    got, want = entries(SHIPPED), entries(fresh)
    assert [e[0] for e in got] == [e[0] for e in want], f"run {REFRESH}"
    stale = [g[0] for g, w in zip(got, want, strict=True) if g != w]
    assert stale == [], f"stale in {SHIPPED.name}: {stale[:10]}: run {REFRESH}"
    assert sorted(p.name for p in SHIPPED.parent.glob("*.whl")) == [SHIPPED.name]


def test_the_wheel_holds_every_file_of_the_package() -> None:
    package = ROOT / "addin" / "fide_rating"
    on_disk = {p.relative_to(package.parent).as_posix() for p in package.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}  # fmt: skip
    with zipfile.ZipFile(SHIPPED) as z:
        names = set(z.namelist())
        meta = email.parser.Parser().parsestr(z.read(f"{BUILD.dist_info()}/METADATA").decode())
        record = z.read(f"{BUILD.dist_info()}/RECORD").decode().splitlines()
        scripts = z.read(f"{BUILD.dist_info()}/entry_points.txt").decode()
    assert {n for n in names if not n.startswith(BUILD.dist_info())} == on_disk
    assert "fide_rating/cells/calc/CalcAddIns.xcu" in names  # build-oxt needs it
    assert meta["Name"] == "fide-rating" and meta["Version"] == fr.__version__
    assert (meta.get_all("Requires-Dist") or [])[:2] == ["openpyxl>=3.1", "defusedxml>=0.7"]
    assert "fide-rating = fide_rating.commands.cli:main" in scripts.splitlines()
    assert {line.split(",")[0] for line in record} == names


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the committed wheel installed (its dependencies from
    the package index): the ``fide-rating`` it has."""
    venv = tmp_path_factory.mktemp("venv") / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         str(SHIPPED)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        why = f"pip could not install the wheel: {done.stderr[-800:]}"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return bin_dir / ("fide-rating.exe" if os.name == "nt" else "fide-rating")


def run(command: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    return subprocess.run([str(command), *args], capture_output=True, text=True, env=env,
                          cwd=cwd, check=False)  # fmt: skip


def test_the_installed_command_gives_a_figure(installed: Path, tmp_path: Path) -> None:
    opponents = [1063, 1299, 1413, 1872, 1851, 1427, 1682]
    results = [1, 1, 1, 0.5, 0, 1, 1]
    done = run(installed, "event", "2000", "--opponents", ",".join(map(str, opponents)),
               "--results", ",".join(map(str, results)), "-k", "20", "--edition", "2022-01",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    calc = fr.event(2000, opponents, results, k=20, edition="2022-01")
    assert calc.k_chg == Fraction(-61, 5)
    assert f"K x chg = {float(calc.k_chg):.2f}" in done.stdout
    assert calc.rc is not None and f"{int(calc.rc)}   2000" in done.stdout


def test_the_installed_package_is_the_wheel_not_the_clone(installed: Path, tmp_path: Path) -> None:
    python = installed.parent / ("python.exe" if os.name == "nt" else "python")
    where = run(python, "-c", "import fide_rating; print(fide_rating.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).parts[-2:] == ("fide_rating", "__init__.py")
    assert ROOT not in Path(where.stdout.strip()).parents
    version = run(installed, "--version", cwd=tmp_path)
    assert version.stdout.strip() == f"fide-rating {fr.__version__}"
    assert run(python, "-m", "pip", "check", cwd=tmp_path).returncode == 0


def test_the_installed_wheel_writes_a_template(installed: Path, tmp_path: Path) -> None:
    """openpyxl came with it: a workbook command works, and odd sizes are there."""
    done = run(installed, "template", "rr", "--players", "9", "-o", "rr-9.xlsx", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "rr-9.xlsx").read_bytes() == (ROOT / "templates" / "rr-9.xlsx").read_bytes()


def test_without_xlwings_the_installed_command_says_what_to_install(
    installed: Path, tmp_path: Path
) -> None:
    """The wheel alone brings no xlwings: --xlsm says so, with no traceback and no file."""
    done = run(installed, "template", "rr", "--players", "9", "--xlsm", "-o", "rr-9.xlsm",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("fide-rating: a macro workbook for classic xlwings")
    assert "pip install xlwings" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "rr-9.xlsm").exists()
