"""The rematch: Play again opens I'm in for those who played; it deals itself once all of them
are in, or at its minute's countdown with four seats or more in, and closes with fewer; the
host may still Start at once or cancel. Evenings of games in a row with no host press."""

from __future__ import annotations

import pytest

from handlers.display.render import isolate
from handlers.session.rematch import REMATCH_SECONDS
from testing.drivers import Bot
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


def test_three_games_deal_in_a_row_through_the_lambda_entries_and_the_local_poller(
    bot: Bot,
) -> None:
    """Over HTTP both ways: the countdown and the all-in deal are timers (SQS, asyncio)."""
    games = rematch_evening(bot, "en", wait_all_in=1)
    assert len(set(games)) == 3
