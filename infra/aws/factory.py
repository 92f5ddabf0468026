"""`client(service)`: the one way the bot makes an AWS client."""

from __future__ import annotations

from typing import Any

from infra.aws.config import SERVICES, Credentials, resolve_endpoint, resolve_region
from infra.aws.own_client import Client


def client(service: str, **options: Any) -> Client:
    """A client for `service` ("dynamodb", "sqs" or "secretsmanager"), safe to share.

    Options: region_name, endpoint_url, aws_access_key_id, aws_secret_access_key,
    aws_session_token, connect_timeout, read_timeout, max_attempts, deadline (and clock and
    sleep, for tests). Region, endpoint and credentials otherwise come from the environment.
    """
    if service not in SERVICES:
        raise ValueError(f"no JSON client for {service!r}; known: {', '.join(SERVICES)}")
    spec = SERVICES[service]
    region = resolve_region(options.pop("region_name", None))
    endpoint = options.pop("endpoint_url", None) or resolve_endpoint(spec, region)
    access_key = options.pop("aws_access_key_id", None)
    secret_key = options.pop("aws_secret_access_key", None)
    token = options.pop("aws_session_token", None)
    credentials = Credentials(access_key, secret_key, token) if access_key and secret_key else None
    return Client(spec, region, endpoint, credentials=credentials, **options)
