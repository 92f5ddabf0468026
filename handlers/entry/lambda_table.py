"""AWS Lambda entry of the table view, on the webhook's HTTP API (one origin): API Gateway's
HTTP API v2 events adapted to `handlers.table.api.handle`.

The GET routes (the page, a seat's view, a replay) read the store and import no Telegram
library, so a poll starts and answers fast; a move (POST /api/move) goes through the webhook's
own Application (`lambda_webhook.application`, `run_update`), as a press: the update path's one
conditional change, its messages delivered to Telegram with the bot token from the stack's
secret.
"""

from __future__ import annotations

import base64
import os
from typing import Any

from handlers.entry import lambda_webhook
from handlers.entry.lambda_webhook import bot_token, reported
from handlers.storage.keeper import Keeper
from handlers.table.api import MoveOutcome, Response, handle
from handlers.table.auth import BadInitData, Opening, check_init_data
from handlers.table.moves import MoveRequest
from handlers.table.selector import Selector
from handlers.telegram import item
from handlers.telegram.table_source import StoreTables
from infra import redact

MAX_BODY = 16 * 1024  # bytes taken from a request (a move is under 2 KB: more is refused)
_state: dict[str, Any] = {}


def reader() -> StoreTables:
    """The process's source for the GET routes: the store read directly (no cache: each poll
    sees the game as it is); Telegram asked only whether an opener without a pass is in the
    group."""
    name = os.environ["DECAPITATION_TABLE"]
    if _state.get("reader", (None,))[0] != name:
        _state["reader"] = (name, StoreTables(reading_keeper(), member=member))
    return _state["reader"][1]


def reading_keeper() -> Keeper:
    """The store read as the webhook reads it: an item the bot cannot read is set aside and
    its group told (by the timer), as the group's next update would."""
    clock = lambda_webhook.clock
    timers = lambda_webhook.timers(os.environ, clock)
    keeper = Keeper(lambda_webhook.storage(), timers, clock, aside=True)
    keeper.reading(item.check, item.notice)
    return keeper


def member(chat: int, user: int) -> bool | None:
    """Telegram's word on whether `user` is in the group, through the webhook's Application
    (imported only for an opening that brings no seat's pass: once per page, not per poll)."""
    from handlers.telegram.table_moves import is_member

    app = lambda_webhook.application()
    return lambda_webhook.run_update(app, is_member(app, chat, user))


def reset() -> None:
    """Forget the process's source, as a cold start would (for tests)."""
    _state.clear()


def token() -> str:
    """The bot token (from the stack's secret), kept out of every log line."""
    secret = bot_token()
    redact.hide(secret)
    return secret


@reported
def handler(event: dict, context: Any = None) -> dict:
    """API Gateway (HTTP API v2) -> one request to the table's routes."""
    http = (event.get("requestContext") or {}).get("http") or {}
    method = str(http.get("method") or "GET").upper()
    path = str(event.get("rawPath") or http.get("path") or "/")
    query = str(event.get("rawQueryString") or "")
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    body = request_body(event)
    # The page needs no token; every API route checks initData with it.
    secret = token() if path.startswith("/api/") else ""
    opening = signed(headers, secret) if method == "POST" and path == "/api/move" else None
    if opening is not None:
        return answer(move(query, headers, body, opening))
    response = handle(
        method,
        path,
        query,
        headers,
        body,
        source=reader(),
        token=secret,
        now=lambda_webhook.clock(),
    )
    return answer(response)


def signed(headers: dict[str, str], secret: str) -> Opening | None:
    """The opening the request's fresh initData of this bot signs, checked once, here: without
    it a move is refused before python-telegram-bot is imported."""
    scheme, _, init_data = headers.get("authorization", "").partition(" ")
    if scheme != "tma":
        return None
    try:
        return check_init_data(init_data, secret, lambda_webhook.clock())
    except BadInitData:
        return None


def move(query: str, headers: dict[str, str], body: bytes, opening: Opening) -> Response:
    """POST /api/move through the webhook's Application, as a press: the same update path, run
    as one update is run."""
    from handlers.telegram.table_moves import move_context, run_move

    app = lambda_webhook.application()

    def run(selector: Selector, user: int, request: MoveRequest) -> MoveOutcome:
        return lambda_webhook.run_update(app, run_move(move_context(app), selector, user, request))

    source = StoreTables(lambda_webhook.runtime_of(app).keeper, run, member)
    return handle(
        "POST",
        "/api/move",
        query,
        headers,
        body,
        source=source,
        token=token(),
        now=lambda_webhook.clock(),
        opening=opening,
    )


def request_body(event: dict) -> bytes:
    """The request's body as bytes (at most MAX_BODY + 1 of them: more is refused anyway)."""
    body = event.get("body") or ""
    if not isinstance(body, str):
        return b""
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(body[: (MAX_BODY + 3) * 4 // 3])[: MAX_BODY + 1]
        except ValueError:
            return b""
    return body.encode()[: MAX_BODY + 1]


def answer(response: Response) -> dict:
    """The table's answer as API Gateway returns it."""
    return {
        "statusCode": response.status,
        "headers": dict(response.headers),
        "body": response.body.decode(),
        "isBase64Encoded": False,
    }
