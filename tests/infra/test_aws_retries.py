"""The bot's own AWS client tries again what may succeed and never what AWS refused (a scripted
server on loopback)."""

from __future__ import annotations

import contextlib
import json
import zlib
from typing import Any

import botocore.parsers
import botocore.session
import pytest
from botocore.awsrequest import AWSResponse

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
    scripted_options,
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


# -- the same answers as botocore ----------------------------------------------------------------
# botocore's lists, models and retry modules are read in fixtures and helpers, not at import: a
# botocore release that moved one fails the tests that read it, not every test of this file.

OPERATIONS = {
    "GetItem": "dynamodb",
    "BatchGetItem": "dynamodb",
    "PutItem": "dynamodb",
    "DeleteItem": "dynamodb",
    "TransactWriteItems": "dynamodb",
    "SendMessage": "sqs",
    "GetSecretValue": "secretsmanager",
}


@pytest.fixture(name="session", scope="module")
def session_fixture() -> botocore.session.Session:
    return botocore.session.get_session()


@pytest.fixture(scope="module")
def retry_model(session: botocore.session.Session) -> dict[str, Any]:
    """botocore's legacy retry model, `_retry.json`."""
    return session.get_component("data_loader").load_data("_retry")


@pytest.fixture(scope="module")
def botocore_retried(retry_model: dict[str, Any]) -> tuple[set[str], set[int]]:
    """The codes and bare statuses botocore retries, from its own lists: standard mode's checkers
    and legacy mode's `_retry.json` (general definitions, the bot's three services)."""
    from botocore.retries import standard

    codes = {
        *standard.TransientRetryableChecker._TRANSIENT_ERROR_CODES,
        *standard.ThrottledRetryableChecker._THROTTLED_ERROR_CODES,
    }
    statuses = {
        *standard.TransientRetryableChecker._TRANSIENT_STATUS_CODES,
        *standard.ThrottlingStatusCodeChecker._THROTTLING_STATUS_CODES,
    }
    sections = [retry_model["definitions"], retry_model["retry"]["__default__"]["policies"]]
    for service in set(OPERATIONS.values()):
        section = retry_model["retry"].get(service, {}).get("__default__", {})
        sections.append(section.get("policies", {}))
    for policies in sections:
        for policy in policies.values():
            response = policy.get("applies_when", {}).get("response", {})
            if "service_error_code" in response:
                codes.add(response["service_error_code"])
            elif "http_status_code" in response:
                statuses.add(response["http_status_code"])
    return codes, statuses


@pytest.fixture(scope="module")
def modeled_errors(session: botocore.session.Session) -> set[str]:
    """The errors botocore's models give the bot's operations."""
    return {
        shape.name
        for operation, service in OPERATIONS.items()
        for shape in session.get_service_model(service).operation_model(operation).error_shapes
    }


def test_the_client_retries_every_code_and_status_botocore_lists(
    botocore_retried: tuple[set[str], set[int]],
) -> None:
    codes, statuses = botocore_retried
    ours = aws.retries.THROTTLING | aws.retries.TRANSIENT
    ours |= set().union(*aws.retries.MODELED_RETRYABLE.values())

    assert codes - ours == set()
    assert statuses - {429} <= aws.retries.TRANSIENT_STATUSES
    assert aws.retries.THROTTLING_STATUS == 429
    assert {
        "RequestTimeout",
        "RequestThrottled",
        "SlowDown",
        "TransactionInProgressException",
    } <= ours


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_the_modeled_errors_are_botocores(
    operation: str, session: botocore.session.Session
) -> None:
    model = session.get_service_model(OPERATIONS[operation]).operation_model(operation)
    retried = {shape.name for shape in model.error_shapes if shape.metadata.get("retryable")}

    assert aws.retries.MODELED_ERRORS[operation] == {shape.name for shape in model.error_shapes}
    assert aws.retries.MODELED_RETRYABLE.get(operation, set()) == retried


def botocore_retries(
    session: botocore.session.Session,
    retry_model: dict[str, Any],
    operation: str,
    status: int,
    code: str,
) -> tuple[bool, bool]:
    """Whether botocore's standard mode (its default) and its legacy mode try again after an
    error answer of `status` and `code` to `operation`."""
    from botocore import retryhandler, translate
    from botocore.retries import standard

    service = OPERATIONS[operation]
    http = AWSResponse("https://aws.example", status, {}, None)
    parsed = {"Error": {"Code": code, "Message": ""}, "ResponseMetadata": {}}
    context = standard.RetryContext(
        attempt_number=1,
        operation_model=session.get_service_model(service).operation_model(operation),
        parsed_response=parsed,
        http_response=http,
    )
    in_standard = standard.StandardRetryConditions(max_attempts=10).is_retryable(context)
    config = translate.build_retry_config(
        service, retry_model["retry"], retry_model["definitions"]
    )
    checker = retryhandler.create_checker_from_retry_config(config, operation_name=operation)
    in_legacy = checker(
        attempt_number=1, response=(http, parsed), caught_exception=None, retries_context={}
    )
    return in_standard, bool(in_legacy)


