"""The template's IAM: each function's own role grants exactly what it uses, every DynamoDB call
of the store among it, and no statement allows a wildcard."""

from __future__ import annotations

import re

from tests.deploy.cfn import as_list, statements, target
from tests.deploy.conftest import ROOT, Packaged

LOGS = {"logs:CreateLogStream", "logs:PutLogEvents"}
GAMES = {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem"}
# Only /forget deletes an item, and only the webhook function answers commands.
FORGET = "dynamodb:DeleteItem"
SECRETS = {"secretsmanager:GetSecretValue"}
# A call IAM knows by the actions it is made of: a transaction of Puts is granted by PutItem
# (AWS's "Using IAM with DynamoDB transactions").
GRANTED_AS = {"dynamodb:TransactWriteItems": "dynamodb:PutItem"}
# Each function's role: the actions it may take, on what (a Ref or GetAtt target).
EXPECTED_GRANTS = {
    "WebhookLambdaFunction": {
        **{a: {"WebhookLogGroup"} for a in LOGS},
        **{a: {"GamesTable"} for a in GAMES},
        FORGET: {"GamesTable"},
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
    "TableLambdaFunction": {
        **{a: {"TableLogGroup"} for a in LOGS},
        **{a: {"GamesTable"} for a in GAMES},
        "sqs:SendMessage": {"TimerQueue"},
        "secretsmanager:GetSecretValue": {"BotTokenSecret"},
    },
    "WebhookSetupLambdaFunction": {
        **{a: {"WebhookSetupLogGroup"} for a in LOGS},
        "secretsmanager:GetSecretValue": {"BotTokenSecret", "WebhookSecret"},
        "cloudformation:DescribeStacks": {"AWS::StackId"},
    },
}


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
    actions = {GRANTED_AS.get(action, action) for action in actions}
    assert GAMES | {FORGET} == actions
    assert actions <= set(EXPECTED_GRANTS["WebhookLambdaFunction"])
    for function in ("TimerLambdaFunction", "TableLambdaFunction"):
        granted = {a for a, on in EXPECTED_GRANTS[function].items() if on == {"GamesTable"}}
        assert actions - {FORGET} <= granted, (function, actions - granted)


def test_only_the_webhook_function_can_reach_the_one_delete_for_forget() -> None:
    # The store deletes only in records.forget; the timer and the table never import /forget's
    # command, so their roles may go without DeleteItem.
    callers = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "handlers").rglob("*.py")
        if "forget_user(" in path.read_text() and path.name != "keeper.py"
    ]
    assert callers == ["handlers/telegram/private_commands.py"]


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
