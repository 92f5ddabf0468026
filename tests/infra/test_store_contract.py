"""The GameStore contract, run against SQLite and DynamoDB (moto) alike; DynamoDB through boto3,
through the bot's own client, and through the DECAPITATION_AWS_CLIENT=boto3 switch.

Backend-specific checks (SQLite cleanup and locking, the DynamoDB table layout) come last.
"""

from __future__ import annotations

import base64
import sqlite3
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.playtest.drivers import START, FakeClock
from infra import dynamo_store
from infra.dynamo_store import DynamoStore
from infra.sqlite_store import SQLiteStore
from infra.store import (
    Conflict,
    GameStore,
    Item,
    encode_data,
    pack_data,
    size_of,
    unpack_data,
)
from infra.stores import open_store

ROOT = Path(__file__).resolve().parents[2]
KEY = "game#-100123"
GAME = {
    "phase": "投票",
    "players": [[42, "张三"], [43, "李四"], [44, "Ana 🐉"]],
    "hands": {"42": [["刺客", 1], ["平民", 0]], "43": []},
    "log": ["王者归来", {"nested": [[1, 2], [3, [4, 5]]]}],
    "active": True,
    "timer": None,
    "score": -1.5,
}


def create(store: GameStore, key: str = KEY, **data: Any) -> Item:
    """Store a fresh item under `key` and return it as stored."""
    return store.save(Item(key, 0, data or {"round": 1}))


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


def test_load_many_on_dynamodb_is_one_read(dynamo_store: DynamoStore) -> None:
    for n in range(3):
        dynamo_store.save(Item(f"k#{n}", 0, {"n": n}))
    reads = dynamo_store.reads

    found = dynamo_store.load_many(["k#0", "k#1", "k#2", "k#3"])

    assert dynamo_store.reads - reads == 1
    assert [found[f"k#{n}"].data["n"] if found[f"k#{n}"] else None for n in range(4)] == [
        0,
        1,
        2,
        None,
    ]


def test_keys_dynamodb_leaves_unprocessed_are_asked_for_again(
    dynamo_store: DynamoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        dynamo_store.save(Item(f"k#{n}", 0, {"n": n}))
    client = dynamo_store.client
    real = client.batch_get_item
    asked: list[list[str]] = []

    def partly(**params: Any) -> dict:
        keys = params["RequestItems"][dynamo_store.table_name]["Keys"]
        asked.append([k["pk"]["S"] for k in keys])
        if len(asked) > 1:
            return real(**params)
        first = {**params["RequestItems"][dynamo_store.table_name], "Keys": keys[:1]}
        answer = real(RequestItems={dynamo_store.table_name: first})
        rest = {dynamo_store.table_name: {"Keys": keys[1:], "ConsistentRead": True}}
        return {**answer, "UnprocessedKeys": rest}

    monkeypatch.setattr(client, "batch_get_item", partly)
    found = dynamo_store.load_many(["k#0", "k#1", "k#2"])

    assert {k: v.data["n"] for k, v in found.items()} == {"k#0": 0, "k#1": 1, "k#2": 2}
    assert asked == [["k#0", "k#1", "k#2"], ["k#1", "k#2"]]


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


# --- Sizes and configuration -----------------------------------------------------------------


def test_size_of_is_the_compressed_data_plus_the_attribute_overhead() -> None:
    item = Item(KEY, 7, GAME, expires_at=START + 3600)
    packed = len(pack_data(GAME))

    overhead = size_of(item) - packed
    assert len(KEY) <= overhead <= len(KEY) + 40


def test_size_of_counts_names_values_and_utf8_bytes() -> None:
    # pk: 2 + 1, version: 7 + 2 (the stored 1), data: 4 + the compressed JSON's bytes
    assert size_of(Item("k", 0, {"a": "刺客"})) == 3 + 9 + 4 + len(pack_data({"a": "刺客"}))
    # expires_at: 10 + (10 significant digits -> 5 bytes) + 1
    assert size_of(Item("k", 0, {}, 1_700_000_123)) == 3 + 9 + 4 + len(pack_data({})) + 16


def test_packed_data_is_far_smaller_than_its_json_when_names_repeat() -> None:
    data = {
        "players": [[i, "斩首行动玩家" * 4] for i in range(12)],
        "log": ["斩首行动玩家" * 4] * 30,
    }

    assert len(pack_data(data)) * 5 < len(encode_data(data).encode())
    assert unpack_data({"B": pack_data(data)}) == data


def test_unpack_data_reads_binary_and_base64_text() -> None:
    data = {"game": 3, "name": "蓝X"}
    blob = pack_data(data)

    assert unpack_data({"B": blob}) == data
    assert unpack_data({"B": base64.b64encode(blob).decode()}) == data


def test_open_store_uses_dynamodb_when_a_table_is_named() -> None:
    store = open_store({"DECAPITATION_TABLE": "decapitation-games"})

    assert isinstance(store, DynamoStore)
    assert store.table_name == "decapitation-games"


def test_open_store_uses_the_sqlite_file_named_by_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "local.sqlite3"
    store = open_store({"DECAPITATION_DB": str(path)})

    assert isinstance(store, SQLiteStore)
    store.close()
    assert path.exists()


def test_open_store_defaults_to_sqlite_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store({})

    assert isinstance(store, SQLiteStore)
    store.close()
    assert (tmp_path / "decapitation.sqlite3").exists()


def test_dynamo_default_client_is_shared_and_uses_the_environment_region(
    aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dynamo_store, "_client", None)
    monkeypatch.setenv("AWS_REGION", "eu-west-1")

    first, second = DynamoStore("a"), DynamoStore("b")

    assert first.client is second.client
    assert first.client.region == "eu-west-1"


# --- DynamoDB layout -------------------------------------------------------------------------


def test_dynamo_table_has_ttl_on_expires_at(dynamo_store: DynamoStore) -> None:
    ttl = dynamo_store.client.describe_time_to_live(TableName=dynamo_store.table_name)

    assert ttl["TimeToLiveDescription"]["AttributeName"] == "expires_at"
    assert ttl["TimeToLiveDescription"]["TimeToLiveStatus"] == "ENABLED"


def test_dynamo_item_attributes(dynamo_store: DynamoStore) -> None:
    dynamo_store.save(Item(KEY, 0, {"a": 1}, expires_at=START + 5))

    raw = dynamo_store.client.get_item(TableName=dynamo_store.table_name, Key={"pk": {"S": KEY}})
    assert raw["Item"] == {
        "pk": {"S": KEY},
        "version": {"N": "1"},
        "data": {"B": zlib.compress(b'{"a":1}', 6)},
        "expires_at": {"N": str(START + 5)},
    }


# --- SQLite specifics ------------------------------------------------------------------------


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
