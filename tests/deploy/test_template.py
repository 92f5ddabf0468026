"""The CloudFormation template that `serverless package` generates: lint, its resources and how
they are wired (route, table, queue, logs, alarms).

Its IAM, secrets and Lambda zip: test_template_iam.py, test_template_secrets.py and
test_lambda_zip.py.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from handlers.storage.owed import LEASE
from handlers.table.api import ROUTES
from tests.deploy.cfn import target
from tests.deploy.conftest import Packaged

TABLE_ROUTE_KEYS = [f"{method} {path}" for path, method in ROUTES.items()]
# cfn-lint's console entry, run by this interpreter (cfnlint has no __main__).
CFN_LINT = "import sys; from cfnlint.runner import main; sys.exit(main())"


def test_cfn_lint_finds_nothing_but_redundant_depends_on(packaged: Packaged) -> None:
    pytest.importorskip("cfnlint", reason="cfn-lint is not installed (pip install -e '.[dev]')")
    template = str(packaged.template_path)
    result = subprocess.run(
        [sys.executable, "-c", CFN_LINT, "--ignore-checks", "W3005", "--", template],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_resources_are_the_expected_ones(packaged: Packaged) -> None:
    kinds = sorted(f"{k} {v['Type']}" for k, v in packaged.resources.items())
    expected = {
        "HttpApi AWS::ApiGatewayV2::Api",
        "HttpApiStage AWS::ApiGatewayV2::Stage",
        "HttpApiIntegrationWebhook AWS::ApiGatewayV2::Integration",
        "HttpApiRoutePostWebhook AWS::ApiGatewayV2::Route",
        "WebhookLambdaPermissionHttpApi AWS::Lambda::Permission",
        "HttpApiIntegrationTable AWS::ApiGatewayV2::Integration",
        "HttpApiRouteGetTable AWS::ApiGatewayV2::Route",
        "HttpApiRouteGetApiTable AWS::ApiGatewayV2::Route",
        "HttpApiRoutePostApiMove AWS::ApiGatewayV2::Route",
        "HttpApiRouteGetApiReplay AWS::ApiGatewayV2::Route",
        "TableLambdaPermissionHttpApi AWS::Lambda::Permission",
        "TimerEventSourceMappingSQSTimerQueue AWS::Lambda::EventSourceMapping",
        "GamesTable AWS::DynamoDB::Table",
        "TimerQueue AWS::SQS::Queue",
        "TimerDeadLetterQueue AWS::SQS::Queue",
        "BotTokenSecret AWS::SecretsManager::Secret",
        "WebhookSecret AWS::SecretsManager::Secret",
        "TelegramWebhook Custom::TelegramWebhook",
        "TelegramBot Custom::TelegramBot",
        "WebhookPath Custom::WebhookPath",
        "GivenUpUpdatesFilter AWS::Logs::MetricFilter",
        "GivenUpUpdatesAlarm AWS::CloudWatch::Alarm",
        "UnreadableItemsWebhookFilter AWS::Logs::MetricFilter",
        "UnreadableItemsTableFilter AWS::Logs::MetricFilter",
        "UnreadableItemsTimerFilter AWS::Logs::MetricFilter",
        "UnreadableItemsAlarm AWS::CloudWatch::Alarm",
        "ServerlessDeploymentBucket AWS::S3::Bucket",
        "ServerlessDeploymentBucketPolicy AWS::S3::BucketPolicy",
        "AlarmTopic AWS::SNS::Topic",
        "AlarmEmailSubscription AWS::SNS::Subscription",
        *(f"{name}Alarm AWS::CloudWatch::Alarm" for name in ALARMS),
    }
    for function in ("Webhook", "Timer", "Table", "WebhookSetup"):
        expected |= {
            f"{function}LambdaFunction AWS::Lambda::Function",
            f"{function}LogGroup AWS::Logs::LogGroup",
            f"{function}Role AWS::IAM::Role",
        }
    assert kinds == sorted(expected)


# What pages someone: the alarm, and the metric it watches on which resource.
ALARMS = {
    "TimerDeadLetters": ("AWS/SQS", "ApproximateNumberOfMessagesVisible", "TimerDeadLetterQueue"),
    "OldestTimer": ("AWS/SQS", "ApproximateAgeOfOldestMessage", "TimerQueue"),
    "WebhookErrors": ("AWS/Lambda", "Errors", "WebhookLambdaFunction"),
    "Webhook5xx": ("AWS/ApiGateway", "5xx", "HttpApi"),
    "TimerErrors": ("AWS/Lambda", "Errors", "TimerLambdaFunction"),
    "TableErrors": ("AWS/Lambda", "Errors", "TableLambdaFunction"),
    "WebhookThrottles": ("AWS/Lambda", "Throttles", "WebhookLambdaFunction"),
    "TimerThrottles": ("AWS/Lambda", "Throttles", "TimerLambdaFunction"),
}


def test_every_alarm_watches_its_metric_and_tells_the_topic(packaged: Packaged) -> None:
    for name, (namespace, metric, watched) in ALARMS.items():
        props = packaged.resources[f"{name}Alarm"]["Properties"]
        assert (props["Namespace"], props["MetricName"]) == (namespace, metric), name
        assert watched in str(props["Dimensions"][0]["Value"]), name
        assert props["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
        assert props["TreatMissingData"] == "notBreaching", name
    # The oldest timer is older than SQS's longest delay (15 minutes) only if timers stall.
    assert packaged.resources["OldestTimerAlarm"]["Properties"]["Threshold"] > 900


def test_the_alarm_email_is_optional(packaged: Packaged) -> None:
    parameter = packaged.template["Parameters"]["AlarmEmail"]
    assert parameter["Default"] == ""
    subscription = packaged.resources["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail"
    assert subscription["Properties"]["Endpoint"] == {"Ref": "AlarmEmail"}


def test_telegram_opens_no_more_connections_than_the_functions_may_run(packaged: Packaged) -> None:
    # A new account's concurrency quota may be 10: the webhook's connections and the timer's
    # concurrency together stay within it.
    connections = int(packaged.resources["TelegramWebhook"]["Properties"]["MaxConnections"])
    mapping = packaged.resources["TimerEventSourceMappingSQSTimerQueue"]["Properties"]
    assert connections + mapping["ScalingConfig"]["MaximumConcurrency"] <= 10


def test_the_functions_log_json_lines(packaged: Packaged) -> None:
    for name, function in packaged.of_type("AWS::Lambda::Function").items():
        assert function["Properties"]["LoggingConfig"]["LogFormat"] == "JSON", name


def test_the_webhook_is_one_post_route_to_the_webhook_function(packaged: Packaged) -> None:
    routes = packaged.of_type("AWS::ApiGatewayV2::Route")
    made = {k: r for k, r in routes.items() if "Fn::Join" in r["Properties"]["RouteKey"]}
    keys = [r["Properties"]["RouteKey"]["Fn::Join"][1][0] for r in made.values()]
    assert keys == ["POST /webhook/"]  # then the path made at deploy (test_webhook_route.py)
    assert all(key.startswith(("GET /", "POST /api/")) for key in TABLE_ROUTE_KEYS)
    assert sorted(r["Properties"]["RouteKey"] for k, r in routes.items() if k not in made) == (
        sorted(TABLE_ROUTE_KEYS)  # the table view's (test_table_stack.py)
    )
    route = next(iter(made.values()))["Properties"]
    integration_id = route["Target"]["Fn::Join"][1][1]["Ref"]
    integration = packaged.resources[integration_id]["Properties"]
    assert target(integration["IntegrationUri"]) == "WebhookLambdaFunction"
    assert integration["PayloadFormatVersion"] == "2.0"
    permission = packaged.resources["WebhookLambdaPermissionHttpApi"]["Properties"]
    assert target(permission["FunctionName"]) == "WebhookLambdaFunction"
    assert permission["Principal"] == "apigateway.amazonaws.com"


def test_a_delivery_lease_outlasts_the_longest_run(packaged: Packaged) -> None:
    # A batch is taken over only once the run that owes it can no longer be alive.
    timeouts = [
        f["Properties"]["Timeout"]
        for name, f in packaged.of_type("AWS::Lambda::Function").items()
        if name in ("WebhookLambdaFunction", "TimerLambdaFunction", "TableLambdaFunction")
    ]
    assert len(timeouts) == 3 and max(timeouts) < LEASE


def test_functions_run_python_312_on_arm64(packaged: Packaged) -> None:
    for name, function in packaged.of_type("AWS::Lambda::Function").items():
        props = function["Properties"]
        assert props["Runtime"] == "python3.12", name
        assert props["Architectures"] == ["arm64"], name
        assert props["Timeout"] <= 60, name


def test_the_games_table(packaged: Packaged) -> None:
    props = packaged.resources["GamesTable"]["Properties"]
    assert props["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"}]
    assert props["AttributeDefinitions"] == [{"AttributeName": "pk", "AttributeType": "S"}]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}


def test_the_timer_queue_feeds_the_timer_function_with_a_dead_letter_queue(
    packaged: Packaged,
) -> None:
    mappings = packaged.of_type("AWS::Lambda::EventSourceMapping")
    assert len(mappings) == 1
    mapping = next(iter(mappings.values()))["Properties"]
    assert target(mapping["EventSourceArn"]) == "TimerQueue"
    assert target(mapping["FunctionName"]) == "TimerLambdaFunction"
    assert 1 <= mapping["BatchSize"] <= 10
    queue = packaged.resources["TimerQueue"]["Properties"]
    timer = packaged.resources["TimerLambdaFunction"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * timer["Timeout"]
    assert target(queue["RedrivePolicy"]["deadLetterTargetArn"]) == "TimerDeadLetterQueue"
    assert 1 < queue["RedrivePolicy"]["maxReceiveCount"] <= 10
    # The bot's timers are per-message delays of at most 15 minutes: a standard queue.
    assert not queue.get("FifoQueue")
    assert queue.get("DelaySeconds", 0) == 0


def test_every_function_logs_to_its_own_group_kept_14_days(packaged: Packaged) -> None:
    groups = packaged.of_type("AWS::Logs::LogGroup")
    for name, function in packaged.of_type("AWS::Lambda::Function").items():
        group = name.removesuffix("LambdaFunction") + "LogGroup"
        assert group in function["DependsOn"]
        expected = f"/aws/lambda/{function['Properties']['FunctionName']}"
        assert groups[group]["Properties"]["LogGroupName"] == expected
        assert groups[group]["Properties"]["RetentionInDays"] == 14


def test_the_webhook_reserves_concurrency_only_when_the_deploy_asks(packaged: Packaged) -> None:
    # A new account's quota may be 10, all of which AWS keeps unreserved: by default nothing is
    # reserved, so the deploy fits; WEBHOOK_RESERVED_CONCURRENCY at deploy reserves that many.
    parameter = packaged.template["Parameters"]["WebhookReservedConcurrency"]
    assert (parameter["Type"], str(parameter["Default"]), parameter["MinValue"]) == (
        "Number",
        "0",
        0,
    )
    condition = packaged.template["Conditions"]["HasWebhookReservation"]
    assert condition == {"Fn::Not": [{"Fn::Equals": [{"Ref": "WebhookReservedConcurrency"}, "0"]}]}
    webhook = packaged.resources["WebhookLambdaFunction"]["Properties"]
    assert webhook["ReservedConcurrentExecutions"] == {
        "Fn::If": [
            "HasWebhookReservation",
            {"Ref": "WebhookReservedConcurrency"},
            {"Ref": "AWS::NoValue"},
        ]
    }
    for name in ("TimerLambdaFunction", "TableLambdaFunction", "WebhookSetupLambdaFunction"):
        assert "ReservedConcurrentExecutions" not in packaged.resources[name]["Properties"]
