"""The lobby's host: a host who leaves hands the lobby to the next player, and a countdown
meeting players the bot cannot reach deals without them when enough remain."""

from __future__ import annotations

import pytest

from handlers.display.render import isolate
from testing.drivers import Bot
from testing.games import end_now
from testing.players import Table

LANGS = ["en", "zh"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_host_who_leaves_the_lobby_hands_it_to_the_next_player(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    host, ben = table.players[0], table.players[1]
    left = host.press(table.t("btn_leave"), table.lobby_message(), chat=table.group)
    assert left == table.t("left")
    passed = table.t("host_passed", old=isolate(host.name), new=isolate(ben.name))
    assert passed in table.lobby_message().text
    assert table.data()["creator"] == ben.id
    # Ben, no admin, may now do what the host does: Settings, and Start.
    assert ben.press(table.t("btn_settings"), table.lobby_message()) is None
    assert ben.press(table.t("btn_back"), table.lobby_message()) is None
    memory_bot.seed = 3
    assert ben.press(table.t("btn_start"), table.lobby_message()) is None
    assert table.data()["status"] == "playing"
    assert len(table.state.cards) == 4


@pytest.mark.parametrize("lang", LANGS)
def test_a_play_again_lobby_whose_host_leaves_can_still_start(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=11)
    ending = end_now(table)
    cat = table.players[2]
    assert cat.press(table.t("btn_play_again"), ending, chat=table.group) is None
    assert table.data()["creator"] == cat.id
    cat.press(table.t("btn_leave"), table.lobby_message(), chat=table.group)
    heir = table.players[0]  # the first player seated after Cat, in lobby order
    assert table.data()["players"][0][0] == heir.id
    assert table.data()["creator"] == heir.id
    passed = table.t("host_passed", old=isolate(cat.name), new=isolate(heir.name))
    assert passed in table.lobby_message().text
    memory_bot.seed = 4
    assert heir.press(table.t("btn_start"), table.lobby_message()) is None
    assert table.data()["status"] == "playing"


def never_started_host(bot: Bot, n: int, lang: str) -> Table:
    """`n` players whose host opened the lobby without ever opening the bot's chat."""
    table = Table.of(bot, n, lang=lang)
    table.host.user.started = False
    table.open()
    return table


@pytest.mark.parametrize("lang", LANGS)
def test_the_countdown_deals_without_an_unreachable_host_when_four_remain(
    memory_bot: Bot, lang: str
) -> None:
    table = never_started_host(memory_bot, 5, lang)
    host, ben = table.players[0], table.players[1]
    memory_bot.advance(240)
    reminder = table.group_texts()[-1]
    button = table.t("btn_open_chat")
    warned = table.t("lobby_remind_left_out", names=isolate(host.name), button=button)
    assert reminder.endswith("\n" + warned)
    # It counts only the players it will deal.
    assert reminder.startswith(table.t("lobby_remind_start", left=1, n=4, m=2) + "\n")
    memory_bot.seed = 3
    memory_bot.advance(60)
    assert table.data()["status"] == "playing"
    assert len(table.state.cards) == 4
    assert host.id not in table.data()["seats"]
    told = table.t("left_out", names=isolate(host.name))
    new_host = table.t("host_now", name=isolate(ben.name))
    assert f"{told}\n{new_host}" in table.group_texts()
    assert table.data()["creator"] == ben.id
    for player in table.players[1:]:
        dealt = table.t_for(player, "your_card", card="")
        assert any(dealt in text for text in player.texts())
    # Ben hosts the game: he may /cancel it.
    ben.say("/cancel")
    assert table.data()["status"] == "cancelled"


@pytest.mark.parametrize("lang", LANGS)
def test_the_countdown_still_closes_when_fewer_than_four_could_be_dealt(
    memory_bot: Bot, lang: str
) -> None:
    table = never_started_host(memory_bot, 4, lang)
    memory_bot.advance(240)
    button = table.t("btn_open_chat")
    away = table.t("lobby_remind_away", names=isolate(table.host.name), button=button)
    assert table.group_texts()[-1].endswith("\n" + away)
    memory_bot.advance(60)
    lobby = table.lobby_message()
    assert lobby.text == table.t("lobby_closed_away", names=isolate(table.host.name))
    assert table.data()["status"] == "cancelled"
