"""Heavy work off the server's process: the coach and reviews, in worker processes that are
killed, not asked, when their time or memory is up.

The bots' moves never come here (they have their own threads, see
:mod:`ninetynine.web.lobby`), so no coach request or review can take their capacity. A job
waits for one of ``workers`` slots in a queue of at most ``work_queue``; past that it is
refused with a typed :class:`~ninetynine.web.errors.LimitError`. Each job runs in a fresh
process forked from a fork server that has the engine imported already (a few
milliseconds to start, none of the server's threads or sockets inherited), at a lower CPU
priority than the server, under an address-space cap of ``worker_memory`` MiB, and is
killed when its seconds are up.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import resource
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from typing import Any, TypeVar, cast

from ninetynine.errors import NinetyNineError
from ninetynine.web.errors import ErrorCode, LimitError
from ninetynine.web.limits import Limits

T = TypeVar("T")
MiB = 1 << 20
# Workers yield the CPU to the server's process (its bots and tables) when both want it.
NICENESS = 15
# What the fork server imports once, so that every worker starts with it in memory.
PRELOAD = ["ninetynine.coach", "ninetynine.web.wire"]


@dataclass
class WorkStats:
    """What the workers did, for the operator and the tests."""

    done: int = 0
    killed: int = 0  # out of time or memory
    refused: int = 0  # the queue was full
    peak_rss: int = 0  # the largest resident memory a worker reported, in bytes


class Workers:
    """Runs functions in killable worker processes, a bounded number at once."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(PRELOAD)
        self.waiting = 0
        self.stats = WorkStats()
        self._slots: asyncio.Semaphore | None = None  # made on the server's event loop
        self._running: set[multiprocessing.process.BaseProcess] = set()

    def warm(self) -> None:
        """Start the fork server now (a second or so), not on the first request."""
        forkserver.ensure_running()

    async def run(
        self, fn: Callable[..., T], *args: Any, seconds: float, limit: str, what: str
    ) -> T:
        """``fn(*args)`` in a worker; ``limit`` names the time limit in a refusal.

        Raises LimitError when the queue is full (``work_queue``), the time is up
        (``limit``) or the memory (``worker_memory``). A :class:`NinetyNineError` that ``fn``
        raised comes back as a NinetyNineError with its message; any other error, or a worker
        that died without answering, as a RuntimeError.
        """
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.workers)
        if self._slots.locked() and self.waiting >= self.limits.work_queue:
            self.stats.refused += 1
            raise LimitError(
                "work_queue",
                f"the server is busy with {self.waiting} other "
                f"requests like this one: try {what} again in a minute",
                code=ErrorCode.BUSY,
            )
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        try:
            return await asyncio.to_thread(self._run_one, fn, args, seconds, limit, what)
        finally:
            self._slots.release()

    def _run_one(
        self, fn: Callable[..., T], args: tuple[Any, ...], seconds: float, limit: str, what: str
    ) -> T:
        receiver, sender = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=_work, daemon=True, args=(sender, fn, args, self.limits.worker_memory * MiB)
        )
        process.start()
        sender.close()
        self._running.add(process)
        try:
            if not receiver.poll(seconds):
                self.stats.killed += 1
                raise LimitError(
                    limit, f"{what} ran out of time ({seconds:g} s)", code=ErrorCode.WORK_TIMEOUT
                )
            try:
                outcome, value, rss = receiver.recv()
            except EOFError:  # the worker died without a word
                process.join(5)
                if process.exitcode is not None and process.exitcode < 0:  # a signal: the
                    self.stats.killed += 1  # kernel stopped it (out of memory)
                    raise LimitError(
                        "worker_memory",
                        f"{what} needed more memory than the server gives it",
                        code=ErrorCode.WORK_MEMORY,
                    ) from None
                raise RuntimeError(
                    f"{what}: its worker exited with code {process.exitcode} before answering"
                ) from None
        finally:
            process.kill()  # done or not, the process goes now
            process.join()
            self._running.discard(process)
            receiver.close()
        self.stats.peak_rss = max(self.stats.peak_rss, rss)
        if outcome is Outcome.MEMORY:
            self.stats.killed += 1
            raise LimitError(
                "worker_memory",
                f"{what} needed more memory than the server "
                f"gives it ({self.limits.worker_memory} MiB)",
                code=ErrorCode.WORK_MEMORY,
            )
        if outcome is Outcome.REFUSED:  # the work's own one-line error (a bad record, ...)
            raise NinetyNineError(value)
        if outcome is Outcome.FAILED:
            raise RuntimeError(f"{what} failed in its worker: {value}")
        self.stats.done += 1
        return cast(T, value)

    def close(self) -> None:
        """Kill whatever still runs (the server is stopping)."""
        for process in list(self._running):
            process.kill()


def _address_space() -> int:
    """This process's virtual memory in bytes (Linux; 0 where it cannot be read)."""
    try:
        pages = int(open("/proc/self/statm").read().split()[0])  # noqa: SIM115 (one read)
    except (OSError, ValueError, IndexError):
        return 0
    return pages * resource.getpagesize()


class Outcome(Enum):
    """How a worker's job ended, as it tells the server."""

    DONE = "done"
    MEMORY = "memory"  # it ran out of the memory it may use
    REFUSED = "refused"  # the work's own error (NinetyNineError): its message goes back
    FAILED = "failed"  # a bug: its repr goes back, for the log


def _work(sender: Connection, fn: Callable[..., Any], args: tuple[Any, ...], memory: int) -> None:
    """A worker's life: cap its memory, run ``fn``, send ``(outcome, value, peak rss)``.
    The cap is on what the work adds to the address space the worker starts with (the
    engine, and whatever its parent's main module imported)."""
    cap = _address_space() + memory
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    os.nice(NICENESS)
    try:
        reply: tuple[Outcome, Any] = (Outcome.DONE, fn(*args))
    except MemoryError:
        reply = (Outcome.MEMORY, None)
    except NinetyNineError as e:
        reply = (Outcome.REFUSED, str(e))
    except Exception as e:
        reply = (Outcome.FAILED, repr(e))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    try:
        sender.send((*reply, rss))
    except MemoryError:
        sender.send((Outcome.MEMORY, None, rss))
