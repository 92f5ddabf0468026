"""/forget in the private chat erases what the bot keeps about a player: the groups they
played in, their place in a lobby; during a game in play it waits for the end."""

from __future__ import annotations

from handlers.playtest.drivers import LambdaBot
from handlers.playtest.players import Table


def test_forget_erases_the_pointer_and_leaves_the_lobby(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open(table.players[1:3])
    guest = table.players[2]
    assert lambda_bot.store.load(f"user#{guest.id}") is not None
    guest.private("/forget")
    assert guest.last_text() == table.t("forgotten")
    assert lambda_bot.store.load(f"user#{guest.id}") is None
    assert guest.id not in [uid for uid, _ in table.data()["players"]]
    assert guest.name not in table.lobby_message().text


def test_forget_in_chinese_and_in_the_group(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4, lang="zh")
    table.open()
    player = table.players[1]
    player.say("/forget")
    assert lambda_bot.store.load(f"user#{player.id}") is not None  # a private matter
    player.private("/forget")
    assert "已完成" in player.last_text()


def test_forget_waits_for_the_end_of_a_game_in_play(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=95)
    player = table.player_at(state.first)
    player.private("/forget")
    assert player.last_text() == table.t("forget_playing")
    assert lambda_bot.store.load(f"user#{player.id}") is not None
    table.decapitate(state.first, state.first % 4 + 1)
    player.private("/forget")
    assert player.last_text() == table.t("forgotten")
    assert lambda_bot.store.load(f"user#{player.id}") is None
