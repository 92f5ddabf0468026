"""Stretches of play the tests and the transcripts use again and again: a seat's ordinary turn,
a player who misses two turns, a seat removed, a game ended at once, the card's worked example."""

from __future__ import annotations

from testing.deals import WORKED_EXAMPLE_SEED
from testing.drivers import Bot
from testing.fake_telegram import FakeMessage
from testing.players import Player, Table

TURN = 90  # seconds: the default turn time


def after(table: Table, seat: int) -> int:
    """The seat after `seat` round the table."""
    return seat % len(table.state.cards) + 1


def scout_the_next(table: Table, seat: int) -> None:
    """The seat's player scouts the seat after theirs and ends the turn."""
    table.scout_and_done(seat, after(table, seat))


def miss_two_turns(bot: Bot, table: Table) -> int:
    """The player after the first misses two turns in a row while the others play; returns
    their seat, marked away."""
    first = table.state.first
    away = after(table, first)
    scout_the_next(table, first)
    assert table.state.turn == away
    bot.advance(TURN)
    seat = table.state.turn
    while seat != away:
        scout_the_next(table, seat)
        seat = table.state.turn
    bot.advance(TURN)
    assert away in table.data()["away"]
    return away


def remove(table: Table, by: Player, seat: int) -> str | None:
    """`by` sends /remove in the group and presses the seat on the keyboard it shows; returns
    the popup."""
    by.say("/remove")
    keyboard = table.group_messages()[-1]
    return by.press(table.seat_label(seat), keyboard)


def end_now(table: Table) -> FakeMessage:
    """Whoever's turn it is decapitates the seat after theirs; the end message."""
    seat = table.state.turn
    table.decapitate(seat, after(table, seat))
    ending = table.ending()
    assert ending is not None, "the game did not end"
    return ending


def worked_example(bot: Bot, table: Table, lobby_seconds: float = 0) -> dict | None:
    """The card's worked example on six players, 2 min 5 s from the deal to the end, in three
    turns: Blue wins (seats 3, 4 and 6 hold B7, B4, B3), seat 3's decapitation of seat 5 works.
    `lobby_seconds` pass in the lobby first. Returns the update of the deciding press."""
    table.open()
    if lobby_seconds:
        bot.advance(lobby_seconds)
    table.start(seed=WORKED_EXAMPLE_SEED)
    bot.advance(20)
    table.scout_and_done(1, 5)
    bot.advance(25)
    table.scout(2, 3)
    bot.advance(40)
    table.done(2)
    bot.advance(40)
    attacker = table.player_at(3)
    attacker.press(table.t_for(attacker, "btn_decapitate"))
    attacker.press(table.seat_label(5, attacker.lang))
    prompt, confirm = attacker.prompt(), table.t_for(attacker, "btn_confirm")
    assert prompt is not None, attacker.texts()
    update = bot.act(
        lambda: bot.fake.press(attacker.user, prompt.chat_id, prompt.message_id, confirm)
    )
    assert table.ending() is not None, "the worked example did not end"
    return update
