"""The index of a list: made once (:func:`build_index`), then opened in a fraction of a second
and memory-mapped (:class:`FideList`): players looked up by FIDE ID without reading the list
again. :func:`open_list` uses the index when it is fresh and trusted (see :mod:`.cache`) and
makes it otherwise.

The index file: a magic line; the list's stamp (see :mod:`.content`: a JSON line padded to 256
bytes, renewed in place, with its digest); a JSON line (the players, the problems, the list's
fingerprint, the index's salt); the digest of the magic, that line and the first key of each
block of 512 keys, which follow, then the digest of each such block; a key a player sorted by
FIDE ID (uint64 little-endian: the FIDE ID above the record's position); the records as read
(the published text line and CRLF, 164 bytes each); the digest of each 16 records. See
:mod:`.cache` for when an index is trusted.

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import array
import bisect
import contextlib
import hashlib
import hmac
import json
import mmap
import os
import sys
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn, Protocol

from ...files import open_regular
from .build import read_list, sorted_keys_of
from .cache import (
    TAG_BYTES,
    Signer,
    foreign,
    open_own,
    private_folder,
    tag,
    user_key,
    write_new,
)
from .common import (
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
_MAGIC = b"fide-rating list index 4\n"
_STAMP_BYTES = 256
_MAX_META = 1 << 20  # bytes of the JSON line: 1,000 problems take about 150 KB
GROUP = 16  # records a digest covers (2.6 KiB)
KEYS = 512  # keys a digest covers (4 KiB)
_STAMP_FIELDS = ("size", "mtime_ns", "ctime_ns", "sample")


@dataclass(frozen=True)
class Head:
    """An index's head, read and checked (see the module's docstring)."""

    stamp: dict[str, int]
    count: int  # players by FIDE ID
    records: int  # records (a FIDE ID listed twice has two)
    errors: list[ListError]
    error_count: int
    fingerprint: dict[str, Any]
    salt: bytes
    fences: array.array[int]  # the first key of each block of KEYS keys
    fences_at: int

    @property
    def blocks(self) -> int:
        return len(self.fences)

    @property
    def keys_at(self) -> int:
        return self.fences_at + (8 + TAG_BYTES) * self.blocks

    @property
    def records_at(self) -> int:
        return self.keys_at + 8 * self.count

    @property
    def tags_at(self) -> int:
        return self.records_at + RECORD * self.records

    @property
    def groups(self) -> int:
        return -(-self.records // GROUP)


class _Readable(Protocol):
    def read(self, n: int, /) -> bytes: ...
    def readline(self, limit: int, /) -> bytes: ...


def read_head(f: _Readable, key: bytes | None) -> Head | None:
    """The head of the index open as ``f`` (at its start), when whole and, with a ``key``,
    its digests right; None otherwise. At most the head's size is read (about 1 MiB at most),
    whatever the file's."""
    try:
        if f.read(len(_MAGIC)) != _MAGIC:
            return None
        stamp_line = f.read(_STAMP_BYTES)
        meta_line = f.readline(_MAX_META + 1)
        head_tag = bytes.fromhex(f.read(2 * TAG_BYTES + 1).decode("ascii"))
        if len(stamp_line) != _STAMP_BYTES or not meta_line.endswith(b"\n"):
            return None
        meta = json.loads(meta_line)
        blocks = -(-int(meta["count"]) // KEYS)
        if not 0 <= 8 * blocks <= _MAX_META:  # read no more than a head can need
            return None
        fences = f.read(8 * blocks)
        if key is not None and not hmac.compare_digest(
            head_tag, tag(key, b"", b"head", _MAGIC + meta_line + fences)
        ):
            return None
        first_keys = array.array("Q", fences)
        if sys.byteorder != "little":
            first_keys.byteswap()
        stamp = json.loads(stamp_line)
        salt = bytes.fromhex(meta["salt"])
        if key is not None and not hmac.compare_digest(
            bytes.fromhex(stamp["tag"]), tag(key, salt, b"stamp", _stamp_data(stamp))
        ):
            return None
        head = Head(
            {name: int(stamp[name]) for name in _STAMP_FIELDS},
            int(meta["count"]),
            int(meta["records"]),
            [ListError(int(line), str(message)) for line, message in meta["errors"]],
            int(meta["error_count"]),
            meta["fingerprint"],
            salt,
            first_keys,
            len(_MAGIC) + _STAMP_BYTES + len(meta_line) + 2 * TAG_BYTES + 1,
        )
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    if not 0 <= head.count <= head.records or int(meta["shift"]) != 32:
        return None
    return head


def _stamp_data(stamp: dict[str, Any]) -> bytes:
    return json.dumps([int(stamp[name]) for name in _STAMP_FIELDS]).encode()


def _stamp_line(stamp: dict[str, int], key: bytes, salt: bytes) -> bytes:
    signed = dict(stamp, tag=tag(key, salt, b"stamp", _stamp_data(stamp)).hex())
    return json.dumps(signed).encode().ljust(_STAMP_BYTES - 1) + b"\n"


class FideList:
    """Players of a list by FIDE ID, from the index file (memory-mapped: nothing is read
    until a player is looked up), or from the index made in memory where none could be
    written (:attr:`warnings` says so). Each record of an index file is checked against its
    digest before it is first used."""

    def __init__(
        self,
        data: mmap.mmap,
        head: Head,
        source: Path,
        *,
        key: bytes | None,
        file: IO[bytes] | None = None,
        index: Path | None = None,
        warnings: Sequence[str] = (),
    ) -> None:
        self.source = source
        self.index = index  # the index file (None: made in memory)
        self.warnings = list(warnings)  # what a command should tell: the index not written
        self.count = head.count
        self.errors = head.errors
        self.error_count = head.error_count
        self._map = data
        self._file = file
        self._head = head
        self._key = key
        self._shift = 32
        self._records = head.records_at
        view = memoryview(data)[head.keys_at : head.records_at]
        # the FIDE ID above the record's position, sorted: one array serves both; looked into
        # where it is, a block's digest checked before it is first looked into
        keys = view.cast("Q")
        view.release()
        if sys.byteorder == "little":
            self._keys: Sequence[int] = keys
        else:  # the index is little-endian
            swapped = array.array("Q", keys)
            swapped.byteswap()
            keys.release()
            self._keys = swapped
        self._checked = bytearray(head.groups if key else 0)
        self._keys_checked = bytearray(head.blocks if key else 0)

    def __len__(self) -> int:
        return self.count

    def get(self, fide_id: int | str, /) -> ListedPlayer | None:
        try:
            key = int(fide_id)
        except ValueError:
            return None
        if not 0 <= key < 1 << 32:
            return None
        lo, hi = 0, self.count
        if self._key is not None:  # the one block where its key can be, checked
            block = bisect.bisect_right(self._head.fences, key << self._shift | 0xFFFFFFFF) - 1
            if block < 0:
                return None
            self._check_keys(block)
            lo, hi = block * KEYS, min(block * KEYS + KEYS, self.count)
        i = bisect.bisect_left(self._keys, key << self._shift, lo, hi)
        if i == hi or self._keys[i] >> self._shift != key:
            return None
        return self._record(i)

    def _check_keys(self, block: int) -> None:
        """The digest of the block-th block of keys, checked once."""
        if self._key is None or self._keys_checked[block]:
            return
        at = self._head.keys_at + 8 * KEYS * block
        end = min(at + 8 * KEYS, self._records)
        tags = self._head.fences_at + 8 * self._head.blocks + TAG_BYTES * block
        with memoryview(self._map)[at:end] as view:
            made = tag(self._key, self._head.salt, b"k" + block.to_bytes(8, "little"), view)
        if not hmac.compare_digest(made, self._map[tags : tags + TAG_BYTES]):
            self._broken(at)
        self._keys_checked[block] = 1

    def _broken(self, at: int) -> NoReturn:
        self._discard()
        raise ListFileError(
            f"{self.source}: the list's index {self.index} does not hold what it was made "
            f"with (the bytes at {at:,} differ from their digest): it was removed, and is made "
            "anew on the next run"
        )

    def _check(self, position: int) -> None:
        """The digest of the records around the one at ``position``, checked once."""
        group = position // GROUP
        if self._key is None or self._checked[group]:
            return
        at = self._records + group * GROUP * RECORD
        end = min(at + GROUP * RECORD, self._head.tags_at)
        tags = self._head.tags_at + TAG_BYTES * group
        with memoryview(self._map)[at:end] as view:
            made = tag(self._key, self._head.salt, b"g" + group.to_bytes(8, "little"), view)
        if not hmac.compare_digest(made, self._map[tags : tags + TAG_BYTES]):
            self._broken(at)
        self._checked[group] = 1

    def _discard(self) -> None:
        """This index file removed (the very file, not one put in its place since)."""
        if self.index is None or self._file is None:
            return
        with contextlib.suppress(OSError):
            there, mine = os.lstat(self.index), os.fstat(self._file.fileno())
            if (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
                os.unlink(self.index)

    def _check_all(self) -> None:
        """Every key and record checked (before the whole list is gone through)."""
        for block in range(len(self._keys_checked)):
            self._check_keys(block)
        for group in range(len(self._checked)):
            self._check(group * GROUP)

    def _record(self, i: int) -> ListedPlayer:
        """The i-th player by FIDE ID."""
        position = self._keys[i] & (1 << self._shift) - 1
        self._check(position)
        at = self._records + position * RECORD
        found = parse_line(self._map[at : at + WIDTH].decode("latin-1"), SPANS)
        assert not isinstance(found, str), found  # written by this module, checked above
        return found

    def __iter__(self) -> Iterator[ListedPlayer]:
        self._check_all()
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
        (a whole list takes a second or two), every record's digest checked first. Gives the
        players written."""
        self._check_all()
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
    """Where the list's index goes first: next to it."""
    return source.with_name(source.name + INDEX_SUFFIX)


def private_index(folder: Path, source: Path) -> Path:
    """Where the list's index goes in the user's private folder (where the list's own folder
    cannot be written): under a name of the list's path."""
    name = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
    return folder / f"{name}-{index_path(source).name}"


def _opened(index: Path, source: Path, listed: int, key: bytes) -> FideList | None:
    """The index at ``index`` when it is trusted (see :mod:`.cache`) and made from this very
    list (see :func:`_fresh`); None otherwise."""
    f = open_own(index)
    if f is None:
        return None
    try:
        head = read_head(f, key)
        if head is None or not _fresh(index, f, head, listed, key):
            f.close()
            return None
        return _mapped(f, head, source, key, index)
    except BaseException:
        f.close()
        raise


def _mapped(f: IO[bytes], head: Head, source: Path, key: bytes, index: Path) -> FideList | None:
    """The index open as ``f`` memory-mapped, when whole and its keys right."""
    size = os.fstat(f.fileno()).st_size
    if size != head.tags_at + TAG_BYTES * head.groups or not size:
        f.close()
        return None
    data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if hasattr(mmap, "MADV_RANDOM"):  # look-ups: no read-ahead of the whole file
        data.madvise(mmap.MADV_RANDOM)
    try:
        return FideList(data, head, source, key=key, file=f, index=index)
    except ValueError:
        data.close()
        f.close()
        return None


def _fresh(index: Path, f: IO[bytes], head: Head, listed: int, key: bytes) -> bool:
    """Whether the index was made from this very list: its size, times and sampled blocks
    alike (a millisecond or so); when only the times differ, the whole list's fingerprint
    alike (the list read once), and the stamp renewed."""
    stamp = head.stamp
    now = stamp_of(listed)
    if now["size"] != stamp["size"] or now["sample"] != stamp["sample"]:
        return False
    if (now["mtime_ns"], now["ctime_ns"]) == (stamp["mtime_ns"], stamp["ctime_ns"]):
        return True
    fingerprint = head.fingerprint
    try:
        if fingerprint_of(listed, int(fingerprint["block"])) != list(fingerprint["crc32"]):
            return False
    except (KeyError, TypeError, ValueError):
        return False
    _renew(index, f, _stamp_line(now, key, head.salt))
    return True


def _renew(index: Path, f: IO[bytes], line: bytes) -> None:
    """The same list: its stamp renewed in the index, where the index can be written (the
    very file checked, never through a link)."""
    with contextlib.suppress(OSError):
        fd = os.open(index, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
        try:
            same, st = os.fstat(fd), os.fstat(f.fileno())
            if (same.st_dev, same.st_ino) == (st.st_dev, st.st_ino):
                os.lseek(fd, len(_MAGIC), os.SEEK_SET)
                os.write(fd, line)
        finally:
            os.close(fd)


def build_index(source: Path, index: Path, progress: Progress | None = None) -> None:
    """Read the list once and write its index at ``index`` (trusted by this user's later runs
    that look there). A damaged zip is a :class:`ListFileError` that says so; no index is
    written from part of a list."""
    folder, refused = private_folder()
    key = user_key(folder) if folder is not None else None
    if key is None:
        raise ListFileError(f"no private folder for the index's key ({'; '.join(refused)})")
    with open_regular(source) as listed:
        made = _built(listed.fileno(), progress, key)
    write_new(index, made.parts()).close()


def _built(listed: int, progress: Progress | None, key: bytes | None) -> _Index:
    """The list open as ``listed`` read once, its index made in memory (signed with ``key``,
    where there is one, as it is read)."""
    stamp = stamp_of(listed)  # before reading: a list changed meanwhile is read again
    signer = Signer(key, os.urandom(16), GROUP * RECORD) if key is not None else None
    try:
        errors, into, content = read_list(
            listed, progress, Gathered(None if signer is None else signer.add)
        )
    except BaseException as error:
        if signer is not None:
            signer.close()
        if isinstance(error, (zipfile.BadZipFile, zlib.error, EOFError)):
            raise ListFileError(f"the zip file is damaged ({error})") from None
        raise
    sorted_keys = sorted_keys_of(into, errors)
    meta = {
        "count": len(sorted_keys),
        "records": into.count,
        "shift": 32,
        "errors": [[e.line, e.message] for e in errors],
        "error_count": len(errors),
        "fingerprint": {"block": content[0], "crc32": content[1]},
    }
    return _Index(stamp, meta, sorted_keys, into.records, signer)


@dataclass
class _Index:
    """An index made (see the module's docstring): the list's stamp, what the JSON line
    holds, the keys sorted by FIDE ID (the ID above the player's position: sorted plain ints,
    no gathering of records), the records as read."""

    stamp: dict[str, int]
    meta: dict[str, Any]
    keys: array.array[int]
    records: list[bytes | bytearray]
    signer: Signer | None  # the records' digests, taken as they were read

    def head(self, key: bytes, salt: bytes) -> bytes:
        """Everything before the keys: the head, the first key of each block of keys, their
        digests."""
        line = json.dumps(dict(self.meta, salt=salt.hex())).encode() + b"\n"
        fences = self.keys[::KEYS].tobytes()
        signed = tag(key, b"", b"head", _MAGIC + line + fences).hex().encode() + b"\n"
        tags = bytearray()
        with memoryview(self.keys).cast("B") as keys:
            for block, at in enumerate(range(0, len(keys), 8 * KEYS)):
                tags += tag(key, salt, b"k" + block.to_bytes(8, "little"), keys[at : at + 8 * KEYS])
        return _MAGIC + _stamp_line(self.stamp, key, salt) + line + signed + fences + tags

    def parts(self) -> Iterator[bytes | bytearray | memoryview]:
        """The index file's bytes, signed with the key it was made with."""
        assert self.signer is not None, "an index to write is made with a key"
        yield self.head(self.signer.key, self.signer.salt)
        yield memoryview(self.keys).cast("B")
        yield from self.records
        yield self.signer.tags()

    def in_memory(self) -> tuple[mmap.mmap, Head]:
        """The index file's bytes in memory (anonymous, taken page by page as written), the
        records let go of as they are copied: one index in memory at a time, not two. Made
        here, it needs no digests (a key of the moment signs its head)."""
        key = os.urandom(32)
        head = self.head(key, os.urandom(16))
        size = len(head) + 8 * len(self.keys) + sum(len(r) for r in self.records)
        data = mmap.mmap(-1, size)
        data.write(head)
        data.write(self.keys)
        self.records.reverse()
        while self.records:
            data.write(self.records.pop())
        data.seek(0)
        read = read_head(_MapFile(data), key)
        assert read is not None  # written just above
        return data, read


class _MapFile:
    """An anonymous map read like a file (for :func:`read_head`)."""

    def __init__(self, data: mmap.mmap) -> None:
        self._data = data

    def read(self, n: int) -> bytes:
        return self._data.read(n)

    def readline(self, limit: int) -> bytes:
        line = self._data.readline()
        return line[:limit]


def open_list(source: Path, progress: Progress | None = None) -> FideList:
    """A list by FIDE ID: its index next to it, made (or remade, when the list changed or
    the index is not to be trusted) on the first use. Only a regular file is read as a list
    (a named pipe, a device or a link to one is refused at once). Where the list's folder is
    not writable the index goes to the user's private folder (see :mod:`.cache`); where
    neither is usable (a read-only medium, no private folder), the index is made in memory,
    and the list's :attr:`FideList.warnings` say so."""
    try:
        with open_regular(source) as listed:  # refused: a FideInputError naming the file
            return _open(source, listed.fileno(), progress)
    except ListFileError as error:  # every command says which file it is
        raise ListFileError(f"{source}: {error}") from None


def _open(source: Path, listed: int, progress: Progress | None) -> FideList:
    beside = index_path(source)
    folder, no_folder = private_folder()
    key = user_key(folder) if folder is not None else None
    places: list[tuple[str, Path]] = [("next to the list", beside)]
    if folder is not None:
        places.append((f"in {folder}", private_index(folder, source)))
    if key is not None:
        for _, index in places:
            found = _opened(index, source, listed, key)
            if found is not None:
                return found
    made = _built(listed, progress, key)
    refused = []
    if key is None:
        why = "; ".join(no_folder) if folder is None else f"{folder}: its key cannot be made"
        refused.append(f"no private folder for its key ({why})")
    else:
        for place, index in places:
            if foreign(index):  # a shared folder: that user's index stays
                refused.append(f"{place}: another user's file has its name")
                continue
            try:
                written = write_new(index, made.parts())
            except OSError as error:  # read-only, not allowed, full: the next place
                refused.append(f"{place}: {(error.strerror or str(error)).lower()}")
                continue
            made.records.clear()  # let go of before the index is looked into
            written.seek(0)
            head = read_head(written, key)
            opened = None if head is None else _mapped(written, head, source, key, index)
            if opened is None:
                raise ListFileError(f"the index written at {index} cannot be read back")
            return opened
    warning = (
        f"the list's index could not be written ({'; '.join(refused)}): the list was read "
        "into memory, and is read again on every use"
    )
    if made.signer is not None:
        made.signer.close()
    data, head = made.in_memory()
    return FideList(data, head, source, key=None, warnings=[warning])
