"""A player who opens the bot's private chat again during a game (plain /start, the "Open my
chat" link, the lobby's old Join link) is answered with the game they are in: their seat, card
and what they know, and the turn's state; someone in no game gets the welcome."""

from __future__ import annotations

import pytest

from handlers.display import presses
from handlers.display.render import bot_link, isolate, start_url
from testing.drivers import Bot
from testing.players import Player, Table

LANGS = ["en", "zh"]


def reopen(table: Table, player: Player, how: str, game: int) -> None:
    """The player opens the private chat again, as `how` says."""
    if how == "start":
        player.private("/start")
    elif how == "open_chat":
        player.open_link(start_url(table.fake.bot_username))
    else:
        player.open_link(bot_link(table.fake.bot_username, presses.join_payload(table.chat, game)))


@pytest.mark.parametrize("how", ["start", "open_chat", "join_link"])
@pytest.mark.parametrize("lang", LANGS)
def test_reopening_the_chat_mid_game_answers_with_the_game(
    memory_bot: Bot, lang: str, how: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(51)
    table.scout_and_done(state.first, state.first % 4 + 1)
    scout = table.player_at(state.first)
    scout.private("/mycard")
    card = scout.last_text()
    seen = len(scout.messages())
    reopen(table, scout, how, table.data()["game"])
    new = scout.texts()[seen:]
    assert new, "nothing answered"
    welcome, help_ = table.t_for(scout, "welcome"), table.t_for(scout, "help")
    assert not any(welcome in text or help_ in text for text in new)
    assert new[0].startswith(card)
    turn = table.seat_label(table.state.turn, scout.lang)
    assert table.t_for(scout, "status_turn", name=turn) in new[0]


@pytest.mark.parametrize("lang", LANGS)
def test_someone_in_no_game_is_welcomed(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.start(51)
    onlooker = table.member("Yan")
    onlooker.private("/start")
    assert onlooker.last_text().startswith(table.t_for(onlooker, "welcome"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_in_a_lobby_reopening_the_chat_is_told_which_game(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    guest = table.players[2]
    seen = len(guest.messages())
    guest.private("/start")
    (told,) = guest.texts()[seen:]
    assert told == table.t_for(guest, "joined", group=isolate(table.title))
