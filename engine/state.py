"""The immutable state of one game of Decapitation (stored and read back by engine.codec)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.actions import Action
from engine.variants import Variants

# Phases: whose decision the game waits for.
TURN = "turn"  # the seat whose turn it is: scout or decapitate
TURNCOAT = "turncoat"  # a scouted human X holder: swap or keep
SPEAK = "speak"  # the scout: end the turn (or, as the Observer, predict)
SPY_PHASE = "spy"  # the human Spy: guess both captains
OVER = "over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    winner: str
    captains: dict[str, int | None]
    reasons: tuple[str, ...]  # why a decapitation failed; empty when it succeeded


class GameState(NamedTuple):
    """Everything about a game: the deal, the decisions so far and what it waits for.

    Seats are numbered from 1; tuples are indexed by seat - 1.
    """

    variants: Variants
    names: tuple[str, ...]
    virtual: tuple[bool, ...]
    deal: tuple[str, ...]  # the cards as dealt
    cards: tuple[str, ...]  # the cards held now (a Turncoat swap moves them)
    set_aside: tuple[str, ...]
    first: int
    seed: int | None = None
    version: int = 0
    phase: str = TURN
    turn: int = 0  # whose turn it is (the scout, during turncoat and speak)
    target: int = 0  # the scouted seat, or the decapitation's target
    acted: tuple[bool, ...] = ()  # has the seat taken an action (variant 2)?
    face_up: frozenset[str] = frozenset()  # revealed cards: a swapped X, a predicting Observer
    prediction: tuple[int, str] | None = None  # (Observer's seat, colour)
    decapitation: Action | None = None
    spy_guess: tuple[int, int, int] | None = None  # (Spy's seat, red seat, blue seat)
    outcome: Outcome | None = None
    log: tuple[Action, ...] = ()
    removed: frozenset[int] = frozenset()  # human seats whose players were removed

    @property
    def seats(self) -> int:
        """The number of seats, virtual ones included."""
        return len(self.cards)

    @property
    def over(self) -> bool:
        """True once the decapitation is resolved."""
        return self.phase == OVER

    def holder(self, card: str) -> int | None:
        """The seat holding `card` now, or None if it is set aside or not in the game."""
        return self.cards.index(card) + 1 if card in self.cards else None

    def humans(self) -> tuple[int, ...]:
        """The human seats, in seating order."""
        return tuple(s for s, v in enumerate(self.virtual, 1) if not v)

    def stands_in(self, seat: int) -> bool:
        """True when the seat is virtual for the rules: a virtual player's, or a human seat whose
        player was removed (it never acts, and a neutral card on it has no effect)."""
        return self.virtual[seat - 1] or seat in self.removed

    @property
    def asks_proxy(self) -> bool:
        """True when a decapitation declares whether it acts on behalf of a virtual player:
        with virtual players, or once a seat was removed."""
        return self.variants.virtual_players > 0 or bool(self.removed)


def start_state(
    *,
    variants: Variants,
    names: tuple[str, ...],
    virtual: tuple[bool, ...],
    deal: tuple[str, ...],
    set_aside: tuple[str, ...],
    first: int,
    seed: int | None = None,
) -> GameState:
    """The state right after the deal, before any decision."""
    return GameState(
        variants=variants,
        names=names,
        virtual=virtual,
        deal=deal,
        cards=deal,
        set_aside=set_aside,
        first=first,
        seed=seed,
        turn=first,
        acted=(False,) * len(deal),
    )


def advance(state: GameState, **changes) -> GameState:
    """A copy with `changes` and the version bumped."""
    return state._replace(version=state.version + 1, **changes)


def dealt(state: GameState) -> GameState:
    """The same game as it stood right after the deal, before any decision."""
    return start_state(
        variants=state.variants,
        names=state.names,
        virtual=state.virtual,
        deal=state.deal,
        set_aside=state.set_aside,
        first=state.first,
        seed=state.seed,
    )
