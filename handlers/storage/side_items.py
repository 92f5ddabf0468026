"""Small records beside the tables: a group's saved preferences and a user's pointer at the
groups they joined, hosted in or asked about; each write conditional, retried on a lost race."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from handlers.storage.keys import expiry, failure_key, user_key
from handlers.storage.retry import retry_on_conflict
from infra.store import Conflict, GameStore, Item

PREFS_TTL = 30 * 24 * 3600  # a group's saved settings and a user's pointer last a month
APPLIED_PREFS = 10  # updates remembered in a small record
POINTED = 4  # groups a user's private commands look in, the latest first
# A group stays on the pointer two months after it was last put first: longer than anything
# there (a list for the next game: a month from the last request) can hold the user.
POINTER_KEEPS = 2 * PREFS_TTL
FAILURE_TTL = 24 * 3600  # Telegram gives up on an update after a day: so does its count

Clock = Callable[[], float]


def get(store: GameStore, key: str) -> dict[str, Any] | None:
    """A small record's data, or None."""
    item = store.load(key)
    return item.data if item else None


def pointed_chats(data: dict[str, Any] | None) -> list[int]:
    """The groups a user's private commands look in: the latest `POINTED` of the pointer's."""
    return all_pointed(data)[:POINTED]


def all_pointed(data: dict[str, Any] | None) -> list[int]:
    """Every group a user's pointer names (where they may be in a lobby, a game or a list for
    the next game), the latest first."""
    return [int(chat) for chat in (data or {}).get("chats", [])]


def point_user(
    store: GameStore,
    user: int,
    chat: int,
    clock: Clock = time.time,
    read: list[Item | None] | None = None,
) -> None:
    """Put `chat` first among the groups a user's pointer names (no write when it is first
    already and the pointer has more than half its time to live). Groups not put first for
    `POINTER_KEEPS` leave it. The first attempt goes over the pointer `read` already (in a
    one-element list, when the update read it), a retry over the pointer as it is then."""
    key = user_key(user)
    first = list(read or [])

    def attempt(_: int) -> None:
        item = first.pop() if first else store.load(key)
        data = item.data if item else {}
        chats = all_pointed(data)
        expires = expiry(clock, PREFS_TTL)
        if (
            item is not None
            and chats[:1] == [chat]
            and (item.expires_at or 0) > expires - (PREFS_TTL // 2)
        ):
            return
        now = int(clock())
        when = {str(c): (data.get("at") or {}).get(str(c), now) for c in chats}  # undated: now
        when[str(chat)] = now
        latest = [c for c in [chat, *chats] if when[str(c)] > now - POINTER_KEEPS]
        latest = list(dict.fromkeys(latest))
        kept = {"chats": latest, "at": {str(c): when[str(c)] for c in latest}}
        store.save(Item(key, item.version if item else 0, kept, expires))

    with suppress(Conflict):  # every attempt lost a race: the winners' pointers stand
        retry_on_conflict(attempt)


def put_newer(
    store: GameStore,
    key: str,
    data: dict[str, Any],
    made_from: list,
    clock: Clock = time.time,
    read: list[Item | None] | None = None,
) -> None:
    """Write a small record made from a table's save `made_from` (the lobby's opening time, then
    the version saved), unless one made from a later save is there already. The first attempt
    goes over the record `read` already (in a one-element list), a retry over it as it is then."""
    # Racing writers leave the latest table's record, not the last writer's. The opening time
    # comes first: a group's item may expire and start again at version 1, but never opens a
    # lobby back in time.

    first = list(read or [])

    def attempt(_: int) -> None:
        item = first.pop() if first else store.load(key)
        if item is not None and item.data.get("made_from", [0, 0]) >= made_from:
            return
        record = {**data, "made_from": made_from}
        store.save(Item(key, item.version if item else 0, record, expiry(clock, PREFS_TTL)))

    with suppress(Conflict):
        retry_on_conflict(attempt)


def put_once(
    store: GameStore,
    key: str,
    update_id: int,
    change: Callable[[dict[str, Any]], dict[str, Any]],
    clock: Clock = time.time,
) -> bool:
    """Change a small record once per update (conditionally); False if `update_id` had
    changed it already. Raises `Conflict` when every attempt lost a race."""

    def attempt(_: int) -> bool:
        item = store.load(key)
        data = dict(item.data) if item else {}
        applied = data.get("applied") or []
        if update_id in applied:
            return False
        data = {**change(data), "applied": [*applied, update_id][-APPLIED_PREFS:]}
        store.save(Item(key, item.version if item else 0, data, expiry(clock, PREFS_TTL)))
        return True

    return retry_on_conflict(attempt)


def forget(store: GameStore, key: str) -> None:
    """Delete a small record, whatever its version (nothing when it is absent)."""

    def attempt(_: int) -> None:
        item = store.load(key)
        if item is not None:
            store.delete(key, item.version)

    retry_on_conflict(attempt)


def count_failure(store: GameStore, update_id: int, clock: Clock = time.time) -> int:
    """Count one more failed delivery of an update; how many there have been."""
    key = failure_key(update_id)

    def attempt(_: int) -> int:
        item = store.load(key)
        count = (item.data.get("count", 0) if item else 0) + 1
        version = item.version if item else 0
        store.save(Item(key, version, {"count": count}, expiry(clock, FAILURE_TTL)))
        return count

    return retry_on_conflict(attempt)
