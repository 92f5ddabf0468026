"""The table view for local play: the page and its API on loopback, answered from the polling
bot's own store, a move run in the bot's event loop as a press is (make play, with TABLE_URL).

Telegram opens a Mini App only over HTTPS (or, on its test environment, plain HTTP): put a
tunnel in front of this port and give its address as TABLE_URL (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from handlers.table.api import MoveOutcome, TableSource, handle
from handlers.table.moves import MoveRequest
from handlers.table.selector import Selector
from handlers.telegram.table_moves import is_member, move_context, run_move
from handlers.telegram.table_source import StoreTables

log = logging.getLogger(__name__)

DEFAULT_PORT = 8087
MAX_READ = 16 * 1024  # bytes of a request body read at most (a move is under 2 KB)
MOVE_SECONDS = 30.0  # a move's change and delivery, waited for at most


def table_port(env: Mapping[str, str]) -> int | None:
    """The loopback port to serve the table on: TABLE_PORT, else 8087 when TABLE_URL is set;
    None (no table) when neither is."""
    port = (env.get("TABLE_PORT") or "").strip()
    if port:
        return int(port)
    return DEFAULT_PORT if (env.get("TABLE_URL") or "").strip() else None


class TableServer(ThreadingHTTPServer):
    """The table's routes on 127.0.0.1, in a thread of their own."""

    daemon_threads = True

    def __init__(
        self, port: int, source: TableSource, token: str, clock: Callable[[], float]
    ) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.source, self.token, self.clock = source, token, clock
        self.thread = threading.Thread(target=self.serve_forever, name="table", daemon=True)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.shutdown()
        self.server_close()
        self.thread.join(timeout=5)


class _Handler(BaseHTTPRequestHandler):
    server: TableServer

    def _answer(self) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(min(length, MAX_READ)) if length > 0 else b""
        try:
            response = handle(
                self.command,
                url.path,
                url.query,
                dict(self.headers.items()),
                body,
                source=self.server.source,
                token=self.server.token,
                now=self.server.clock(),
            )
        except Exception as error:  # the bot goes on; the page backs off and asks again
            log.warning("a table request failed: %s", type(error).__name__)
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)

    do_GET = do_POST = do_PUT = do_DELETE = _answer

    def log_message(self, format: str, *args: object) -> None:
        """Nothing: a request's headers carry initData, a credential."""


def serve_table(application, token: str, port: int, clock: Callable[[], float]) -> TableServer:
    """Start serving the table for the polling `application` (call from its event loop)."""
    loop = asyncio.get_running_loop()
    keeper = application.bot_data["runtime"].keeper

    def move(selector: Selector, user: int, request: MoveRequest) -> MoveOutcome:
        running = asyncio.run_coroutine_threadsafe(
            run_move(move_context(application), selector, user, request), loop
        )
        return running.result(MOVE_SECONDS)

    def member(chat: int, user: int) -> bool | None:
        asked = asyncio.run_coroutine_threadsafe(is_member(application, chat, user), loop)
        return asked.result(MOVE_SECONDS)

    server = TableServer(port, StoreTables(keeper, move, member), token, clock)
    server.thread.start()
    log.info("the table is served on 127.0.0.1:%d", server.port)
    return server
