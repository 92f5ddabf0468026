"""The read cache: one backend read per key and update, private copies, conflicts read afresh."""

from __future__ import annotations

import pytest

from infra.read_cache import ReadCache
from infra.sqlite_store import SQLiteStore
from infra.store import Conflict, Item

KEY = "game#-1"


@pytest.fixture
def cache(sqlite_store: SQLiteStore) -> ReadCache:
    return ReadCache(sqlite_store)


def test_inside_a_scope_a_key_is_read_once_and_each_load_is_a_private_copy(
    cache: ReadCache,
) -> None:
    cache.save(Item(KEY, 0, {"players": [1]}))
    with cache.scope():
        first = cache.load(KEY)
        first.data["players"].append(2)  # a caller changing its copy
        second = cache.load(KEY)
        assert cache.reads == 1
    assert second.data == {"players": [1]} and second.version == 1


def test_a_save_is_remembered_and_an_absent_key_too(cache: ReadCache) -> None:
    with cache.scope():
        assert cache.load(KEY) is None
        assert cache.load(KEY) is None
        cache.save(Item(KEY, 0, {"a": 1}))
        assert cache.load(KEY) == Item(KEY, 1, {"a": 1})
        assert cache.reads == 1


def test_a_conflict_forgets_the_key_so_the_next_load_reads_afresh(
    cache: ReadCache, sqlite_store: SQLiteStore
) -> None:
    cache.save(Item(KEY, 0, {"a": 1}))
    with cache.scope():
        stale = cache.load(KEY)
        sqlite_store.save(Item(KEY, 1, {"a": 2}))  # another instance writes meanwhile
        with pytest.raises(Conflict):
            cache.save(Item(KEY, stale.version, {"a": 3}))
        assert cache.load(KEY).data == {"a": 2}
        assert cache.reads == 2


def test_outside_a_scope_every_load_reaches_the_backend(cache: ReadCache) -> None:
    cache.save(Item(KEY, 0, {"a": 1}))
    cache.load(KEY)
    cache.load(KEY)
    assert cache.reads == 2 and cache.writes == 1


def test_load_many_reads_what_the_scope_has_not_seen_in_one_call(
    cache: ReadCache, sqlite_store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("a", "b", "c"):
        cache.save(Item(key, 0, {"key": key}))
    calls: list[list[str]] = []
    real = sqlite_store.load_many

    def counted(keys: list[str]) -> dict:
        calls.append(list(keys))
        return real(keys)

    monkeypatch.setattr(sqlite_store, "load_many", counted)
    with cache.scope():
        cache.load("a")
        found = cache.load_many(["a", "b", "c", "d"])
        reads = cache.reads
        assert [cache.load(k) for k in ("a", "b", "c", "d")] == list(found.values())
        assert cache.reads == reads  # all four answered from the scope
    assert calls == [["b", "c", "d"]]
    assert found["d"] is None and found["b"] == Item("b", 1, {"key": "b"})
