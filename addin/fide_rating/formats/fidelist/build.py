"""Reading a whole list for its index: the file or the list inside a zip, the text or XML
reader it needs, and the parallel reader of a large XML list (every processor, each worker
reading its own range of the file). Gives what :mod:`.index` writes: the records and keys
(:class:`~.common.Gathered`) and the problems.

May import: the standard library, :mod:`fide_rating.files` and :mod:`fide_rating.rules.errors`.
"""

from __future__ import annotations

import array
import contextlib
import functools
import io
import itertools
import multiprocessing as mp
import operator
import os
import sys
import tempfile
import zipfile
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ...files import open_regular
from ...workers import fork_pool
from .common import (
    MAX_ERRORS,
    MAX_UNPACKED,
    Gathered,
    ListedPlayer,
    ListError,
    ListFileError,
    Progress,
    Read,
    note,
)
from .content import FINGERPRINT_BLOCK, Fingerprint, Hashing, fingerprint_of, pread
from .textlist import BLOCK_LINES, published_lines, record, text_players
from .xmllist import (
    OVERRUN,
    Job,
    Ranged,
    blocks_from,
    check_end,
    check_head,
    check_tail,
    chunks,
    follow,
    simple_head,
    tail_players,
    xml_players,
    xml_range,
    xml_results,
)
from .xmlparse import Block, streamed

PARALLEL_XML = 1 << 26  # bytes: a larger XML list is read on every processor
RANGE = 1 << 26  # bytes of the XML file a worker reads itself


@dataclass
class Source:
    """A list file opened: its bytes (those of the list inside a zip), text or XML, and their
    size (unpacked)."""

    data: IO[bytes]
    kind: str  # "txt" or "xml"
    size: int
    zipped: bool
    stack: contextlib.ExitStack
    fingerprint: Fingerprint | None = None  # a plain file's, taken as it is read

    def check_whole(self) -> None:
        """After reading to the end: the list inside a zip gave all the bytes it says it has
        (its CRC is checked by :mod:`zipfile` as its end is read)."""
        if self.zipped and (got := self.data.tell()) != self.size:
            raise ListFileError(
                f"the list in the zip ends after {got:,} of its {self.size:,} bytes (a broken "
                f"download?): expected {self.size:,} bytes, got {got:,}"
            )


def open_source(listed: int) -> Source:
    """The bytes of the list open as ``listed`` (a regular file; the list inside a zip), and
    whether it is text or XML."""
    stack = contextlib.ExitStack()
    try:
        raw: IO[bytes] = stack.enter_context(os.fdopen(os.dup(listed), "rb"))
        if zipfile.is_zipfile(raw):
            raw.seek(0)
            archive = stack.enter_context(zipfile.ZipFile(raw))
            names = [n for n in archive.namelist() if n.lower().endswith((".txt", ".xml"))]
            if len(names) != 1:
                raise ListFileError(
                    f"expected one .txt or .xml list in the zip, got: {names or 'none'}"
                )
            info = archive.getinfo(names[0])
            if info.file_size > MAX_UNPACKED:
                raise ListFileError(
                    f"expected a list of at most {MAX_UNPACKED:,} bytes in the zip (FIDE's is "
                    f"about 1 GB), got {names[0]} of {info.file_size:,} bytes"
                )
            if info.flag_bits & 0x1:
                raise ListFileError(
                    f"{names[0]} in the zip is encrypted: expected FIDE's list as published "
                    "(not encrypted), got one that needs a password"
                )
            try:
                member = stack.enter_context(archive.open(info))
            except NotImplementedError as error:  # a compression zipfile cannot unpack
                raise ListFileError(
                    f"{names[0]} in the zip cannot be unpacked: expected FIDE's list as "
                    f"published (deflated), got {str(error).lower()}"
                ) from None
            kind = "xml" if names[0].lower().endswith(".xml") else "txt"
            return Source(member, kind, info.file_size, True, stack)
        head = pread(listed, 64, 0)
        size = os.fstat(listed).st_size
        if head.startswith(b"PK\x03\x04"):  # a zip's first entry, and no directory at its end
            raise ListFileError(
                "the zip file is cut off (a broken download?): expected a whole zip, with its "
                f"directory at the end, got {size:,} bytes without it"
            )
        kind = "xml" if head.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"<") else "txt"
        fingerprint = Fingerprint()
        raw.seek(0)
        unbuffered = stack.enter_context(io.FileIO(os.dup(listed), "rb"))
        data = io.BufferedReader(Hashing(unbuffered, fingerprint), 1 << 16)
        return Source(data, kind, size, False, stack, fingerprint)
    except BaseException:
        stack.close()
        raise


