"""The rematch: Play again opens I'm in for those who played; it deals itself once all of them
are in, or at its minute's countdown with four seats or more in, and closes with fewer; the
host may still Start at once or cancel. Evenings of games in a row with no host press."""

from __future__ import annotations

import pytest

from handlers.display.render import isolate
from handlers.session.rematch import REMATCH_SECONDS
from testing.drivers import Bot, MemoryBot
from testing.fake_telegram import FakeMessage
from testing.games import end_now
from testing.players import Player, Table

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])


def play_again(table: Table, player: Player, ending: FakeMessage) -> None:
    """`player` presses Play again under the end: a rematch lobby opens."""
    assert player.press(table.t("btn_play_again"), ending, chat=table.group) is None
    assert table.data()["status"] == "lobby"


def im_in(table: Table, player: Player) -> None:
    """`player` presses I'm in on the rematch's lobby message."""
    lobby = table.lobby_message()
    answer = player.press(table.t("btn_im_in"), lobby, chat=table.group)
    assert answer == table.t_for(player, "rematch_you_are_in")


def dealt_line(table: Table) -> str:
    """The group's newest "dealt itself" message."""
    head = table.t("rematch_dealt", names="|").split("|")[0]
    return next(text for text in reversed(table.group_texts()) if text.startswith(head))


def rematch_evening(bot: Bot, lang: str, wait_all_in: float = 0) -> list[int]:
    """Three games in a row in one group, none of them Started by a host: the first deals at
    its lobby's countdown, the second at its rematch's (the host does not answer), the third
    at once, everyone who played being in. Returns the three games' numbers."""
    table = Table.of(bot, 5, lang=lang)
    host, first, second, third, fourth = table.players
    table.open()
    bot.seed = 51
    bot.advance(5 * 60)  # everyone pressed Join: it starts by itself
    games = [table.data()["game"]]
    assert table.data()["status"] == "playing"

    play_again(table, first, end_now(table))
    lobby = table.lobby_message()
    assert table.t("btn_im_in") in lobby.button_labels
    for player in (second, third, fourth):
        im_in(table, player)
    assert table.data()["status"] == "lobby", "the host has not pressed: the countdown runs"
    bot.seed = 52
    bot.advance(REMATCH_SECONDS)
    assert table.data()["status"] == "playing"
    games.append(table.data()["game"])
    assert sorted(table.data()["seats"]) == sorted(p.id for p in (first, second, third, fourth))
    line = dealt_line(table)
    assert line.splitlines()[1] == table.t("rematch_dealt_left", names=isolate(host.name))

    play_again(table, third, end_now(table))
    bot.seed = 53
    for player in (first, second, fourth):
        im_in(table, player)
    assert table.lobby_message().text.endswith(table.t("rematch_all_in"))
    bot.advance(wait_all_in)  # the countdown ends at once: its timer deals
    assert table.data()["status"] == "playing"
    games.append(table.data()["game"])
    assert len(dealt_line(table).splitlines()) == 1, "nobody left out"
    end_now(table)
    return games


@LANGS
def test_three_games_deal_in_a_row_with_no_host_press(memory_bot: Bot, lang: str) -> None:
    games = rematch_evening(memory_bot, lang)
    assert games == sorted(set(games)), "three games, each after the last"


@pytest.mark.over_http
def test_three_games_deal_in_a_row_through_the_lambda_entries_and_the_local_poller(
    bot: Bot,
) -> None:
    """Over HTTP both ways: the countdown and the all-in deal are timers (SQS, asyncio)."""
    games = rematch_evening(bot, "en", wait_all_in=1)
    assert len(set(games)) == 3


def rematch_of_five(bot: Bot, seed: int = 61) -> tuple[Table, FakeMessage]:
    """A five-player game played and ended; the second player pressed Play again."""
    table = Table.of(bot, 5)
    table.open()
    ending = end_now_after_start(table, seed)
    play_again(table, table.players[1], ending)
    return table, ending


