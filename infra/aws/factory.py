"""`client(service)`: the one way the bot makes an AWS client, its own or, if asked, boto3's."""

from __future__ import annotations

import os
from typing import Any, Protocol

from infra.aws.config import SERVICES, Credentials, resolve_endpoint, resolve_region
from infra.aws.own_client import CONNECT_TIMEOUT, DYNAMODB_READ_TIMEOUT, READ_TIMEOUT, Client
from infra.aws.retries import MAX_ATTEMPTS

SWITCH = "DECAPITATION_AWS_CLIENT"  # "own" (the default) or "boto3"
CHOICES = ("own", "boto3")
READ_TIMEOUTS = {"dynamodb": DYNAMODB_READ_TIMEOUT}  # by service; READ_TIMEOUT for the others


def read_timeout(service: str) -> float:
    """Seconds a call to `service` waits for each read of its answer, both clients alike."""
    return READ_TIMEOUTS.get(service, READ_TIMEOUT)


class AwsClient(Protocol):
    """The calls the bot makes; the bot's own Client and boto3's clients both have them."""

    def get_item(self, **params: Any) -> dict[str, Any]: ...
    def batch_get_item(self, **params: Any) -> dict[str, Any]: ...
    def put_item(self, **params: Any) -> dict[str, Any]: ...
    def delete_item(self, **params: Any) -> dict[str, Any]: ...
    def transact_write_items(self, **params: Any) -> dict[str, Any]: ...
    def send_message(self, **params: Any) -> dict[str, Any]: ...
    def get_secret_value(self, **params: Any) -> dict[str, Any]: ...


def client(service: str, **options: Any) -> AwsClient:
    """A client for `service` ("dynamodb", "sqs", "secretsmanager"), safe to share: the bot's
    own, or boto3's under DECAPITATION_AWS_CLIENT=boto3; the environment gives what is not."""
    # Options: region_name, endpoint_url, aws_access_key_id, aws_secret_access_key,
    # aws_session_token, connect_timeout, read_timeout, max_attempts; for the own client also
    # deadline, clock and sleep.
    if service not in SERVICES:
        raise ValueError(f"no JSON client for {service!r}; known: {', '.join(SERVICES)}")
    choice = os.environ.get(SWITCH, "").strip().lower() or "own"
    if choice not in CHOICES:
        raise ValueError(f"{SWITCH}={choice!r}: expected one of {', '.join(map(repr, CHOICES))}")
    region = resolve_region(options.pop("region_name", None))
    options.setdefault("read_timeout", read_timeout(service))
    if choice == "boto3":
        return boto3_client(service, region, **options)
    spec = SERVICES[service]
    endpoint = options.pop("endpoint_url", None) or resolve_endpoint(spec, region)
    access_key = options.pop("aws_access_key_id", None)
    secret_key = options.pop("aws_secret_access_key", None)
    token = options.pop("aws_session_token", None)
    credentials = Credentials(access_key, secret_key, token) if access_key and secret_key else None
    return Client(spec, region, endpoint, credentials=credentials, **options)


def boto3_client(service: str, region: str, **options: Any) -> AwsClient:
    """boto3's client for `service` in `region`, with the own client's timeouts (the service's
    read timeout) and attempts (botocore's standard retries); botocore resolves endpoint and
    credentials itself."""
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=options.pop("connect_timeout", CONNECT_TIMEOUT),
        read_timeout=options.pop("read_timeout", read_timeout(service)),
        retries={
            "mode": "standard",
            "total_max_attempts": options.pop("max_attempts", MAX_ATTEMPTS),
        },
    )
    return boto3.client(service, region_name=region, config=config, **options)
