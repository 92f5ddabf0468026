"""Owed message batches: the stored shape, the lease, claiming and acknowledging."""

from __future__ import annotations

import json

from handlers.storage.owed import (
    LEASE,
    OWED_KEPT,
    OwedBatch,
    acknowledge,
    claim,
    outs_of,
    owed_in,
    retry_batch,
    to_stored,
)

SEND = {"op": "send", "chat": -1, "text": "hi"}
EDIT = {"op": "edit", "chat": -1, "msg": 7, "text": "lobby"}


def test_a_stored_batch_round_trips_in_the_same_shape() -> None:
    stored = {"key": "u5", "at": 100.5, "outs": [SEND, EDIT]}
    batch = OwedBatch.from_stored(stored)
    assert batch == OwedBatch("u5", 100.5, [SEND, EDIT])
    again = batch.to_stored()
    assert again == stored
    assert json.dumps(again) == json.dumps(stored)  # same keys, same order


def test_an_items_owed_list_round_trips() -> None:
    data = {"owed": [{"key": "u1", "at": 1.0, "outs": [SEND]}, {"key": "v2", "at": 2, "outs": []}]}
    assert to_stored(owed_in(data)) == data["owed"]


def test_an_item_without_owed_batches_owes_nothing() -> None:
    assert owed_in({}) == []
    assert owed_in({"owed": None}) == []


def test_a_batch_lapses_when_its_lease_is_over_and_not_before() -> None:
    batch = OwedBatch("u1", 100.0, [SEND])
    assert not batch.lapsed(100.0)
    assert not batch.lapsed(100.0 + LEASE - 0.001)
    assert batch.lapsed(100.0 + LEASE)


def test_claiming_starts_the_lease_again_and_keeps_the_messages() -> None:
    batch = OwedBatch("u1", 100.0, [SEND])
    later = 100.0 + LEASE + 5
    claimed = batch.claimed(later)
    assert claimed == OwedBatch("u1", later, [SEND])
    assert not claimed.lapsed(later)
    assert batch.at == 100.0  # a value: the original is unchanged


def test_claim_takes_only_the_lapsed_batches_and_keeps_the_order() -> None:
    dead = OwedBatch("u1", 0.0, [SEND])
    alive = OwedBatch("u2", 50.0, [EDIT])
    now = LEASE + 10.0
    kept, taken = claim([dead, alive], now)
    assert kept == [OwedBatch("u1", now, [SEND]), alive]
    assert taken == [dead]
    assert outs_of(taken) == [SEND]


def test_acknowledging_removes_the_batches_named_by_key() -> None:
    batches = [OwedBatch("u1", 0.0, [SEND]), OwedBatch("u2", 0.0, [EDIT])]
    assert acknowledge(batches, ["u1"]) == [batches[1]]
    assert acknowledge(batches, ["u3"]) == batches
    assert acknowledge(batches, ()) == batches


def test_only_the_latest_batches_are_stored() -> None:
    batches = [OwedBatch(f"u{n}", float(n), [SEND]) for n in range(OWED_KEPT + 3)]
    stored = to_stored(batches)
    assert len(stored) == OWED_KEPT
    assert stored[0]["key"] == "u3" and stored[-1]["key"] == f"u{OWED_KEPT + 2}"


def test_a_retry_batch_lapses_once_its_wait_has_passed() -> None:
    batch = retry_batch("r3.1", [SEND], now=1000.0, wait=30.0)
    assert not batch.lapsed(1029.9)
    assert batch.lapsed(1030.0)
