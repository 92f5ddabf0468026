"""The project's osls plugin (infra/osls-plugin.js), run by node against a stand-in osls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any

import pytest

from tests.deploy.conftest import DUMMY_TOKEN, ROOT

pytestmark = pytest.mark.slow  # every test runs the plugin under node

PLUGIN = ROOT / "infra" / "osls-plugin.js"

# Builds the plugin with a stand-in `serverless` whose CloudFormation client answers
# DescribeStacks from STACK (its parameters; JSON null = no such stack) and OUTPUTS, and whose
# SNS answers ListSubscriptionsByTopic from SUBSCRIPTIONS (or fails with the error named by
# {"error": name}); runs the hooks, prints what happened and what it logged.
HARNESS = r"""
const [pluginPath, hook] = process.argv.slice(1);
const path = require('node:path');
const Plugin = require(pluginPath);
class ServerlessError extends Error {
  constructor(message, code) { super(message); this.code = code; }
}
const stack = JSON.parse(process.env.STACK || 'null');
const outputs = JSON.parse(process.env.OUTPUTS || '[]');
const subscriptions = JSON.parse(process.env.SUBSCRIPTIONS || '[]');
const calls = [];
const logs = [];
const sns = require(require.resolve('@aws-sdk/client-sns', { paths: [path.dirname(pluginPath)] }));
sns.SNSClient.prototype.send = async (command) => {
  calls.push(command.constructor.name + ' ' + command.input.TopicArn);
  if (subscriptions.error) {
    const error = new Error('not allowed');
    error.name = subscriptions.error;
    throw error;
  }
  return { Subscriptions: subscriptions };
};
const provider = {
  naming: { getStackName: () => 'decapitation-ci' },
  getCloudFormationClient: async () => ({
    send: async (command) => {
      calls.push(command.constructor.name);
      if (stack === null) throw new Error('Stack with id decapitation-ci does not exist');
      return { Stacks: [{ StackName: 'decapitation-ci', Parameters: stack, Outputs: outputs }] };
    },
  }),
  getAwsSdkV3Config: async () => ({
    region: 'us-east-1',
    credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
  }),
};
const serverless = {
  classes: { Error: ServerlessError },
  serviceDir: process.env.SERVICE_DIR,
  service: { provider: {} },
  getProvider: () => provider,
};
const log = {
  notice: (message) => logs.push(['notice', message]),
  warning: (message) => logs.push(['warning', message]),
};
const plugin = new Plugin(serverless, {}, { log });
(async () => {
  const out = { hooks: Object.keys(plugin.hooks), calls, logs };
  try {
    for (const name of hook.split(',')) {
      await plugin.hooks[name]();
      out[name] = serverless.service.provider.stackParameters || null;
    }
  } catch (error) {
    out.error = { message: error.message, code: error.code };
  }
  console.log(JSON.stringify(out));
})();
"""

CHOOSE = "before:deploy:deploy"
PASS = "before:aws:deploy:deploy:updateStack"
BUILD = "before:package:createDeploymentArtifacts"
DEPLOYED = "after:deploy:deploy"


def run(
    hooks: str,
    *,
    token: str | None,
    stack: Any = None,
    outputs: Any = (),
    subscriptions: Any = (),
    **env: str,
) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "osls").exists():
        pytest.skip("node or node_modules/osls is absent: run `npm ci` (.ci/deploy-check does)")
    environ = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    environ.update(
        STACK=json.dumps(stack),
        OUTPUTS=json.dumps(list(outputs)),
        SUBSCRIPTIONS=json.dumps(
            subscriptions if isinstance(subscriptions, dict) else list(subscriptions)
        ),
        SERVICE_DIR=str(ROOT),
        **env,
    )
    if token is not None:
        environ["TELEGRAM_BOT_TOKEN"] = token
    result = subprocess.run(
        [node, "-e", HARNESS, str(PLUGIN), hooks],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_token_is_passed_only_to_the_full_stack_update() -> None:
    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN)

    # Chosen before deploying, but not left in the service (its state file is saved and
    # uploaded earlier); set only for the update, after the bucket-only stack was created.
    assert out[CHOOSE] is None
    assert out[PASS] == [{"ParameterKey": "TelegramBotToken", "ParameterValue": DUMMY_TOKEN}]
    assert out["calls"] == ["DescribeStacksCommand"]  # what the stage has (no stack: nothing)
    assert not [h for h in out["hooks"] if "createStack" in h or "uploadArtifacts" in h]


def test_without_a_token_a_deployed_stage_keeps_its_token() -> None:
    stack = [{"ParameterKey": "TelegramBotToken", "ParameterValue": "****"}]

    out = run(f"{CHOOSE},{PASS}", token=None, stack=stack)

    assert out[PASS] == [{"ParameterKey": "TelegramBotToken", "UsePreviousValue": True}]
    assert out["calls"] == ["DescribeStacksCommand"]


def test_an_alarm_email_is_passed_and_kept_when_not_given_again() -> None:
    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN, ALARM_EMAIL="ops@example.org")
    assert out[PASS][1] == {"ParameterKey": "AlarmEmail", "ParameterValue": "ops@example.org"}

    stack = [
        {"ParameterKey": "TelegramBotToken", "ParameterValue": "****"},
        {"ParameterKey": "AlarmEmail", "ParameterValue": "ops@example.org"},
    ]
    out = run(f"{CHOOSE},{PASS}", token=None, stack=stack)
    assert out[PASS][1] == {"ParameterKey": "AlarmEmail", "UsePreviousValue": True}

    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN, stack=stack[:1])
    assert len(out[PASS]) == 1  # never given: the template's default, no e-mail


def test_the_table_apps_short_name_is_passed_and_kept_when_not_given_again() -> None:
    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN, TABLE_APP="decatable")
    assert out[PASS][1:] == [{"ParameterKey": "TableApp", "ParameterValue": "decatable"}]

    stack = [
        {"ParameterKey": "TelegramBotToken", "ParameterValue": "****"},
        {"ParameterKey": "AlarmEmail", "ParameterValue": "ops@example.org"},
        {"ParameterKey": "TableApp", "ParameterValue": "decatable"},
    ]
    out = run(f"{CHOOSE},{PASS}", token=None, stack=stack)
    assert out[PASS][1:] == [
        {"ParameterKey": "AlarmEmail", "UsePreviousValue": True},
        {"ParameterKey": "TableApp", "UsePreviousValue": True},
    ]

    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN, stack=stack[:1])
    assert len(out[PASS]) == 1  # never given: the template's default, no Mini App


def test_a_malformed_table_app_is_refused() -> None:
    out = run(CHOOSE, token=DUMMY_TOKEN, TABLE_APP="https://t.me/bot/app")
    assert out["error"]["code"] == "DECAPITATION_TABLE_APP"


def test_the_webhooks_reservation_is_passed_and_kept_when_not_given_again() -> None:
    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN, WEBHOOK_RESERVED_CONCURRENCY="8")
    assert out[PASS][1:] == [{"ParameterKey": "WebhookReservedConcurrency", "ParameterValue": "8"}]

    stack = [
        {"ParameterKey": "TelegramBotToken", "ParameterValue": "****"},
        {"ParameterKey": "WebhookReservedConcurrency", "ParameterValue": "8"},
    ]
    out = run(f"{CHOOSE},{PASS}", token=None, stack=stack)
    assert out[PASS][1:] == [
        {"ParameterKey": "WebhookReservedConcurrency", "UsePreviousValue": True}
    ]

    out = run(f"{CHOOSE},{PASS}", token=DUMMY_TOKEN, stack=stack[:1])
    assert len(out[PASS]) == 1  # never given: the template's default, nothing reserved


@pytest.mark.parametrize("figure", ["eight", "-1", "3", "7"])
def test_a_reservation_that_is_no_figure_or_below_telegrams_connections_is_refused(
    figure: str,
) -> None:
    out = run(CHOOSE, token=DUMMY_TOKEN, WEBHOOK_RESERVED_CONCURRENCY=figure)
    assert out["error"]["code"] == "DECAPITATION_RESERVATION"


def test_a_malformed_alarm_email_is_refused() -> None:
    out = run(CHOOSE, token=DUMMY_TOKEN, ALARM_EMAIL="not an address")
    assert out["error"]["code"] == "DECAPITATION_EMAIL"


@pytest.mark.parametrize("stack", [None, []], ids=["no stack", "stack without the token"])
def test_the_first_deploy_without_a_token_stops_with_how_to_give_it(stack: Any) -> None:
    out = run(f"{CHOOSE},{PASS}", token=None, stack=stack)

    assert out["error"]["code"] == "DECAPITATION_TOKEN"
    assert "TELEGRAM_BOT_TOKEN=<token> npx serverless deploy" in out["error"]["message"]


def test_a_malformed_token_is_refused_without_being_echoed() -> None:
    token = "not-a-token-but-a-password-someone-pasted"

    out = run(CHOOSE, token=token)

    assert out["error"]["code"] == "DECAPITATION_TOKEN"
    assert token not in out["error"]["message"]


def test_the_build_reports_a_missing_python() -> None:
    out = run(BUILD, token=None, PYTHON="/nonexistent/python3")

    assert out["error"]["code"] == "DECAPITATION_BUILD"
    assert "Install Python 3.11+" in out["error"]["message"]


TOPIC = "arn:aws:sns:us-east-1:123456789012:decapitation-ci-alarms"
DEPLOYED_STACK = [{"ParameterKey": "TelegramBotToken", "ParameterValue": "****"}]
OUTPUTS = [{"OutputKey": "AlarmTopicArn", "OutputValue": TOPIC}]
HOW = "ALARM_EMAIL=you@example.org npx serverless deploy"


def after_deploy(subscriptions: Any) -> dict[str, Any]:
    """What the plugin says once a deploy is done, with these subscriptions to the topic."""
    return run(
        DEPLOYED, token=None, stack=DEPLOYED_STACK, outputs=OUTPUTS, subscriptions=subscriptions
    )


def warnings(out: dict[str, Any]) -> list[str]:
    return [message for level, message in out["logs"] if level == "warning"]


def test_a_deploy_without_a_subscriber_says_so_and_how_to_add_one() -> None:
    out = after_deploy([])

    assert out["calls"] == ["DescribeStacksCommand", f"ListSubscriptionsByTopicCommand {TOPIC}"]
    (warning,) = warnings(out)
    assert warning.startswith("No alarm reaches anyone")
    assert TOPIC in warning and HOW in warning


def test_an_unconfirmed_address_is_named_until_it_confirms() -> None:
    pending = {"SubscriptionArn": "PendingConfirmation", "Protocol": "email"}

    out = after_deploy([{**pending, "Endpoint": "ops@example.org", "TopicArn": TOPIC}])

    (warning,) = warnings(out)
    assert "ops@example.org" in warning and "confirm" in warning


def test_a_confirmed_subscriber_silences_the_warning() -> None:
    confirmed = {"SubscriptionArn": f"{TOPIC}:0f1e2d3c", "Protocol": "email", "TopicArn": TOPIC}

    out = after_deploy([{**confirmed, "Endpoint": "ops@example.org"}])

    assert warnings(out) == []
    assert [level for level, _ in out["logs"]] == ["notice"]


def test_a_subscription_list_it_may_not_read_is_still_a_warning_with_how_to_add_one() -> None:
    out = after_deploy({"error": "AuthorizationErrorException"})

    (warning,) = warnings(out)
    assert "AuthorizationErrorException" in warning and HOW in warning
