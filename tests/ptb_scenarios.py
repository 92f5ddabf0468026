"""The fake Telegram server's tests drive it with a real python-telegram-bot Bot: a scenario run
against it, an inline keyboard, and a raw POST without PTB."""

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from testing.fake_telegram import FakeTelegram

T = TypeVar("T")


def run(fake: FakeTelegram, scenario: Callable[[telegram.Bot], Awaitable[T]]) -> T:
    """Run scenario(bot) with a real Bot pointed at the fake."""

    async def main() -> T:
        async with telegram.Bot(fake.token, base_url=fake.base_url) as bot:
            return await scenario(bot)

    return asyncio.run(main())


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    """An inline keyboard of callback buttons given as (label, data) rows."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


def raw_call(fake: FakeTelegram, path: str, body: bytes = b"", ctype: str = "") -> Any:
    """POST to the fake without PTB; returns (status, JSON body)."""
    headers = {"Content-Type": ctype} if ctype else {}
    request = urllib.request.Request(f"{fake.url}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
