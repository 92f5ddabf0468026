"""Fixtures for whole games through the real bot: a fake Telegram, a clock, and the bot run
through the Lambda entries (DynamoDB and SQS under moto) or the local poller (SQLite).

Every e2e test ends with the same checks, whatever it played: no card leaked (`leaks.check`),
Telegram refused no call the bot made, and no handler failed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from infra import dynamo_store
from infra.dynamo_store import create_table
from tests.e2e import leaks
from tests.e2e.drivers import WEBHOOK_SECRET, Bot, FakeClock, LambdaBot, LocalBot
from tests.fake_telegram import FakeTelegram
from tests.infra.conftest import REGION, aws_env  # noqa: F401 - the fixture `aws` uses

START = 4_000_000_000  # far ahead of the real time, so nothing real-time can expire
TABLE = "decapitation-e2e"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def aws(
    aws_env: None,  # noqa: F811 - the fixture imported above
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Any]:
    """moto's DynamoDB table and SQS timer queue, with SQS delays measured on `clock`."""
    # moto's SQS reads the time through this one function; SQS then delays a timer message
    # until the test's clock reaches it, as AWS would in real time.
    monkeypatch.setattr("moto.sqs.models.unix_time_millis", lambda: clock() * 1000)
    monkeypatch.setattr(dynamo_store, "_client", None)
    with mock_aws():
        create_table(boto3.client("dynamodb", region_name=REGION), TABLE)
        sqs = boto3.client("sqs", region_name=REGION)
        queue_url = sqs.create_queue(QueueName="decapitation-timers")["QueueUrl"]
        monkeypatch.setenv("DECAPITATION_TABLE", TABLE)
        monkeypatch.setenv("WEBHOOK_SECRET", WEBHOOK_SECRET)
        monkeypatch.setenv("TIMER_QUEUE_URL", queue_url)
        monkeypatch.delenv("TELEGRAM_TOKEN_SECRET_ARN", raising=False)
        monkeypatch.delenv("WEBHOOK_SECRET_ARN", raising=False)
        monkeypatch.delenv("BOT_USERNAME", raising=False)
        yield sqs, queue_url


def _finish(bot: Bot) -> None:
    """The checks every e2e test ends with."""
    for table in bot.tables:
        leaks.check(table)
    bot.fake.assert_no_refused()
    assert not bot.errors, f"handlers failed: {bot.errors!r}"


@pytest.fixture
def lambda_bot(
    fake_telegram: FakeTelegram,
    clock: FakeClock,
    aws: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[LambdaBot]:
    """The bot behind its Lambda entries."""
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", fake_telegram.token)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", fake_telegram.url)
    sqs, queue_url = aws
    bot = LambdaBot(fake_telegram, clock, sqs, queue_url)
    try:
        yield bot
        _finish(bot)
    finally:
        bot.close()


@pytest.fixture
def local_bot(fake_telegram: FakeTelegram, clock: FakeClock, tmp_path: Path) -> Iterator[LocalBot]:
    """The bot as `make play` runs it: long polling on a SQLite file."""
    bot = LocalBot(fake_telegram, clock, tmp_path / "games.sqlite3").start()
    try:
        yield bot
        _finish(bot)
    finally:
        bot.close()


@pytest.fixture(params=["lambda", "local"])
def bot(request: pytest.FixtureRequest) -> Bot:
    """Each way of running the bot in turn."""
    return request.getfixturevalue(f"{request.param}_bot")
