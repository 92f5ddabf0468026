"""Seeded deals with the shape a test needs, found by trying seeds in order."""

from __future__ import annotations

from collections.abc import Callable

from engine import GameState, Variants, captains, new_game
from engine.cards import BLUE, OBSERVER, RED, SPY, color, is_x
from testing.players import NAMES, Table

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


def x_holders(state: GameState) -> list[int]:
    """The seats dealt an X card (the Turncoat's card), in seat order."""
    return [seat for seat, card in enumerate(state.cards, 1) if is_x(card)]


def lone_x(state: GameState) -> int | None:
    """The seat of the deal's only X card, or None when it deals none or two."""
    holders = x_holders(state)
    return holders[0] if len(holders) == 1 else None


def x_apart(state: GameState, *seats: int) -> bool:
    """The deal has one X card, held by none of `seats` (the first player when none is named):
    one of them can scout it and see the Turncoat's window."""
    holder = lone_x(state)
    return holder is not None and holder not in (seats or (state.first,))


def spy_waits(state: GameState) -> bool:
    """The Spy is dealt to someone who does not play first, and the first player holds a
    colour: their decapitation opens the Spy's wait."""
    spy = state.holder(SPY)
    return spy not in (None, state.first) and color(state.cards[state.first - 1]) is not None


def spy_can_win(state: GameState) -> bool:
    """`spy_waits`, and both captains are dealt: the Spy can name them both."""
    return spy_waits(state) and None not in captains(state.cards).values()


def observer_first(state: GameState) -> bool:
    """The Observer opens the game."""
    return state.cards[state.first - 1] == OBSERVER


def observer_opens(table: Table) -> GameState:
    """Five players with the Observer variant, dealt so that the Observer plays first."""
    seed, _ = find_seed(5, Variants(observer=True), observer_first)
    table.open()
    table.configure(observer=True)
    return table.start(seed)


def a_right_prediction(table: Table) -> tuple[GameState, str]:
    """The Observer opens, scouts the next seat and predicts the winner right; that seat then
    decapitates a third. Returns the deal and the winning colour."""
    state = observer_opens(table)
    observer, attacker = state.first, state.first % 5 + 1
    target = next(s for s in range(1, 6) if s not in (observer, attacker))
    caps, side = captains(state.cards), color(state.cards[attacker - 1])
    other = BLUE if side == RED else RED
    winner = side if caps[side] == attacker and caps[other] == target else other
    table.scout(observer, attacker)
    table.predict(observer, winner)
    table.decapitate(attacker, target)
    return state, winner
