"""Tables made without Telegram or a store, for the session's and the renderer's tests, and
the turns played on them."""

from __future__ import annotations

from engine import Action
from engine.actions import END_TURN, SCOUT
from handlers.session.table import Table

CHAT = -4_100_000_001
NOW = 1_000_000.0
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea")


def lobby(players: int = 4, **settings) -> Table:
    table, _ = Table.open_lobby(CHAT, 1, 1, NAMES[0], "en", settings, NOW, "Club")
    for uid in range(2, players + 1):
        table.join(uid, NAMES[uid - 1])
    return table


def started(players: int = 4, seed: int = 1, **settings) -> Table:
    table = lobby(players, **settings)
    table.start(NOW, seed)
    return table


def after(table: Table, seat: int) -> int:
    """The seat after `seat` round the table."""
    return seat % table.state.seats + 1


def take_turn(table: Table) -> list[dict]:
    """The seat whose turn it is scouts the next seat and ends its turn, each a second before
    its wait runs out; what the table said."""
    seat = table.state.turn
    user = table.user_at(seat)
    scout = Action(SCOUT, seat, target=after(table, seat))
    events = table.act(user, scout, table.deadline() - 1)
    return events + table.act(user, Action(END_TURN, seat), table.deadline() - 1)


def run_out(table: Table) -> list[dict]:
    """The wait the table is in runs out."""
    return table.catch_up(table.deadline())


def play_until(table: Table, seat: int) -> list[dict]:
    """Everyone takes their turn until it is `seat`'s; what the table said."""
    events = []
    while table.state.turn != seat:
        events += take_turn(table)
    return events


def mark_away(table: Table) -> int:
    """The first player lets two turns in a row run out while the others play; their seat."""
    first = table.state.first
    run_out(table)
    play_until(table, first)
    run_out(table)
    return first
