"""AWS Lambda entries: the Telegram webhook (behind API Gateway) and the timer (SQS).

The Application and its event loop are built once per process and reused by warm invocations.
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import json
import logging
import os
import time
from typing import Any

from infra.timers import SqsTimers, parse_wake

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)

_state: dict[str, Any] = {}
# What a test may fix before the Application is built: "clock" (epoch seconds), "seed" (deals).
_hooks: dict[str, Any] = {}


def _loop() -> asyncio.AbstractEventLoop:
    loop = _state.get("loop")
    if loop is None or loop.is_closed():
        loop = asyncio.new_event_loop()
        _state["loop"] = loop
    return loop


def bot_token(env: dict | os._Environ = os.environ) -> str:
    """The bot token: from Secrets Manager when deployed, else from the environment."""
    if "token" in _state:
        return _state["token"]
    arn = env.get("TELEGRAM_TOKEN_SECRET_ARN")
    if arn:
        import boto3

        token = boto3.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"]
    else:
        token = env.get("TELEGRAM_BOT_TOKEN", "")
    _state["token"] = token.strip()
    return _state["token"]


def webhook_secret(env: dict | os._Environ = os.environ) -> str:
    """Telegram's secret_token for the webhook: from Secrets Manager (WEBHOOK_SECRET_ARN,
    read once per process) when deployed, else WEBHOOK_SECRET from the environment."""
    arn = env.get("WEBHOOK_SECRET_ARN")
    if not arn:
        return env.get("WEBHOOK_SECRET", "")
    cached = _state.get("webhook_secret")
    if cached is None or cached[0] != arn:
        import boto3

        secret = boto3.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"]
        cached = _state["webhook_secret"] = (arn, secret.strip())
    return cached[1]


def application():
    """The process's Application (webhook mode, DynamoDB store, SQS timers), initialized once."""
    app = _state.get("app")
    if app is not None:
        return app
    from handlers import render
    from handlers.app import build
    from infra.dynamo_store import DynamoStore

    env = os.environ
    clock = _hooks.get("clock") or time.time
    store = DynamoStore(env["DECAPITATION_TABLE"], clock=clock)
    queue = env.get("TIMER_QUEUE_URL")
    timers = SqsTimers(queue, clock=clock) if queue else None
    app = build(
        bot_token(env),
        store,
        base_url=env.get("TELEGRAM_API_BASE_URL") or None,
        polling=False,
        wake_at=timers,
        clock=clock,
        seed=_hooks.get("seed"),
    )
    _loop().run_until_complete(app.initialize())
    render.BOT_USERNAME["name"] = env.get("BOT_USERNAME") or app.bot.username
    _state["app"] = app
    return app


def reset(*, clock=None, seed=None) -> None:
    """Forget the process's Application, loop and token, as a cold start would (for tests).

    `clock` and `seed` fix the time and the deal of the Application built next.
    """
    app, loop = _state.get("app"), _state.get("loop")
    if app is not None and loop is not None and not loop.is_closed():
        loop.run_until_complete(app.shutdown())
    if loop is not None and not loop.is_closed():
        loop.close()
    _state.clear()
    _hooks.clear()
    _hooks.update({k: v for k, v in (("clock", clock), ("seed", seed)) if v is not None})


def _answer(status: int, text: str = "") -> dict:
    return {"statusCode": status, "headers": {"content-type": "text/plain"}, "body": text}


def webhook(event: dict, context: Any = None) -> dict:
    """API Gateway (HTTP API v2) -> one Telegram update through the handlers."""
    from telegram import Update

    headers = {str(k).lower(): v for k, v in (event.get("headers") or {}).items()}
    secret = webhook_secret()
    given = headers.get("x-telegram-bot-api-secret-token", "")
    if not secret or not hmac.compare_digest(str(given).encode(), secret.encode()):
        return _answer(403, "forbidden")
    body = event.get("body") or ""
    try:
        if event.get("isBase64Encoded"):
            body = base64.b64decode(body).decode()
        data = json.loads(body)
        if not isinstance(data, dict) or type(data.get("update_id")) is not int:
            raise ValueError("not an update")
    except (ValueError, UnicodeDecodeError):
        return _answer(400, "bad update")
    app = application()
    try:
        update = Update.de_json(data, app.bot)
    except Exception:  # a body Telegram would never send; refusing it is the answer
        return _answer(400, "bad update")
    _loop().run_until_complete(app.process_update(update))
    return _answer(200, "ok")


def timer(event: dict, context: Any = None) -> dict:
    """SQS -> wake the tables whose deadlines have come."""
    from handlers.app import Wake

    app = application()
    for record in event.get("Records", []):
        wake = parse_wake(record.get("body", ""))
        if wake is None:
            log.warning("ignored a malformed timer message")
            continue
        _loop().run_until_complete(app.process_update(Wake(*wake)))
    return {"batchItemFailures": []}
