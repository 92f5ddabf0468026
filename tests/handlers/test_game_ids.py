"""A group's games are told apart across the lives of its stored item: a lobby opened after
the last one expired never takes an old game's number, so no old join link or button reaches
it."""

from __future__ import annotations

from handlers.session.table import LOBBY_SECONDS
from testing.drivers import LambdaBot
from testing.players import Table

DAY = 24 * 3600


def test_an_old_join_link_does_not_join_a_lobby_opened_after_the_item_expired(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open(table.players[1:2])
    old_link = table.lobby_message().button(table.t("btn_join")).url
    old_game = table.data()["game"]
    lambda_bot.advance(LOBBY_SECONDS)  # the lobby closes unstarted
    lambda_bot.advance(2 * DAY)  # and its item expires
    assert lambda_bot.item(table.chat) is None
    table.host.say("/newgame")
    assert table.data()["game"] != old_game
    late = table.players[2]
    late.open_link(old_link)
    assert late.last_text() == table.t("lobby_gone")
    assert [p[0] for p in table.data()["players"]] == [table.host.user.id]
