"""The bot's own AWS client: SigV4 as botocore signs, where it goes and as whom, errors (a
scripted server on loopback), and real calls against the moto server."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import botocore.auth
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials
from botocore.exceptions import ClientError

from handlers.entry import webhook_setup
from handlers.playtest.moto_server import REGION
from infra import aws, dynamo_store
from infra.aws import AwsError, Credentials
from infra.dynamo_store import create_table

from .scripted import (  # noqa: F401 - fixtures
    KEYS,
    Answer,
    Scripted,
    as_options,
    fault,
    get,
    ok,
    own_connections,
    scripted_client,
    waits_fixture,
)

ROOT = Path(__file__).resolve().parents[2]
WITH_TOKEN = Credentials(KEYS.access_key, KEYS.secret_key, "IQoJb3JpZ2luX2VjE//token+/=")
FROZEN = datetime.datetime(2025, 3, 9, 23, 59, 58)
BODY = json.dumps({"TableName": "games", "Key": {"pk": {"S": "game#-100123"}}}).encode()


# -- Signature Version 4, byte for byte as botocore ----------------------------------------------


def botocore_signed(
    url: str, headers: dict[str, str], body: bytes, keys: Credentials, service: str, region: str
) -> dict[str, str]:
    """The headers botocore's SigV4Auth gives the same request (at the time the test froze)."""
    request = AWSRequest(method="POST", url=url, data=body, headers=dict(headers))
    boto_keys = BotoCredentials(keys.access_key, keys.secret_key, keys.token)
    SigV4Auth(boto_keys, service, region).add_auth(request)
    return dict(request.headers.items())


@pytest.mark.parametrize("service", ["dynamodb", "sqs", "secretsmanager"])
@pytest.mark.parametrize("region", ["us-east-1", "eu-central-2"])
@pytest.mark.parametrize("keys", [KEYS, WITH_TOKEN], ids=["keys", "session-token"])
def test_signature_equals_botocores(
    service: str, region: str, keys: Credentials, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: FROZEN)
    spec = aws.SERVICES[service]
    url = aws.resolve_endpoint(spec, region, env={}) + "/"
    headers = {
        "Content-Type": f"application/x-amz-json-{spec.json_version}",
        "X-Amz-Target": f"{spec.target_prefix}.GetItem",
    }
    host = url.split("/")[2]

    ours = aws.sign(keys, region, service, host, "/", headers, BODY, "20250309T235958Z")
    theirs = botocore_signed(url, headers, BODY, keys, service, region)

    assert ours["Authorization"] == theirs["Authorization"]
    assert ours["X-Amz-Date"] == theirs["X-Amz-Date"] == "20250309T235958Z"
    assert ours.get("X-Amz-Security-Token") == theirs.get("X-Amz-Security-Token") == keys.token
    signed = ours["Authorization"].split("SignedHeaders=")[1].split(",")[0]
    expected = "content-type;host;x-amz-date;x-amz-target"
    if keys.token:
        expected = "content-type;host;x-amz-date;x-amz-security-token;x-amz-target"
    assert signed == expected


