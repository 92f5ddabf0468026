"""Telegram's webhook delivery contract: one queue of updates per chat, in order; a chat's next
update goes out only once the one before it was answered 2xx; a failed one is sent again after
growing delays (at most a minute or two apart), and dropped after a day."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

RETRY_DELAYS = (1, 2, 4, 8, 16, 32, 60, 120)  # seconds before each new try; then every 120 s
GIVE_UP = 24 * 3600  # seconds after its first try, an update is dropped


@dataclass
class Pending:
    """An update waiting in its chat's queue, and how its deliveries went."""

    update: dict[str, Any]
    first: float | None = None
    next_try: float = 0.0
    answers: list[int] = field(default_factory=list)


def chat_of(update: dict[str, Any]) -> Any:
    """The queue an update waits in: its chat (a button's: the chat of its message)."""
    body = next((value for key, value in update.items() if key != "update_id"), None)
    if not isinstance(body, dict):
        return None  # no chat to tell: one queue for all such
    message = body.get("message") if "chat_instance" in body else body
    chat = message.get("chat") if isinstance(message, dict) else None
    sender = body.get("from") if isinstance(body.get("from"), dict) else {}
    return chat.get("id") if isinstance(chat, dict) else sender.get("id")


class WebhookQueue:
    """Holds the updates Telegram has for a webhook and delivers them as Telegram does."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.queues: dict[Any, deque[Pending]] = {}
        self.done: list[Pending] = []  # answered 2xx or dropped, in that order

    def add(self, update: dict[str, Any]) -> None:
        """An update Telegram now holds for the bot."""
        self.queues.setdefault(chat_of(update), deque()).append(Pending(update))

    def deliver(self, post: Callable[[dict[str, Any]], int]) -> None:
        """Post every update whose turn has come (`post` answers the HTTP status)."""
        for queue in self.queues.values():
            while queue and queue[0].next_try <= self.clock():
                head = queue[0]
                now = self.clock()
                head.first = now if head.first is None else head.first
                status = post(head.update)
                head.answers.append(status)
                if 200 <= status < 300 or now - head.first >= GIVE_UP:
                    self.done.append(queue.popleft())
                    continue
                tries = len(head.answers)
                head.next_try = now + RETRY_DELAYS[min(tries, len(RETRY_DELAYS)) - 1]
        self.queues = {chat: queue for chat, queue in self.queues.items() if queue}

    def next_try(self) -> float | None:
        """When the next held update is to be sent (None: nothing is held)."""
        return min((queue[0].next_try for queue in self.queues.values()), default=None)

    def waiting(self) -> list[Pending]:
        """The updates still held, each chat's in order."""
        return [pending for queue in self.queues.values() for pending in queue]