def read_players(path: Path, errors: list[ListError], progress: Read | None = None
                 ) -> Iterator[ListedPlayer]:  # fmt: skip
    """Every player of a list file (text, XML, or either zipped), streaming; only a regular
    file is read."""
    with open_regular(path) as listed:
        yield from _players(listed.fileno(), errors, progress)


def _players(listed: int, errors: list[ListError], progress: Read | None
             ) -> Iterator[ListedPlayer]:  # fmt: skip
    source = open_source(listed)
    with source.stack:
        reader = xml_players if source.kind == "xml" else text_players
        yield from reader(source.data, errors, progress)
        source.check_whole()


Content = tuple[int, list[int]]  # a list's fingerprint: the bytes a CRC-32 covers, the CRCs


def read_list(
    listed: int, progress: Progress | None, into: Gathered
) -> tuple[list[ListError], Gathered, Content]:
    """Every player of the list open as ``listed`` as index records and keys (``into``), the
    problems found, and the list's fingerprint (see :mod:`.content`)."""
    errors: list[ListError] = []
    opened = open_source(listed)
    content: Content | None = None
    with opened.stack:
        data, size = opened.data, opened.size
        read = None if progress is None else functools.partial(_bytes_read, progress, size)
        fast = True
        parallel = opened.kind == "xml" and size >= PARALLEL_XML and _can_fork()
        folder = None  # where a zipped XML list is unpacked for the workers
        if parallel and opened.zipped:
            with contextlib.suppress(OSError):  # no temporary folder: one processor reads
                folder = Path(opened.stack.enter_context(tempfile.TemporaryDirectory()))
        if parallel and not opened.zipped:  # the workers take the fingerprint: a CRC a range
            ranges = _Ranges(listed, size)
            crcs = _xml_in_ranges(ranges, _ranges_of(ranges), errors, into, read)
            content = None if crcs is None else (RANGE, crcs)
            opened.fingerprint = None  # the file was not read through it
        elif folder is not None:
            ranges = _Ranges(-1)
            _xml_in_ranges(ranges, _unzipped_ranges(data, folder, ranges), errors, into, read)
        elif opened.kind == "xml":
            _xml_serial(data, errors, into, read)
        else:
            fast = published_lines(data, errors, into, read)
        if fast:
            opened.check_whole()
            if content is None and opened.fingerprint is not None:
                content = opened.fingerprint.block, opened.fingerprint.crcs()
    if not fast:
        ids: list[int] = []
        records = bytearray()
        for p in _players(listed, errors, read):
            if p.fide_id >= 1 << 32:
                note(errors, 0, f"FIDE ID {p.fide_id} is too large")
                continue
            ids.append(p.fide_id)
            records += record(p)
            if len(ids) == BLOCK_LINES:
                into.add(ids, records)
                ids, records = [], bytearray()
        into.add(ids, records)
    if content is None:  # a zip, or a text list read line by line: the file read once more
        content = FINGERPRINT_BLOCK, fingerprint_of(listed)
    return errors, into, content


def _bytes_read(progress: Progress, size: int, read: int) -> None:
    progress(min(read, size), size)


def _can_fork() -> bool:
    return (os.cpu_count() or 1) > 1 and "fork" in mp.get_all_start_methods()


def _take(result: Block, count: int, errors: list[ListError], into: Gathered) -> int:
    """One block's players added in order; the number of players read so far, after it."""
    block_keys, block_records, problems, seen = result
    keys = array.array("Q")
    keys.frombytes(block_keys)
    into.add_keyed(keys, block_records)
    for where, message in problems:
        note(errors, count + where, message)
    return count + seen


def _xml_serial(
    data: IO[bytes], errors: list[ListError], into: Gathered, progress: Read | None
) -> None:
    """A small XML list (or one where processes cannot be forked), block by block."""
    count = 0
    for block in xml_results(data, progress):
        count = _take(block, count, errors, into)


_LAST: Job = (-1, -1, -1, False, b"", -1)  # after the last range: the file is whole


class _Ranges:
    """An XML file read in ranges by the workers: the file, its root tag and where its first
    player starts (once its start is checked; no root: the parser reads it whole), its size
    (once known: a zipped list's when unpacked)."""

    def __init__(self, fd: int, size: int = 0) -> None:
        self.fd = fd
        self.size = size
        self.root: bytes | None = None
        self.first = 0


