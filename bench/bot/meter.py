"""What one update costs the Lambda bot: invocations, store calls and units, Bot API calls and
their sequential rounds."""

from __future__ import annotations

import cProfile
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from handlers.entry import lambda_webhook as lambda_entry
from infra.store import Item, size_of
from testing.drivers import LambdaBot
from testing.fake_telegram.bot_api import METHODS

LATENCY = 0.1  # seconds injected into every Bot API call where rounds are counted
SENDING = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")


def read_units(size: int) -> float:
    """Read units of a strongly consistent GetItem (an absent item costs one)."""
    return max(1, math.ceil(size / 4096))


def write_units(size: int) -> float:
    """Write units of a PutItem or DeleteItem (the larger of the old and new item counts)."""
    return max(1, math.ceil(size / 1024))


@dataclass
class Sample:
    """What one update (or one timer firing) cost."""

    label: str
    webhooks: int = 0
    wakes: int = 0
    reads: int = 0
    writes: int = 0
    rru: float = 0.0
    wru: float = 0.0
    calls: int = 0
    messages: int = 0  # sent, edited or deleted
    rounds: int = 0
    peak: int = 0  # messages in the busiest second
    timers: int = 0  # SQS messages sent
    wall: float = 0.0
    cpu: float = 0.0
    changes_game: bool = True
    methods: list[str] = field(default_factory=list)


class Meter:
    """Counts what the Lambda bot does: invocations, store calls and units, Bot API calls."""

    def __init__(self, bot: LambdaBot, latency: float) -> None:
        self.bot = bot
        self.latency = latency
        self.samples: list[Sample] = []
        self.webhooks = self.wakes = 0
        self.rru = self.wru = 0.0
        self.sizes: dict[str, int] = {}
        self.profile: cProfile.Profile | None = None
        self._wrap_entries()

    def _wrap_entries(self) -> None:
        webhook, timer = lambda_entry.webhook, lambda_entry.timer

        def counted_webhook(event: dict, context: Any = None) -> dict:
            self.webhooks += 1
            return webhook(event, context)

        def counted_timer(event: dict, context: Any = None) -> dict:
            self.wakes += len(event.get("Records", []))  # deployed: one message a call
            return timer(event, context)

        lambda_entry.webhook, lambda_entry.timer = counted_webhook, counted_timer
        self._restore = (webhook, timer)

    def close(self) -> None:
        lambda_entry.webhook, lambda_entry.timer = self._restore

    def attach(self) -> None:
        """Meter the store of the (possibly new) Application (below any read cache)."""
        store = getattr(self.bot.store, "backend", self.bot.store)
        if getattr(store, "_metered", False):
            return
        load, save, delete = store.load, store.save, store.delete
        load_many, save_all = store.load_many, store.save_all

        def metered_load(key: str) -> Item | None:
            item = load(key)
            size = size_of(item) if item else 0
            self.rru += read_units(size)
            self.sizes[key] = size
            return item

        def metered_save(item: Item) -> Item:
            size = size_of(item)
            try:
                return save(item)
            finally:
                self.wru += write_units(max(size, self.sizes.get(item.key, 0)))
                self.sizes[item.key] = size

        def metered_save_all(items: list[Item]) -> list[Item]:
            sizes = [size_of(item) for item in items]
            try:
                return save_all(items)
            finally:  # a transaction costs each item's units twice
                for item, size in zip(items, sizes, strict=True):
                    self.wru += 2 * write_units(max(size, self.sizes.get(item.key, 0)))
                    self.sizes[item.key] = size

        def metered_delete(key: str, version: int) -> None:
            try:
                delete(key, version)
            finally:
                self.wru += write_units(self.sizes.pop(key, 0))

        def metered_load_many(keys: list[str]) -> dict[str, Item | None]:
            found = load_many(keys)
            for key, item in found.items():  # each item's size rounded up on its own
                size = size_of(item) if item else 0
                self.rru += read_units(size)
                self.sizes[key] = size
            return found

        store.load, store.save, store.delete = metered_load, metered_save, metered_delete
        store.load_many, store.save_all = metered_load_many, metered_save_all
        store._metered = True

    @property
    def timers(self) -> Any:
        return self.bot.application.bot_data["runtime"].keeper.wake

    @contextmanager
    def sample(self, label: str, changes_game: bool = True) -> Iterator[Sample]:
        """Measure what happens inside the block as one sample."""
        fake = self.bot.fake
        self.bot.application  # noqa: B018 - built before counting, as a warm function is
        self.attach()
        store = self.bot.store
        start = (store.reads, store.writes, self.rru, self.wru, self.timers.sent)
        invocations = (self.webhooks, self.wakes)
        first_call = len(fake.calls)
        if self.latency:
            for method in METHODS:
                fake.delay_next(method, self.latency, times=1_000_000)
        sample = Sample(label, changes_game=changes_game)
        wall, cpu = time.perf_counter(), time.thread_time()
        if self.profile is not None:
            self.profile.enable()
        try:
            yield sample
        finally:
            if self.profile is not None:
                self.profile.disable()
            sample.cpu = time.thread_time() - cpu
            sample.wall = time.perf_counter() - wall
            fake.clear_faults()
        sample.reads = store.reads - start[0]
        sample.writes = store.writes - start[1]
        sample.rru = self.rru - start[2]
        sample.wru = self.wru - start[3]
        sample.timers = self.timers.sent - start[4]
        sample.webhooks = self.webhooks - invocations[0]
        sample.wakes = self.wakes - invocations[1]
        calls = fake.calls[first_call:]
        sample.calls = len(calls)
        sample.methods = [c.method for c in calls]
        sent = sorted(c.time for c in calls if c.method in SENDING)
        sample.messages = len(sent)
        sample.peak = max((sum(1 for t in sent if s <= t < s + 1) for s in sent), default=0)
        sample.rounds = rounds(calls)
        self.samples.append(sample)


def rounds(calls: list[Any]) -> int:
    """Sequential rounds among Bot API calls: a call is one round after the latest round among
    the calls answered before it started (the fake notes when it answered each)."""
    levels: list[tuple[float, int]] = []  # (answered at, round)
    for call in sorted(calls, key=lambda c: c.time):
        level = 1 + max((r for answered, r in levels if answered <= call.time), default=0)
        levels.append((call.answered or math.inf, level))
    return max((r for _, r in levels), default=0)
