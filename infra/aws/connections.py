"""The process's TLS context and each thread's kept-alive connections, one per endpoint."""

from __future__ import annotations

import http.client
import os
import select
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

# Seconds a kept-alive connection may sit idle and still be used. A Lambda frozen between two
# updates cannot see its peer go: DynamoDB drops idle connections after about 60 s
# (aws/aws-sdk-java#1365; the Java SDK v2's default max idle time is 60 s too), a NAT or
# Lambda's Hyperplane after 350 s (AWS knowledge center, "lambda-vpc-timeout"). A connection
# dropped silently would cost a whole read timeout, so one idle for longer than half the
# shortest of these is closed instead.
IDLE_LIMIT = 30.0

# The zip's CA bundle split into one certificate a file named by its subject's hash
# (infra/package.py), so that OpenSSL reads only the issuers a handshake looks up: making a
# context from certifi's whole bundle runs about 210 M instructions (some 40 ms) of every cold
# start, from the folder about 10 M, and the first handshake then reads one or two files.
# DECAPITATION_CA_FOLDER names another such folder (the benchmarks use it).
TRUST_FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "certs")

_tls: ssl.SSLContext | None = None
_tls_lock = threading.Lock()
_connections = threading.local()  # .open: a _Pool


def tls_context() -> ssl.SSLContext:
    """The process's TLS client context, made once and shared by every HTTPS client: the
    hashed trust folder when there is one, else certifi's CA bundle, else the system's."""
    global _tls
    with _tls_lock:
        if _tls is None:
            _tls = trusting(os.environ.get("DECAPITATION_CA_FOLDER") or TRUST_FOLDER)
        return _tls


def trusting(folder: str) -> ssl.SSLContext:
    """A client context trusting the certificates of a hashed `folder` if it holds any, else
    certifi's bundle (when installed), else the system's store."""
    if os.path.isdir(folder) and any(name.endswith(".0") for name in os.listdir(folder)):
        return ssl.create_default_context(capath=folder)
    try:
        import certifi
    except ImportError:
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


@dataclass(frozen=True)
class Endpoint:
    """Where calls go: scheme, host, port, the Host header and the path."""

    scheme: str
    host: str
    port: int
    netloc: str  # the Host header: the port only when it is not the scheme's default
    path: str

    @classmethod
    def parse(cls, url: str) -> Endpoint:
        """The endpoint of an http(s) URL; ValueError for anything else."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) endpoint URL: {url!r}")
        default = 443 if parts.scheme == "https" else 80
        port = parts.port or default
        host = parts.hostname
        shown = f"[{host}]" if ":" in host else host
        netloc = shown if port == default else f"{shown}:{port}"
        return cls(parts.scheme, host, port, netloc, parts.path or "/")

    @property
    def key(self) -> tuple[str, str, int]:
        """What the pool keeps this endpoint's connection under."""
        return (self.scheme, self.host, self.port)

    def connect(self, connect_timeout: float, read_timeout: float) -> http.client.HTTPConnection:
        """A new connection, connected within `connect_timeout`, reading within `read_timeout`."""
        if self.scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self.host, self.port, timeout=connect_timeout, context=tls_context()
            )
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=connect_timeout)
        connection.connect()
        assert connection.sock is not None
        connection.sock.settimeout(read_timeout)
        return connection


class _Pool(dict[tuple[str, str, int], tuple[http.client.HTTPConnection, float]]):
    """One thread's kept-alive connections with the time each was last used, closed when the
    thread ends."""

    def __del__(self) -> None:
        for connection, _ in self.values():
            connection.close()


def _pool() -> _Pool:
    pool = getattr(_connections, "open", None)
    if pool is None:
        pool = _connections.open = _Pool()
    return pool


def take(endpoint: Endpoint, now: float) -> http.client.HTTPConnection | None:
    """This thread's kept-alive connection to `endpoint`, out of the pool, if it was used less
    than IDLE_LIMIT seconds before `now` and its peer has not closed it; else None."""
    kept = _pool().pop(endpoint.key, None)
    if kept is None:
        return None
    connection, last_used = kept
    if now - last_used >= IDLE_LIMIT or _dropped(connection):
        connection.close()
        return None
    return connection


def _dropped(connection: http.client.HTTPConnection) -> bool:
    """Whether an idle connection has anything to read: its peer closed it (or sent what no
    request asked for), as urllib3 checks before reusing one."""
    sock = connection.sock
    if sock is None:
        return True
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return True
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([sock], [], [], 0)[0])
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def keep(endpoint: Endpoint, connection: http.client.HTTPConnection, now: float) -> None:
    """Put `connection`, last used at `now`, back in this thread's pool for `endpoint`."""
    _pool()[endpoint.key] = (connection, now)


def close_connections() -> None:
    """Close this thread's connections (a thread that ends would otherwise leave them open)."""
    for connection, _ in _pool().values():
        connection.close()
    _pool().clear()
