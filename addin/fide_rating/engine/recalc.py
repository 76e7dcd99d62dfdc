"""Headless recomputation of .xlsx/.xlsm workbooks.

The package is read part by part (:mod:`fide_rating.engine.package`) into a book of cells
(:mod:`.load`, :mod:`.book`); every formula the engine can evaluate is computed
(:mod:`.order`); then the package is written back with only the formula cells' values
changed. A formula the engine cannot evaluate keeps its cell exactly as it was, and is
reported, and so is every formula that depends on it.

May import: the rest of :mod:`fide_rating.engine`, :mod:`fide_rating.files` and the standard
library.
"""

from __future__ import annotations

import glob
import os
import re
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..files import clean_stale, dangling
from .book import Book, Circular, Computed, NotComputed, Problem
from .formula import Value, col_letters, col_number
from .formula.coerce import CODE_PAGE, DATE_OFFSET
from .functions.base import MOMENT
from .load import load
from .order import compute_all, iterate, readers_of, volatile_cells
from .package import (
    BOOK,
    DATE1904,
    WorkbookError,
    iteration,
    patch_part,
    read_file,
    read_package,
    set_constants,
    settle_calculation,
    write_package,
)
from .udfs import SESSION, Function, Session


@dataclass
class Recalculated:
    """The outcome for one workbook."""

    source: Path
    output: Path | None = None
    formulas: int = 0
    computed: int = 0
    changed: int = 0
    problems: list[Problem] = field(default_factory=list)
    values: Mapping[tuple[str, int, int], Value] = field(default_factory=dict)
    players: list[dict[str, Value]] = field(default_factory=list)
    set_cells: int = 0  # constant cells set before computing (FIDE's list)
    # cells whose value rests on a volatile function (RAND, NOW ...): new at every calculation,
    # so never compared with a value saved before
    volatile: set[tuple[str, int, int]] = field(default_factory=set)
    # cells whose xlwings function (recalc --udfs) raised: they show its error text
    raised: list[Problem] = field(default_factory=list)


# given what a workbook holds (its cells' values by sheet, row and column), the constant cells
# to set before computing (a feature above the engine decides them: FIDE's list in a template)
Constants = Callable[[Callable[[str, int, int], Value], dict[str, tuple[int, int]]],
                     dict[tuple[str, int, int], Value]]  # fmt: skip


def evaluate(
    data: bytes,
    source: Path,
    constants: Constants | None = None,
    udfs: Mapping[str, Function] | None = None,
    moment: datetime | None = None,
) -> tuple[Recalculated, list[zipfile.ZipInfo], dict[str, bytes]]:
    """Evaluate every formula of a workbook given as bytes; the patched parts come back.

    The package is read directly (the parts openpyxl would read, in one pass per sheet): the
    formulas of a shared-formula group compile once and serve every cell of the group. With
    ``constants``, the cells it names are set first and written into the package too. With
    ``udfs`` (:func:`.udfs.load`), the cells calling those xlwings functions are computed.
    With ``moment``, TODAY and NOW give that date and time, not the computer's clock.
    """
    infos, parts = read_package(data, source.name)
    # the workbook's date system, for every date the functions compute or read in a text
    token = DATE_OFFSET.set(1462 if DATE1904.search(parts.get("xl/workbook.xml", b"")) else 0)
    # CHAR and CODE: the character set of the computer the workbook was saved on
    mac = b"Macintosh" in parts.get("docProps/app.xml", b"")
    page = CODE_PAGE.set("mac_roman" if mac else "cp1252")
    session = Session(udfs, parts) if udfs else None
    functions = SESSION.set(session)
    when = None if moment is None else MOMENT.set(moment)  # else as set around the call
    try:
        outcome, infos, parts = _evaluate(infos, parts, source, constants)
        if session is not None:
            outcome.raised = [Problem(*said) for said in session.raised]
        return outcome, infos, parts
    finally:
        if when is not None:
            MOMENT.reset(when)
        SESSION.reset(functions)
        CODE_PAGE.reset(page)
        DATE_OFFSET.reset(token)


