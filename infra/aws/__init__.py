"""A small signed JSON client for the AWS calls the bot makes: DynamoDB GetItem, BatchGetItem,
PutItem and DeleteItem, SQS SendMessage, Secrets Manager GetSecretValue.

Standard library only. botocore would cost a cold start about 130 ms (its imports, the
endpoint rules and the service models) for six JSON operations; it is imported only to find
credentials when the environment holds none (a laptop with a profile, never Lambda).

Modules, each of one job: `config` (services, region, endpoint, credentials), `signing`
(SigV4), `connections` (TLS context, per-thread keep-alive pool), `wire` (request and answer
formats, AwsError), `retries` (what is tried again, backoff), `own_client` (the Client) and
`factory` (`client()`, the one way to make a client).
"""

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
from infra.aws.factory import SWITCH, AwsClient, boto3_client, client
from infra.aws.own_client import CONNECT_TIMEOUT, DEADLINE, READ_TIMEOUT, Client
from infra.aws.retries import MAX_ATTEMPTS, THROTTLING, backoff, retryable
from infra.aws.signing import sign
from infra.aws.wire import AwsError

__all__ = [
    "CONNECT_TIMEOUT",
    "DEADLINE",
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
    "resolve_credentials",
    "resolve_endpoint",
    "resolve_region",
    "retryable",
    "sign",
    "tls_context",
]
