"""The bot token and the webhook secret never appear in the logs, at any level, nor in any
answer the webhook gives, whatever happens (a whole game, Telegram's faults, bad calls)."""

from __future__ import annotations

import json
import logging

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from handlers.playtest.drivers import WEBHOOK_SECRET, LambdaBot
from handlers.playtest.players import Table


def test_token_and_secret_never_reach_the_logs_or_the_answers(
    lambda_bot: LambdaBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    token = lambda_bot.fake.token
    answers = []
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=95)
    seat = state.first
    lambda_bot.fake.fail_next("sendMessage", status=502, chat_id=table.group)
    table.scout(seat, seat % 4 + 1)
    lambda_bot.fake.fail_next("sendMessage", status=429, retry_after=1, chat_id=table.group)
    table.done(seat)
    lambda_bot.fake.fail_next("editMessageText", status=400, chat_id=table.group)
    lambda_bot.advance(90)
    for headers in ({}, {"x-telegram-bot-api-secret-token": "nope"}):
        answers.append(lambda_entry.webhook(lambda_bot.event("{}", headers)))
    answers.append(lambda_entry.webhook(lambda_bot.event("not json")))
    answers.append(lambda_entry.webhook(lambda_bot.event('{"update_id": 1, "message": 5}')))
    table.decapitate(table.state.turn, seat)
    assert table.ending() is not None

    logged = "\n".join(
        f"{r.name} {r.getMessage()} {r.exc_text or ''} {r.args!r}" for r in caplog.records
    )
    assert "sendMessage" in logged  # the calls were logged, at some level
    for secret in (token, token.split(":", 1)[1], WEBHOOK_SECRET):
        assert secret not in logged
        assert secret not in json.dumps(answers)
