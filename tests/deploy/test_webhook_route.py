"""The webhook's route: its path ends in a segment made at deploy, so API Gateway answers any
other call 404 without running the function (nor counting against Telegram's throttle and
concurrency); and a call that reaches the function without the secret is refused before
python-telegram-bot is imported or Secrets Manager is read."""

from __future__ import annotations

import json
from typing import Any

import pytest

from handlers.entry import webhook_setup
from tests.deploy.conftest import Packaged
from tests.deploy.offline import run_offline

SEGMENT = {"Fn::GetAtt": ["WebhookPath", "Segment"]}


def test_the_webhooks_only_route_ends_in_the_path_made_at_deploy(packaged: Packaged) -> None:
    routes = packaged.of_type("AWS::ApiGatewayV2::Route")
    keys = [r["Properties"]["RouteKey"] for r in routes.values()]
    assert not [k for k in keys if isinstance(k, str) and not k.startswith(("GET /", "POST /"))]
    webhook = [k for k in keys if not isinstance(k, str) or "/webhook" in k]
    assert len(webhook) == 1  # no $default, no other path to the webhook (the rest: the table's)
    key = routes["HttpApiRoutePostWebhook"]["Properties"]["RouteKey"]
    assert key == {"Fn::Join": ["", ["POST /webhook/", SEGMENT]]}  # a literal: no {parameter}
    path = packaged.resources["WebhookPath"]
    assert path["Type"] == webhook_setup.PATH_RESOURCE_TYPE
    assert path["Properties"]["ServiceToken"] == {
        "Fn::GetAtt": ["WebhookSetupLambdaFunction", "Arn"]
    }
    # Its only property is the function: nothing that changes makes another path.
    assert set(path["Properties"]) <= {"ServiceToken", "ServiceTimeout"}


def test_telegram_is_told_the_same_path(packaged: Packaged) -> None:
    url = packaged.resources["TelegramWebhook"]["Properties"]["WebhookUrl"]
    api = {"Fn::GetAtt": ["HttpApi", "ApiEndpoint"]}
    assert url == {"Fn::Join": ["", [api, "/webhook/", SEGMENT]]}


def test_the_path_is_in_no_output(packaged: Packaged) -> None:
    assert "WebhookPath" not in json.dumps(packaged.template.get("Outputs", {}))


def reads(node: Any) -> list[tuple[str, str]]:
    """Every (resource, attribute) a template's Fn::GetAtt reads."""
    if isinstance(node, dict):
        found = [tuple(node["Fn::GetAtt"])] if "Fn::GetAtt" in node else []
        return found + [r for value in node.values() for r in reads(value)]
    if isinstance(node, list):
        return [r for value in node for r in reads(value)]
    return []


def test_the_template_reads_only_what_every_custom_resource_answer_carries(
    packaged: Packaged,
) -> None:
    custom = {
        k: v["Type"] for k, v in packaged.resources.items() if v["Type"].startswith("Custom::")
    }
    assert set(custom.values()) == set(webhook_setup.ATTRIBUTES)
    read = {(name, attr) for name, attr in reads(packaged.template) if name in custom}
    assert read  # the functions' BOT_USERNAME and the route's path at least
    for name, attribute in read:
        assert attribute in webhook_setup.ATTRIBUTES[custom[name]], (name, attribute)


# Calls the webhook entry as API Gateway would, in a fresh process, and prints its answers and
# which of the costly modules it imported.
REFUSE = r"""
import json, sys
from handlers.entry import lambda_webhook
answers = [
    lambda_webhook.webhook({"headers": headers, "body": '{"update_id": 1}'})["statusCode"]
    for headers in json.loads(sys.argv[1])
]
costly = ("telegram", "httpx", "infra.aws", "boto3", "botocore", "handlers.telegram")
print(json.dumps({"answers": answers, "imported": [m for m in costly if m in sys.modules]}))
"""


def refuse(headers: list[dict[str, str]], **env: str) -> dict[str, Any]:
    return run_offline(REFUSE, headers, **env)


SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:webhook-secret-GhIjKl"


@pytest.mark.slow
def test_a_call_without_the_secret_is_refused_before_telegram_or_secrets_manager() -> None:
    headers = [{}, {"X-Telegram-Bot-Api-Secret-Token": ""}, {"content-type": "text/plain"}]

    out = refuse(headers, WEBHOOK_SECRET_ARN=SECRET_ARN, TELEGRAM_TOKEN_SECRET_ARN=SECRET_ARN)

    assert out == {"answers": [403, 403, 403], "imported": []}


@pytest.mark.slow
def test_a_wrong_secret_is_refused_before_telegram_is_imported() -> None:
    out = refuse([{"x-telegram-bot-api-secret-token": "guessed"}], WEBHOOK_SECRET="the-secret")

    assert out == {"answers": [403], "imported": []}
