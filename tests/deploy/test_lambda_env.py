"""The Lambda entries under the environment serverless.yml gives them.

The variable names and what they point at are read from the generated template; each target is
made on the session's moto server from the template's own properties (the table, the queue, the
two secrets; their names get a fresh suffix), and the bot reaches it through AWS_ENDPOINT_URL.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest

from handlers.entry import lambda_table, setup_telegram, webhook_setup
from handlers.entry import lambda_webhook as lambda_entry
from handlers.table.auth import sign_init_data
from handlers.table.selector import table_selector
from infra import dynamo_store
from testing.drivers import START, FakeClock
from testing.fake_telegram import FakeTelegram
from testing.moto_server import REGION
from tests.deploy.conftest import Packaged

# What lambda_entry reads besides the template's variables; unset, as on AWS.
READ_ELSEWHERE = (
    "TABLE_URL",
    "TABLE_APP",
    "WEBHOOK_SECRET",
    "TELEGRAM_BOT_TOKEN",
    "BOT_USERNAME",
    "TELEGRAM_API_BASE_URL",
    "DECAPITATION_TABLE",
    "TIMER_QUEUE_URL",
    "TELEGRAM_TOKEN_SECRET_ARN",
    "WEBHOOK_SECRET_ARN",
)

Deployed = Callable[[str], dict[str, str]]
API_ENDPOINT = "https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com"


def make_table(props: dict[str, Any], suffix: str) -> str:
    client = boto3.client("dynamodb", region_name=REGION)
    name = f"{props['TableName']}-{suffix}"
    client.create_table(
        TableName=name,
        AttributeDefinitions=props["AttributeDefinitions"],
        KeySchema=props["KeySchema"],
        BillingMode=props["BillingMode"],
    )
    client.update_time_to_live(
        TableName=name, TimeToLiveSpecification=props["TimeToLiveSpecification"]
    )
    return name


def make_queue(props: dict[str, Any], suffix: str) -> str:
    attributes = {"VisibilityTimeout": str(props["VisibilityTimeout"])}
    sqs = boto3.client("sqs", region_name=REGION)
    name = f"{props['QueueName']}-{suffix}"
    return sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]


def make_secret(name: str, props: dict[str, Any], token: str, suffix: str) -> str:
    client = boto3.client("secretsmanager", region_name=REGION)
    if props.get("SecretString") == {"Ref": "TelegramBotToken"}:
        value = token
    else:
        generate = props["GenerateSecretString"]
        value = client.get_random_password(
            PasswordLength=generate["PasswordLength"],
            ExcludePunctuation=generate["ExcludePunctuation"],
            IncludeSpace=generate["IncludeSpace"],
        )["RandomPassword"]
    return client.create_secret(Name=f"{name}-{suffix}", SecretString=value)["ARN"]


@pytest.fixture
def deployed(
    packaged: Packaged,
    aws_env: None,
    moto_server: str,
    fake_telegram: FakeTelegram,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Deployed]:
    """Makes the template's resources on the moto server; call it with a function's logical id
    to get that function's environment, resolved, and set as the process environment."""
    monkeypatch.setattr(dynamo_store, "_client", None)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server)  # for boto3 here and the bot's client
    suffix = uuid.uuid4().hex[:12]
    made: dict[str, str] = {}

    def resolve(logical_id: str) -> str:
        if logical_id not in made:
            resource = packaged.resources[logical_id]
            kind, props = resource["Type"], resource["Properties"]
            if kind == "AWS::DynamoDB::Table":
                made[logical_id] = make_table(props, suffix)
            elif kind == "AWS::SQS::Queue":
                made[logical_id] = make_queue(props, suffix)
            elif kind == "AWS::SecretsManager::Secret":
                made[logical_id] = make_secret(logical_id, props, fake_telegram.token, suffix)
            else:
                raise AssertionError(f"an environment variable points at a {kind}: teach me")
        return made[logical_id]

    def attribute(logical_id: str, name: str) -> str:
        """A custom resource's attribute, as its own code gives it (against the fake)."""
        kind = packaged.resources[logical_id]["Type"]
        assert kind == webhook_setup.BOT_RESOURCE_TYPE, f"a GetAtt of a {kind}: teach me"
        clock = FakeClock(START)  # the call's 30 s budget does not run out while it waits
        api = setup_telegram.BotApi(
            fake_telegram.token, clock() + 30, base_url=fake_telegram.url, clock=clock
        )
        return setup_telegram.identify(api)[name]

    def endpoint(value: dict) -> str:
        """The HTTP API's own address (the one attribute of it a variable reads)."""
        assert value == {"Fn::GetAtt": ["HttpApi", "ApiEndpoint"]}, value
        return API_ENDPOINT

    def environment(function: str) -> dict[str, str]:
        variables = packaged.resources[function]["Properties"]["Environment"]["Variables"]
        env = {}
        for name, value in variables.items():
            if isinstance(value, str):
                env[name] = value
                continue
            if isinstance(value, dict) and list(value) == ["Fn::GetAtt"]:
                env[name] = attribute(*value["Fn::GetAtt"])
                continue
            if isinstance(value, dict) and list(value) == ["Fn::Join"]:
                separator, parts = value["Fn::Join"]
                env[name] = separator.join(
                    part if isinstance(part, str) else endpoint(part) for part in parts
                )
                continue
            assert isinstance(value, dict) and list(value) == ["Ref"], (name, value)
            parameter = packaged.template["Parameters"].get(value["Ref"])
            if parameter is not None:  # a stack parameter: as a first deploy gives it
                env[name] = parameter.get("Default", "")
                continue
            env[name] = resolve(value["Ref"])
        for name in READ_ELSEWHERE:
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return env

    reset()
    try:
        yield environment
    finally:
        reset()
        remove(packaged, made)


