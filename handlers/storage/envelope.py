"""Storage's part of a group's item, its envelope: the updates applied, the messages owed, the
ids of messages delivered since the last change, and where a group that became a supergroup
went. With the codec of its stored form (the same fields, at the item's top level, in every form
the item has had).

The envelope never looks inside the session's part or the Telegram side's: the messages it owes
and the ids it holds are kept as their owners gave them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from handlers.storage.owed import OWED_KEPT, OwedBatch

APPLIED_KEPT = 40  # recent update ids remembered, so a redelivery is never applied twice
FIELDS = ("applied", "owed", "posted", "moved_to")  # the envelope's keys in an item


@dataclass(frozen=True)
class Posted:
    """A message delivered since the last change, by the name it is remembered by: its id, the
    turn message's tag it shows (for a turn message) and the game it belongs to."""

    msg: int
    board_tag: int | None
    game: int | None

    def to_stored(self) -> list[Any]:
        return [self.msg, self.board_tag, self.game]

    @classmethod
    def from_stored(cls, stored: list[Any]) -> Posted:
        msg, board_tag, game = stored
        return cls(msg, board_tag, game)


@dataclass(frozen=True)
class Envelope:
    """The updates applied (the latest `APPLIED_KEPT`), the batches owed (the oldest first),
    the ids delivered and not yet taken in by the Telegram side, and a moved group's new chat."""

    applied: tuple[int, ...] = ()
    owed: tuple[OwedBatch, ...] = ()
    posted: Mapping[str, Posted] = field(default_factory=lambda: MappingProxyType({}))
    moved_to: int | None = None

    def has_applied(self, update_id: int | None) -> bool:
        """True when `update_id` changed the item already."""
        return update_id is not None and update_id in self.applied

    def applying(self, update_id: int | None) -> Envelope:
        """The envelope with `update_id` among the updates applied."""
        if update_id is None or update_id in self.applied:
            return self
        return replace(self, applied=(*self.applied, update_id)[-APPLIED_KEPT:])

    def owing(self, batches: Collection[OwedBatch]) -> Envelope:
        """The envelope owing `batches` (the latest that are kept)."""
        return replace(self, owed=tuple(list(batches)[-OWED_KEPT:]))

    def posting(self, ids: Mapping[str, int], board_tag: int | None, game: int) -> Envelope:
        """The envelope holding the ids of messages just delivered, for the Telegram side."""
        fresh = {ref: Posted(msg, board_tag, game) for ref, msg in ids.items()}
        return replace(self, posted=MappingProxyType({**self.posted, **fresh}))

    def taken_in(self) -> Envelope:
        """The envelope once the Telegram side took the ids delivered into its part."""
        return replace(self, posted=MappingProxyType({}))

    def to_stored(self) -> dict[str, Any]:
        """The envelope's fields as the item stores them (at its top level)."""
        stored: dict[str, Any] = {
            "applied": list(self.applied),
            "owed": [batch.to_stored() for batch in self.owed],
        }
        if self.posted:
            stored["posted"] = {ref: posted.to_stored() for ref, posted in self.posted.items()}
        if self.moved_to is not None:
            stored["moved_to"] = self.moved_to
        return stored

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Envelope:
        """The envelope of an item's data, whatever its form (its fields are the same in all)."""
        posted = {ref: Posted.from_stored(p) for ref, p in (data.get("posted") or {}).items()}
        return cls(
            applied=tuple(data.get("applied") or ()),
            owed=tuple(OwedBatch.from_stored(batch) for batch in data.get("owed") or ()),
            posted=MappingProxyType(posted),
            moved_to=data.get("moved_to"),
        )


def rewrapped(data: Mapping[str, Any], envelope: Envelope) -> dict[str, Any]:
    """An item's data with `envelope` in place of its own, every other part kept as it is."""
    kept = {key: value for key, value in data.items() if key not in FIELDS}
    return {**kept, **envelope.to_stored()}
