"""AWS Lambda entries: the Telegram webhook (behind API Gateway) and the timer (SQS).

The Application and its event loop are built once per process and reused by warm invocations.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hmac
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

from infra import redact
from infra.timers import SqsTimers, parse_wake

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)
T = TypeVar("T")

_state: dict[str, Any] = {}
# What a test may fix before the Application is built: "clock" (epoch seconds), "seed" (deals).
_hooks: dict[str, Any] = {}


def _loop() -> asyncio.AbstractEventLoop:
    loop = _state.get("loop")
    if loop is None or loop.is_closed():
        loop = asyncio.new_event_loop()
        _state["loop"] = loop
    return loop


def clock() -> float:
    """The time as the process's Application reads it (a test may fix it: see `reset`)."""
    return (_hooks.get("clock") or time.time)()


def read_secret(arn: str) -> str:
    """The text of the Secrets Manager secret `arn`."""
    from infra import aws

    return aws.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"]


def bot_token(env: dict | os._Environ = os.environ) -> str:
    """The bot token: from Secrets Manager when deployed, else from the environment."""
    if "token" in _state:
        return _state["token"]
    arn = env.get("TELEGRAM_TOKEN_SECRET_ARN")
    if arn:
        reading = _state.pop("token_read", None)
        token = reading[1].result() if reading and reading[0] == arn else read_secret(arn)
    else:
        token = env.get("TELEGRAM_BOT_TOKEN", "")
    _state["token"] = token.strip()
    return _state["token"]


def read_token_aside(env: dict | os._Environ = os.environ) -> None:
    """Begin reading the bot token from Secrets Manager on a thread, so that a cold start's
    call overlaps its imports (`bot_token` takes the answer, or the error)."""
    arn = env.get("TELEGRAM_TOKEN_SECRET_ARN")
    if not arn or "token" in _state or "token_read" in _state:
        return
    from infra import aws  # noqa: F401 - imported here, not raced by the thread's import

    answer: Future[str] = Future()

    def read() -> None:
        try:
            answer.set_result(read_secret(arn))
        except BaseException as error:  # handed to bot_token, which raises it
            answer.set_exception(error)

    _state["token_read"] = (arn, answer)
    threading.Thread(target=read, name="bot-token", daemon=True).start()


def webhook_secret(env: dict | os._Environ = os.environ) -> str:
    """Telegram's secret_token for the webhook: from Secrets Manager (WEBHOOK_SECRET_ARN,
    read once per process) when deployed, else WEBHOOK_SECRET from the environment."""
    arn = env.get("WEBHOOK_SECRET_ARN")
    if not arn:
        return env.get("WEBHOOK_SECRET", "")
    cached = _state.get("webhook_secret")
    if cached is None or cached[0] != arn:
        secret = read_secret(arn)
        cached = _state["webhook_secret"] = (arn, secret.strip())
    return cached[1]


def timers(env: dict | os._Environ, clock: Callable[[], float]) -> SqsTimers | None:
    """The stack's timer queue (TIMER_QUEUE_URL), or None without one."""
    queue = env.get("TIMER_QUEUE_URL")
    return SqsTimers(queue, clock=clock) if queue else None


def application():
    """The process's Application (webhook mode, DynamoDB store, SQS timers), initialized once.

    With BOT_USERNAME set, it starts without asking Telegram who the bot is (getMe).
    """
    app = _state.get("app")
    if app is not None:
        return app
    read_token_aside()
    from handlers.display.render import table_links
    from handlers.storage.keeper import Keeper
    from handlers.telegram.app import build
    from handlers.telegram.context import Runtime
    from infra.read_cache import ReadCache

    env = os.environ
    redact.quiet_libraries()
    clock = _hooks.get("clock") or time.time  # read once: the store and the rest call it as is
    store = ReadCache(storage(env, clock))
    runtime = Runtime(
        Keeper(store, timers(env, clock), clock, aside=True),
        clock,
        _hooks.get("seed") or (lambda: None),
        username=(env.get("BOT_USERNAME") or "").strip().lstrip("@"),
    )
    app = build(
        bot_token(env),
        runtime,
        base_url=env.get("TELEGRAM_API_BASE_URL") or None,
        polling=False,
    )
    _loop().run_until_complete(app.initialize())
    runtime.username = runtime.username or app.bot.username
    table_links.configure(env.get("TABLE_URL"), env.get("TABLE_APP"), runtime.username)
    _state["app"] = app
    return app


def storage(env: dict | os._Environ = os.environ, now: Callable[[], float] = clock):
    """The stack's DynamoDB table as the process's functions use it, on the process's clock
    (`now`; the webhook wraps it in a cache of one update's reads; the table's polls read it as
    is)."""
    from infra.dynamo_store import DynamoStore

    return DynamoStore(env["DECAPITATION_TABLE"], clock=now)


def runtime_of(app):
    """The bot's runtime, as the entry built it (see `handlers.telegram.context.Runtime`)."""
    return app.bot_data["runtime"]


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


MAX_BODY = 256 * 1024  # bytes; a Telegram update is a few kilobytes
MAX_FAILURES = 3  # failed deliveries of one update before it is answered 200 and logged
GIVEN_UP = "given_up"  # the field of that log line, which the stack's metric filter counts


def _handle(app, update: Any) -> list[BaseException]:
    """Run one update through the handlers; the errors they raised (see `app.failed`)."""
    runtime = runtime_of(app)
    failed = runtime.failed = []
    run_update(app, app.process_update(update))
    return failed


