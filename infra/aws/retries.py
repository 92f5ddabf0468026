"""Which answers are worth another attempt (what botocore retries, nothing else), and how long
to wait before it."""

from __future__ import annotations

import random

from infra.aws.wire import CRC32_MISMATCH, AwsError

MAX_ATTEMPTS = 4
BACKOFF_BASE = 0.05  # seconds; full jitter, doubling per attempt
BACKOFF_CAP = 1.0  # seconds

# botocore.retries.standard's ThrottledRetryableChecker, and the throttling of _retry.json.
THROTTLING = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "RequestLimitExceeded",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "RequestThrottled",
        "SlowDown",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
    }
)
# botocore.retries.standard's TransientRetryableChecker and special checkers, and a DynamoDB
# answer whose body fails its x-amz-crc32 (botocore's crc32 policy).
TRANSIENT = frozenset(
    {
        "RequestTimeout",
        "RequestTimeoutException",
        "PriorRequestNotComplete",
        "IDPCommunicationError",
        CRC32_MISMATCH,
    }
)
# The errors the models mark retryable, by operation.
MODELED_RETRYABLE = {
    "PutItem": frozenset({"ReplicatedWriteConflictException"}),
    "DeleteItem": frozenset({"ReplicatedWriteConflictException"}),
}
# Statuses retried whatever the code: standard mode's 500, 502, 503, 504; legacy mode's 509.
TRANSIENT_STATUSES = frozenset({500, 502, 503, 504, 509})
# Retried unless its code names one of the operation's modeled errors (standard mode).
THROTTLING_STATUS = 429
# The errors the service models give each operation (botocore's models, checked by a test).
_DYNAMODB_READ = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ResourceNotFoundException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ThrottlingException",
    }
)
_DYNAMODB_WRITE = _DYNAMODB_READ | {
    "ConditionalCheckFailedException",
    "ItemCollectionSizeLimitExceededException",
    "TransactionConflictException",
    "ReplicatedWriteConflictException",
}
MODELED_ERRORS = {
    "GetItem": _DYNAMODB_READ,
    "BatchGetItem": _DYNAMODB_READ,
    "PutItem": _DYNAMODB_WRITE,
    "DeleteItem": _DYNAMODB_WRITE,
    "TransactWriteItems": frozenset(
        {
            "ResourceNotFoundException",
            "TransactionCanceledException",
            "TransactionInProgressException",
            "IdempotentParameterMismatchException",
            "ProvisionedThroughputExceededException",
            "RequestLimitExceeded",
            "InternalServerError",
            "ThrottlingException",
        }
    ),
    "SendMessage": frozenset(
        {
            "InvalidMessageContents",
            "UnsupportedOperation",
            "RequestThrottled",
            "QueueDoesNotExist",
            "InvalidSecurity",
            "KmsDisabled",
            "KmsInvalidState",
            "KmsNotFound",
            "KmsOptInRequired",
            "KmsThrottled",
            "KmsAccessDenied",
            "KmsInvalidKeyUsage",
            "InvalidAddress",
        }
    ),
    "GetSecretValue": frozenset(
        {
            "ResourceNotFoundException",
            "InvalidParameterException",
            "InvalidRequestException",
            "DecryptionFailure",
            "InternalServiceError",
        }
    ),
}


def retryable(error: AwsError) -> bool:
    """Whether botocore would try again after `error`: throttling, transient errors, server
    statuses, a 429 naming no modeled error; never a refusal (failed condition, bad request)."""
    if error.code in THROTTLING or error.code in TRANSIENT or error.status in TRANSIENT_STATUSES:
        return True
    if error.code in MODELED_RETRYABLE.get(error.operation, frozenset()):
        return True
    modeled = MODELED_ERRORS.get(error.operation, frozenset())
    return error.status == THROTTLING_STATUS and error.code not in modeled


def backoff(attempt: int) -> float:
    """Seconds to wait before try `attempt` (1 for the first retry): full jitter below a bound
    that doubles from BACKOFF_BASE up to BACKOFF_CAP."""
    return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))
