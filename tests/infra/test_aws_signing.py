"""The bot's own AWS client signs with Signature Version 4 byte for byte as botocore does, and
names each service's target and JSON version as AWS expects (a scripted server on loopback)."""

from __future__ import annotations

import datetime
import json

import botocore.auth
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials

from infra import aws
from infra.aws import Credentials
from testing.moto_server import REGION

from .scripted import (  # noqa: F401 - fixtures
    KEYS,
    Scripted,
    as_options,
    ok,
    own_connections,
)

WITH_TOKEN = Credentials(KEYS.access_key, KEYS.secret_key, "IQoJb3JpZ2luX2VjE//token+/=")
FROZEN = datetime.datetime(2025, 3, 9, 23, 59, 58)
BODY = json.dumps({"TableName": "games", "Key": {"pk": {"S": "game#-100123"}}}).encode()


def botocore_signed(
    url: str, headers: dict[str, str], body: bytes, keys: Credentials, service: str, region: str
) -> dict[str, str]:
    """The headers botocore's SigV4Auth gives the same request (at the time the test froze)."""
    request = AWSRequest(method="POST", url=url, data=body, headers=dict(headers))
    boto_keys = BotoCredentials(keys.access_key, keys.secret_key, keys.token)
    SigV4Auth(boto_keys, service, region).add_auth(request)
    return dict(request.headers.items())


@pytest.mark.parametrize("service", ["dynamodb", "sqs", "secretsmanager"])
@pytest.mark.parametrize("region", ["us-east-1", "eu-central-2"])
@pytest.mark.parametrize("keys", [KEYS, WITH_TOKEN], ids=["keys", "session-token"])
def test_signature_equals_botocores(
    service: str, region: str, keys: Credentials, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: FROZEN)
    spec = aws.SERVICES[service]
    url = aws.resolve_endpoint(spec, region, env={}) + "/"
    headers = {
        "Content-Type": f"application/x-amz-json-{spec.json_version}",
        "X-Amz-Target": f"{spec.target_prefix}.GetItem",
    }
    host = url.split("/")[2]

    ours = aws.sign(keys, region, service, host, "/", headers, BODY, "20250309T235958Z")
    theirs = botocore_signed(url, headers, BODY, keys, service, region)

    assert ours["Authorization"] == theirs["Authorization"]
    assert ours["X-Amz-Date"] == theirs["X-Amz-Date"] == "20250309T235958Z"
    assert ours.get("X-Amz-Security-Token") == theirs.get("X-Amz-Security-Token") == keys.token
    signed = ours["Authorization"].split("SignedHeaders=")[1].split(",")[0]
    expected = "content-type;host;x-amz-date;x-amz-target"
    if keys.token:
        expected = "content-type;host;x-amz-date;x-amz-security-token;x-amz-target"
    assert signed == expected


def test_what_goes_on_the_wire_is_signed_as_botocore_signs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Scripted([ok({"Item": {}})]) as server:
        client = aws.client(
            "dynamodb", region_name="eu-west-1", endpoint_url=server.url, **as_options(WITH_TOKEN)
        )
        client.get_item(TableName="games", Key={"pk": {"S": "k"}})
    (request,) = server.requests
    sent = request.headers
    when = datetime.datetime.strptime(sent["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: when)
    theirs = botocore_signed(
        server.url + "/",
        {"Content-Type": sent["Content-Type"], "X-Amz-Target": sent["X-Amz-Target"]},
        request.body,
        WITH_TOKEN,
        "dynamodb",
        "eu-west-1",
    )

    assert sent["Authorization"] == theirs["Authorization"]
    assert sent["Host"] == server.url.removeprefix("http://")
    assert sent["X-Amz-Target"] == "DynamoDB_20120810.GetItem"
    assert sent["Content-Type"] == "application/x-amz-json-1.0"
    assert json.loads(request.body) == {"TableName": "games", "Key": {"pk": {"S": "k"}}}


def test_targets_and_json_versions_per_service() -> None:
    assert aws.SERVICES["dynamodb"].json_version == "1.0"
    assert aws.SERVICES["sqs"].json_version == "1.0"
    assert aws.SERVICES["secretsmanager"].json_version == "1.1"
    with Scripted([ok({}), ok({})]) as server:
        options = {"region_name": REGION, "endpoint_url": server.url, **as_options(KEYS)}
        aws.client("sqs", **options).send_message(QueueUrl="q", MessageBody="b", DelaySeconds=3)
        aws.client("secretsmanager", **options).call("GetSecretValue", {"SecretId": "s"})
    sqs, secrets = server.requests
    assert sqs.headers["X-Amz-Target"] == "AmazonSQS.SendMessage"
    assert json.loads(sqs.body)["DelaySeconds"] == 3
    assert secrets.headers["X-Amz-Target"] == "secretsmanager.GetSecretValue"
    assert secrets.headers["Content-Type"] == "application/x-amz-json-1.1"
