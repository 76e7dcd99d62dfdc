"""Many workbooks recomputed at once, one per processor, their outcomes in the order given.

The workbooks of a batch are independent: each is read, computed and written by a worker
process (forked, as ``period`` and the FIDE list reader do; where the system cannot fork, or
has one processor, or the batch is small, they are computed here one after the other). The
outcomes come back in the order of the files given, whichever finishes first, so that the
messages read as a run one by one would print them.

May import: :mod:`.recalc`, :mod:`.package`, :mod:`fide_rating.workers` and the standard library.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..workers import forked
from .package import WorkbookError
from .recalc import Recalculated, recalc_file

PARALLEL_FROM = 4  # workbooks: from this many on, computed in worker processes


@dataclass(frozen=True, slots=True)
class Failure:
    """A workbook that could not be recomputed: ``known`` for a file's own fault (not a
    workbook, hostile, unwritable), else a fault of ours, named by its type."""

    message: str
    known: bool


Outcome = Recalculated | Failure

# what every workbook of the batch is recomputed with, set before the workers are forked: a
# forked worker inherits it (a closure such as the FIDE list's constants cannot be pickled)
_SETTINGS: dict[str, Any] = {}


def _one(source: Path) -> Outcome:
    """Recompute one workbook (in a worker): its outcome, or why it failed. The computed
    values stay in the worker (only their count travels back)."""
    try:
        outcome = recalc_file(source, **_SETTINGS)
    except WorkbookError as error:
        return Failure(str(error), True)
    except OSError as error:  # in words, without Python's [Errno 2] and the file's name again
        return Failure(error.strerror or str(error), True)
    except Exception as error:  # a fault of ours: this workbook, not the batch
        return Failure(f"an internal error ({type(error).__name__}: {error})", False)
    outcome.values = {}
    return outcome


def processors() -> int:
    """The processors this process may run on (its affinity where the system says, else all
    the machine has)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return os.cpu_count() or 1


def load() -> float:
    """How many processes wanted a processor over the last minute (0 where the system does not
    say: Windows)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def workers_for(count: int) -> int:
    """How many processes a batch of ``count`` workbooks gets: one a processor left idle by
    the machine's load, counting this one's (at most 8); one where no processor is idle, or
    there is a single one, or the batch is small, or there is no ``fork``. A worker on a busy
    processor only shares it: a batch is never slower than one process."""
    cores = min(processors(), 8)
    if cores < 2 or count < PARALLEL_FROM or "fork" not in mp.get_all_start_methods():
        return 1
    idle = int(cores - load() + 1)  # this process's own share counts as idle
    return max(1, min(cores, count, idle))


def recalc_files(sources: Sequence[Path], **settings: Any) -> Iterator[tuple[Path, Outcome]]:
    """Each workbook recomputed (``settings`` as :func:`.recalc.recalc_file` takes them), with
    its outcome, in the order given; one that fails does not stop the others."""
    _SETTINGS.clear()
    _SETTINGS.update(settings)
    workers = workers_for(len(sources))
    if workers == 1:
        for source in sources:
            yield source, _one(source)
        return
    with forked(workers) as pool:  # a Ctrl-C stops the batch, not a worker holding a lock
        yield from zip(sources, pool.map(_one, sources), strict=True)