def run_update(app, work: Coroutine[Any, Any, T]) -> T:
    """Run one update's `work` (an update, a table's move) to its end on the process's event
    loop, its reads of the store cached for it alone."""
    store = runtime_of(app).keeper.store
    with store.scope() if hasattr(store, "scope") else contextlib.nullcontext():
        return _loop().run_until_complete(work)


def chat_of(data: dict) -> int | None:
    """The chat an update's JSON names (for the logs), or None."""
    query = data.get("callback_query")
    holder = query.get("message") if isinstance(query, dict) else None
    for kind in ("message", "edited_message", "my_chat_member"):
        if holder is None and isinstance(data.get(kind), dict):
            holder = data[kind]
    chat = holder.get("chat") if isinstance(holder, dict) else None
    chat_id = chat.get("id") if isinstance(chat, dict) else None
    return chat_id if type(chat_id) is int else None


def reported(entry: Callable[..., dict]) -> Callable[..., dict]:
    """An entry whose failure (its Application that cannot start, a store that fails) is logged
    and leaves without the hidden strings: Lambda's runtime prints the exception that escapes
    a handler (`errorMessage`) past every logging filter."""

    @functools.wraps(entry)
    def run(event: dict, context: Any = None) -> dict:
        try:
            return entry(event, context)
        except Exception as error:
            clean = redact.scrub_error(error)
            log.exception("the %s entry failed: %s", entry.__name__, type(error).__name__)
            if clean is error:
                raise
            raise clean from None

    return run


def secret_given(headers: dict[str, Any]) -> bool:
    """Whether the call carries the webhook's secret token (Secrets Manager is read only for
    a call that carries one)."""
    given = str(headers.get("x-telegram-bot-api-secret-token") or "")
    if not given:
        return False
    secret = webhook_secret()
    redact.hide(secret)
    return bool(secret) and hmac.compare_digest(given.encode(), secret.encode())


@reported
def webhook(event: dict, context: Any = None) -> dict:
    """API Gateway (HTTP API v2) -> one Telegram update through the handlers.

    403 without the secret, before anything is read or python-telegram-bot imported. Past it,
    Telegram gets 200 for anything the bot will never be able to handle (a body that is no
    update: logged), since it holds a chat's later updates behind one it must deliver again.
    500 when a handler failed: Telegram delivers the update again, which is safe, as every
    change is keyed by its update; from its `MAX_FAILURES`th failure on, it is answered 200 and
    logged at ERROR (with the field `given_up`, which the stack's alarm counts) instead, so
    that one bad update holds its group back for a minute at most.
    """
    headers = {str(k).lower(): v for k, v in (event.get("headers") or {}).items()}
    if not secret_given(headers):
        return _answer(403, "forbidden")
    if "app" not in _state:
        read_token_aside()  # while python-telegram-bot and the handlers import
    from telegram import Update

    from infra import logcontext

    data = update_data(event)
    if data is None:
        log.warning("ignored a body that is no update")
        return _answer(200, "not an update")
    app = application()
    logcontext.install()
    with logcontext.about(update_id=data["update_id"], chat_id=chat_of(data)):
        try:
            update = Update.de_json(data, app.bot)
        except Exception:  # a body Telegram would never send
            log.warning("ignored an update that python-telegram-bot cannot read")
            return _answer(200, "not an update")
        if not _handle(app, update):
            return _answer(200, "ok")
        return _answer(*given_up(app, data["update_id"]))


def update_data(event: dict) -> dict | None:
    """The update an API Gateway event carries, or None when its body is no update."""
    body = event.get("body") or ""
    if not isinstance(body, str) or len(body) > MAX_BODY * 4 // 3 + 4:
        return None
    try:
        if event.get("isBase64Encoded"):
            body = base64.b64decode(body).decode()
        if len(body.encode()) > MAX_BODY:
            return None
        data = json.loads(body)
    except (ValueError, UnicodeError, RecursionError):
        return None
    if not isinstance(data, dict) or type(data.get("update_id")) is not int:
        return None
    return data


def given_up(app, update_id: int) -> tuple[int, str]:
    """The answer to an update whose handling failed: 500 (deliver it again) until it has
    failed `MAX_FAILURES` times, then 200, so that the group's next updates come through."""
    try:
        failures = runtime_of(app).keeper.count_failure(update_id)
    except Exception as error:  # the store itself failing: a later delivery may find it back
        log.warning("could not count a failed update: %s", type(error).__name__)
        return 500, "failed"
    if failures < MAX_FAILURES:
        return 500, "failed"
    log.error(
        "update failed %d times: given up, so the chat's next updates come",
        failures,
        extra={GIVEN_UP: True},
    )
    return 200, "given up"


@reported
def timer(event: dict, context: Any = None) -> dict:
    """SQS -> wake the tables whose deadlines have come: a group once a batch, however many of
    its timers the batch carries (its table read once).

    A wake-up whose handling failed is reported back, so SQS delivers it again.
    """
    from handlers.telegram.group import Wake
    from infra import logcontext

    app = application()
    logcontext.install()
    failures = []
    timers: dict[int, dict[float, list[str]]] = {}  # by group: the message ids, by deadline
    for record in event.get("Records", []):
        wake = parse_wake(record.get("body", ""))
        if wake is None:
            log.warning("ignored a malformed timer message")
            continue
        chat, due = wake
        timers.setdefault(chat, {}).setdefault(due, []).append(record.get("messageId", ""))
    for chat, dues in timers.items():
        first, *others = dues
        with logcontext.about(chat_id=chat):
            if _handle(app, Wake(chat, first, tuple(others))):
                failures += [{"itemIdentifier": one} for ids in dues.values() for one in ids]
    return {"batchItemFailures": failures}
