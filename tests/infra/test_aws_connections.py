"""The bot's own AWS client's connections: kept alive per thread and endpoint, replaced when
dropped, timed out when slow, one TLS context for the process (a scripted server on loopback)."""

from __future__ import annotations

import threading
import time

import pytest

from handlers.telegram.app import shared_tls_clients
from infra import aws

from .conftest import REGION
from .scripted import (  # noqa: F401 - fixtures
    DROP,
    KEYS,
    Answer,
    Scripted,
    as_options,
    get,
    ok,
    own_connections,
    scripted_client,
    waits_fixture,
)


def test_a_kept_alive_connection_is_reused(waits: list[int]) -> None:
    with Scripted([ok({}), ok({}), ok({})]) as server:
        client = scripted_client(server)
        for _ in range(3):
            get(client)

    assert len({seen.peer for seen in server.requests}) == 1


def test_each_thread_keeps_its_own_connection(waits: list[int]) -> None:
    with Scripted([ok({}), ok({}), ok({})]) as server:
        client = scripted_client(server)
        get(client)
        other = threading.Thread(target=lambda: (get(client), aws.close_connections()))
        other.start()
        other.join()
        get(client)

    first, from_other, again = (seen.peer for seen in server.requests)
    assert first == again != from_other


def test_a_dropped_kept_alive_connection_is_replaced_at_once(waits: list[int]) -> None:
    answers: list[Answer | str] = [ok({}, then_close=True), ok({"Item": {}})]
    with Scripted(answers) as server:
        client = scripted_client(server)
        get(client)
        time.sleep(0.05)  # the server has closed it by now
        got = get(client)

    assert got["Item"] == {} and got["ResponseMetadata"]["RetryAttempts"] == 0
    assert len(server.requests) == 2 and waits == []
    assert server.requests[0].peer != server.requests[1].peer


def test_a_connection_closed_without_an_answer_is_tried_again(waits: list[int]) -> None:
    with Scripted([DROP, ok({"Item": {}})]) as server:
        got = get(scripted_client(server))

    assert got["Item"] == {} and waits == [1]


def test_a_slow_answer_times_out_and_is_tried_again(waits: list[int]) -> None:
    answers: list[Answer | str] = [ok({}, delay=0.6), ok({"Item": {}})]
    with Scripted(answers) as server:
        got = get(scripted_client(server, read_timeout=0.2))

    assert got["Item"] == {} and waits == [1]


def test_nobody_listening_fails_after_four_attempts(waits: list[int]) -> None:
    with Scripted([]) as server:
        url = server.url
    client = aws.client("dynamodb", region_name=REGION, endpoint_url=url, **as_options(KEYS))

    with pytest.raises(ConnectionRefusedError):
        get(client)
    assert waits == [1, 2, 3]


def test_one_tls_context_for_the_process_and_the_bots_http_clients() -> None:
    context = aws.tls_context()

    assert aws.tls_context() is context
    assert context.cert_store_stats()["x509_ca"] > 0
    for request in shared_tls_clients().values():
        assert request._client_kwargs["verify"] is context
