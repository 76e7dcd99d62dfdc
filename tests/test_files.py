"""Writing a user's file: atomic, mode and links kept, read-only refused, nothing left over."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from fide_rating.files import atomic, clean_stale, write_bytes


def test_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "event.xlsx"
    target.write_bytes(b"old")
    target.chmod(0o644)
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["event.xlsx"]


def test_a_new_file_gets_the_usual_mode(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    try:
        write_bytes(tmp_path / "new.trf", b"x")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.trf").stat().st_mode) == 0o644


def test_a_symlink_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.xlsx"
    real.write_bytes(b"old")
    link = tmp_path / "link.xlsx"
    link.symlink_to(real)
    write_bytes(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "locked.xlsx"
    target.write_bytes(b"keep")
    target.chmod(0o444)
    with pytest.raises(PermissionError, match="read-only"):
        write_bytes(target, b"new")
    assert target.read_bytes() == b"keep"


def test_a_failure_leaves_the_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "event.xlsx"
    target.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), atomic(target) as out:
        out.write(b"half")
        raise KeyboardInterrupt
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["event.xlsx"]


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        write_bytes(tmp_path, b"x")


def test_stale_temporaries_of_a_killed_run_are_removed(tmp_path: Path) -> None:
    old = tmp_path / ".event.xlsx.abc123.part"
    old.write_bytes(b"half")
    young = tmp_path / ".other.xlsx.def456.part"
    young.write_bytes(b"in progress")
    hour_ago = time.time() - 7200
    os.utime(old, (hour_ago, hour_ago))
    assert clean_stale(tmp_path) == [old]
    assert not old.exists() and young.exists()
