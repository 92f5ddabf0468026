"""A scripted AWS on loopback for the client's tests: an HTTP/1.1 server giving answers in turn,
and the fixtures and helpers the tests share."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from infra import aws
from infra.aws import Credentials
from testing.moto_server import REGION

KEYS = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")


@pytest.fixture(autouse=True)
def own_connections() -> Iterator[None]:
    """Each test starts and ends without kept-alive connections in this thread."""
    aws.close_connections()
    yield
    aws.close_connections()


DROP = "drop"  # close the connection without answering


class Clock:
    """The client's monotonic clock, which a test (or a scripted answer) can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering
    then_close: bool = False  # close the kept-alive connection afterwards, without saying so
    advance: float = 0.0  # seconds the server's clock moves forward before answering


def ok(payload: dict[str, Any], **kw: Any) -> Answer:
    return Answer(200, json.dumps(payload).encode(), **kw)


def fault(status: int, error_type: str, message: str = "it failed", **kw: Any) -> Answer:
    return Answer(status, json.dumps({"__type": error_type, "message": message}).encode(), **kw)


@dataclass
class Seen:
    headers: Any
    body: bytes
    peer: tuple[str, int]


class Scripted(ThreadingHTTPServer):
    """An HTTP/1.1 server on loopback that gives the scripted answers in turn and records
    every request it read."""

    daemon_threads = True

    def __init__(self, answers: list[Answer | str], clock: Clock | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answers = list(answers)
        self.clock = clock or Clock()
        self.requests: list[Seen] = []
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        self._thread = threading.Thread(target=self.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self) -> Scripted:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up on a slow answer is expected here."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Scripted

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.requests.append(Seen(self.headers, body, self.client_address))
        answer = self.server.answers.pop(0)
        if answer == DROP:
            self.close_connection = True
            return
        assert isinstance(answer, Answer)
        self.server.clock.advance(answer.advance)
        time.sleep(answer.delay)
        self.send_response(answer.status)
        for name, value in answer.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        self.wfile.write(answer.body)
        self.close_connection = answer.then_close

    def log_message(self, format: str, *args: Any) -> None:
        pass


def as_options(keys: Credentials) -> dict[str, Any]:
    options = {"aws_access_key_id": keys.access_key, "aws_secret_access_key": keys.secret_key}
    if keys.token:
        options["aws_session_token"] = keys.token
    return options


@pytest.fixture(name="waits")
def waits_fixture(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The retries' backoff, recorded (by attempt) instead of slept."""
    seen: list[int] = []

    def record(attempt: int) -> float:
        seen.append(attempt)
        return 0.0

    monkeypatch.setattr(aws.retries, "backoff", record)
    return seen


def scripted_options(server: Scripted) -> dict[str, Any]:
    """Client options for `server`, with KEYS."""
    return {"region_name": REGION, "endpoint_url": server.url, **as_options(KEYS)}


def scripted_client(server: Scripted, **options: Any) -> aws.Client:
    return aws.client(
        "dynamodb", region_name=REGION, endpoint_url=server.url, **as_options(KEYS), **options
    )


def get(client: aws.Client) -> dict[str, Any]:
    return client.get_item(TableName="games", Key={"pk": {"S": "k"}})
