"""Plugin: no way to real AWS, and one moto server on loopback for the session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from testing import moto_server as moto
from testing.moto_server import REGION

__all__ = ["REGION", "aws_env", "moto_clients", "moto_server"]


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake credentials and no shared AWS config, so nothing can reach real AWS."""
    for name in (
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_DYNAMODB",
        "AWS_ENDPOINT_URL_SQS",
        "AWS_ENDPOINT_URL_SECRETS_MANAGER",
        "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
        "AWS_ROLE_ARN",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SECURITY_TOKEN", "testing")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    """The endpoint URL of a moto server on loopback (DynamoDB, SQS, Secrets Manager), shared
    by the session: tests make their own tables, queues and secrets under fresh names."""
    with moto.serve() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def moto_clients(moto_server: str) -> Callable[[str], Any]:
    """boto3 clients for `moto_server` by service name, made once per session: the tests use
    them to make and inspect what the bot's own client works on."""
    made: dict[str, Any] = {}

    def client(service: str) -> Any:
        if service not in made:
            made[service] = boto3.client(
                service,
                region_name=REGION,
                endpoint_url=moto_server,
                aws_access_key_id="testing",
                aws_secret_access_key="testing",
            )
        return made[service]

    return client
