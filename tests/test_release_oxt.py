"""The shipped Calc add-in, release/fide-rating.oxt: what Windows and macOS users download.

It is the build of these sources (a rebuild gives the same members, byte for byte; the build
is reproducible), it describes itself (name, text, publisher, version, licence, minimum
LibreOffice version), and the very file committed installs into a real LibreOffice and
computes. Refresh it with ``fide-rating build-oxt -o release/fide-rating.oxt --force``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from xml.etree import ElementTree

import pytest

from calc_cases import CASES, expected, workbook
from conftest import RELEASE_OXT
from fide_rating import __version__
from fide_rating.cells.calc import build as b
from fide_rating.cells.calc import office as lo

ROOT = Path(__file__).resolve().parent.parent
REFRESH = "fide-rating build-oxt -o release/fide-rating.oxt --force"
NS = {
    "d": "http://openoffice.org/extensions/description/2006",
    "lo": "http://libreoffice.org/extensions/description/2011",
    "xlink": "http://www.w3.org/1999/xlink",
}


Entry = tuple[str, tuple[int, ...], int, int, int, bytes]


def entries(path: Path) -> list[Entry]:
    """Each member with what a rebuild must reproduce: name (in order), date, system, mode,
    compression and content. The compressed bytes are left out: another zlib may deflate the
    same content differently."""
    with zipfile.ZipFile(path) as z:
        return [(i.filename, i.date_time, i.create_system, i.external_attr, i.compress_type,
                 z.read(i)) for i in z.infolist()]  # fmt: skip


def expected_entries(rdb: bytes) -> list[Entry]:
    return [(name, b.ZIP_DATE, 3, b.ZIP_MODE << 16, zipfile.ZIP_DEFLATED, data)
            for name, data in b.members(rdb)]  # fmt: skip


def stale_members(got: Sequence[Entry], want: Sequence[Entry]) -> list[str]:
    """The members that differ (or the list of names, when it differs)."""
    names = [e[0] for e in want]
    if [e[0] for e in got] != names:
        return [f"members {[e[0] for e in got]} != {names}"]
    return [w[0] for g, w in zip(got, want, strict=True) if g != w]


def shipped_rdb() -> bytes:
    with zipfile.ZipFile(RELEASE_OXT) as z:
        return z.read("FideRating.rdb")


def test_the_shipped_oxt_carries_these_sources() -> None:
    """Everything but the compiled type library, checked without LibreOffice: a change to the
    registry, the rules core, the cell layer or the version makes the shipped file stale."""
    assert RELEASE_OXT.exists(), f"missing: run {REFRESH}"
    stale = stale_members(entries(RELEASE_OXT), expected_entries(shipped_rdb()))
    assert stale == [], f"release/fide-rating.oxt is stale ({stale}): run {REFRESH}"


def test_the_staleness_check_can_fail() -> None:
    want = expected_entries(shipped_rdb())
    changed = [*want[:4], (*want[4][:5], want[4][5] + b" "), *want[5:]]
    assert stale_members(changed, want) == [want[4][0]]
    assert stale_members(want[1:], want)


def test_the_shipped_oxt_is_a_fresh_build(oxt: Path) -> None:
    """The whole file, the .rdb that unoidl-write compiles from the IDL included."""
    fresh = entries(oxt)
    assert fresh == expected_entries(b.compile_idl())
    stale = stale_members(entries(RELEASE_OXT), fresh)
    assert stale == [], f"release/fide-rating.oxt is stale ({stale}): run {REFRESH}"


def test_the_build_is_reproducible(oxt: Path, tmp_path: Path) -> None:
    """Built again elsewhere (another folder, another working directory, later), the file is
    byte for byte the same, and it holds no path of the machine that built it."""
    other = tmp_path / "elsewhere" / "again.oxt"
    done = subprocess.run(
        [sys.executable, "-m", "fide_rating.cells.calc.build", "-o", str(other)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert other.read_bytes() == oxt.read_bytes()
    machine = [str(ROOT), str(tmp_path), str(oxt.parent), str(Path.home()),
               str(b.find_program_dir()), "/tmp/", "fide-oxt-"]  # fmt: skip
    for name, *_, data in entries(oxt):
        for path in machine:
            assert path.encode() not in data, f"{name} holds {path}"
        assert not name.startswith("/") and ".." not in name and "__pycache__" not in name


def test_the_description_says_what_it_is() -> None:
    with zipfile.ZipFile(RELEASE_OXT) as z:
        root = ElementTree.fromstring(z.read("description.xml"))
        names = set(z.namelist())

        def member(element: str) -> str:
            node = root.find(element, NS)
            assert node is not None, element
            href = node.get(f"{{{NS['xlink']}}}href")
            assert href in names, href
            return z.read(href).decode("utf-8")

        text = member("d:extension-description/d:src")
        licence = member("d:registration/d:simple-license/d:license-text")

    def value(path: str, attribute: str = "value") -> str | None:
        node = root.find(path, NS)
        return None if node is None else (node.get(attribute) if attribute else node.text)

    assert value("d:identifier") == b.IDENTIFIER
    assert value("d:version") == __version__
    assert value("d:platform") == "all"
    assert value("d:display-name/d:name", "") == "FIDE rating functions"
    assert value("d:publisher/d:name", "") == b.PUBLISHER
    assert "FIDE_EXPECT" in text and "LibreOffice 25.2" in text
    # the licence the project declares (pyproject.toml), in full
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = \{ text = "MIT" \}$', pyproject, re.MULTILINE)
    assert licence.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in licence
    # the minimum LibreOffice is the version the tests require (conftest.py refuses older)
    minimum = root.find("d:dependencies/lo:LibreOffice-minimal-version", NS)
    assert minimum is not None and minimum.get("value") == "25.2"
    assert lo.MINIMUM_VERSION == (25, 2)


def test_the_shipped_oxt_computes_in_libreoffice(shipped: lo.Office, tmp_path: Path) -> None:
    """The committed file, not a fresh build: installed into a fresh profile, every function
    computes in an .xlsx as the cell layer says, and the Extension Manager shows who it is."""
    [found] = shipped.extensions()
    assert found["identifier"] == b.IDENTIFIER
    assert found["name"] == "FIDE rating functions"
    assert found["version"] == __version__
    assert found["publisher"] == b.PUBLISHER
    assert found["description"].startswith("The FIDE Rating Regulations")
    path = tmp_path / "cases.xlsx"
    workbook().save(path)
    doc = shipped.open(path)
    try:
        doc.calculateAll()
        sheet = doc.Sheets.getByName("Calc")
        for row, ((formula, _), want) in enumerate(zip(CASES, expected(), strict=True)):
            cell = sheet.getCellByPosition(0, row)
            assert cell.getError() == 0, f"{formula}: error {cell.getError()}"
            got = cell.getString() if isinstance(want, str) else cell.getValue()
            assert got == want, formula
    finally:
        doc.close(True)


def variant(tmp_path: Path, name: str, **replace: bytes) -> Path:
    """The shipped extension with some members replaced."""
    files = [(n, replace.get(n, d)) for n, d in b.members(shipped_rdb())]
    path = tmp_path / name
    with path.open("wb") as out:
        b.pack(files, out)
    return path


def test_an_older_libreoffice_refuses_it(libreoffice: tuple[int, ...], tmp_path: Path) -> None:
    """LibreOffice reads the minimum version: the shipped one (25.2) installs (see above), the
    same extension asking for a version just above the running one is refused."""
    newer = f"{libreoffice[0]}.{libreoffice[1]}.{libreoffice[2] + 1}"
    too_new = variant(tmp_path, "too-new.oxt",
                      **{"description.xml": b.description_text(newer).encode()})  # fmt: skip
    with lo.Office(tmp_path / "profile") as running:
        with pytest.raises(lo.OfficeError, match=r"refused too-new\.oxt"):
            running.install(too_new)
        assert running.extensions() == []


def test_a_core_that_cannot_load_says_so_in_the_cell(
    libreoffice: tuple[int, ...], tmp_path: Path
) -> None:
    """What a LibreOffice whose Python is older than 3.10 does with the rules core (a
    TypeError at import): the extension still installs and every function shows why."""
    broken = b"raise TypeError(\"dataclass() got an unexpected keyword argument 'slots'\")\n"
    oxt = variant(tmp_path, "broken.oxt", **{"pythonpath/fide_rating/__init__.py": broken})
    path = tmp_path / "one.xlsx"
    book = workbook()
    book["Calc"]["A1"] = "=FIDE_ROUND(2.5)"
    book.save(path)
    with lo.office_with_addin(tmp_path / "profile", oxt) as running:
        doc = running.open(path)
        try:
            doc.calculateAll()
            cell = doc.Sheets.getByName("Calc").getCellByPosition(0, 0)
            assert cell.getString() == (
                "#FIDE! the add-in could not load: TypeError: dataclass() got an unexpected "
                "keyword argument 'slots'"
            )
        finally:
            doc.close(True)


def test_build_oxt_help_says_where_it_writes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fide_rating.commands.cli", "build-oxt", "--help"],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "200"},
    )  # fmt: skip
    text = " ".join(done.stdout.split())
    assert "Writes dist/fide-rating.oxt unless -o names another file" in text
    assert "(default: dist/fide-rating.oxt)" in text
    assert f"fide-rating build-oxt -o {b.RELEASE} --force" in text
    assert f"fide-rating build-oxt -o {b.RELEASE} --force" == REFRESH
    assert "FIDE_LO_PROGRAM" in text


def unopkg(libreoffice: tuple[int, ...]) -> list[str]:
    """``unopkg`` run as an ordinary user, as the README says (as root it refuses a user
    install): as this user, or, under root, as nobody through setpriv."""
    found = shutil.which("unopkg") or str(b.find_program_dir() / "unopkg")
    if os.geteuid() != 0:
        return [found]
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to run unopkg as an ordinary user"
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", found]


def test_unopkg_add_as_the_readme_says(libreoffice: tuple[int, ...]) -> None:
    """``unopkg add fide-rating.oxt``, answering the licence question: yes installs the
    shipped file, no leaves nothing installed."""
    home = Path(tempfile.mkdtemp(prefix="fide-unopkg-"))  # an ordinary user must reach it
    try:
        home.chmod(0o777)
        shutil.copyfile(RELEASE_OXT, home / "fide-rating.oxt")
        (home / "fide-rating.oxt").chmod(0o644)
        installed = {}
        for answer in ("yes", "no"):
            profile = f"-env:UserInstallation={(home / answer).as_uri()}"
            env = {**lo.office_environment(), "HOME": str(home)}
            done = subprocess.run(
                [*unopkg(libreoffice), "add", profile, "fide-rating.oxt"],
                input=f"{answer}\n", cwd=home, env=env, capture_output=True, text=True,
                check=False, timeout=120,
            )  # fmt: skip
            assert "MIT License" in done.stdout, done.stdout + done.stderr
            listed = subprocess.run(
                [*unopkg(libreoffice), "list", profile], cwd=home, env=env,
                capture_output=True, text=True, check=False, timeout=120,
            )  # fmt: skip
            installed[answer] = listed.stdout
        assert f"Identifier: {b.IDENTIFIER}" in installed["yes"]
        assert f"Version: {__version__}" in installed["yes"]
        assert b.IDENTIFIER not in installed["no"]
    finally:
        shutil.rmtree(home, ignore_errors=True)
