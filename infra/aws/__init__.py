"""A small signed JSON client, standard library only, for the AWS calls the bot makes; the
default, for cold starts (docs/architecture.md). `factory.client()` makes one, own or boto3's."""

from infra.aws.config import (
    SERVICES,
    Credentials,
    NoCredentials,
    Service,
    UnsupportedEndpoint,
    resolve_credentials,
    resolve_endpoint,
    resolve_region,
)
from infra.aws.connections import close_connections, tls_context
from infra.aws.factory import SWITCH, AwsClient, boto3_client, client, read_timeout
from infra.aws.own_client import (
    CONNECT_TIMEOUT,
    DEADLINE,
    DYNAMODB_READ_TIMEOUT,
    READ_TIMEOUT,
    Client,
)
from infra.aws.retries import MAX_ATTEMPTS, THROTTLING, backoff, retryable
from infra.aws.signing import sign
from infra.aws.wire import AwsError

__all__ = [
    "CONNECT_TIMEOUT",
    "DEADLINE",
    "DYNAMODB_READ_TIMEOUT",
    "MAX_ATTEMPTS",
    "READ_TIMEOUT",
    "SERVICES",
    "SWITCH",
    "THROTTLING",
    "AwsClient",
    "AwsError",
    "Client",
    "Credentials",
    "NoCredentials",
    "Service",
    "UnsupportedEndpoint",
    "backoff",
    "boto3_client",
    "client",
    "close_connections",
    "read_timeout",
    "resolve_credentials",
    "resolve_endpoint",
    "resolve_region",
    "retryable",
    "sign",
    "tls_context",
]
