"""A fault-injecting HTTP proxy on loopback in front of the moto server. It forwards every
request, and can be told to
- apply the next few matching requests and lose their answers (the request reaches moto and is
  applied; the client's connection is then closed unanswered), as a dropped connection does to
  a write that AWS had already applied;
- apply them and stall their answers (held until the client gives up and closes the connection,
  or sent late), as a slow network does;
- hold a TransactWriteItems open for a while before it reaches moto: meanwhile its items are in
  a transaction, and a plain write to one of them (PutItem, UpdateItem, DeleteItem) is refused
  with TransactionConflictException, as DynamoDB refuses it ("Transaction conflict handling" in
  its developer guide), and another transaction on one of them is cancelled with the reason
  TransactionConflict;
- refuse the next few matching plain writes so, as if a transaction held their item;
- keep a request from moto until an event is set, as a request slow on its way is;
- delay every request by `latency` seconds on its way, as the network between a function and
  AWS does (off by default)."""

from __future__ import annotations

import http.client
import ipaddress
import json
import select
import socket
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from testing.aws_faults import (
    CANCELLED_TYPE,
    CONFLICT,
    CONFLICT_MESSAGE,
    CONFLICT_TYPE,
    DELETE_ITEM,
    DROP,
    PLAIN_WRITES,
    PUT_ITEM,
    STALL,
    TRANSACT_WRITE_ITEMS,
    UPDATE_ITEM,
    WAIT,
    Drop,
    Hold,
    Where,
    body_matches,
    json_body,
    transaction_keys,
    write_key,
)

__all__ = [
    "DELETE_ITEM",
    "PUT_ITEM",
    "TRANSACT_WRITE_ITEMS",
    "UPDATE_ITEM",
    "AwsProxy",
    "Drop",
    "Hold",
    "proxy",
]

