"""The bot's own AWS client in real calls against the moto server (DynamoDB, SQS, Secrets
Manager), and the bot's AWS calls importing no botocore in a fresh process.

Its signing, configuration and errors: test_aws_signing.py, test_aws_config.py and
test_aws_errors.py.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from handlers.entry import webhook_setup
from infra import aws
from infra.aws import AwsError
from infra.dynamo_store import create_table

from .scripted import own_connections  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parents[2]


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
