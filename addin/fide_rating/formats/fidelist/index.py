"""The index of a list: made once next to the list (:func:`build_index`), then opened in a
fraction of a second and memory-mapped (:class:`FideList`): players looked up by FIDE ID
without reading the list again. :func:`open_list` uses the index when it is fresh and makes it
otherwise.

The index file: a magic line; the list's stamp (see :mod:`.content`: a JSON line padded to 256
bytes, renewed in place); a JSON line (the players, the problems, the list's fingerprint); a key
a player sorted by FIDE ID (uint64 little-endian: the FIDE ID above the record's position);
the records as read (the published text line and CRLF, 164 bytes each).

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import array
import bisect
import contextlib
import errno
import hashlib
import itertools
import json
import mmap
import operator
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ...files import atomic
from .build import read_list
from .common import (
    MAX_ERRORS,
    RECORD,
    WIDTH,
    Gathered,
    ListedPlayer,
    ListError,
    ListFileError,
    Progress,
)
from .content import fingerprint_of, stamp_of
from .textlist import HEADER, SPANS, format_line, parse_line

INDEX_SUFFIX = ".fide-rating-index"
_MAGIC = b"fide-rating list index 3\n"
_STAMP_BYTES = 256


class FideList:
    """Players of a list by FIDE ID, from the index file (memory-mapped: nothing is read
    until a player is looked up), or from the index made in memory where none could be
    written (:attr:`warnings` says so)."""

    def __init__(self, index: Path, source: Path, *, warnings: Sequence[str] = ()) -> None:
        self.source = source
        self.warnings = list(warnings)  # what a command should tell: the index not written
        self._file: IO[bytes] | None = index.open("rb")
        self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        if hasattr(mmap, "MADV_RANDOM"):  # look-ups: no read-ahead of the whole file
            self._map.madvise(mmap.MADV_RANDOM)
        self._load()

    @classmethod
    def in_memory(cls, data: mmap.mmap, source: Path, warnings: Sequence[str]) -> FideList:
        """A list from its index's bytes, made in memory (see :func:`open_list`)."""
        self = cls.__new__(cls)
        self.source = source
        self.warnings = list(warnings)
        self._file = None
        self._map = data
        self._load()
        return self

    def _load(self) -> None:
        head_at = len(_MAGIC) + _STAMP_BYTES
        head_end = self._map.find(b"\n", head_at) + 1
        meta = json.loads(self._map[head_at:head_end])
        self.count: int = meta["count"]
        self.errors = [ListError(line, message) for line, message in meta["errors"]]
        self.error_count: int = meta["error_count"]
        self._shift: int = meta["shift"]
        keys_at = head_end
        # the FIDE ID above the record's position, sorted: one array serves both; looked into
        # where it is (nothing read until a player is looked up: a cold open reads no keys)
        view = memoryview(self._map)[keys_at : keys_at + 8 * self.count].cast("Q")
        if sys.byteorder == "little":
            self._keys: Sequence[int] = view
        else:  # the index is little-endian
            swapped = array.array("Q", view)
            swapped.byteswap()
            view.release()
            self._keys = swapped
        self._records = keys_at + 8 * self.count

    def __len__(self) -> int:
        return self.count

    def get(self, fide_id: int | str, /) -> ListedPlayer | None:
        try:
            key = int(fide_id)
        except ValueError:
            return None
        if not 0 <= key < 1 << 32:
            return None
        i = bisect.bisect_left(self._keys, key << self._shift)
        if i == self.count or self._keys[i] >> self._shift != key:
            return None
        return self._record(i)

    def _record(self, i: int) -> ListedPlayer:
        """The i-th player by FIDE ID."""
        at = self._records + (self._keys[i] & (1 << self._shift) - 1) * RECORD
        found = parse_line(self._map[at : at + WIDTH].decode("latin-1"), SPANS)
        assert not isinstance(found, str), found  # written by this module
        return found

    def __iter__(self) -> Iterator[ListedPlayer]:
        return (self._record(i) for i in range(self.count))

    def write_text(
        self,
        out: IO[bytes],
        changed: dict[int, ListedPlayer],
        added: Sequence[ListedPlayer] = (),
    ) -> int:
        """The list in the published text layout (header, CRLF), sorted by FIDE ID: each
        player as indexed, except those in ``changed`` (by FIDE ID), written anew; ``added``
        players (not in the index) in their place. Unchanged players are copied as indexed
        (a whole list takes a second or two). Gives the players written."""
        out.write(HEADER.encode() + b"\r\n")
        updates = dict(changed)
        for p in added:
            updates[p.fide_id] = p
        written = 0
        at = 0  # the next player by FIDE ID not yet written
        for fide_id in sorted(updates):
            i = bisect.bisect_left(self._keys, fide_id << self._shift)
            written += self._copy(out, at, i)
            out.write(format_line(updates[fide_id]).encode("latin-1", errors="replace") + b"\r\n")
            written += 1
            at = i + 1 if i < self.count and self._keys[i] >> self._shift == fide_id else i
        return written + self._copy(out, at, self.count)

    def _copy(self, out: IO[bytes], start: int, stop: int) -> int:
        """The players from the start-th to before the stop-th by FIDE ID, as indexed."""
        mask, base, view = (1 << self._shift) - 1, self._records, self._map
        for lo in range(start, stop, 8192):
            out.write(
                b"".join(
                    [
                        view[base + (k & mask) * RECORD : base + (k & mask) * RECORD + RECORD]
                        for k in self._keys[lo : min(lo + 8192, stop)]
                    ]
                )
            )
        return max(0, stop - start)

    def close(self) -> None:
        if isinstance(self._keys, memoryview):
            self._keys.release()  # the map cannot close while looked into
        self._map.close()
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> FideList:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def index_path(source: Path) -> Path:
    return source.with_name(source.name + INDEX_SUFFIX)


