"""A lost answer to an applied write is no conflict. A dropped connection makes the AWS client
(the bot's own and botocore alike) send a conditional PutItem again; the first had been applied,
so the second fails its condition. The store recognises its own write in the item the failure
returns, and reports the save done; someone else's write is still a `Conflict`."""

from __future__ import annotations

import email.message
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from botocore.client import BaseClient

from handlers.storage.side_items import forget
from infra import aws, dynamo_store
from infra.aws import wire
from infra.dynamo_store import DynamoStore, create_table
from infra.store import Conflict, Item
from testing.aws_proxy import (
    DELETE_ITEM,
    PUT_ITEM,
    TRANSACT_WRITE_ITEMS,
    AwsProxy,
    proxy,
)
from testing.drivers import FakeClock
from tests.support.faults import give_up_on_stalls_soon

KEY = "game#-100123"
GET_ITEM = "DynamoDB_20120810.GetItem"


@pytest.fixture
def table(moto_clients: Callable[[str], Any]) -> Iterator[str]:
    name = f"lost-{uuid.uuid4().hex[:12]}"
    create_table(moto_clients("dynamodb"), name)
    yield name
    moto_clients("dynamodb").delete_table(TableName=name)


@pytest.fixture
def faults(moto_server: str) -> Iterator[AwsProxy]:
    with proxy(moto_server) as started:
        yield started


@pytest.fixture(params=["own", "boto3"])
def store(
    request: pytest.FixtureRequest,
    aws_env: None,
    faults: AwsProxy,
    table: str,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> DynamoStore:
    """A DynamoStore with the process's default client, as on Lambda (the bot's own, or boto3's
    under DECAPITATION_AWS_CLIENT=boto3), reaching DynamoDB through the proxy; a stalled answer
    is given up on soon."""
    monkeypatch.setenv(aws.SWITCH, request.param)
    give_up_on_stalls_soon(monkeypatch)
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", faults.url)
    monkeypatch.setattr(dynamo_store, "_client", None)
    made = DynamoStore(table, clock=clock)
    assert isinstance(made.client, BaseClient) == (request.param == "boto3")
    return made


@pytest.fixture
def other(moto_clients: Callable[[str], Any], table: str, clock: FakeClock) -> DynamoStore:
    """Someone else: another writer on the same table, straight to moto."""
    return DynamoStore(table, client=moto_clients("dynamodb"), clock=clock)


def sent(faults: AwsProxy, target: str) -> int:
    return faults.requests.count(target)


@pytest.mark.parametrize("version", [0, 1, 5])
def test_a_save_whose_answer_is_lost_returns_the_saved_item(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy, clock: FakeClock, version: int
) -> None:
    item = Item(KEY, 0, {"turn": 0}, int(clock()) + 3600)
    for turn in range(version):
        item = store.save(Item(KEY, item.version, {"turn": turn}, item.expires_at))
    assert item.version == version
    faults.clear()
    faults.drop_answers(PUT_ITEM)

    saved = store.save(Item(KEY, version, {"turn": "next"}, item.expires_at))

    assert saved == Item(KEY, version + 1, {"turn": "next"}, item.expires_at)
    assert other.load(KEY) == saved
    assert faults.dropped == [PUT_ITEM] and sent(faults, PUT_ITEM) == 2  # the client sent it again
    assert store.writes == version + 1
    assert store.reads == 0 and sent(faults, GET_ITEM) == 0  # the failure carried the item


def test_a_save_loses_its_answer_every_time_it_is_sent_and_is_still_done(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"turn": 1}))
    faults.drop_answers(PUT_ITEM, times=2)  # the first send and the one after it

    saved = store.save(Item(KEY, first.version, {"turn": 2}))

    assert saved == Item(KEY, 2, {"turn": 2}) == other.load(KEY)
    assert faults.dropped == [PUT_ITEM, PUT_ITEM]


def test_someone_elses_write_is_still_a_conflict(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"turn": 1}))
    theirs = other.save(Item(KEY, first.version, {"turn": "theirs"}))

    with pytest.raises(Conflict):
        store.save(Item(KEY, first.version, {"turn": "mine"}))
    with pytest.raises(Conflict):  # an item someone else created first
        store.save(Item(KEY, 0, {"turn": "mine"}))
    assert other.load(KEY) == theirs


def test_someone_elses_write_is_a_conflict_even_when_our_answer_is_lost(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"turn": 1}))
    theirs = other.save(Item(KEY, first.version, {"turn": "theirs"}))
    faults.drop_answers(PUT_ITEM)  # our write fails its condition; its answer is lost

    with pytest.raises(Conflict):
        store.save(Item(KEY, first.version, {"turn": "mine"}))
    assert other.load(KEY) == theirs
    assert faults.dropped == [PUT_ITEM]


def test_someone_elses_identical_write_is_still_a_conflict(
    store: DynamoStore, other: DynamoStore
) -> None:
    """Same key, version and data: only the write's own token tells the two apart."""
    first = store.save(Item(KEY, 0, {"turn": 1}))
    theirs = other.save(Item(KEY, first.version, {"turn": 2}))

    with pytest.raises(Conflict):
        store.save(Item(KEY, first.version, {"turn": 2}))
    assert other.load(KEY) == theirs


def test_a_write_to_a_missing_item_is_a_conflict(store: DynamoStore, faults: AwsProxy) -> None:
    with pytest.raises(Conflict):
        store.save(Item(KEY, 3, {"turn": 1}))
    faults.drop_answers(PUT_ITEM)
    with pytest.raises(Conflict):
        store.save(Item(KEY, 3, {"turn": 1}))


