"""moto served on loopback: the bot's own AWS client speaks HTTP, so only a real server (not
`moto.mock_aws`) can answer it. Tests share one server a session; benchmarks start their own."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from moto.server import ThreadedMotoServer

__all__ = ["REGION", "AtomicMotoServer", "serve"]
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


@contextmanager
def serve() -> Iterator[str]:
    """An `AtomicMotoServer` (DynamoDB, SQS, Secrets Manager) on loopback while the block runs;
    yields its endpoint URL."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    server = AtomicMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()
