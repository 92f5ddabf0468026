"""The host: load a table, change it once, save it conditionally, hand back what it owes.

Every change is keyed by the Telegram update that caused it, so a redelivered update is
recognised and never applied twice; the messages owed for a saved version travel inside the
same conditional write, so a redelivery can send what a crashed run did not.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from handlers.table import CANCELLED, OVER_STATUS, Out, Table
from infra.store import Conflict, GameStore, Item

log = logging.getLogger(__name__)

ATTEMPTS = 8
FINISHED_TTL = 24 * 3600  # a finished game stays a day (for Play again and /mycard), then expires
LIVE_TTL = 7 * 24 * 3600  # a running game is never expected to last a week


def game_key(chat: int) -> str:
    """The store key of a group's table."""
    return f"game#{chat}"


def prefs_key(chat: int) -> str:
    """The store key of a group's saved settings."""
    return f"prefs#{chat}"


def user_key(user: int) -> str:
    """The store key that points a user at the group they last joined."""
    return f"user#{user}"


@dataclass
class Change:
    """The result of one change: the table as saved and the messages it owes."""

    table: Table | None
    outs: list[Out] = field(default_factory=list)
    repeated: bool = False  # the update had been applied before


Changer = Callable[[Table | None], tuple[Table | None, list[Out]]]


class Host:
    """Runs changes against the store with optimistic concurrency and wakes tables on time."""

    def __init__(
        self,
        store: GameStore,
        wake: Callable[[int, float], None] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.wake = wake or (lambda chat, when: None)
        self.clock = clock

    def _follow(self, chat: int) -> tuple[int, Item | None]:
        """The group's chat id and stored item, following its upgrade to a supergroup."""
        item = self.store.load(game_key(chat))
        moved = item.data.get("moved_to") if item else None
        if moved is None:
            return chat, item
        return moved, self.store.load(game_key(moved))

    def load(self, chat: int) -> Table | None:
        """The group's table as stored (read-only use)."""
        _, item = self._follow(chat)
        return Table(item.data) if item else None

    def change(self, chat: int, update_id: int | None, changer: Changer) -> Change:
        """Apply `changer` to the group's table and save; retried from scratch on a conflict.

        `changer` gets the loaded table (or None) and returns the table to save (or None to save
        nothing) and the messages owed. It may raise `Refused`; then nothing is saved.
        """
        for _ in range(ATTEMPTS):
            chat, item = self._follow(chat)
            key = game_key(chat)
            table = Table(item.data) if item else None
            if table is not None and update_id in table.data.get("applied", []):
                return Change(table, self.owed(table, update_id), repeated=True)
            before = table.deadline() if table is not None else None
            new, outs = changer(table)
            if new is None:
                return Change(table, outs)
            new.remember_update(update_id)
            new.data["outbox"] = outs
            new.data["outbox_for"] = update_id
            version = item.version if item else 0  # a new game replaces the old one in place
            try:
                self.store.save(Item(key, version, new.data, self._expiry(new)))
            except Conflict:
                continue
            deadline = new.deadline()
            if deadline is not None and deadline != before:  # an unchanged one is set already
                self.wake(chat, deadline)
            return Change(new, outs)
        raise Conflict(game_key(chat))

    def point(self, old: int, new: int) -> None:
        """Leave a group's old key pointing at its supergroup's, so that buttons, join links and
        timers made with the old chat id still find the game (the pointer lasts a day)."""
        key = game_key(old)
        for _ in range(ATTEMPTS):
            item = self.store.load(key)
            if item is None or item.data.get("moved_to") == new:
                return
            data = {"chat": old, "game": item.data.get("game"), "status": CANCELLED}
            try:
                self.store.save(
                    Item(key, item.version, {**data, "moved_to": new}, self._expiry(Table(data)))
                )
                return
            except Conflict:
                continue

    @staticmethod
    def owed(table: Table, update_id: int | None) -> list[Out]:
        """What the change made by `update_id` still owes: its outbox, unless it was delivered."""
        if update_id is None or table.data.get("outbox_for") != update_id:
            return []
        return table.data.get("outbox", [])

    def remember(
        self,
        chat: int,
        game: int,
        ids: dict[str, int],
        board_tag: int | None,
        update_id: int | None = None,
    ) -> None:
        """Store the ids of messages just posted (lobby, turn message) for later edits, and
        mark the outbox of `update_id` delivered, so a redelivery of it sends nothing again.

        A turn message's id is kept only while that turn message is still the current one.
        """
        key = game_key(chat)
        for _ in range(ATTEMPTS):
            item = self.store.load(key)
            if item is None or item.data.get("game") != game:
                return
            data = item.data
            delivered = update_id is not None and data.get("outbox_for") == update_id
            if not ids and not (delivered and data.get("outbox")):
                return
            if delivered:
                data["outbox"] = []
            for ref, message_id in ids.items():
                if ref == "board":
                    board = data.get("board")
                    if board is not None and board.get("tag") == board_tag:
                        board["msg"] = message_id
                else:
                    data[ref] = message_id
            try:
                self.store.save(Item(key, item.version, data, item.expires_at))
                return
            except Conflict:
                continue

    def _expiry(self, table: Table) -> int:
        ttl = FINISHED_TTL if table.status in (OVER_STATUS, CANCELLED) else LIVE_TTL
        return int(self.clock()) + ttl

    def put(self, key: str, data: dict, ttl: int = 30 * 24 * 3600) -> None:
        """Write a small record (prefs, user pointers), last writer wins."""
        for _ in range(ATTEMPTS):
            item = self.store.load(key)
            version = item.version if item else 0
            try:
                self.store.save(Item(key, version, data, int(self.clock()) + ttl))
                return
            except Conflict:
                continue

    def get(self, key: str) -> dict | None:
        """A small record's data, or None."""
        item = self.store.load(key)
        return item.data if item else None
