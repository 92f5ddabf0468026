"""A small signed JSON client for the AWS calls the bot makes: DynamoDB GetItem, BatchGetItem,
PutItem and DeleteItem, SQS SendMessage, Secrets Manager GetSecretValue.

Standard library only. botocore would cost a cold start about 130 ms (its imports, the
endpoint rules and the service models) for six JSON operations; it is imported only to find
credentials when the environment holds none (a laptop with a profile, never Lambda).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

CONNECT_TIMEOUT = 3.0  # seconds
READ_TIMEOUT = 10.0  # seconds
MAX_ATTEMPTS = 4
BACKOFF_BASE = 0.05  # seconds; full jitter, doubling per attempt
BACKOFF_CAP = 1.0  # seconds
THROTTLING = frozenset(
    {
        "ThrottlingException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "Throttling",
        "TooManyRequestsException",
    }
)


@dataclass(frozen=True)
class Service:
    """How one AWS service takes JSON calls."""

    name: str  # endpoint prefix and signing name
    env_suffix: str  # AWS_ENDPOINT_URL_<env_suffix>
    json_version: str  # x-amz-json-<version>
    target_prefix: str  # X-Amz-Target: <prefix>.<Operation>


SERVICES = {
    "dynamodb": Service("dynamodb", "DYNAMODB", "1.0", "DynamoDB_20120810"),
    "sqs": Service("sqs", "SQS", "1.0", "AmazonSQS"),
    "secretsmanager": Service("secretsmanager", "SECRETS_MANAGER", "1.1", "secretsmanager"),
}


@dataclass(frozen=True)
class Credentials:
    """An access key, its secret and, for temporary credentials, the session token."""

    access_key: str
    secret_key: str
    token: str | None = None


class AwsError(Exception):
    """An error answer from AWS, shaped like botocore's ClientError (`.response`)."""

    def __init__(self, code: str, message: str, status: int, operation: str = "") -> None:
        super().__init__(f"{operation or 'AWS call'} failed ({status} {code}): {message}")
        self.code, self.message, self.status, self.operation = code, message, status, operation
        self.response = {
            "Error": {"Code": code, "Message": message},
            "ResponseMetadata": {"HTTPStatusCode": status},
        }


def retryable(error: AwsError) -> bool:
    """Whether another attempt may succeed: throttling and server errors, never a refusal."""
    return error.code in THROTTLING or error.status >= 500


def backoff(attempt: int) -> float:
    """Seconds to wait before try `attempt` (1 for the first retry): full jitter below a bound
    that doubles from BACKOFF_BASE up to BACKOFF_CAP."""
    return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))


class NoCredentials(RuntimeError):
    """Neither the environment nor botocore's resolver had credentials."""


# -- where and as whom ---------------------------------------------------------------------------


def resolve_region(region: str | None = None, env: Any = os.environ) -> str:
    """`region`, else AWS_REGION (set by Lambda), else AWS_DEFAULT_REGION."""
    found = region or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if not found:
        raise ValueError("no AWS region: set AWS_REGION or AWS_DEFAULT_REGION")
    return found


def resolve_endpoint(service: Service, region: str, env: Any = os.environ) -> str:
    """AWS_ENDPOINT_URL_<SERVICE>, else AWS_ENDPOINT_URL, else the service's public endpoint."""
    if env.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() != "true":
        configured = env.get(f"AWS_ENDPOINT_URL_{service.env_suffix}") or env.get(
            "AWS_ENDPOINT_URL"
        )
        if configured:
            return configured
    suffix = "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"
    return f"https://{service.name}.{region}.{suffix}"


_botocore_credentials: Any = None
_credentials_lock = threading.Lock()


