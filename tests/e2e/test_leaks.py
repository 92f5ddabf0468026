"""The secrecy check itself: it reads cards in both languages and catches what it must."""

from __future__ import annotations

import asyncio

import pytest
import telegram

from handlers.display.texts import t
from testing import leaks
from testing.drivers import LambdaBot
from testing.players import Table


@pytest.mark.parametrize(
    "text, cards",
    [
        ("🔍 5. Eve holds Red 4.", {"R4"}),
        ("🔄 4. Eve reveals Blue X and swaps cards with 5. Fay!", {"BX"}),
        ("🔍 5号 Eve 的人物是 红4。\n你现在是 蓝X", {"R4", "BX"}),
        ("1. Ann: Observer\n2. Ben: 密探", {"OBS", "SPY"}),
        ("👁 3. Cat reveals the Observer and predicts: Red wins.", {"OBS"}),
        ("Variants: Observer, Spy", set()),
        ("可选规则：观察员、密探", set()),
        ("Observer: on", set()),
        ("观察员：关", set()),
        ("Spy's guess: 15 s", set()),
        ("🕵 A decapitation was announced. Guess the Red captain:", set()),
        ("👁 Reveal: Red wins", set()),
        ("Red 10 or Blue team", set()),
        (t("en", "rules"), set()),
        (t("zh", "rules"), set()),
    ],
)
def test_cards_are_read_in_both_languages_and_variant_names_are_not_cards(
    text: str, cards: set[str]
) -> None:
    assert leaks.cards_named(text) == cards


def post(table: Table, chat: int, text: str, protect: bool = False) -> None:
    async def send() -> None:
        async with telegram.Bot(table.fake.token, base_url=table.fake.base_url) as bot:
            await bot.send_message(chat, text, protect_content=protect)

    asyncio.run(send())


@pytest.fixture
def dealt(lambda_bot: LambdaBot):
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=61)
    yield table, state
    lambda_bot.tables.remove(table)  # a table the test spoiled on purpose


def name(code: str) -> str:
    return ("Red " if code[0] == "R" else "Blue ") + code[1:]


def test_a_card_in_the_group_is_caught(dealt) -> None:
    table, state = dealt
    leaks.check(table)
    post(table, table.chat, f"psst: seat 1 holds {name(state.cards[0])}")
    with pytest.raises(AssertionError, match="the group saw"):
        leaks.check(table)


def test_someone_elses_card_in_a_private_chat_is_caught(dealt) -> None:
    table, state = dealt
    post(table, table.player_at(1).id, f"seat 2 holds {name(state.cards[1])}", protect=True)
    with pytest.raises(AssertionError, match="was shown"):
        leaks.check(table)


def test_an_unprotected_card_message_is_caught(dealt) -> None:
    table, state = dealt
    post(table, table.player_at(1).id, f"you hold {name(state.cards[0])}")
    with pytest.raises(AssertionError, match="unprotected"):
        leaks.check(table)