def _evaluate(
    infos: list[zipfile.ZipInfo],
    parts: dict[str, bytes],
    source: Path,
    constants: Constants | None,
) -> tuple[Recalculated, list[zipfile.ZipInfo], dict[str, bytes]]:
    settings = iteration(parts.get(BOOK, b""))
    loaded = load(parts, keep_stored=settings is not None)
    book, pending, where = loaded.book, loaded.pending, loaded.where
    outcome = Recalculated(source, formulas=loaded.formulas, problems=loaded.problems)
    set_now: dict[tuple[str, int, int], Value] = {}
    if constants is not None:
        set_now = constants(lambda s, r, c: book.results.get((s, r, c)), dict(book.extents))
        for key, value in set_now.items():
            if key not in book.compiled:
                book.results[key] = value
    if settings is not None:
        book.iterating = True
        book.previous = {k: loaded.cached[k[0]].get(k[1:]) for k in pending}
    failed = compute_all(book, pending, loaded.sources, loaded.compiler)
    if settings is not None and book.cyclic:
        failed = iterate(book, pending, loaded.sources, loaded.compiler, failed, *settings)
    for key, why in failed.items():
        outcome.problems.append(Problem(key[0], f"{col_letters(key[2])}{key[1]}", why))
    outcome.volatile = volatile_cells(book, pending, loaded.sources, loaded.compiler)
    if outcome.volatile and loaded.tables:
        # a data table's cell is its formula computed again: volatile where that formula is,
        # and so is every cell that reads it
        seeds = [
            at
            for table in loaded.tables
            for at in table.cells()
            if table.formula(at[1], at[2]) in outcome.volatile
        ]
        if seeds:
            outcome.volatile |= readers_of(book, pending, loaded.sources, loaded.compiler, seeds)
    results = book.results
    if failed:
        done = [key for key in pending if key not in failed and key in results]
    else:
        done = list(filter(results.__contains__, pending))
    outcome.values = Computed(book, failed, done)  # a view: the values stay where computed
    outcome.computed = len(done)
    done_in: dict[str, list[tuple[str, int, int]]] = {}
    if len(where) == 1:  # one sheet: its cells are all of them
        done_in = {next(iter(where)): done} if done else {}
    else:
        for key in done:
            done_in.setdefault(key[0], []).append(key)
    for sheet, done_here in done_in.items():  # each sheet's view over its own cells only
        view = Computed(book, failed, done_here, sheet)
        parts[where[sheet]], changed = patch_part(parts[where[sheet]], view, view.formulas())
        outcome.changed += changed
    by_sheet: dict[str, dict[tuple[int, int], Value]] = {}
    for (sheet, row, col), value in set_now.items():
        by_sheet.setdefault(sheet, {})[(row, col)] = value
    for sheet, values in by_sheet.items():
        parts[where[sheet]], missing = set_constants(parts[where[sheet]], values)
        outcome.problems += [Problem(sheet, ref, "no such row to write into") for ref in missing]
        outcome.set_cells += len(values) - len(missing)
    outcome.players = _players(loaded.names, book)
    if not outcome.problems and BOOK in parts:
        parts[BOOK] = settle_calculation(parts[BOOK])
    return outcome, infos, parts


def _players(names: dict[str, str], book: Book) -> list[dict[str, Value]]:
    """The player table of a fide-rating template (the defined name FIDE_PLAYERS), if any."""
    target = names.get("FIDE_PLAYERS")
    if target is None:
        return []
    m = re.fullmatch(
        r"(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)", target.strip()
    )
    if m is None:
        return []
    sheet = (m.group(1) or "").replace("''", "'") or m.group(2)
    c1, r1 = col_number(m.group(3)), int(m.group(4))
    c2, r2 = col_number(m.group(5)), int(m.group(6))

    def shown(r: int, c: int) -> Value:  # a cell left uncomputed shows nothing
        try:
            return book.value(sheet, r, c)
        except (NotComputed, Circular, RecursionError):
            return None

    header = [shown(r1, c) for c in range(c1, c2 + 1)]
    rows = []
    for r in range(r1 + 1, r2 + 1):
        line = {str(h): shown(r, c) for h, c in zip(header, range(c1, c2 + 1), strict=True)}
        if any(v not in (None, "") for k, v in line.items() if k in ("Name", "FIDE ID")):
            rows.append(line)
    return rows


