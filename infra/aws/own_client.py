"""The bot's own Client: signed JSON calls to one service, tried again when that may help."""

from __future__ import annotations

import http.client
import ssl
import time
from collections.abc import Callable
from typing import Any

from infra.aws import connections, retries
from infra.aws.config import Credentials, Service, resolve_credentials
from infra.aws.signing import sign
from infra.aws.wire import AwsError, check_crc32, encode, parse

CONNECT_TIMEOUT = 3.0  # seconds
READ_TIMEOUT = 10.0  # seconds
# Seconds DynamoDB calls wait for each read of their answer. DynamoDB answers in milliseconds
# (single-digit for an item, tens for a transaction or a full BatchGetItem), so an answer still
# missing after 2 s is stalled: the write may well have been applied. Cutting it short there
# leaves room within the DEADLINE for two more tries (the second finds the first's write by its
# token), where waiting out the whole deadline left no second try at all.
DYNAMODB_READ_TIMEOUT = 2.0
# Seconds one call may take, all its attempts, backoffs and timeouts added up: no attempt
# starts after it, and socket timeouts shrink to what is left. The webhook Lambda has 25 s
# (serverless.yml) for an update's few calls, most of them at most a DynamoDB read and a write.
DEADLINE = 8.0
CHUNK = 65536  # bytes read at a time, each read within what is left of the deadline


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
        max_attempts: int = retries.MAX_ATTEMPTS,
        deadline: float = DEADLINE,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.service = service
        self.region = region
        self.endpoint_url = endpoint_url
        self.credentials = credentials
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.max_attempts = max(1, max_attempts)
        self.deadline = deadline
        self.clock = clock
        self.sleep = sleep
        self._endpoint = connections.Endpoint.parse(endpoint_url)
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

    def transact_write_items(self, **params: Any) -> dict[str, Any]:
        """DynamoDB TransactWriteItems."""
        return self.call("TransactWriteItems", params)

    def send_message(self, **params: Any) -> dict[str, Any]:
        """SQS SendMessage."""
        return self.call("SendMessage", params)

    def get_secret_value(self, **params: Any) -> dict[str, Any]:
        """Secrets Manager GetSecretValue."""
        return self.call("GetSecretValue", params)

    def call(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """`operation` with `params` in botocore's shapes, answer parsed; AwsError for an error
        answer. What botocore would retry is tried again, with backoff, within the deadline."""
        body = encode(params)
        headers = {
            "Content-Type": self._content_type,
            "X-Amz-Target": f"{self.service.target_prefix}.{operation}",
        }
        end = self.clock() + self.deadline
        attempt = 0
        while True:
            credentials = self.credentials or resolve_credentials()
            try:
                status, answer_headers, data = self._exchange(body, headers, credentials, end)
                if self.service.name == "dynamodb":
                    check_crc32(operation, status, answer_headers, data)
                return parse(operation, status, answer_headers, data, attempt)
            except ssl.SSLCertVerificationError:
                raise
            except AwsError as error:
                if not retries.retryable(error):
                    raise
                failure: Exception = error
            except (OSError, http.client.HTTPException) as error:
                failure = error
            attempt += 1
            if attempt >= self.max_attempts:
                raise failure
            wait = retries.backoff(attempt)
            if self.clock() + wait >= end:
                failure.add_note(f"no attempt left within the call's {self.deadline:g} s deadline")
                raise failure
            self.sleep(wait)

    def _exchange(
        self, body: bytes, headers: dict[str, str], credentials: Credentials, end: float
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One signed POST on this thread's connection, every wait within what is left before
        `end`; a kept-alive connection the server has dropped is replaced once at once."""
        endpoint = self._endpoint
        for fresh in (False, True):
            read_timeout = self._left(end, self.read_timeout)
            connection = None if fresh else connections.take(endpoint, self.clock())
            reused = connection is not None
            if connection is None:
                connect_timeout = self._left(end, self.connect_timeout)
                connection = endpoint.connect(connect_timeout, read_timeout)
            elif connection.sock is not None:
                connection.sock.settimeout(read_timeout)
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
                data = self._read(response, connection, end)
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
                connections.keep(endpoint, connection, self.clock())
            return response.status, response.headers, data
        raise AssertionError("unreachable")

    def _left(self, end: float, timeout: float) -> float:
        """`timeout`, or what is left before `end` if less; TimeoutError if nothing is."""
        left = end - self.clock()
        if left <= 0:
            raise TimeoutError(f"the call's {self.deadline:g} s deadline has passed")
        return min(timeout, left)

    def _read(
        self,
        response: http.client.HTTPResponse,
        connection: http.client.HTTPConnection,
        end: float,
    ) -> bytes:
        """The answer's body, each read of the socket within what is left before `end`."""
        chunks = []
        while response.length is None or response.length > 0:
            if connection.sock is not None:
                connection.sock.settimeout(self._left(end, self.read_timeout))
            chunk = response.read1(CHUNK)  # one read of the socket at most
            if not chunk:
                break
            chunks.append(chunk)
        if response.length:  # closed before the length it announced
            raise http.client.IncompleteRead(b"".join(chunks), response.length)
        response.close()  # the body is read; the connection may serve the next call
        return b"".join(chunks)
