"""Play again: the next lobby seats everyone who was still in the game (away players too), in
the lobby's order, and leaves out those removed; its game gets a number never given before."""

from __future__ import annotations

from handlers.session.table import CANCELLED, OVER_STATUS, Table, next_game
from tests.support.tables import NAMES, NOW, mark_away, started


def ended(table: Table) -> Table:
    table.cancel("Ann")
    return table


def test_play_again_seats_every_player_of_the_game_in_the_lobbys_order() -> None:
    table = ended(started(5))
    assert table.absence.plays_again() == [[uid, NAMES[uid - 1]] for uid in range(1, 6)]


def test_play_again_leaves_out_the_players_removed() -> None:
    table = started(5)
    first = table.state.first
    gone = [s for s in range(1, 6) if s != first][:2]
    gone_users = {table.user_at(seat) for seat in gone}
    for seat in gone:
        table.remove(seat, "Ann", NOW + 1)
    ended(table)
    again = [uid for uid, _ in table.absence.plays_again()]
    assert again == [uid for uid in range(1, 6) if uid not in gone_users]
    assert all(table.absence.was_removed(uid) for uid in gone_users)


def test_play_again_keeps_an_away_player() -> None:
    table = started(4, turn_seconds=30)
    away = mark_away(table)
    assert table.is_away(away)
    ended(table)
    assert table.user_at(away) in [uid for uid, _ in table.absence.plays_again()]


def test_the_next_games_number_follows_the_last_and_is_never_given_twice() -> None:
    table = ended(started(4))
    assert table.status in (OVER_STATUS, CANCELLED)
    later = next_game(table, NOW)
    assert later > table.game
    new, _ = Table.open_lobby(table.chat, later, 1, "Ann", "en", table.settings, NOW)
    assert next_game(new, NOW) > later
    assert next_game(None, NOW) == int(NOW), "an item made afresh numbers from the clock"
