"""Shared fixtures: a real headless LibreOffice with the add-in installed.

LibreOffice tests run wherever LibreOffice 25.2 or newer is installed. With CI=true they must
run: a missing LibreOffice fails them. Elsewhere they skip with a message saying how to enable
them (`bash scripts/install-libreoffice.sh`, which `bash scripts/test.sh` runs for you).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from fide_rating.cells.calc import office as lo
from fide_rating.cells.calc.build import BuildError, build, version_text

RELEASE_OXT = Path(__file__).resolve().parent.parent / "release" / "fide-rating.oxt"

# the program's private cache (the key that signs FIDE's list's indexes ...) is the tests' own,
# never the user's: set before any test, and inherited by the commands the tests start
_CACHE = tempfile.mkdtemp(prefix="fide-rating-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)


HOW = "install LibreOffice 25.2 with: bash scripts/install-libreoffice.sh (needs root)"


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"LibreOffice is required in CI: {reason}")
    pytest.skip(f"LibreOffice tests skipped ({reason}); {HOW}")


@pytest.fixture(scope="session")
def oxt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        return build(tmp_path_factory.mktemp("oxt") / "fide-rating.oxt")
    except BuildError as error:
        _unavailable(str(error))


@pytest.fixture(scope="session")
def libreoffice() -> tuple[int, ...]:
    """The installed LibreOffice's version, when it is one the add-in supports."""
    try:
        found = lo.version()
    except lo.OfficeError as error:
        _unavailable(str(error))
    if found[:2] < lo.MINIMUM_VERSION:
        _unavailable(f"LibreOffice {version_text(found)} is older than {version_text()}")
    return found


@pytest.fixture(scope="session")
def office(
    oxt: Path, libreoffice: tuple[int, ...], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[lo.Office]:
    """LibreOffice with the add-in freshly built from these sources."""
    try:
        with lo.office_with_addin(tmp_path_factory.mktemp("profile"), oxt) as running:
            yield running
    except lo.OfficeError as error:
        _unavailable(str(error))


@pytest.fixture(scope="session")
def shipped(
    libreoffice: tuple[int, ...], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[lo.Office]:
    """LibreOffice with the add-in users download, release/fide-rating.oxt as committed. Once
    LibreOffice runs, a problem installing it fails the tests that use it."""
    with lo.office_with_addin(tmp_path_factory.mktemp("shipped-profile"), RELEASE_OXT) as running:
        yield running


@pytest.fixture(scope="session")
def bare_office(
    libreoffice: tuple[int, ...], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[lo.Office]:
    """LibreOffice without the add-in: what a user sees who has not installed it."""
    try:
        with lo.Office(tmp_path_factory.mktemp("bare-profile")) as running:
            yield running
    except lo.OfficeError as error:
        _unavailable(str(error))
