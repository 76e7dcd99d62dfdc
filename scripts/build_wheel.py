"""Build the fide-rating wheel (``release/fide_rating-VERSION-py3-none-any.whl``) reproducibly.

The wheel is a zip (PEP 427) of the package as it is in ``addin/fide_rating`` (every file but
caches, the Calc add-in's IDL and XCU included: ``build-oxt`` needs them) and its metadata from
``pyproject.toml``. Two builds of the same sources are the same bytes: the members in a fixed
order, one date for all of them (``SOURCE_DATE_EPOCH``, by default 2025-01-01), one mode, one
compression. The metadata leaves out the README (the package's description is its summary
line), so that an edit of the README alone does not change the wheel.

Run it from anywhere: ``python scripts/build_wheel.py -o release`` (``--force`` to replace the
file); ``bash scripts/build-release.sh`` runs it with the other release builds.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

import tomllib

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "addin"
PACKAGE = "fide_rating"
DEFAULT_EPOCH = 1735689600  # 2025-01-01 00:00 UTC
MODE = 0o100644  # a regular file, rw-r--r--
LEVEL = 9
SKIPPED_DIRS = {"__pycache__"}
SKIPPED_SUFFIXES = {".pyc", ".pyo"}


def project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        found: dict[str, Any] = tomllib.load(f)["project"]
    return found


def wheel_name(meta: dict[str, Any] | None = None) -> str:
    meta = meta or project()
    return f"{meta['name'].replace('-', '_')}-{meta['version']}-py3-none-any.whl"


def dist_info(meta: dict[str, Any] | None = None) -> str:
    meta = meta or project()
    return f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"


def date_time(epoch: int | None = None) -> tuple[int, int, int, int, int, int]:
    """The members' date: SOURCE_DATE_EPOCH (zip dates start in 1980, and count in two
    seconds)."""
    if epoch is None:
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", DEFAULT_EPOCH))
    when = dt.datetime.fromtimestamp(max(epoch, 315532800), dt.timezone.utc)
    return (when.year, when.month, when.day, when.hour, when.minute, when.second - when.second % 2)


def package_files() -> list[tuple[str, bytes]]:
    """The package's files by their name in the wheel, in a fixed order."""
    out: list[tuple[str, bytes]] = []
    for path in sorted((SOURCE / PACKAGE).rglob("*"), key=lambda p: p.relative_to(SOURCE).parts):
        rel = path.relative_to(SOURCE)
        if SKIPPED_DIRS & set(rel.parts) or path.suffix in SKIPPED_SUFFIXES or not path.is_file():
            continue
        out.append((rel.as_posix(), path.read_bytes()))
    return out


def metadata(meta: dict[str, Any]) -> bytes:
    """METADATA (core metadata 2.1) from pyproject.toml's [project]."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {meta['name']}",
        f"Version: {meta['version']}",
        f"Summary: {meta['description']}",
        f"License: {meta['license']['text']}",
        f"Requires-Python: {meta['requires-python']}",
    ]
    lines += [f"Requires-Dist: {r}" for r in meta.get("dependencies", [])]
    for extra, requirements in meta.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"'
                  for r in requirements]  # fmt: skip
    return ("\n".join(lines) + "\n").encode("utf-8")


def digest(data: bytes) -> str:
    """RECORD's hash (PEP 376, 427): sha256, URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def members(meta: dict[str, Any] | None = None) -> list[tuple[str, bytes]]:
    """Every member of the wheel, in order, RECORD last."""
    meta = meta or project()
    info = dist_info(meta)
    scripts = "".join(f"{name} = {target}\n" for name, target in meta.get("scripts", {}).items())
    wheel = "Wheel-Version: 1.0\nGenerator: scripts/build_wheel.py\nRoot-Is-Purelib: true\n"
    found = [
        *package_files(),
        (f"{info}/METADATA", metadata(meta)),
        (f"{info}/WHEEL", f"{wheel}Tag: py3-none-any\n".encode()),
        (f"{info}/entry_points.txt", f"[console_scripts]\n{scripts}".encode()),
        (f"{info}/top_level.txt", f"{PACKAGE}\n".encode()),
    ]
    lines = [f"{name},sha256={digest(data)},{len(data)}\n" for name, data in found]
    record = "".join(lines) + f"{info}/RECORD,,\n"
    return [*found, (f"{info}/RECORD", record.encode())]


def build(folder: Path, *, force: bool = False, epoch: int | None = None) -> Path:
    """Write the wheel into ``folder`` (a temporary file, then a rename)."""
    meta = project()
    target = folder / wheel_name(meta)
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists: add --force to replace it")
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.part")
    when = date_time(epoch)
    with zipfile.ZipFile(partial, "w") as whl:
        for name, data in members(meta):
            info = zipfile.ZipInfo(name, date_time=when)
            info.create_system = 3
            info.external_attr = MODE << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data, compresslevel=LEVEL)
    partial.replace(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default="dist", help="the folder (default: dist)")
    parser.add_argument("--force", action="store_true", help="replace the wheel if it exists")
    args = parser.parse_args(argv)
    try:
        path = build(Path(args.output), force=args.force)
    except FileExistsError as error:
        print(f"build_wheel: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
