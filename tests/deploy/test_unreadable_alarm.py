"""A group's item the bot could not read, set aside, raises an alarm by itself: the webhook's
and the timer's log groups count its ERROR line, as Lambda's JSON log format prints it."""

from __future__ import annotations

import logging

import pytest

from infra.store import Item
from testing.drivers import LambdaBot
from testing.players import Table
from tests.deploy.cfn import log_filter_matches
from tests.deploy.conftest import Packaged
from tests.deploy.test_given_up_alarm import printed_as_lambda_does


def break_session(bot: LambdaBot, chat: int) -> None:
    """Store for the group an item whose session part its codec cannot read."""
    store = getattr(bot.store, "backend", bot.store)
    item = store.load(f"game#{chat}")
    assert item is not None
    data = {**item.data, "session": {**item.data["session"], "players": 5}}  # not a list
    store.save(Item(item.key, item.version, data, item.expires_at))


def test_one_unreadable_item_raises_an_alarm(
    packaged: Packaged, lambda_bot: LambdaBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = Table.of(lambda_bot, 4)
    table.open()
    break_session(lambda_bot, table.chat)
    table.host.say("/newgame")
    lines = printed_as_lambda_does(caplog.records)
    filters = {
        name: f["Properties"]
        for name, f in packaged.of_type("AWS::Logs::MetricFilter").items()
        if "unreadable_item" in f["Properties"]["FilterPattern"]
    }
    assert {p["LogGroupName"]["Ref"] for p in filters.values()} == {
        "WebhookLogGroup",
        "TimerLogGroup",
        "TableLogGroup",  # the table's reads set an unreadable item aside too
    }
    for props in filters.values():
        counted = [line for line in lines if log_filter_matches(props["FilterPattern"], line)]
        assert len(counted) == 1, counted or lines
        assert f'"chat_id": {table.chat}' in counted[0]
    metrics = {
        (m["MetricNamespace"], m["MetricName"])
        for p in filters.values()
        for m in p["MetricTransformations"]
    }
    (metric,) = metrics
    (alarm,) = [
        a["Properties"]
        for a in packaged.of_type("AWS::CloudWatch::Alarm").values()
        if (a["Properties"].get("Namespace"), a["Properties"].get("MetricName")) == metric
    ]
    assert (alarm["Statistic"], alarm["Threshold"]) == ("Sum", 1)
    assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]
