"""The captain rule: lowest number, or highest when the 4 is in the team; never an X."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import ALL_CARDS, COLORS, color, number

# card -> (colour, number) for the numbered cards only; X and neutrals are never captains.
_NUMBERED = {c: (color(c), number(c)) for c in ALL_CARDS if number(c) is not None}


def captain(cards: Sequence[str], colour: str) -> int | None:
    """The seat (from 1) of `colour`'s captain among the seated `cards`, or None if it has none."""
    low = high = None  # (number, seat)
    has_four = False
    for seat, card in enumerate(cards, 1):
        info = _NUMBERED.get(card)
        if info is None or info[0] != colour:
            continue
        n = info[1]
        has_four = has_four or n == 4
        if low is None or n < low[0]:
            low = (n, seat)
        if high is None or n > high[0]:
            high = (n, seat)
    if low is None:
        return None
    return high[1] if has_four else low[1]


def captains(cards: Sequence[str]) -> dict[str, int | None]:
    """Both colours' captains."""
    return {c: captain(cards, c) for c in COLORS}
