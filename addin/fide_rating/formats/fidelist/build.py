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
import multiprocessing as mp
import os
import tempfile
import zipfile
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import IO

from .common import Gathered, ListedPlayer, ListError, ListFileError, Progress, Read, note
from .textlist import BLOCK_LINES, published_lines, record, text_players
from .xmllist import Block, Job, check_head, xml_block, xml_blocks, xml_players, xml_range

PARALLEL_XML = 1 << 26  # bytes: a larger XML list is read on every processor
RANGE = 1 << 26  # bytes of the XML file a worker reads itself


def open_source(path: Path) -> tuple[IO[bytes], str, contextlib.ExitStack]:
    """The list's bytes (the list inside a zip), and whether it is text or XML."""
    stack = contextlib.ExitStack()
    raw: IO[bytes] = stack.enter_context(path.open("rb"))
    if zipfile.is_zipfile(raw):
        raw.seek(0)
        archive = stack.enter_context(zipfile.ZipFile(raw))
        names = [n for n in archive.namelist() if n.lower().endswith((".txt", ".xml"))]
        if len(names) != 1:
            stack.close()
            raise ListFileError(
                f"expected one .txt or .xml list in the zip, got: {names or 'none'}"
            )
        member = stack.enter_context(archive.open(names[0]))
        return member, "xml" if names[0].lower().endswith(".xml") else "txt", stack
    raw.seek(0)
    head = raw.read(64).lstrip(b"\xef\xbb\xbf").lstrip()
    raw.seek(0)
    return raw, "xml" if head.startswith(b"<") else "txt", stack


def read_players(path: Path, errors: list[ListError], progress: Read | None = None
                 ) -> Iterator[ListedPlayer]:  # fmt: skip
    """Every player of a list file (text, XML, or either zipped), streaming."""
    data, kind, stack = open_source(path)
    with stack:
        reader = xml_players if kind == "xml" else text_players
        yield from reader(data, errors, progress)


def read_list(source: Path, progress: Progress | None) -> tuple[list[ListError], Gathered]:
    """Every player of the list as index records and keys, and the problems found."""
    errors: list[ListError] = []
    into = Gathered()
    data, kind, stack = open_source(source)
    with stack:
        zipped = zipfile.is_zipfile(source)
        size = _unpacked_size(source) if zipped else source.stat().st_size
        read = None if progress is None else functools.partial(_bytes_read, progress, size)
        fast = True
        if kind == "xml" and size >= PARALLEL_XML and _can_fork():
            if zipped:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
                _xml_in_ranges(_unzipped_ranges(data, folder), errors, into, read)
            else:
                _xml_in_ranges(_ranges_of(source, size), errors, into, read)
        elif kind == "xml":
            _xml_serial(data, errors, into, read)
        else:
            fast = published_lines(data, errors, into, read)
    if not fast:
        ids: list[int] = []
        records = bytearray()
        for p in read_players(source, errors, read):
            if p.fide_id >= 1 << 32:
                note(errors, 0, f"FIDE ID {p.fide_id} is too large")
                continue
            ids.append(p.fide_id)
            records += record(p)
            if len(ids) == BLOCK_LINES:
                into.add(ids, records)
                ids, records = [], bytearray()
        into.add(ids, records)
    return errors, into


def _bytes_read(progress: Progress, size: int, read: int) -> None:
    progress(min(read, size), size)


def _unpacked_size(source: Path) -> int:
    with zipfile.ZipFile(source) as archive:
        return sum(info.file_size for info in archive.infolist())


def _can_fork() -> bool:
    return (os.cpu_count() or 1) > 1 and "fork" in mp.get_all_start_methods()


def _take(result: Block, count: int, errors: list[ListError], into: Gathered) -> int:
    """One block's players added in order; the number of players read so far, after it."""
    block_keys, block_ids, block_records, problems, seen = result
    keys, ids = array.array("Q"), array.array("I")
    keys.frombytes(block_keys)
    ids.frombytes(block_ids)
    into.add_keyed(keys, ids, block_records)
    for where, message in problems:
        note(errors, count + where, message)
    return count + seen


def _xml_serial(
    data: IO[bytes], errors: list[ListError], into: Gathered, progress: Read | None
) -> None:
    """A small XML list (or one where processes cannot be forked), block by block."""
    count = 0
    for block in xml_blocks(data, progress):
        count = _take(xml_block(block), count, errors, into)


def _ranges_of(source: Path, size: int) -> Iterator[Job]:
    with source.open("rb") as f:
        check_head(f.read(1 << 12))
    for at in range(0, size, RANGE):
        yield str(source), at, min(at + RANGE, size)


def _unzipped_ranges(member: IO[bytes], folder: Path) -> Iterator[Job]:
    """A zipped XML list unpacked into a file in ``folder``, a range given out as soon as it
    (and the start of the next, where its last player ends) is on disk: the workers read while
    the rest is unpacked."""
    path = folder / "list.xml"
    start = written = 0
    with path.open("wb") as out:
        while chunk := member.read(1 << 22):
            if not written:
                check_head(chunk[: 1 << 12])
            out.write(chunk)
            written += len(chunk)
            if written >= start + RANGE + (1 << 16):
                out.flush()
                while written >= start + RANGE + (1 << 16):
                    yield str(path), start, start + RANGE
                    start += RANGE
    if not written:
        check_head(b"")
    for at in range(start, written, RANGE):
        yield str(path), at, min(at + RANGE, written)


def _xml_in_ranges(
    jobs: Iterator[Job], errors: list[ListError], into: Gathered, progress: Read | None
) -> None:
    """A large XML list read by every processor, each worker its own ranges of the file;
    their results taken in order."""
    workers = min(os.cpu_count() or 1, 8)
    count = 0
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        waiting: deque[tuple[Job, Future[Block]]] = deque()

        def take() -> None:
            nonlocal count
            job, future = waiting.popleft()
            count = _take(future.result(), count, errors, into)
            if progress is not None:
                progress(job[2])

        for job in jobs:
            waiting.append((job, pool.submit(xml_range, job)))
            while waiting and waiting[0][1].done():
                take()
        while waiting:
            take()
