"""Plugin: whole games through the real bot: a fake Telegram, a clock, and the bot run through
the Lambda entries (DynamoDB and SQS on the session's moto server), the local poller (SQLite), or
the local bot's Application with Telegram answered in memory (`memory_bot`, the fast tier).
A test on `bot` plays in memory; the smoke set, marked `over_http`, plays through the Lambda
entries and the local poller over HTTP instead, so that each kind of update crosses both.

Every test that plays through `lambda_bot`, `local_bot`, `memory_bot` or `bot` ends with the same
checks, whatever it played: no card leaked (`leaks.check`), Telegram refused no call the bot made,
and no handler failed.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from infra import dynamo_store
from infra.dynamo_store import create_table
from testing import leaks
from testing.drivers import (
    START,
    WEBHOOK_SECRET,
    Bot,
    FakeClock,
    LambdaBot,
    LocalBot,
    MemoryBot,
)
from testing.fake_telegram import TEST_TOKEN, FakeTelegram

__all__ = ["OVER_HTTP", "aws", "bot", "clock", "lambda_bot", "local_bot", "memory_bot"]


@pytest.fixture
def clock() -> FakeClock:
    """The clock of the bot and of its stores, far ahead of the real time (nothing real
    expires): only the test moves it."""
    return FakeClock(START)


@pytest.fixture
def aws(
    aws_env: None,
    moto_server: str,
    moto_clients: Callable[[str], Any],
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Any]:
    """A fresh DynamoDB table and SQS timer queue on the moto server, which the bot's own AWS
    client reaches through AWS_ENDPOINT_URL, with SQS delays measured on `clock`."""
    # moto's SQS reads the time through this one function (the server runs in this process);
    # SQS then delays a timer message until the test's clock reaches it, as AWS would.
    monkeypatch.setattr("moto.sqs.models.unix_time_millis", lambda: clock() * 1000)
    monkeypatch.setattr(dynamo_store, "_client", None)
    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_server)
    dynamodb, sqs = moto_clients("dynamodb"), moto_clients("sqs")
    fresh = uuid.uuid4().hex[:12]
    table = f"decapitation-e2e-{fresh}"
    create_table(dynamodb, table)
    queue_url = sqs.create_queue(QueueName=f"decapitation-timers-{fresh}")["QueueUrl"]
    monkeypatch.setenv("DECAPITATION_TABLE", table)
    monkeypatch.setenv("WEBHOOK_SECRET", WEBHOOK_SECRET)
    monkeypatch.setenv("TIMER_QUEUE_URL", queue_url)
    monkeypatch.delenv("TELEGRAM_TOKEN_SECRET_ARN", raising=False)
    monkeypatch.delenv("WEBHOOK_SECRET_ARN", raising=False)
    monkeypatch.delenv("BOT_USERNAME", raising=False)
    try:
        yield sqs, queue_url
    finally:
        dynamodb.delete_table(TableName=table)
        sqs.delete_queue(QueueUrl=queue_url)


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


@pytest.fixture
def memory_bot(clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bot]:
    """The local bot's Application on a SQLite file, Telegram answered in memory by the fake
    (not started): no server, no socket, no thread; fast enough for `make test-fast`."""
    for connect in ("connect", "connect_ex"):
        monkeypatch.setattr(socket.socket, connect, _no_network)
    fake = FakeTelegram(TEST_TOKEN)
    bot = MemoryBot(fake, clock, tmp_path / "games.sqlite3")
    try:
        yield bot
        _finish(bot)
        if fake.crashes:
            pytest.fail("the fake Telegram crashed:\n" + "\n".join(fake.crashes))
    finally:
        bot.close()


def _no_network(*args: Any) -> None:
    raise AssertionError("a test on the in-memory Telegram opened a connection")


OVER_HTTP = "over_http"
WAYS = {"memory": ["memory"], OVER_HTTP: ["lambda", "local"]}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test on `bot` plays in memory; one marked `over_http` through both HTTP entries."""
    if "bot" not in metafunc.fixturenames or _bot_of_its_own(metafunc):
        return
    way = OVER_HTTP if metafunc.definition.get_closest_marker(OVER_HTTP) else "memory"
    metafunc.parametrize("bot", WAYS[way], indirect=True)


def _bot_of_its_own(metafunc: pytest.Metafunc) -> bool:
    """Whether the test's module defines a `bot` of its own (which picks its entries itself)."""
    return hasattr(metafunc.module, "bot")


@pytest.fixture
def bot(request: pytest.FixtureRequest) -> Bot:
    """The bot in memory, or (a test marked `over_http`) each HTTP way of running it in turn."""
    return request.getfixturevalue(f"{request.param}_bot")
