"""The store's `save_all`, on SQLite and DynamoDB alike: every item written at its next version,
or none of them, in one call (a game's end and the statistics it makes, saved together)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from infra.store import Conflict, GameStore, Item
from testing.drivers import START

from .store_items import KEY, create

STATS = "stats#group#-100123"
PLAYER = "stats#user#42"


def test_save_all_stores_new_and_stored_items_each_at_its_next_version(store: GameStore) -> None:
    game = create(store, status="playing")

    saved = store.save_all(
        [
            replace(game, data={"status": "over"}),
            Item(STATS, 0, {"games": 1}),
            Item(PLAYER, 0, {"games": 1}, expires_at=START + 3600),
        ]
    )

    assert saved == [
        Item(KEY, 2, {"status": "over"}),
        Item(STATS, 1, {"games": 1}),
        Item(PLAYER, 1, {"games": 1}, START + 3600),
    ]
    assert [store.load(item.key) for item in saved] == saved


def test_save_all_writes_nothing_when_one_item_has_moved_on(store: GameStore) -> None:
    game = create(store, status="playing")
    stats = store.save(Item(STATS, 0, {"games": 1}))
    theirs = store.save(replace(stats, data={"games": 2}))  # another group's game counted first

    with pytest.raises(Conflict) as raised:
        store.save_all([replace(game, data={"status": "over"}), replace(stats, data={"games": 2})])

    assert raised.value.key == STATS
    assert store.load(KEY) == game
    assert store.load(STATS) == theirs


def test_save_all_cannot_create_an_item_someone_else_created(store: GameStore) -> None:
    game = create(store, status="playing")
    theirs = store.save(Item(PLAYER, 0, {"games": 1}))

    with pytest.raises(Conflict):
        store.save_all([replace(game, data={"status": "over"}), Item(PLAYER, 0, {"games": 1})])

    assert store.load(KEY) == game
    assert store.load(PLAYER) == theirs


def test_save_all_of_one_item_is_a_save(store: GameStore) -> None:
    game = create(store)

    assert store.save_all([replace(game, data={"round": 2})]) == [Item(KEY, 2, {"round": 2})]
    with pytest.raises(Conflict):
        store.save_all([replace(game, data={"round": 3})])


def test_save_all_is_one_write_call(store: GameStore) -> None:
    game = create(store)
    writes = store.writes  # type: ignore[attr-defined]

    store.save_all(
        [replace(game, data={"round": 2}), *(Item(f"stats#user#{u}", 0, {}) for u in range(12))]
    )

    assert store.writes - writes == 1  # type: ignore[attr-defined]


def test_save_all_rejects_an_item_no_backend_could_store_before_any_write(
    store: GameStore,
) -> None:
    with pytest.raises(TypeError):
        store.save_all([Item(KEY, 0, {}), Item(STATS, 0, {"not json": object()})])
    with pytest.raises(ValueError):
        store.save_all([Item(KEY, 0, {}), Item(STATS, -1, {})])
    assert store.writes == 0  # type: ignore[attr-defined]
    assert store.load(KEY) is None
