"""The statistics items, a group's and each player's, added to in the very write that ends a game,
so that a game is counted exactly once."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from handlers.session.ending import Ending
from handlers.session.stats import LINE_KEPT, add_to_group, add_to_player
from handlers.storage.keys import group_stats_key, player_stats_key
from handlers.storage.records import forget
from handlers.storage.retry import retry_on_conflict
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
    figures = ending.figures or {"players": {}}
    items = []
    if ending.figures is not None:
        group = group_stats_key(ending.chat)
        add = partial(add_to_group, figures=figures)
        items.append(_added(found.get(group), group, add, int(now) + STATS_TTL))
    for user, chats in holding.items():
        key = player_stats_key(user)
        add = partial(_add_player, figures=figures, user=str(user), chats=chats, now=int(now))
        items.append(_added(found.get(key), key, add, int(now) + PLAYER_TTL))
    return items


def _add_player(
    data: dict[str, Any], figures: dict[str, Any], user: str, chats: list[int], now: int
) -> dict[str, Any]:
    """A player's item with a game's figures (when it counted for them), naming the groups
    that now hold them."""
    if user in figures["players"]:
        data = add_to_player(data, figures, user)
    return held_in(data, chats, now)


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


def _added(item: Item | None, key: str, add: Callable[[dict], dict], expires: int | None) -> Item:
    """The item under `key` (as loaded, or a new one) with a game's figures added."""
    return Item(key, item.version if item else 0, add(item.data if item else {}), expires)


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
