"""The keeper of a group's items: read a group's item once, save a change to it conditionally
with the messages it owes, and mark them delivered once they are out.

Every change is keyed by the Telegram update that caused it, so a redelivered update is
recognised (`Loaded.applied`) and never applied twice. The messages a change owes travel inside
the same conditional write, as a batch in the item's `owed` list, until the run that made the
change reports them delivered (`acknowledge`). A run has `LEASE` seconds to do so; a batch still
owed after that belongs to a run that died, and the next run to touch the table (Telegram's
redelivery, the next timer, anyone's next change) claims it, in a conditional write of its own,
and sends it. While the lease runs, a redelivery of the same update sends nothing and says until
when that run has (`Saved.busy_until`), so an update delivered many times at once is answered
once. The keeper decides nothing and renders nothing: it is handed a change, and hands back what
the change owes.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from engine.codec import NewerForm
from handlers.storage import history, side_items
from handlers.storage.envelope import APPLIED_KEPT, Envelope, rewrapped
from handlers.storage.keys import (
    expiry,
    game_key,
    history_key,
    prefs_key,
    unreadable_key,
    user_key,
)
from handlers.storage.loaded import (
    APART,
    FORM,
    SESSION,
    TELEGRAM,
    Change,
    Loaded,
    Saved,
    parts_of,
    redelivered,
)
from handlers.storage.owed import (
    LEASE,
    OWED_KEPT,
    OwedBatch,
    acknowledge,
    claim,
    outs_of,
    retry_batch,
)
from handlers.storage.retry import ATTEMPTS, retry_on_conflict
from handlers.storage.side_items import pointed_chats
from handlers.storage.stats import (
    counted_with_the_end,
    forget_player,
    holding_groups,
    keys_counted,
)
from infra.store import Conflict, GameStore, Item

if TYPE_CHECKING:
    from handlers.session.ending import Ending

__all__ = [
    "APART",
    "APPLIED_KEPT",
    "ATTEMPTS",
    "FORM",
    "LEASE",
    "OWED_KEPT",
    "SESSION",
    "TELEGRAM",
    "Change",
    "Envelope",
    "Keeper",
    "Loaded",
    "Saved",
    "game_key",
    "parts_of",
    "pointed_chats",
    "prefs_key",
    "user_key",
]

log = logging.getLogger(__name__)

FINISHED_TTL = 24 * 3600  # a finished game stays a day (for Play again and /mycard), then expires
LIVE_TTL = 7 * 24 * 3600  # a running game is never expected to last a week


UNREADABLE = "unreadable_item"  # the field of the log line an item set aside makes (alarmed)
UNREADABLE_BATCH = "unreadable"  # the owed batch that tells a group its game was set aside
NEWER_RETRY = 30.0  # seconds before a group whose item a newer release wrote is woken again
_aside: list[ThreadPoolExecutor] = []  # the process's one thread for timers sent beside saves


def _beside() -> ThreadPoolExecutor:
    """The thread a timer goes out on beside a save (one a process, kept for warm runs)."""
    if not _aside:
        _aside.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="timer"))
    return _aside[0]


def _settle(timer: Future | None) -> None:
    """Wait for a timer sent beside a save that failed (its own failure is the save's)."""
    if timer is not None:
        with suppress(Exception):
            timer.result()


class Keeper:
    """Reads a group's item once, saves a change to it conditionally with the messages it owes,
    and marks them delivered; wakes tables on time. It never decides or renders anything."""

    def __init__(
        self,
        store: GameStore,
        wake: Callable[[int, float], None] | None = None,
        clock: Callable[[], float] = time.time,
        *,
        aside: bool = False,
    ) -> None:
        self.store = store
        self.wake = wake or (lambda chat, when: None)
        self.clock = clock
        self.aside = aside  # `wake` is a network call (SQS): an update's goes beside its save
        # How the owners read their parts (raising when they cannot), and what a group is told
        # when its item was unreadable and set aside: the Telegram side's, given by `reading`.
        self.check: Callable[[Loaded], object] = lambda loaded: None
        self.notice: Callable[[int, dict[str, Any]], list[dict[str, Any]]] = lambda c, d: []

    def reading(
        self,
        check: Callable[[Loaded], object],
        notice: Callable[[int, dict[str, Any]], list[dict[str, Any]]],
    ) -> None:
        """Read every item with `check` (raising when an owner cannot read its part); an item
        it fails on is set aside and its group told with the messages `notice` makes."""
        self.check, self.notice = check, notice

    def load(self, chat: int, also: Collection[str] = ()) -> Loaded:
        """The group's item (following its upgrade to a supergroup), read once, with the small
        records `also` in the same call where the store allows."""
        key = game_key(chat)
        if also:
            found = self.store.load_many([key, *also])
            item, records = found.pop(key), found
        else:
            item, records = self.store.load(key), {}
        return self._followed(chat, item, records)

    def load_all(self, chats: Collection[int]) -> list[Loaded]:
        """Several groups' items, read together (one call where the store allows)."""
        found = self.store.load_many([game_key(chat) for chat in chats]) if chats else {}
        return [self._followed(chat, found.get(game_key(chat))) for chat in chats]

    def _followed(
        self, chat: int, item: Item | None, records: dict[str, Item | None] | None = None
    ) -> Loaded:
        """The group's item as read, or, for a group that became a supergroup, its new one."""
        loaded = self._opened(chat, item, records or {})
        moved = loaded.envelope.moved_to
        if moved is None:
            return loaded
        return self._opened(moved, self.store.load(game_key(moved)), records or {})

    def latest(self, chat: int) -> Loaded:
        """The group's item as stored this very moment (past any cache of the update's reads)."""
        store = getattr(self.store, "backend", self.store)
        return self._opened(chat, store.load(game_key(chat)), {})

    def _opened(self, chat: int, item: Item | None, records: dict[str, Item | None]) -> Loaded:
        """The group's item in its parts, each read by its owner; one that cannot be read is
        set aside, and the group finds a fresh item (owing it the news) in its place."""
        try:
            loaded = Loaded(chat, item, records)
            self.check(loaded)
        except NewerForm as error:  # a newer release's item: left as it is, tried again later
            self._left_for_later(chat, error)
            raise
        except Exception as error:
            if item is None:
                raise
            return Loaded(chat, self._set_aside(chat, item, error), records)
        return loaded

    def _left_for_later(self, chat: int, error: NewerForm) -> None:
        """Log an item a newer release wrote, which this one leaves unread and unchanged, and
        wake the group again soon, so that its deadlines are kept (by whichever release then
        runs); the update that read it fails, and is delivered again."""
        log.warning("item in a newer form left as it is: %s", error, extra={"chat_id": chat})
        self.wake(chat, self.clock() + NEWER_RETRY)

    def _set_aside(self, chat: int, item: Item, error: Exception) -> Item | None:
        """Keep an unreadable item under a key of its own with its error (logged at ERROR, with
        the field the stack's alarm counts), and put in its place an empty one owing the
        group a notice that a new game can be started; the item as stored then."""
        now = self.clock()
        reason = f"{type(error).__name__}: {error}"[:500]
        log.error(
            "unreadable item set aside: %s",
            reason,
            extra={UNREADABLE: True, "chat_id": chat, "item_key": item.key},
        )
        kept = {"key": item.key, "version": item.version, "error": reason, "data": item.data}
        aside = Item(unreadable_key(item.key, item.version), 0, kept, expiry(self.clock, LIVE_TTL))
        notice = retry_batch(UNREADABLE_BATCH, self.notice(chat, item.data), now, 0.0)
        fresh = {"form": FORM, **Envelope(owed=(notice,)).to_stored(), SESSION: None}
        fresh_item = Item(item.key, item.version, fresh, expiry(self.clock, FINISHED_TTL))
        try:
            self.store.save_all([fresh_item, aside])
        except Conflict:  # another run set it aside (or changed it) first: read it as it is
            return self.store.load(item.key)
        self.wake(chat, now + 1.0)  # should nobody change the group soon, a timer tells it
        return Item(item.key, item.version + 1, fresh, fresh_item.expires_at)

    def save(self, loaded: Loaded, change: Change, update_id: int | None) -> Saved:
        """Save `change` over `loaded` in one conditional write, with the messages it owes and
        a dead run's batches claimed; `Conflict` when the item changed since it was read (read
        it again and decide again). A change that saves nothing claims a dead run's batches
        all the same, in a write of their own."""
        now = self.clock()
        new, item = change.session, loaded.item
        owed = loaded.owed()
        if new is None:
            if any(batch.lapsed(now) for batch in owed):
                return self._claim(loaded, now, change.outs)
            return Saved(loaded.chat, list(change.outs))
        version = item.version if item else 0  # a new game replaces the old one in place
        kept, taken = claim(owed, now)
        mine = f"u{update_id}" if update_id is not None else f"v{version + 1}"
        if change.outs:
            kept.append(OwedBatch(mine, now, change.outs))
        # the ids delivered so far are in the Telegram side's part now: none is left posted
        envelope = loaded.envelope.applying(update_id).owing(kept).taken_in()
        data = {
            "form": FORM,
            **envelope.to_stored(),
            SESSION: new,
            TELEGRAM: change.telegram,
        }
        keys = [batch.key for batch in taken] + ([mine] if change.outs else [])
        outs = outs_of(taken) + list(change.outs)
        expires = expiry(self.clock, FINISHED_TTL if change.over else LIVE_TTL)
        key = game_key(loaded.chat)
        deadline = change.wake
        timer = None
        if deadline is not None and deadline != change.woke:  # an unchanged one is set already
            timer = self._arm(loaded.chat, deadline, redelivered(update_id))
        # the item to write, and as it stands once written
        saved, done = Item(key, version, data, expires), Item(key, version + 1, data, expires)
        try:
            self._save(saved, change.ending)
        except Conflict:
            _settle(timer)
            raise
        except Exception:
            # No answer (a timeout, say): the write may have been applied, its messages owed
            # under this run's lease. A timer at the lease's end sends them then, as for a run
            # busy elsewhere, should nobody come back before.
            _settle(timer)
            if change.outs:
                self.wake(loaded.chat, now + LEASE)
            raise
        if timer is not None and timer.exception() is not None:
            # Tried once more; lost again, the update fails and its redelivery sets it.
            self.wake(loaded.chat, deadline)
        return Saved(loaded.chat, outs, keys=keys, item=done)

    def _arm(self, chat: int, when: float, redelivered: bool) -> Future | None:
        """Set the table's timer for `when`. An update's change sends it beside its save (a
        network call of its own, off the critical path): should the run die between the two,
        Telegram delivers the update again and that redelivery sets it again (`answer_again`).
        A run nobody delivers again (a timer's) sets it first, so that one dying after the save
        loses none."""
        if not (self.aside and redelivered):
            self.wake(chat, when)
            return None
        return _beside().submit(self.wake, chat, when)

    def _save(self, item: Item, ending: Ending | None) -> None:
        """Save `item`. A game that ends in this change (`ending`) is counted in its statistics
        and kept in its group's history by the same write, all or nothing: exactly once."""
        if ending is None:
            self.store.save(item)
            return
        keys = [*keys_counted(ending), history_key(ending.chat)]
        found = self.store.load_many(keys)
        extra = counted_with_the_end(found, ending, self.clock())
        kept = found.get(history_key(ending.chat))
        added = history.with_game(kept, ending.chat, ending.kept, self.clock)
        extra += [added] if added is not None else []
        if extra:
            self.store.save_all([item, *extra])
        else:
            self.store.save(item)

    def answer_again(self, loaded: Loaded, update_id: int, deadline: float | None) -> Saved:
        """A redelivered update: nothing is changed again. A dead run's batches are claimed (in
        a conditional write) to be sent; while the update's own batch is leased to the run that
        made it, the answer is `busy` until the lease ends. (`deadline`: when the table as read
        next needs waking.)"""
        now = self.clock()
        mine = f"u{update_id}"
        leases = [b.lapses for b in loaded.owed() if b.key == mine and not b.lapsed(now)]
        if self.aside and deadline is not None and redelivered(update_id):
            # the first run may have died before setting it (a table move's set it first)
            self.wake(loaded.chat, deadline)
        saved = self._claim(loaded, now)
        saved.repeated, saved.busy_until = True, max(leases, default=None)
        return saved

    def _claim(self, loaded: Loaded, now: float, extra: list[dict[str, Any]] = ()) -> Saved:
        """Claim the lapsed batches in a write of their own, to send them (then `extra`);
        `Conflict` on a lost race."""
        item = loaded.item
        if item is None:
            return Saved(loaded.chat, list(extra))
        kept, taken = claim(loaded.owed(), now)
        if not taken:
            return Saved(loaded.chat, list(extra))
        data = rewrapped(item.data, loaded.envelope.owing(kept))
        self.store.save(Item(item.key, item.version, data, item.expires_at))
        done = Item(item.key, item.version + 1, data, item.expires_at)
        keys = [batch.key for batch in taken]
        outs = outs_of(taken) + list(extra)
        return Saved(loaded.chat, outs, keys=keys, item=done)

    @staticmethod
    def next_due(loaded: Loaded, wake: float | None) -> float | None:
        """When the group's table next needs a run: its own next wake (`wake`: a deadline, a
        countdown) or the end of an owed batch's lease (a message to send again), whichever
        comes first."""
        due = [batch.lapses for batch in loaded.owed()]
        return min([*due, wake] if wake is not None else due, default=None)

    def point(self, old: int, new: int) -> None:
        """Leave a group's old key pointing at its supergroup's, so that buttons, join links and
        timers made with the old chat id still find the game (the pointer lasts a day)."""
        key = game_key(old)

        def attempt(_: int) -> None:
            item = self.store.load(key)
            if item is None or Envelope.from_stored(item.data).moved_to == new:
                return
            pointer = {"form": FORM, **Envelope(moved_to=new).to_stored()}
            self.store.save(Item(key, item.version, pointer, expiry(self.clock, FINISHED_TTL)))

        with suppress(Conflict):  # every attempt lost a race: the old key stays as it is
            retry_on_conflict(attempt)

    def acknowledge(
        self,
        chat: int,
        game: int,
        saved: Item | None,
        ids: dict[str, int],
        board_tag: int | None = None,
        keys: Collection[str] = (),
        retry: list[dict[str, Any]] = (),
        wait: float = 0.0,
    ) -> bool:
        """The second phase of a change, once its messages are out: mark the owed batches `keys`
        delivered, so that nobody sends them again, and keep the ids of the messages just posted
        (lobby, turn message, a private prompt) for later edits. Messages Telegram could not take
        now (`retry`) stay owed, to go out in `wait` seconds (a timer is set for it).

        Written over the item as the change `saved` it, with no read; should another change
        have come between, over the item as it is then. The ids are kept in the envelope
        (`posted`), with the turn message's `board_tag` and the `game` they belong to, until
        the Telegram side takes them into its part at the next change.
        True when the write went over the item as saved: what the change sent is the latest.
        """
        key = game_key(chat)
        first = [saved] if saved is not None else []

        def attempt(_: int) -> bool:
            item = first.pop() if first else self.store.load(key)
            if item is None:
                return False
            envelope = Envelope.from_stored(item.data)
            owed = list(envelope.owed)
            left = acknowledge(owed, keys)
            if len(left) == len(owed) and not ids and not retry:
                return False
            now = self.clock()
            if retry:  # owed by nobody alive: lapsed once `wait` has passed
                batch = f"r{item.version + 1}.{random.randrange(10**6)}"
                left.append(retry_batch(batch, list(retry), now, wait))
            envelope = envelope.owing(left).posting(ids, board_tag, game)
            data = rewrapped(item.data, envelope)
            self.store.save(Item(key, item.version, data, item.expires_at))
            if retry:
                self.wake(chat, now + max(wait, 1.0))
            return item is saved

        try:
            return retry_on_conflict(attempt)
        except Exception as error:  # lost every race, or no answer: the batches stay owed
            # The messages are out; only the mark is missing. The update does not fail for
            # it: a timer at the lease's end sends what is still owed (at least once).
            log.warning("could not mark delivered messages: %s", type(error).__name__)
            if keys or retry:
                self.wake(chat, self.clock() + LEASE)
            return False

    def count_failure(self, update_id: int) -> int:
        """One more failed delivery of an update; how many there have been."""
        return side_items.count_failure(self.store, update_id, self.clock)

    def forget_user(self, user: int, chats: Collection[int] = ()) -> None:
        """Erase the user from every group that holds them (those their statistics item names,
        and `chats`): their name in its kept games, their place on its list for the next game
        and on its leaderboard; then their statistics and their pointer."""
        for chat in dict.fromkeys([*holding_groups(self.store, user), *chats]):
            history.forget_player(self.store, chat, user)
        forget_player(self.store, user, chats)
        side_items.forget(self.store, user_key(user))
        for key in (game_key(user), prefs_key(user)):  # their practice, under their own chat
            side_items.forget(self.store, key)

    def point_user(self, user: int, chat: int, loaded: Loaded | None = None) -> None:
        """Put `chat` first among the groups a user's private commands look in (over their
        pointer as `loaded` read it, when it did)."""
        key = user_key(user)
        read = [loaded.records[key]] if loaded is not None and key in loaded.records else None
        side_items.point_user(self.store, user, chat, self.clock, read)

    def put_newer(
        self,
        key: str,
        data: dict[str, Any],
        opened: float,
        saved: Saved,
        loaded: Loaded | None = None,
    ) -> None:
        """Write a small record made from a table (its lobby `opened` then) as a change `saved`
        it, unless one made from a later save is there already (see `side_items.put_newer`);
        over the record as `loaded` read it, when it did."""
        made_from = [opened, saved.version or 0]
        read = [loaded.records[key]] if loaded is not None and key in loaded.records else None
        side_items.put_newer(self.store, key, data, made_from, self.clock, read)

    def put_once(self, key: str, update_id: int, change: Callable[[dict], dict]) -> bool:
        """Change a small record once per update; False if `update_id` had changed it already."""
        return side_items.put_once(self.store, key, update_id, change, self.clock)

    def get(self, key: str) -> dict[str, Any] | None:
        """A small record's data, or None."""
        return side_items.get(self.store, key)

    def games(self, chat: int) -> list[dict[str, Any]]:
        """The group's kept games, the oldest first."""
        return history.games(self.store, chat)
