"""Load: 200 games at once, played to their end through the Lambda entries.
Run: `python bench/load.py [--games 200] [--instances 32] [--cap 600]` (docs/performance.md)."""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import threading
import time
import traceback
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import boto3  # noqa: E402 - the bench process itself

from engine.codec import state_from_dict  # noqa: E402
from handlers.entry import lambda_webhook as lambda_entry  # noqa: E402
from infra.dynamo_store import DynamoStore, create_table  # noqa: E402
from testing.drivers import WEBHOOK_SECRET, FakeClock  # noqa: E402
from testing.fake_telegram import FakeTelegram  # noqa: E402
from testing.instances import Instances, PerThread, PoolBot  # noqa: E402
from testing.moto_server import REGION, AtomicMotoServer  # noqa: E402
from testing.players import Table  # noqa: E402

TURNS = 3  # scout-then-done turns before the decapitation


class TimedInstances(Instances):
    """Instances that time each webhook invocation (the handler's own time, queueing aside)."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.times: list[float] = []
        self.statuses: dict[int, int] = {}
        self._times_lock = threading.Lock()

    def webhook(self, event: dict) -> dict:
        def timed() -> dict:
            start = time.perf_counter()
            answer = lambda_entry.webhook(event)
            with self._times_lock:
                self.times.append(time.perf_counter() - start)
                code = answer["statusCode"]
                self.statuses[code] = self.statuses.get(code, 0) + 1
            return answer

        return self._any().submit(timed).result(timeout=120)


def environment(fake: FakeTelegram, endpoint: str) -> tuple[DynamoStore, str]:
    """The table, the timer queue, and the environment the Lambda entries read."""
    os.environ.update(
        {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
            "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
            "AWS_ENDPOINT_URL_SQS": endpoint,
            "AWS_EC2_METADATA_DISABLED": "true",
            "WEBHOOK_SECRET": WEBHOOK_SECRET,
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_BASE_URL": fake.url,
        }
    )
    for var in ("AWS_PROFILE", "TELEGRAM_TOKEN_SECRET_ARN", "WEBHOOK_SECRET_ARN", "BOT_USERNAME"):
        os.environ.pop(var, None)
    dynamodb = boto3.client("dynamodb", region_name=REGION, endpoint_url=endpoint)
    name = f"load-{uuid.uuid4().hex[:8]}"
    create_table(dynamodb, name)
    sqs = boto3.client("sqs", region_name=REGION, endpoint_url=endpoint)
    queue = sqs.create_queue(QueueName=f"timers-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    os.environ["DECAPITATION_TABLE"] = name
    os.environ["TIMER_QUEUE_URL"] = queue
    return DynamoStore(name, client=dynamodb), queue


def play(bot: PoolBot, index: int, tables: list, failures: list, deadline: float) -> None:
    """One game from /newgame to its reveal (its table is recorded even if it fails)."""
    try:
        table = Table.of(bot, 5)
        tables[index] = table
        table.open(table.players[1:])
        table.start()
        for _ in range(TURNS):
            if time.monotonic() > deadline:
                raise TimeoutError("the time cap was reached")
            seat = table.state.turn
            table.scout_and_done(seat, seat % 5 + 1)
        seat = table.state.turn
        table.decapitate(seat, seat % 5 + 1)
    except Exception:
        failures.append((index, traceback.format_exc(limit=3)))


def verdict(bot: PoolBot, tables: list) -> tuple[int, int, list[str]]:
    """(games that ended with a valid result, messages lost, what was lost)."""
    valid, lost, notes = 0, 0, []
    for index, table in enumerate(tables):
        if table is None:
            lost += 1
            notes.append(f"game {index}: never opened")
            continue
        data = table.data()
        state = state_from_dict(data["engine"]) if "engine" in data else None
        ended = (
            data["status"] == "over"
            and state is not None
            and state.over
            and state.outcome is not None
            and state.outcome.winner in ("red", "blue")
        )
        if ended and table.ending() is not None:
            valid += 1
        owed = sum(len(batch["outs"]) for batch in table.envelope().get("owed", []))
        if owed:
            lost += owed
            notes.append(f"game {index}: {owed} message(s) still owed")
        for player in table.players:
            cards = [t for t in player.texts() if t.startswith("🪑") or "Your card" in t]
            if state is not None and not cards:
                lost += 1
                notes.append(f"game {index}: {player.name} never got a card")
        if state is not None and state.over and table.ending() is None:
            lost += 1
            notes.append(f"game {index}: the group never saw the reveal")
    failed_calls = [c for c in bot.fake.calls if c.kind not in ("ok", "superseded")]
    for call in failed_calls:
        lost += 1
        notes.append(f"Telegram call failed: {call.method} {call.status} {call.description}")
    return valid, lost, notes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--instances", type=int, default=32)
    parser.add_argument("--cap", type=float, default=600.0, help="seconds before giving up")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    server = AtomicMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    fake = FakeTelegram(callback_timeout=600).start()
    store, _ = environment(fake, f"http://{host}:{port}")
    lambda_entry._state = PerThread()  # each instance thread keeps its own Application
    lambda_entry.reset(clock=time.time)
    print(f"warming {args.instances} instances ...", flush=True)
    instances = TimedInstances(args.instances)
    bot = PoolBot(fake, FakeClock(time.time()), instances, store, [None])

    tables: list = [None] * args.games
    failures: list = []
    deadline = time.monotonic() + args.cap
    threads = [
        threading.Thread(target=play, args=(bot, i, tables, failures, deadline), daemon=True)
        for i in range(args.games)
    ]
    print(f"playing {args.games} games at once ...", flush=True)
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    elapsed = time.perf_counter() - start
    running = sum(thread.is_alive() for thread in threads)

    valid, lost, notes = verdict(bot, tables)
    times = sorted(instances.times)
    p50 = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print()
    print(f"games                 {args.games} at once on {args.instances} instances")
    print(f"updates handled       {len(times)} in {elapsed:.1f} s")
    print(f"updates per second    {len(times) / elapsed:.1f}")
    print(f"handler time          p50 {p50:.0f} ms, p99 {p99:.0f} ms")
    print(f"webhook answers       {dict(sorted(instances.statuses.items()))}")
    print(f"handler failures      {len(instances.errors)}")
    print(f"valid results         {valid} of {args.games}")
    print(f"messages lost         {lost}")
    if running:
        print(f"stopped at the cap    {running} game(s) still playing")
    for index, trace in failures[:3]:
        print(f"game {index} failed:\n{trace}")
    for note in notes[:10]:
        print(note)
    instances.close()
    fake.stop()
    server.stop()
    ok = valid == args.games and lost == 0 and not instances.errors and not failures
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
