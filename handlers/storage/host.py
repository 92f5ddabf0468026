"""The host: load a table, change it once, save it conditionally, hand back what it owes.

Every change is keyed by the Telegram update that caused it, so a redelivered update is
recognised and never applied twice. The messages a change owes travel inside the same
conditional write, as a batch in the table's `owed` list, until the run that made the change
reports them delivered (`remember`). A run has `LEASE` seconds to do so; a batch still owed after
that belongs to a run that died, and the next run to touch the table (Telegram's redelivery, the
next timer, anyone's next change) claims it, in a conditional write of its own, and sends it.
While the lease runs, a redelivery of the same update sends nothing and says until when that run
has (`Change.busy_until`), so an update delivered many times at once is answered once.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Collection
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from handlers.session.prompts import remember_prompt
from handlers.session.table import CANCELLED, OVER_STATUS, PLAYING, Table
from handlers.storage import history, records
from handlers.storage.keys import expiry, game_key, history_key, prefs_key, user_key
from handlers.storage.owed import (
    LEASE,
    OWED_KEPT,
    Out,
    OwedBatch,
    acknowledge,
    claim,
    outs_of,
    owed_in,
    retry_batch,
    to_stored,
)
from handlers.storage.records import pointed_chats
from handlers.storage.retry import ATTEMPTS, retry_on_conflict
from handlers.storage.stats import (
    counted_with_the_end,
    forget_player,
    holding_groups,
    keys_counted,
)
from infra.store import Conflict, GameStore, Item

__all__ = [
    "ATTEMPTS",
    "LEASE",
    "OWED_KEPT",
    "Change",
    "Changer",
    "Host",
    "game_key",
    "pointed_chats",
    "prefs_key",
    "user_key",
]

log = logging.getLogger(__name__)

FINISHED_TTL = 24 * 3600  # a finished game stays a day (for Play again and /mycard), then expires
LIVE_TTL = 7 * 24 * 3600  # a running game is never expected to last a week


@dataclass
class Change:
    """The result of one change: the table as saved and the messages it owes."""

    table: Table | None
    outs: list[Out] = field(default_factory=list)
    repeated: bool = False  # the update had been applied before
    keys: list[str] = field(default_factory=list)  # the owed batches `outs` deliver
    busy_until: float | None = None  # a repeat whose messages another run sends until then
    saved_version: int | None = None  # the item's version after this change's save, if it saved


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

    def prefetch(self, keys: list[str]) -> None:
        """Read `keys` together, in one call where the store allows, when the store keeps
        what it read for the rest of the update (the Lambda's read cache)."""
        if hasattr(self.store, "scope") and len(keys) > 1:
            self.store.load_many(keys)

    def latest(self, chat: int) -> Table | None:
        """The group's table as stored this very moment (past any cache of the update's reads)."""
        store = getattr(self.store, "backend", self.store)
        item = store.load(game_key(chat))
        return Table(item.data) if item else None

    def change(self, chat: int, update_id: int | None, changer: Changer) -> Change:
        """Apply `changer` to the group's table and save; retried from scratch on a conflict.

        `changer` gets the loaded table (or None) and returns the table to save (or None to save
        nothing) and the messages owed. It may raise `Refused`; then nothing is saved. The
        change's messages come back in `outs`, after any a dead run left owed (claimed here).
        """

        def attempt(_: int) -> Change:
            nonlocal chat
            chat, item = self._follow(chat)
            key = game_key(chat)
            table = Table(item.data) if item else None
            now = self.clock()
            if table is not None and update_id in table.data.get("applied", []):
                return self._claim(item, now, update_id=update_id)
            owed = owed_in(item.data) if item else []
            before = table.next_wake() if table is not None else None
            playing = table.game if table is not None and table.status == PLAYING else None
            new, outs = changer(table)
            if new is None and any(batch.lapsed(now) for batch in owed):
                # Nothing to change, but a dead run's messages to send: claim them (on the item
                # as stored, which the changer may have touched before it gave up).
                return self._claim(self.store.load(key), now, outs)
            if new is None:
                return Change(table, outs)
            new.remember_update(update_id)
            version = item.version if item else 0  # a new game replaces the old one in place
            kept, taken = claim(owed, now)
            mine = f"u{update_id}" if update_id is not None else f"v{version + 1}"
            if outs:
                kept.append(OwedBatch(mine, now, outs))
            new.data["owed"] = to_stored(kept)
            deadline = new.next_wake()
            if deadline is not None and deadline != before:  # an unchanged one is set already
                self.wake(chat, deadline)  # before the save: a run that dies after it loses none
            item = Item(key, version, new.data, self._game_expiry(new))
            try:
                self._save(item, new, playing, now, outs)
            except Conflict:
                raise
            except Exception:
                # No answer (a timeout, say): the write may have been applied, its messages
                # owed under this run's lease. A timer at the lease's end sends them then, as
                # for a run busy elsewhere, should nobody come back before.
                if outs:
                    self.wake(chat, now + LEASE)
                raise
            keys = [batch.key for batch in taken] + ([mine] if outs else [])
            return Change(new, outs_of(taken) + outs, keys=keys, saved_version=version + 1)

        return retry_on_conflict(attempt)

    def _save(
        self, item: Item, table: Table, playing: int | None, now: float, outs: list[Out]
    ) -> None:
        """Save `table` as `item`. A game that ends in this change (the game `playing` before
        it) is counted in its statistics, and kept in its group's history (the end message in
        `outs` carries it), by the same write, all or nothing: exactly once."""
        ends = [(out["chat"], out["history"]) for out in outs if out.get("history")]
        keys = keys_counted(playing, table, ends) + [history_key(chat) for chat, _ in ends]
        found = self.store.load_many(keys) if keys else {}
        extra = counted_with_the_end(found, playing, table, now, ends)
        for chat, entry in ends:
            added = history.with_game(found.get(history_key(chat)), chat, entry, self.clock)
            extra += [added] if added is not None else []
        if extra:
            self.store.save_all([item, *extra])
        else:
            self.store.save(item)

    def _claim(
        self, item: Item | None, now: float, extra: list[Out] = (), update_id: int | None = None
    ) -> Change:
        """Claim the lapsed batches in a write of its own, to send them (then `extra`); `Conflict`
        on a lost race. A redelivered `update_id` is `busy` while its own batch's lease runs."""
        if item is None:
            return Change(None, list(extra))
        data = item.data
        owed = owed_in(data)
        mine = f"u{update_id}" if update_id is not None else None
        leases = [b.lapses for b in owed if b.key == mine and not b.lapsed(now)]
        busy = max(leases, default=None)
        repeated = update_id is not None
        kept, taken = claim(owed, now)
        if not taken:
            return Change(Table(data), list(extra), repeated=repeated, busy_until=busy)
        data["owed"] = [batch.to_stored() for batch in kept]
        self.store.save(Item(item.key, item.version, data, item.expires_at))
        keys = [batch.key for batch in taken]
        outs = outs_of(taken) + list(extra)
        return Change(Table(data), outs, repeated=repeated, keys=keys, busy_until=busy)

    @staticmethod
    def next_due(table: Table) -> float | None:
        """When the table next needs a run: its own next wake (a deadline, a countdown) or the
        end of an owed batch's lease (a message to send again), whichever comes first."""
        due = [batch.lapses for batch in owed_in(table.data)]
        wake = table.next_wake()
        return min([*due, wake] if wake is not None else due, default=None)

    def point(self, old: int, new: int) -> None:
        """Leave a group's old key pointing at its supergroup's, so that buttons, join links and
        timers made with the old chat id still find the game (the pointer lasts a day)."""
        key = game_key(old)

        def attempt(_: int) -> None:
            item = self.store.load(key)
            if item is None or item.data.get("moved_to") == new:
                return
            data = {"chat": old, "game": item.data.get("game"), "status": CANCELLED}
            pointer = {**data, "moved_to": new}
            self.store.save(Item(key, item.version, pointer, self._game_expiry(Table(data))))

        with suppress(Conflict):  # every attempt lost a race: the old key stays as it is
            retry_on_conflict(attempt)

    def remember(
        self,
        chat: int,
        game: int,
        ids: dict[str, int],
        board_tag: int | None,
        keys: Collection[str] = (),
        retry: list[Out] = (),
        wait: float = 0.0,
        saved_version: int | None = None,
    ) -> bool:
        """Store the ids of messages just posted (lobby, turn message, a private prompt) for
        later edits, and mark the owed batches `keys` delivered, so that nobody sends them
        again. Messages Telegram could not take now (`retry`) stay owed, to go out in `wait`
        seconds (a timer is set for it).

        A turn message's id is kept only while that turn message is still the current one; a
        prompt's, only while that prompt is still open.
        True when the write found the table as the change saved it (`saved_version`): no
        other change came between, so what the change sent is the latest.
        """
        key = game_key(chat)

        def attempt(number: int) -> bool:
            item = self.store.load(key)
            if item is None:
                return False
            data = item.data
            owed = owed_in(data)
            left = acknowledge(owed, keys)
            same_game = data.get("game") == game
            if len(left) == len(owed) and not (ids and same_game) and not retry:
                return False
            now = self.clock()
            if retry:  # owed by nobody alive: lapsed once `wait` has passed
                batch = f"r{item.version + 1}.{random.randrange(10**6)}"
                left.append(retry_batch(batch, retry, now, wait))
            data["owed"] = to_stored(left)
            for ref, message_id in ids.items() if same_game else ():
                if ref == "board":
                    board = data.get("board")
                    if board is not None and board.get("tag") == board_tag:
                        board["msg"] = message_id
                elif not remember_prompt(data, ref, message_id):
                    data[ref] = message_id
            self.store.save(Item(key, item.version, data, item.expires_at))
            if retry:
                self.wake(chat, now + max(wait, 1.0))
            return number == 0 and item.version == saved_version

        try:
            return retry_on_conflict(attempt)
        except Exception as error:  # lost every race, or no answer: the batches stay owed
            # The messages are out; only the mark is missing. The update does not fail for
            # it: a timer at the lease's end sends what is still owed (at least once).
            log.warning("could not mark delivered messages: %s", type(error).__name__)
            if keys or retry:
                self.wake(chat, self.clock() + LEASE)
            return False

    def _game_expiry(self, table: Table) -> int:
        """When a table's item expires: a day after its game ends, a week while it runs."""
        ttl = FINISHED_TTL if table.status in (OVER_STATUS, CANCELLED) else LIVE_TTL
        return expiry(self.clock, ttl)

    def count_failure(self, update_id: int) -> int:
        """One more failed delivery of an update; how many there have been."""
        return records.count_failure(self.store, update_id, self.clock)

    def forget_user(self, user: int, chats: Collection[int] = ()) -> None:
        """Erase the user from every group that holds them (those their statistics item names,
        and `chats`): their name in its kept games, their place on its list for the next game
        and on its leaderboard; then their statistics and their pointer."""
        for chat in dict.fromkeys([*holding_groups(self.store, user), *chats]):
            history.forget_player(self.store, chat, user)
        forget_player(self.store, user, chats)
        records.forget(self.store, user_key(user))

    def point_user(self, user: int, chat: int) -> None:
        """Put `chat` first among the groups a user's private commands look in."""
        records.point_user(self.store, user, chat, self.clock)

    def put_newer(
        self, key: str, data: dict[str, Any], table: Table, saved_version: int | None
    ) -> None:
        """Write a small record made from `table` as saved at `saved_version`, unless one made
        from a later save is there already (see `records.put_newer`)."""
        made_from = [table.data.get("opened", 0), saved_version or 0]
        records.put_newer(self.store, key, data, made_from, self.clock)

    def put_once(self, key: str, update_id: int, change: Callable[[dict], dict]) -> bool:
        """Change a small record once per update; False if `update_id` had changed it already."""
        return records.put_once(self.store, key, update_id, change, self.clock)

    def get(self, key: str) -> dict[str, Any] | None:
        """A small record's data, or None."""
        return records.get(self.store, key)

    def games(self, chat: int) -> list[dict[str, Any]]:
        """The group's kept games, the oldest first."""
        return history.games(self.store, chat)
