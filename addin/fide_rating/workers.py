"""Worker processes that leave Ctrl-C to the command.

A Ctrl-C on a terminal interrupts every process of the command, its workers included; a worker
interrupted while it holds the lock of the queue its results go back by blocks the others and
the command for ever. The workers made here ignore it: the command alone is interrupted, drops
the work not begun, waits for the workbooks or files being done (each written whole, by
:func:`fide_rating.files.atomic`) and stops.

May import: the standard library only (every layer may use it).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor


def _leave_interrupt_to_the_command() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def fork_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` forked processes (they inherit what was set before, as the
    commands' settings and lists) that ignore Ctrl-C; shut it down with ``cancel_futures``
    when the command is interrupted, as :func:`forked` does."""
    return ProcessPoolExecutor(
        workers, mp_context=mp.get_context("fork"), initializer=_leave_interrupt_to_the_command
    )


@contextlib.contextmanager
def forked(workers: int) -> Iterator[ProcessPoolExecutor]:
    """:func:`fork_pool` for a ``with`` block: when the block is left by an exception (Ctrl-C,
    or a consumer that stops early) the work not begun is dropped, the work begun finished."""
    pool = fork_pool(workers)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
