"""The fake's second transport: python-telegram-bot's requests answered in memory, by the same
code that answers them over HTTP (`serving.Serving._handle_http`), with no server or socket.

    fake = FakeTelegram(TEST_TOKEN)          # not started
    bot = Bot(fake.token, base_url=MEMORY_BASE_URL, request=MemoryRequest(fake))
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
from telegram.request import BaseRequest, RequestData

if TYPE_CHECKING:
    from testing.fake_telegram.server import FakeTelegram

# Where the bot believes Telegram is; no request ever leaves the process.
MEMORY_URL = "http://fake-telegram.invalid"
MEMORY_BASE_URL = f"{MEMORY_URL}/bot"


class MemoryRequest(BaseRequest):
    """A `BaseRequest` whose every request is answered by `fake` in this process.

    The request is encoded as python-telegram-bot's own `HTTPXRequest` encodes it (form fields
    with JSON values, multipart with files), so the fake decodes, validates and answers it
    exactly as it does a request over HTTP."""

    __slots__ = ("fake",)

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """The fake's answer: its HTTP status and JSON body."""
        files = request_data.multipart_data if request_data else None
        data = request_data.json_parameters if request_data else None
        request = httpx.Request(method, url, data=data, files=files or None)
        parts = urlsplit(url)
        status, payload = self.fake._handle_http(
            parts.path, parts.query, request.headers.get("Content-Type", ""), request.read()
        )
        return status, json.dumps(payload, ensure_ascii=False).encode("utf-8")
