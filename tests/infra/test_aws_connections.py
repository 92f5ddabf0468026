"""The bot's own AWS client's connections: kept alive per thread and endpoint, replaced when
dropped, timed out when slow, one TLS context for the process (a scripted server on loopback)."""

from __future__ import annotations

import re
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import certifi
import pytest

from handlers.telegram.app import shared_tls_clients
from infra import aws, package
from infra.aws import AwsError
from infra.aws.connections import trusting
from testing.moto_server import REGION

from .scripted import (  # noqa: F401 - fixtures
    DROP,
    KEYS,
    Answer,
    Clock,
    Scripted,
    as_options,
    fault,
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


def test_without_a_hashed_trust_folder_the_context_trusts_certifis_whole_bundle(
    tmp_path: Path,
) -> None:
    context = trusting(str(tmp_path / "absent"))

    assert context.cert_store_stats()["x509_ca"] == len(
        package.CERTIFICATE_PEM.findall(Path(certifi.where()).read_text())
    )
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


# -- idle connections and the call's deadline ----------------------------------------------------

SERVERLESS = (Path(__file__).resolve().parents[2] / "serverless.yml").read_text()


def test_the_idle_limit_is_under_what_aws_keeps_an_idle_connection() -> None:
    assert (
        5 <= aws.connections.IDLE_LIMIT <= 30
    )  # DynamoDB drops idle connections after about 60 s, NATs after 350 s


def test_a_connection_idle_for_less_than_the_limit_is_reused(waits: list[int]) -> None:
    clock = Clock()
    with Scripted([ok({}), ok({})], clock) as server:
        client = scripted_client(server, clock=clock)
        get(client)
        clock.advance(aws.connections.IDLE_LIMIT - 1)
        get(client)

    assert server.requests[0].peer == server.requests[1].peer


def test_a_connection_idle_for_longer_than_the_limit_is_replaced(waits: list[int]) -> None:
    clock = Clock()
    with Scripted([ok({}), ok({"Item": {}})], clock) as server:
        client = scripted_client(server, clock=clock)
        get(client)
        clock.advance(aws.connections.IDLE_LIMIT + 1)  # a Lambda frozen between two updates
        got = get(client)

    assert got["Item"] == {} and got["ResponseMetadata"]["RetryAttempts"] == 0
    assert server.requests[0].peer != server.requests[1].peer and waits == []


def test_a_kept_alive_connection_the_server_closed_is_not_sent_on(waits: list[int]) -> None:
    with Scripted([ok({}, then_close=True)]) as server:
        get(scripted_client(server))
        time.sleep(0.05)  # the server has closed it by now
        endpoint = aws.connections.Endpoint.parse(server.url)

        assert aws.connections.take(endpoint, time.monotonic()) is None


def test_no_attempt_starts_once_the_deadline_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(aws.retries, "backoff", lambda attempt: 1.0)
    answers: list[Answer | str] = [
        fault(503, "ServiceUnavailable", "first", advance=5),
        fault(503, "ServiceUnavailable", "second", advance=1.5),
        ok({}),
    ]
    with Scripted(answers, clock) as server, pytest.raises(AwsError) as raised:
        get(scripted_client(server, clock=clock, sleep=clock.advance, deadline=8))

    assert raised.value.message == "second" and len(server.requests) == 2
    assert raised.value.__notes__ == ["no attempt left within the call's 8 s deadline"]


def test_an_answer_arriving_after_the_deadline_ends_the_call(waits: list[int]) -> None:
    clock = Clock()
    answers: list[Answer | str] = [
        fault(503, "ServiceUnavailable", advance=5),
        fault(503, "ServiceUnavailable", advance=5),
        ok({}),
    ]
    with Scripted(answers, clock) as server, pytest.raises(TimeoutError, match="deadline"):
        get(scripted_client(server, clock=clock, deadline=8))

    assert len(server.requests) == 2 and waits == [1, 2]


def test_a_backoff_that_would_end_past_the_deadline_is_not_slept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock, slept = Clock(), []
    monkeypatch.setattr(aws.retries, "backoff", lambda attempt: 3.0)
    answers: list[Answer | str] = [fault(500, "InternalServerError", advance=6), ok({})]
    with Scripted(answers, clock) as server, pytest.raises(AwsError):
        get(scripted_client(server, clock=clock, sleep=slept.append, deadline=8))

    assert len(server.requests) == 1 and slept == []


def test_a_backoff_within_the_deadline_is_slept(waits: list[int]) -> None:
    clock, slept = Clock(), []
    with Scripted([fault(500, "InternalServerError"), ok({})], clock) as server:
        get(scripted_client(server, clock=clock, sleep=slept.append))

    assert slept == [0.0] and len(server.requests) == 2


def test_the_read_timeout_shrinks_to_what_is_left_of_the_deadline(waits: list[int]) -> None:
    clock = Clock()
    answers: list[Answer | str] = [
        fault(503, "ServiceUnavailable", advance=7.8, then_close=True),
        ok({}, delay=1.0),  # within the read timeout (2 s), not within what is left (0.2 s)
    ]
    with Scripted(answers, clock) as server, pytest.raises(TimeoutError):
        get(scripted_client(server, clock=clock, deadline=8))

    assert len(server.requests) == 2


def test_a_new_connection_gets_what_is_left_of_the_deadline(
    waits: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, timeouts = Clock(), []
    connect = aws.connections.Endpoint.connect

    def record(self: Any, connect_timeout: float, read_timeout: float) -> Any:
        timeouts.append((connect_timeout, read_timeout))
        return connect(self, connect_timeout, read_timeout)

    monkeypatch.setattr(aws.connections.Endpoint, "connect", record)
    answers: list[Answer | str] = [
        fault(503, "ServiceUnavailable", advance=7.5, then_close=True),
        ok({}),
    ]
    with Scripted(answers, clock) as server:
        get(scripted_client(server, clock=clock, deadline=8, read_timeout=aws.READ_TIMEOUT))

    assert timeouts[0][0] == aws.CONNECT_TIMEOUT
    assert 7.5 < timeouts[0][1] <= aws.DEADLINE < aws.READ_TIMEOUT
    assert all(0 < timeout <= 0.5 for timeout in timeouts[1])


def test_a_reused_connection_gets_what_is_left_of_the_deadline(waits: list[int]) -> None:
    clock = Clock()
    answers: list[Answer | str] = [
        fault(503, "ServiceUnavailable", advance=7.8),  # the connection is kept alive
        ok({}, delay=1.0),  # within the read timeout (2 s), not within what is left (0.2 s)
    ]
    with Scripted(answers, clock) as server, pytest.raises(TimeoutError):
        get(scripted_client(server, clock=clock, deadline=8))

    assert len(server.requests) == 2 and server.requests[0].peer == server.requests[1].peer


def test_the_default_deadline_fits_the_webhooks_timeout_three_times() -> None:
    webhook = SERVERLESS.split("\n  webhook:\n", 1)[1].split("\n  timer:\n", 1)[0]
    timeout = int(re.search(r"\n    timeout: (\d+)\n", webhook)[1])

    assert aws.client("sqs", region_name=REGION, endpoint_url="http://127.0.0.1:9").deadline == 8
    assert timeout >= 3 * aws.DEADLINE