def _stamp_line(stamp: dict[str, int]) -> bytes:
    return json.dumps(stamp).encode().ljust(_STAMP_BYTES - 1) + b"\n"


def _fresh(index: Path, source: Path) -> bool:
    """Whether the index is complete and made from this very list: its size, times and
    sampled blocks alike (a millisecond or so); when only the times differ, the whole list's
    fingerprint alike (the list read once), and the stamp renewed."""
    try:
        with index.open("rb") as f:
            if f.read(len(_MAGIC)) != _MAGIC:
                return False
            stamp = json.loads(f.read(_STAMP_BYTES))
            line = f.readline()
            meta = json.loads(line)
        whole = (len(_MAGIC) + _STAMP_BYTES + len(line) + meta["count"] * 8
                 + meta["records"] * RECORD)  # fmt: skip
        if index.stat().st_size != whole or stamp["size"] != source.stat().st_size:
            return False
        now = stamp_of(source)
        if now["sample"] != stamp["sample"]:
            return False
        if (now["mtime_ns"], now["ctime_ns"]) == (stamp["mtime_ns"], stamp["ctime_ns"]):
            return True
        fingerprint = meta["fingerprint"]
        if fingerprint_of(source, fingerprint["block"]) != fingerprint["crc32"]:
            return False
        with contextlib.suppress(OSError), index.open("r+b") as f:  # the same list: kept
            f.seek(len(_MAGIC))
            f.write(_stamp_line(now))
        return True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def build_index(source: Path, index: Path, progress: Progress | None = None) -> None:
    """Read the list once and write its index. A damaged zip is a :class:`ListFileError`
    that says so; no index is written from part of a list."""
    _built(source, progress).write(index)


def _built(source: Path, progress: Progress | None) -> _Index:
    """The list read once, its index made in memory."""
    stamp = stamp_of(source)  # before reading: a list changed meanwhile is read again
    try:
        errors, into, content = read_list(source, progress)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise ListFileError(f"the zip file is damaged ({error})") from None
    sorted_keys = _sorted_keys(into, errors)
    meta = {
        "count": len(sorted_keys),
        "records": into.count,
        "shift": 32,
        "errors": [[e.line, e.message] for e in errors],
        "error_count": len(errors),
        "fingerprint": {"block": content[0], "crc32": content[1]},
    }
    head = _MAGIC + _stamp_line(stamp) + json.dumps(meta).encode() + b"\n"
    return _Index(head, sorted_keys, into.records)


