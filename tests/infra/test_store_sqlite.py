"""SQLite specifics: expired rows cleaned up, write-ahead logging, and processes sharing a file
lose no update."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from infra.sqlite_store import SQLiteStore
from infra.store import Item
from testing.drivers import START, FakeClock

ROOT = Path(__file__).resolve().parents[2]


def _rows(path: str | Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT key, version FROM items ORDER BY key").fetchall()
    finally:
        conn.close()


def test_sqlite_cleanup_removes_expired_rows(sqlite_store: SQLiteStore, clock: FakeClock) -> None:
    sqlite_store.save(Item("a", 0, {}, expires_at=START + 10))
    sqlite_store.save(Item("b", 0, {}, expires_at=START + 100))
    sqlite_store.save(Item("c", 0, {}))
    clock.advance(50)

    assert sqlite_store.cleanup() == 1
    assert _rows(sqlite_store.path) == [("b", 1), ("c", 1)]
    assert sqlite_store.cleanup(now=START + 1000) == 1
    assert _rows(sqlite_store.path) == [("c", 1)]


def test_sqlite_cleanup_runs_when_the_store_is_opened(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "games.sqlite3"
    with SQLiteStore(path, clock=clock) as first:
        first.save(Item("old", 0, {}, expires_at=START + 10))
        first.save(Item("kept", 0, {}))

    clock.advance(10)
    with SQLiteStore(path, clock=clock):
        assert _rows(path) == [("kept", 1)]


def test_sqlite_uses_write_ahead_logging(sqlite_store: SQLiteStore) -> None:
    conn = sqlite3.connect(sqlite_store.path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()


_APPENDER = """
import sys
from dataclasses import replace
from infra.sqlite_store import SQLiteStore
from infra.store import Conflict

path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with SQLiteStore(path) as store:
    for n in range(count):
        while True:
            item = store.load("shared")
            try:
                store.save(replace(item, data={"log": [*item.data["log"], f"{name}{n}"]}))
                break
            except Conflict:
                pass
"""


@pytest.mark.slow
def test_sqlite_processes_lose_no_update(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with SQLiteStore(path) as store:
        store.save(Item("shared", 0, {"log": []}))
    names, count = "abcd", 15

    processes = [
        subprocess.Popen([sys.executable, "-c", _APPENDER, str(path), name, str(count)], cwd=ROOT)
        for name in names
    ]
    assert [process.wait(timeout=30) for process in processes] == [0] * len(names)

    with SQLiteStore(path) as store:
        final = store.load("shared")
    assert final is not None
    assert sorted(final.data["log"]) == sorted(
        f"{name}{n}" for name in names for n in range(count)
    )
    assert final.version == 1 + len(names) * count
