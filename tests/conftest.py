"""Fixtures shared by every test folder."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from ninetynine.bots import protocol as engine_protocol


@pytest.fixture
def bot_processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[subprocess.Popen[str]]]:
    """Every process a protocol bot starts during the test. The list keeps them referenced,
    so only an explicit close ends them (not garbage collection); leftovers are killed."""
    started: list[subprocess.Popen[str]] = []
    real = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[str]:
        proc = real(*args, **kwargs)
        started.append(proc)
        return proc

    monkeypatch.setattr(engine_protocol.subprocess, "Popen", popen)
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English whatever the machine's locale: ``LANGUAGE`` is the first
    place ``ninetynine.language.choose`` looks (a test of another language sets its own)."""
    monkeypatch.setenv("LANGUAGE", "en")
