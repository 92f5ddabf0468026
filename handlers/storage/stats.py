"""The statistics items: a group's and each player's, added to in the very write that ends a
game, so that a game is counted exactly once (a redelivered end finds the game over already).

Kept without expiry: a group's item is bounded by its leaderboard, a player's by its fields.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from handlers.session.ending import Ending
from handlers.session.stats import add_to_group, add_to_player
from handlers.storage.keys import group_stats_key, player_stats_key
from handlers.storage.records import forget
from handlers.storage.retry import retry_on_conflict
from infra.store import GameStore, Item


def keys_counted(ending: Ending | None) -> list[str]:
    """The statistics items a change adds to: the group's and each player's when the change
    finished its game, none for any other change (a cancelled game's included)."""
    if ending is None or ending.figures is None:
        return []
    users = ending.figures["players"]
    return [group_stats_key(ending.chat), *(player_stats_key(int(user)) for user in users)]


def counted_with_the_end(found: dict[str, Item], ending: Ending | None) -> list[Item]:
    """The statistics items to save with the change that finished a game, from `found` (the
    items `keys_counted` names, as loaded)."""
    if ending is None or ending.figures is None:
        return []
    figures = ending.figures
    group = group_stats_key(ending.chat)
    players = {user: player_stats_key(int(user)) for user in figures["players"]}
    items = [_added(found.get(group), group, partial(add_to_group, figures=figures))]
    for user, key in players.items():
        add = partial(add_to_player, figures=figures, user=user)
        items.append(_added(found.get(key), key, add))
    return items


def _added(item: Item | None, key: str, add: Callable[[dict], dict]) -> Item:
    """The item under `key` (as loaded, or a new one) with a game's figures added."""
    return Item(key, item.version if item else 0, add(item.data if item else {}), None)


def forget_player(store: GameStore, user: int) -> None:
    """Erase a player's statistics: their own item, and their line on the leaderboard of each
    group their item names."""
    mine = store.load(player_stats_key(user))
    if mine is None:
        return
    for chat in mine.data.get("groups", []):
        _off_the_board(store, chat, str(user))
    forget(store, player_stats_key(user))


def _off_the_board(store: GameStore, chat: int, user: str) -> None:
    """Take a player off a group's leaderboard (the group's totals stay)."""

    def attempt(_: int) -> None:
        item = store.load(group_stats_key(chat))
        if item is None or user not in (item.data.get("players") or {}):
            return
        players = {u: entry for u, entry in item.data["players"].items() if u != user}
        store.save(Item(item.key, item.version, {**item.data, "players": players}, None))

    retry_on_conflict(attempt)
