"""One update that keeps failing never freezes its group: Telegram holds a chat's later updates
behind it (the fake Bot API's `WebhookQueue` does the same), so after a few failed deliveries it
is answered 200, logged at ERROR with its update and chat (a line the stack's alarm counts), and
the group goes on."""

from __future__ import annotations

import logging

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from testing.drivers import LambdaBot
from testing.players import Table
from tests.support.faults import break_reading


def test_an_update_that_keeps_failing_holds_its_group_back_a_minute_at_most(
    lambda_bot: LambdaBot, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    queue = lambda_bot.deliver_as_telegram()
    table = Table.of(lambda_bot, 4)
    table.open()
    mend = break_reading(monkeypatch, table.chat)
    status = table.host.say("/status")
    table.host.say("/help")
    assert [p.update["update_id"] for p in queue.waiting()] == [status["update_id"], ANY_NEXT]
    lambda_bot.advance(60)
    assert queue.waiting() == [], "the group's updates are still held after a minute"
    first = next(p for p in queue.done if p.update["update_id"] == status["update_id"])
    assert first.answers == [500] * (lambda_entry.MAX_FAILURES - 1) + [200]
    given_up = [
        r
        for r in caplog.records
        if r.levelno == logging.ERROR and getattr(r, "update_id", None) == status["update_id"]
    ]
    assert given_up and all(r.chat_id == table.chat for r in given_up)
    # The field the stack's metric filter counts, so that one given-up update alarms.
    assert [getattr(r, lambda_entry.GIVEN_UP, False) for r in given_up].count(True) == 1
    lambda_bot.errors.clear()  # the failures this test made on purpose
    mend()
    table.host.say("/help")  # the group goes on at once
    assert queue.waiting() == []
    assert lambda_bot.fake.texts(table.group)[-1].startswith("🎯")


class _AnyNext:
    """Any update id after another (the /help behind the /status)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int)


ANY_NEXT = _AnyNext()


def test_a_body_that_is_no_update_never_holds_the_queue(lambda_bot: LambdaBot) -> None:
    queue = lambda_bot.deliver_as_telegram()
    table = Table.of(lambda_bot, 4)
    queue.add({"update_id": 1, "message": "not a message", "chat": {"id": table.chat}})
    lambda_bot.settle()
    assert queue.waiting() == []
    assert queue.done[0].answers == [200]
