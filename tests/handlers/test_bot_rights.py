"""The bot's right to delete messages: heard from Telegram when it changes, asked only when not.

Start decides whether the silence rule is enforced (chatter deleted) or left to trust. Telegram
tells the bot of its own rights in a group whenever they change (my_chat_member); the bot keeps
that word, so that Start deals without a getChatMember round trip first.
"""

from __future__ import annotations

import re

from testing.drivers import LambdaBot
from testing.players import Table


def _plain(text: str) -> str:
    return re.sub("<[^>]+>", "", text)


def _asked(bot: LambdaBot) -> int:
    """How often the bot asked Telegram about its own standing (joiners are asked about too)."""
    calls = bot.fake.calls_to("getChatMember")
    return sum(1 for c in calls if int(c.params["user_id"]) == bot.fake.bot_id)


def test_without_word_of_its_rights_start_asks_telegram_once(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4, bot_admin=True)
    table.open()
    table.start(seed=51)
    assert _asked(lambda_bot) == 1
    assert table.data()["silence"] is True


def test_promoted_during_the_lobby_the_bot_enforces_silence_without_asking(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    lambda_bot.fake.set_bot_admin(table.group, True, can_delete_messages=True)
    lambda_bot.settle()
    table.start(seed=51)
    assert _asked(lambda_bot) == 0
    assert table.data()["silence"] is True
    assert _plain(table.t("silence_enforced")) in table.lobby_message().text


def test_an_admin_without_the_right_to_delete_leaves_silence_to_trust(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4, bot_admin=True)
    lambda_bot.fake.set_bot_admin(table.group, True, can_delete_messages=False)
    lambda_bot.settle()
    table.open()
    table.start(seed=51)
    assert _asked(lambda_bot) == 0
    assert table.data()["silence"] is False
    assert _plain(table.t("silence_trust")) in table.lobby_message().text


def test_the_next_lobby_keeps_what_telegram_said_of_the_bots_rights(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    lambda_bot.fake.set_bot_admin(table.group, True)
    lambda_bot.settle()
    table.open()
    table.start(seed=51)
    table.host.say("/cancel")
    lambda_bot.settle()
    assert table.data()["status"] == "cancelled"
    table.open()
    table.start(seed=52)
    assert _asked(lambda_bot) == 0
    assert table.data()["silence"] is True


def test_word_of_its_rights_is_taken_once_however_often_telegram_delivers_it(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    update = lambda_bot.fake.set_bot_admin(table.group, True)
    lambda_bot.settle()
    version = lambda_bot.item(table.chat).version
    writes = lambda_bot.store.writes
    lambda_bot.post(update)  # Telegram's retry of the same update
    assert lambda_bot.store.writes == writes
    assert lambda_bot.item(table.chat).version == version
    assert table.data()["bot_can_delete"] is True


def test_what_start_asked_of_telegram_serves_the_next_game_too(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4, bot_admin=True)
    table.open()
    table.start(seed=51)
    table.host.say("/cancel")
    table.open()
    table.start(seed=52)
    assert _asked(lambda_bot) == 1
    assert table.data()["silence"] is True