def remove(packaged: Packaged, made: dict[str, str]) -> None:
    """Delete what `deployed` made on the session's moto server."""
    for logical_id, made_as in made.items():
        kind = packaged.resources[logical_id]["Type"]
        if kind == "AWS::DynamoDB::Table":
            boto3.client("dynamodb", region_name=REGION).delete_table(TableName=made_as)
        elif kind == "AWS::SQS::Queue":
            boto3.client("sqs", region_name=REGION).delete_queue(QueueUrl=made_as)
        else:
            boto3.client("secretsmanager", region_name=REGION).delete_secret(
                SecretId=made_as, ForceDeleteWithoutRecovery=True
            )


def reset() -> None:
    """A cold start: no Application, token or webhook secret kept from before."""
    if hasattr(lambda_entry, "reset"):
        lambda_entry.reset()
    else:
        lambda_entry._state.clear()


def secret_value(arn: str) -> str:
    client = boto3.client("secretsmanager", region_name=REGION)
    return client.get_secret_value(SecretId=arn)["SecretString"]


def http_event(body: str, secret: str | None) -> dict[str, Any]:
    """An HTTP API (payload 2.0) request as API Gateway hands it to the webhook function."""
    headers = {"content-type": "application/json"}
    if secret is not None:
        headers["x-telegram-bot-api-secret-token"] = secret
    return {
        "version": "2.0",
        "routeKey": "POST /webhook",
        "rawPath": "/webhook",
        "headers": headers,
        "body": body,
        "isBase64Encoded": False,
        "requestContext": {"http": {"method": "POST", "path": "/webhook"}},
    }


