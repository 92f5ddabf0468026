"""The GameStore contract, run against SQLite and DynamoDB (moto) alike; DynamoDB through boto3,
through the bot's own client, and through the DECAPITATION_AWS_CLIENT=boto3 switch (the `store`
fixture of conftest.py): loading and saving, then what is refused and what is counted.

The rest of the contract: versions, expiry and deleting in test_store_versions.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infra.store import Conflict, GameStore, Item
from testing.drivers import START, FakeClock

from .store_items import GAME, KEY, create

# --- Loading and saving ----------------------------------------------------------------------


def test_loading_a_missing_key_gives_none(store: GameStore) -> None:
    assert store.load("game#404") is None


def test_first_save_stores_version_one_and_round_trips_data(store: GameStore) -> None:
    saved = store.save(Item(KEY, 0, GAME, expires_at=START + 3600))

    assert saved == Item(KEY, 1, GAME, START + 3600)
    loaded = store.load(KEY)
    assert loaded == saved
    assert loaded is not None and loaded.data["players"][0] == [42, "张三"]


def test_load_many_gives_each_live_item_and_none_for_the_rest(
    store: GameStore, clock: FakeClock
) -> None:
    game = store.save(Item(KEY, 0, GAME))
    prefs = store.save(Item("prefs#-100123", 0, {"lang": "zh"}, expires_at=START + 60))
    user = store.save(Item("user#42", 0, {"chats": [-100123]}, expires_at=START + 10))
    clock.advance(10)  # the pointer has just expired

    found = store.load_many([KEY, "prefs#-100123", "user#42", "user#404", KEY])

    assert found == {KEY: game, "prefs#-100123": prefs, "user#42": None, "user#404": None}
    assert user.version == 1


def test_each_save_increments_the_version(store: GameStore) -> None:
    item = create(store)
    for expected in (2, 3, 4):
        item = store.save(replace(item, data={"round": expected}))
        assert item.version == expected
    assert store.load(KEY) == Item(KEY, 4, {"round": 4})


def test_save_can_set_and_clear_the_expiry(store: GameStore) -> None:
    item = create(store)
    item = store.save(replace(item, expires_at=START + 60))
    assert store.load(KEY) == item

    item = store.save(replace(item, expires_at=None))
    assert store.load(KEY) == Item(KEY, 3, {"round": 1}, None)


def test_data_is_stored_as_compact_utf8_json_compressed_in_dynamodb(
    store: GameStore, raw_data: Callable[[str], str | None]
) -> None:
    create(store, phase="投票", seats=[1, 2])

    assert raw_data(KEY) == '{"phase":"投票","seats":[1,2]}'


def test_keys_are_independent(store: GameStore) -> None:
    create(store, "game#1", n=1)
    create(store, "prefs#1", n=2)
    create(store, "user#42", n=3)

    assert [store.load(k).data["n"] for k in ("game#1", "prefs#1", "user#42")] == [1, 2, 3]


_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)  # valid Unicode
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.dictionaries(_text, _json, max_size=5))
def test_any_json_object_round_trips(store: GameStore, data: dict[str, Any]) -> None:
    key = f"prop#{store.writes}"
    store.save(Item(key, 0, data))

    loaded = store.load(key)
    assert loaded is not None and loaded.data == data


# --- Validation and accounting ---------------------------------------------------------------


def test_invalid_versions_and_keys_are_rejected_before_any_write(store: GameStore) -> None:
    with pytest.raises(ValueError):
        store.save(Item(KEY, -1, {}))
    with pytest.raises(ValueError):
        store.save(Item("", 0, {}))
    with pytest.raises(ValueError):
        store.delete(KEY, 0)
    with pytest.raises(TypeError):
        store.save(Item(KEY, 0, {"not json": object()}))
    with pytest.raises(TypeError):
        store.save(Item(KEY, 0, {}, expires_at=START + 0.5))  # type: ignore[arg-type]
    assert store.writes == 0
    assert store.load(KEY) is None


def test_every_backend_call_is_counted(store: GameStore) -> None:
    assert (store.reads, store.writes) == (0, 0)
    store.load(KEY)
    item = create(store)
    with pytest.raises(Conflict):
        store.save(Item(KEY, 0, {}))
    store.load(KEY)
    store.delete(KEY, item.version)

    assert (store.reads, store.writes) == (2, 3)


def test_stores_satisfy_the_protocol(store: GameStore) -> None:
    assert isinstance(store, GameStore)
