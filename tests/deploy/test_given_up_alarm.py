"""An update the bot gives up on (answered 500 twice, then 200 with an ERROR log line naming
it) raises an alarm by itself: the webhook's log group counts that line, as Lambda's JSON log
format prints it, and one is enough, where its two 5xx answers stay below the 5xx alarm."""

from __future__ import annotations

import logging

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from testing.drivers import LambdaBot
from testing.players import Table
from tests.deploy.cfn import log_filter_matches
from tests.deploy.conftest import Packaged
from tests.support.faults import break_reading


def printed_as_lambda_does(records: list[logging.LogRecord]) -> list[str]:
    """The records as Lambda's runtime prints them under the JSON log format."""
    utils = pytest.importorskip(
        "awslambdaric.lambda_runtime_log_utils",
        reason="awslambdaric (Lambda's runtime client) is not installed (pip install -e '.[dev]')",
    )
    formatter = utils.JsonFormatter()
    return [formatter.format(record).rstrip("\n") for record in records]


def give_up_on_an_update(bot: LambdaBot, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, dict]:
    """A /status the bot cannot handle, delivered as Telegram does until the bot gives up."""
    queue = bot.deliver_as_telegram()
    table = Table.of(bot, 4)
    table.open()
    mend = break_reading(monkeypatch, table.chat)
    status = table.host.say("/status")
    bot.advance(60)
    (done,) = [p for p in queue.done if p.update["update_id"] == status["update_id"]]
    assert done.answers == [500] * (lambda_entry.MAX_FAILURES - 1) + [200]
    bot.errors.clear()  # the failures made on purpose
    mend()
    return table, status


def test_one_given_up_update_raises_an_alarm(
    packaged: Packaged,
    lambda_bot: LambdaBot,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.INFO)
    table, status = give_up_on_an_update(lambda_bot, monkeypatch)
    lines = printed_as_lambda_does(caplog.records)

    filters = packaged.of_type("AWS::Logs::MetricFilter")
    watched = {
        name: f["Properties"]
        for name, f in filters.items()
        if f["Properties"]["LogGroupName"] == {"Ref": "WebhookLogGroup"}
        and "given_up" in f["Properties"]["FilterPattern"]
    }
    assert len(watched) == 1, filters
    (props,) = watched.values()
    counted = [line for line in lines if log_filter_matches(props["FilterPattern"], line)]
    assert len(counted) == 1, lines  # the give-up line, not the failures before it
    assert f'"update_id": {status["update_id"]}' in counted[0]
    assert f'"chat_id": {table.chat}' in counted[0]

    (metric,) = props["MetricTransformations"]
    assert metric["MetricValue"] == "1"
    alarms = [
        a["Properties"]
        for a in packaged.of_type("AWS::CloudWatch::Alarm").values()
        if (a["Properties"].get("Namespace"), a["Properties"].get("MetricName"))
        == (metric["MetricNamespace"], metric["MetricName"])
    ]
    assert len(alarms) == 1
    alarm = alarms[0]
    assert (alarm["Statistic"], alarm["Threshold"]) == ("Sum", 1)
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]
    assert alarm["TreatMissingData"] == "notBreaching"
