"""What a game's end hands to storage, with the change that ends it: the game as the group's
history keeps it and, for a game that finished with its reveal, its statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.records import to_record
from handlers.session.base import Seats
from handlers.session.stats import Figures, finished_game


@dataclass(frozen=True)
class Ending:
    """A game that ended in this change: `kept` for its group's history, and `figures` for the
    statistics (None for a cancelled game, which counts for nobody)."""

    chat: int
    kept: dict[str, Any]
    figures: Figures | None = None


def kept_game(table: Seats, winner: str | None) -> dict[str, Any]:
    """What the group's history keeps of a game that has just ended (`winner`: its colour, None
    when it was cancelled): its number, when it was dealt, the result, its record and the
    seats whose player left with /leave (the record tells only that they were removed)."""
    left = sorted(table.record.absences.left)
    return {
        "game": table.game,
        "at": int(table.record.start or table.opened or 0),
        "winner": winner,
        "record": to_record(table.state),
        "users": list(table.seat_users),  # whose names they are: for /forget
        **({"left": left} if left else {}),
    }


def finished(table: Seats, winner: str, now: float) -> Ending:
    """The end of a game that finished with its reveal."""
    return Ending(table.chat, kept_game(table, winner), finished_game(table, now))


def cancelled(table: Seats) -> Ending:
    """The end of a game cancelled before its reveal."""
    return Ending(table.chat, kept_game(table, None))
