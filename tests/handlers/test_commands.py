"""Commands in the wrong place, twice, or by the wrong person: a short answer, nothing changed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from handlers.storage.keys import prefs_key
from handlers.telegram.refusals import REFUSAL_REF
from testing.drivers import Bot
from testing.players import Player, Table

GROUP_ONLY = "That command works in a group. Add me to one!"
SHORT = 200


@contextmanager
def changes_nothing(bot: Bot, table: Table) -> Iterator[None]:
    """The group's stored table is the same item (same version, same data) afterwards."""
    before = bot.item(table.chat)
    yield
    assert bot.item(table.chat) == before


def answer_in_group(table: Table, who: Player, command: str) -> str:
    """What the group's one refusal message says after `command` (posted the first time, the
    same message rewritten after; a repeat's count, " (×2)", left off)."""
    count = len(table.group_texts())
    who.say(command)
    texts = table.group_texts()
    assert len(texts) <= count + 1, f"{command} got {len(texts) - count} answers"
    kept = table.bot.store.load(prefs_key(table.chat)).data
    text = table.fake.message(table.group, kept[REFUSAL_REF]).text or ""
    assert 0 < len(text) <= SHORT
    return re.sub(r" \(×\d+\)$", "", text)


def answer_in_private(who: Player, command: str) -> str:
    count = len(who.texts())
    who.private(command)
    texts = who.texts()
    assert len(texts) == count + 1, f"{command} got {len(texts) - count} answers"
    return texts[-1]


@pytest.mark.parametrize("command", ["/newgame", "/status", "/cancel", "/language"])
def test_group_command_in_a_private_chat_is_refused(bot: Bot, command: str) -> None:
    table = Table.of(bot, 4)
    table.open()
    with changes_nothing(bot, table):
        assert answer_in_private(table.players[1], command) == GROUP_ONLY


def test_mycard_in_the_group_points_to_the_private_chat(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    table.start(seed=31)
    with changes_nothing(bot, table):
        answer = answer_in_group(table, table.players[2], "/mycard")
    assert answer == "Send /mycard to me in a private chat, so nobody else sees it."


def test_newgame_twice_keeps_the_open_lobby(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    with changes_nothing(bot, table):
        answer = answer_in_group(table, table.players[1], "/newgame")
    assert answer == "A lobby is already open here (see the message above)."


def test_newgame_during_a_game_keeps_the_game(bot: Bot) -> None:
    table = Table.of(bot, 5)
    table.open(table.players[1:4])
    table.start(seed=32)
    for who in (table.host, table.players[4]):
        with changes_nothing(bot, table):
            answer = answer_in_group(table, who, "/newgame")
        assert answer == "A game is already running here. /status shows it; /cancel ends it."


def test_cancel_by_a_non_player_is_refused(bot: Bot) -> None:
    table = Table.of(bot, 5)
    table.open(table.players[1:4])
    for who in (table.players[4], table.players[2]):
        with changes_nothing(bot, table):
            answer = answer_in_group(table, who, "/cancel")
        assert answer == "Only the host or a group admin may do that."


@pytest.mark.over_http
def test_start_in_the_group_and_unknown_commands_get_no_answer_there(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    count = len(table.group_texts())
    with changes_nothing(bot, table):
        table.players[1].say("/start")
        table.players[1].say("/frobnicate")
    assert len(table.group_texts()) == count
    assert answer_in_private(table.players[1], "/frobnicate").startswith("🎯 Decapitation")


def test_joining_twice_or_a_closed_lobby_is_refused(bot: Bot) -> None:
    table = Table.of(bot, 5)
    table.open(table.players[1:4])
    url = table.lobby_message().button(table.t("btn_join")).url
    with changes_nothing(bot, table):
        table.players[1].open_link(url)
    assert table.players[1].last_text() == "You are already in this game."
    table.start(seed=33)
    with changes_nothing(bot, table):
        table.players[4].open_link(url)
    assert table.players[4].last_text() == "That game is no longer open to join."
    with changes_nothing(bot, table):
        table.players[4].open_link(url.replace("_1", "_7"))
    assert table.players[4].last_text() == "That game is no longer open to join."