REFUSALS = {
    "ValidationException",
    "AccessDeniedException",
    "UnrecognizedClientException",
    "InvalidSignatureException",
    "MissingAuthenticationTokenException",
    "ExpiredTokenException",
    "SerializationException",
    "KmsThrottled",
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_an_answer_is_tried_again_when_botocore_would_and_only_then(
    operation: str,
    session: botocore.session.Session,
    retry_model: dict[str, Any],
    botocore_retried: tuple[set[str], set[int]],
    modeled_errors: set[str],
) -> None:
    statuses = [400, 403, 404, 409, 413, 429, 500, 501, 502, 503, 504, 505, 509]
    codes = botocore_retried[0] | modeled_errors | REFUSALS
    wrong = []
    for status in statuses:
        for code in sorted(codes | {str(status)}):
            in_standard, in_legacy = botocore_retries(
                session, retry_model, operation, status, code
            )
            ours = aws.retries.retryable(AwsError(code, "", status, operation))
            if (in_standard and not ours) or (ours and not (in_standard or in_legacy)):
                wrong.append((status, code, ours, in_standard, in_legacy))

    assert wrong == []


def test_each_code_botocore_retries_is_tried_again(
    botocore_retried: tuple[set[str], set[int]], waits: list[int]
) -> None:
    codes = sorted(botocore_retried[0])
    tried = {}
    for code in codes:
        status = (
            403 if code == "RequestThrottled" else 409 if code.startswith("Replicated") else 400
        )
        answers: list[Answer | str] = [
            fault(status, f"com.amazonaws.dynamodb.v20120810#{code}"),
            ok({}),
        ]
        waits.clear()
        with Scripted(answers) as server, contextlib.suppress(AwsError):
            scripted_client(server).put_item(TableName="games", Item={"pk": {"S": "k"}})
        tried[code] = (len(server.requests), list(waits))

    assert codes and tried == dict.fromkeys(codes, (2, [1]))


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504, 509])
def test_a_bare_throttling_or_server_status_is_tried_again(status: int, waits: list[int]) -> None:
    with Scripted([Answer(status, b""), ok({"Item": {}})]) as server:
        got = get(scripted_client(server))

    assert got["Item"] == {} and len(server.requests) == 2 and waits == [1]


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, "ConditionalCheckFailedException"),
        (400, "TransactionConflictException"),
        (400, "ItemCollectionSizeLimitExceededException"),
        (400, "ResourceNotFoundException"),
        (400, "ValidationException"),
        (400, "UnrecognizedClientException"),
        (403, "InvalidSignatureException"),
        (403, "AccessDeniedException"),
        (429, "ResourceNotFoundException"),  # a 429 naming a modeled refusal is that refusal
        (501, "NotImplemented"),
        (505, "505"),
    ],
)
def test_what_botocore_does_not_retry_is_not_tried_again(
    status: int, code: str, waits: list[int]
) -> None:
    with Scripted([fault(status, code), ok({})]) as server, pytest.raises(AwsError) as raised:
        get(scripted_client(server))

    assert raised.value.code == code and raised.value.status == status
    assert len(server.requests) == 1 and waits == []


QUERY_ERROR = {"x-amzn-query-error": "AWS.SimpleQueueService.NonExistentQueue;Sender"}


def test_an_sqs_error_code_is_read_as_botocore_reads_it(
    waits: list[int], session: botocore.session.Session
) -> None:
    body = {"__type": "com.amazonaws.sqs#QueueDoesNotExist", "message": "no queue"}
    answer = Answer(400, json.dumps(body).encode(), QUERY_ERROR)
    with Scripted([answer]) as server, pytest.raises(AwsError) as raised:
        aws.client("sqs", **scripted_options(server)).send_message(QueueUrl="q", MessageBody="b")
    theirs = botocore.parsers.create_parser("json").parse(
        {"status_code": 400, "headers": QUERY_ERROR, "body": json.dumps(body).encode()},
        session.get_service_model("sqs").operation_model("SendMessage").output_shape,
    )

    assert raised.value.response["Error"] == theirs["Error"]
    assert raised.value.code == "AWS.SimpleQueueService.NonExistentQueue"


def test_sqs_throttling_named_the_query_way_is_tried_again(waits: list[int]) -> None:
    body = json.dumps({"__type": "com.amazonaws.sqs#RequestThrottled", "message": "slow"})
    throttled = Answer(403, body.encode(), {"x-amzn-query-error": "RequestThrottled;Sender"})
    with Scripted([throttled, ok({"MessageId": "m"})]) as server:
        sent = aws.client("sqs", **scripted_options(server)).send_message(
            QueueUrl="q", MessageBody="b"
        )

    assert sent["MessageId"] == "m" and len(server.requests) == 2 and waits == [1]


def test_a_dynamodb_answer_failing_its_crc32_is_tried_again(waits: list[int]) -> None:
    body = json.dumps({"Item": {"pk": {"S": "k"}}}).encode()
    good = str(zlib.crc32(body))
    damaged = Answer(200, body.replace(b'"k"', b'"x"'), {"x-amz-crc32": good})
    with Scripted([damaged, Answer(200, body, {"x-amz-crc32": good})]) as server:
        got = get(scripted_client(server))

    assert got["Item"] == {"pk": {"S": "k"}} and waits == [1]
