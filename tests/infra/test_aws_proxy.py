"""The test harness's fault-injecting proxy (`testing.aws_proxy`): it forwards every
call to the moto server, and loses or stalls the answers of the next few matching calls after
moto has applied them, holds a transaction in progress (refusing plain writes to its items as
DynamoDB does), or refuses plain writes as if one were."""

from __future__ import annotations

import http.client
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from botocore.exceptions import ClientError, ConnectionClosedError, ReadTimeoutError

from infra import aws
from infra.dynamo_store import create_table
from testing.aws_proxy import (
    DELETE_ITEM,
    PUT_ITEM,
    TRANSACT_WRITE_ITEMS,
    UPDATE_ITEM,
    AwsProxy,
    proxy,
)
from testing.moto_server import REGION

GET_ITEM = "DynamoDB_20120810.GetItem"


@pytest.fixture
def table(moto_clients: Callable[[str], Any]) -> Iterator[str]:
    name = f"proxy-{uuid.uuid4().hex[:12]}"
    create_table(moto_clients("dynamodb"), name)
    yield name
    moto_clients("dynamodb").delete_table(TableName=name)


@pytest.fixture
def running(moto_server: str) -> Iterator[AwsProxy]:
    with proxy(moto_server) as started:
        yield started


def one_try(endpoint: str) -> Any:
    """boto3's client at `endpoint`, sending each call once (the bot's own client sends a call
    again at once when a kept-alive connection drops)."""
    return aws.boto3_client("dynamodb", REGION, endpoint_url=endpoint, max_attempts=1)


def put(client: Any, table: str, key: str, value: str) -> None:
    client.put_item(TableName=table, Item={"pk": {"S": key}, "v": {"S": value}})


def stored(moto_clients: Callable[[str], Any], table: str, key: str) -> str | None:
    got = moto_clients("dynamodb").get_item(
        TableName=table, Key={"pk": {"S": key}}, ConsistentRead=True
    )
    return got["Item"]["v"]["S"] if "Item" in got else None


