"""A group's last games beside its table, and who waits to hear of its next one: small items
written conditionally, each change made once (a game by its number, a request by its update)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from handlers.storage import side_items
from handlers.storage.keys import expiry, history_key, waiting_key
from handlers.storage.retry import retry_on_conflict
from infra.store import GameStore, Item, size_of

GAMES_KEPT = 10  # a group's history keeps its last ten games
HISTORY_BYTES = 300_000  # and stays well under DynamoDB's 400 KB an item
HISTORY_TTL = 30 * 24 * 3600  # a group that plays no more forgets its games after a month
FORGOTTEN = "—"  # the name a player who asked to be forgotten has in the games kept
WAITING_MAX = 100  # people told privately when the next lobby opens, at most
Clock = Callable[[], float]


def games(store: GameStore, chat: int) -> list[dict[str, Any]]:
    """The group's kept games, the oldest first."""
    item = store.load(history_key(chat))
    return list(item.data.get("games", [])) if item else []


def game(store: GameStore, chat: int, number: int) -> dict[str, Any] | None:
    """One kept game by its number, or None."""
    return next((g for g in games(store, chat) if g.get("game") == number), None)


def kept(entries: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The last `GAMES_KEPT` entries, fewer when their item would outgrow `HISTORY_BYTES`; a
    game too big alone is kept without its record."""
    entries = sorted(entries, key=lambda g: g["game"])[-GAMES_KEPT:]
    while len(entries) > 1 and size_of(Item(key, 1, {"games": entries})) > HISTORY_BYTES:
        entries = entries[1:]
    if entries and size_of(Item(key, 1, {"games": entries})) > HISTORY_BYTES:
        entries = [{**entries[0], "record": None}]
    return entries


def with_game(
    item: Item | None, chat: int, entry: dict[str, Any], clock: Clock = time.time
) -> Item | None:
    """The group's history `item` (as loaded, or None) with a finished game added, or None
    when its number is there already (a redelivered or resent end)."""
    entries = list(item.data.get("games", [])) if item else []
    if any(g.get("game") == entry["game"] for g in entries):
        return None
    key = history_key(chat)
    data = {"games": kept([*entries, entry], key)}
    return Item(key, item.version if item else 0, data, expiry(clock, HISTORY_TTL))


def forget_player(store: GameStore, chat: int, user: int) -> None:
    """Take `user`'s name out of the group's kept games and `user` off its list for the next
    game (their seats and decisions stay: the records still replay)."""
    drop_waiting(store, chat, user)
    key = history_key(chat)

    def attempt(_: int) -> None:
        item = store.load(key)
        entries = list(item.data.get("games", [])) if item else []
        if not any(user in (g.get("users") or []) for g in entries):
            return
        data = {**item.data, "games": [anonymous(g, user) for g in entries]}
        store.save(Item(key, item.version, data, item.expires_at))

    retry_on_conflict(attempt)


def anonymous(entry: dict[str, Any], user: int) -> dict[str, Any]:
    """A kept game with `user`'s seats named `FORGOTTEN` and no longer pointing at them."""
    users = list(entry.get("users") or [])
    if user not in users:
        return entry
    left = [0 if u == user else u for u in users]
    if not entry.get("record"):  # kept without its record (too big): only the ids name them
        return {**entry, "users": left}
    seats = [
        {**seat, "name": FORGOTTEN} if i < len(users) and users[i] == user else seat
        for i, seat in enumerate(entry["record"]["seats"])
    ]
    return {**entry, "record": {**entry["record"], "seats": seats}, "users": left}


def waiting(store: GameStore, chat: int) -> dict[int, str | None]:
    """The people waiting for the group's next lobby, with the language each reads."""
    return waiting_in(side_items.get(store, waiting_key(chat)))


def waiting_in(data: dict[str, Any] | None) -> dict[int, str | None]:
    """The people a waiting list's record (as read) names, with the language each reads."""
    return {int(entry[0]): entry[1] for entry in (data or {}).get("users", [])}


def confirmations(store: GameStore, chat: int) -> dict[int, int]:
    """The private confirmation (with its Cancel) each person waiting was sent, by user."""
    return confirmations_in(side_items.get(store, waiting_key(chat)))


def confirmations_in(data: dict[str, Any] | None) -> dict[int, int]:
    """The confirmations a waiting list's record (as read) names, by user."""
    return {int(entry[0]): entry[2] for entry in (data or {}).get("users", []) if len(entry) > 2}


ON, OFF, FULL = "on", "off", "full"  # a person's place on the list after a request
ALREADY = "already"  # asked to be put on the list they were on already: nothing changed


def wait_for_next(
    store: GameStore,
    chat: int,
    user: int,
    lang: str | None,
    update_id: int,
    on: bool | None,
    clock: Clock = time.time,
) -> str | None:
    """Put `user` on the group's list for its next lobby (`on`), take them off (not `on`), or
    switch (None). ON or OFF as they stand afterwards, ALREADY when put on a list they were on,
    FULL when the list had no room; None when the update had made its change already."""
    key = waiting_key(chat)
    after: list[str] = []

    def change(data: dict[str, Any]) -> dict[str, Any]:
        users = [u for u in data.get("users", []) if u[0] != user]
        there = len(users) != len(data.get("users", []))
        wanted = (not there) if on is None else on
        if on and there:
            after[:] = [ALREADY]
            return data
        if wanted and not there and len(users) >= WAITING_MAX:
            after[:] = [FULL]
            return data
        after[:] = [ON if wanted else OFF]
        return {**data, "users": [*users, [user, lang]] if wanted else users}

    if not side_items.put_once(store, key, update_id, change, clock):
        return None
    return after[0]


def drop_waiting(store: GameStore, chat: int, user: int) -> None:
    """Take `user` off the group's list (their confirmation could not reach them)."""
    key = waiting_key(chat)

    def attempt(_: int) -> None:
        item = store.load(key)
        users = (item.data.get("users") or []) if item else []
        if item is None or all(u[0] != user for u in users):
            return
        data = {**item.data, "users": [u for u in users if u[0] != user]}
        store.save(Item(key, item.version, data, item.expires_at))

    retry_on_conflict(attempt)


def note_confirmation(store: GameStore, chat: int, user: int, msg: int) -> None:
    """Remember the confirmation `user` was sent, whose Cancel goes when they are told."""
    key = waiting_key(chat)

    def attempt(_: int) -> None:
        item = store.load(key)
        users = (item.data.get("users") or []) if item else []
        if item is None or all(u[0] != user for u in users):
            return
        noted = [[*u[:2], msg] if u[0] == user else u for u in users]
        store.save(Item(key, item.version, {**item.data, "users": noted}, item.expires_at))

    retry_on_conflict(attempt)


def is_waiting(store: GameStore, chat: int, user: int) -> bool:
    """Whether `user` waits for the group's next lobby."""
    return user in waiting(store, chat)


def told(
    store: GameStore, chat: int, users: list[int], update_id: int, clock: Clock = time.time
) -> None:
    """Take the people just told of the new lobby off the group's list (those who asked since
    stay on it)."""
    gone = set(users)
    if gone:
        side_items.put_once(
            store,
            waiting_key(chat),
            update_id,
            lambda data: {**data, "users": [u for u in data.get("users", []) if u[0] not in gone]},
            clock,
        )
