"""Waking a table when its deadline comes: asyncio locally, delayed SQS messages on AWS."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from typing import Any

SQS_MAX_DELAY = 900  # seconds; a later deadline is reached in hops


class LocalTimers:
    """In-process timers for the polling bot: each deadline puts a wake-up on the update queue."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.queue: asyncio.Queue | None = None
        self.make_wake: Callable[[int], Any] | None = None
        self._handles: dict[int, asyncio.TimerHandle] = {}

    def attach(self, queue: asyncio.Queue, make_wake: Callable[[int], Any]) -> None:
        """Deliver wake-ups into `queue` (the Application's update queue)."""
        self.queue, self.make_wake = queue, make_wake

    def __call__(self, chat: int, when: float) -> None:
        """Wake `chat` at `when` (replacing any earlier timer for it)."""
        if self.queue is None:
            return
        loop = asyncio.get_running_loop()
        old = self._handles.pop(chat, None)
        if old is not None:
            old.cancel()
        delay = max(0.0, when - self.clock()) + 0.05
        self._handles[chat] = loop.call_later(delay, self._fire, chat)

    def _fire(self, chat: int) -> None:
        self._handles.pop(chat, None)
        if self.queue is not None and self.make_wake is not None:
            self.queue.put_nowait(self.make_wake(chat))

    def cancel_all(self) -> None:
        """Stop every pending timer."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()


class SqsTimers:
    """Timers on AWS: a message with a per-message delay wakes the timer function."""

    def __init__(self, queue_url: str, client: Any = None, clock: Callable[[], float] = time.time):
        self.queue_url = queue_url
        self._client = client
        self.clock = clock
        self.sent = 0

    @property
    def client(self) -> Any:
        """The SQS client (created on first use)."""
        if self._client is None:
            from infra import aws

            self._client = aws.client("sqs")
        return self._client

    def __call__(self, chat: int, when: float) -> None:
        """Send a wake-up for `chat` that arrives at `when` (or hops towards it)."""
        delay = min(SQS_MAX_DELAY, max(0, math.ceil(when - self.clock())))
        body = json.dumps({"chat": chat, "due": when})
        self.client.send_message(QueueUrl=self.queue_url, MessageBody=body, DelaySeconds=delay)
        self.sent += 1


def parse_wake(body: str) -> tuple[int, float] | None:
    """(chat, due) from a timer message body, or None if it is not one."""
    try:
        data = json.loads(body)
        return int(data["chat"]), float(data["due"])
    except (ValueError, TypeError, KeyError):
        return None
