"""Where the bot's own AWS client goes and as whom: the region, each service's endpoint and the
credentials, from its options, the environment or (for credentials) botocore's search."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra import aws
from infra.aws import Credentials
from testing.moto_server import REGION

from .scripted import own_connections  # noqa: F401 - fixtures


def test_region_comes_from_the_option_then_aws_region_then_the_default() -> None:
    env = {"AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "us-west-2"}

    assert aws.resolve_region("ap-south-1", env) == "ap-south-1"
    assert aws.resolve_region(None, env) == "eu-west-1"
    assert aws.resolve_region(None, {"AWS_DEFAULT_REGION": "us-west-2"}) == "us-west-2"
    with pytest.raises(ValueError, match="AWS_REGION"):
        aws.resolve_region(None, {})


@pytest.mark.parametrize(
    ("service", "suffix", "host"),
    [
        ("dynamodb", "DYNAMODB", "dynamodb"),
        ("sqs", "SQS", "sqs"),
        ("secretsmanager", "SECRETS_MANAGER", "secretsmanager"),
    ],
)
def test_endpoint_per_service_then_shared_then_public(
    service: str, suffix: str, host: str
) -> None:
    spec = aws.SERVICES[service]
    own, shared = "http://127.0.0.1:4566", "http://localhost:9000"

    assert aws.resolve_endpoint(spec, "eu-west-1", {f"AWS_ENDPOINT_URL_{suffix}": own}) == own
    both = {f"AWS_ENDPOINT_URL_{suffix}": own, "AWS_ENDPOINT_URL": shared}
    assert aws.resolve_endpoint(spec, "eu-west-1", both) == own
    assert aws.resolve_endpoint(spec, "eu-west-1", {"AWS_ENDPOINT_URL": shared}) == shared
    public = f"https://{host}.eu-west-1.amazonaws.com"
    assert aws.resolve_endpoint(spec, "eu-west-1", {}) == public
    ignored = {**both, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}
    assert aws.resolve_endpoint(spec, "eu-west-1", ignored) == public


def test_the_other_services_endpoint_is_not_taken() -> None:
    env = {"AWS_ENDPOINT_URL_SQS": "http://127.0.0.1:1"}

    got = aws.resolve_endpoint(aws.SERVICES["dynamodb"], "us-east-1", env)

    assert got == "https://dynamodb.us-east-1.amazonaws.com"


def test_client_takes_region_and_endpoint_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_REGION", "eu-central-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:4566")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL_DYNAMODB", raising=False)

    sqs, dynamodb = aws.client("sqs"), aws.client("dynamodb")

    assert (sqs.region, sqs.endpoint_url) == ("eu-central-1", "http://127.0.0.1:4566")
    assert dynamodb.endpoint_url == "https://dynamodb.eu-central-1.amazonaws.com"
    with pytest.raises(ValueError, match="no JSON client"):
        aws.client("s3")
    with pytest.raises(TypeError):
        aws.client("sqs", config=object())


def test_credentials_from_the_environment_with_or_without_a_session_token() -> None:
    env = {"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"}

    assert aws.resolve_credentials(env) == Credentials("AKID", "secret", None)
    with_token = {**env, "AWS_SESSION_TOKEN": "token"}
    assert aws.resolve_credentials(with_token) == Credentials("AKID", "secret", "token")


@pytest.fixture
def no_env_keys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No keys in the environment and nowhere else botocore could look but a credentials file
    (returned, not yet written)."""
    for name in (
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_SECURITY_TOKEN",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_ROLE_ARN",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ):
        monkeypatch.delenv(name, raising=False)
    credentials = tmp_path / "credentials"
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(credentials))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("BOTO_CONFIG", str(tmp_path / "boto"))
    monkeypatch.setattr(aws.config, "_botocore_credentials", None)
    return credentials


def test_without_keys_in_the_environment_botocore_finds_a_profile(no_env_keys: Path) -> None:
    no_env_keys.write_text(
        "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = from-the-file\n"
    )

    assert aws.resolve_credentials() == Credentials("AKIDFILE", "from-the-file", None)


def test_without_any_credentials_the_error_says_what_to_set(no_env_keys: Path) -> None:
    client = aws.client("dynamodb", region_name=REGION, endpoint_url="http://127.0.0.1:9")

    with pytest.raises(aws.NoCredentials, match="AWS_ACCESS_KEY_ID"):
        client.get_item(TableName="t", Key={"pk": {"S": "k"}})
