"""A plain write to an item that a transaction in progress holds (the end of a game saving the
table with its statistics and history) is refused by DynamoDB with TransactionConflictException
("Transaction conflict handling" in DynamoDB's developer guide). botocore's standard retries do
not send it again (the code is neither throttling nor transient, and the model does not mark it
retryable), and neither does the bot's own client. The store takes it for what it is: someone
else writing the item at that moment, a `Conflict` that the caller reloads and retries; unless
the item already holds the save's own write (a try whose answer was lost)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from botocore.client import BaseClient

from handlers.storage.side_items import forget
from infra import aws, dynamo_store
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
from testing.moto_server import REGION

KEY = "game#-100123"
STATS = "stats#group#-100123"
REFUSED = "TransactionConflictException"


@pytest.fixture
def table(moto_clients: Callable[[str], Any]) -> Iterator[str]:
    name = f"conflict-{uuid.uuid4().hex[:12]}"
    create_table(moto_clients("dynamodb"), name)
    yield name
    moto_clients("dynamodb").delete_table(TableName=name)


@pytest.fixture
def faults(moto_server: str) -> Iterator[AwsProxy]:
    with proxy(moto_server) as started:
        yield started


@pytest.fixture(params=["own", "boto3"])
def choice(request: pytest.FixtureRequest, aws_env: None, monkeypatch: pytest.MonkeyPatch) -> str:
    """The AWS client under test, as DECAPITATION_AWS_CLIENT picks it."""
    monkeypatch.setenv(aws.SWITCH, request.param)
    return request.param


@pytest.fixture
def store(
    choice: str, faults: AwsProxy, table: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> DynamoStore:
    """A DynamoStore with the process's default client, reaching DynamoDB through the proxy."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", faults.url)
    monkeypatch.setattr(dynamo_store, "_client", None)
    made = DynamoStore(table, clock=clock)
    assert isinstance(made.client, BaseClient) == (choice == "boto3")
    return made


@pytest.fixture
def ender(faults: AwsProxy, table: str, clock: FakeClock) -> DynamoStore:
    """Another instance, ending the game: its transactions go through the proxy too."""
    client = aws.boto3_client("dynamodb", REGION, endpoint_url=faults.url)
    return DynamoStore(table, client=client, clock=clock)


@pytest.fixture
def other(moto_clients: Callable[[str], Any], table: str, clock: FakeClock) -> DynamoStore:
    """A reader straight to moto."""
    return DynamoStore(table, client=moto_clients("dynamodb"), clock=clock)


def test_neither_client_sends_a_write_refused_for_a_transaction_again(
    choice: str, faults: AwsProxy, table: str
) -> None:
    client = aws.client("dynamodb", endpoint_url=faults.url)
    faults.refuse_writes(PUT_ITEM)

    with pytest.raises(Exception) as refused:
        client.put_item(TableName=table, Item={"pk": {"S": KEY}})

    error = refused.value.response["Error"]  # type: ignore[attr-defined]
    assert error["Code"] == REFUSED
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400  # type: ignore[attr-defined]
    assert faults.requests == [PUT_ITEM] and faults.conflicts == [PUT_ITEM]


def test_a_save_refused_for_a_transaction_is_a_conflict_and_writes_nothing(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"turn": 1}))
    faults.refuse_writes(PUT_ITEM)

    with pytest.raises(Conflict):
        store.save(Item(KEY, first.version, {"turn": 2}))

    assert other.load(KEY) == first
    assert store.save(Item(KEY, first.version, {"turn": 2})) == Item(KEY, 2, {"turn": 2})


def test_a_save_whose_applied_try_lost_its_answer_and_whose_resend_meets_a_transaction_is_done(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(KEY, 0, {"turn": 1}))
    faults.drop_answers(PUT_ITEM)  # applied, the answer lost: the client sends it again,
    faults.refuse_writes(PUT_ITEM)  # and a transaction holds the item by then

    saved = store.save(Item(KEY, first.version, {"turn": 2}))

    assert saved == Item(KEY, 2, {"turn": 2}) == other.load(KEY)
    assert faults.dropped == [PUT_ITEM] and faults.conflicts == [PUT_ITEM]


def test_a_delete_refused_for_a_transaction_is_a_conflict_and_forget_tries_again(
    store: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    first = store.save(Item(STATS, 0, {"games": 1}))
    faults.refuse_writes(DELETE_ITEM)
    with pytest.raises(Conflict):
        store.delete(STATS, first.version)
    assert other.load(STATS) == first

    faults.refuse_writes(DELETE_ITEM)
    forget(store, STATS)

    assert other.load(STATS) is None
    assert faults.conflicts == [DELETE_ITEM, DELETE_ITEM]


def test_a_save_while_the_ends_transaction_is_in_progress_is_a_conflict(
    store: DynamoStore, ender: DynamoStore, other: DynamoStore, faults: AwsProxy
) -> None:
    """The end's transaction holds the table; a delivery mark written meanwhile is refused,
    and, reloaded once the transaction is done, finds the end."""
    first = store.save(Item(KEY, 0, {"status": "playing"}))
    hold = faults.hold_transaction()
    end = [Item(KEY, first.version, {"status": "over"}), Item(STATS, 0, {"games": 1})]
    ending = threading.Thread(target=ender.save_all, args=(end,))
    ending.start()
    try:
        assert hold.arrived.wait(10)
        with pytest.raises(Conflict):
            store.save(Item(KEY, first.version, {"status": "playing", "marked": True}))
    finally:
        hold.release()
        ending.join(10)

    assert faults.conflicts == [PUT_ITEM] and faults.requests.count(TRANSACT_WRITE_ITEMS) == 1
    assert store.load(KEY) == Item(KEY, 2, {"status": "over"}) == other.load(KEY)
    assert store.save(Item(KEY, 2, {"status": "over", "marked": True})).version == 3
