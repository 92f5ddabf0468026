"""boto3 stays a first-class path: with DECAPITATION_AWS_CLIENT=boto3 set before the bot's first
call, whole games run through the Lambda entries with every DynamoDB and SQS call made by
boto3's clients, and the bot's own client is never called."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.client import BaseClient

from infra.aws import SWITCH, Client
from testing.drivers import LambdaBot
from testing.players import Table


@pytest.fixture
def boto3_only(aws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The switch, set before `lambda_bot` builds the app; the own client refuses every call."""
    monkeypatch.setenv(SWITCH, "boto3")

    def refused(self: Any, operation: str, params: dict[str, Any]) -> Any:
        raise AssertionError(f"the bot's own client was called ({operation})")

    monkeypatch.setattr(Client, "call", refused)


def clients(bot: LambdaBot) -> tuple[Any, Any]:
    """The DynamoDB client of the bot's store and the SQS client of its timers."""
    host = bot.application.bot_data["runtime"].keeper
    store = getattr(host.store, "backend", host.store)  # under the read cache
    return store.client, host.wake.client


def assert_boto3(bot: LambdaBot) -> None:
    for client in clients(bot):
        assert isinstance(client, BaseClient), client
    dynamodb, sqs = clients(bot)
    assert dynamodb.meta.service_model.service_name == "dynamodb"
    assert sqs.meta.service_model.service_name == "sqs"


def test_a_whole_game_with_timeouts_and_a_decapitation(
    boto3_only: None, lambda_bot: LambdaBot
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    table.configure(speak_seconds=30)
    state = table.start(seed=11)
    assert_boto3(lambda_bot)

    first = state.first
    lambda_bot.advance(90)  # the first turn runs out
    assert table.t("skipped_line", name=table.seat_label(first)) in table.group_texts()[-2]
    second = first % 4 + 1
    assert table.state.turn == second

    table.scout(second, second % 4 + 1)
    lambda_bot.advance(30)  # the speaking moment runs out
    assert table.t("speak_over_line", name=table.seat_label(second)) in table.group_texts()[-2]
    third = second % 4 + 1
    assert table.state.turn == third

    table.scout_and_done(third, first)
    fourth = third % 4 + 1
    assert table.state.turn == fourth
    table.decapitate(fourth, second)

    assert table.ending() is not None
    data = table.data()
    assert data["status"] == "over" and data.get("owed", []) == []
    assert_boto3(lambda_bot)


def test_a_silent_game_is_cancelled_and_the_next_one_played_to_its_end(
    boto3_only: None, lambda_bot: LambdaBot
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    table.configure(turn_seconds=30)
    table.start(seed=13)
    for _ in range(4):  # nobody plays for a whole round
        lambda_bot.advance(30)
    assert table.data()["status"] == "cancelled"

    table.open()
    state = table.start(seed=14)
    table.decapitate(state.first, state.first % 4 + 1)
    assert table.ending() is not None and table.data()["status"] == "over"
    assert_boto3(lambda_bot)