def test_the_webhook_refuses_a_wrong_or_missing_secret(deployed: Deployed) -> None:
    env = deployed("WebhookLambdaFunction")
    secret = secret_value(env["WEBHOOK_SECRET_ARN"])
    update = json.dumps({"update_id": 1})

    assert lambda_entry.webhook(http_event(update, None))["statusCode"] == 403
    assert lambda_entry.webhook(http_event(update, "wrong"))["statusCode"] == 403
    assert lambda_entry.webhook(http_event(update, secret[:-1]))["statusCode"] == 403
    # The right secret gets past the check: this body is then refused as no update.
    assert lambda_entry.webhook(http_event("[]", secret))["body"] == "not an update"


def test_the_webhook_runs_an_update_under_the_deployed_environment(
    deployed: Deployed, fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = deployed("WebhookLambdaFunction")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", fake_telegram.url)  # the one test-only value
    secret = secret_value(env["WEBHOOK_SECRET_ARN"])
    alice = fake_telegram.add_user("Alice", started=True)
    group = fake_telegram.add_group("Friday games", [alice])
    fake_telegram.send_text(alice, group, "/newgame")
    (update,) = fake_telegram.next_updates()
    asked = len(fake_telegram.calls_to("getMe"))  # once, by the deploy's TelegramBot resource

    answer = lambda_entry.webhook(http_event(json.dumps(update), secret))

    assert answer["statusCode"] == 200, answer
    assert fake_telegram.texts(group), "the bot said nothing in the group"
    # The cold start knew the bot's username from the stack: it asked Telegram nothing.
    assert env["BOT_USERNAME"] and len(fake_telegram.calls_to("getMe")) == asked
    table = boto3.client("dynamodb", region_name=REGION).scan(TableName=env["DECAPITATION_TABLE"])
    assert table["Count"] >= 1, "nothing was stored in the deployed table"
    fake_telegram.assert_no_refused()


def test_the_timer_runs_under_the_deployed_environment(
    deployed: Deployed, fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    deployed("TimerLambdaFunction")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", fake_telegram.url)
    record = {"messageId": "m1", "body": json.dumps({"chat": -4100000999, "due": 0})}

    assert lambda_entry.timer({"Records": [record]}) == {"batchItemFailures": []}
    fake_telegram.assert_no_refused()


def table_event(method: str, path: str, query: str = "", body: str = "", **headers: str):
    """A request to the table's routes as API Gateway hands it to the table function."""
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": query,
        "headers": {k.replace("_", "-"): v for k, v in headers.items()},
        "body": body,
        "isBase64Encoded": False,
        "requestContext": {"http": {"method": method, "path": path}},
    }


def test_the_table_answers_under_the_deployed_environment(
    deployed: Deployed, fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = deployed("TableLambdaFunction")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", fake_telegram.url)
    assert env["TABLE_URL"] == API_ENDPOINT + "/table" and env["TABLE_APP"] == ""
    stranger = {"id": fake_telegram.add_user("Zoe").id, "first_name": "Zoe"}
    init = sign_init_data(fake_telegram.token, stranger, None, int(time.time()))
    group = fake_telegram.add_group("Elsewhere", [fake_telegram.add_user("Ann", started=True)])
    selector = table_selector(group.id, 1)  # a group the stranger is not in
    move = json.dumps({"g": selector, "move_id": "m1", "version": "v1", "move": {"kind": "done"}})

    page = lambda_table.handler(table_event("GET", "/table"))
    view = lambda_table.handler(
        table_event("GET", "/api/table", f"g={selector}", authorization=f"tma {init}")
    )
    moved = lambda_table.handler(
        table_event("POST", "/api/move", body=move, authorization=f"tma {init}")
    )
    forged = lambda_table.handler(
        table_event("GET", "/api/table", f"g={selector}", authorization="tma user=1&hash=0")
    )

    assert page["statusCode"] == 200 and page["body"].startswith("<!doctype html>")
    assert (view["statusCode"], json.loads(view["body"])) == (403, {"error": "not_yours"})
    assert (moved["statusCode"], moved["body"]) == (view["statusCode"], view["body"])
    assert forged["statusCode"] == 401
    fake_telegram.assert_no_refused()
