"""The table's routes on loopback: a stdlib HTTP server handing every request to
`handlers.table.api.handle`, answered from a `TableGame`, as the Lambda will from the store."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from handlers.table.api import handle
from tests.support.table_game import TOKEN, TableGame


class TableServer(ThreadingHTTPServer):
    """Serves `game` on 127.0.0.1 at a port of its own; counts the requests per path."""

    daemon_threads = True

    def __init__(self, game: TableGame) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.game = game
        self.hits: dict[str, int] = {}
        self.hits_lock = threading.Lock()
        self.unavailable = 0  # how many of the next view requests answer 503

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: TableServer

    def _answer(self) -> None:
        url = urlsplit(self.path)
        with self.server.hits_lock:
            self.server.hits[url.path] = self.server.hits.get(url.path, 0) + 1
            down = url.path == "/api/table" and self.server.unavailable > 0
            self.server.unavailable -= down
        if down:  # as API Gateway answers when the function fails
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        response = handle(
            self.command,
            url.path,
            url.query,
            dict(self.headers.items()),
            body,
            source=self.server.game,
            token=TOKEN,
            now=time.time(),
        )
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: initData travels in a header, and a test's output stays readable."""


@contextmanager
def serving(game: TableGame) -> Iterator[TableServer]:
    """The server running in a thread until the block ends."""
    server = TableServer(game)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
