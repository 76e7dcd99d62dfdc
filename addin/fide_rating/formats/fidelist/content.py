"""What an index knows of the list it was made from, to tell whether that list has changed.

* The stamp, checked on every open (a millisecond or so): the list's size, modification and
  change times, and a CRC-32 of 16 blocks of 32 KiB spread over it (the whole list up to
  512 KiB). Putting an edited list's modification time back does not hide the edit where the
  system keeps a change time (Linux, macOS: no program can set it).
* The fingerprint, taken as the list is read for its index: a CRC-32 of each 64 MiB of the
  file. When the times differ but size and samples agree (a list touched, copied with its
  time, or its permissions changed), the whole list is read once more and its fingerprint
  decides: the index is kept (and its stamp renewed) or made anew. A CRC-32 finds every edit
  of up to 4 bytes in a row (one rating), others all but once in 4 billion.

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import io
import os
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

FINGERPRINT_BLOCK = 1 << 26  # bytes of the list a CRC-32 of its fingerprint covers
SAMPLES = 16  # blocks of the list read for its stamp (a seek each, where not cached)
SAMPLE = 1 << 15  # bytes a block


class Fingerprint:
    """The CRC-32 of each ``block`` bytes of a file, from its bytes given in order."""

    def __init__(self, block: int = FINGERPRINT_BLOCK) -> None:
        self.block = block
        self._crcs: list[int] = []
        self._crc = 0
        self._filled = 0

    def update(self, data: ReadableBuffer) -> None:
        view = memoryview(data).cast("B")
        while len(view):
            take = min(len(view), self.block - self._filled)
            self._crc = zlib.crc32(view[:take], self._crc)
            self._filled += take
            view = view[take:]
            if self._filled == self.block:
                self._crcs.append(self._crc)
                self._crc = self._filled = 0

    def crcs(self) -> list[int]:
        return self._crcs + ([self._crc] if self._filled or not self._crcs else [])


def fingerprint_of(fd: int, block: int = FINGERPRINT_BLOCK) -> list[int]:
    """The fingerprint of the file open as ``fd``, read from its start in 1 MiB reads (2 GB/s
    or so from the page cache), up to the size it had when the read began."""
    fingerprint = Fingerprint(block)
    size = os.fstat(fd).st_size
    at = 0
    while at < size and (data := pread(fd, min(size - at, 1 << 20), at)):
        fingerprint.update(data)
        at += len(data)
    return fingerprint.crcs()


def pread(fd: int, n: int, at: int) -> bytes:
    """Up to ``n`` bytes of the file open as ``fd`` from byte ``at`` (its offset untouched
    where the system can)."""
    if hasattr(os, "pread"):
        return os.pread(fd, n, at)
    os.lseek(fd, at, os.SEEK_SET)
    return os.read(fd, n)


class Hashing(io.RawIOBase):
    """A file read through, its fingerprint taken on the way (wrap it in a buffer)."""

    def __init__(self, raw: io.FileIO, fingerprint: Fingerprint) -> None:
        super().__init__()
        self._raw = raw
        self.fingerprint = fingerprint

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        n = self._raw.readinto(view) or 0
        if n:
            self.fingerprint.update(view[:n])
        return n


def stamp_of(fd: int) -> dict[str, int]:
    """The list's size, times and sampled blocks' CRC-32 (see the module's docstring), from
    the list open as ``fd``."""
    st = os.fstat(fd)
    crc = 0
    if st.st_size <= SAMPLES * SAMPLE:
        crc = zlib.crc32(pread(fd, st.st_size, 0))
    else:
        for i in range(SAMPLES):
            crc = zlib.crc32(pread(fd, SAMPLE, (st.st_size - SAMPLE) * i // (SAMPLES - 1)), crc)
    return {
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "ctime_ns": st.st_ctime_ns,
        "sample": crc,
    }
