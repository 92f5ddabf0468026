"""Simulated people at the table view: a player opens it from a button Telegram shows them (with
the initData the fake signs) and calls its API as the page does, through the way the bot under
test serves it: the local poller's loopback server, the Lambda entry, or (in memory) the routes
themselves over the Application's store."""

from __future__ import annotations

import http.client
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from handlers.entry import lambda_table
from handlers.table.api import PASS_HEADER, MoveOutcome, handle
from handlers.table.moves import MoveRequest
from handlers.table.selector import Selector
from handlers.telegram.table_moves import is_member, move_context, run_move
from handlers.telegram.table_source import StoreTables
from testing.drivers import Bot
from testing.fake_telegram import FakeMessage, FakeUser
from testing.fake_telegram.mini_apps import MiniAppOpening

# (method, path with its query, headers, body) -> (status, headers, body)
Call = Callable[[str, str, dict[str, str], bytes], tuple[int, dict[str, str], bytes]]


@dataclass
class Answer:
    """One answer of the table's API."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def etag(self) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == "etag"), None)


def table_api(bot: Bot) -> Call:
    """How the bot under test serves the table's routes."""
    if bot.kind == "local":
        return _loopback(bot.application.bot_data["table"].port)
    if bot.kind == "lambda":
        return _lambda
    return _in_memory(bot)


def _loopback(port: int) -> Call:
    def call(method: str, path: str, headers: dict[str, str], body: bytes):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request(method, path, body=body or None, headers=headers)
            answer = connection.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            connection.close()

    return call


def _lambda(method: str, path: str, headers: dict[str, str], body: bytes):
    raw_path, _, query = path.partition("?")
    event = {
        "version": "2.0",
        "routeKey": f"{method} {raw_path}",
        "rawPath": raw_path,
        "rawQueryString": query,
        "headers": {k.lower(): v for k, v in headers.items()},
        "requestContext": {"http": {"method": method, "path": raw_path}, "stage": "$default"},
        "isBase64Encoded": False,
    }
    if body:
        event["body"] = body.decode()
    answer = lambda_table.handler(event)
    return answer["statusCode"], answer["headers"], answer["body"].encode()


def _in_memory(bot: Bot) -> Call:
    app = bot.application

    def move(selector: Selector, user: int, request: MoveRequest) -> MoveOutcome:
        running = run_move(move_context(app), selector, user, request)
        return bot._loop.run_until_complete(running)  # type: ignore[attr-defined]

    def member(chat: int, user: int) -> bool | None:
        asked = is_member(app, chat, user)
        return bot._loop.run_until_complete(asked)  # type: ignore[attr-defined]

    source = StoreTables(app.bot_data["runtime"].keeper, move, member)

    def call(method: str, path: str, headers: dict[str, str], body: bytes):
        route, _, query = path.partition("?")
        response = handle(
            method,
            route,
            query,
            headers,
            body,
            source=source,
            token=bot.fake.token,
            now=bot.clock(),
        )
        return response.status, response.headers, response.body

    return call


class Visit:
    """One player's table view, as the page they opened talks to the API."""

    def __init__(self, bot: Bot, opening: MiniAppOpening) -> None:
        self.bot = bot
        self.opening = opening
        self.call = table_api(bot)
        query = parse_qs(urlsplit(opening.url).query)
        self.selector = opening.start_param or query.get("tgWebAppStartParam", [""])[0]
        self.seat_pass = query.get("pass", [""])[0]  # a private button's; else a view's
        self.etag: str | None = None
        self.view: dict | None = None
        self.last_move: dict | None = None  # the last move request sent, as it was sent

    @classmethod
    def open(
        cls, bot: Bot, user: FakeUser, message: FakeMessage, label: str, chat: Any = None
    ) -> Visit:
        """`user` taps the button `label` on `message` (a web_app or direct-link button)."""
        where = chat if chat is not None else message.chat_id
        opened = bot.fake.open_mini_app(
            user, where, message.message_id, label, auth_date=bot.clock()
        )
        return cls(bot, opened)

    def request(
        self, method: str, path: str, body: bytes = b"", headers: dict | None = None
    ) -> Answer:
        sent = {"Authorization": f"tma {self.opening.init_data}", **(headers or {})}
        if self.seat_pass:
            sent[PASS_HEADER] = self.seat_pass
        if body:
            sent["Content-Type"] = "application/json"
        answer = Answer(*self.call(method, path, sent, body))
        given = {k.lower(): v for k, v in answer.headers.items()}.get(PASS_HEADER.lower())
        self.seat_pass = given or self.seat_pass
        return answer

    def page(self) -> Answer:
        """The page, as the webview loads it."""
        return self.request("GET", "/table?tgWebAppStartParam=" + quote(self.selector))

    def poll(self) -> Answer:
        """GET the seat's view, naming the version it holds (as the page polls)."""
        headers = {"If-None-Match": self.etag} if self.etag else {}
        answer = self.request("GET", "/api/table?g=" + quote(self.selector), headers=headers)
        self._take(answer)
        return answer

    def fresh(self) -> dict:
        """The seat's view as it is now (a 200 is required)."""
        self.etag = None
        answer = self.poll()
        assert answer.status == 200, (answer.status, answer.body)
        return answer.json

    def move(
        self, kind: str, *, version: str | None = None, move_id: str | None = None, **fields: Any
    ) -> Answer:
        """POST a move, made on the view the visit holds (or `version`), under a fresh move id
        (or `move_id`, to send it again)."""
        if version is None:
            version = (self.view or self.fresh())["version"]
        request = {
            "g": self.selector,
            "move_id": move_id or secrets.token_hex(12),
            "version": version,
            "move": {"kind": kind, **fields},
        }
        answer = self.request("POST", "/api/move", json.dumps(request).encode())
        self.last_move = request
        body = answer.json or {}
        if "view" in body:
            self.view = body["view"]
            self.etag = f'"{self.view["version"]}"'
        return answer

    def replay(self, selector: str) -> Answer:
        return self.request("GET", "/api/replay?g=" + quote(selector))

    def _take(self, answer: Answer) -> None:
        if answer.status == 200:
            self.view = answer.json
            self.etag = answer.etag
