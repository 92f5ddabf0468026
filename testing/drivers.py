"""The bot under test, run three ways (its Lambda entries, its local poller, its Application with
Telegram in memory), each offering `act`, `advance` and `item` to the simulated players."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import Application, ApplicationBuilder, TypeHandler

from handlers.display.texts import ALLOWED_UPDATES
from handlers.entry import lambda_webhook as lambda_entry
from handlers.entry.local import make_application
from handlers.telegram.group import Wake
from infra.store import GameStore, Item
from testing.fake_telegram import FakeTelegram
from testing.fake_telegram.memory import MEMORY_URL, MemoryRequest
from testing.fake_telegram.webhook_queue import WebhookQueue

SETTLE_SECONDS = 5.0
START = 4_000_000_000  # the clock's start, far ahead of the real time: nothing real expires
WEBHOOK_SECRET = "e2e-secret_0123456789"


class FakeClock:
    """A settable clock in epoch seconds."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Bot:
    """What both ways of running the bot share."""

    kind = ""

    def __init__(self, fake: FakeTelegram, clock: FakeClock) -> None:
        self.fake = fake
        self.clock = clock
        self.seed: int | None = None
        self.errors: list[BaseException] = []
        self.tables: list[Any] = []  # the players.Table helpers that played here

    @property
    def application(self) -> Application:
        raise NotImplementedError

    @property
    def store(self) -> GameStore:
        """The store the bot's keeper writes to."""
        return self.application.bot_data["runtime"].keeper.store

    def item(self, chat: int) -> Item | None:
        """The stored table of a group, as the bot left it."""
        return self.store.load(f"game#{chat}")

    def act(self, deed: Callable[[], dict | None]) -> dict | None:
        """A user acts in Telegram; returns the update (if the bot got one) once it is handled."""
        raise NotImplementedError

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass on the clock and handle every timer that falls due."""
        raise NotImplementedError

    def redeliver(self, update: dict) -> None:
        """Hand the bot an update it has handled before, as Telegram may deliver it again."""
        raise NotImplementedError

    def settle(self) -> None:
        """Handle every update Telegram has for the bot (one not returned by a user's act)."""
        raise NotImplementedError("only the Lambda bot is handed its updates one by one")

    async def _on_error(self, update: object, context: Any) -> None:
        """An error handler beside the bot's own: a failing handler fails the test."""
        self.errors.append(context.error)


class LambdaBot(Bot):
    """The webhook and timer Lambda entries, on DynamoDB and SQS under moto."""

    kind = "lambda"

    def __init__(self, fake: FakeTelegram, clock: FakeClock, sqs: Any, queue_url: str) -> None:
        super().__init__(fake, clock)
        self.sqs = sqs
        self.queue_url = queue_url
        self.queue: WebhookQueue | None = None  # Telegram's own delivery, when a test asks
        lambda_entry.reset(clock=clock, seed=lambda: self.seed)

    @property
    def application(self) -> Application:
        fresh = "app" not in lambda_entry._state
        app = lambda_entry.application()
        if fresh:
            app.add_error_handler(self._on_error)
        return app

    @staticmethod
    def event(body: str, headers: dict[str, str] | None = None) -> dict:
        """An API Gateway (HTTP API v2) event carrying `body`."""
        if headers is None:
            headers = {
                "content-type": "application/json",
                "x-telegram-bot-api-secret-token": WEBHOOK_SECRET,
            }
        return {
            "version": "2.0",
            "routeKey": "POST /webhook",
            "rawPath": "/webhook",
            "rawQueryString": "",
            "headers": headers,
            "body": body,
            "isBase64Encoded": False,
            "requestContext": {
                "http": {"method": "POST", "path": "/webhook", "sourceIp": "149.154.167.1"},
                "routeKey": "POST /webhook",
                "stage": "$default",
            },
        }

    def post(self, update: dict) -> dict:
        """Deliver one update to the webhook entry; the test fails unless it is answered 200."""
        answer = self.answer(update)
        assert answer["statusCode"] == 200, answer
        return answer

    def answer(self, update: dict) -> dict:
        """The webhook entry's answer to one update."""
        self.application  # noqa: B018 - a cold start builds it; the recorder must be on it
        return lambda_entry.webhook(self.event(json.dumps(update)))

    def deliver_as_telegram(self) -> WebhookQueue:
        """From now on, updates go out as Telegram sends them: each chat's in order, the next
        only after a 2xx, a failed one again after growing delays (see `WebhookQueue`)."""
        self.queue = WebhookQueue(self.clock)
        return self.queue

    def settle(self) -> None:
        """Deliver every update Telegram holds for the bot, in order."""
        if self.queue is not None:
            for update in self.fake.next_updates():
                self.queue.add(update)
            self.queue.deliver(lambda update: self.answer(update)["statusCode"])
            return
        while updates := self.fake.next_updates():
            for update in updates:
                self.post(update)

    def act(self, deed: Callable[[], dict | None]) -> dict | None:
        update = deed()
        self.settle()
        return update

    def redeliver(self, update: dict) -> None:
        self.post(update)
        self.settle()

    def due_timers(self) -> list[str]:
        """Take the timer messages SQS would deliver now (moto's SQS keeps the test's time)."""
        bodies = []
        while True:
            got = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
            )
            messages = got.get("Messages", [])
            if not messages:
                return bodies
            for message in messages:
                bodies.append(message["Body"])  # one hop of a long wait may come early
                self.sqs.delete_message(
                    QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"]
                )

    def advance(self, seconds: float) -> None:
        until = self.clock() + seconds
        while self.queue is not None and (due := self.queue.next_try()) is not None:
            if due > until:
                break
            self.clock.now = max(self.clock.now, due)
            self.settle()  # Telegram's retries, each at its moment
        self.clock.now = max(self.clock.now, until)
        for _ in range(20):
            bodies = self.due_timers()
            if not bodies:
                return
            lambda_entry.timer({"Records": [{"body": body} for body in bodies]})
            self.settle()
        raise AssertionError("timers keep firing")

    def close(self) -> None:
        lambda_entry.reset()