LIFETIME = 600.0  # seconds: a proxy left running stops by itself after this
UPSTREAM_TIMEOUT = 10.0  # seconds to wait for the moto server's answer
IDLE_TIMEOUT = 60.0  # seconds a client's kept-alive connection may wait for its next request
HOLD_LIMIT = 30.0  # seconds a held transaction or a stalled answer waits at most
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


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class AwsProxy:
    """The proxy: `url` to give a client as its endpoint; `drop_answers`, `stall_answers`,
    `refuse_writes` and `hold_transaction` arm faults. `requests` lists the targets forwarded
    or refused (in order), `dropped` the ones whose answer was lost or stalled, `conflicts`
    the plain writes refused for a transaction in progress. Listens on 127.0.0.1 only, forwards
    to a loopback upstream only, and stops after `lifetime` seconds if nobody stops it before."""

    def __init__(self, upstream: str, *, lifetime: float = LIFETIME, latency: float = 0.0) -> None:
        parts = urlsplit(upstream)
        if parts.scheme != "http" or not parts.hostname or not _is_loopback(parts.hostname):
            raise ValueError(
                f"the proxy forwards to a plain http server on loopback, not {upstream}"
            )
        self.upstream_host = parts.hostname
        self.upstream_port = parts.port or 80
        self.lifetime = lifetime
        self.latency = latency  # seconds every request waits on its way to moto
        self.slept: list[float] = []  # the latency each request sat out, in order
        self.requests: list[str] = []
        self.dropped: list[str] = []
        self.conflicts: list[str] = []
        self._drops: list[Drop] = []
        self._holds: list[Hold] = []
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

    def _arm(self, drop: Drop) -> Drop:
        if drop.times < 1:
            raise ValueError(f"times must be at least 1, not {drop.times}")
        with self._lock:
            self._drops.append(drop)
        return drop

    def drop_answers(
        self, target: str = PUT_ITEM, times: int = 1, where: Where | None = None
    ) -> Drop:
        """Apply the next `times` requests to `target` (whose JSON body satisfies `where`) and
        lose their answers; the other requests pass untouched."""
        return self._arm(Drop(target, times, where))

    def stall_answers(
        self,
        target: str = PUT_ITEM,
        times: int = 1,
        where: Where | None = None,
        seconds: float = HOLD_LIMIT,
    ) -> Drop:
        """Apply the next `times` matching requests and hold back their answers until the
        client gives up waiting (closes the connection), or, after `seconds`, answer late."""
        return self._arm(Drop(target, times, where, STALL, seconds))

    def refuse_writes(
        self, target: str = PUT_ITEM, times: int = 1, where: Where | None = None
    ) -> Drop:
        """Refuse the next `times` matching plain writes with TransactionConflictException, as
        DynamoDB does while another transaction holds their item; nothing reaches moto."""
        if target not in PLAIN_WRITES:
            raise ValueError(f"only plain writes meet a transaction's conflict, not {target}")
        return self._arm(Drop(target, times, where, CONFLICT))

    def delay_until(
        self,
        until: threading.Event,
        target: str = PUT_ITEM,
        where: Where | None = None,
        seconds: float = HOLD_LIMIT,
    ) -> Drop:
        """Keep the next matching request from moto until `until` is set (or `seconds` have
        passed), as a request slow on its way is; then handle it as any other. The fault's
        `reached` is set when the request arrives."""
        return self._arm(Drop(target, 1, where, WAIT, seconds, until))

    def hold_transaction(
        self, where: Where | None = None, *, refused: int = 1, seconds: float = HOLD_LIMIT
    ) -> Hold:
        """Hold the next TransactWriteItems (whose body satisfies `where`) in progress before
        it reaches moto, until `refused` plain writes to its items have met it, `release()` is
        called, or `seconds` have passed; then apply and answer it."""
        hold = Hold(where, refused, seconds)
        with self._lock:
            self._holds.append(hold)
        return hold

    def clear(self) -> None:
        """Forget every armed fault (and what was forwarded and dropped)."""
        with self._lock:
            self._drops.clear()
            for hold in self._holds:
                hold.release()
            self._holds.clear()
            self.requests.clear()
            self.dropped.clear()
            self.conflicts.clear()

    def _take_fault(self, target: str, body: bytes) -> Drop | None:
        """The fault this request meets (counted against it), if any."""
        with self._lock:
            self.requests.append(target)
            for drop in self._drops:
                if drop.matches(target, body):
                    drop.times -= 1
                    if drop.kind in (DROP, STALL):
                        self.dropped.append(target)
                    return drop
            return None

    def _in_transaction(self, target: str, body: bytes) -> bool:
        """Whether a plain write's item is held by a transaction in progress (counted)."""
        parsed = json_body(body)
        key = write_key(target, parsed) if parsed is not None else None
        with self._lock:
            for hold in self._holds:
                if key is not None and hold.arrived.is_set() and key in hold.keys:
                    hold.conflicts += 1
                    self.conflicts.append(target)
                    if hold.conflicts >= hold.refused:
                        hold.release()
                    return True
            return False

    def _take_hold(self, body: bytes) -> tuple[Hold | None, list[bool]]:
        """The hold a TransactWriteItems is to wait in, and which of its items another
        transaction in progress holds already."""
        parsed = json_body(body) or {}
        keys = transaction_keys(parsed)
        with self._lock:
            busy = [
                key is not None and any(h.arrived.is_set() and key in h.keys for h in self._holds)
                for key in keys
            ]
            if any(busy):
                return None, busy
            for hold in self._holds:
                if not hold.taken and body_matches(hold.where, body):
                    hold.taken = True
                    hold.keys = frozenset(key for key in keys if key is not None)
                    hold.arrived.set()
                    return hold, busy
        return None, busy

    def start(self) -> AwsProxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as AWS serves its clients
            # An answer's head and body are written apart: with Nagle's algorithm on, the body
            # waits for the client's delayed ACK (40 ms), a stall AWS's answers never have.
            disable_nagle_algorithm = True
            timeout = IDLE_TIMEOUT

            def setup(self) -> None:
                super().setup()
                proxy._track(self.connection, opened=True)

            def finish(self) -> None:
                try:
                    super().finish()
                except OSError:
                    pass  # the client closed a connection whose answer was held back
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
            for hold in self._holds:
                hold.release()
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
        fault = self._take_fault(target, body)
        if self.latency > 0:
            with self._lock:
                self.slept.append(self.latency)
            time.sleep(self.latency)
        if fault is not None and fault.kind == WAIT and fault.until is not None:
            fault.reached.set()
            fault.until.wait(fault.seconds)
        refused = fault is not None and fault.kind == CONFLICT
        if refused or (target in PLAIN_WRITES and self._in_transaction(target, body)):
            if refused:
                with self._lock:
                    self.conflicts.append(target)
            self._refuse(handler, CONFLICT_TYPE, {"message": CONFLICT_MESSAGE})
            return
        hold: Hold | None = None
        if target == TRANSACT_WRITE_ITEMS:
            hold, busy = self._take_hold(body)
            if any(busy):
                self._refuse(handler, CANCELLED_TYPE, _cancelled(busy))
                return
            if hold is not None:
                hold._free.wait(hold.seconds)
        try:
            answer = self._forward(handler, body)
        finally:
            if hold is not None:
                with self._lock:
                    hold.keys = frozenset()
                hold.done.set()
        if answer is None:
            handler.send_error(502)
            handler.close_connection = True
            return
        if fault is not None and fault.kind == DROP:  # applied upstream; never heard of
            handler.close_connection = True
            return
        if fault is not None and fault.kind == STALL and _client_gave_up(handler, fault.seconds):
            handler.close_connection = True
            return
        self._send(handler, *answer)

    def _forward(
        self, handler: BaseHTTPRequestHandler, body: bytes
    ) -> tuple[int, str, list[tuple[str, str]], bytes] | None:
        """The moto server's answer to the request (None if it gave none)."""
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
            return answer.status, answer.reason, answer_headers, data
        except (OSError, http.client.HTTPException):
            return None
        finally:
            upstream.close()

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler,
        status: int,
        reason: str,
        headers: list[tuple[str, str]],
        data: bytes,
    ) -> None:
        with suppress(OSError):  # a client that gave up has closed its end
            handler.send_response_only(status, reason)
            for name, value in headers:
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)

    def _refuse(self, handler: BaseHTTPRequestHandler, kind: str, more: dict[str, Any]) -> None:
        """DynamoDB's 400 answer of error `kind`, as it sends it (with its CRC32)."""
        data = json.dumps({"__type": kind, **more}).encode()
        headers = [
            ("Content-Type", "application/x-amz-json-1.0"),
            ("x-amzn-RequestId", uuid.uuid4().hex.upper()),
            ("x-amz-crc32", str(zlib.crc32(data))),
        ]
        self._send(handler, 400, "Bad Request", headers, data)


def _cancelled(busy: list[bool]) -> dict[str, Any]:
    """The body of a transaction cancelled because other transactions hold some of its items."""
    reasons = [
        {"Code": "TransactionConflict", "Message": CONFLICT_MESSAGE} if held else {"Code": "None"}
        for held in busy
    ]
    codes = ", ".join(reason["Code"] for reason in reasons)
    return {
        "message": f"Transaction cancelled, please refer cancellation reasons for specific "
        f"reasons [{codes}]",
        "CancellationReasons": reasons,
    }


def _client_gave_up(handler: BaseHTTPRequestHandler, seconds: float) -> bool:
    """Wait up to `seconds` for the client to close the connection its answer is held back on;
    whether it did (else the answer goes out late)."""
    connection = handler.connection
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        readable, _, _ = select.select([connection], [], [], left)
        if readable:
            try:
                return connection.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                return True
    return False


@contextmanager
def proxy(
    upstream: str, *, lifetime: float = LIFETIME, latency: float = 0.0
) -> Iterator[AwsProxy]:
    """An `AwsProxy` in front of `upstream` while the block runs."""
    with AwsProxy(upstream, lifetime=lifetime, latency=latency) as running:
        yield running
