"""What a read of a group's item gives (`Loaded`, in its three parts) and what a save takes
(`Change`) and gives back (`Saved`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.codec import newer_form
from handlers.storage.envelope import Envelope
from handlers.storage.owed import OwedBatch
from infra.store import Item

if TYPE_CHECKING:
    from handlers.session.ending import Ending

FORM = 2  # the form of a group's item written: storage's envelope beside two owned parts
APART = 2  # the first form with the item in three parts: it and every later one are read so
SESSION, TELEGRAM = "session", "telegram"  # the keys of the session's and the Telegram side's


def parts_of(data: dict[str, Any]) -> tuple[Envelope, dict | None, dict | None]:
    """A group's item in its three parts, each with one owner: storage's envelope, the session's
    part and the Telegram side's (never read here). An item stored before the parts were apart
    is one dict: both owners are handed it, and read their own fields from it once. An item in
    a newer form raises `NewerForm`: this release leaves it for the one that wrote it."""
    newer_form(data.get("form"), FORM, "a group's item")
    envelope = Envelope.from_stored(data)
    if isinstance(data.get("form"), int) and data["form"] >= APART:
        return envelope, data.get(SESSION), data.get(TELEGRAM)
    if envelope.moved_to is not None:  # a pointer to the group's new chat holds no table
        return envelope, None, None
    return envelope, data, data


@dataclass(frozen=True)
class Loaded:
    """A group's item as read once for an update, in its three parts: storage's envelope, the
    session's part and the Telegram side's (as stored, never read here: an owner changes its
    own copy), with the small records read in the same call."""

    chat: int  # the group's chat id, an upgrade followed
    item: Item | None
    records: dict[str, Item | None] = field(default_factory=dict)
    envelope: Envelope = field(init=False)  # the updates applied, owed, ids delivered since
    session: dict[str, Any] | None = field(init=False)
    telegram: dict[str, Any] | None = field(init=False)

    def __post_init__(self) -> None:
        parts = parts_of(self.item.data) if self.item is not None else (Envelope(), None, None)
        for name, part in zip(("envelope", "session", "telegram"), parts, strict=True):
            object.__setattr__(self, name, part)

    @property
    def parts(self) -> tuple[Envelope, dict | None, dict | None]:
        """The envelope, the session's part and the Telegram side's, as stored."""
        return self.envelope, self.session, self.telegram

    def data_of(self, key: str) -> dict[str, Any] | None:
        """The data of a small record read with the item (one of `Keeper.load`'s `also`), or
        None when it is absent; KeyError when it was not read."""
        item = self.records[key]
        return item.data if item is not None else None

    def applied(self, update_id: int | None) -> bool:
        """True when `update_id` changed the table already (its redelivery changes nothing)."""
        return self.envelope.has_applied(update_id)

    def owed(self) -> list[OwedBatch]:
        """The batches of messages the item owes, the oldest first."""
        return list(self.envelope.owed)


@dataclass(frozen=True)
class Change:
    """What an update changes, each part in its owner's stored form (never read here): the
    session's part (None: nothing to save), the Telegram side's and the messages the change
    owes; with a game's end, if it ended, and the figures the item's keeping needs: when the
    table next needs waking (and when it did as read: an unchanged wake is set already), and
    whether its game is over (its item then lasts a day)."""

    session: dict[str, Any] | None
    telegram: dict[str, Any] | None = None
    outs: list[dict[str, Any]] = field(default_factory=list)
    ending: Ending | None = None
    wake: float | None = None
    woke: float | None = None
    over: bool = False


@dataclass
class Saved:
    """A change as saved: the messages to send now (a dead run's first, claimed), the owed
    batches they deliver, and the item as saved (with its version)."""

    chat: int
    outs: list[dict[str, Any]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    item: Item | None = None  # the item as saved (None: nothing was written)
    repeated: bool = False  # the update had been applied before
    busy_until: float | None = None  # a repeat whose messages another run sends until then

    @property
    def version(self) -> int | None:
        """The item's version after this change's save, if it saved."""
        return self.item.version if self.item is not None else None


def redelivered(update_id: int | str | None) -> bool:
    """Whether Telegram delivers the update again should its run die: a numbered update's, not
    a timer's (None) nor a table move's (its key, a string: the page may never send it again)."""
    return isinstance(update_id, int)
