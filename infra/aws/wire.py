"""The wire format: botocore's request shape as JSON out, its response shape (or AwsError) back."""

from __future__ import annotations

import base64
import http.client
import json
import zlib
from typing import Any

CRC32_MISMATCH = "Crc32Mismatch"  # a DynamoDB answer whose body fails its x-amz-crc32


class AwsError(Exception):
    """An error answer from AWS, shaped like botocore's ClientError (`.response`)."""

    def __init__(
        self, code: str, message: str, status: int, operation: str = "", **more: str
    ) -> None:
        super().__init__(f"{operation or 'AWS call'} failed ({status} {code}): {message}")
        self.code, self.message, self.status, self.operation = code, message, status, operation
        self.response = {
            "Error": {"Code": code, "Message": message, **more},
            "ResponseMetadata": {"HTTPStatusCode": status},
        }


def encode(params: dict[str, Any]) -> bytes:
    """The JSON body of a call with `params`, binary values as base64."""
    return json.dumps(params, separators=(",", ":"), default=_blob).encode()


def _blob(value: Any) -> str:
    """JSON for what json cannot write itself: bytes as base64 (DynamoDB B, SecretBinary)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(value).decode()
    raise TypeError(f"cannot send a {type(value).__name__} to AWS")


def check_crc32(
    operation: str, status: int, headers: http.client.HTTPMessage, data: bytes
) -> None:
    """AwsError (CRC32_MISMATCH) if the answer has an x-amz-crc32 its body fails, as botocore
    checks DynamoDB's answers."""
    expected = headers.get("x-amz-crc32")
    if expected is not None and expected.strip() != str(zlib.crc32(data)):
        raise AwsError(CRC32_MISMATCH, f"x-amz-crc32 is {expected}", status, operation)


def parse(
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
    """The AwsError an error answer describes, readable even when its body is no JSON; a
    former Query service's code (x-amzn-query-error, SQS) replaces the JSON one, as in botocore;
    the item a failed DynamoDB condition returns is kept in `.response["Item"]`, a cancelled
    transaction's reasons in `.response["CancellationReasons"]`, as in botocore."""
    body = parsed if isinstance(parsed, dict) else {}
    raw = body.get("__type") or headers.get("x-amzn-ErrorType") or body.get("code")
    raw = raw or body.get("Code")
    code = str(raw).split(":")[0].rsplit("#", 1)[-1] if raw else str(status)
    message = body.get("message") or body.get("Message")
    if message is None:
        text = data[:200].decode(errors="replace").strip()
        message = f"an answer that is not AWS's JSON: {text!r}" if text else "an empty answer"
    query_code, _, fault = (headers.get("x-amzn-query-error") or "").partition(";")
    if query_code and fault and ";" not in fault:
        return AwsError(
            query_code, str(message), status, operation, QueryErrorCode=code, Type=fault
        )
    error = AwsError(code, str(message), status, operation)
    if isinstance(body.get("Item"), dict):  # a failed condition's item (ALL_OLD), as botocore
        error.response["Item"] = {name: _attribute(value) for name, value in body["Item"].items()}
    if isinstance(body.get("CancellationReasons"), list):  # a cancelled transaction's, likewise
        error.response["CancellationReasons"] = [_reason(r) for r in body["CancellationReasons"]]
    return error


def _reason(reason: Any) -> dict[str, Any]:
    """One cancellation reason of a transaction, its item's binary parts as bytes."""
    if not isinstance(reason, dict):
        return {}
    if isinstance(reason.get("Item"), dict):
        item = {name: _attribute(value) for name, value in reason["Item"].items()}
        return {**reason, "Item": item}
    return reason


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
