"""Tables made without Telegram or a store, for the session's and the renderer's tests."""

from __future__ import annotations

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
