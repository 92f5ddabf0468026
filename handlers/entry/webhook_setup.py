"""CloudFormation custom resources: the bot's account, the webhook's path, and its Telegram
webhook.

Custom::TelegramBot, Create/Update: getMe, whose username the functions get as BOT_USERNAME
(so that no cold start asks Telegram who the bot is); Delete: nothing to undo. Its physical id
keeps the bot's id and username, and the previous bot's, so that an Update that asks Telegram
nothing, or a rollback while Telegram is down, still answers them.

Custom::WebhookPath, Create: a random path segment (32 letters and digits) for the webhook's
route, so that API Gateway answers any other path 404 without running the function; it is kept
in the physical id, and an Update answers it again. Delete: nothing to undo.

Custom::TelegramWebhook, Create/Update: getMe (checks the token), setWebhook (the API's URL,
the generated secret_token, only the update kinds the bot handles) and setMyCommands (English by
default and Chinese for "zh" users, in the default and all-group-chats scopes). Delete:
deleteWebhook.

Telegram is asked only when what it holds changes (an Update whose bot, URL, secret, connection
limit and offer are the same answers at once), and it can never leave a stack stuck: a Delete,
or an Update while the stack rolls back, succeeds even when Telegram cannot be told (the Reason
says so), since CloudFormation cannot roll back a failed rollback. Every SUCCESS carries the
attributes the template reads (`ATTRIBUTES`).

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
import string
import time
import traceback
import urllib.error
import urllib.request
from collections.abc import Callable
from secrets import choice as choose_securely
from typing import Any

from handlers.telegram.texts import ALLOWED_UPDATES, COMMANDS

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)

DEFAULT_API_BASE_URL = "https://api.telegram.org"  # TELEGRAM_API_BASE_URL overrides it
DEFAULT_MAX_CONNECTIONS = 40
PHYSICAL_RESOURCE_ID = "telegram-webhook"
BOT_RESOURCE_TYPE, BOT_RESOURCE_ID = "Custom::TelegramBot", "telegram-bot"
PATH_RESOURCE_TYPE, PATH_RESOURCE_ID = "Custom::WebhookPath", "webhook-path"
SEGMENT_LENGTH = 32  # letters and digits: 190 bits
SEGMENT_ALPHABET = string.ascii_letters + string.digits
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
# What every SUCCESS of each resource carries in its Data (what the template may read).
ATTRIBUTES = {
    BOT_RESOURCE_TYPE: ("BotId", "BotUsername"),
    PATH_RESOURCE_TYPE: ("Segment",),
    "Custom::TelegramWebhook": (),
}


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


def bot_physical_id(bot_id: str, username: str, before: dict[str, str] | None = None) -> str:
    """The bot resource's id: `telegram-bot:<id>:<username>`, then the bot it replaced (an
    Update's old BotId, when another), so that a rollback can answer it without Telegram."""
    fields = [BOT_RESOURCE_ID, bot_id, username]
    for old_id, old_name in (before or {}).items():
        if old_id and old_id != bot_id and old_name:
            fields += [old_id, old_name]
            break
    return ":".join(fields)


def known_bots(physical_id: str) -> dict[str, str]:
    """Bot id -> username, as a bot resource's physical id keeps them (the current bot first;
    an id made before ids were kept, `telegram-bot:<username>`, gives the id "")."""
    prefix, _, rest = physical_id.partition(":")
    if prefix != BOT_RESOURCE_ID or not rest:
        return {}
    fields = rest.split(":")
    if len(fields) == 1:
        return {"": fields[0]}
    return dict(zip(fields[0::2], fields[1::2], strict=False))


def bot_data(event: dict[str, Any]) -> dict[str, str]:
    """The bot's id and username for the request's BotId, from the physical id alone ({} when
    it does not know that bot)."""
    bot_id = str((event.get("ResourceProperties") or {}).get("BotId") or "")
    known = known_bots(str(event.get("PhysicalResourceId") or ""))
    username = known.get(bot_id) or known.get("", "")
    return {"BotId": bot_id, "BotUsername": username} if bot_id and username else {}


def bot_answered(event: dict[str, Any], data: dict[str, str]) -> dict[str, Any]:
    """The request, with the physical id that keeps the bot Telegram named and the one before."""
    old = str((event.get("OldResourceProperties") or {}).get("BotId") or "")
    known = known_bots(str(event.get("PhysicalResourceId") or ""))
    before = {old: known.get(old) or known.get("", "")} if old else {}
    physical = bot_physical_id(data["BotId"], data["BotUsername"], before)
    return {**event, "PhysicalResourceId": physical}


def new_segment() -> str:
    """A path segment nobody can guess."""
    return "".join(choose_securely(SEGMENT_ALPHABET) for _ in range(SEGMENT_LENGTH))


def webhook_path(event: dict[str, Any]) -> tuple[dict[str, Any], str, dict[str, str]]:
    """The webhook path's request with its physical id, the Reason and the Data: the segment
    made at Create, the same one at every Update."""
    prefix, _, segment = str(event.get("PhysicalResourceId") or "").partition(":")
    kept = prefix == PATH_RESOURCE_ID and len(segment) == SEGMENT_LENGTH
    if not kept:
        segment = new_segment()
    event = {**event, "PhysicalResourceId": f"{PATH_RESOURCE_ID}:{segment}"}
    reason = "the webhook's path is kept" if kept else "a path was made for the webhook"
    return event, reason, {"Segment": segment}


def path_secret(url: str) -> str:
    """The segment after /webhook/ in a webhook URL (kept out of every Reason), or ""."""
    head, _, segment = url.rstrip("/").rpartition("/webhook/")
    return segment if head else ""


def handler(event: dict[str, Any], context: Any = None) -> dict[str, str]:
    """Lambda entry for the custom resources; answers CloudFormation, returns what it said."""
    request_type = event.get("RequestType")
    properties = event.get("ResourceProperties") or {}
    deadline = time.monotonic() + max(1.0, _remaining_seconds(context) - RESPONSE_RESERVE)
    secrets: list[str] = []
    status, reason, data = SUCCESS, "", {}
    kind = event.get("ResourceType")
    bot_only = kind == BOT_RESOURCE_TYPE
    if bot_only and not event.get("PhysicalResourceId"):
        event = {**event, "PhysicalResourceId": BOT_RESOURCE_ID}
    if kind in (BOT_RESOURCE_TYPE, PATH_RESOURCE_TYPE) and request_type == "Delete":
        return _answer(event, SUCCESS, "nothing to undo", {}, deadline, secrets)
    if kind == PATH_RESOURCE_TYPE:
        event, reason, data = webhook_path(event)
        secrets.append(data["Segment"])
        return _answer(event, SUCCESS, reason, data, deadline, secrets)
    try:
        fields = BOT_FIELDS if bot_only else WEBHOOK_FIELDS
        if request_type == "Update" and telegram_unchanged(event, fields):
            reason = "nothing Telegram holds has changed"
            if not bot_only:
                data = {"WebhookUrl": str(properties.get("WebhookUrl") or "")}
            else:
                data = bot_data(event)
            if data:
                return _answer(event, status, reason, data, deadline, secrets)
        token = read_secret(_property(properties, "TokenSecretArn"))
        secrets.append(token)
        api = BotApi(token, deadline)
        if bot_only and request_type in ("Create", "Update"):
            data = identify(api)
            event = bot_answered(event, data)
            reason = f"the bot is @{data['BotUsername']}"
        elif request_type in ("Create", "Update"):
            url = _property(properties, "WebhookUrl")
            secrets.append(path_secret(url))
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
        data = bot_data(event) if bot_only else {}
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
