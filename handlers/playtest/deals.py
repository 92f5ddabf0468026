"""Seeded deals with the shape a test needs, found by trying seeds in order."""

from __future__ import annotations

from collections.abc import Callable

from engine import GameState, Variants, new_game
from handlers.playtest.players import NAMES

SEARCH = 100_000
WORKED_EXAMPLE_SEED = 61741  # deals R1, R3, B7, B4, R4, B3 to seats 1-6, seat 1 first
WORKED_EXAMPLE_DEAL = ("R1", "R3", "B7", "B4", "R4", "B3")


def find_seed(
    humans: int, variants: Variants, wanted: Callable[[GameState], bool]
) -> tuple[int, GameState]:
    """The first seed whose deal for the first `humans` names (in lobby order) is `wanted`."""
    names = NAMES[:humans]
    for seed in range(1, SEARCH):
        state, _ = new_game(names, variants, seed)
        if wanted(state):
            return seed, state
    raise AssertionError("no seed deals what the test needs")
