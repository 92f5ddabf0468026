"""The fake Bot API delivers webhook updates as Telegram does: each chat's in order, the next
only after a 2xx, a failed one again after growing delays, other chats meanwhile, none after a
day."""

from __future__ import annotations

import itertools

from testing.drivers import FakeClock
from testing.fake_telegram.webhook_queue import GIVE_UP, RETRY_DELAYS, WebhookQueue


def update(update_id: int, chat: int) -> dict:
    return {"update_id": update_id, "message": {"message_id": 1, "chat": {"id": chat}}}


def test_a_chats_next_update_waits_for_a_2xx_and_other_chats_do_not() -> None:
    clock = FakeClock(1000.0)
    queue = WebhookQueue(clock)
    for n, chat in ((1, -1), (2, -1), (3, -2)):
        queue.add(update(n, chat))
    posted: list[int] = []

    def post(u: dict) -> int:
        posted.append(u["update_id"])
        return 500 if u["update_id"] == 1 else 200

    queue.deliver(post)
    assert posted == [1, 3]  # the failing 1 holds 2 back; chat -2 goes on
    assert [p.update["update_id"] for p in queue.waiting()] == [1, 2]


def test_a_failed_update_is_tried_again_after_growing_delays() -> None:
    clock = FakeClock(1000.0)
    queue = WebhookQueue(clock)
    queue.add(update(1, -1))
    tries: list[float] = []

    def post(u: dict) -> int:
        tries.append(clock())
        return 502

    for _ in range(5):
        queue.deliver(post)
        clock.now = queue.next_try()
    gaps = [b - a for a, b in itertools.pairwise(tries)]
    assert gaps == list(RETRY_DELAYS[:4])


def test_telegram_drops_an_update_after_a_day() -> None:
    clock = FakeClock(1000.0)
    queue = WebhookQueue(clock)
    queue.add(update(1, -1))
    queue.deliver(lambda u: 500)
    clock.now += GIVE_UP
    queue.deliver(lambda u: 500)
    assert queue.waiting() == [] and queue.done[0].answers == [500, 500]
