"""The stored item's size (what DynamoDB bills) and its data, packed as compressed JSON."""

from __future__ import annotations

import base64

from infra.store import Item, encode_data, pack_data, size_of, unpack_data
from testing.drivers import START

from .store_items import GAME, KEY


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
