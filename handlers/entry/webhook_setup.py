"""CloudFormation custom resources: the bot's account, and its Telegram webhook.

Custom::TelegramBot, Create/Update: getMe, whose username the functions get as BOT_USERNAME
(so that no cold start asks Telegram who the bot is); Delete: nothing to undo.

Custom::TelegramWebhook, Create/Update: getMe (checks the token), setWebhook (the API's URL,
the generated secret_token, only the update kinds the bot handles) and setMyCommands (English by
default and Chinese for "zh" users, in the default and all-group-chats scopes). Delete:
deleteWebhook.

Telegram is asked only when what it holds changes (an Update whose bot, URL, secret, connection
limit and offer are the same answers at once), and it can never leave a stack stuck: a Delete,
or an Update while the stack rolls back, succeeds even when Telegram cannot be told (the Reason
says so), since CloudFormation cannot roll back a failed rollback.

Every invocation answers CloudFormation's pre-signed ResponseURL with SUCCESS or FAILED and a
readable Reason, within the function's time limit. The bot token and the webhook secret come
from Secrets Manager (ARNs in the resource properties) and never appear in a Reason or a log.
Standard library only (Secrets Manager through the project's own client, `infra.aws`), but for
the stack's status, read with the boto3 of Lambda's runtime.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import traceback
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from handlers.telegram.texts import ALLOWED_UPDATES, COMMANDS

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)

DEFAULT_API_BASE_URL = "https://api.telegram.org"  # TELEGRAM_API_BASE_URL overrides it
DEFAULT_MAX_CONNECTIONS = 40
PHYSICAL_RESOURCE_ID = "telegram-webhook"
BOT_RESOURCE_TYPE, BOT_RESOURCE_ID = "Custom::TelegramBot", "telegram-bot"
SUCCESS, FAILED = "SUCCESS", "FAILED"

CALL_TIMEOUT = 10.0  # seconds for one Bot API call
RESPONSE_RESERVE = 10.0  # seconds of the invocation kept for answering CloudFormation
REASON_LIMIT = 1000

DEFAULT_LANGUAGE = "en"
# The properties whose change Telegram must hear of, for each resource.
WEBHOOK_FIELDS = (
    "BotId",
    "TokenSecretArn",
    "WebhookUrl",
    "WebhookSecretArn",
    "MaxConnections",
    "Offer",
)
BOT_FIELDS = ("BotId", "TokenSecretArn")


class SetupError(Exception):
    """A failure with a reason fit for CloudFormation's console."""


def read_secret(arn: str) -> str:
    """The string value of a Secrets Manager secret."""
    from infra import aws

    return aws.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"].strip()


