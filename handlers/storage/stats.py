"""The statistics items, a group's and each player's, added to in the very write that ends a game,
so that a game is counted exactly once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from handlers.session.ending import Ending
from handlers.session.stats import LINE_KEPT, add_to_group, add_to_players
from handlers.storage.keys import group_stats_key, player_stats_key
from handlers.storage.retry import retry_on_conflict
from handlers.storage.side_items import forget
from infra.store import GameStore, Item

STATS_TTL = LINE_KEPT  # a group's statistics: a year after its last game
# A group item written just before its player's line would go keeps it one more STATS_TTL.
PLAYER_TTL = 2 * STATS_TTL


def _holding(ending: Ending) -> dict[int, list[int]]:
    """The people a game's end puts in its group's statistics or history, with that group."""
    return {user: [ending.chat] for user in ending.kept.get("users") or [] if user}


def keys_counted(ending: Ending | None) -> list[str]:
    """The statistics items a change adds to: the group's and each player's when the change
    finished its game (not a cancelled one), and the item of everyone in a game it keeps in its
    group's history, which names that group; none for any other change."""
    if ending is None:
        return []
    players = [player_stats_key(user) for user in _holding(ending)]
    counted = ending.figures is not None
    return [group_stats_key(ending.chat), *players] if counted else players


def counted_with_the_end(found: dict[str, Item], ending: Ending | None, now: float) -> list[Item]:
    """The statistics items to save with the change that ends a game, from `found` (the items
    `keys_counted` names, as loaded)."""
    if ending is None:
        return []
    holding = _holding(ending)
    data = {key: item.data for key, item in found.items() if item is not None}
    versions = {key: item.version for key, item in found.items() if item is not None}
    keys = {user: player_stats_key(user) for user in holding}
    players = {str(user): data.get(key, {}) for user, key in keys.items()}
    figures, group = ending.figures, group_stats_key(ending.chat)
    counted: dict[str, dict[str, Any]] = {}
    if figures is not None:  # the game added to every player's figures, then to the group's
        players = add_to_players(players, figures)
        counted[group] = add_to_group(data.get(group, {}), figures)
    at = int(now)
    held = {keys[user]: held_in(players[str(user)], chats, at) for user, chats in holding.items()}
    expiring = {**counted, **held}
    return [
        Item(key, versions.get(key, 0), added, at + (STATS_TTL if key == group else PLAYER_TTL))
        for key, added in expiring.items()
    ]


def held_in(data: dict[str, Any], chats: list[int], now: int) -> dict[str, Any]:
    """A player's item naming `chats` among the groups that hold them, as of `now`; groups that
    can hold them no longer (nothing of theirs there for `PLAYER_TTL`) are dropped."""
    held = {chat: at for chat, at in (data.get("held") or {}).items() if at > now - PLAYER_TTL}
    return {**data, "held": {**held, **{str(chat): now for chat in chats}}}


def holding_groups(store: GameStore, user: int) -> list[int]:
    """Every group whose statistics or history may hold `user`, from their item."""
    mine = store.load(player_stats_key(user))
    data = mine.data if mine else {}
    return list(dict.fromkeys([*map(int, data.get("held") or {}), *data.get("groups", [])]))


def forget_player(store: GameStore, user: int, chats: Iterable[int] = ()) -> None:
    """Erase a player's statistics: their line on the leaderboard of each group their item
    names (and of `chats`), then their own item."""
    for chat in dict.fromkeys([*holding_groups(store, user), *chats]):
        _off_the_board(store, chat, str(user))
    forget(store, player_stats_key(user))


def _off_the_board(store: GameStore, chat: int, user: str) -> None:
    """Take a player off a group's leaderboard (the group's totals stay)."""

    def attempt(_: int) -> None:
        item = store.load(group_stats_key(chat))
        if item is None or user not in (item.data.get("players") or {}):
            return
        players = {u: entry for u, entry in item.data["players"].items() if u != user}
        data = {**item.data, "players": players}
        store.save(Item(item.key, item.version, data, item.expires_at))

    retry_on_conflict(attempt)
