"""A player's private commands find their game: the pointer to the groups they last joined."""

from __future__ import annotations

from testing.drivers import LambdaBot
from testing.players import Player, Table


def _card(table: Table, player: Player) -> str:
    code = table.state.cards[table.seat_of(player) - 1]
    return ("Red " if code[0] == "R" else "Blue ") + code[1:]


def test_mycard_finds_the_game_in_play_among_the_groups_a_player_joined(
    lambda_bot: LambdaBot,
) -> None:
    first = Table.of(lambda_bot, 4)
    first.open()
    player = first.players[1]
    # The same person then joins a second group's lobby, which does not start.
    second = Table.of(lambda_bot, 3, names=["Quinn", "Rosa", "Sami"])
    lambda_bot.fake.join(player.user, second.group)
    lambda_bot.settle()
    second.open()
    second.join(Player(lambda_bot, player.user, second.group))
    first.start(seed=51)
    player.private("/mycard")
    assert f"Your card: {_card(first, player)}" in player.last_text()


def test_the_host_is_pointed_at_the_game_when_the_lobby_opens(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    table.start(seed=51)
    table.host.private("/mycard")
    assert f"Your card: {_card(table, table.host)}" in table.host.last_text()
