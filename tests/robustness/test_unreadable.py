"""An item the bot cannot read never freezes its group: it is set aside for inspection (kept
under a key of its own with its error, and logged at ERROR with the field the stack's alarm
counts), the group is told in its language, and a new game can be started at once. For both
stores and both entries (the Lambda webhook and timer on DynamoDB, the local poller on SQLite)."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing

import pytest

from handlers.session.table import LOBBY
from handlers.storage.keeper import UNREADABLE
from handlers.storage.keys import unreadable_key
from handlers.table.auth import sign_init_data
from handlers.table.selector import table_selector
from infra.store import Item
from testing.drivers import Bot
from testing.players import Table
from testing.table_visits import table_api


@pytest.fixture(params=["lambda_bot", "local_bot"])
def bot(request: pytest.FixtureRequest) -> Bot:
    """The bot behind its Lambda entries (DynamoDB) and as the local poller runs it (SQLite)."""
    return request.getfixturevalue(request.param)


def break_session(bot: Bot, chat: int) -> Item:
    """Store for the group an item whose session part its codec cannot read; the item stored."""
    store = getattr(bot.store, "backend", bot.store)
    item = store.load(f"game#{chat}")
    assert item is not None
    data = {**item.data, "session": {**item.data["session"], "settings": None, "players": 5}}
    return store.save(Item(item.key, item.version, data, item.expires_at))


def told(bot: Bot, table: Table) -> bool:
    """Whether the group was told, in its language, that its game could not be read."""
    return table.t("game_unreadable") in bot.fake.texts(table.group)


def test_a_new_game_can_be_started_at_once_over_an_unreadable_item(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = Table.of(bot, 4)
    table.open()
    broken = break_session(bot, table.chat)
    table.host.say("/newgame")
    assert told(bot, table), "the group was not told its game could not be read"
    assert table.stored().table is not None and table.stored().table.status == LOBBY
    store = getattr(bot.store, "backend", bot.store)
    kept = store.load(unreadable_key(broken.key, broken.version))
    assert kept is not None and kept.data["data"] == broken.data and kept.data["error"]
    alarmed = [r for r in caplog.records if getattr(r, UNREADABLE, False)]
    assert len(alarmed) == 1 and alarmed[0].levelno == logging.ERROR
    assert alarmed[0].chat_id == table.chat


def test_the_timer_tells_a_group_whose_item_is_unreadable_and_stops(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()  # its countdown has a timer
    break_session(bot, table.chat)
    bot.advance(600)
    assert told(bot, table), "the timer did not tell the group"
    assert table.stored().table is None
    table.host.say("/newgame")
    assert table.stored().table is not None


def break_stored_data(bot: Bot, chat: int) -> None:
    """Store for the group bytes that are no item at all (DynamoDB: no compressed JSON; SQLite:
    no JSON), as a damaged write or a hand edit could leave."""
    store = getattr(bot.store, "backend", bot.store)
    key = f"game#{chat}"
    if hasattr(store, "client"):
        store.client.put_item(
            TableName=store.table_name,
            Item={"pk": {"S": key}, "version": {"N": "9"}, "data": {"B": b"not zlib"}},
        )
    else:
        with closing(sqlite3.connect(store.path)) as db, db:
            db.execute("UPDATE items SET data = 'not json' WHERE key = ?", (key,))


def test_an_item_whose_stored_bytes_cannot_be_decoded_is_set_aside_too(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    break_stored_data(bot, table.chat)
    table.host.say("/newgame")
    assert told(bot, table), "the group was not told its game could not be read"
    assert table.stored().table is not None and table.stored().table.status == LOBBY


def test_a_chinese_group_is_told_in_chinese_that_its_game_could_not_be_read(
    lambda_bot: Bot,
) -> None:
    table = Table.of(lambda_bot, 4, lang="zh")
    table.open()
    break_session(lambda_bot, table.chat)
    table.host.say("/newgame")
    assert Table.t_in("zh", "game_unreadable") in lambda_bot.fake.texts(table.group)


def test_the_lost_games_buttons_are_taken_down_when_it_is_set_aside(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    table.start(seed=3)
    board = table.group_messages()[-1]  # the first turn message
    assert board.buttons, "the turn message shows its buttons while the game runs"
    break_session(bot, table.chat)

    table.host.say("/newgame")

    assert told(bot, table)
    assert bot.fake.message(table.group, board.message_id).buttons == []


def test_the_table_sets_an_unreadable_item_aside_as_the_bot_does(lambda_bot: Bot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    table.start(seed=3)
    game = table.stored().table.game
    player = table.player_at(1)
    break_session(lambda_bot, table.chat)
    opener = {"id": player.id, "first_name": player.name}
    init = sign_init_data(lambda_bot.fake.token, opener, None, int(lambda_bot.clock()))
    ask = table_api(lambda_bot)

    status, _, body = ask(
        "GET",
        "/api/table?g=" + table_selector(table.chat, game),
        {"Authorization": f"tma {init}"},
        b"",
    )
    lambda_bot.advance(1)  # the timer delivers what the group is owed

    assert (status, json.loads(body)) == (403, {"error": "not_yours"})  # the game is gone
    assert told(lambda_bot, table)
    assert table.stored().table is None
