"""A fault-injecting HTTP proxy on loopback in front of the moto server: it forwards every
request, and can be told to apply the next few matching requests and lose their answers (the
request reaches moto and is applied; the client's connection is then closed unanswered), as a
dropped connection does to a write that AWS had already applied."""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

__all__ = ["DELETE_ITEM", "PUT_ITEM", "TRANSACT_WRITE_ITEMS", "AwsProxy", "Drop", "proxy"]

PUT_ITEM = "DynamoDB_20120810.PutItem"
DELETE_ITEM = "DynamoDB_20120810.DeleteItem"
TRANSACT_WRITE_ITEMS = "DynamoDB_20120810.TransactWriteItems"
LIFETIME = 600.0  # seconds: a proxy left running stops by itself after this
UPSTREAM_TIMEOUT = 10.0  # seconds to wait for the moto server's answer
IDLE_TIMEOUT = 60.0  # seconds a client's kept-alive connection may wait for its next request
MAX_BODY = 1 << 20  # bytes: a request body larger than this is refused (413), never forwarded
# Not forwarded either way: they describe one connection, not the request.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "proxy-connection",
    }
)


@dataclass
class Drop:
    """Lose the answers of the next `times` requests whose X-Amz-Target is `target` and whose
    JSON body satisfies `where` (every body, if None)."""

    target: str
    times: int
    where: Callable[[dict[str, Any]], bool] | None = None

    def matches(self, target: str, body: bytes) -> bool:
        if self.times <= 0 or target != self.target:
            return False
        if self.where is None:
            return True
        try:
            parsed = json.loads(body)
        except ValueError:
            return False
        return isinstance(parsed, dict) and bool(self.where(parsed))


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class AwsProxy:
    """The proxy: `url` to give a client as its endpoint, `drop_answers` to arm a fault;
    `requests` lists the targets forwarded (in order) and `dropped` the ones whose answer was
    lost. Listens on 127.0.0.1 only, forwards to a loopback upstream only, and stops after
    `lifetime` seconds if nobody stops it before."""

    def __init__(self, upstream: str, *, lifetime: float = LIFETIME) -> None:
        parts = urlsplit(upstream)
        if parts.scheme != "http" or not parts.hostname or not _is_loopback(parts.hostname):
            raise ValueError(
                f"the proxy forwards to a plain http server on loopback, not {upstream}"
            )
        self.upstream_host = parts.hostname
        self.upstream_port = parts.port or 80
        self.lifetime = lifetime
        self.requests: list[str] = []
        self.dropped: list[str] = []
        self._drops: list[Drop] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None
        self._connections: set[socket.socket] = set()

    @property
    def url(self) -> str:
        assert self._server is not None, "the proxy is not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def drop_answers(
        self,
        target: str = PUT_ITEM,
        times: int = 1,
        where: Callable[[dict[str, Any]], bool] | None = None,
    ) -> Drop:
        """Apply the next `times` requests to `target` (whose JSON body satisfies `where`) and
        lose their answers; the other requests pass untouched."""
        if times < 1:
            raise ValueError(f"times must be at least 1, not {times}")
        drop = Drop(target, times, where)
        with self._lock:
            self._drops.append(drop)
        return drop

    def clear(self) -> None:
        """Forget every armed fault (and what was forwarded and dropped)."""
        with self._lock:
            self._drops.clear()
            self.requests.clear()
            self.dropped.clear()

    def _take_drop(self, target: str, body: bytes) -> bool:
        """Whether this request's answer is to be lost (and counts it against its fault)."""
        with self._lock:
            self.requests.append(target)
            for drop in self._drops:
                if drop.matches(target, body):
                    drop.times -= 1
                    self.dropped.append(target)
                    return True
            return False

    def start(self) -> AwsProxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as AWS serves its clients
            timeout = IDLE_TIMEOUT

            def setup(self) -> None:
                super().setup()
                proxy._track(self.connection, opened=True)

            def finish(self) -> None:
                try:
                    super().finish()
                finally:
                    proxy._track(self.connection, opened=False)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # one line per request otherwise

            def do_POST(self) -> None:
                proxy._handle(self)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        self._timer = threading.Timer(self.lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def _track(self, connection: socket.socket, *, opened: bool) -> None:
        with self._lock:
            if opened:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def stop(self) -> None:
        """Stop listening and close the clients' connections (idempotent)."""
        with self._lock:
            server, self._server = self._server, None
            timer, self._timer = self._timer, None
            connections, self._connections = self._connections, set()
        if timer is not None and timer is not threading.current_thread():
            timer.cancel()
        if server is not None:
            server.shutdown()
            server.server_close()
        for connection in connections:  # their threads, waiting for a next request, end
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> AwsProxy:
        return self if self._server is not None else self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            handler.send_error(413)
            handler.close_connection = True
            return
        body = handler.rfile.read(length) if length else b""
        target = handler.headers.get("X-Amz-Target", "")
        drop = self._take_drop(target, body)
        headers = {
            name: value
            for name, value in handler.headers.items()
            if name.lower() not in HOP_BY_HOP and name.lower() != "content-length"
        }
        upstream = http.client.HTTPConnection(
            self.upstream_host, self.upstream_port, timeout=UPSTREAM_TIMEOUT
        )
        try:
            upstream.request(handler.command, handler.path, body, headers)
            answer = upstream.getresponse()
            data = answer.read()
            answer_headers = [
                (name, value)
                for name, value in answer.getheaders()
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-length"
            ]
            status, reason = answer.status, answer.reason
        except (OSError, http.client.HTTPException):
            handler.send_error(502)
            handler.close_connection = True
            return
        finally:
            upstream.close()
        if drop:  # applied upstream; the client never hears of it
            handler.close_connection = True
            return
        handler.send_response_only(status, reason)
        for name, value in answer_headers:
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)


@contextmanager
def proxy(upstream: str, *, lifetime: float = LIFETIME) -> Iterator[AwsProxy]:
    """An `AwsProxy` in front of `upstream` while the block runs."""
    with AwsProxy(upstream, lifetime=lifetime) as running:
        yield running
