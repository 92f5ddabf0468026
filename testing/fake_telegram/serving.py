"""The HTTP plumbing: the server on 127.0.0.1, its lifecycle, and each request decoded and
answered as the Bot API answers it."""

from __future__ import annotations

import copy
import json
import re
import sys
import threading
import time
import traceback
from email import policy
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import parse_qsl, unquote, urlsplit

from testing.fake_telegram.core import _CANONICAL, Core
from testing.fake_telegram.validation import ApiError, bad_request, check_params
from testing.fake_telegram.world import Call

if TYPE_CHECKING:
    from testing.fake_telegram.server import FakeTelegram

_PATH_RE = re.compile(r"/bot([^/]+)/([A-Za-z0-9_]+)/?")
_NOT_FOUND = {"ok": False, "error_code": 404, "description": "Not Found"}
_UNAUTHORIZED = {"ok": False, "error_code": 401, "description": "Unauthorized"}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Telegram takes many connections at once; the standard backlog of 5 would drop the SYNs
    # of a bot that opens a dozen side by side, and the kernel retries them a second later.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return  # the client went away, e.g. a cancelled long poll
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    wbufsize = -1
    timeout = 30
    fake: FakeTelegram

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self) -> None:
        parts = urlsplit(self.path)
        body = self._read_body()
        status, payload = self.fake._handle_http(
            parts.path, parts.query, self.headers.get("Content-Type", ""), body
        )
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (ConnectionError, TimeoutError):
            self.close_connection = True


def _decode_params(query: str, content_type: str, body: bytes) -> dict[str, Any]:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    params: dict[str, Any] = dict(parse_qsl(query, keep_blank_values=True))
    ctype = content_type.split(";", 1)[0].strip().lower()
    if not body:
        return params
    if ctype == "application/json":
        try:
            data = json.loads(body)
        except ValueError:
            raise bad_request("can't parse JSON object") from None
        if not isinstance(data, dict):
            raise bad_request("can't parse JSON object")
        params.update({k: v for k, v in data.items() if v is not None})
    elif ctype in ("application/x-www-form-urlencoded", ""):
        params.update(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    elif ctype == "multipart/form-data":
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
        if not message.is_multipart():
            raise bad_request("can't parse multipart/form-data body")
        for part in message.iter_parts():  # type: ignore[attr-defined]
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            if not name:
                continue
            if part.get_filename() is not None:
                params[name] = {
                    "filename": part.get_filename(),
                    "size": len(payload),
                    "mime_type": part.get_content_type(),
                    "bytes": payload,
                }
            else:
                params[name] = payload.decode("utf-8", "replace")
    else:
        raise bad_request(f"unsupported Content-Type {ctype!r}")
    return params


class Serving(Core):
    """Serving the Bot API over HTTP."""

    def start(self) -> Self:
        """Start serving on 127.0.0.1 at an ephemeral port; returns self."""
        if self._server is not None:
            return self
        handler = type("FakeTelegramHandler", (_Handler,), {"fake": self})
        self._stopping = False
        self._server = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-telegram",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; long polls in progress return at once."""
        if self._server is None:
            return
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """The server's root URL, e.g. http://127.0.0.1:PORT."""
        if self._server is None:
            raise RuntimeError("FakeTelegram is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def base_url(self) -> str:
        """The value for python-telegram-bot's Bot(base_url=...)."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        """The value for python-telegram-bot's Bot(base_file_url=...)."""
        return f"{self.url}/file/bot"

    def _handle_http(
        self, path: str, query: str, content_type: str, body: bytes
    ) -> tuple[int, dict[str, Any]]:
        match = _PATH_RE.fullmatch(unquote(path))
        if match is None:
            return 404, dict(_NOT_FOUND)
        token, name = match.groups()
        method = _CANONICAL.get(name.lower())
        call = Call(method or name, {}, time.time(), kind="pending")
        with self._cond:
            self.calls.append(call)
        try:
            raw = _decode_params(query, content_type, body)
            call.params = raw
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if method is None:
                raise ApiError(404, "Not Found")
            delay = self._take_delay(method) + self._network()
            if delay:
                time.sleep(delay)
            with self._cond:
                self._take_fault(method, raw)
                params = check_params(method, raw)
                call.params = params
            result = self._handlers[method](params)
        except ApiError as err:
            with self._cond:
                call.status, call.kind, call.description = err.status, err.kind, err.description
                call.answered = time.time()
                self._cond.notify_all()
            return err.status, err.payload()
        except Exception as exc:
            with self._cond:
                self.crashes.append(traceback.format_exc())
                call.status, call.kind, call.description = 500, "crashed", repr(exc)
                call.answered = time.time()
                self._cond.notify_all()
            description = f"Internal Server Error: the fake crashed: {exc!r}"
            return 500, {"ok": False, "error_code": 500, "description": description}
        with self._cond:
            call.kind, call.result = "ok", copy.deepcopy(result)
            call.answered = time.time()
            self._cond.notify_all()
        self._flush_hook()
        return 200, {"ok": True, "result": result}
