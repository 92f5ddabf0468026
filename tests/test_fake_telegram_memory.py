"""The fake Bot API answered in memory (`MemoryRequest`) is the same fake as over HTTP: one
core, two transports. A real python-telegram-bot Bot drives both."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
import telegram
from telegram.error import BadRequest, Forbidden

from testing.fake_telegram import TEST_TOKEN, FakeTelegram
from testing.fake_telegram.memory import MEMORY_BASE_URL, MemoryRequest
from tests.ptb_scenarios import keyboard
from tests.ptb_scenarios import run as run_over_http

T = TypeVar("T")


def run_in_memory(fake: FakeTelegram, scenario: Callable[[telegram.Bot], Awaitable[T]]) -> T:
    """Run scenario(bot) with a real Bot whose requests the fake answers in memory."""

    async def main() -> T:
        answered = MemoryRequest(fake)
        bot = telegram.Bot(
            fake.token, base_url=MEMORY_BASE_URL, request=answered, get_updates_request=answered
        )
        async with bot:
            return await scenario(bot)

    return asyncio.run(main())


async def a_bit_of_everything(bot: telegram.Bot, alice: int, stranger: int) -> list[str]:
    """Calls that succeed, and calls Telegram refuses; what each came to."""
    outcomes = []
    first = await bot.send_message(alice, "<b>Lobby</b>", parse_mode="HTML")
    outcomes.append(first.text)
    markup = keyboard([("Join", "j")])
    await bot.edit_message_text("Lobby: 2", alice, first.message_id, reply_markup=markup)
    for refused in (
        bot.edit_message_text("Lobby: 2", alice, first.message_id, reply_markup=markup),
        bot.send_message(stranger, "hello"),
        bot.send_message(-1, "nobody"),
    ):
        try:
            await refused
        except (BadRequest, Forbidden) as err:
            outcomes.append(f"{type(err).__name__}: {err.message}")
    sent = await bot.send_document(alice, io.BytesIO(b'{"game": 1}'), filename="game.json")
    outcomes.append(f"{sent.document.file_name} {sent.document.file_size}")
    return outcomes


def world(fake: FakeTelegram) -> tuple[int, int]:
    return fake.add_user("Alice", started=True).id, fake.add_user("Bob").id


def calls(fake: FakeTelegram) -> list[tuple[Any, ...]]:
    return [(c.method, c.kind, c.status, c.description) for c in fake.calls]


def test_in_memory_a_bot_is_answered_and_refused_as_telegram_answers_it() -> None:
    fake = FakeTelegram(TEST_TOKEN)
    alice, bob = world(fake)
    outcomes = run_in_memory(fake, lambda bot: a_bit_of_everything(bot, alice, bob))
    assert outcomes[0] == "Lobby"
    assert outcomes[1].startswith("BadRequest: Message is not modified"), outcomes
    assert outcomes[2] == "Forbidden: Forbidden: bot can't initiate conversation with a user"
    assert outcomes[3] == "BadRequest: Chat not found"
    assert outcomes[4] == "game.json 11"
    assert fake.chat(alice)[0].text == "Lobby: 2"
    assert fake.chat(alice)[1].document.data == b'{"game": 1}'
    assert len(fake.refused) == 2, fake.refused  # Forbidden: the world's doing, no mistake


def test_in_memory_the_token_is_checked() -> None:
    fake = FakeTelegram(TEST_TOKEN)

    async def main() -> None:
        answered = MemoryRequest(fake)
        bot = telegram.Bot(
            "654321:ANOTHER-token-not-real", base_url=MEMORY_BASE_URL, request=answered
        )
        with pytest.raises(telegram.error.InvalidToken):
            await bot.get_me()

    asyncio.run(main())
    assert [c.status for c in fake.calls] == [401]


def test_the_same_calls_come_to_the_same_answers_over_http_and_in_memory(
    fake_telegram: FakeTelegram,
) -> None:
    memory = FakeTelegram(TEST_TOKEN)
    over_http = run_over_http(
        fake_telegram, lambda bot: a_bit_of_everything(bot, *world(fake_telegram))
    )
    in_memory = run_in_memory(memory, lambda bot: a_bit_of_everything(bot, *world(memory)))
    assert in_memory == over_http
    assert calls(memory) == calls(fake_telegram)
