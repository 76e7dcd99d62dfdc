"""The conformance corpus: workbooks other people made, with the values Excel cached in them.

Each formula cell that recalc computes is compared with the value Excel saved for it. The
workbooks come from the source distributions of open-source spreadsheet projects on PyPI
(fetched with ``pip download --no-binary``, checked against the hashes below, kept in
``.cache/corpus``; nothing of theirs is committed). Only workbooks saved by Excel count: a file
written by a library or by LibreOffice holds no Excel values.

Run it as a script for the totals (``python tests/conformance.py``; ``--update`` rewrites the
recorded per-workbook figures that tests/test_conformance.py holds the engine to, ``DIR`` adds
a folder of workbooks of your own). Numbers must agree to within one unit in the 15th
significant digit (Excel shows 15 digits; the 16th and 17th come from how a sum is ordered);
a cell Excel left as an error compares by the error's code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from fide_rating.engine.formula import Value, XlError, col_letters
from fide_rating.engine.package import (
    WorkbookError,
    read_package,
    read_sheet,
    shared_strings,
    sheet_parts,
)
from fide_rating.engine.recalc import evaluate

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "corpus"
RECORD = Path(__file__).resolve().parent / "data" / "conformance.json"

# sdist -> (sha256, the folders inside it that hold test workbooks)
SOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "xlcalculator-0.5.0.tar.gz": (
        "5ea7337c3a86b0efcc1508d96345bf417387181344428be0a745e80a1fe9d1fc",
        ("tests/resources/", "examples/"),
    ),
    "xlrd-1.2.0.tar.gz": (
        "546eb36cee8db40c3eaa46c351e67ffee6eeb5fa2650b71bc4c758a29a1b29b2",
        ("tests/",),
    ),
    "pyexcel_xlsx-0.6.1.tar.gz": (
        "80b7985d394b73abf5c52212027bbbc0c7f6090192bcbc76403f8672d74c7960",
        ("tests/fixtures/",),
    ),
}
PIP_DOWNLOAD = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check"]
PIP_DOWNLOAD += ["--no-deps", "--no-binary", ":all:"]
REQUIREMENT = {
    "xlcalculator-0.5.0.tar.gz": "xlcalculator==0.5.0",
    "xlrd-1.2.0.tar.gz": "xlrd==1.2.0",
    "pyexcel_xlsx-0.6.1.tar.gz": "pyexcel-xlsx==0.6.1",
}

# Cells where Excel's saved value is not what Excel computes today, or is a behaviour only
# Excel's volatile or host functions have: (workbook, sheet!cell) -> why.
DOCUMENTED: dict[tuple[str, str], str] = {}

_APP = re.compile(rb"<(?:\w+:)?Application>([^<]*)</")


def fetch(quiet: bool = True) -> list[Path]:
    """The corpus workbooks, fetched and unpacked into .cache/corpus on first use."""
    CACHE.mkdir(parents=True, exist_ok=True)
    found: list[Path] = []
    for sdist, (digest, folders) in SOURCES.items():
        archive = CACHE / sdist
        if not archive.exists():
            subprocess.run(
                [*PIP_DOWNLOAD, "-d", str(CACHE), REQUIREMENT[sdist]],
                check=True,
                capture_output=quiet,
            )
        got = hashlib.sha256(archive.read_bytes()).hexdigest()
        if got != digest:
            raise RuntimeError(f"{sdist}: sha256 {got}, expected {digest}")
        target = CACHE / sdist.removesuffix(".tar.gz")
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                inner = member.name.split("/", 1)[-1]
                if not member.isfile() or not inner.lower().endswith((".xlsx", ".xlsm")):
                    continue
                if not inner.startswith(folders):
                    continue
                out = target / inner
                if not out.exists():
                    out.parent.mkdir(parents=True, exist_ok=True)
                    handle = tar.extractfile(member)
                    assert handle is not None
                    out.write_bytes(handle.read())
                found.append(out)
    return sorted(found)


@dataclass
class Outcome:
    """One workbook: its formula cells, those computed, and those that disagree with Excel."""

    name: str
    application: str
    formulas: int = 0
    computed: int = 0
    disagree: dict[str, str] = field(default_factory=dict)  # sheet!cell -> what differs
    reasons: dict[str, int] = field(default_factory=dict)  # why cells were left, counted

    @property
    def by_excel(self) -> bool:
        return self.application.startswith("Microsoft")


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


def check(path: Path, label: str) -> Outcome:
    """Recompute one workbook in memory and compare it with what Excel saved."""
    data = path.read_bytes()
    parts = read_package(data, path.name)[1]
    found = _APP.search(parts.get("docProps/app.xml", b""))
    outcome = Outcome(label, found.group(1).decode() if found else "unknown")
    strings = shared_strings(parts)
    cached: dict[tuple[str, int, int], Value] = {}
    for title, part in sheet_parts(parts).items():
        fixed, _, stored, _, _ = read_sheet(parts[part], strings)
        for values in (fixed, stored):  # an array formula's range holds values only
            cached.update({(title, r, c): v for (r, c), v in values.items()})
    result = evaluate(data, path)[0]
    outcome.formulas, outcome.computed = result.formulas, result.computed
    for problem in result.problems:
        why = _reason(problem.reason)
        outcome.reasons[why] = outcome.reasons.get(why, 0) + 1
    for (sheet, row, col), ours in result.values.items():
        saved = cached.get((sheet, row, col))
        if not agree(saved, ours):
            outcome.disagree[f"{sheet}!{col_letters(col)}{row}"] = f"Excel {saved!r}, ours {ours!r}"
    return outcome


def run(extra: list[Path] | None = None) -> list[Outcome]:
    outcomes = []
    paths = [(p, str(p.relative_to(CACHE))) for p in fetch()]
    for folder in extra or []:
        paths += [(p, str(p)) for p in sorted(folder.rglob("*.xls[xm]"))]
    for path, label in paths:
        try:
            outcomes.append(check(path, label))
        except WorkbookError as error:
            print(f"skipped {label}: {error}", file=sys.stderr)
    return outcomes


def record(outcomes: list[Outcome]) -> dict[str, dict[str, object]]:
    return {
        o.name: {"formulas": o.formulas, "computed": o.computed, "disagree": sorted(o.disagree)}
        for o in outcomes
        if o.by_excel and o.formulas
    }


def totals(outcomes: list[Outcome]) -> str:
    counted = [o for o in outcomes if o.by_excel and o.formulas]
    cells = sum(o.formulas for o in counted)
    computed = sum(o.computed for o in counted)
    wrong = sum(len(o.disagree) for o in counted)
    lines = [
        f"{len(outcomes)} workbooks, {len(counted)} saved by Excel with formulas",
        f"formula cells      {cells:7,}",
        f"computed           {computed:7,}  ({100 * computed / max(cells, 1):.1f} %)",
        f"agreeing with Excel {computed - wrong:6,}  "
        f"({100 * (computed - wrong) / max(computed, 1):.2f} % of those computed)",
        f"disagreeing        {wrong:7,}",
    ]
    reasons: dict[str, int] = {}
    for o in counted:
        for why, n in o.reasons.items():
            reasons[why] = reasons.get(why, 0) + n
    if reasons:
        lines.append("left uncomputed, by reason:")
        lines += [f"  {n:6,}  {why}" for why, n in sorted(reasons.items(), key=lambda x: -x[1])]
    for o in counted:
        lines += [f"  {o.name} {cell}: {what}" for cell, what in o.disagree.items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="more workbooks to compare")
    parser.add_argument("--update", action="store_true", help=f"rewrite {RECORD.name}")
    args = parser.parse_args()
    outcomes = run(args.folders)
    print(totals(outcomes))
    if args.update:
        recorded = record([o for o in outcomes if not Path(o.name).is_absolute()])
        RECORD.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(f"wrote {RECORD}")


if __name__ == "__main__":
    main()
