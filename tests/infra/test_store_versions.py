"""The GameStore contract, part two, on every backend: optimistic concurrency (a stale version
is a conflict, no update is lost among threads), expiry and deleting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from infra.store import Conflict, GameStore, Item
from testing.drivers import START, FakeClock

from .store_items import KEY, create

# --- Optimistic concurrency -------------------------------------------------------------------


def test_stale_version_is_a_conflict_and_writes_nothing(store: GameStore) -> None:
    first = create(store)
    current = store.save(replace(first, data={"round": 2}))

    with pytest.raises(Conflict) as raised:
        store.save(replace(first, data={"round": 99}))

    assert (raised.value.key, raised.value.version) == (KEY, 1)
    assert store.load(KEY) == current


def test_two_saves_from_the_same_version_exactly_one_wins(store: GameStore) -> None:
    loaded = create(store)
    outcomes = []
    for player in ("alice", "bob"):
        try:
            outcomes.append(store.save(replace(loaded, data={"winner": player})))
        except Conflict:
            outcomes.append(None)

    assert outcomes[1] is None
    assert store.load(KEY) == outcomes[0] == Item(KEY, 2, {"winner": "alice"})


def test_creating_over_a_live_item_is_a_conflict(store: GameStore, clock: FakeClock) -> None:
    existing = create(store, owner="first")
    expiring = store.save(Item("prefs#1", 0, {"owner": "first"}, expires_at=START + 60))
    clock.advance(59)

    for key in (KEY, "prefs#1"):
        with pytest.raises(Conflict):
            store.save(Item(key, 0, {"owner": "second"}))
    assert store.load(KEY) == existing
    assert store.load("prefs#1") == expiring


def test_saving_a_key_that_was_never_stored_at_a_later_version_is_a_conflict(
    store: GameStore,
) -> None:
    with pytest.raises(Conflict):
        store.save(Item(KEY, 3, {"round": 4}))
    assert store.load(KEY) is None


def test_another_handle_sees_writes_and_conflicts_with_them(
    store: GameStore, reopen: Callable[[], GameStore]
) -> None:
    other = reopen()
    mine = create(store)
    theirs = other.load(KEY)
    assert theirs == mine

    other.save(replace(theirs, data={"round": 2}))
    with pytest.raises(Conflict):
        store.save(replace(mine, data={"round": 3}))
    assert store.load(KEY) == Item(KEY, 2, {"round": 2})


def _append_with_retry(store: GameStore, number: int, loaded_by_all: threading.Barrier) -> int:
    """Append `number` to the shared list, retrying on Conflict; return the conflicts met."""
    conflicts = 0
    while True:
        item = store.load(KEY)
        assert item is not None
        if conflicts == 0:
            loaded_by_all.wait()  # every thread saves from the same first version
        try:
            store.save(replace(item, data={"numbers": [*item.data["numbers"], number]}))
        except Conflict:
            conflicts += 1
        else:
            return conflicts


@pytest.mark.threaded
@pytest.mark.parametrize("handles", ["shared", "one-per-thread"])
def test_concurrent_load_modify_save_loses_no_update(
    store: GameStore, reopen: Callable[[], GameStore], handles: str
) -> None:
    threads = 20
    create(store, numbers=[])
    stores = [store if handles == "shared" else reopen() for _ in range(threads)]
    loaded_by_all = threading.Barrier(threads, timeout=30)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        futures = [
            pool.submit(_append_with_retry, stores[n], n, loaded_by_all) for n in range(threads)
        ]
        conflicts = sum(future.result(timeout=60) for future in futures)

    final = store.load(KEY)
    assert final is not None
    assert sorted(final.data["numbers"]) == list(range(threads))
    assert final.version == 1 + threads
    assert conflicts >= threads - 1  # all but one of the first saves lost the race


# --- Expiry ----------------------------------------------------------------------------------


def test_expired_item_loads_as_none(store: GameStore, clock: FakeClock) -> None:
    create(store)
    store.save(replace(store.load(KEY), expires_at=START + 60))

    clock.advance(59)
    assert store.load(KEY) is not None
    clock.advance(1)
    assert store.load(KEY) is None


def test_expired_item_can_be_recreated_at_version_zero(store: GameStore, clock: FakeClock) -> None:
    store.save(Item(KEY, 0, {"old": True}, expires_at=START + 60))
    clock.advance(61)

    fresh = store.save(Item(KEY, 0, {"old": False}, expires_at=START + 600))

    assert fresh.version == 1
    assert store.load(KEY) == fresh


def test_expired_item_cannot_be_updated_at_its_old_version(
    store: GameStore, clock: FakeClock
) -> None:
    item = store.save(Item(KEY, 0, {"round": 1}, expires_at=START + 60))
    clock.advance(60)

    with pytest.raises(Conflict):
        store.save(replace(item, data={"round": 2}, expires_at=START + 600))
    assert store.load(KEY) is None


# --- Deleting --------------------------------------------------------------------------------


def test_delete_at_the_current_version_removes_the_item(store: GameStore) -> None:
    item = create(store)

    store.delete(KEY, item.version)

    assert store.load(KEY) is None
    assert store.save(Item(KEY, 0, {"again": True})).version == 1


def test_delete_at_a_stale_version_is_a_conflict_and_keeps_the_item(store: GameStore) -> None:
    first = create(store)
    current = store.save(replace(first, data={"round": 2}))

    with pytest.raises(Conflict):
        store.delete(KEY, first.version)
    assert store.load(KEY) == current


def test_delete_of_a_missing_item_is_a_conflict(store: GameStore) -> None:
    with pytest.raises(Conflict):
        store.delete(KEY, 1)


def test_delete_of_an_expired_item_is_a_conflict(store: GameStore, clock: FakeClock) -> None:
    item = store.save(Item(KEY, 0, {}, expires_at=START + 1))
    clock.advance(5)

    with pytest.raises(Conflict):
        store.delete(KEY, item.version)
