"""Which services the client speaks to, where (region and endpoint) and as whom (credentials)."""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Service:
    """How one AWS service takes JSON calls."""

    name: str  # endpoint prefix and signing name
    env_suffix: str  # AWS_ENDPOINT_URL_<env_suffix>
    json_version: str  # x-amz-json-<version>
    target_prefix: str  # X-Amz-Target: <prefix>.<Operation>


SERVICES = {
    "dynamodb": Service("dynamodb", "DYNAMODB", "1.0", "DynamoDB_20120810"),
    "sqs": Service("sqs", "SQS", "1.0", "AmazonSQS"),
    "secretsmanager": Service("secretsmanager", "SECRETS_MANAGER", "1.1", "secretsmanager"),
}


@dataclass(frozen=True)
class Credentials:
    """An access key, its secret and, for temporary credentials, the session token."""

    access_key: str
    secret_key: str
    token: str | None = None


class NoCredentials(RuntimeError):
    """Neither the environment nor botocore's resolver had credentials."""


class UnsupportedEndpoint(ValueError):
    """An endpoint the client would have to guess: FIPS, dual-stack, another partition."""


# The regions of the standard partition ("aws" in botocore's data/partitions.json), whose
# endpoints are https://<service>.<region>.amazonaws.com for the three services.
STANDARD_REGION = re.compile(r"^(us|eu|ap|sa|ca|me|af|il|mx)\-\w+\-\d+$", re.ASCII)


def resolve_region(region: str | None = None, env: Any = os.environ) -> str:
    """`region`, else AWS_REGION (set by Lambda), else AWS_DEFAULT_REGION."""
    found = region or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if not found:
        raise ValueError("no AWS region: set AWS_REGION or AWS_DEFAULT_REGION")
    return found


def resolve_endpoint(service: Service, region: str, env: Any = os.environ) -> str:
    """AWS_ENDPOINT_URL_<SERVICE>, else AWS_ENDPOINT_URL, else the service's public endpoint in
    the standard partition; UnsupportedEndpoint for one the client would have to guess."""
    if env.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() != "true":
        configured = env.get(f"AWS_ENDPOINT_URL_{service.env_suffix}") or env.get(
            "AWS_ENDPOINT_URL"
        )
        if configured:
            return configured
    refused = [
        f"{what} endpoints ({variable}=true)"
        for what, variable in (
            ("FIPS", "AWS_USE_FIPS_ENDPOINT"),
            ("dual-stack", "AWS_USE_DUALSTACK_ENDPOINT"),
        )
        if env.get(variable, "").lower() == "true"
    ]
    if not STANDARD_REGION.fullmatch(region):
        refused.append(f"region {region!r} (not of the standard aws partition)")
    if refused:
        raise UnsupportedEndpoint(
            f"the bot's own AWS client does not guess {service.name} endpoints for "
            f"{' and '.join(refused)}: set AWS_ENDPOINT_URL_{service.env_suffix} "
            "(or AWS_ENDPOINT_URL), or use boto3 (DECAPITATION_AWS_CLIENT=boto3)"
        )
    return f"https://{service.name}.{region}.amazonaws.com"


_botocore_credentials: Any = None
_credentials_lock = threading.Lock()


def resolve_credentials(env: Any = os.environ) -> Credentials:
    """The environment's keys (what Lambda gives), else whatever botocore's resolver finds."""
    access_key, secret_key = env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY")
    if access_key and secret_key:
        return Credentials(access_key, secret_key, env.get("AWS_SESSION_TOKEN") or None)
    global _botocore_credentials
    with _credentials_lock:
        if _botocore_credentials is None:
            try:
                import botocore.session
            except ImportError:
                raise NoCredentials(
                    "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                ) from None
            _botocore_credentials = botocore.session.get_session().get_credentials()
        if _botocore_credentials is None:
            raise NoCredentials(
                "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                "or configure a profile"
            )
        frozen = _botocore_credentials.get_frozen_credentials()  # refreshes when due
    return Credentials(frozen.access_key, frozen.secret_key, frozen.token or None)
