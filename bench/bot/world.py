"""The fake network of the bot benchmark: a moto server (DynamoDB, SQS) and the fake Bot API on
loopback, and the Lambda bot on them."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import boto3
from moto.server import ThreadedMotoServer

from infra.dynamo_store import create_table
from testing.drivers import WEBHOOK_SECRET, FakeClock, LambdaBot
from testing.fake_telegram import TEST_TOKEN, FakeTelegram
from testing.players import Player

ROOT = Path(__file__).resolve().parents[2]
REGION = "us-east-1"
START = 4_000_000_000  # the bot's clock (epoch seconds), far from the real time


class World:
    """A moto server (DynamoDB, SQS) and the fake Bot API, both on loopback, and the environment
    the Lambda entry reads (set in this process and handed to child processes)."""

    def __init__(self, home: Path) -> None:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.moto.start()
        host, port = self.moto.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        for name in [n for n in os.environ if n.startswith("AWS_")] + ["BOT_USERNAME"]:
            os.environ.pop(name, None)
        os.environ.pop("TELEGRAM_TOKEN_SECRET_ARN", None)
        os.environ.pop("WEBHOOK_SECRET_ARN", None)
        self.fake = FakeTelegram(TEST_TOKEN).start()
        os.environ.update(
            AWS_ACCESS_KEY_ID="testing",
            AWS_SECRET_ACCESS_KEY="testing",
            AWS_SESSION_TOKEN="testing",
            AWS_DEFAULT_REGION=REGION,
            AWS_REGION=REGION,
            AWS_CONFIG_FILE=str(home / "no-aws-config"),
            AWS_SHARED_CREDENTIALS_FILE=str(home / "no-aws-credentials"),
            AWS_EC2_METADATA_DISABLED="true",
            AWS_ENDPOINT_URL=self.endpoint,
            NO_PROXY="127.0.0.1,localhost",
            WEBHOOK_SECRET=WEBHOOK_SECRET,
            TELEGRAM_BOT_TOKEN=self.fake.token,
            TELEGRAM_API_BASE_URL=self.fake.url,
        )
        self.dynamo = boto3.client("dynamodb", region_name=REGION)
        self.sqs = boto3.client("sqs", region_name=REGION)

    def fresh(self, name: str) -> tuple[str, str]:
        """A new game table and timer queue for one part of the bench; set in the environment."""
        create_table(self.dynamo, f"bench-{name}")
        queue = self.sqs.create_queue(QueueName=f"bench-{name}")["QueueUrl"]
        os.environ.update(DECAPITATION_TABLE=f"bench-{name}", TIMER_QUEUE_URL=queue)
        return f"bench-{name}", queue

    def close(self) -> None:
        self.fake.stop()
        self.moto.stop()


def new_bot(world: World, name: str) -> tuple[LambdaBot, FakeClock]:
    """The Lambda bot on a fresh table and queue, its SQS delays measured on its own clock."""
    import moto.sqs.models

    _, queue = world.fresh(name)
    clock = FakeClock(START)
    moto.sqs.models.unix_time_millis = lambda: clock() * 1000
    return LambdaBot(world.fake, clock, world.sqs, queue), clock


def say_as(player: Player, text: str) -> None:
    """A group message by a player (the bot sees it when it is an admin)."""
    player.say(text)
