"""The group hears a refusal or an /extend in as little space as the chat allows: a refused
command's answer is one message (edited on repeat with a count, or replaced by a reply to the
repeat when the bot may delete), and
repeated /extends rewrite one line that says the minutes actually added."""

from __future__ import annotations

import time

import pytest

from handlers.display.render import isolate
from handlers.session.lobby import EXTEND_SECONDS, LOBBY_SECONDS
from testing.drivers import Bot
from testing.fake_telegram import FakeMessage
from testing.players import Table

LANGS = ["en", "zh"]


def saying(table: Table, key: str) -> list[FakeMessage]:
    """The bot's group messages (not deleted) that read the text `key`."""
    return [m for m in table.group_messages() if m.text == table.t(key)]


def clock(table: Table, when: float) -> str:
    moment = time.gmtime(when)
    return table.t("clock_utc", h=f"{moment.tm_hour:02}", m=f"{moment.tm_min:02}")


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_command_repeated_is_answered_by_one_message(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    before = len(table.group_messages())
    for _ in range(3):
        table.players[2].say("/cancel")
    assert len(table.group_messages()) == before + 1
    (refusal,) = [m for m in table.group_messages() if m.text.startswith(table.t("only_host"))]
    assert refusal.text == f"{table.t('only_host')} (×3)"  # each repeat seen answered
    assert table.data()["status"] == "lobby"


@pytest.mark.parametrize("lang", LANGS)
def test_with_the_right_to_delete_a_refusal_replaces_the_last_one(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    memory_bot.act(
        lambda: memory_bot.fake.set_bot_admin(table.group, True, can_delete_messages=True)
    )
    table.open()
    for _ in range(3):
        typed = table.players[2].say("/cancel")["message"]["message_id"]
    (refusal,) = saying(table, "only_host")
    assert table.group_messages()[-1] == refusal  # it stands by the latest command
    assert refusal.reply_to_message_id == typed  # and answers it
    deleted = [m for m in memory_bot.fake.chat(table.group) if m.from_bot and m.deleted]
    assert [m.text for m in deleted] == [table.t("only_host")] * 2


@pytest.mark.parametrize("lang", LANGS)
def test_repeated_extends_rewrite_one_line(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open(table.players[1:3])
    first = table.data()["deadline"]
    for player in (table.players[1], table.players[2], table.players[1]):
        player.say("/extend")
    lobby = table.ids().lobby
    told = [m for m in table.group_messages() if m.message_id != lobby and m.text.startswith("⏳")]
    name = isolate(table.players[1].name)
    when = clock(table, first + 3 * EXTEND_SECONDS)
    assert [m.text for m in told] == [table.t("extended", name=name, m=2, time=when)]


@pytest.mark.parametrize("lang", LANGS)
def test_extend_says_the_minutes_it_really_added_under_the_hour(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open(table.players[1:3])
    opened = table.data()["opened"]
    while table.data()["deadline"] + EXTEND_SECONDS <= opened + LOBBY_SECONDS:
        table.players[1].say("/extend")
    assert table.data()["deadline"] == opened + LOBBY_SECONDS - 60
    table.players[1].say("/extend")  # the hour leaves room for one more minute only
    assert table.data()["deadline"] == opened + LOBBY_SECONDS
    name = isolate(table.players[1].name)
    line = table.t("extended", name=name, m=1, time=clock(table, opened + LOBBY_SECONDS))
    assert [m.text for m in table.group_messages() if m.text == line] == [line]
    table.players[1].say("/extend")
    assert len(saying(table, "extend_max")) == 1
