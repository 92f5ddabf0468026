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
The Bot API calls are in `setup_telegram`, the answers to CloudFormation in
`setup_cloudformation`. Standard library only (Secrets Manager through the project's own
client, `infra.aws`), but for the stack's status, read with the boto3 of Lambda's runtime.
"""

from __future__ import annotations

import logging
import string
import time
from secrets import choice as choose_securely
from typing import Any

from handlers.entry.setup_cloudformation import (
    FAILED,
    RESPONSE_RESERVE,
    SUCCESS,
    answer,
    format_tb,
    may_fail,
)
from handlers.entry.setup_telegram import (
    BotApi,
    SetupError,
    identify,
    register,
)

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)

DEFAULT_MAX_CONNECTIONS = 40
BOT_RESOURCE_TYPE, BOT_RESOURCE_ID = "Custom::TelegramBot", "telegram-bot"
PATH_RESOURCE_TYPE, PATH_RESOURCE_ID = "Custom::WebhookPath", "webhook-path"
SEGMENT_LENGTH = 32  # letters and digits: 190 bits
SEGMENT_ALPHABET = string.ascii_letters + string.digits


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


def read_secret(arn: str) -> str:
    """The string value of a Secrets Manager secret."""
    from infra import aws

    return aws.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"].strip()


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


def telegram_unchanged(event: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """True for an Update that changes nothing Telegram holds."""
    old = event.get("OldResourceProperties") or {}
    new = event.get("ResourceProperties") or {}
    return all(str(old.get(name)) == str(new.get(name)) for name in fields)


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
        return answer(event, SUCCESS, "nothing to undo", {}, deadline, secrets)
    if kind == PATH_RESOURCE_TYPE:
        event, reason, data = webhook_path(event)
        secrets.append(data["Segment"])
        return answer(event, SUCCESS, reason, data, deadline, secrets)
    try:
        fields = BOT_FIELDS if bot_only else WEBHOOK_FIELDS
        if request_type == "Update" and telegram_unchanged(event, fields):
            reason = "nothing Telegram holds has changed"
            if not bot_only:
                data = {"WebhookUrl": str(properties.get("WebhookUrl") or "")}
            else:
                data = bot_data(event)
            if data:
                return answer(event, status, reason, data, deadline, secrets)
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
    return answer(event, status, reason, data, deadline, secrets)
