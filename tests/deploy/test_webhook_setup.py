"""The webhook custom resource against the fake Bot API and a loopback CloudFormation ResponseURL.

Secrets Manager is replaced by a dict (`read_secret`); everything else is the real code.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from handlers.entry import setup_cloudformation, setup_telegram, webhook_setup
from testing.fake_telegram import BOT_USERNAME, FakeTelegram

TOKEN_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:bot-token-AbCdEf"
SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:webhook-secret-GhIjKl"
WEBHOOK_SECRET = "Gen3rated0Secret0Token0Of0Letters0And0Digits0Only0abcdefghijklmno"
SEGMENT = "Pa7hMadeAtDeploy0f32LettersDigit"  # the webhook path's secret segment
URL = f"https://abc123def4.execute-api.us-east-1.amazonaws.com/webhook/{SEGMENT}"
STACK_ID = "arn:aws:cloudformation:us-east-1:123456789012:stack/decapitation-ci/0f1e2d3c"


class Responses:
    """A loopback stand-in for CloudFormation's pre-signed ResponseURL (an S3 PUT)."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], dict[str, Any]]] = []
        self._lock = threading.Lock()
        responses = self

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length))
                with responses._lock:
                    responses.received.append((dict(self.headers.items()), body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/cfn-response?sig=x"

    def only(self) -> dict[str, Any]:
        """The one answer CloudFormation got."""
        with self._lock:
            assert len(self.received) == 1, self.received
            return self.received[0][1]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Context:
    """The part of the Lambda context the function reads."""

    def __init__(self, seconds: float = 60.0) -> None:
        self.deadline = time.monotonic() + seconds

    def get_remaining_time_in_millis(self) -> int:
        return int((self.deadline - time.monotonic()) * 1000)


@pytest.fixture
def responses() -> Iterator[Responses]:
    server = Responses()
    yield server
    server.close()


@pytest.fixture
def secrets(fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Secrets Manager as a dict; the Bot API base URL pointed at the fake."""
    values = {TOKEN_ARN: fake_telegram.token, SECRET_ARN: WEBHOOK_SECRET}

    def read_secret(arn: str) -> str:
        return values[arn]

    monkeypatch.setattr(webhook_setup, "read_secret", read_secret)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", fake_telegram.url)
    return values


def event(request_type: str, responses: Responses, **properties: Any) -> dict[str, Any]:
    """A CloudFormation custom resource request as Lambda receives it."""
    props = {
        "ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:decapitation-ci-setup",
        "WebhookUrl": URL,
        "TokenSecretArn": TOKEN_ARN,
        "WebhookSecretArn": SECRET_ARN,
        "MaxConnections": "40",
        "BotId": "123456",
        "Offer": setup_telegram.offer_fingerprint(),
    }
    props.update(properties)
    body: dict[str, Any] = {
        "RequestType": request_type,
        "ResponseURL": responses.url,
        "StackId": STACK_ID,
        "RequestId": f"req-{request_type.lower()}",
        "ResourceType": "Custom::TelegramWebhook",
        "LogicalResourceId": "TelegramWebhook",
        "ResourceProperties": props,
    }
    if request_type != "Create":
        body["PhysicalResourceId"] = setup_cloudformation.PHYSICAL_RESOURCE_ID
    return body


def commands(language: str) -> list[dict[str, str]]:
    return [{"command": c, "description": d} for c, d in setup_telegram.COMMANDS[language]]


def test_create_sets_the_webhook_and_the_commands(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    result = webhook_setup.handler(event("Create", responses), Context())

    assert result["Status"] == "SUCCESS", result
    answer = responses.only()
    assert answer["Status"] == "SUCCESS"
    assert answer["PhysicalResourceId"] == setup_cloudformation.PHYSICAL_RESOURCE_ID
    assert answer["StackId"] == STACK_ID
    assert answer["RequestId"] == "req-create"
    assert answer["LogicalResourceId"] == "TelegramWebhook"
    assert answer["Data"] == {"BotUsername": BOT_USERNAME, "WebhookUrl": URL}
    assert (
        "set to https://abc123def4.execute-api.us-east-1.amazonaws.com/webhook/***"
        in (answer["Reason"])
    )
    assert SEGMENT not in answer["Reason"]  # CloudFormation's events show the Reason
    assert fake_telegram.webhook is not None
    assert fake_telegram.webhook["url"] == URL
    assert fake_telegram.webhook["secret_token"] == WEBHOOK_SECRET
    assert fake_telegram.webhook["max_connections"] == 40
    (set_webhook,) = fake_telegram.calls_to("setWebhook")
    assert set_webhook.params["allowed_updates"] == ["message", "callback_query", "my_chat_member"]
    assert set_webhook.params["drop_pending_updates"] is False
    group = {"type": "all_group_chats"}
    assert fake_telegram.commands() == commands("en")
    assert fake_telegram.commands(group) == commands("en")
    assert fake_telegram.commands(language_code="zh") == commands("zh")
    assert fake_telegram.commands(group, language_code="zh") == commands("zh")
    assert len(fake_telegram.calls_to("setMyCommands")) == 4
    fake_telegram.assert_no_refused()


def test_the_answer_is_a_put_without_a_content_type(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    webhook_setup.handler(event("Create", responses), Context())
    headers, _ = responses.received[0]
    lowered = {k.lower(): v for k, v in headers.items()}
    # A pre-signed S3 URL is signed without a content type; urllib must not add its default.
    assert lowered.get("content-type", "") == ""


def test_update_points_the_webhook_at_the_new_url(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    new_url = f"https://zyx987wvu6.execute-api.us-east-1.amazonaws.com/webhook/{SEGMENT}"
    result = webhook_setup.handler(event("Update", responses, WebhookUrl=new_url), Context())

    assert result["Status"] == "SUCCESS", result
    answer = responses.only()
    assert answer["PhysicalResourceId"] == setup_cloudformation.PHYSICAL_RESOURCE_ID
    assert fake_telegram.webhook is not None
    assert fake_telegram.webhook["url"] == new_url
    fake_telegram.assert_no_refused()


def test_delete_removes_the_webhook(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    webhook_setup.handler(event("Create", responses), Context())
    responses.received.clear()

    result = webhook_setup.handler(event("Delete", responses), Context())

    assert result["Status"] == "SUCCESS", result
    assert responses.only()["Status"] == "SUCCESS"
    assert fake_telegram.webhook is None
    (delete,) = fake_telegram.calls_to("deleteWebhook")
    assert delete.params.get("drop_pending_updates") is False
    fake_telegram.assert_no_refused()


def test_a_token_telegram_refuses_fails_with_a_readable_reason(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    wrong = "123456:ANOTHER-token-that-is-not-the-bots"
    secrets[TOKEN_ARN] = wrong

    result = webhook_setup.handler(event("Create", responses), Context())

    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"] == "Telegram refused the bot token (401)"
    assert result == {"Status": "FAILED", "Reason": answer["Reason"]}
    assert wrong not in json.dumps(answer)
    assert fake_telegram.webhook is None
    assert {c.status for c in fake_telegram.refused} == {401}


def test_delete_succeeds_even_when_telegram_refuses(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    secrets[TOKEN_ARN] = "123456:a-revoked-token-telegram-no-longer-knows"

    webhook_setup.handler(event("Delete", responses), Context())

    answer = responses.only()
    assert answer["Status"] == "SUCCESS"
    assert "Telegram refused the bot token (401)" in answer["Reason"]


def test_a_bot_api_error_is_the_reason(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    fake_telegram.fail_next(
        "setWebhook", status=400, description="Bad Request: bad webhook: Failed to resolve host"
    )

    webhook_setup.handler(event("Create", responses), Context())

    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"] == (
        "Telegram setWebhook failed (400): Bad Request: bad webhook: Failed to resolve host"
    )
    assert WEBHOOK_SECRET not in json.dumps(answer)


def test_a_flood_limit_is_waited_out_once(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    fake_telegram.fail_next("setMyCommands", status=429, retry_after=1)

    webhook_setup.handler(event("Create", responses), Context())

    assert responses.only()["Status"] == "SUCCESS"
    assert len(fake_telegram.calls_to("setMyCommands")) == 5
    assert fake_telegram.commands(language_code="zh") == commands("zh")


def test_a_silent_telegram_fails_in_time_instead_of_hanging(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    fake_telegram.delay_next("getMe", 5.0)
    started = time.monotonic()

    # 11.5 s left, 10 s of them kept for answering: Telegram gets 1.5 s.
    webhook_setup.handler(event("Create", responses), Context(seconds=11.5))

    assert time.monotonic() - started < 4.0
    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"].startswith("Telegram did not answer getMe within")


def test_an_unreachable_telegram_is_the_reason(
    secrets: dict[str, str], responses: Responses, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9")

    webhook_setup.handler(event("Create", responses), Context())

    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"].startswith("could not reach Telegram for getMe")


def test_a_missing_property_is_the_reason(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    request = event("Create", responses)
    del request["ResourceProperties"]["WebhookUrl"]

    webhook_setup.handler(request, Context())

    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"] == "the custom resource lacks the property WebhookUrl"


def test_an_http_url_is_refused_before_telegram_is_asked(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    webhook_setup.handler(
        event("Create", responses, WebhookUrl="http://example.com/webhook"), Context()
    )

    assert responses.only()["Status"] == "FAILED"
    assert fake_telegram.calls_to("setWebhook") == []


def test_an_unexpected_error_is_reported_without_the_secrets(
    fake_telegram: FakeTelegram,
    secrets: dict[str, str],
    responses: Responses,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError(f"boom with {fake_telegram.token} and {WEBHOOK_SECRET}")

    monkeypatch.setattr(webhook_setup, "register", broken)

    webhook_setup.handler(event("Create", responses), Context())

    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"] == "RuntimeError: boom with *** and ***"
    assert "RuntimeError" in caplog.text
    assert fake_telegram.token not in caplog.text
    assert WEBHOOK_SECRET not in caplog.text


def test_an_unreachable_response_url_does_not_hang(
    fake_telegram: FakeTelegram, secrets: dict[str, str], responses: Responses
) -> None:
    request = event("Create", responses)
    request["ResponseURL"] = "http://127.0.0.1:9/cfn-response"
    started = time.monotonic()

    result = webhook_setup.handler(request, Context())

    assert result["Status"] == "SUCCESS"
    assert time.monotonic() - started < 10.0


def bot_event(request_type: str, responses: Responses) -> dict[str, Any]:
    """A request for the bot's account (Custom::TelegramBot)."""
    body = event(request_type, responses)
    body["ResourceType"] = webhook_setup.BOT_RESOURCE_TYPE
    body["LogicalResourceId"] = "TelegramBot"
    body["ResourceProperties"] = {
        k: v
        for k, v in body["ResourceProperties"].items()
        if k in ("ServiceToken", "TokenSecretArn", "BotId")
    }
    if request_type != "Create":
        body["PhysicalResourceId"] = webhook_setup.BOT_RESOURCE_ID
    return body


@pytest.mark.parametrize("request_type", ["Create", "Update"])
def test_the_bot_resource_gives_the_bots_username_and_sets_nothing(
    request_type: str, fake_telegram: FakeTelegram, secrets: dict, responses: Responses
) -> None:
    webhook_setup.handler(bot_event(request_type, responses), Context())
    answer = responses.only()
    assert answer["Status"] == "SUCCESS", answer
    assert answer["Data"]["BotUsername"] == BOT_USERNAME
    assert answer["Data"]["BotId"] == str(fake_telegram.bot_id)
    physical = webhook_setup.bot_physical_id(str(fake_telegram.bot_id), BOT_USERNAME)
    assert answer["PhysicalResourceId"] == physical
    assert [c.method for c in fake_telegram.calls] == ["getMe"]


def test_removing_the_bot_resource_asks_nothing_of_telegram_or_secrets(
    fake_telegram: FakeTelegram, responses: Responses, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_secrets(arn: str) -> str:
        raise AssertionError("a deletion needs no secret")

    monkeypatch.setattr(webhook_setup, "read_secret", no_secrets)
    webhook_setup.handler(bot_event("Delete", responses), Context())
    answer = responses.only()
    assert answer["Status"] == "SUCCESS"
    assert answer["PhysicalResourceId"] == webhook_setup.BOT_RESOURCE_ID
    assert fake_telegram.calls == []


def test_the_bot_resource_fails_readably_on_a_refused_token(
    fake_telegram: FakeTelegram, secrets: dict, responses: Responses
) -> None:
    secrets[TOKEN_ARN] = "123:not-the-token"
    webhook_setup.handler(bot_event("Create", responses), Context())
    answer = responses.only()
    assert answer["Status"] == "FAILED"
    assert answer["Reason"] == "Telegram refused the bot token (401)"


def path_event(request_type: str, responses: Responses, physical: str | None = None) -> dict:
    """A request for the webhook path's resource (Custom::WebhookPath)."""
    body = event(request_type, responses)
    body["ResourceType"] = webhook_setup.PATH_RESOURCE_TYPE
    body["LogicalResourceId"] = "WebhookPath"
    body["ResourceProperties"] = {"ServiceToken": body["ResourceProperties"]["ServiceToken"]}
    body.pop("PhysicalResourceId", None)
    if physical is not None:
        body["PhysicalResourceId"] = physical
    return body


def test_the_webhook_path_is_made_at_create_and_kept_by_every_update(
    fake_telegram: FakeTelegram, responses: Responses, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_secrets(arn: str) -> str:
        raise AssertionError("the path needs no secret")

    monkeypatch.setattr(webhook_setup, "read_secret", no_secrets)
    made = []
    for _ in range(2):
        webhook_setup.handler(path_event("Create", responses), Context())
        made.append(responses.received.pop()[1])
    segments = [answer["Data"]["Segment"] for answer in made]
    assert all(answer["Status"] == "SUCCESS" for answer in made), made
    assert segments[0] != segments[1]  # made anew for each stack, by chance
    for answer, segment in zip(made, segments, strict=True):
        assert len(segment) == 32 and segment.isascii() and segment.isalnum(), segment
        assert answer["PhysicalResourceId"] == f"webhook-path:{segment}"
        assert segment not in answer["Reason"]

    kept = made[0]["PhysicalResourceId"]
    webhook_setup.handler(path_event("Update", responses, kept), Context())
    again = responses.received.pop()[1]
    assert again["Status"] == "SUCCESS"
    assert (again["PhysicalResourceId"], again["Data"]) == (kept, {"Segment": segments[0]})
    webhook_setup.handler(path_event("Delete", responses, kept), Context())
    assert responses.only()["Status"] == "SUCCESS"
    assert fake_telegram.calls == []
