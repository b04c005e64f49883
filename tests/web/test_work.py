"""The coach's and reviews' worker processes: killed when their time or memory is up, a
bounded queue, and nothing of theirs left running (ninetynine.web.work)."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from pathlib import Path

import pytest

from ninetynine.errors import NinetyNineError
from ninetynine.web.errors import LimitError
from ninetynine.web.limits import Limits
from ninetynine.web.work import MiB, Workers

LIMITS = Limits(workers=1, work_queue=1, worker_memory=256)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def jobs_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker imports its job's function by name, with the server's ``sys.path``: put
    this checkout's root on it, so that the jobs below (functions of this module) can be
    found whether pytest was started as ``pytest`` or ``python -m pytest``."""
    monkeypatch.syspath_prepend(str(ROOT))


def add(a: int, b: int) -> int:
    return a + b


def sleep_forever(pid_file: str) -> None:
    Path(pid_file).write_text(str(os.getpid()))
    time.sleep(3600)


def hog_memory() -> int:
    return len(bytearray(1024 * MiB))  # four times the cap


def refuse() -> None:
    raise NinetyNineError("action 7 ('KS'): not in the hand")


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]


def test_a_job_runs_in_a_worker_under_its_memory_cap() -> None:
    workers = Workers(LIMITS)
    assert run(workers.run(add, 2, 3, seconds=30, limit="bot_seconds", what="adding")) == 5
    assert 0 < workers.stats.peak_rss < LIMITS.worker_memory * MiB
    assert workers.stats.done == 1


def test_a_job_past_its_time_is_killed(tmp_path: Path) -> None:
    workers = Workers(LIMITS)
    pid_file = tmp_path / "pid"
    with pytest.raises(LimitError) as refused:
        run(
            workers.run(
                sleep_forever, str(pid_file), seconds=1.5, limit="review_seconds", what="the review"
            )
        )
    assert refused.value.limit == "review_seconds"
    assert "the review ran out of time (1.5 s)" in str(refused.value)
    assert gone(int(pid_file.read_text()))  # killed, not left to sleep
    assert workers.stats.killed == 1


def test_a_job_past_its_memory_is_stopped() -> None:
    workers = Workers(LIMITS)
    with pytest.raises(LimitError) as refused:
        run(workers.run(hog_memory, seconds=30, limit="bot_seconds", what="the coach"))
    assert refused.value.limit == "worker_memory"
    assert "the coach needed more memory than the server gives it (256 MiB)" in str(refused.value)


def test_the_work_s_own_error_comes_back_as_one_line() -> None:
    workers = Workers(LIMITS)
    with pytest.raises(NinetyNineError, match=r"^action 7 \('KS'\): not in the hand$"):
        run(workers.run(refuse, seconds=30, limit="bot_seconds", what="the review"))


def test_the_queue_is_a_limit(tmp_path: Path) -> None:
    """One worker busy, one request waiting: the next is refused at once, typed."""
    workers = Workers(dataclasses.replace(LIMITS, workers=1, work_queue=1))

    async def crowd() -> tuple[list[object], float]:
        jobs = [
            asyncio.ensure_future(
                workers.run(
                    sleep_forever,
                    str(tmp_path / f"pid{i}"),
                    seconds=2,
                    limit="review_seconds",
                    what="the review",
                )
            )
            for i in range(2)
        ]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        try:
            await workers.run(add, 1, 1, seconds=2, limit="bot_seconds", what="the coach")
        except LimitError as e:
            third: object = e
        waited = time.monotonic() - started
        return [*await asyncio.gather(*jobs, return_exceptions=True), third], waited

    results, waited = run(crowd())  # type: ignore[misc]
    refused = results[2]
    assert isinstance(refused, LimitError) and refused.limit == "work_queue"
    assert refused.code == "busy" and "try the coach again in a minute" in str(refused)
    assert waited < 1  # refused, not queued behind the others
    assert all(isinstance(r, LimitError) and r.limit == "review_seconds" for r in results[:2])
    assert workers.stats.refused == 1