class NoOldItem:
    """A client whose failed conditions return no item, as a backend without
    ReturnValuesOnConditionCheckFailure answers."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def put_item(self, **params: Any) -> dict[str, Any]:
        try:
            return self.client.put_item(**params)
        except Exception as error:
            response = getattr(error, "response", None)
            if isinstance(response, dict):
                response.pop("Item", None)
            raise


def test_without_the_old_item_in_the_failure_a_read_tells_whose_write_it_was(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    bare = DynamoStore(store.table_name, client=NoOldItem(store.client), clock=store._clock)
    first = bare.save(Item(KEY, 0, {"turn": 1}))
    faults.drop_answers(PUT_ITEM)

    saved = bare.save(Item(KEY, first.version, {"turn": 2}))

    assert saved == Item(KEY, 2, {"turn": 2}) == other.load(KEY)
    assert sent(faults, GET_ITEM) == 1 and bare.reads == 1
    other.save(Item(KEY, saved.version, {"turn": "theirs"}))
    with pytest.raises(Conflict):
        bare.save(Item(KEY, saved.version, {"turn": 3}))


def test_the_stored_item_keeps_its_shape(
    store: DynamoStore, moto_clients: Callable[[str], Any], table: str, clock: FakeClock
) -> None:
    """The token is the one attribute a save adds; loads and other readers ignore it."""
    expires_at = int(clock()) + 3600
    store.save(Item(KEY, 0, {"turn": 1}, expires_at))
    raw = moto_clients("dynamodb").get_item(TableName=table, Key={"pk": {"S": KEY}})["Item"]
    assert set(raw) == {"pk", "version", "data", "expires_at", dynamo_store.TOKEN}
    token = raw[dynamo_store.TOKEN]["S"]
    assert store.save(Item(KEY, 1, {"turn": 2}, expires_at)) == store.load(KEY)
    again = moto_clients("dynamodb").get_item(TableName=table, Key={"pk": {"S": KEY}})["Item"]
    assert again[dynamo_store.TOKEN]["S"] != token  # fresh for every save


def test_a_delete_whose_answer_is_lost_leaves_forget_done(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    """A delete finds its own earlier try's work gone and cannot tell it from someone else's:
    it says `Conflict`, and `forget` (delete whatever the version), reloading, finds nothing."""
    store.save(Item(KEY, 0, {"turn": 1}))
    faults.drop_answers(DELETE_ITEM)

    forget(store, KEY)

    assert other.load(KEY) is None
    assert faults.dropped == [DELETE_ITEM]


def test_the_own_clients_error_keeps_the_item_a_failed_condition_returns() -> None:
    body = (
        b'{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",'
        b'"message":"The conditional request failed",'
        b'"Item":{"pk":{"S":"k"},"version":{"N":"2"},"data":{"B":"eHl6"},"wt":{"S":"ab"}}}'
    )
    with pytest.raises(aws.AwsError) as failure:
        wire.parse("PutItem", 400, email.message.Message(), body, 0)  # type: ignore[arg-type]
    assert failure.value.code == "ConditionalCheckFailedException"
    assert failure.value.response["Item"] == {
        "pk": {"S": "k"},
        "version": {"N": "2"},
        "data": {"B": b"xyz"},  # bytes, as botocore gives them
        "wt": {"S": "ab"},
    }
    without = b'{"__type":"ConditionalCheckFailedException","message":"no"}'
    with pytest.raises(aws.AwsError) as failure:
        wire.parse("PutItem", 400, email.message.Message(), without, 0)  # type: ignore[arg-type]
    assert "Item" not in failure.value.response


def test_a_transaction_whose_answer_is_lost_returns_the_saved_items(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"status": "playing"}))
    faults.drop_answers(TRANSACT_WRITE_ITEMS)

    saved = store.save_all(
        [Item(KEY, first.version, {"status": "over"}), Item("stats#user#42", 0, {"games": 1})]
    )

    assert saved == [Item(KEY, 2, {"status": "over"}), Item("stats#user#42", 1, {"games": 1})]
    assert [other.load(item.key) for item in saved] == saved
    assert faults.dropped == [TRANSACT_WRITE_ITEMS]


def test_someone_elses_write_is_a_conflict_for_a_transaction_even_when_its_answer_is_lost(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"status": "playing"}))
    theirs = other.save(Item("stats#user#42", 0, {"games": 1}))
    faults.drop_answers(TRANSACT_WRITE_ITEMS)

    with pytest.raises(Conflict):
        store.save_all(
            [Item(KEY, first.version, {"status": "over"}), Item("stats#user#42", 0, {"games": 1})]
        )
    assert other.load(KEY) == first
    assert other.load("stats#user#42") == theirs


def test_a_save_whose_answer_stalls_is_sent_again_within_the_deadline_and_done(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    """Applied, its answer held back past the client's read timeout: the client gives up on it
    and sends the save again, whose failed condition carries the save's own token."""
    first = store.save(Item(KEY, 0, {"turn": 1}))
    faults.stall_answers(PUT_ITEM)

    saved = store.save(Item(KEY, first.version, {"turn": 2}))

    assert saved == Item(KEY, 2, {"turn": 2}) == other.load(KEY)
    assert faults.dropped == [PUT_ITEM] and sent(faults, PUT_ITEM) == 3
