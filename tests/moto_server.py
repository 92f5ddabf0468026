"""moto served on loopback, one server for the whole session: the bot's own AWS client speaks
HTTP, so only a real server (not `moto.mock_aws`, which patches botocore) can answer it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer

__all__ = ["AtomicMotoServer", "moto_clients", "moto_server"]
REGION = "us-east-1"


class AtomicMotoServer(ThreadedMotoServer):
    """A `ThreadedMotoServer` that handles one request at a time.

    moto's in-memory DynamoDB checks a write's condition and applies the write as separate
    steps, so concurrent requests can both pass the same check and one update is lost
    (reproducible with a short `sys.setswitchinterval`). DynamoDB applies each conditional
    write atomically; serializing the requests restores that guarantee while the clients stay
    truly concurrent.
    """

    def start(self) -> None:
        super().start()
        wsgi_server = self._server
        assert wsgi_server is not None and callable(wsgi_server.app), "moto server API changed"
        app = wsgi_server.app
        lock = threading.Lock()

        def one_at_a_time(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
            with lock:
                body = app(environ, start_response)
                try:
                    return list(body)
                finally:
                    if hasattr(body, "close"):
                        body.close()

        wsgi_server.app = one_at_a_time


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    """The endpoint URL of a moto server on loopback (DynamoDB, SQS, Secrets Manager), shared
    by the session: tests make their own tables, queues and secrets under fresh names."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    server = AtomicMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture(scope="session")
def moto_clients(moto_server: str) -> Callable[[str], Any]:
    """boto3 clients for `moto_server` by service name, made once per session: the tests use
    them to make and inspect what the bot's own client works on."""
    made: dict[str, Any] = {}

    def client(service: str) -> Any:
        if service not in made:
            made[service] = boto3.client(
                service,
                region_name=REGION,
                endpoint_url=moto_server,
                aws_access_key_id="testing",
                aws_secret_access_key="testing",
            )
        return made[service]

    return client
