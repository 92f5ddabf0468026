"""DECAPITATION_AWS_CLIENT=boto3: every AWS client the bot makes (the stores, the timers, the
secrets) is boto3's instead of its own, through the one factory `aws.client`."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from botocore.client import BaseClient

from infra import aws, dynamo_store
from infra.dynamo_store import DynamoStore, create_table
from infra.timers import SqsTimers
from testing.moto_server import REGION

ROOT = Path(__file__).resolve().parents[2]
SWITCH = "DECAPITATION_AWS_CLIENT"


@pytest.mark.parametrize("service", sorted(aws.SERVICES))
def test_the_switch_makes_boto3_clients_configured_like_the_bots(
    service: str, aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SWITCH, "boto3")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-west-2")  # boto3 alone would take this one

    made = aws.client(service)

    assert isinstance(made, BaseClient) and made.meta.service_model.service_name == service
    assert made.meta.region_name == "eu-west-1"
    assert made.meta.endpoint_url == f"https://{service}.eu-west-1.amazonaws.com"
    config = made.meta.config
    assert (config.connect_timeout, config.read_timeout) == (
        aws.CONNECT_TIMEOUT,
        aws.read_timeout(service),
    )
    assert config.retries == {"mode": "standard", "total_max_attempts": aws.MAX_ATTEMPTS}


def test_the_switch_passes_the_options_on(aws_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH, "boto3")

    made = aws.client(
        "sqs",
        region_name="ap-south-1",
        endpoint_url="http://127.0.0.1:9",
        aws_access_key_id="AKID",
        aws_secret_access_key="secret",
        read_timeout=2.5,
        max_attempts=2,
    )

    assert (made.meta.region_name, made.meta.endpoint_url) == ("ap-south-1", "http://127.0.0.1:9")
    assert made._request_signer._credentials.access_key == "AKID"
    assert made.meta.config.read_timeout == 2.5
    assert made.meta.config.retries["total_max_attempts"] == 2


def test_with_the_switch_botocore_resolves_what_the_bots_client_refuses(
    aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_USE_FIPS_ENDPOINT", "true")
    with pytest.raises(aws.UnsupportedEndpoint, match=SWITCH):
        aws.client("dynamodb")

    monkeypatch.setenv(SWITCH, "boto3")

    assert (
        aws.client("dynamodb").meta.endpoint_url == "https://dynamodb-fips.us-east-1.amazonaws.com"
    )
    monkeypatch.delenv("AWS_USE_FIPS_ENDPOINT")
    china = aws.client("sqs", region_name="cn-north-1")
    assert china.meta.endpoint_url == "https://sqs.cn-north-1.amazonaws.com.cn"


@pytest.mark.parametrize("value", [None, "", "own", "OWN", " own "])
def test_without_the_switch_the_client_is_the_bots_own(
    value: str | None, aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if value is None:
        monkeypatch.delenv(SWITCH, raising=False)
    else:
        monkeypatch.setenv(SWITCH, value)

    assert isinstance(aws.client("dynamodb"), aws.Client)


def test_an_unknown_switch_is_refused(aws_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH, "botocore")

    with pytest.raises(ValueError, match=f"{SWITCH}.*'own'.*'boto3'"):
        aws.client("dynamodb")


def test_the_default_dynamodb_client_follows_the_switch(
    aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dynamo_store, "_client", None)
    monkeypatch.setenv(SWITCH, "boto3")

    assert isinstance(DynamoStore("games").client, BaseClient)
    assert isinstance(SqsTimers("https://sqs.example/q").client, BaseClient)


@pytest.mark.parametrize("choice", ["own", "boto3"])
def test_the_stores_client_gives_up_on_a_stalled_answer_in_time_for_a_second_try(
    choice: str, aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DynamoDB answers in milliseconds: a store call waits 2 s for an answer, so that a write
    applied but unanswered is sent again (and found by its token) within the call's deadline,
    whichever client makes it; the other services keep the longer wait."""
    monkeypatch.setattr(dynamo_store, "_client", None)
    monkeypatch.setenv(SWITCH, choice)

    made = DynamoStore("games").client
    waits = made.meta.config.read_timeout if choice == "boto3" else made.read_timeout

    assert waits == aws.DYNAMODB_READ_TIMEOUT == aws.read_timeout("dynamodb")
    assert 2 * waits + aws.retries.BACKOFF_BASE < aws.DEADLINE
    assert aws.read_timeout("sqs") == aws.read_timeout("secretsmanager") == aws.READ_TIMEOUT


_SWITCHED = """
import sys
from handlers.entry import lambda_webhook as lambda_entry
from handlers.entry import webhook_setup
from infra.dynamo_store import DynamoStore
from infra.store import Conflict, Item
from infra.timers import SqsTimers

store = DynamoStore(sys.argv[1])
store.save(Item("game#1", 0, {"round": 1}))
assert store.load("game#1").data == {"round": 1}
try:
    store.save(Item("game#1", 0, {"round": 2}))
except Conflict:
    pass
else:
    raise AssertionError("no conflict")
timers = SqsTimers(sys.argv[2], clock=lambda: 0)
timers(7, 0)
assert lambda_entry.bot_token() == "123:abc"
assert webhook_setup.read_secret(sys.argv[3]) == "123:abc"
assert type(store.client).__module__ == type(timers.client).__module__ == "botocore.client"
"""


def test_with_the_switch_the_bots_aws_calls_go_through_boto3(
    aws_env: None,
    moto_server: str,
    moto_clients: Callable[[str], Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = f"switch-{uuid.uuid4().hex[:12]}"
    create_table(moto_clients("dynamodb"), table)
    queue = moto_clients("sqs").create_queue(QueueName=table)["QueueUrl"]
    secret = moto_clients("secretsmanager").create_secret(Name=table, SecretString="123:abc\n")
    monkeypatch.setenv(SWITCH, "boto3")
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server)
    monkeypatch.setenv("TELEGRAM_TOKEN_SECRET_ARN", secret["ARN"])
    try:
        result = subprocess.run(
            [sys.executable, "-c", _SWITCHED, table, queue, secret["ARN"]],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr[-2000:]
        (sent,) = moto_clients("sqs").receive_message(QueueUrl=queue)["Messages"]
        assert sent["Body"] == '{"chat": 7, "due": 0}'
    finally:
        moto_clients("dynamodb").delete_table(TableName=table)
        moto_clients("sqs").delete_queue(QueueUrl=queue)
        moto_clients("secretsmanager").delete_secret(
            SecretId=secret["ARN"], ForceDeleteWithoutRecovery=True
        )


def test_with_the_switch_the_region_comes_from_the_same_variables(
    aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SWITCH, "boto3")
    monkeypatch.delenv("AWS_REGION")
    monkeypatch.delenv("AWS_DEFAULT_REGION")

    with pytest.raises(ValueError, match="AWS_REGION"):
        aws.client("dynamodb")
    assert aws.client("dynamodb", region_name=REGION).meta.region_name == REGION
