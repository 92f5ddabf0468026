"""A finished game counts once in the statistics, whatever befalls its end's update: the
instance dies at any step of handling it and Telegram delivers it again, or DynamoDB applies
the end's write and its answer is lost."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from handlers.storage.keeper import LEASE
from infra.aws import SWITCH
from testing.aws_proxy import TRANSACT_WRITE_ITEMS, AwsProxy, proxy
from testing.drivers import LambdaBot
from testing.instances import webhook_event
from testing.players import Table
from tests.robustness.crashes import STEPS, Crash, cold_start, crash_at
from tests.robustness.test_crashes import after_the_death

SEED = 61


def at_the_end(bot: LambdaBot) -> tuple[Table, dict]:
    """A dealt game whose next update, the first player's Confirm, decapitates (not sent)."""
    table = Table.of(bot, 4)
    table.open()
    seat = table.start(seed=SEED).first
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(seat % 4 + 1))
    prompt = player.prompt()
    update = bot.fake.press(player.user, prompt.chat_id, prompt.message_id, table.t("btn_confirm"))
    bot.fake.next_updates()
    return table, update


def counted(bot: LambdaBot, table: Table) -> list[int]:
    """The games counted for the group, then for each player."""
    keys = [f"stats#group#{table.chat}", *(f"stats#user#{p.id}" for p in table.players)]
    return [
        (bot.store.load(key).data if bot.store.load(key) else {}).get("games", 0) for key in keys
    ]


@pytest.mark.parametrize("step", STEPS)
def test_an_end_whose_instance_dies_counts_once_when_telegram_delivers_it_again(
    lambda_bot: LambdaBot, step: str
) -> None:
    table, update = at_the_end(lambda_bot)
    mark = len(lambda_bot.fake.calls)
    with crash_at(lambda_bot, step, table.chat), pytest.raises(Crash):
        lambda_entry.webhook(webhook_event(update))
    cold_start(lambda_bot)
    lambda_bot.clock.advance(LEASE)  # Telegram tries again a little later
    lambda_bot.post(update)
    lambda_bot.redeliver(update)  # and once more
    after_the_death(lambda_bot, mark)

    assert table.ending() is not None
    assert counted(lambda_bot, table) == [1] * 5


@pytest.fixture(params=["own", "boto3"])
def faults(
    request: pytest.FixtureRequest, aws: Any, moto_server: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[AwsProxy]:
    """The proxy as the bot's DynamoDB endpoint, with the AWS client under test."""
    monkeypatch.setenv(SWITCH, request.param)
    with proxy(moto_server) as started:
        monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", started.url)
        yield started


def test_an_end_whose_write_loses_its_answer_counts_once(
    faults: AwsProxy, lambda_bot: LambdaBot
) -> None:
    table, update = at_the_end(lambda_bot)
    faults.drop_answers(TRANSACT_WRITE_ITEMS)

    lambda_bot.post(update)  # the client sends the write again; it finds it applied

    assert faults.dropped == [TRANSACT_WRITE_ITEMS]
    assert table.ending() is not None
    assert table.envelope().get("owed", []) == []
    assert counted(lambda_bot, table) == [1] * 5
