"""Answering CloudFormation's custom-resource requests: the outcome PUT to the pre-signed
ResponseURL with the secrets masked, and whether a failure may fail the request."""

from __future__ import annotations

import json
import logging
import time
import traceback
import urllib.error
import urllib.request
from typing import Any

from handlers.entry.setup_telegram import CALL_TIMEOUT

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)

PHYSICAL_RESOURCE_ID = "telegram-webhook"
SUCCESS, FAILED = "SUCCESS", "FAILED"
RESPONSE_RESERVE = 10.0  # seconds of the invocation kept for answering CloudFormation
REASON_LIMIT = 1000


def format_tb(error: BaseException) -> list[str]:
    """The traceback's frames (file, line, code) without the exception's message."""
    return traceback.format_tb(error.__traceback__)


def _scrub(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text[:REASON_LIMIT]


def stack_status(stack_id: str) -> str | None:
    """The stack's status (UPDATE_ROLLBACK_IN_PROGRESS ...), or None when it cannot be read."""
    try:
        import boto3  # in Lambda's runtime; only a deploy waits for it

        stacks = boto3.client("cloudformation").describe_stacks(StackName=stack_id)["Stacks"]
        return str(stacks[0]["StackStatus"])
    except Exception as error:
        log.warning("the stack's status could not be read: %s", type(error).__name__)
        return None


def may_fail(event: dict[str, Any]) -> bool:
    """Whether Telegram's failure may fail this request: never for a Delete, nor for an Update
    while the stack rolls back (or when that cannot be told)."""
    if event.get("RequestType") == "Create":
        return True
    if event.get("RequestType") != "Update":
        return False
    status = stack_status(str(event.get("StackId") or ""))
    return status is not None and "ROLLBACK" not in status


def answer(
    event: dict[str, Any],
    status: str,
    reason: str,
    data: dict[str, str],
    deadline: float,
    secrets: list[str],
) -> dict[str, str]:
    """Log and send CloudFormation the outcome, with the secrets masked."""
    reason = _scrub(reason, secrets)
    log.info("%s %s: %s", event.get("RequestType"), status, reason)
    send_response(event, status, reason, data, until=deadline + RESPONSE_RESERVE - 1)
    return {"Status": status, "Reason": reason}


def send_response(
    event: dict[str, Any],
    status: str,
    reason: str,
    data: dict[str, str] | None = None,
    *,
    until: float | None = None,
) -> bool:
    """PUT the result to the pre-signed ResponseURL (up to three tries, until `until` on the
    monotonic clock); True once it was taken."""
    body = json.dumps(
        {
            "Status": status,
            "Reason": reason,
            "PhysicalResourceId": event.get("PhysicalResourceId") or PHYSICAL_RESOURCE_ID,
            "StackId": event.get("StackId", ""),
            "RequestId": event.get("RequestId", ""),
            "LogicalResourceId": event.get("LogicalResourceId", ""),
            "NoEcho": False,
            "Data": data or {},
        }
    ).encode()
    url = event.get("ResponseURL")
    if not url:
        log.error("no ResponseURL in the event; CloudFormation cannot be answered")
        return False
    until = time.monotonic() + 3 * CALL_TIMEOUT if until is None else until
    for attempt in range(3):
        timeout = min(CALL_TIMEOUT, until - time.monotonic())
        if timeout <= 0:
            break
        request = urllib.request.Request(
            url,
            data=body,
            method="PUT",
            headers={"Content-Type": "", "Content-Length": str(len(body))},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                response.read()
            return True
        except (urllib.error.URLError, OSError) as error:
            log.warning("answering CloudFormation failed (try %d): %s", attempt + 1, error)
            time.sleep(min(0.5 * (attempt + 1), max(0.0, until - time.monotonic())))
    log.error("CloudFormation was not answered; it will time the resource out")
    return False
