"""Where the bot's own AWS client sends its calls: botocore's endpoint in every region of the
standard partition, an explicit endpoint for anything, and a clear refusal for what it would
have to guess (FIPS, dual-stack, other partitions, malformed regions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import botocore
import botocore.session
import pytest

from infra import aws

SUFFIXES = {"dynamodb": "DYNAMODB", "sqs": "SQS", "secretsmanager": "SECRETS_MANAGER"}


@pytest.fixture(scope="module")
def standard_partition() -> dict[str, Any]:
    """botocore's own description of the standard partition (`aws`), read from its data files
    here rather than at import, so that a botocore that moved it fails these tests only."""
    partitions = json.loads(
        (Path(botocore.__file__).parent / "data" / "partitions.json").read_text()
    )
    (standard,) = [partition for partition in partitions["partitions"] if partition["id"] == "aws"]
    return standard


def test_the_standard_partitions_regions_are_botocores(standard_partition: dict[str, Any]) -> None:
    assert aws.config.STANDARD_REGION.pattern == standard_partition["regionRegex"]
    assert standard_partition["outputs"]["dnsSuffix"] == "amazonaws.com"


@pytest.mark.parametrize("service", sorted(aws.SERVICES))
def test_every_standard_region_gets_botocores_endpoint(
    service: str, aws_env: None, standard_partition: dict[str, Any]
) -> None:
    session = botocore.session.get_session()
    regions = sorted(region for region in standard_partition["regions"] if region != "aws-global")
    for region in regions:
        theirs = session.create_client(service, region_name=region).meta.endpoint_url

        assert aws.resolve_endpoint(aws.SERVICES[service], region, {}) == theirs


@pytest.mark.parametrize(
    "region",
    [
        "cn-north-1",
        "cn-northwest-1",
        "us-gov-west-1",
        "us-gov-east-1",
        "us-iso-east-1",
        "us-isob-east-1",
        "us-isof-south-1",
        "eu-isoe-west-1",
        "eusc-de-east-1",
        "aws-global",
        "local",
        "US-EAST-1",
        "us-east",
        "us-east-1 ",
        "us-east-1\n",
        "us-east-1.evil.example",
        "us-east-1/../x",
        "eu-wëst-1",
    ],
)
@pytest.mark.parametrize("service", sorted(aws.SERVICES))
def test_a_region_outside_the_standard_partition_is_refused(service: str, region: str) -> None:
    with pytest.raises(aws.UnsupportedEndpoint) as raised:
        aws.resolve_endpoint(aws.SERVICES[service], region, {})

    message = str(raised.value)
    assert repr(region) in message and "partition" in message
    assert f"AWS_ENDPOINT_URL_{SUFFIXES[service]}" in message and "boto3" in message
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    ("variable", "named"),
    [("AWS_USE_FIPS_ENDPOINT", "FIPS"), ("AWS_USE_DUALSTACK_ENDPOINT", "dual-stack")],
)
@pytest.mark.parametrize("value", ["true", "TRUE", "True"])
def test_fips_and_dual_stack_are_refused(variable: str, named: str, value: str) -> None:
    with pytest.raises(aws.UnsupportedEndpoint) as raised:
        aws.resolve_endpoint(aws.SERVICES["dynamodb"], "us-east-1", {variable: value})

    message = str(raised.value)
    assert named in message and variable in message
    assert "AWS_ENDPOINT_URL_DYNAMODB" in message and "boto3" in message


@pytest.mark.parametrize("variable", ["AWS_USE_FIPS_ENDPOINT", "AWS_USE_DUALSTACK_ENDPOINT"])
def test_fips_or_dual_stack_switched_off_is_the_public_endpoint(variable: str) -> None:
    got = aws.resolve_endpoint(aws.SERVICES["sqs"], "eu-west-1", {variable: "false"})

    assert got == "https://sqs.eu-west-1.amazonaws.com"


def test_everything_refused_is_named_at_once() -> None:
    env = {"AWS_USE_FIPS_ENDPOINT": "true", "AWS_USE_DUALSTACK_ENDPOINT": "true"}

    with pytest.raises(aws.UnsupportedEndpoint) as raised:
        aws.resolve_endpoint(aws.SERVICES["sqs"], "cn-north-1", env)

    message = str(raised.value)
    assert "FIPS" in message and "dual-stack" in message and "'cn-north-1'" in message


@pytest.mark.parametrize(
    "env",
    [
        {"AWS_ENDPOINT_URL_DYNAMODB": "https://dynamodb.cn-north-1.amazonaws.com.cn"},
        {"AWS_ENDPOINT_URL": "https://dynamodb.cn-north-1.amazonaws.com.cn"},
    ],
)
def test_an_explicit_endpoint_works_for_anything(env: dict[str, str]) -> None:
    env = {**env, "AWS_USE_FIPS_ENDPOINT": "true", "AWS_USE_DUALSTACK_ENDPOINT": "true"}

    got = aws.resolve_endpoint(aws.SERVICES["dynamodb"], "cn-north-1", env)

    assert got == "https://dynamodb.cn-north-1.amazonaws.com.cn"


def test_the_client_is_refused_when_made_not_at_its_first_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL_SECRETS_MANAGER", raising=False)
    monkeypatch.setenv("AWS_USE_FIPS_ENDPOINT", "true")

    with pytest.raises(aws.UnsupportedEndpoint, match="AWS_ENDPOINT_URL_SECRETS_MANAGER"):
        aws.client("secretsmanager", region_name="us-east-1")
    given = aws.client(
        "secretsmanager", region_name="us-gov-west-1", endpoint_url="http://[::1]:9"
    )
    assert given.endpoint_url == "http://[::1]:9"