class LocalBot(Bot):
    """The long-polling bot of `make play`, on a SQLite file, in its own thread and loop."""

    kind = "local"

    def __init__(
        self, fake: FakeTelegram, clock: FakeClock, db: Path, env: dict[str, str] | None = None
    ) -> None:
        super().__init__(fake, clock)
        self.db = db
        self.env = env or {}  # more of the environment `make play` reads (the table's, say)
        self._app: Application | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._cond = threading.Condition()
        self._handled: set[int] = set()
        self._wakes_handled = 0
        self._wakes_sent = 0
        self._timers: dict[int, float] = {}  # chat -> the deadline it was last woken for
        self._crash: BaseException | None = None

    @property
    def application(self) -> Application:
        assert self._app is not None, "the local bot is not running"
        return self._app

    def start(self) -> LocalBot:
        self._thread = threading.Thread(target=self._run, name="local-bot", daemon=True)
        self._thread.start()
        if not self._ready.wait(10) or self._crash:
            raise AssertionError(f"the local bot did not start: {self._crash!r}")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as err:  # surfaced by start() and close()
            self._crash = err
            self._ready.set()

    async def _main(self) -> None:
        env = {"DECAPITATION_DB": str(self.db), "TELEGRAM_API_BASE_URL": self.fake.url}
        env |= self.env
        app = make_application(self.fake.token, env, clock=self.clock, seed=lambda: self.seed)
        app.add_handler(TypeHandler(object, self._handled_one), group=99)
        app.add_error_handler(self._on_error)
        keeper = app.bot_data["runtime"].keeper
        wake = keeper.wake

        def wake_at(chat: int, when: float) -> None:
            with self._cond:
                self._timers[chat] = when
            wake(chat, when)

        keeper.wake = wake_at
        self._app, self._loop, self._stop = app, asyncio.get_running_loop(), asyncio.Event()
        await app.initialize()
        await app.post_init(app)
        await app.start()
        await app.updater.start_polling(
            poll_interval=0, timeout=1, allowed_updates=ALLOWED_UPDATES
        )
        self._ready.set()
        await self._stop.wait()
        await app.updater.stop()
        await app.stop()
        await app.post_stop(app)
        await app.shutdown()
        app.bot_data["runtime"].keeper.store.close()

    async def _handled_one(self, update: object, context: Any) -> None:
        with self._cond:
            if isinstance(update, Update):
                self._handled.add(update.update_id)
            elif isinstance(update, Wake):
                self._wakes_handled += 1
            self._cond.notify_all()

    def _wait(self, done: Callable[[], bool], what: str) -> None:
        with self._cond:
            if not self._cond.wait_for(done, SETTLE_SECONDS):
                raise AssertionError(f"the local bot did not handle {what} in time")

    def act(self, deed: Callable[[], dict | None]) -> dict | None:
        update = deed()
        if update is not None:
            uid = update["update_id"]
            self._wait(lambda: uid in self._handled, f"update {uid}")
        return update

    def redeliver(self, update: dict) -> None:
        app = self.application
        again = app.process_update(Update.de_json(update, app.bot))
        asyncio.run_coroutine_threadsafe(again, self._loop).result(SETTLE_SECONDS)

    def wait_for_wakes(self, count: int) -> None:
        """Wait until the bot has handled `count` timer wake-ups since it started."""
        self._wait(lambda: self._wakes_handled >= count, f"{count} wake-ups")

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        for _ in range(20):
            with self._cond:
                due = [chat for chat, when in self._timers.items() if when <= self.clock()]
                for chat in due:
                    del self._timers[chat]
                self._wakes_sent += len(due)
            if not due:
                return
            for chat in due:
                # Re-arm the bot's own timer for now: it fires through LocalTimers as it would.
                timers = self.application.bot_data["timers"]
                self._loop.call_soon_threadsafe(timers, chat, self.clock())
            self._wait(lambda: self._wakes_handled >= self._wakes_sent, "a timer")
        raise AssertionError("timers keep firing")

    def close(self) -> None:
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(10)
            assert not self._thread.is_alive(), "the local bot did not stop"
        if self._crash is not None:
            raise self._crash


