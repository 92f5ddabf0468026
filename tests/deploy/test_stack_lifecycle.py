"""A deploy never gets stuck on Telegram: the custom resources through CloudFormation's
create, a failed update, its rollback and the deletion, with Telegram down at the worst moments.

CloudFormation's part (the stack's status, which the resource reads) is moto's; Telegram is the
fake Bot API, or a closed port when it is down.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.cloudformation.models import cloudformation_backends

from handlers.entry import webhook_setup
from testing.fake_telegram import BOT_USERNAME, FakeTelegram
from tests.deploy.test_webhook_setup import (
    TOKEN_ARN,
    URL,
    Context,
    Responses,
    bot_event,
    event,
    responses,  # noqa: F401 - a fixture
    secrets,  # noqa: F401 - a fixture
)

REGION = "us-east-1"
NEW_URL = "https://zzz999yyy8.execute-api.us-east-1.amazonaws.com/webhook/0therPath0f32LettersAndDigits000"


class Stack:
    """A stack in moto whose status the test sets as CloudFormation would."""

    def __init__(self) -> None:
        client = boto3.client("cloudformation", region_name=REGION)
        template = '{"Resources": {"Q": {"Type": "AWS::SQS::Queue"}}}'
        self.id = client.create_stack(StackName="decapitation-ci", TemplateBody=template)[
            "StackId"
        ]

    def status(self, status: str) -> None:
        backend = cloudformation_backends["123456789012"][REGION]
        backend.stacks[self.id].status = status


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        yield Stack()


def closed_port() -> str:
    """A loopback URL nothing listens on: Telegram is down."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def request(
    kind: str, sink: Responses, stack: Stack, old: dict | None = None, **props: Any
) -> dict[str, Any]:
    body = event(kind, sink, **props)
    body["StackId"] = stack.id
    if old is not None:
        body["OldResourceProperties"] = old
    return body


def answer(sink: Responses) -> dict[str, Any]:
    """CloudFormation's latest answer, the others forgotten."""
    latest = sink.received[-1][1]
    sink.received.clear()
    return latest


