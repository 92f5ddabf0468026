"""The bot's own AWS client's errors: any answer AWS (or something in between) may give becomes an
AwsError shaped like botocore's ClientError (a scripted server on loopback), and the store
tells a conflict in either."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from infra import dynamo_store
from infra.aws import AwsError

from .scripted import (  # noqa: F401 - fixtures
    Answer,
    Scripted,
    fault,
    get,
    own_connections,
    scripted_client,
    waits_fixture,
)


def test_an_error_answer_is_an_aws_error_shaped_like_botocores(waits: list[int]) -> None:
    answer = fault(
        400, "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "Requested resource"
    )
    with Scripted([answer]) as server, pytest.raises(AwsError) as raised:
        get(scripted_client(server))

    error = raised.value
    assert (error.code, error.message, error.status) == (
        "ResourceNotFoundException",
        "Requested resource",
        400,
    )
    assert error.response == {
        "Error": {"Code": "ResourceNotFoundException", "Message": "Requested resource"},
        "ResponseMetadata": {"HTTPStatusCode": 400},
    }
    assert "GetItem" in str(error) and "ResourceNotFoundException" in str(error)
    assert waits == []


@pytest.mark.parametrize(
    ("answer", "code", "message"),
    [
        (
            Answer(
                400,
                b'{"Message": "bad key"}',
                {"x-amzn-ErrorType": "ValidationException:http://internal.amazon.com/coral/"},
            ),
            "ValidationException",
            "bad key",
        ),
        (
            Answer(403, b'{"code": "AccessDeniedException", "message": "no"}'),
            "AccessDeniedException",
            "no",
        ),
        (
            Answer(400, b'{"__type": "QueueDoesNotExist", "message": "gone"}'),
            "QueueDoesNotExist",
            "gone",
        ),
        (Answer(403, b"<html><body>Forbidden</body></html>"), "403", "Forbidden"),
        (Answer(404, b""), "404", "an empty answer"),
        (Answer(400, b"[1, 2]"), "400", "not AWS's JSON"),
        (Answer(200, b"<html>a captive portal</html>"), "MalformedAnswer", "captive portal"),
    ],
    ids=[
        "error-type-header",
        "code-field",
        "plain-type",
        "html",
        "empty",
        "json-list",
        "2xx-html",
    ],
)
def test_error_codes_and_messages_from_any_answer(
    answer: Answer, code: str, message: str, waits: list[int]
) -> None:
    with Scripted([answer]) as server, pytest.raises(AwsError) as raised:
        get(scripted_client(server))

    assert raised.value.code == code
    assert message in raised.value.message
    assert raised.value.status == answer.status
    assert raised.value.response["Error"]["Code"] == code


def test_the_store_sees_a_conflict_in_our_error_and_in_botocores() -> None:
    ours = AwsError("ConditionalCheckFailedException", "The conditional request failed", 400)
    theirs = ClientError(
        {"Error": {"Code": "ConditionalCheckFailedException", "Message": "failed"}}, "PutItem"
    )
    other = AwsError("ValidationException", "bad", 400)

    assert dynamo_store._is_conflict(ours) and dynamo_store._is_conflict(theirs)
    assert not dynamo_store._is_conflict(other)
    assert not dynamo_store._is_conflict(ValueError("no response"))
