"""Writing a user's file safely: atomically, keeping its mode and its links, never half-written.

Every command that writes a file goes through :func:`atomic`: the data goes to a temporary file
beside the target, which replaces the target only once it is complete, with the target's
permissions; a symbolic link to an existing file is written through (the link stays a link,
the file it names is replaced), a symbolic link to nothing (a dangling link) is refused and no
folder is made where it points; a read-only file is refused; a failure or an interruption
leaves the target as it was and no temporary file.

Every input is read through :func:`open_regular` or :func:`read_regular`: only a regular file,
never a pipe that blocks or a device that reads without end.

May import: the rules core's errors and the standard library (every layer may use it).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from .rules.errors import FideInputError

PART = ".part"  # the suffix of temporary files; stale ones are removed by clean_stale
# what only our temporary files have between the target's name and mkstemp's random part:
# ".NAME.fide-rating-XXXXXXXX.part", so that clean_stale never takes a file of the user's
MARK = ".fide-rating-"
_RANDOM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # mkstemp's 8 random characters
STALE_AFTER = 3600.0  # seconds: a temporary file older than this was left by a killed run


def dangling(path: Path) -> str | None:
    """Where ``path`` points when it is a symbolic link to nothing (a missing file, or a loop of
    links); None for anything else. Such a name is never written through: it would write a
    file, and make folders, at a place the user did not name."""
    if not path.is_symlink() or path.exists():
        return None
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def _refuse_dangling(path: Path) -> None:
    """A dangling link at ``path`` or at the nearest existing folder above it: refused."""
    for place in (path, *path.parents):
        where = dangling(place)
        if where is not None:
            raise FileExistsError(
                errno.EEXIST,
                f"a symbolic link to a missing file or folder ({where}): never written "
                "through; remove the link or choose another name",
                str(place),
            )
        if place.exists():
            return


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic(path: Path, *, durable: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through; it replaces ``path`` when the block ends.
    ``durable=False`` skips the flush to disk, for a cache its reader checks anyway. A link to
    an existing file is written through, a dangling link refused (:func:`dangling`)."""
    _refuse_dangling(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.exists():
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, "a folder, not a file", str(path))
        mode = stat.S_IMODE(target.stat().st_mode)
        # no write bit at all: read-only even for root, who could write it anyway
        if not mode & 0o222 or not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    else:
        mode = 0o666 & ~_umask()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary(target)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            if durable:
                os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        _WRITING.discard(tmp)
        raise
    _WRITING.discard(tmp)


# the temporary files this process is writing: named here before they are made, so that a
# Ctrl-C that lands between making one and the block that removes it leaves none behind
# (:func:`remove_unfinished`, called by the command when it is interrupted)
_WRITING: set[str] = set()
_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside ``target`` (``.NAME.fide-rating-XXXXXXXX.part``, the name
    cut so that it stays within the 255 bytes a file name may have), open for writing."""
    for _ in range(100):
        name = str(target.parent / f".{target.name[:120]}{MARK}{secrets.token_hex(4)}{PART}")
        _WRITING.add(name)
        try:
            return os.open(name, _EXCLUSIVE, 0o600), name
        except FileExistsError:
            _WRITING.discard(name)
        # anything else (a Ctrl-C just after the file was made, too) leaves the name known
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))


def remove_unfinished() -> list[str]:
    """Remove the temporary files this process was writing when it was interrupted: the
    ones :func:`atomic` had no chance to remove itself. The names removed."""
    removed = []
    for name in sorted(_WRITING):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
            removed.append(name)
        _WRITING.discard(name)
    return removed


def write_bytes(path: Path, data: bytes) -> Path:
    with atomic(path) as out:
        out.write(data)
    return path


def write_text(path: Path, text: str, encoding: str = "utf-8") -> Path:
    return write_bytes(path, text.encode(encoding))


def ours(name: str) -> bool:
    """A name only :func:`atomic` makes: ``.NAME.fide-rating-XXXXXXXX.part``."""
    random = name[-len(PART) - 8 : -len(PART)]
    return (
        name.startswith(".")
        and name.endswith(PART)
        and name[: -len(PART) - 8].endswith(MARK)
        and len(name) > len(MARK) + len(PART) + 9
        and len(random) == 8
        and _RANDOM.issuperset(random)
    )


def clean_stale(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed run of ours left in ``folder``: only a name only
    :func:`atomic` makes (:func:`ours`), only a regular file (never a link, nor what it points
    to), only the user's own, older than an hour."""
    removed = []
    limit = (time.time() if now is None else now) - STALE_AFTER
    uid = os.getuid() if hasattr(os, "getuid") else None
    with contextlib.suppress(OSError):
        for item in folder.iterdir():
            if not ours(item.name):
                continue
            with contextlib.suppress(OSError):
                st = item.lstat()
                mine = uid is None or st.st_uid == uid
                if stat.S_ISREG(st.st_mode) and mine and st.st_mtime < limit:
                    item.unlink()
                    removed.append(item)
    return removed


class NotARegularFileError(FideInputError):
    """An input that is not a regular file (a folder, a named pipe, a device): never read."""


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading, only when it is a regular file (a link to one is one): a
    named pipe is opened without waiting for a writer and refused, a device (``/dev/zero``) or
    a folder refused, so that no input blocks a command or reads without end."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except IsADirectoryError:
        raise NotARegularFileError(f"{path}: a folder, not a file") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = (
                "a folder" if stat.S_ISDIR(st.st_mode)
                else "a named pipe" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode)
                else "not a regular file"
            )  # fmt: skip
            raise NotARegularFileError(f"{path}: {kind}, not a file: only regular files are read")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path, limit: int, too_large: Callable[[float], str]) -> bytes:
    """A regular file's bytes, at most ``limit`` of them: the limit is counted on what is read
    (a file that grows while it is read, or whose size ``stat`` does not tell, is caught as
    well as one that is large to begin with). ``too_large(mib)`` says why a larger one is
    refused."""
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise FideInputError(f"{path}: {too_large(size / 2**20)}")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FideInputError(f"{path}: {too_large(len(data) / 2**20)} (it grew while it was read)")
    return data
