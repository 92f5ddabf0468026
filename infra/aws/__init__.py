"""A small signed JSON client for the AWS calls the bot makes: DynamoDB GetItem, BatchGetItem,
PutItem and DeleteItem, SQS SendMessage, Secrets Manager GetSecretValue.

Decision: this client, standard library only, stays the default. On a cold start, where the bot
is slow, it costs 38 ms to import and 4 ms for a first GetItem, against 116 + 63 ms for boto3
and 102 + 61 ms for botocore (bench/aws_client.py: fresh processes, moto on loopback, medians);
warm calls cost the same. It is held to botocore where that matters: it retries what botocore
retries and nothing else, refuses endpoints it would have to guess (FIPS, dual-stack, other
partitions), drops connections idle for longer than a frozen Lambda's survive, and bounds each
call by a deadline (a DynamoDB answer, due in milliseconds, by 2 s, so a stalled write is sent
again within it). DECAPITATION_AWS_CLIENT=boto3 makes `client()` return boto3's clients for
anything beyond that. botocore is otherwise imported only to find credentials when the
environment holds none (a laptop with a profile, never Lambda).

Modules, each of one job: `config` (services, region, endpoint, credentials), `signing`
(SigV4), `connections` (TLS context, per-thread keep-alive pool), `wire` (request and answer
formats, AwsError), `retries` (what is tried again, backoff), `own_client` (the Client) and
`factory` (`client()`, the one way to make a client, own or boto3's).
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
