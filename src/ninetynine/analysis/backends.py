"""Where the chunks are played: local processes or a Ray cluster.

Either way every chunk is one future, and the driver takes the results through the same
:func:`concurrent.futures.as_completed` loop as they finish, in whatever order; only the
driver writes files. A Ray run started here starts a one-machine cluster with
``ray.init(num_cpus=N)``; with ``address`` it joins a running cluster (``ray start --head``
on one machine, ``ray start --address=...`` on the others: ``docs/analysis.md``). A Ray
session already open in this process (a test's, a notebook's) is used as it is.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import ExitStack
from enum import StrEnum

from ninetynine.analysis.batch_play import play_batch_chunk
from ninetynine.analysis.play import ChunkRows, Engine, Task, play_chunk
from ninetynine.analysis.store import available
from ninetynine.errors import NinetyNineError


class Backend(StrEnum):
    """Where the chunks run."""

    LOCAL = "local"  # processes on this machine (concurrent.futures)
    RAY = "ray"  # Ray tasks, on this machine or a cluster


def play_task(task: Task) -> ChunkRows:
    """Play a task's chunk on its engine: the batch engine's or the fast path's loop."""
    return play_batch_chunk(task) if task.engine is Engine.BATCH else play_chunk(task)


def cores() -> int:
    """The processes that ``workers=0`` means: one per core (1 where the count is unknown)."""
    return os.cpu_count() or 1


def played(
    tasks: Sequence[Task], backend: Backend, workers: int = 0, address: str | None = None
) -> Iterator[ChunkRows]:
    """Each task's rows as its chunk finishes. ``workers``: processes (0: one per core);
    one local worker plays in this process."""
    if not tasks:
        return
    with ExitStack() as stack:
        if backend is Backend.RAY:
            futures = _ray_futures(tasks, workers, address, stack)
        elif (workers or cores()) == 1 or len(tasks) == 1:
            yield from map(play_task, tasks)
            return
        else:
            pool = stack.enter_context(ProcessPoolExecutor(min(workers or cores(), len(tasks))))
            futures = [pool.submit(play_task, task) for task in tasks]
        for future in as_completed(futures):
            yield _result(future)


def _ray_futures(
    tasks: Sequence[Task], workers: int, address: str | None, stack: ExitStack
) -> list[Future[ChunkRows]]:
    if not available("ray"):
        raise NinetyNineError('--backend ray needs the ray extra: pip install "ninetynine[ray]"')
    import ray

    if not ray.is_initialized():
        # "local": a cluster of its own, even where another runs on this machine
        options = (
            {"address": address}
            if address
            else {"address": "local", "num_cpus": workers or cores()}
        )
        ray.init(**options, logging_level=logging.WARNING, include_dashboard=False)
        stack.callback(ray.shutdown)
    remote = ray.remote(num_cpus=1, max_retries=2)(play_task)
    return [remote.remote(task).future() for task in tasks]


def _result(future: Future[ChunkRows]) -> ChunkRows:
    """A chunk's rows; a chunk that failed is one line (Ray wraps the worker's error with
    its traceback: the cause alone is told)."""
    try:
        return future.result()
    except NinetyNineError as e:
        cause = getattr(e, "cause", None)
        raise NinetyNineError(str(cause if cause is not None else e).splitlines()[0]) from None
