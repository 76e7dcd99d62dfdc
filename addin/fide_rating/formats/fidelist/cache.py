"""Where a list's index is kept and why it can be trusted.

An index lies next to its list, or, where the list's folder cannot be written, in the user's
private folder (the user's cache folder, ``~/.cache/fide-rating`` on Linux, else one in the
temporary folder named for the user): a folder made with mode 0700 and used only when it is
owned by the user and writable by no one else. Where there is none (another user made it, or
opened it to others), no index is kept at all and the list is read into memory.

Other people can write the list's folder, or plant a file under an index's name, so an index
is used only when each holds:

* it is a regular file opened without following a link (``O_NOFOLLOW``), owned by the user
  and writable by no one else (on Windows, which keeps no owner this way, only the digests
  below), so that it cannot change once checked;
* its digests are right: each part is signed with a keyed BLAKE2b digest whose 256-bit key
  lives in the private folder (``key``, mode 0600) and never leaves it. The head (the list's
  fingerprint, the players, the problems, the first FIDE ID of each block of keys) and the
  list's stamp are checked on every open, the FIDE IDs 512 at a time (4 KiB) and the records
  16 at a time (2.6 KiB), the first time one among them is looked into; all of them before
  the whole list is gone through. Only the user's own runs of this program can make such an
  index, and only from the list whose stamp and fingerprint it holds: an index planted by
  another user, or one with a rating edited, is not used but made anew (or, found at a
  look-up, removed, and the look-up refused).

Index files are written to a new name (``O_EXCL``, never through a link) and renamed into
place; a name another user holds in a shared folder is left alone (the private folder is used).

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ...files import PART

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

KEY_BYTES = 32
TAG_BYTES = 16
KEY_NAME = "key"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def me() -> int | None:
    """The user's ID (None where the system keeps none: Windows)."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def own(st: os.stat_result) -> bool:
    """A file or folder of the user's own that no one else can write."""
    user = me()
    return user is None or (st.st_uid == user and not st.st_mode & 0o022)


def homes() -> list[Path]:
    """Where the private folder may be: the user's cache folder, then one in the temporary
    folder named for the user."""
    places = []
    env = os.environ
    base = ""
    with contextlib.suppress(RuntimeError, KeyError, OSError):  # no home folder known
        if sys.platform == "win32":
            base = env.get("LOCALAPPDATA", "")
        elif sys.platform == "darwin":
            base = str(Path.home() / "Library" / "Caches")
        else:
            base = env.get("XDG_CACHE_HOME", "") or str(Path.home() / ".cache")
    if base and Path(base).is_absolute():
        places.append(Path(base) / "fide-rating")
    with contextlib.suppress(OSError):
        user = me()
        name = f"fide-rating-{user}" if user is not None else "fide-rating"
        places.append(Path(tempfile.gettempdir()) / name)
    return places


def private_folder() -> tuple[Path | None, list[str]]:
    """The user's private folder, made where it is missing; else None and why each place is
    refused (e.g. ``/tmp/fide-rating-1000: owned by another user``)."""
    refused: list[str] = []
    for folder in homes():
        problem = _checked(folder)
        if problem is None:
            return folder, refused
        refused.append(f"{folder}: {problem}")
    return None, refused


