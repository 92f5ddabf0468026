"""The captain rule: lowest number, or highest when the 4 is in the team; never an X."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import COLORS, color, number


def captain(cards: Sequence[str], colour: str) -> int | None:
    """The seat (from 1) of `colour`'s captain among the seated `cards`, or None if it has none."""
    numbered = [
        (n, seat)
        for seat, card in enumerate(cards, 1)
        if color(card) == colour and (n := number(card)) is not None
    ]
    if not numbered:
        return None
    if any(n == 4 for n, _ in numbered):
        return max(numbered)[1]
    return min(numbered)[1]


def captains(cards: Sequence[str]) -> dict[str, int | None]:
    """Both colours' captains."""
    return {c: captain(cards, c) for c in COLORS}