class BotApi:
    """A minimal Bot API client: JSON POSTs with a deadline, errors as SetupError."""

    def __init__(
        self,
        token: str,
        deadline: float,
        *,
        base_url: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.token = token
        self.deadline = deadline
        base_url = base_url or os.environ.get("TELEGRAM_API_BASE_URL") or DEFAULT_API_BASE_URL
        self.base_url = base_url.rstrip("/")
        self.clock = clock

    def call(self, method: str, params: dict[str, Any]) -> Any:
        """The `result` of a Bot API call; one retry after a 429 if time allows."""
        for attempt in range(2):
            status, answer = self._post(method, params)
            if status == 200 and answer.get("ok"):
                return answer.get("result")
            if status == 401:
                raise SetupError("Telegram refused the bot token (401)")
            retry_after = (answer.get("parameters") or {}).get("retry_after")
            time_left = self.deadline - self.clock()
            if (
                status == 429
                and attempt == 0
                and isinstance(retry_after, int)
                and (retry_after + 1 < time_left)
            ):
                time.sleep(retry_after)
                continue
            description = answer.get("description") or "no description"
            raise SetupError(f"Telegram {method} failed ({status}): {description}")
        raise AssertionError("unreachable")

    def _post(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        timeout = min(CALL_TIMEOUT, self.deadline - self.clock())
        if timeout <= 0:
            raise SetupError(f"no time left to call Telegram {method}")
        request = urllib.request.Request(
            f"{self.base_url}/bot{self.token}/{method}",
            data=json.dumps(params).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        except TimeoutError:
            raise SetupError(f"Telegram did not answer {method} within {timeout:.0f} s") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError):
                raise SetupError(
                    f"Telegram did not answer {method} within {timeout:.0f} s"
                ) from None
            raise SetupError(f"could not reach Telegram for {method}: {reason}") from None
        try:
            answer = json.loads(body)
        except ValueError:
            answer = {}
        return status, answer if isinstance(answer, dict) else {}


def command_calls() -> list[dict[str, Any]]:
    """The setMyCommands parameters: each language, default scope then all group chats."""
    calls = []
    for language, commands in COMMANDS.items():
        listed = [{"command": name, "description": text} for name, text in commands]
        code = {} if language == DEFAULT_LANGUAGE else {"language_code": language}
        calls.append({"commands": listed, **code})
        calls.append({"commands": listed, "scope": {"type": "all_group_chats"}, **code})
    return calls


def identify(api: BotApi) -> dict[str, str]:
    """The bot's account as Telegram reports it (getMe); the Data CloudFormation gets back."""
    me = api.call("getMe", {}) or {}
    username = str(me.get("username") or "")
    if not username:
        raise SetupError("Telegram's getMe gave no username for the bot")
    return {"BotUsername": username, "BotId": str(me.get("id", ""))}


def register(api: BotApi, url: str, secret_token: str, max_connections: int) -> dict[str, str]:
    """Set the webhook and the command lists; the Data CloudFormation gets back."""
    if not url.startswith("https://"):
        raise SetupError(f"the webhook URL must start with https://, not {url!r}")
    me = api.call("getMe", {})
    api.call(
        "setWebhook",
        {
            "url": url,
            "secret_token": secret_token,
            "allowed_updates": ALLOWED_UPDATES,
            "max_connections": max_connections,
            "drop_pending_updates": False,
        },
    )
    for params in command_calls():
        api.call("setMyCommands", params)
    return {"BotUsername": str((me or {}).get("username", "")), "WebhookUrl": url}


def _property(properties: dict[str, Any], name: str) -> str:
    value = properties.get(name)
    if not isinstance(value, str) or not value:
        raise SetupError(f"the custom resource lacks the property {name}")
    return value


def _max_connections(properties: dict[str, Any]) -> int:
    raw = properties.get("MaxConnections", DEFAULT_MAX_CONNECTIONS)
    try:
        value = int(raw)  # CloudFormation passes numbers as strings
    except (TypeError, ValueError):
        raise SetupError(f"MaxConnections must be a whole number, not {raw!r}") from None
    if not 1 <= value <= 100:
        raise SetupError(f"MaxConnections must be between 1 and 100, not {value}")
    return value


def _remaining_seconds(context: Any) -> float:
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    return remaining() / 1000 if callable(remaining) else 60.0


def format_tb(error: BaseException) -> list[str]:
    """The traceback's frames (file, line, code) without the exception's message."""
    return traceback.format_tb(error.__traceback__)


def _scrub(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text[:REASON_LIMIT]


def offer_fingerprint() -> str:
    """A digest of what the bot offers Telegram (its commands, the update kinds it asks for):
    serverless.yml passes it as the webhook's `Offer`, so that changing either registers again."""
    offer = {"commands": COMMANDS, "allowed_updates": ALLOWED_UPDATES}
    text = json.dumps(offer, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def telegram_unchanged(event: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """True for an Update that changes nothing Telegram holds."""
    old = event.get("OldResourceProperties") or {}
    new = event.get("ResourceProperties") or {}
    return all(str(old.get(name)) == str(new.get(name)) for name in fields)


def stack_status(stack_id: str) -> str | None:
    """The stack's status (UPDATE_ROLLBACK_IN_PROGRESS ...), or None when it cannot be read."""
    try:
        import boto3  # in Lambda's runtime; only a deploy waits for it

        stacks = boto3.client("cloudformation").describe_stacks(StackName=stack_id)["Stacks"]
        return str(stacks[0]["StackStatus"])
    except Exception as error:
        log.warning("the stack's status could not be read: %s", type(error).__name__)
        return None


def may_fail(event: dict[str, Any]) -> bool:
    """Whether Telegram's failure may fail this request: never for a Delete, nor for an Update
    while the stack rolls back (or when that cannot be told)."""
    if event.get("RequestType") == "Create":
        return True
    if event.get("RequestType") != "Update":
        return False
    status = stack_status(str(event.get("StackId") or ""))
    return status is not None and "ROLLBACK" not in status


def bot_physical_id(username: str) -> str:
    """The bot resource's id, which keeps the username for Updates that ask Telegram nothing."""
    return f"{BOT_RESOURCE_ID}:{username}"


def handler(event: dict[str, Any], context: Any = None) -> dict[str, str]:
    """Lambda entry for the custom resource; answers CloudFormation, returns what it said."""
    request_type = event.get("RequestType")
    properties = event.get("ResourceProperties") or {}
    deadline = time.monotonic() + max(1.0, _remaining_seconds(context) - RESPONSE_RESERVE)
    secrets: list[str] = []
    status, reason, data = SUCCESS, "", {}
    bot_only = event.get("ResourceType") == BOT_RESOURCE_TYPE
    if bot_only and not event.get("PhysicalResourceId"):
        event = {**event, "PhysicalResourceId": BOT_RESOURCE_ID}
    try:
        if bot_only and request_type == "Delete":
            return _answer(event, SUCCESS, "nothing to undo", {}, deadline, secrets)
        fields = BOT_FIELDS if bot_only else WEBHOOK_FIELDS
        if request_type == "Update" and telegram_unchanged(event, fields):
            status, reason, data = SUCCESS, "nothing Telegram holds has changed", {}
            username = str(event.get("PhysicalResourceId") or "").partition(":")[2]
            if not bot_only:
                data = {"WebhookUrl": str(properties.get("WebhookUrl") or "")}
            elif username:
                data = {"BotUsername": username}
            if data:
                return _answer(event, status, reason, data, deadline, secrets)
        token = read_secret(_property(properties, "TokenSecretArn"))
        secrets.append(token)
        api = BotApi(token, deadline)
        if bot_only and request_type in ("Create", "Update"):
            data = identify(api)
            event = {**event, "PhysicalResourceId": bot_physical_id(data["BotUsername"])}
            reason = f"the bot is @{data['BotUsername']}"
        elif request_type in ("Create", "Update"):
            url = _property(properties, "WebhookUrl")
            secret_token = read_secret(_property(properties, "WebhookSecretArn"))
            secrets.append(secret_token)
            data = register(api, url, secret_token, _max_connections(properties))
            reason = f"webhook of @{data['BotUsername']} set to {url}"
        elif request_type == "Delete":
            api.call("deleteWebhook", {"drop_pending_updates": False})
            reason = "webhook deleted"
        else:
            raise SetupError(f"unknown RequestType {request_type!r}")
    except SetupError as error:
        status, reason = FAILED, str(error)
    except Exception as error:  # a Reason beats a custom resource stuck until its timeout
        # Where it failed, without the message (which could quote a secret; the Reason is
        # logged below with the secrets masked).
        log.error("unexpected %s at\n%s", type(error).__name__, "".join(format_tb(error)))
        status, reason = FAILED, f"{type(error).__name__}: {error}"
    if status == FAILED and request_type in ("Update", "Delete") and not may_fail(event):
        status, reason = SUCCESS, f"Telegram left as it was ({reason})"
    return _answer(event, status, reason, data, deadline, secrets)


def _answer(
    event: dict[str, Any],
    status: str,
    reason: str,
    data: dict[str, str],
    deadline: float,
    secrets: list[str],
) -> dict[str, str]:
    """Log and send CloudFormation the outcome, with the secrets masked."""
    reason = _scrub(reason, secrets)
    log.info("%s %s: %s", event.get("RequestType"), status, reason)
    send_response(event, status, reason, data, until=deadline + RESPONSE_RESERVE - 1)
    return {"Status": status, "Reason": reason}


def send_response(
    event: dict[str, Any],
    status: str,
    reason: str,
    data: dict[str, str] | None = None,
    *,
    until: float | None = None,
) -> bool:
    """PUT the result to the pre-signed ResponseURL (up to three tries, until `until` on the
    monotonic clock); True once it was taken."""
    body = json.dumps(
        {
            "Status": status,
            "Reason": reason,
            "PhysicalResourceId": event.get("PhysicalResourceId") or PHYSICAL_RESOURCE_ID,
            "StackId": event.get("StackId", ""),
            "RequestId": event.get("RequestId", ""),
            "LogicalResourceId": event.get("LogicalResourceId", ""),
            "NoEcho": False,
            "Data": data or {},
        }
    ).encode()
    url = event.get("ResponseURL")
    if not url:
        log.error("no ResponseURL in the event; CloudFormation cannot be answered")
        return False
    until = time.monotonic() + 3 * CALL_TIMEOUT if until is None else until
    for attempt in range(3):
        timeout = min(CALL_TIMEOUT, until - time.monotonic())
        if timeout <= 0:
            break
        request = urllib.request.Request(
            url,
            data=body,
            method="PUT",
            headers={"Content-Type": "", "Content-Length": str(len(body))},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                response.read()
            return True
        except (urllib.error.URLError, OSError) as error:
            log.warning("answering CloudFormation failed (try %d): %s", attempt + 1, error)
            time.sleep(min(0.5 * (attempt + 1), max(0.0, until - time.monotonic())))
    log.error("CloudFormation was not answered; it will time the resource out")
    return False