def _checked(folder: Path) -> str | None:
    """None when ``folder`` is (or is now made as) a folder of the user's own that no one
    else can write; else what is wrong with it."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        if sys.platform == "win32":  # a folder cannot be opened there; the user's own anyway
            st = os.lstat(folder)
            if getattr(st, "st_file_attributes", 0) & 0x400:  # a link or junction
                return "a symbolic link, not a folder"
        else:
            fd = os.open(folder, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_DIRECTORY", 0))
            try:
                st = os.fstat(fd)
            finally:
                os.close(fd)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(folder):
            return "a symbolic link, not a folder"
        return (error.strerror or str(error)).lower()
    if not stat.S_ISDIR(st.st_mode):
        return "not a folder"
    user = me()
    if user is not None and st.st_uid != user:
        return f"owned by another user (user ID {st.st_uid})"
    if not own(st):
        return f"writable by others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def open_own(path: Path) -> IO[bytes] | None:
    """``path`` opened for reading when it is a regular file of the user's own that no one else
    can write, never through a link; None when it is missing or anything else (a link, a
    pipe, another user's file)."""
    try:
        fd = os.open(path, _READ)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not own(st):
            os.close(fd)
            return None
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def foreign(path: Path) -> bool:
    """Whether ``path`` is there and another user's (so not to be replaced: in a shared
    folder, that user's index would be replaced at every run of either)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    user = me()
    return user is not None and st.st_uid != user


def user_key(folder: Path) -> bytes | None:
    """The user's key in the private folder, made on first use (the first of two runs that
    make it at once wins); None where it cannot be read or made."""
    path = folder / KEY_NAME
    for attempt in range(3):
        f = open_own(path)
        if f is not None:
            with f:
                key = f.read(KEY_BYTES + 1)
            if len(key) == KEY_BYTES:
                return key
            with contextlib.suppress(OSError):  # the user's own, but not a key: made anew
                os.unlink(path)
        elif os.path.lexists(path):  # made by another run just now, or not a key at all (a
            if attempt:  # link, a pipe, another user's file)
                return None
            continue
        try:
            fd, made = tempfile.mkstemp(prefix=f".{KEY_NAME}.", suffix=PART, dir=folder)
        except OSError:
            return None
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(os.urandom(KEY_BYTES))
            with contextlib.suppress(FileExistsError):
                try:
                    os.link(made, path)  # never over a key another run made meanwhile
                except OSError as error:
                    if isinstance(error, FileExistsError):
                        raise
                    os.replace(made, path)  # a file system without links
        except OSError:
            return None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(made)
    return None


def tag(key: bytes, salt: bytes, what: bytes, data: ReadableBuffer) -> bytes:
    """The keyed digest of ``data`` for the part ``what`` of the index whose random ``salt``
    it is."""
    return hashlib.blake2b(
        data,
        digest_size=TAG_BYTES,
        key=key,
        salt=salt,
        person=what,
    ).digest()


def write_new(path: Path, parts: Iterable[bytes | bytearray | memoryview]) -> IO[bytes]:
    """``parts`` written to a new file beside ``path`` (``O_EXCL``, mode 0600, never through a
    link), renamed to ``path`` once whole; the file, open for reading and writing. An error
    leaves nothing behind."""
    fd, made = tempfile.mkstemp(prefix=f".{path.name}.", suffix=PART, dir=path.parent)
    try:
        out = os.fdopen(fd, "w+b")
    except BaseException:
        os.close(fd)
        os.unlink(made)
        raise
    try:
        for part in parts:
            out.write(part)
        out.flush()
        os.replace(made, path)  # replaces a link itself, never what it points to
        return out
    except BaseException:
        out.close()
        with contextlib.suppress(OSError):
            os.unlink(made)
        raise


class Signer:
    """The digests of an index's records, ``size`` bytes at a time, taken on a thread of its
    own as the records are read (the hashing lets the reading thread run: on two processors
    it costs the reading nothing)."""

    def __init__(self, key: bytes, salt: bytes, size: int) -> None:
        self.key, self.salt, self._size = key, salt, size
        self._pool: ThreadPoolExecutor | None = None
        self._done: list[Future[None]] = []
        self._tags = bytearray()
        self._carry = bytearray()

    def add(self, records: bytes | bytearray) -> None:
        """The next records read (never changed after)."""
        if self._pool is None:  # made on the first records: after any worker is forked
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="fide-rating-digests")
        self._done.append(self._pool.submit(self._take, records))

    def _take(self, records: bytes | bytearray) -> None:
        size, carry = self._size, self._carry
        view = memoryview(records)
        if carry:
            more = size - len(carry)
            carry += view[:more]
            view = view[more:]
            if len(carry) < size:
                return
            self._sign(carry)
            carry.clear()
        whole = len(view) - len(view) % size
        for at in range(0, whole, size):
            self._sign(view[at : at + size])
        carry += view[whole:]

    def _sign(self, data: ReadableBuffer) -> None:
        group = len(self._tags) // TAG_BYTES
        self._tags += tag(self.key, self.salt, b"g" + group.to_bytes(8, "little"), data)

    def tags(self) -> bytes:
        """The digests of all the records added."""
        self.close()
        for done in self._done:
            done.result()  # an error of the thread's is raised here
        self._done = []
        if self._carry:
            self._sign(self._carry)
            self._carry = bytearray()
        return bytes(self._tags)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
