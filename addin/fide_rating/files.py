"""Writing a user's file safely: atomically, keeping its mode and its links, never half-written.

Every command that writes a file goes through :func:`atomic`: the data goes to a temporary file
beside the target, which replaces the target only once it is complete, with the target's
permissions; a symbolic link is written through (the link stays a link); a read-only file is
refused; a failure or an interruption leaves the target as it was and no temporary file.

May import: the standard library only (every layer may use it).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

PART = ".part"  # the suffix of temporary files; stale ones are removed by clean_stale
STALE_AFTER = 3600.0  # seconds: a temporary file older than this was left by a killed run


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic(path: Path, *, durable: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through; it replaces ``path`` when the block ends.
    ``durable=False`` skips the flush to disk, for a cache its reader checks anyway."""
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
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=PART, dir=target.parent)
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
        raise


def write_bytes(path: Path, data: bytes) -> Path:
    with atomic(path) as out:
        out.write(data)
    return path


def write_text(path: Path, text: str, encoding: str = "utf-8") -> Path:
    return write_bytes(path, text.encode(encoding))


def clean_stale(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed run left in ``folder`` (older than an hour)."""
    removed = []
    limit = (time.time() if now is None else now) - STALE_AFTER
    with contextlib.suppress(OSError):
        for item in folder.glob(f".*{PART}"):
            with contextlib.suppress(OSError):
                if item.is_file() and item.stat().st_mtime < limit:
                    item.unlink()
                    removed.append(item)
    return removed
