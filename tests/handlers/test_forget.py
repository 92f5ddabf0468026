"""/forget in the private chat erases what the bot keeps about a player, in every group that
holds them: the groups they played in, their place in a lobby, their name in kept games, on
leaderboards and on lists for the next game; during a game in play it waits for the end."""

from __future__ import annotations

import pytest

from handlers.storage import history
from handlers.storage.keys import group_stats_key, player_stats_key, user_key
from testing.drivers import Bot, LambdaBot
from testing.players import Player, Table


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


@pytest.mark.over_http
def test_forget_after_playing_in_five_groups_erases_the_player_from_all_of_them(
    bot: Bot,
) -> None:
    zoe = bot.fake.add_user("Zoe", started=True)
    tables = []
    for n in range(5):
        users = [bot.fake.add_user(f"{name}{n}", started=True) for name in ("Ann", "Ben", "Cat")]
        group = bot.fake.add_group(f"Club {n}", [*users, zoe], owner=users[0])
        players = [Player(bot, user, group) for user in [*users, zoe]]
        table = Table(bot, players, group, "en", f"Club {n}")
        table.open()
        state = table.start(seed=51)
        table.decapitate(state.first, state.first % 4 + 1)
        players[3].say("/nextgame")  # and she asks to hear of the next game there
        tables.append(table)
    store = bot.store
    for table in tables:
        assert zoe.id in history.waiting(store, table.chat)
        assert str(zoe.id) in store.load(group_stats_key(table.chat)).data["players"]

    tables[0].players[3].private("/forget")

    assert tables[0].players[3].last_text() == tables[0].t("forgotten")
    for table in tables:
        for game in history.games(store, table.chat):
            assert zoe.id not in game["users"]
            names = [seat["name"] for seat in game["record"]["seats"]]
            assert "Zoe" not in names and history.FORGOTTEN in names
        assert str(zoe.id) not in store.load(group_stats_key(table.chat)).data["players"]
        assert zoe.id not in history.waiting(store, table.chat)
    assert store.load(player_stats_key(zoe.id)) is None
    assert store.load(user_key(zoe.id)) is None
