"""The CloudFormation template that `serverless package` generates: lint, wiring, IAM, secrets."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from handlers.entry import webhook_setup
from handlers.storage.owed import LEASE
from infra import package
from tests.deploy.conftest import DUMMY_TOKEN, ROOT, Packaged, zip_texts

FUNCTIONS = {
    "WebhookLambdaFunction": "handlers.entry.lambda_webhook.webhook",
    "TimerLambdaFunction": "handlers.entry.lambda_webhook.timer",
    "WebhookSetupLambdaFunction": "handlers.entry.webhook_setup.handler",
}
# cfn-lint's console entry, run by this interpreter (cfnlint has no __main__).
CFN_LINT = "import sys; from cfnlint.runner import main; sys.exit(main())"
LOGS = {"logs:CreateLogStream", "logs:PutLogEvents"}
GAMES = {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"}
SECRETS = {"secretsmanager:GetSecretValue"}
# Each function's role: the actions it may take, on what (a Ref or GetAtt target).
EXPECTED_GRANTS = {
    "WebhookLambdaFunction": {
        **{a: {"WebhookLogGroup"} for a in LOGS},
        **{a: {"GamesTable"} for a in GAMES},
        "sqs:SendMessage": {"TimerQueue"},
        "secretsmanager:GetSecretValue": {"BotTokenSecret", "WebhookSecret"},
    },
    "TimerLambdaFunction": {
        **{a: {"TimerLogGroup"} for a in LOGS},
        **{a: {"GamesTable"} for a in GAMES},
        "sqs:SendMessage": {"TimerQueue"},
        "sqs:ReceiveMessage": {"TimerQueue"},
        "sqs:DeleteMessage": {"TimerQueue"},
        "sqs:GetQueueAttributes": {"TimerQueue"},
        "secretsmanager:GetSecretValue": {"BotTokenSecret"},
    },
    "WebhookSetupLambdaFunction": {
        **{a: {"WebhookSetupLogGroup"} for a in LOGS},
        "secretsmanager:GetSecretValue": {"BotTokenSecret", "WebhookSecret"},
        "cloudformation:DescribeStacks": {"AWS::StackId"},
    },
}


# The bot's public id, as the template takes it from the token parameter.
BOT_ID = {"Fn::Select": [0, {"Fn::Split": [":", {"Ref": "TelegramBotToken"}]}]}


def target(value: Any) -> str:
    """The logical id a {"Ref": ...} or {"Fn::GetAtt": [...]} points at."""
    if isinstance(value, dict) and "Ref" in value:
        return value["Ref"]
    if isinstance(value, dict) and "Fn::GetAtt" in value:
        return value["Fn::GetAtt"][0]
    raise AssertionError(f"not a Ref or GetAtt: {value!r}")


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def statements(resource: dict[str, Any]) -> list[dict[str, Any]]:
    """Every policy statement of an IAM role, policy or resource policy."""
    props = resource["Properties"]
    docs = [p["PolicyDocument"] for p in props.get("Policies", [])]
    if "PolicyDocument" in props:
        docs.append(props["PolicyDocument"])
    return [s for doc in docs for s in as_list(doc["Statement"])]


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
        "TimerEventSourceMappingSQSTimerQueue AWS::Lambda::EventSourceMapping",
        "GamesTable AWS::DynamoDB::Table",
        "TimerQueue AWS::SQS::Queue",
        "TimerDeadLetterQueue AWS::SQS::Queue",
        "BotTokenSecret AWS::SecretsManager::Secret",
        "WebhookSecret AWS::SecretsManager::Secret",
        "TelegramWebhook Custom::TelegramWebhook",
        "TelegramBot Custom::TelegramBot",
        "ServerlessDeploymentBucket AWS::S3::Bucket",
        "ServerlessDeploymentBucketPolicy AWS::S3::BucketPolicy",
        "AlarmTopic AWS::SNS::Topic",
        "AlarmEmailSubscription AWS::SNS::Subscription",
        *(f"{name}Alarm AWS::CloudWatch::Alarm" for name in ALARMS),
    }
    for function in ("Webhook", "Timer", "WebhookSetup"):
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
    assert [r["Properties"]["RouteKey"] for r in routes.values()] == ["POST /webhook"]
    route = next(iter(routes.values()))["Properties"]
    integration_id = route["Target"]["Fn::Join"][1][1]["Ref"]
    integration = packaged.resources[integration_id]["Properties"]
    assert target(integration["IntegrationUri"]) == "WebhookLambdaFunction"
    assert integration["PayloadFormatVersion"] == "2.0"
    permission = packaged.resources["WebhookLambdaPermissionHttpApi"]["Properties"]
    assert target(permission["FunctionName"]) == "WebhookLambdaFunction"
    assert permission["Principal"] == "apigateway.amazonaws.com"


def test_every_handler_is_a_callable_of_the_project_and_in_the_zip(packaged: Packaged) -> None:
    functions = packaged.of_type("AWS::Lambda::Function")
    handlers = {name: f["Properties"]["Handler"] for name, f in functions.items()}
    assert handlers == FUNCTIONS
    shipped = {name for name, _ in zip_texts(packaged.artifact)}
    for handler in handlers.values():
        module_name, _, attribute = handler.rpartition(".")
        module = importlib.import_module(module_name)
        assert callable(getattr(module, attribute)), handler
        assert module_name.replace(".", "/") + ".py" in shipped, handler


def test_a_delivery_lease_outlasts_the_longest_run(packaged: Packaged) -> None:
    # A batch is taken over only once the run that owes it can no longer be alive.
    timeouts = [
        f["Properties"]["Timeout"]
        for name, f in packaged.of_type("AWS::Lambda::Function").items()
        if name in ("WebhookLambdaFunction", "TimerLambdaFunction")
    ]
    assert len(timeouts) == 2 and max(timeouts) < LEASE


def test_functions_run_python_312_on_arm64(packaged: Packaged) -> None:
    for name, function in packaged.of_type("AWS::Lambda::Function").items():
        props = function["Properties"]
        assert props["Runtime"] == "python3.12", name
        assert props["Architectures"] == ["arm64"], name
        assert props["Timeout"] <= 60, name


def test_the_zip_is_small_and_carries_no_boto3_tests_or_node_modules(packaged: Packaged) -> None:
    assert packaged.artifact.stat().st_size < 5_000_000
    tops = {name.split("/", 1)[0] for name, _ in zip_texts(packaged.artifact)}
    assert {"engine", "handlers", "infra", "telegram", "httpx"} <= tops
    assert not tops & {"boto3", "botocore", "tests", "bench", "node_modules", "docs"}
    assert not [name for name, _ in zip_texts(packaged.artifact) if "/playtest/" in name]


def test_the_zip_carries_every_module_compiled_for_python_312_when_one_is_at_hand(
    packaged: Packaged,
) -> None:
    files = dict(zip_texts(packaged.artifact))
    compiled = {name: data for name, data in files.items() if name.endswith(".pyc")}
    python = package.python312()
    if python is None:  # a deploying machine without 3.12 ships sources only
        assert compiled == {}
        return
    expected = {
        f"{name.rpartition('/')[0]}/__pycache__/{name.rpartition('/')[2][:-3]}.cpython-312.pyc".lstrip(
            "/"
        )
        for name in files
        if name.endswith(".py")
    }
    assert set(compiled) == expected
    magic = subprocess.run(
        [python, "-c", "import importlib.util as u; print(u.MAGIC_NUMBER.hex())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for name, data in compiled.items():
        assert data[:4].hex() == magic, name
        # Hash-based and unchecked: imported without reading (or stat-ing) the source.
        assert int.from_bytes(data[4:8], "little") == 0b01, name
    assert (
        b"/var/task/handlers/telegram/app.py"
        in compiled["handlers/telegram/__pycache__/app.cpython-312.pyc"]
    )


def test_the_zip_leaves_out_the_playtest_harness(tmp_path: Path) -> None:
    package.copy_project(tmp_path)
    shipped = {path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*.py")}
    assert "handlers/entry/lambda_webhook.py" in shipped
    assert (ROOT / "handlers" / "playtest" / "__init__.py").is_file()
    assert not [name for name in shipped if name.startswith("handlers/playtest/")]


def test_compiling_for_lambda_without_python_312_leaves_the_sources_as_they_are(
    tmp_path: Path,
) -> None:
    (tmp_path / "module.py").write_text("VALUE = 1\n")
    assert package.compile_for_lambda(tmp_path, None) is False
    assert [p.name for p in tmp_path.rglob("*")] == ["module.py"]


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


def test_each_function_has_its_own_role_with_exactly_what_it_uses(packaged: Packaged) -> None:
    functions = packaged.of_type("AWS::Lambda::Function")
    roles = {name: target(f["Properties"]["Role"]) for name, f in functions.items()}
    assert len(set(roles.values())) == len(roles), roles
    for name, role_id in roles.items():
        role = packaged.resources[role_id]
        assert role["Type"] == "AWS::IAM::Role"
        trust = as_list(role["Properties"]["AssumeRolePolicyDocument"]["Statement"])
        assert trust == [
            {
                "Effect": "Allow",
                "Principal": {"Service": "lambda.amazonaws.com"},
                "Action": "sts:AssumeRole",
            }
        ]
        assert "ManagedPolicyArns" not in role["Properties"], role_id
        grants: dict[str, set[str]] = {}
        for statement in statements(role):
            assert statement["Effect"] == "Allow"
            for action in as_list(statement["Action"]):
                for resource in as_list(statement["Resource"]):
                    grants.setdefault(action, set()).add(target(resource))
        assert grants == EXPECTED_GRANTS[name], name


def test_every_dynamodb_call_of_the_store_is_granted_to_the_bots_functions(
    packaged: Packaged,
) -> None:
    source = (ROOT / "infra" / "dynamo_store.py").read_text()
    called = set(re.findall(r"self\.client\.([a-z_]+)\(", source))
    actions = {"dynamodb:" + "".join(w.title() for w in name.split("_")) for name in called}
    assert {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem"} <= actions
    for function in ("WebhookLambdaFunction", "TimerLambdaFunction"):
        granted = {a for a, on in EXPECTED_GRANTS[function].items() if on == {"GamesTable"}}
        assert actions <= granted, (function, actions - granted)


def test_no_iam_statement_allows_a_wildcard_action_or_resource(packaged: Packaged) -> None:
    kinds = ("AWS::IAM::Role", "AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")
    checked = 0
    for name, resource in packaged.resources.items():
        if resource["Type"] not in kinds and not resource["Type"].endswith("Policy"):
            continue
        for statement in statements(resource):
            if statement["Effect"] != "Allow":
                continue  # a Deny may be broad (the bucket's "TLS only" rule is)
            checked += 1
            for action in as_list(statement.get("Action", [])):
                assert "*" not in action, f"{name}: wildcard action {action}"
            assert "NotAction" not in statement and "NotResource" not in statement, name
            for resource_arn in as_list(statement.get("Resource", [])):
                assert resource_arn != "*", f"{name}: wildcard resource"
                if isinstance(resource_arn, str):
                    assert "*" not in resource_arn, f"{name}: {resource_arn}"
    assert checked >= 3


def test_the_custom_resource_registers_the_api_url_with_the_secrets(packaged: Packaged) -> None:
    hook = packaged.resources["TelegramWebhook"]
    props = hook["Properties"]
    assert target(props["ServiceToken"]) == "WebhookSetupLambdaFunction"
    assert props["ServiceToken"]["Fn::GetAtt"][1] == "Arn"
    assert props["WebhookUrl"] == {
        "Fn::Join": ["", [{"Fn::GetAtt": ["HttpApi", "ApiEndpoint"]}, "/webhook"]]
    }
    assert target(props["TokenSecretArn"]) == "BotTokenSecret"
    assert target(props["WebhookSecretArn"]) == "WebhookSecret"
    assert 1 <= int(props["MaxConnections"]) <= 100
    # Telegram is asked again when the bot, a setting or the offer changes, and only then.
    assert props["BotId"] == BOT_ID
    assert props["Offer"] == webhook_setup.offer_fingerprint()
    assert "DeployId" not in props
    assert int(props["ServiceTimeout"]) <= 300
    # Registered only once the route answers.
    assert {"HttpApiStage", "HttpApiRoutePostWebhook", "WebhookLambdaPermissionHttpApi"} <= set(
        hook["DependsOn"]
    )
    setup = packaged.resources["WebhookSetupLambdaFunction"]["Properties"]
    assert int(props["ServiceTimeout"]) > setup["Timeout"]


def test_the_functions_learn_the_bots_username_at_deploy_time(packaged: Packaged) -> None:
    bot = packaged.resources["TelegramBot"]
    props = bot["Properties"]
    assert target(props["ServiceToken"]) == "WebhookSetupLambdaFunction"
    assert target(props["TokenSecretArn"]) == "BotTokenSecret"
    assert props["BotId"] == BOT_ID and "DeployId" not in props
    # It needs nothing of the API, so the functions may wait for it without a cycle.
    assert "DependsOn" not in bot
    for name in ("WebhookLambdaFunction", "TimerLambdaFunction"):
        variables = packaged.resources[name]["Properties"]["Environment"]["Variables"]
        assert variables["BOT_USERNAME"] == {"Fn::GetAtt": ["TelegramBot", "BotUsername"]}
    assert packaged.template["Outputs"]["BotUsername"]["Value"] == {
        "Fn::GetAtt": ["TelegramBot", "BotUsername"]
    }


def test_the_bot_token_enters_only_as_a_no_echo_parameter(packaged: Packaged) -> None:
    parameter = packaged.template["Parameters"]["TelegramBotToken"]
    assert parameter["NoEcho"] is True
    assert "Default" not in parameter
    secret = packaged.resources["BotTokenSecret"]["Properties"]
    assert secret["SecretString"] == {"Ref": "TelegramBotToken"}
    for name, resource in packaged.resources.items():
        if name != "BotTokenSecret":
            # Elsewhere only its public part, the bot's id before the colon.
            rest = str(resource).replace(str(BOT_ID), "")
            assert "TelegramBotToken" not in rest, name


def test_the_webhook_secret_is_generated_from_characters_telegram_allows(
    packaged: Packaged,
) -> None:
    props = packaged.resources["WebhookSecret"]["Properties"]
    assert "SecretString" not in props
    generate = props["GenerateSecretString"]
    assert generate["ExcludePunctuation"] is True
    assert generate["IncludeSpace"] is False
    assert 32 <= generate["PasswordLength"] <= 256


def test_no_bot_token_in_anything_packaging_wrote(packaged: Packaged) -> None:
    assert DUMMY_TOKEN not in packaged.log
    secret_part = DUMMY_TOKEN.split(":", 1)[1].encode()
    written = [p for p in packaged.output_dir.rglob("*") if p.is_file()]
    assert written, "serverless package wrote nothing"
    for path in written:
        assert secret_part not in path.read_bytes(), path
    for name, content in zip_texts(packaged.artifact):
        assert secret_part not in content, name


def test_the_functions_environment_names_only_what_they_use(packaged: Packaged) -> None:
    functions = packaged.of_type("AWS::Lambda::Function")
    deploy_ids = {
        f["Properties"]["Environment"]["Variables"]["DEPLOY_ID"]
        for f in functions.values()
        if "Environment" in f["Properties"]
    }
    assert len(deploy_ids) == 1 and str(deploy_ids.pop()).isdigit()
    env = {
        name: sorted(f["Properties"].get("Environment", {}).get("Variables", {}))
        for name, f in packaged.of_type("AWS::Lambda::Function").items()
    }
    assert env == {
        "WebhookLambdaFunction": [
            "BOT_USERNAME",
            "DECAPITATION_TABLE",
            "DEPLOY_ID",
            "TELEGRAM_TOKEN_SECRET_ARN",
            "TIMER_QUEUE_URL",
            "WEBHOOK_SECRET_ARN",
        ],
        "TimerLambdaFunction": [
            "BOT_USERNAME",
            "DECAPITATION_TABLE",
            "DEPLOY_ID",
            "TELEGRAM_TOKEN_SECRET_ARN",
            "TIMER_QUEUE_URL",
        ],
        "WebhookSetupLambdaFunction": [],
    }