def _ranges_of(ranges: _Ranges) -> Iterator[Job]:
    """The ranges of the XML file open as ``ranges.fd``, once its start and its end are
    checked (the workers, forked, read the file open here: never another one put in its
    place). None where the list's start is not FIDE's plain one."""
    head = pread(ranges.fd, 1 << 12, 0)
    check_head(head)
    check_tail(pread(ranges.fd, OVERRUN, max(0, ranges.size - OVERRUN)), ranges.size)
    simple = simple_head(head)
    if simple is not None:
        ranges.root, ranges.first = simple
        for at in range(0, ranges.size, RANGE):
            yield ranges.fd, at, min(at + RANGE, ranges.size), True, ranges.root, ranges.first
    yield _LAST


def _unzipped_ranges(member: IO[bytes], folder: Path, ranges: _Ranges) -> Iterator[Job]:
    """A zipped XML list unpacked into a file in ``folder``, a range given out as soon as it
    (and the start of the next, where its last player ends) is on disk: the workers read while
    the rest is unpacked. What follows the last ``</player>`` is watched as it is unpacked:
    a stretch without one longer than any player stops the unpacking at once."""
    path = folder / "list.xml"
    start = written = 0
    tail = b""
    with path.open("w+b") as out:
        ranges.fd = out.fileno()
        while chunk := member.read(1 << 22):
            if not written:
                check_head(chunk[: 1 << 12])
                simple = simple_head(chunk[: 1 << 12])
                if simple is not None:
                    ranges.root, ranges.first = simple
            tail = follow(tail, chunk, written)
            out.write(chunk)
            written += len(chunk)
            if ranges.root is not None and written >= start + RANGE + OVERRUN:
                out.flush()
                while written >= start + RANGE + OVERRUN:
                    yield ranges.fd, start, start + RANGE, False, ranges.root, ranges.first
                    start += RANGE
        if not written:
            check_head(b"")
        check_end(tail, written - len(tail))
        out.flush()
        ranges.size = written
        if ranges.root is not None:
            for at in range(start, written, RANGE):
                yield ranges.fd, at, min(at + RANGE, written), False, ranges.root, ranges.first
        yield _LAST  # the file stays open while the parser may read it


def _xml_in_ranges(
    ranges: _Ranges,
    jobs: Iterator[Job],
    errors: list[ListError],
    into: Gathered,
    progress: Read | None,
) -> list[int] | None:
    """A large XML list read by every processor, each worker its own ranges of the file;
    their results taken in order, each block checked to start where the one before it ends.
    From the first block the workers could not prove plain (or any gap), the parser reads the
    rest of the file in one stream. Gives the CRC-32 of each range (None where the parser read
    any of it: the fingerprint is then taken apart)."""
    workers = min(os.cpu_count() or 1, 8)
    count = 0
    pool = fork_pool(workers)  # its workers leave Ctrl-C to the command
    waiting: deque[tuple[Job, Future[Ranged]]] = deque()
    crcs: list[int] = []
    expected = -1  # where the next block must start; -1: at the first player
    parse_from = -1  # where the parser must read on from (-1: nowhere yet)

    def take() -> None:
        nonlocal count, expected, parse_from
        job, future = waiting.popleft()
        block, crc, first, stop = future.result()
        crcs.append(crc)
        if expected < 0:
            expected = ranges.first
        if parse_from < 0 and first >= 0:
            if first != expected or block is None:
                parse_from = expected
                return
            count = _take(block, count, errors, into)
            expected = stop
        if progress is not None:
            progress(job[2])

    try:
        for job in jobs:
            if job == _LAST:
                break
            waiting.append((job, pool.submit(xml_range, job)))
            while waiting and waiting[0][1].done() and parse_from < 0:
                take()  # (after a block the workers could not read: not a result looked at)
            if parse_from >= 0:
                while next(jobs) != _LAST:  # a zipped list: unpacked to its end
                    pass
                break
        while waiting and parse_from < 0:
            take()
    except BaseException:  # a refused list: the ranges not yet read are not read
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown(cancel_futures=True)
    if ranges.root is None:  # the whole list, by the parser
        for block in streamed(chunks(ranges.fd, 0, ranges.size), 0, None):
            count = _take(block, count, errors, into)
        return None
    if expected < 0:
        expected = ranges.first
    if parse_from < 0:
        tail = pread(ranges.fd, ranges.size - expected, expected)
        for block in tail_players(tail, expected, ranges.root):
            count = _take(block, count, errors, into)
        return crcs
    rest = chunks(ranges.fd, parse_from, ranges.size)
    for block in blocks_from(rest, parse_from, ranges.root):
        count = _take(block, count, errors, into)
    return None


def sorted_keys_of(into: Gathered, errors: list[ListError]) -> array.array[int]:
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
