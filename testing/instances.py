"""Concurrent Lambda invocations: warm instances on threads, each with its own Application,
sharing one DynamoDB served by moto on loopback."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from handlers.entry import lambda_webhook as lambda_entry
from infra.dynamo_store import DynamoStore
from infra.store import GameStore
from testing.drivers import WEBHOOK_SECRET, Bot, FakeClock, LambdaBot
from testing.fake_telegram import FakeTelegram


class PerThread:
    """A stand-in for `lambda_entry._state` that every thread sees as its own dict."""

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def _data(self) -> dict[str, Any]:
        data = getattr(self._local, "data", None)
        if data is None:
            data = self._local.data = {}
        return data

    def get(self, key: str, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._data[key] = value

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def clear(self) -> None:
        self._data.clear()


_cold_start = threading.Lock()  # one Application built at a time: builds set module state


class Instance(threading.Thread):
    """One warm Lambda instance: a thread that runs the entries it is handed, one at a time."""

    def __init__(self, name: str, errors: list[BaseException]) -> None:
        super().__init__(name=name, daemon=True)
        self.tasks: queue.Queue[tuple[Callable[[], Any], Future] | None] = queue.Queue()
        self.errors = errors

    def run(self) -> None:
        while (task := self.tasks.get()) is not None:
            call, future = task
            try:
                future.set_result(call())
            except BaseException as err:  # handed to the caller
                future.set_exception(err)
        self._shutdown()

    def warm(self) -> None:
        """A cold start: build this instance's Application (and record its handlers' errors)."""
        with _cold_start:
            app = lambda_entry.application()

        async def record(update: object, context: Any) -> None:
            self.errors.append(context.error)

        app.add_error_handler(record)

    def submit(self, call: Callable[[], Any]) -> Future:
        future: Future = Future()
        self.tasks.put((call, future))
        return future

    @staticmethod
    def _shutdown() -> None:
        app, loop = lambda_entry._state.get("app"), lambda_entry._state.get("loop")
        if app is not None and loop is not None and not loop.is_closed():
            loop.run_until_complete(app.shutdown())
        if loop is not None and not loop.is_closed():
            loop.close()
        lambda_entry._state.clear()


class Instances:
    """`count` warm Lambda instances sharing one DynamoDB table (see the module docstring)."""

    def __init__(self, count: int) -> None:
        self.errors: list[BaseException] = []  # exceptions the handlers raised
        self.instances = [Instance(f"lambda-{i}", self.errors) for i in range(count)]
        for instance in self.instances:
            instance.start()
        for future in [i.submit(i.warm) for i in self.instances]:
            future.result(timeout=60)
        self._next = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.instances)

    def _any(self) -> Instance:
        with self._lock:
            instance = self.instances[self._next % len(self.instances)]
            self._next += 1
            return instance

    def webhook(self, event: dict) -> dict:
        """One invocation of the webhook entry on some instance; returns its response."""
        return self._any().submit(lambda: lambda_entry.webhook(event)).result(timeout=120)

    def timer(self, event: dict) -> dict:
        """One invocation of the timer entry on some instance."""
        return self._any().submit(lambda: lambda_entry.timer(event)).result(timeout=120)

    def at_once(self, calls: Sequence[Callable[[], Any]]) -> list[Any]:
        """Run each call on its own instance, all released at the same moment; their results
        (or exceptions, returned rather than raised) in order."""
        if len(calls) > len(self.instances):
            raise ValueError("more simultaneous calls than instances")
        barrier = threading.Barrier(len(calls))

        def released(call: Callable[[], Any]) -> Callable[[], Any]:
            def go() -> Any:
                barrier.wait(timeout=30)
                return call()

            return go

        futures = [i.submit(released(c)) for i, c in zip(self.instances, calls, strict=False)]
        results = []
        for future in futures:
            try:
                results.append(future.result(timeout=120))
            except Exception as err:
                results.append(err)
        return results

    def webhooks_at_once(self, events: Sequence[dict]) -> list[Any]:
        """Each event to the webhook entry of its own instance, all at the same moment."""
        return self.at_once([lambda e=event: lambda_entry.webhook(e) for event in events])

    def close(self) -> None:
        for instance in self.instances:
            instance.tasks.put(None)
        for instance in self.instances:
            instance.join(timeout=30)


def webhook_event(update: dict, secret: str = WEBHOOK_SECRET) -> dict:
    """The API Gateway event Telegram's delivery of `update` becomes."""
    return LambdaBot.event(
        json.dumps(update),
        {"content-type": "application/json", "x-telegram-bot-api-secret-token": secret},
    )


def timer_event(chat: int, due: float) -> dict:
    """The SQS event of a timer set for `chat` at `due`."""
    return {
        "Records": [
            {"messageId": f"m-{chat}-{due}", "body": json.dumps({"chat": chat, "due": due})}
        ]
    }


class PoolBot(Bot):
    """The bot behind `Instances`: each user's act is one webhook invocation."""

    kind = "pool"

    def __init__(
        self,
        fake: FakeTelegram,
        clock: FakeClock,
        instances: Instances,
        store: DynamoStore,
        seed: list,
    ) -> None:
        self._seed = seed
        super().__init__(fake, clock)
        self.instances = instances
        self._store = store
        self.errors = instances.errors

    @property
    def seed(self) -> int | None:  # what the instances deal with at the next Start
        return self._seed[0]

    @seed.setter
    def seed(self, value: int | None) -> None:
        self._seed[0] = value

    @property
    def store(self) -> GameStore:
        return self._store

    def post(self, update: dict) -> dict:
        """Deliver `update` to one instance; Telegram retries it while the answer is not 200."""
        for _ in range(10):
            answer = self.instances.webhook(webhook_event(update))
            if answer["statusCode"] == 200:
                return answer
        raise AssertionError(f"update {update['update_id']} was never accepted: {answer}")

    def act(self, deed: Callable[[], dict | None]) -> dict | None:
        update = deed()
        if update is not None:
            self.post(update)
        return update

    def settle(self) -> None:
        self.fake.next_updates()  # each act posts its own update; service updates are dropped

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