@dataclass
class _Index:
    """An index made (see the module's docstring): its head, the keys sorted by FIDE ID (the
    ID above the player's position: sorted plain ints, no gathering of records), the records
    as read."""

    head: bytes
    keys: array.array[int]
    records: list[bytes | bytearray]

    def write(self, index: Path) -> None:
        # a cache, checked by its size when read (see _fresh): no flush to disk needed
        with atomic(index, durable=False) as out:
            out.write(self.head)
            out.write(self.keys)
            for records in self.records:
                out.write(records)

    def in_memory(self) -> mmap.mmap:
        """The index file's bytes in memory (anonymous, taken page by page as written), the
        records let go of as they are copied: one index in memory at a time, not two."""
        size = len(self.head) + 8 * len(self.keys) + sum(len(r) for r in self.records)
        data = mmap.mmap(-1, size)
        data.write(self.head)
        data.write(self.keys)
        self.records.reverse()
        while self.records:
            data.write(self.records.pop())
        return data


def _sorted_keys(into: Gathered, errors: list[ListError]) -> array.array[int]:
    """The keys sorted by FIDE ID (little-endian); a FIDE ID listed twice keeps its first
    record (its key sorts first), the others are reported."""
    keys = into.keys
    into.keys = []
    keys.sort()  # sorted runs: a merge
    packed = array.array("Q", keys)
    del keys
    high = memoryview(packed).cast("B").cast("I")[1 if sys.byteorder == "little" else 0 :: 2]
    ids = high.tolist()  # the FIDE IDs, sorted: one listed twice is next to itself
    high.release()
    if any(map(operator.eq, ids, itertools.islice(ids, 1, None))):
        twice: set[int] = set()
        kept = array.array("Q")
        previous = -1
        for key in packed:
            if key >> 32 == previous:
                twice.add(previous)
                continue
            previous = key >> 32
            kept.append(key)
        packed = kept
        for fide_id in sorted(twice)[: max(0, MAX_ERRORS - len(errors))]:
            errors.append(
                ListError(0, f"FIDE ID {fide_id} is listed twice (the first one is used)")
            )
    if sys.byteorder != "little":
        packed.byteswap()
    return packed


def open_list(source: Path, progress: Progress | None = None) -> FideList:
    """A list by FIDE ID: its index next to it, made (or remade, when the list changed) on the
    first use. Where that folder is not writable the index goes to a temporary folder; where
    neither is (a read-only medium), the index is made in memory, and the list's
    :attr:`FideList.warnings` say so."""
    if not source.is_file():
        raise FileNotFoundError(2, "No such file or directory", str(source))
    try:
        beside = index_path(source)
        if _fresh(beside, source):
            return FideList(beside, source)
        temporary = _temporary_place(source)  # looked for only where the list's has none
        if temporary[1] is not None and _fresh(temporary[1], source):
            return FideList(temporary[1], source)
        places = [("next to the list", beside), temporary]
        made = _built(source, progress)
        refused = []
        for place, index in places:
            try:
                if index is None:
                    raise FileNotFoundError(errno.ENOENT, "none usable")
                made.write(index)
            except OSError as error:  # read-only, not allowed, full: the next place
                refused.append(f"{place}: {(error.strerror or str(error)).lower()}")
                continue
            made.records.clear()  # let go of before the index is looked into
            return FideList(index, source)
    except ListFileError as error:  # every command says which file it is
        raise ListFileError(f"{source}: {error}") from None
    warning = (
        f"the list's index could not be written ({'; '.join(refused)}): the list was read "
        "into memory, and is read again on every use"
    )
    return FideList.in_memory(made.in_memory(), source, [warning])


def _temporary_place(source: Path) -> tuple[str, Path | None]:
    """Where the index goes when the list's folder is not writable: the temporary folder,
    under a name of the list's path (None where no temporary folder is usable)."""
    try:
        folder = tempfile.gettempdir()
    except OSError:
        return "in a temporary folder", None
    name = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
    return f"in {folder}", Path(folder) / f"{name}-{index_path(source).name}"