def resolve_credentials(env: Any = os.environ) -> Credentials:
    """The environment's keys (what Lambda gives), else whatever botocore's resolver finds."""
    access_key, secret_key = env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY")
    if access_key and secret_key:
        return Credentials(access_key, secret_key, env.get("AWS_SESSION_TOKEN") or None)
    global _botocore_credentials
    with _credentials_lock:
        if _botocore_credentials is None:
            try:
                import botocore.session
            except ImportError:
                raise NoCredentials(
                    "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                ) from None
            _botocore_credentials = botocore.session.get_session().get_credentials()
        if _botocore_credentials is None:
            raise NoCredentials(
                "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                "or configure a profile"
            )
        frozen = _botocore_credentials.get_frozen_credentials()  # refreshes when due
    return Credentials(frozen.access_key, frozen.secret_key, frozen.token or None)


# -- Signature Version 4 -------------------------------------------------------------------------


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(
    credentials: Credentials,
    region: str,
    service: str,
    host: str,
    path: str,
    headers: dict[str, str],
    body: bytes,
    amz_date: str,
) -> dict[str, str]:
    """`headers` plus Host, X-Amz-Date, X-Amz-Security-Token (if any) and the SigV4
    Authorization of a POST of `body` to `path`; every header given is signed."""
    signed = {**headers, "Host": host, "X-Amz-Date": amz_date}
    if credentials.token:
        signed["X-Amz-Security-Token"] = credentials.token
    canonical = sorted((name.lower(), " ".join(value.split())) for name, value in signed.items())
    names = ";".join(name for name, _ in canonical)
    request = "\n".join(
        (
            "POST",
            path,
            "",
            "".join(f"{name}:{value}\n" for name, value in canonical),
            names,
            hashlib.sha256(body).hexdigest(),
        )
    )
    scope = f"{amz_date[:8]}/{region}/{service}/aws4_request"
    to_sign = "\n".join(
        ("AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(request.encode()).hexdigest())
    )
    key = _hmac(f"AWS4{credentials.secret_key}".encode(), amz_date[:8])
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    signed["Authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={credentials.access_key}/{scope}, "
        f"SignedHeaders={names}, Signature={signature}"
    )
    return signed


# -- transport -----------------------------------------------------------------------------------

_tls: ssl.SSLContext | None = None
_tls_lock = threading.Lock()
_connections = threading.local()  # .open: a _Pool


def tls_context() -> ssl.SSLContext:
    """The process's TLS client context (certifi's CA bundle when installed), made once:
    loading a CA bundle costs tens of milliseconds, so every HTTPS client should share it."""
    global _tls
    with _tls_lock:
        if _tls is None:
            try:
                import certifi
            except ImportError:
                _tls = ssl.create_default_context()
            else:
                _tls = ssl.create_default_context(cafile=certifi.where())
        return _tls


class _Pool(dict[tuple[str, str, int], http.client.HTTPConnection]):
    """One thread's kept-alive connections, closed when the thread ends."""

    def __del__(self) -> None:
        for connection in self.values():
            connection.close()


def _pool() -> _Pool:
    pool = getattr(_connections, "open", None)
    if pool is None:
        pool = _connections.open = _Pool()
    return pool


def close_connections() -> None:
    """Close this thread's connections (a thread that ends would otherwise leave them open)."""
    for connection in _pool().values():
        connection.close()
    _pool().clear()


@dataclass(frozen=True)
class _Endpoint:
    scheme: str
    host: str
    port: int
    netloc: str  # the Host header: the port only when it is not the scheme's default
    path: str

    @classmethod
    def parse(cls, url: str) -> _Endpoint:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) endpoint URL: {url!r}")
        default = 443 if parts.scheme == "https" else 80
        port = parts.port or default
        host = parts.hostname
        shown = f"[{host}]" if ":" in host else host
        netloc = shown if port == default else f"{shown}:{port}"
        return cls(parts.scheme, host, port, netloc, parts.path or "/")

    def connect(self, connect_timeout: float, read_timeout: float) -> http.client.HTTPConnection:
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


# -- the client ----------------------------------------------------------------------------------


class Client:
    """JSON calls to one AWS service, signed with SigV4; safe to share between threads (each
    thread keeps its own keep-alive connection per endpoint)."""

    def __init__(
        self,
        service: Service,
        region: str,
        endpoint_url: str,
        *,
        credentials: Credentials | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
        read_timeout: float = READ_TIMEOUT,
        max_attempts: int = MAX_ATTEMPTS,
    ) -> None:
        self.service = service
        self.region = region
        self.endpoint_url = endpoint_url
        self.credentials = credentials
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.max_attempts = max(1, max_attempts)
        self._endpoint = _Endpoint.parse(endpoint_url)
        self._content_type = f"application/x-amz-json-{service.json_version}"

    def __repr__(self) -> str:
        return f"<aws.Client {self.service.name} {self.region} {self.endpoint_url}>"

    def get_item(self, **params: Any) -> dict[str, Any]:
        """DynamoDB GetItem."""
        return self.call("GetItem", params)

    def batch_get_item(self, **params: Any) -> dict[str, Any]:
        """DynamoDB BatchGetItem."""
        return self.call("BatchGetItem", params)

    def put_item(self, **params: Any) -> dict[str, Any]:
        """DynamoDB PutItem."""
        return self.call("PutItem", params)

    def delete_item(self, **params: Any) -> dict[str, Any]:
        """DynamoDB DeleteItem."""
        return self.call("DeleteItem", params)

    def send_message(self, **params: Any) -> dict[str, Any]:
        """SQS SendMessage."""
        return self.call("SendMessage", params)

    def get_secret_value(self, **params: Any) -> dict[str, Any]:
        """Secrets Manager GetSecretValue."""
        return self.call("GetSecretValue", params)

    def call(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """Run `operation` with `params` (botocore's request shape) and return the parsed
        answer (botocore's response shape); AwsError for an error answer. Throttling, server
        errors, timeouts and lost connections are tried again with jittered backoff."""
        body = json.dumps(params, separators=(",", ":"), default=_blob).encode()
        headers = {
            "Content-Type": self._content_type,
            "X-Amz-Target": f"{self.service.target_prefix}.{operation}",
        }
        for attempt in range(self.max_attempts):
            if attempt:
                time.sleep(backoff(attempt))
            last = attempt + 1 == self.max_attempts
            credentials = self.credentials or resolve_credentials()
            try:
                status, answer_headers, data = self._exchange(body, headers, credentials)
            except ssl.SSLCertVerificationError:
                raise
            except (OSError, http.client.HTTPException):
                if last:
                    raise
                continue
            try:
                return _parse(operation, status, answer_headers, data, attempt)
            except AwsError as error:
                if last or not retryable(error):
                    raise
        raise AssertionError("unreachable")

    def _exchange(
        self, body: bytes, headers: dict[str, str], credentials: Credentials
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One signed POST on this thread's connection; a kept-alive connection the server
        has dropped meanwhile is replaced once at once."""
        endpoint = self._endpoint
        key = (endpoint.scheme, endpoint.host, endpoint.port)
        pool = _pool()
        for fresh in (False, True):
            connection = None if fresh else pool.pop(key, None)
            reused = connection is not None
            if connection is None:
                connection = endpoint.connect(self.connect_timeout, self.read_timeout)
            amz_date = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            signed = sign(
                credentials,
                self.region,
                self.service.name,
                endpoint.netloc,
                endpoint.path,
                headers,
                body,
                amz_date,
            )
            try:
                connection.request("POST", endpoint.path, body, signed)
                response = connection.getresponse()
                data = response.read()
            except ConnectionError:
                connection.close()
                if reused:
                    continue
                raise
            except BaseException:
                connection.close()
                raise
            if response.will_close:
                connection.close()
            else:
                pool[key] = connection
            return response.status, response.headers, data
        raise AssertionError("unreachable")


def _blob(value: Any) -> str:
    """JSON for what json cannot write itself: bytes as base64 (DynamoDB B, SecretBinary)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(value).decode()
    raise TypeError(f"cannot send a {type(value).__name__} to AWS")


def _parse(
    operation: str, status: int, headers: http.client.HTTPMessage, data: bytes, attempt: int
) -> dict[str, Any]:
    """The answer as botocore returns it; AwsError for an error answer."""
    try:
        parsed = json.loads(data) if data.strip() else {}
    except ValueError:
        parsed = None
    if 200 <= status < 300:
        if not isinstance(parsed, dict):
            raise AwsError("MalformedAnswer", f"not JSON: {data[:200]!r}", status, operation)
        _decode_blobs(parsed)
        parsed["ResponseMetadata"] = {
            "RequestId": headers.get("x-amzn-RequestId", ""),
            "HTTPStatusCode": status,
            "RetryAttempts": attempt,
        }
        return parsed
    raise _error(operation, status, headers, parsed, data)


def _error(
    operation: str, status: int, headers: http.client.HTTPMessage, parsed: Any, data: bytes
) -> AwsError:
    """The AwsError an error answer describes, readable even when its body is no JSON."""
    body = parsed if isinstance(parsed, dict) else {}
    raw = body.get("__type") or headers.get("x-amzn-ErrorType") or body.get("code")
    raw = raw or body.get("Code")
    code = str(raw).split(":")[0].rsplit("#", 1)[-1] if raw else str(status)
    message = body.get("message") or body.get("Message")
    if message is None:
        text = data[:200].decode(errors="replace").strip()
        message = f"an answer that is not AWS's JSON: {text!r}" if text else "an empty answer"
    return AwsError(code, str(message), status, operation)


def _decode_blobs(answer: dict[str, Any]) -> None:
    """Turn the base64 text of binary values into bytes, as botocore does."""
    for key in ("Item", "Attributes"):
        if isinstance(answer.get(key), dict):
            answer[key] = {name: _attribute(value) for name, value in answer[key].items()}
    for table, items in (answer.get("Responses") or {}).items():
        if isinstance(items, list):
            answer["Responses"][table] = [
                {name: _attribute(value) for name, value in item.items()} for item in items
            ]
    if isinstance(answer.get("SecretBinary"), str):
        answer["SecretBinary"] = base64.b64decode(answer["SecretBinary"])


def _attribute(value: dict[str, Any]) -> dict[str, Any]:
    """One DynamoDB attribute value with its binary parts as bytes."""
    if "B" in value:
        return {"B": base64.b64decode(value["B"])}
    if "BS" in value:
        return {"BS": [base64.b64decode(item) for item in value["BS"]]}
    if "M" in value:
        return {"M": {name: _attribute(inner) for name, inner in value["M"].items()}}
    if "L" in value:
        return {"L": [_attribute(inner) for inner in value["L"]]}
    return value


def client(service: str, **options: Any) -> Client:
    """A client for `service` ("dynamodb", "sqs" or "secretsmanager"), safe to share.

    Options: region_name, endpoint_url, aws_access_key_id, aws_secret_access_key,
    aws_session_token, connect_timeout, read_timeout, max_attempts. Region, endpoint and
    credentials otherwise come from the environment (see resolve_*).
    """
    if service not in SERVICES:
        raise ValueError(f"no JSON client for {service!r}; known: {', '.join(SERVICES)}")
    spec = SERVICES[service]
    region = resolve_region(options.pop("region_name", None))
    endpoint = options.pop("endpoint_url", None) or resolve_endpoint(spec, region)
    access_key = options.pop("aws_access_key_id", None)
    secret_key = options.pop("aws_secret_access_key", None)
    token = options.pop("aws_session_token", None)
    credentials = Credentials(access_key, secret_key, token) if access_key and secret_key else None
    return Client(spec, region, endpoint, credentials=credentials, **options)
