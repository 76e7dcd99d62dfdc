"""Nothing outside what the user named is written or removed: an output name that is a symbolic
link to nothing is refused (with or without --force) and no folder is made where it points; a
link to an existing file is written through only with --force; a run removes only its own
stale temporary files. The links and files are made in each test."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from fide_rating.commands.cli import main
from fide_rating.files import MARK, PART, atomic, clean_stale, dangling, ours, write_bytes

ROOT = Path(__file__).resolve().parent.parent
REAL_TRF = ROOT / "tests" / "data" / "karl-mala-gedenkturnier-2005.trf"
TEMPLATE = ROOT / "templates" / "rr-4.xlsx"


def _nothing_made_at(place: Path) -> None:
    """Neither the link's target nor any folder on the way to it exists."""
    assert not place.exists()
    assert not place.parent.exists()


# --- the file layer ---------------------------------------------------------------------------


def test_a_dangling_link_is_never_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "deep" / "victim.xlsx"
    link = tmp_path / "event.recalc.xlsx"
    link.symlink_to(elsewhere)
    assert dangling(link) == str(elsewhere)
    with pytest.raises(FileExistsError, match="symbolic link to a missing file"):
        write_bytes(link, b"data")
    _nothing_made_at(elsewhere)
    assert link.is_symlink()  # left as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.recalc.xlsx"]


def test_a_link_loop_is_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(FileExistsError, match="symbolic link"):
        write_bytes(a, b"data")


def test_a_dangling_link_as_a_folder_on_the_way_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "out"
    (tmp_path / "out").symlink_to(elsewhere)
    with pytest.raises(FileExistsError, match="symbolic link"):
        write_bytes(tmp_path / "out" / "sub" / "event.xlsx", b"data")
    _nothing_made_at(elsewhere)