def end_now_after_start(table: Table, seed: int) -> FakeMessage:
    table.start(seed=seed)
    return end_now(table)


def test_the_hosts_start_still_deals_a_rematch_at_once(memory_bot: Bot) -> None:
    table, _ = rematch_of_five(memory_bot)
    memory_bot.seed = 62
    rematch_host = table.players[1]
    assert rematch_host.press(table.t("btn_start"), table.lobby_message()) is None
    assert table.data()["status"] == "playing" and len(table.data()["seats"]) == 5


def test_the_host_may_cancel_a_rematch_and_its_countdown_then_deals_nothing(
    memory_bot: Bot,
) -> None:
    table, _ = rematch_of_five(memory_bot)
    for player in table.players[2:]:
        im_in(table, player)
    table.players[1].say("/cancel")
    assert table.data()["status"] == "cancelled"
    assert table.lobby_message().buttons == []
    memory_bot.advance(REMATCH_SECONDS)
    assert table.data()["status"] == "cancelled"


def test_a_player_who_pressed_im_in_then_left_is_not_dealt(memory_bot: Bot) -> None:
    table, _ = rematch_of_five(memory_bot)
    for player in table.players[2:]:
        im_in(table, player)
    leaver = table.players[4]
    assert leaver.press(table.t("btn_leave"), table.lobby_message()) is not None
    memory_bot.seed = 63
    im_in(table, table.host)  # everyone still here is in
    memory_bot.advance(0)
    assert table.data()["status"] == "playing"
    assert leaver.id not in table.data()["seats"] and len(table.data()["seats"]) == 4


def test_newgame_while_a_rematch_is_open_is_refused_and_the_rematch_deals_on(
    memory_bot: Bot,
) -> None:
    table, _ = rematch_of_five(memory_bot)
    game = table.data()["game"]
    table.host.say("/newgame")
    assert table.data()["game"] == game and table.data()["status"] == "lobby"
    for player in table.players[2:]:
        im_in(table, player)
    memory_bot.seed = 64
    memory_bot.advance(REMATCH_SECONDS)
    assert table.data()["status"] == "playing" and table.data()["game"] == game


def test_a_redelivered_wake_deals_a_rematch_once(memory_bot: MemoryBot) -> None:
    table, _ = rematch_of_five(memory_bot)
    for player in (table.players[0], *table.players[2:]):
        im_in(table, player)
    deadline = table.data()["deadline"]
    memory_bot.seed = 65
    memory_bot.advance(0)
    dealt = table.data()
    assert dealt["status"] == "playing"
    said = len(table.group_texts())
    memory_bot.redeliver_wake(table.chat, deadline)
    assert table.data()["game"] == dealt["game"] and table.data()["engine"] == dealt["engine"]
    assert len(table.group_texts()) == said


@LANGS
def test_a_rematch_open_when_the_group_becomes_a_supergroup_deals_itself_there(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    play_again(table, table.players[1], end_now_after_start(table, 66))
    im_in(table, table.players[2])
    table.upgrade_to_supergroup()
    lobby = table.lobby_message()
    assert lobby.chat_id == table.chat and table.t("btn_im_in") in lobby.button_labels
    for player in (table.players[0], *table.players[3:]):
        im_in(table, player)
    memory_bot.seed = 67
    memory_bot.advance(0)
    assert table.data()["status"] == "playing" and len(table.data()["seats"]) == 5
    assert table.board().chat_id == table.chat


def test_the_last_awaited_player_leaving_deals_the_rematch_at_once(memory_bot: Bot) -> None:
    table, _ = rematch_of_five(memory_bot)
    for player in (table.players[0], *table.players[2:4]):
        im_in(table, player)
    assert table.data()["status"] == "lobby", "one player who played has not answered"
    last = table.players[4]
    assert last.press(table.t("btn_leave"), table.lobby_message()) is not None
    memory_bot.seed = 68
    memory_bot.advance(0)
    assert table.data()["status"] == "playing", "everyone still awaited is in"
    assert last.id not in table.data()["seats"] and len(table.data()["seats"]) == 4
