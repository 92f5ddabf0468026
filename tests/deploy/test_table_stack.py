"""The table view in the stack: its routes on the webhook's HTTP API (one origin), each fenced
by a throttle of its own, its page's URL as an output and in every function that draws
buttons, its Mini App's short name an optional parameter, its page in the zip; and its GET
routes answer without importing python-telegram-bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from handlers.table.api import ROUTES
from infra import package
from tests.deploy.cfn import target
from tests.deploy.conftest import ROOT, Packaged, zip_texts
from tests.deploy.offline import run_offline

PAGE_URL = {"Fn::Join": ["", [{"Fn::GetAtt": ["HttpApi", "ApiEndpoint"]}, "/table"]]}
DRAWING = ("WebhookLambdaFunction", "TimerLambdaFunction", "TableLambdaFunction")


def test_the_table_routes_go_to_the_table_function_on_the_webhooks_api(packaged: Packaged) -> None:
    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in packaged.of_type("AWS::ApiGatewayV2::Route").values()
        if isinstance(r["Properties"]["RouteKey"], str)
    }
    assert sorted(routes) == sorted(f"{method} {path}" for path, method in ROUTES.items())
    webhook = packaged.resources["HttpApiRoutePostWebhook"]["Properties"]
    for key, route in routes.items():
        assert route["ApiId"] == webhook["ApiId"] == {"Ref": "HttpApi"}, key
        integration = packaged.resources[route["Target"]["Fn::Join"][1][1]["Ref"]]["Properties"]
        assert target(integration["IntegrationUri"]) == "TableLambdaFunction", key
        assert integration["PayloadFormatVersion"] == "2.0"
    function = packaged.resources["TableLambdaFunction"]["Properties"]
    assert function["Handler"] == "handlers.entry.lambda_table.handler"


def test_every_table_route_has_a_throttle_of_its_own_below_the_stages(packaged: Packaged) -> None:
    stage = packaged.resources["HttpApiStage"]
    settings = stage["Properties"]["RouteSettings"]
    assert sorted(settings) == sorted(f"{method} {path}" for path, method in ROUTES.items())
    default = stage["Properties"]["DefaultRouteSettings"]
    for key, limits in settings.items():
        assert set(limits) == {"ThrottlingBurstLimit", "ThrottlingRateLimit"}, key
        assert 0 < limits["ThrottlingRateLimit"] < default["ThrottlingRateLimit"], key
        assert limits["ThrottlingRateLimit"] <= limits["ThrottlingBurstLimit"], key
    # Together the table's routes leave the stage's rate room for Telegram's deliveries.
    total = sum(limits["ThrottlingRateLimit"] for limits in settings.values())
    assert total < default["ThrottlingRateLimit"]
    # Polls come every 1.5-4 s from each open page: the widest fence of the table's.
    assert settings["GET /api/table"] == {"ThrottlingBurstLimit": 40, "ThrottlingRateLimit": 20}
    # A route's settings need the route: the stage waits for each (else the first deploy fails).
    routes = {
        r["Properties"]["RouteKey"]: name
        for name, r in packaged.of_type("AWS::ApiGatewayV2::Route").items()
        if isinstance(r["Properties"]["RouteKey"], str)
    }
    assert sorted(stage["DependsOn"]) == sorted(routes[key] for key in settings)


def test_the_pages_url_is_an_output_and_known_to_every_function_that_draws_buttons(
    packaged: Packaged,
) -> None:
    assert packaged.template["Outputs"]["TableUrl"]["Value"] == PAGE_URL
    for name in DRAWING:
        variables = packaged.resources[name]["Properties"]["Environment"]["Variables"]
        assert variables["TABLE_URL"] == PAGE_URL, name
        assert variables["TABLE_APP"] == {"Ref": "TableApp"}, name


def test_the_mini_apps_short_name_is_an_optional_parameter(packaged: Packaged) -> None:
    parameter = packaged.template["Parameters"]["TableApp"]
    assert parameter["Default"] == ""
    assert parameter["AllowedPattern"] == "^([A-Za-z0-9_]{3,30})?$"


def test_the_package_copies_the_page_beside_the_modules(tmp_path: Path) -> None:
    package.copy_project(tmp_path)
    page = tmp_path / "handlers" / "table" / "static" / "table.html"
    assert (
        page.read_bytes() == (ROOT / "handlers" / "table" / "static" / "table.html").read_bytes()
    )
    assert not list(tmp_path.rglob("*.js")) and not list(tmp_path.rglob("*.json"))


def test_the_zip_carries_the_page_as_it_is_served(packaged: Packaged) -> None:
    shipped = dict(zip_texts(packaged.artifact))
    page = shipped["handlers/table/static/table.html"]
    assert page == (ROOT / "handlers" / "table" / "static" / "table.html").read_bytes()


# Calls the table's entry as API Gateway would, in a fresh process with AWS unreachable, and
# prints its answers and which of the costly modules it imported.
ASK = r"""
import json, sys
from handlers.entry import lambda_table
answers = []
for method, path, query, headers in json.loads(sys.argv[1]):
    event = {"rawPath": path, "rawQueryString": query, "headers": headers,
             "requestContext": {"http": {"method": method, "path": path}}}
    answers.append(lambda_table.handler(event)["statusCode"])
costly = ("telegram", "httpx", "boto3", "botocore")
print(json.dumps({"answers": answers, "imported": [m for m in costly if m in sys.modules]}))
"""


def ask(requests: list[tuple[str, str, str, dict[str, str]]]) -> dict[str, Any]:
    return run_offline(ASK, requests, TELEGRAM_BOT_TOKEN="123456:TEST-TOKEN-not-real")


@pytest.mark.slow
def test_the_get_routes_answer_without_python_telegram_bot() -> None:
    forged = {"authorization": "tma user=%7B%22id%22%3A1%7D&auth_date=1&hash=00"}
    out = ask(
        [
            ("GET", "/table", "", {}),
            ("GET", "/api/table", "g=gm1001_2", {}),
            ("GET", "/api/table", "g=gm1001_2", forged),
            ("GET", "/api/replay", "g=rm1001_2", forged),
            ("POST", "/api/move", "", {}),
            ("GET", "/elsewhere", "", {}),
        ]
    )

    assert out == {"answers": [200, 401, 401, 401, 401, 404], "imported": []}