def output_path(
    source: Path, out_dir: Path | None, in_place: bool, output: Path | None = None
) -> Path:
    """Where a recomputed workbook goes: the file ``output``, over the input with
    ``in_place``, into the folder ``out_dir`` under its own name, or next to the input as
    NAME.recalc.xlsx."""
    if output is not None:
        return output
    if in_place:
        return source
    if out_dir is not None:
        return out_dir / source.name
    return source.with_name(f"{source.stem}.recalc{source.suffix}")


def recalc_file(
    source: Path,
    *,
    out_dir: Path | None = None,
    in_place: bool = False,
    output: Path | None = None,
    force: bool = False,
    constants: Constants | None = None,
    udfs: Mapping[str, Function] | None = None,
    moment: datetime | None = None,
) -> Recalculated:
    """Recompute one workbook and write it atomically. Never over the input unless
    ``in_place``; never over another existing file unless ``force``; the cells calling the
    xlwings functions ``udfs`` computed; TODAY and NOW as of ``moment`` where given."""
    if source.suffix.lower() not in (".xlsx", ".xlsm"):
        if source.suffix.lower() == ".ods":
            raise WorkbookError(
                "an OpenDocument (.ods) file: open it in LibreOffice to recalculate"
            )
        if source.suffix.lower() == ".xls":
            raise WorkbookError("the old .xls format: save it as .xlsx first")
    target = output_path(source, out_dir, in_place, output)
    if (where := dangling(target)) is not None:
        raise WorkbookError(
            f"{target} is a symbolic link to a missing file ({where}), never written through: "
            "remove the link or choose another name"
        )
    if not in_place:
        if target.exists() and os.path.samefile(target, source):
            raise WorkbookError(
                "the output would overwrite the input: use --in-place to allow that"
            )
        if target.exists() and not force:
            raise WorkbookError(f"{target} exists: add --force to replace it")
    try:
        data = read_file(source)
    except OSError as error:
        raise WorkbookError(f"cannot read the file ({error.strerror})") from None
    clean_stale(target.parent)
    outcome, infos, parts = evaluate(data, source, constants, udfs, moment)
    try:
        write_package(infos, parts, target)
    except OSError as error:
        raise WorkbookError(f"cannot write {target} ({error.strerror or error})") from None
    outcome.output = target
    return outcome


SOURCES = (".xlsx", ".xlsm", ".ods", ".xls")  # in a folder: workbooks; .ods and .xls are reported


def iter_sources(paths: Iterable[str]) -> list[Path]:
    """Files from paths, folders (their workbooks) and glob patterns, in a stable order. A
    ``**`` goes down into folders but never through a symbolic link to one (a folder linked
    into itself would be walked forever)."""
    out: list[Path] = []
    for raw in paths:
        matched = sorted(_glob(raw)) if any(ch in raw for ch in "*?[") else [raw]
        for item in matched or [raw]:
            p = Path(item)
            if p.is_dir():
                out += sorted(
                    q
                    for q in p.iterdir()
                    if q.suffix.lower() in SOURCES
                    and not q.name.startswith(".")
                    and not q.stem.endswith(".recalc")  # a previous run's output
                )
            else:
                out.append(p)
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    return unique


def _glob(pattern: str) -> list[str]:
    """The paths a glob pattern matches, as :func:`glob.glob` finds them, but a ``**``
    component walks the folders below without following symbolic links to folders."""
    parts = pattern.replace(os.sep, "/").split("/")
    if "**" not in parts:
        return glob.glob(pattern)  # one level a component: links cannot loop
    at = parts.index("**")
    heads = glob.glob("/".join(parts[:at])) if at else [""]
    rest = "/".join(parts[at + 1 :])
    found: list[str] = []
    for head in heads:
        top = head or "."
        if not os.path.isdir(top):
            continue
        for folder, dirs, _ in os.walk(top):  # never into a linked folder (followlinks=False)
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            base = folder if head else os.path.relpath(folder, ".")
            prefix = "" if base == "." else base + "/"
            found += _glob(glob.escape(prefix) + rest) if rest else [prefix or "."]
    return list(dict.fromkeys(found))
