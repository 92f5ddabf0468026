"""The bot's own Client: signed JSON calls to one service, tried again when that may help."""

from __future__ import annotations

import http.client
import ssl
import time
from typing import Any

from infra.aws import connections, retries
from infra.aws.config import Credentials, Service, resolve_credentials
from infra.aws.signing import sign
from infra.aws.wire import AwsError, check_crc32, encode, parse

CONNECT_TIMEOUT = 3.0  # seconds
READ_TIMEOUT = 10.0  # seconds


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
    ) -> None:
        self.service = service
        self.region = region
        self.endpoint_url = endpoint_url
        self.credentials = credentials
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.max_attempts = max(1, max_attempts)
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
        body = encode(params)
        headers = {
            "Content-Type": self._content_type,
            "X-Amz-Target": f"{self.service.target_prefix}.{operation}",
        }
        for attempt in range(self.max_attempts):
            if attempt:
                time.sleep(retries.backoff(attempt))
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
                if self.service.name == "dynamodb":
                    check_crc32(operation, status, answer_headers, data)
                return parse(operation, status, answer_headers, data, attempt)
            except AwsError as error:
                if last or not retries.retryable(error):
                    raise
        raise AssertionError("unreachable")

    def _exchange(
        self, body: bytes, headers: dict[str, str], credentials: Credentials
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One signed POST on this thread's connection; a kept-alive connection the server
        has dropped meanwhile is replaced once at once."""
        endpoint = self._endpoint
        for fresh in (False, True):
            connection = None if fresh else connections.take(endpoint)
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
                connections.keep(endpoint, connection)
            return response.status, response.headers, data
        raise AssertionError("unreachable")
