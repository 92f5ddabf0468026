"""The bot's own AWS client tries again what may succeed and never what AWS refused (a scripted
server on loopback)."""

from __future__ import annotations

import pytest

from infra import aws
from infra.aws import AwsError

from .scripted import (  # noqa: F401 - fixtures
    Answer,
    Scripted,
    fault,
    get,
    ok,
    own_connections,
    scripted_client,
    waits_fixture,
)


def test_a_server_error_then_success_is_one_success(waits: list[int]) -> None:
    answers: list[Answer | str] = [fault(500, "InternalServerError"), ok({"Item": {}})]
    with Scripted(answers) as server:
        got = get(scripted_client(server))

    assert got["Item"] == {}
    assert got["ResponseMetadata"]["RetryAttempts"] == 1
    assert len(server.requests) == 2 and waits == [1]


@pytest.mark.parametrize("code", sorted(aws.THROTTLING))
def test_throttling_is_tried_again(code: str, waits: list[int]) -> None:
    answers: list[Answer | str] = [fault(400, f"com.amazonaws.dynamodb.v20120810#{code}"), ok({})]
    with Scripted(answers) as server:
        get(scripted_client(server))

    assert len(server.requests) == 2 and waits == [1]


def test_a_failed_condition_is_never_tried_again(waits: list[int]) -> None:
    answers: list[Answer | str] = [
        fault(400, "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException"),
        ok({}),
    ]
    with Scripted(answers) as server, pytest.raises(AwsError) as raised:
        scripted_client(server).put_item(TableName="games", Item={"pk": {"S": "k"}})

    assert raised.value.code == "ConditionalCheckFailedException"
    assert len(server.requests) == 1 and waits == []


def test_other_refusals_are_not_tried_again(waits: list[int]) -> None:
    answers: list[Answer | str] = [fault(400, "ValidationException"), ok({})]
    with Scripted(answers) as server, pytest.raises(AwsError):
        get(scripted_client(server))

    assert len(server.requests) == 1 and waits == []


def test_four_attempts_then_the_last_error(waits: list[int]) -> None:
    answers: list[Answer | str] = [fault(503, "ServiceUnavailable", f"down {i}") for i in range(5)]
    with Scripted(answers) as server, pytest.raises(AwsError) as raised:
        get(scripted_client(server))

    assert raised.value.status == 503 and raised.value.message == "down 3"
    assert len(server.requests) == 4 and waits == [1, 2, 3]


def test_backoff_is_full_jitter_under_a_doubling_capped_bound() -> None:
    bounds = [0.05, 0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    for attempt, bound in enumerate(bounds, start=1):
        waited = [aws.backoff(attempt) for _ in range(200)]
        assert all(0 <= w <= bound for w in waited)
        assert max(waited) > bound / 2  # spread over the whole range, not fixed
