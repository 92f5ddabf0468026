"""A SQLite store and a clock the storage tests set by hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from handlers.storage import retry
from infra.sqlite_store import SQLiteStore

START = 1_000_000.0


class Clock:
    """A clock that moves only when a test says so."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path, clock: Clock) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "store.sqlite3", clock=clock) as opened:
        yield opened


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lost races are retried at once: no test waits on the jittered backoff."""
    monkeypatch.setattr(retry, "backoff", lambda attempt: 0.0)