def test_what_goes_on_the_wire_is_signed_as_botocore_signs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Scripted([ok({"Item": {}})]) as server:
        client = aws.client(
            "dynamodb", region_name="eu-west-1", endpoint_url=server.url, **as_options(WITH_TOKEN)
        )
        client.get_item(TableName="games", Key={"pk": {"S": "k"}})
    (request,) = server.requests
    sent = request.headers
    when = datetime.datetime.strptime(sent["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: when)
    theirs = botocore_signed(
        server.url + "/",
        {"Content-Type": sent["Content-Type"], "X-Amz-Target": sent["X-Amz-Target"]},
        request.body,
        WITH_TOKEN,
        "dynamodb",
        "eu-west-1",
    )

    assert sent["Authorization"] == theirs["Authorization"]
    assert sent["Host"] == server.url.removeprefix("http://")
    assert sent["X-Amz-Target"] == "DynamoDB_20120810.GetItem"
    assert sent["Content-Type"] == "application/x-amz-json-1.0"
    assert json.loads(request.body) == {"TableName": "games", "Key": {"pk": {"S": "k"}}}


def test_targets_and_json_versions_per_service() -> None:
    assert aws.SERVICES["dynamodb"].json_version == "1.0"
    assert aws.SERVICES["sqs"].json_version == "1.0"
    assert aws.SERVICES["secretsmanager"].json_version == "1.1"
    with Scripted([ok({}), ok({})]) as server:
        options = {"region_name": REGION, "endpoint_url": server.url, **as_options(KEYS)}
        aws.client("sqs", **options).send_message(QueueUrl="q", MessageBody="b", DelaySeconds=3)
        aws.client("secretsmanager", **options).call("GetSecretValue", {"SecretId": "s"})
    sqs, secrets = server.requests
    assert sqs.headers["X-Amz-Target"] == "AmazonSQS.SendMessage"
    assert json.loads(sqs.body)["DelaySeconds"] == 3
    assert secrets.headers["X-Amz-Target"] == "secretsmanager.GetSecretValue"
    assert secrets.headers["Content-Type"] == "application/x-amz-json-1.1"


# -- region, endpoint, credentials ---------------------------------------------------------------


def test_region_comes_from_the_option_then_aws_region_then_the_default() -> None:
    env = {"AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "us-west-2"}

    assert aws.resolve_region("ap-south-1", env) == "ap-south-1"
    assert aws.resolve_region(None, env) == "eu-west-1"
    assert aws.resolve_region(None, {"AWS_DEFAULT_REGION": "us-west-2"}) == "us-west-2"
    with pytest.raises(ValueError, match="AWS_REGION"):
        aws.resolve_region(None, {})


@pytest.mark.parametrize(
    ("service", "suffix", "host"),
    [
        ("dynamodb", "DYNAMODB", "dynamodb"),
        ("sqs", "SQS", "sqs"),
        ("secretsmanager", "SECRETS_MANAGER", "secretsmanager"),
    ],
)
def test_endpoint_per_service_then_shared_then_public(
    service: str, suffix: str, host: str
) -> None:
    spec = aws.SERVICES[service]
    own, shared = "http://127.0.0.1:4566", "http://localhost:9000"

    assert aws.resolve_endpoint(spec, "eu-west-1", {f"AWS_ENDPOINT_URL_{suffix}": own}) == own
    both = {f"AWS_ENDPOINT_URL_{suffix}": own, "AWS_ENDPOINT_URL": shared}
    assert aws.resolve_endpoint(spec, "eu-west-1", both) == own
    assert aws.resolve_endpoint(spec, "eu-west-1", {"AWS_ENDPOINT_URL": shared}) == shared
    public = f"https://{host}.eu-west-1.amazonaws.com"
    assert aws.resolve_endpoint(spec, "eu-west-1", {}) == public
    ignored = {**both, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}
    assert aws.resolve_endpoint(spec, "eu-west-1", ignored) == public


def test_the_other_services_endpoint_is_not_taken() -> None:
    env = {"AWS_ENDPOINT_URL_SQS": "http://127.0.0.1:1"}

    got = aws.resolve_endpoint(aws.SERVICES["dynamodb"], "us-east-1", env)

    assert got == "https://dynamodb.us-east-1.amazonaws.com"


def test_client_takes_region_and_endpoint_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_REGION", "eu-central-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:4566")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL_DYNAMODB", raising=False)

    sqs, dynamodb = aws.client("sqs"), aws.client("dynamodb")

    assert (sqs.region, sqs.endpoint_url) == ("eu-central-1", "http://127.0.0.1:4566")
    assert dynamodb.endpoint_url == "https://dynamodb.eu-central-1.amazonaws.com"
    with pytest.raises(ValueError, match="no JSON client"):
        aws.client("s3")
    with pytest.raises(TypeError):
        aws.client("sqs", config=object())


def test_credentials_from_the_environment_with_or_without_a_session_token() -> None:
    env = {"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"}

    assert aws.resolve_credentials(env) == Credentials("AKID", "secret", None)
    with_token = {**env, "AWS_SESSION_TOKEN": "token"}
    assert aws.resolve_credentials(with_token) == Credentials("AKID", "secret", "token")


@pytest.fixture
def no_env_keys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No keys in the environment and nowhere else botocore could look but a credentials file
    (returned, not yet written)."""
    for name in (
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_SECURITY_TOKEN",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_ROLE_ARN",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ):
        monkeypatch.delenv(name, raising=False)
    credentials = tmp_path / "credentials"
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(credentials))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("BOTO_CONFIG", str(tmp_path / "boto"))
    monkeypatch.setattr(aws.config, "_botocore_credentials", None)
    return credentials


def test_without_keys_in_the_environment_botocore_finds_a_profile(no_env_keys: Path) -> None:
    no_env_keys.write_text(
        "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = from-the-file\n"
    )

    assert aws.resolve_credentials() == Credentials("AKIDFILE", "from-the-file", None)


def test_without_any_credentials_the_error_says_what_to_set(no_env_keys: Path) -> None:
    client = aws.client("dynamodb", region_name=REGION, endpoint_url="http://127.0.0.1:9")

    with pytest.raises(aws.NoCredentials, match="AWS_ACCESS_KEY_ID"):
        client.get_item(TableName="t", Key={"pk": {"S": "k"}})


# -- errors --------------------------------------------------------------------------------------


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


# -- real calls: the moto server -----------------------------------------------------------------


@pytest.fixture
def on_moto(
    aws_env: None, moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> Callable[[str], aws.Client]:
    """The bot's client for a service of the moto server, found through AWS_ENDPOINT_URL."""
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server)
    return aws.client


@pytest.fixture
def table(moto_clients: Callable[[str], Any]) -> Iterator[str]:
    name = f"games-{uuid.uuid4().hex[:12]}"
    create_table(moto_clients("dynamodb"), name)
    yield name
    moto_clients("dynamodb").delete_table(TableName=name)


def test_dynamodb_put_get_conditional_failure_and_delete(
    on_moto: Callable[[str], aws.Client], table: str
) -> None:
    client = on_moto("dynamodb")
    item = {
        "pk": {"S": "game#1"},
        "version": {"N": "1"},
        "data": {"B": b"\x78\x9c\x00binary"},
        "nested": {"M": {"blobs": {"BS": [b"a", b"b"]}, "list": {"L": [{"B": b"c"}]}}},
    }

    client.put_item(TableName=table, Item=item, ConditionExpression="attribute_not_exists(pk)")
    got = client.get_item(TableName=table, Key={"pk": {"S": "game#1"}}, ConsistentRead=True)
    assert got["Item"] == item
    assert got["ResponseMetadata"]["HTTPStatusCode"] == 200
    with pytest.raises(AwsError) as raised:
        client.put_item(TableName=table, Item=item, ConditionExpression="attribute_not_exists(pk)")
    assert raised.value.code == "ConditionalCheckFailedException"
    assert raised.value.status == 400
    client.delete_item(TableName=table, Key={"pk": {"S": "game#1"}})
    assert "Item" not in client.get_item(TableName=table, Key={"pk": {"S": "game#1"}})


def test_a_missing_table_is_a_plain_error(on_moto: Callable[[str], aws.Client]) -> None:
    with pytest.raises(AwsError) as raised:
        on_moto("dynamodb").get_item(TableName="no-such-table", Key={"pk": {"S": "k"}})

    assert raised.value.code == "ResourceNotFoundException"


def test_sqs_send_message_with_a_delay(
    on_moto: Callable[[str], aws.Client],
    moto_clients: Callable[[str], Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sqs = moto_clients("sqs")
    queue = sqs.create_queue(QueueName=f"timers-{uuid.uuid4().hex[:12]}")["QueueUrl"]
    now = [4_000_000_000.0]
    monkeypatch.setattr("moto.sqs.models.unix_time_millis", lambda: now[0] * 1000)
    try:
        sent = on_moto("sqs").send_message(
            QueueUrl=queue, MessageBody='{"chat": 1}', DelaySeconds=30
        )
        assert sent["MessageId"]
        assert "Messages" not in sqs.receive_message(QueueUrl=queue, WaitTimeSeconds=0)
        now[0] += 31
        (message,) = sqs.receive_message(QueueUrl=queue, WaitTimeSeconds=0)["Messages"]
        assert message["Body"] == '{"chat": 1}' and message["MessageId"] == sent["MessageId"]
        with pytest.raises(AwsError) as raised:
            on_moto("sqs").send_message(QueueUrl=queue + "-gone", MessageBody="x")
        assert raised.value.status == 400
    finally:
        sqs.delete_queue(QueueUrl=queue)


def test_secrets_manager_get_secret_value(
    on_moto: Callable[[str], aws.Client], moto_clients: Callable[[str], Any]
) -> None:
    secrets = moto_clients("secretsmanager")
    text = secrets.create_secret(Name=f"token-{uuid.uuid4().hex}", SecretString="123:abc\n")
    blob = secrets.create_secret(Name=f"blob-{uuid.uuid4().hex}", SecretBinary=b"\x00\x01")
    try:
        client = on_moto("secretsmanager")
        assert client.get_secret_value(SecretId=text["ARN"])["SecretString"] == "123:abc\n"
        assert client.get_secret_value(SecretId=blob["ARN"])["SecretBinary"] == b"\x00\x01"
        assert webhook_setup.read_secret(text["ARN"]) == "123:abc"  # the custom resource's way
        with pytest.raises(AwsError) as raised:
            client.get_secret_value(SecretId="no-such-secret")
        assert raised.value.code == "ResourceNotFoundException"
    finally:
        for made in (text, blob):
            secrets.delete_secret(SecretId=made["ARN"], ForceDeleteWithoutRecovery=True)


# -- the cold path -------------------------------------------------------------------------------

_COLD_PATH = """
import sys
from handlers.entry import lambda_webhook as lambda_entry
from infra.dynamo_store import DynamoStore
from infra.store import Item
from infra.timers import SqsTimers
import handlers.telegram.app

store = DynamoStore(sys.argv[1])
store.save(Item("game#1", 0, {"round": 1}))
assert store.load("game#1").data == {"round": 1}
SqsTimers(sys.argv[2], clock=lambda: 0)(1, 5)
assert lambda_entry.bot_token() == "123:abc"
handlers.telegram.app.shared_tls_clients()
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("botocore", "boto3", "urllib3"))
assert not loaded, loaded
"""


def test_the_bots_aws_calls_import_no_botocore(
    aws_env: None,
    moto_server: str,
    moto_clients: Callable[[str], Any],
    table: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queue = moto_clients("sqs").create_queue(QueueName=f"cold-{uuid.uuid4().hex[:12]}")
    secret = moto_clients("secretsmanager").create_secret(
        Name=f"cold-{uuid.uuid4().hex}", SecretString="123:abc"
    )
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server)
    monkeypatch.setenv("TELEGRAM_TOKEN_SECRET_ARN", secret["ARN"])
    try:
        result = subprocess.run(
            [sys.executable, "-c", _COLD_PATH, table, queue["QueueUrl"]],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr[-2000:]
    finally:
        moto_clients("sqs").delete_queue(QueueUrl=queue["QueueUrl"])
        moto_clients("secretsmanager").delete_secret(
            SecretId=secret["ARN"], ForceDeleteWithoutRecovery=True
        )