def test_calls_pass_through_untouched(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    put(client, table, "a", "one")
    got = client.get_item(TableName=table, Key={"pk": {"S": "a"}}, ConsistentRead=True)
    assert got["Item"]["v"] == {"S": "one"}
    assert running.requests == [PUT_ITEM, GET_ITEM] and running.dropped == []


def test_latency_is_sat_out_by_every_request_and_off_by_default(
    aws_env: None, running: AwsProxy, table: str, moto_server: str
) -> None:
    put(one_try(running.url), table, "a", "one")
    assert running.slept == []
    with proxy(moto_server, latency=0.008) as slow:
        client = one_try(slow.url)
        put(client, table, "a", "two")
        got = client.get_item(TableName=table, Key={"pk": {"S": "a"}}, ConsistentRead=True)
    assert got["Item"]["v"] == {"S": "two"}
    assert slow.requests == [PUT_ITEM, GET_ITEM] and slow.slept == [0.008, 0.008]


def test_a_dropped_answer_is_applied_and_the_connection_closed_unanswered(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    running.drop_answers(PUT_ITEM, times=1)
    with pytest.raises(ConnectionClosedError):
        put(client, table, "a", "one")
    assert stored(moto_clients, table, "a") == "one"  # moto applied it
    put(client, table, "a", "two")  # the fault was for one call only
    assert stored(moto_clients, table, "a") == "two"
    assert running.dropped == [PUT_ITEM]


def test_only_the_matching_calls_lose_their_answers(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    running.drop_answers(PUT_ITEM, times=2, where=lambda body: body["Item"]["pk"]["S"] == "b")
    put(client, table, "a", "one")
    for value in ("one", "two"):
        with pytest.raises(ConnectionClosedError):
            put(client, table, "b", value)
    put(client, table, "b", "three")
    client.get_item(TableName=table, Key={"pk": {"S": "b"}})
    assert stored(moto_clients, table, "b") == "three"
    assert running.dropped == [PUT_ITEM, PUT_ITEM]
    assert running.requests == [PUT_ITEM] * 4 + [GET_ITEM]


def test_a_delete_can_lose_its_answer_too(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    put(client, table, "a", "one")
    running.drop_answers(DELETE_ITEM)
    with pytest.raises(ConnectionClosedError):
        client.delete_item(TableName=table, Key={"pk": {"S": "a"}})
    assert stored(moto_clients, table, "a") is None


def test_the_proxy_stops_by_itself_and_when_told(aws_env: None, moto_server: str) -> None:
    with proxy(moto_server, lifetime=0.2) as short:
        assert short._thread is not None
        short._thread.join(timeout=5)  # the lifetime is over: serve_forever has returned
        assert not short._thread.is_alive()
    stopped = AwsProxy(moto_server).start()
    stopped.stop()
    stopped.stop()  # twice is harmless
    assert stopped._thread is not None and not stopped._thread.is_alive()


@pytest.mark.parametrize(
    "upstream",
    ["http://10.0.0.1:4566", "https://127.0.0.1:4566", "http://example.com", "http://[::2]:80"],
)
def test_the_proxy_forwards_to_loopback_only(upstream: str) -> None:
    with pytest.raises(ValueError, match="loopback"):
        AwsProxy(upstream)


def test_the_proxy_listens_on_loopback_only(moto_server: str) -> None:
    with proxy(moto_server) as started:
        assert started.url.startswith("http://127.0.0.1:")


def test_stopping_closes_the_connections_the_clients_keep(
    aws_env: None, moto_server: str, table: str
) -> None:
    started = AwsProxy(moto_server).start()
    host, port = started.url.removeprefix("http://").split(":")
    kept = http.client.HTTPConnection(host, int(port), timeout=5)
    kept.request("POST", "/", b"{}", {"X-Amz-Target": "DynamoDB_20120810.ListTables"})
    answer = kept.getresponse()
    answer.read()
    assert not answer.will_close  # kept alive, its thread waiting for the next request

    started.stop()

    assert kept.sock is not None and kept.sock.recv(1) == b""  # closed from the proxy's side
    kept.close()


def test_a_stalled_answer_is_applied_and_held_until_the_client_gives_up(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    impatient = aws.boto3_client(
        "dynamodb", REGION, endpoint_url=running.url, max_attempts=1, read_timeout=0.3
    )
    running.stall_answers(PUT_ITEM)
    with pytest.raises(ReadTimeoutError):
        put(impatient, table, "a", "one")
    assert stored(moto_clients, table, "a") == "one"  # moto applied it
    put(impatient, table, "a", "two")  # the fault was for one call only
    assert running.dropped == [PUT_ITEM] and stored(moto_clients, table, "a") == "two"


def test_a_stalled_answer_goes_out_late_to_a_client_that_waits(
    aws_env: None, running: AwsProxy, table: str
) -> None:
    client = one_try(running.url)
    running.stall_answers(PUT_ITEM, seconds=0.2)
    put(client, table, "a", "one")  # answered, late
    assert running.dropped == [PUT_ITEM]


def refused_code(call: Callable[[], Any]) -> str:
    with pytest.raises(ClientError) as refused:
        call()
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    return refused.value.response["Error"]["Code"]


def test_a_held_transaction_refuses_plain_writes_to_its_items_until_it_is_applied(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    put(client, table, "a", "before")
    hold = running.hold_transaction(refused=3)
    puts = [
        {"Put": {"TableName": table, "Item": {"pk": {"S": key}, "v": {"S": "in"}}}}
        for key in ("a", "b")
    ]
    writer = threading.Thread(target=lambda: client.transact_write_items(TransactItems=puts))
    writer.start()
    try:
        assert hold.arrived.wait(10)
        assert (
            refused_code(lambda: put(client, table, "a", "plain"))
            == "TransactionConflictException"
        )
        assert (
            refused_code(lambda: client.delete_item(TableName=table, Key={"pk": {"S": "b"}}))
            == "TransactionConflictException"
        )
        put(client, table, "c", "free")  # an item the transaction does not hold
        other = [{"Put": {"TableName": table, "Item": {"pk": {"S": "b"}}}}]
        with pytest.raises(ClientError) as cancelled:
            client.transact_write_items(TransactItems=other)
        assert cancelled.value.response["Error"]["Code"] == "TransactionCanceledException"
        assert cancelled.value.response["CancellationReasons"][0]["Code"] == "TransactionConflict"
        assert stored(moto_clients, table, "a") == "before"  # reads see what is committed
        assert (
            refused_code(lambda: client.update_item(TableName=table, Key={"pk": {"S": "a"}}))
            == "TransactionConflictException"
        )  # the third refusal lets it go on
        assert hold.done.wait(10)
    finally:
        hold.release()
        writer.join(10)
    assert stored(moto_clients, table, "a") == stored(moto_clients, table, "b") == "in"
    put(client, table, "a", "after")  # applied: its items are free again
    assert running.conflicts == [PUT_ITEM, DELETE_ITEM, UPDATE_ITEM]
    assert running.requests.count(TRANSACT_WRITE_ITEMS) == 2


def test_refused_writes_never_reach_moto(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    running.refuse_writes(PUT_ITEM, times=2, where=lambda body: body["Item"]["pk"]["S"] == "b")
    put(client, table, "a", "one")
    for value in ("one", "two"):
        assert refused_code(lambda v=value: put(client, table, "b", v)) == (
            "TransactionConflictException"
        )
    assert stored(moto_clients, table, "b") is None
    put(client, table, "b", "three")
    assert stored(moto_clients, table, "b") == "three"
    assert running.conflicts == [PUT_ITEM, PUT_ITEM]
    with pytest.raises(ValueError, match="plain writes"):
        running.refuse_writes(TRANSACT_WRITE_ITEMS)


def test_a_delayed_request_reaches_moto_once_its_event_is_set(
    aws_env: None, running: AwsProxy, table: str, moto_clients: Callable[[str], Any]
) -> None:
    client = one_try(running.url)
    go = threading.Event()
    delayed = running.delay_until(go, PUT_ITEM)
    writer = threading.Thread(target=lambda: put(client, table, "a", "late"))
    writer.start()
    try:
        assert delayed.reached.wait(10)
        assert stored(moto_clients, table, "a") is None
        go.set()
    finally:
        go.set()
        writer.join(10)
    assert stored(moto_clients, table, "a") == "late"