def test_a_failed_update_rolls_back_and_the_stack_is_deleted_with_telegram_down(
    fake_telegram: FakeTelegram,
    secrets: dict,  # noqa: F811
    responses: Responses,  # noqa: F811
    stack: Stack,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack.status("CREATE_IN_PROGRESS")
    created = request("Create", responses, stack)
    webhook_setup.handler(created, Context())
    assert answer(responses)["Status"] == "SUCCESS"
    old = created["ResourceProperties"]

    monkeypatch.setenv("TELEGRAM_API_BASE_URL", closed_port())  # Telegram goes down
    stack.status("UPDATE_IN_PROGRESS")
    update = request("Update", responses, stack, old=old, WebhookUrl=NEW_URL)
    webhook_setup.handler(update, Context())
    failed = answer(responses)
    assert failed["Status"] == "FAILED" and "could not reach Telegram" in failed["Reason"]

    stack.status("UPDATE_ROLLBACK_IN_PROGRESS")  # CloudFormation puts the old URL back
    rollback = request("Update", responses, stack, old=update["ResourceProperties"], **old)
    webhook_setup.handler(rollback, Context())
    back = answer(responses)
    assert back["Status"] == "SUCCESS", back
    assert "could not reach Telegram" in back["Reason"]

    stack.status("DELETE_IN_PROGRESS")
    webhook_setup.handler(request("Delete", responses, stack), Context())
    assert answer(responses)["Status"] == "SUCCESS"


def test_a_rollback_puts_the_old_webhook_back_when_telegram_answers(
    fake_telegram: FakeTelegram,
    secrets: dict,  # noqa: F811
    responses: Responses,  # noqa: F811
    stack: Stack,
) -> None:
    stack.status("UPDATE_ROLLBACK_IN_PROGRESS")
    old = event("Update", responses, WebhookUrl=NEW_URL)["ResourceProperties"]
    webhook_setup.handler(request("Update", responses, stack, old=old), Context())
    assert answer(responses)["Status"] == "SUCCESS"
    hooks = [c.params["url"] for c in fake_telegram.calls if c.method == "setWebhook"]
    assert hooks == [URL]


def test_an_update_that_changes_nothing_telegram_holds_asks_telegram_nothing(
    fake_telegram: FakeTelegram,
    secrets: dict,  # noqa: F811
    responses: Responses,  # noqa: F811
    stack: Stack,
) -> None:
    stack.status("UPDATE_IN_PROGRESS")
    same = event("Update", responses)["ResourceProperties"]
    webhook_setup.handler(
        request("Update", responses, stack, old={**same, "ServiceTimeout": "60"}), Context()
    )
    assert answer(responses)["Status"] == "SUCCESS"
    bot_id = str(fake_telegram.bot_id)
    # The physical id as it is now, and as a stack deployed before it kept the bot's id has it.
    for physical in (
        webhook_setup.bot_physical_id(bot_id, BOT_USERNAME),
        f"{webhook_setup.BOT_RESOURCE_ID}:{BOT_USERNAME}",
    ):
        bot = bot_event("Update", responses)
        bot["PhysicalResourceId"] = physical
        bot["OldResourceProperties"] = dict(bot["ResourceProperties"])
        bot["StackId"] = stack.id
        webhook_setup.handler(bot, Context())
        said = answer(responses)
        assert said["Status"] == "SUCCESS", said
        assert said["Data"] == {"BotUsername": BOT_USERNAME, "BotId": bot_id}
        assert said["PhysicalResourceId"] == physical
    assert fake_telegram.calls == []


@pytest.mark.parametrize(
    "change",
    [
        {"Offer": "0123456789abcdef"},
        {"MaxConnections": "10"},
        {"BotId": "654321"},
        {"WebhookSecretArn": "arn:aws:secretsmanager:us-east-1:1:secret:other"},
    ],
)
def test_a_change_telegram_holds_registers_again(
    change: dict,
    fake_telegram: FakeTelegram,
    secrets: dict,  # noqa: F811
    responses: Responses,  # noqa: F811
    stack: Stack,
) -> None:
    stack.status("UPDATE_IN_PROGRESS")
    now = event("Update", responses)["ResourceProperties"]
    webhook_setup.handler(request("Update", responses, stack, old={**now, **change}), Context())
    assert answer(responses)["Status"] == "SUCCESS"
    assert "setWebhook" in [c.method for c in fake_telegram.calls]


OTHER_TOKEN = "654321:ANOTHER-bot-the-stack-changes-to-abcdefghij"
OTHER_USERNAME = "another_decapitation_bot"


def bot_request(
    kind: str, sink: Responses, stack: Stack, bot_id: int, *, old: int | None = None, physical=None
) -> dict[str, Any]:
    """A request for the bot resource, for the bot `bot_id` (after `old`)."""
    body = bot_event(kind, sink)
    body["StackId"] = stack.id
    body["ResourceProperties"]["BotId"] = str(bot_id)
    if old is not None:
        body["OldResourceProperties"] = {**body["ResourceProperties"], "BotId": str(old)}
    if physical is not None:
        body["PhysicalResourceId"] = physical
    return body


def carries_what_the_template_reads(answer: dict[str, Any]) -> bool:
    read = webhook_setup.ATTRIBUTES[webhook_setup.BOT_RESOURCE_TYPE]
    return answer["Status"] == "SUCCESS" and set(read) <= set(answer["Data"])


def test_rolling_back_a_change_of_bot_with_telegram_down_answers_the_old_bot(
    fake_telegram: FakeTelegram,
    secrets: dict,  # noqa: F811
    responses: Responses,  # noqa: F811
    stack: Stack,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack.status("CREATE_IN_PROGRESS")
    first = fake_telegram.bot_id
    webhook_setup.handler(bot_request("Create", responses, stack, first), Context())
    created = answer(responses)
    assert carries_what_the_template_reads(created), created

    with FakeTelegram(OTHER_TOKEN, bot_username=OTHER_USERNAME) as other:  # a change of bot
        secrets[TOKEN_ARN] = OTHER_TOKEN
        monkeypatch.setenv("TELEGRAM_API_BASE_URL", other.url)
        stack.status("UPDATE_IN_PROGRESS")
        change = bot_request(
            "Update",
            responses,
            stack,
            other.bot_id,
            old=first,
            physical=created["PhysicalResourceId"],
        )
        webhook_setup.handler(change, Context())
        changed = answer(responses)
        assert carries_what_the_template_reads(changed), changed
        assert changed["Data"]["BotUsername"] == OTHER_USERNAME

    monkeypatch.setenv("TELEGRAM_API_BASE_URL", closed_port())  # Telegram goes down
    secrets[TOKEN_ARN] = fake_telegram.token
    stack.status("UPDATE_ROLLBACK_IN_PROGRESS")  # another resource failed: back to the first
    for physical in (changed["PhysicalResourceId"], created["PhysicalResourceId"]):
        back = bot_request("Update", responses, stack, first, old=other.bot_id, physical=physical)
        webhook_setup.handler(back, Context())
        rolled = answer(responses)
        assert carries_what_the_template_reads(rolled), rolled
        assert rolled["Data"] == {"BotUsername": BOT_USERNAME, "BotId": str(first)}
        assert "could not reach Telegram" in rolled["Reason"]