def test_a_link_to_an_existing_file_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.xlsx"
    real.write_bytes(b"old")
    link = tmp_path / "link.xlsx"
    link.symlink_to(real)
    assert dangling(link) is None and dangling(real) is None
    write_bytes(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_new_folders_the_user_named_are_made(tmp_path: Path) -> None:
    write_bytes(tmp_path / "new" / "folder" / "event.csv", b"x")
    assert (tmp_path / "new" / "folder" / "event.csv").read_bytes() == b"x"


def test_the_temporary_file_has_a_name_only_we_make(tmp_path: Path) -> None:
    target = tmp_path / "event.xlsx"
    with atomic(target) as out:
        out.write(b"x")
        (temporary,) = [p for p in tmp_path.iterdir() if p.name != "event.xlsx"]
        assert ours(temporary.name), temporary.name
        assert temporary.name.startswith(f".event.xlsx{MARK}")
    assert [p.name for p in tmp_path.iterdir()] == ["event.xlsx"]


def test_a_long_name_still_gets_a_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / ("x" * 240 + ".csv")
    write_bytes(target, b"x")
    assert target.read_bytes() == b"x"


@pytest.mark.parametrize(
    ("name", "mine"),
    [
        (f".event.xlsx{MARK}ab_c1234{PART}", True),
        (f".event.xlsx{MARK}abc123{PART}", False),  # not mkstemp's 8 characters
        (f".event.xlsx{MARK}ABCDEFGH{PART}", False),  # mkstemp uses lower case
        (f".event.xlsx.abc12345{PART}", False),  # the user's own (or an older version's)
        (f".notes{PART}", False),
        (f"event.xlsx{MARK}abc12345{PART}", False),  # not hidden
        (f".{MARK[1:]}abc12345{PART}", False),  # no target name
        (f".event.xlsx{MARK}abc12345.part2", False),
    ],
)
def test_which_names_are_ours(name: str, mine: bool) -> None:
    assert ours(name) is mine


def _old(path: Path, data: bytes = b"half") -> Path:
    path.write_bytes(data)
    hour_ago = time.time() - 7200
    os.utime(path, (hour_ago, hour_ago), follow_symlinks=False)
    return path


def test_only_our_own_stale_temporaries_are_removed(tmp_path: Path) -> None:
    ours_old = _old(tmp_path / f".event.xlsx{MARK}abc12345{PART}")
    ours_young = tmp_path / f".other.xlsx{MARK}def45678{PART}"
    ours_young.write_bytes(b"in progress")
    users = _old(tmp_path / ".notes.part")
    users_like_ours = _old(tmp_path / ".thesis.tex.abc12345.part")
    assert clean_stale(tmp_path) == [ours_old]
    assert not ours_old.exists()
    assert ours_young.exists() and users.exists() and users_like_ours.exists()


def test_a_link_with_our_name_is_not_followed_nor_removed(tmp_path: Path) -> None:
    precious = _old(tmp_path / "precious.txt", b"keep")
    link = tmp_path / f".event.xlsx{MARK}abc12345{PART}"
    link.symlink_to(precious)
    os.utime(link, (time.time() - 7200,) * 2, follow_symlinks=False)
    folder = tmp_path / f".book.xlsx{MARK}zzz12345{PART}"
    folder.mkdir()
    assert clean_stale(tmp_path) == []
    assert link.is_symlink() and precious.read_bytes() == b"keep" and folder.is_dir()


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_another_users_temporary_is_left(tmp_path: Path) -> None:
    theirs = _old(tmp_path / f".event.xlsx{MARK}abc12345{PART}")
    os.chown(theirs, 12345, 12345)
    assert clean_stale(tmp_path) == []
    assert theirs.exists()


# --- the commands -----------------------------------------------------------------------------


def test_recalc_refuses_a_dangling_default_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "event.xlsx"
    shutil.copyfile(TEMPLATE, book)
    elsewhere = tmp_path / "elsewhere" / "deep" / "planted.xlsx"
    (tmp_path / "event.recalc.xlsx").symlink_to(elsewhere)
    for extra in ([], ["--force"]):
        assert main(["recalc", str(book), "-q", *extra]) == 2  # nothing done
        err = capsys.readouterr().err
        assert "symbolic link to a missing file" in err and "Traceback" not in err, err
        _nothing_made_at(elsewhere)


def test_recalc_into_a_dangling_folder_link_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "event.xlsx"
    shutil.copyfile(TEMPLATE, book)
    elsewhere = tmp_path / "elsewhere" / "out"
    (tmp_path / "out").symlink_to(elsewhere)
    assert main(["recalc", str(book), "-q", "-o", str(tmp_path / "out")]) == 2  # nothing done
    assert "symbolic link" in capsys.readouterr().err
    _nothing_made_at(elsewhere)


def test_recalc_writes_through_a_link_to_an_existing_file_only_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "event.xlsx"
    shutil.copyfile(TEMPLATE, book)
    real = tmp_path / "kept" / "result.xlsx"
    real.parent.mkdir()
    real.write_bytes(b"old")
    (tmp_path / "event.recalc.xlsx").symlink_to(real)
    assert main(["recalc", str(book), "-q"]) == 2  # nothing done
    assert "add --force" in capsys.readouterr().err and real.read_bytes() == b"old"
    assert main(["recalc", str(book), "-q", "--force"]) == 0
    assert (tmp_path / "event.recalc.xlsx").is_symlink() and real.read_bytes()[:2] == b"PK"


@pytest.mark.parametrize("force", [False, True])
def test_report_csv_refuses_a_dangling_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: bool
) -> None:
    elsewhere = tmp_path / "elsewhere" / "deep" / "planted.csv"
    link = tmp_path / "report.csv"
    link.symlink_to(elsewhere)
    argv = ["report", str(REAL_TRF), "--csv", str(link)] + (["--force"] if force else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "symbolic link to a missing file" in err and "Traceback" not in err, err
    _nothing_made_at(elsewhere)


def test_recalc_leaves_the_users_part_files(tmp_path: Path) -> None:
    book = tmp_path / "event.xlsx"
    shutil.copyfile(TEMPLATE, book)
    users = _old(tmp_path / ".draft.xlsx.part")
    stale = _old(tmp_path / f".event.recalc.xlsx{MARK}abc12345{PART}")
    assert main(["recalc", str(book), "-q"]) == 0
    assert users.exists() and not stale.exists()
