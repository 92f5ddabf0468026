"""SQLite game store for local play: one WAL-mode file, safe across threads and processes."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType

from infra.store import (
    Conflict,
    Item,
    check_item,
    decode_data,
    decoded_or_not,
    encode_data,
    is_expired,
)

DEFAULT_DB_PATH = "./decapitation.sqlite3"  # in the working directory, unless DECAPITATION_DB says


_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    key TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    expires_at INTEGER
)
"""

# Version 0: insert, or take over a row that has expired.
_INSERT = """
INSERT INTO items (key, version, data, expires_at) VALUES (?, 1, ?, ?)
ON CONFLICT (key) DO UPDATE
SET version = excluded.version, data = excluded.data, expires_at = excluded.expires_at
WHERE items.expires_at IS NOT NULL AND items.expires_at <= ?
"""

_LIVE = "(expires_at IS NULL OR expires_at > ?)"

_UPDATE = f"""
UPDATE items SET version = ?, data = ?, expires_at = ?
WHERE key = ? AND version = ? AND {_LIVE}
"""

_DELETE = f"DELETE FROM items WHERE key = ? AND version = ? AND {_LIVE}"


class SQLiteStore:
    """A `GameStore` in one SQLite file.

    One connection guarded by a lock serves all threads; writes run in `BEGIN IMMEDIATE`
    transactions whose conditional statements make them safe across processes too.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        timeout: float = 10.0,
    ) -> None:
        self.path = os.fspath(path)
        self.reads = 0
        self.writes = 0
        self._clock = clock
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(
            self.path, timeout=timeout, isolation_level=None, check_same_thread=False
        )
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute(_SCHEMA)
        self.cleanup()

    def _now(self) -> int:
        return int(self._clock())

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock and an immediate (write) transaction; commit unless it raises."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def load(self, key: str) -> Item | None:
        """Return the live item stored under `key`, or None."""
        now = self._now()
        with self._lock:
            self.reads += 1
            row = self._conn.execute(
                "SELECT version, data, expires_at FROM items WHERE key = ?", (key,)
            ).fetchone()
        if row is None or is_expired(row[2], now):
            return None
        return Item(key, row[0], decoded_or_not(decode_data, row[1]), row[2])

    def load_many(self, keys: list[str]) -> dict[str, Item | None]:
        """The live items under `keys` (None where absent)."""
        return {key: self.load(key) for key in dict.fromkeys(keys)}

    def save(self, item: Item) -> Item:
        """Store `item` at `item.version + 1` if `item.version` is current; else `Conflict`."""
        check_item(item)
        text = encode_data(item.data)
        now = self._now()
        with self._transaction() as conn:
            self.writes += 1
            self._put(conn, item, text, now)
        return Item(item.key, item.version + 1, item.data, item.expires_at)

    def save_all(self, items: list[Item]) -> list[Item]:
        """Store every item at its version + 1 in one transaction, or none: `Conflict`."""
        for item in items:
            check_item(item)
        texts = [encode_data(item.data) for item in items]
        now = self._now()
        with self._transaction() as conn:
            self.writes += 1
            for item, text in zip(items, texts, strict=True):
                self._put(conn, item, text, now)
        return [Item(i.key, i.version + 1, i.data, i.expires_at) for i in items]

    @staticmethod
    def _put(conn: sqlite3.Connection, item: Item, text: str, now: int) -> None:
        """One conditional write of `item` (its data as `text`) inside a transaction; `Conflict`
        when it finds another version."""
        if item.version == 0:
            cursor = conn.execute(_INSERT, (item.key, text, item.expires_at, now))
        else:
            cursor = conn.execute(
                _UPDATE, (item.version + 1, text, item.expires_at, item.key, item.version, now)
            )
        if cursor.rowcount != 1:
            raise Conflict(item.key, item.version)

    def delete(self, key: str, version: int) -> None:
        """Delete the live item under `key` if it is at `version`; else `Conflict`."""
        if version < 1:
            raise ValueError(f"only stored items (version >= 1) can be deleted, not {version}")
        now = self._now()
        with self._transaction() as conn:
            self.writes += 1
            if conn.execute(_DELETE, (key, version, now)).rowcount != 1:
                raise Conflict(key, version)

    def cleanup(self, now: float | None = None) -> int:
        """Delete expired rows and return how many there were."""
        cutoff = self._now() if now is None else int(now)
        with self._transaction() as conn:
            cursor = conn.execute(
                "DELETE FROM items WHERE expires_at IS NOT NULL AND expires_at <= ?", (cutoff,)
            )
            return cursor.rowcount

    def keys(self, prefix: str) -> list[str]:
        """The live keys starting with `prefix` (the local bot resumes its timers from them)."""
        now = self._now()
        with self._lock:
            rows = self._conn.execute(
                "SELECT key, expires_at FROM items WHERE key >= ? AND key < ?",
                (prefix, prefix + "\uffff"),
            ).fetchall()
        return [key for key, expires_at in rows if not is_expired(expires_at, now)]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