class MemoryBot(Bot):
    """The local bot's Application (SQLite, its handlers as `make play` registers them) with
    Telegram answered in memory: no server, no socket, no thread. Each update a user's act
    makes is handed to the Application at once, and a timer fires when the clock reaches it."""

    kind = "memory"

    def __init__(self, fake: FakeTelegram, clock: FakeClock, db: Path) -> None:
        super().__init__(fake, clock)
        env = {"DECAPITATION_DB": str(db), "TELEGRAM_API_BASE_URL": MEMORY_URL}
        with answered_in_memory(fake):
            app = make_application(fake.token, env, clock=clock, seed=lambda: self.seed)
        assert isinstance(app.bot.request, MemoryRequest), "the Application was built otherwise"
        app.add_error_handler(self._on_error)
        self._app = app
        self._timers: dict[int, float] = {}  # chat -> when the bot asked to be woken
        app.bot_data["runtime"].keeper.wake = self._wake_at
        self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(app.initialize())
        self._loop.run_until_complete(app.post_init(app))

    @property
    def application(self) -> Application:
        return self._app

    def _wake_at(self, chat: int, when: float) -> None:
        self._timers[chat] = when

    def _handle(self, update: object) -> None:
        self._loop.run_until_complete(self._app.process_update(update))

    def redeliver_wake(self, chat: int, due: float | None = None) -> None:
        """Hand the bot a timer's Wake again (set for `due`), as a queue may deliver it twice."""
        self._handle(Wake(chat, due))
        self.settle()

    def settle(self) -> None:
        while updates := self.fake.next_updates():
            for update in updates:
                self._handle(Update.de_json(update, self._app.bot))

    def act(self, deed: Callable[[], dict | None]) -> dict | None:
        update = deed()
        self.settle()
        return update

    def redeliver(self, update: dict) -> None:
        self._handle(Update.de_json(update, self._app.bot))
        self.settle()

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        for _ in range(20):
            due = sorted(chat for chat, when in self._timers.items() if when <= self.clock())
            if not due:
                return
            for chat in due:
                del self._timers[chat]
                self._handle(Wake(chat))
            self.settle()
        raise AssertionError("timers keep firing")

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._loop.run_until_complete(self._app.post_stop(self._app))
        self._loop.run_until_complete(self._app.shutdown())
        self._app.bot_data["runtime"].keeper.store.close()
        self._loop.close()


@contextmanager
def answered_in_memory(fake: FakeTelegram) -> Iterator[None]:
    """Applications built meanwhile send their requests to `fake` in memory: given to their
    builder, as python-telegram-bot's own tests give theirs (the entry builds it out of reach)."""
    build = ApplicationBuilder.build

    def built(builder: ApplicationBuilder) -> Application:
        answered = MemoryRequest(fake)
        builder.request(answered).get_updates_request(answered)
        return build(builder)

    ApplicationBuilder.build = built  # type: ignore[method-assign]
    try:
        yield
    finally:
        ApplicationBuilder.build = build  # type: ignore[method-assign]
