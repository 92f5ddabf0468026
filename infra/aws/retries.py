"""Which answers are worth another attempt, and how long to wait before it."""

from __future__ import annotations

import random

from infra.aws.wire import AwsError

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


def retryable(error: AwsError) -> bool:
    """Whether another attempt may succeed: throttling and server errors, never a refusal."""
    return error.code in THROTTLING or error.status >= 500


def backoff(attempt: int) -> float:
    """Seconds to wait before try `attempt` (1 for the first retry): full jitter below a bound
    that doubles from BACKOFF_BASE up to BACKOFF_CAP."""
    return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))
