"""The messages a change owes, kept in its table's item as batches under a lease."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any

Out = dict[str, Any]  # a message owed, in the Telegram side's stored form (never read here)

LEASE = 40.0  # seconds a run may live (the timer function: 30) before another takes its batch over
OWED_KEPT = 12  # batches of undelivered messages kept at most (the oldest go first)


@dataclass(frozen=True)
class OwedBatch:
    """Messages owed together: `key` names the batch, `at` starts its lease."""

    key: str
    at: float
    outs: list[Out]

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> OwedBatch:
        """The batch as stored in an item's `owed` list."""
        return cls(stored["key"], stored["at"], stored["outs"])

    def to_stored(self) -> dict[str, Any]:
        """The batch as an item's `owed` list stores it."""
        return {"key": self.key, "at": self.at, "outs": self.outs}

    def lapsed(self, now: float) -> bool:
        """True when the run that owes the batch has had its time and must be presumed dead."""
        return now >= self.lapses

    @property
    def lapses(self) -> float:
        """When the batch's lease runs out (for a kept retry: when it is to be sent)."""
        return self.at + LEASE

    def claimed(self, now: float) -> OwedBatch:
        """The batch taken over at `now`: its lease starts again."""
        return replace(self, at=now)


def retry_batch(key: str, outs: list[Out], now: float, wait: float) -> OwedBatch:
    """A batch owed by no run alive, to be sent again once `wait` seconds have passed."""
    return OwedBatch(key, now + wait - LEASE, list(outs))


def owed_in(data: dict[str, Any]) -> list[OwedBatch]:
    """The batches an item's data owes, the oldest first."""
    return [OwedBatch.from_stored(batch) for batch in data.get("owed") or []]


def to_stored(batches: list[OwedBatch]) -> list[dict[str, Any]]:
    """The `owed` list to store: the latest `OWED_KEPT` batches."""
    return [batch.to_stored() for batch in batches[-OWED_KEPT:]]


def claim(batches: list[OwedBatch], now: float) -> tuple[list[OwedBatch], list[OwedBatch]]:
    """All batches with the lapsed ones claimed at `now`, and the lapsed ones as they were."""
    taken = [batch for batch in batches if batch.lapsed(now)]
    kept = [batch.claimed(now) if batch.lapsed(now) else batch for batch in batches]
    return kept, taken


def acknowledge(batches: list[OwedBatch], keys: Collection[str]) -> list[OwedBatch]:
    """The batches still owed once those named `keys` are delivered."""
    return [batch for batch in batches if batch.key not in keys]


def outs_of(batches: Iterable[OwedBatch]) -> list[Out]:
    """The messages of `batches`, in order."""
    return [out for batch in batches for out in batch.outs]
