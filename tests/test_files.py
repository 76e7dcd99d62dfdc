"""Writing a user's file: atomic, mode and links kept, read-only refused, nothing left over."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from fide_rating.files import MARK, PART, atomic, clean_stale, remove_unfinished, write_bytes


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
    old = tmp_path / f".event.xlsx{MARK}abc12345{PART}"
    old.write_bytes(b"half")
    young = tmp_path / f".other.xlsx{MARK}def45678{PART}"
    young.write_bytes(b"in progress")
    hour_ago = time.time() - 7200
    os.utime(old, (hour_ago, hour_ago))
    assert clean_stale(tmp_path) == [old]
    assert not old.exists() and young.exists()


# --- reading: only regular files -------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    from fide_rating.files import NotARegularFileError, read_regular

    pipe = tmp_path / "event.trf"
    os.mkfifo(pipe)
    started = time.monotonic()
    with pytest.raises(NotARegularFileError, match="a named pipe, not a file"):
        read_regular(pipe, 1 << 20, lambda mib: "too large")
    assert time.monotonic() - started < 5  # refused at once, never blocked on open


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_and_a_link_to_it_are_refused(tmp_path: Path) -> None:
    from fide_rating.files import NotARegularFileError, read_regular

    link = tmp_path / "event.xlsx"
    link.symlink_to("/dev/zero")
    for path in (Path("/dev/zero"), link):
        with pytest.raises(NotARegularFileError, match="a device, not a file"):
            read_regular(path, 1 << 20, lambda mib: "too large")


def test_the_limit_counts_what_is_read(tmp_path: Path) -> None:
    from fide_rating.files import read_regular
    from fide_rating.rules.errors import FideInputError

    big = tmp_path / "big.trf"
    big.write_bytes(b"x" * 2048)
    assert read_regular(big, 2048, lambda mib: "too large") == b"x" * 2048
    with pytest.raises(FideInputError, match="too large"):
        read_regular(big, 2047, lambda mib: "too large")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    from fide_rating.files import NotARegularFileError, read_regular

    with pytest.raises(NotARegularFileError, match="a folder"):
        read_regular(tmp_path, 1 << 20, lambda mib: "too large")


def test_a_ctrl_c_just_after_the_temporary_file_is_made_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interrupt lands once the temporary file exists but before the block that would
    remove it: the command's remove_unfinished() removes it, and the file is as it was."""
    target = tmp_path / "event.xlsx"
    target.write_bytes(b"before")
    real_open = os.open

    def made_then_interrupted(name: str, flags: int, mode: int = 0o777) -> int:
        os.close(real_open(name, flags, mode))
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "open", made_then_interrupted)  # as files.py calls it
    with pytest.raises(KeyboardInterrupt), atomic(target) as out:
        out.write(b"after")
    monkeypatch.undo()
    left = [p.name for p in tmp_path.iterdir() if p.name.endswith(PART)]
    assert len(left) == 1 and left[0].startswith(f".event.xlsx{MARK}")  # made, not removed
    assert [Path(name).name for name in remove_unfinished()] == left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.xlsx"]
    assert target.read_bytes() == b"before"
    assert remove_unfinished() == []  # nothing known any more


def test_a_file_written_or_refused_leaves_no_temporary_name_behind(tmp_path: Path) -> None:
    write_bytes(tmp_path / "a.txt", b"x")
    with pytest.raises(ValueError), atomic(tmp_path / "b.txt") as out:
        out.write(b"half")
        raise ValueError("the writer failed")
    assert remove_unfinished() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
