"""Fixtures for the robustness tests: the e2e bot and, for real concurrency, warm Lambda
instances on threads, both against the session's moto server on loopback."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import boto3
import pytest
from botocore.config import Config

from handlers.entry import lambda_webhook as lambda_entry
from infra import dynamo_store
from infra.dynamo_store import DynamoStore, create_table
from testing import leaks
from testing.drivers import START, WEBHOOK_SECRET, FakeClock
from testing.fake_telegram import NOT_MODIFIED, FakeTelegram
from testing.instances import Instances, PerThread, PoolBot
from testing.moto_server import REGION

INSTANCES = 20


@dataclass
class Pool:
    """What the tests of a module share: a fake Telegram, a clock, a table on the moto server
    and warm Lambda instances configured for them."""

    fake: FakeTelegram
    clock: FakeClock
    store: DynamoStore
    instances: Instances
    seed: list  # [seed or None], read by every instance's Application at each Start


@contextmanager
def open_pool(
    moto_server: str, *, endpoint: str | None = None, count: int = INSTANCES, **env: str
) -> Iterator[Pool]:
    """A fake Telegram, a table on the moto server and `count` warm Lambda instances whose
    DynamoDB calls go to `endpoint` (the moto server itself unless given), with `env` set."""
    fake = FakeTelegram().start()
    now = FakeClock(START)
    seed: list = [None]
    client = boto3.client(
        "dynamodb",
        region_name=REGION,
        endpoint_url=moto_server,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(max_pool_connections=64, retries={"mode": "standard"}),
    )
    name = f"games-{uuid.uuid4().hex[:12]}"
    create_table(client, name)
    with pytest.MonkeyPatch.context() as patch:
        for var, value in {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
            "AWS_ENDPOINT_URL_DYNAMODB": endpoint or moto_server,
            "AWS_EC2_METADATA_DISABLED": "true",
            "DECAPITATION_TABLE": name,
            "WEBHOOK_SECRET": WEBHOOK_SECRET,
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_BASE_URL": fake.url,
            **env,
        }.items():
            patch.setenv(var, value)
        for var in (
            "AWS_PROFILE",
            "TIMER_QUEUE_URL",
            "TELEGRAM_TOKEN_SECRET_ARN",
            "WEBHOOK_SECRET_ARN",
            "BOT_USERNAME",
        ):
            patch.delenv(var, raising=False)
        patch.setattr(dynamo_store, "_client", None)
        lambda_entry.reset()
        patch.setattr(lambda_entry, "_state", PerThread())
        lambda_entry.reset(clock=now, seed=lambda: seed[0])
        instances = Instances(count)
        try:
            yield Pool(fake, now, DynamoStore(name, client=client, clock=now), instances, seed)
        finally:
            instances.close()
            lambda_entry.reset()
            fake.stop()
            client.delete_table(TableName=name)
    if fake.crashes:
        pytest.fail("the fake Telegram server crashed:\n" + "\n".join(fake.crashes))


@pytest.fixture(scope="module")
def pool(moto_server: str) -> Iterator[Pool]:
    with open_pool(moto_server) as opened:
        yield opened


@contextmanager
def bot_on(pool: Pool) -> Iterator[PoolBot]:
    """The bot on the pool's warm Lambda instances; ends with the e2e checks (no card leaked,
    no call Telegram would refuse, no handler failed) over what was done meanwhile."""
    pool.fake.clear_faults()
    pool.fake.next_updates()
    mark = len(pool.fake.calls)
    pooled = PoolBot(pool.fake, pool.clock, pool.instances, pool.store, pool.seed)
    pooled.errors.clear()
    yield pooled
    for table in pooled.tables:
        leaks.check(table)
    # Instances racing to redraw one message may send the same text twice: Telegram answers
    # "not modified", which the bot takes as done.
    refused = [
        call
        for call in pool.fake.calls[mark:]
        if call.kind == "crashed" or (call.kind == "refused" and call.description != NOT_MODIFIED)
    ]
    assert not refused, "calls refused by Telegram:\n" + "\n".join(map(str, refused))
    assert not pooled.errors, f"handlers failed: {pooled.errors!r}"


@pytest.fixture
def pool_bot(pool: Pool) -> Iterator[PoolBot]:
    """The bot on the module's warm Lambda instances, with the e2e checks at its end."""
    with bot_on(pool) as pooled:
        yield pooled
