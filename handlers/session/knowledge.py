"""What a seat may know while the group's news is held (a Turncoat's or the Spy's window)."""

from __future__ import annotations

from engine import replay
from engine.actions import REMOVE, SWAP
from engine.state import SPY_PHASE, GameState, dealt


def known_state(state: GameState, seat: int, held: bool) -> GameState:
    """The game as `seat` may know it: during the Turncoat's window a swap is known only to its
    two seats; during the Spy's wait nothing is resolved yet."""
    if not held:
        return state
    if state.over:
        return state._replace(phase=SPY_PHASE)  # its knowledge reads events, not the reveal
    # A removal made in the window is public and comes after the swap: look past it.
    decisions = [i for i, action in enumerate(state.log) if action.act != REMOVE]
    last = state.log[decisions[-1]] if decisions else None
    if last is None or last.act != SWAP or seat in (state.turn, state.target):
        return state
    return replay(dealt(state), [a for i, a in enumerate(state.log) if i != decisions[-1]])
