"""DynamoDB specifics: batch reads (one call, unprocessed keys asked for again), the table's
time to live and the item's attributes."""

from __future__ import annotations

import re
import zlib
from typing import Any

import pytest

from infra.dynamo_store import DynamoStore
from infra.store import Item
from testing.drivers import START

from .store_items import KEY


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


def test_dynamo_table_has_ttl_on_expires_at(dynamo_store: DynamoStore) -> None:
    ttl = dynamo_store.client.describe_time_to_live(TableName=dynamo_store.table_name)

    assert ttl["TimeToLiveDescription"]["AttributeName"] == "expires_at"
    assert ttl["TimeToLiveDescription"]["TimeToLiveStatus"] == "ENABLED"


def test_dynamo_item_attributes(dynamo_store: DynamoStore) -> None:
    dynamo_store.save(Item(KEY, 0, {"a": 1}, expires_at=START + 5))

    raw = dynamo_store.client.get_item(TableName=dynamo_store.table_name, Key={"pk": {"S": KEY}})
    token = raw["Item"].pop("wt")  # the save's write token: 64 random bits in hex
    assert re.fullmatch(r"[0-9a-f]{16}", token["S"])
    assert raw["Item"] == {
        "pk": {"S": KEY},
        "version": {"N": "1"},
        "data": {"B": zlib.compress(b'{"a":1}', 6)},
        "expires_at": {"N": str(START + 5)},
    }
