"""Resolution: reveal everything, judge the decapitation and its declarations, settle neutrals."""

from __future__ import annotations

from engine.captains import captains
from engine.cards import BLUE, OBSERVER, RED, SPY, bodyguard_of, color, other
from engine.events import RESOLVED, Event, public
from engine.state import GameState, Outcome

# Why a decapitation failed, in the order they are checked.
WRONG_PROXY = "wrong_proxy_declaration"
WRONG_BODYGUARD = "wrong_bodyguard_declaration"
ATTACKER_NOT_CAPTAIN = "attacker_not_captain"
TARGET_NOT_CAPTAIN = "target_not_captain"


def neighbours(seat: int, seats: int) -> tuple[int, int]:
    """The two seats beside `seat` on the circle."""
    return (seat - 2) % seats + 1, seat % seats + 1


def bodyguard_beside(cards: tuple[str, ...], target: int) -> bool:
    """True when a 3 of the target's colour sits directly next to the target (variant 5)."""
    colour = color(cards[target - 1])
    if colour is None:
        return False  # a neutral target has no colour, so no bodyguard of its colour
    guard = bodyguard_of(colour)
    return any(cards[n - 1] == guard for n in neighbours(target, len(cards)))


def judge(state: GameState) -> Outcome:
    """Who wins the decapitation in `state.decapitation`, and why it failed if it did."""
    action = state.decapitation
    cards, attacker, target = state.cards, action.seat, action.target
    caps = captains(cards)
    side = color(cards[attacker - 1])
    reasons = []
    acting_as = attacker
    if state.asks_proxy:
        own = caps[side]
        virtual_captain = own is not None and state.stands_in(own)
        if action.proxy:
            right = virtual_captain
            if right:
                acting_as = own
        else:
            right = own == attacker
        if not right:
            reasons.append(WRONG_PROXY)
    if state.variants.bodyguards and action.bodyguard != bodyguard_beside(cards, target):
        reasons.append(WRONG_BODYGUARD)
    if caps[side] != acting_as or caps[side] is None:
        reasons.append(ATTACKER_NOT_CAPTAIN)
    if caps[other(side)] != target or caps[other(side)] is None:
        reasons.append(TARGET_NOT_CAPTAIN)
    winner = other(side) if reasons else side
    return Outcome(winner=winner, captains=caps, reasons=tuple(reasons))


def observer_result(state: GameState, winner: str) -> dict | None:
    """The Observer's fate, or None when no human holds the Observer. On a removed seat it has
    no effect: it neither wins nor loses (`won` None, `removed` true)."""
    seat = state.holder(OBSERVER)
    if seat is None or state.virtual[seat - 1]:
        return None
    predicted = state.prediction[1] if state.prediction and state.prediction[0] == seat else None
    if seat in state.removed:
        return {"seat": seat, "predicted": predicted, "won": None, "removed": True}
    return {"seat": seat, "predicted": predicted, "won": predicted == winner}


def spy_result(state: GameState, guess: tuple | None, caps: dict) -> dict | None:
    """The Spy's fate, or None when no human holds the Spy. On a removed seat it has no
    effect: it neither wins nor loses (`won` None, `removed` true)."""
    seat = state.holder(SPY)
    if seat is None or state.virtual[seat - 1]:
        return None
    if seat in state.removed:
        return {"seat": seat, "guess": None, "won": None, "removed": True}
    if guess is None or guess[0] != seat:
        return {"seat": seat, "guess": None, "won": False}
    red, blue = guess[1], guess[2]
    won = (
        caps[RED] is not None
        and caps[BLUE] is not None
        and (red, blue)
        == (
            caps[RED],
            caps[BLUE],
        )
    )
    return {"seat": seat, "guess": {"red": red, "blue": blue}, "won": won}


def resolve(state: GameState, spy_guess: tuple | None) -> tuple[Outcome, list[Event]]:
    """Judge the decapitation and make the public reveal."""
    outcome = judge(state)
    action = state.decapitation
    result = {
        "winner": outcome.winner,
        "captains": outcome.captains,
        "reasons": list(outcome.reasons),
        "attacker": action.seat,
        "target": action.target,
        "proxy": action.proxy,
        "bodyguard": action.bodyguard,
        "cards": list(state.cards),
        "deal": list(state.deal),
        "set_aside": list(state.set_aside),
        "observer": observer_result(state, outcome.winner),
        "spy": spy_result(state, spy_guess, outcome.captains),
    }
    return outcome, [public(RESOLVED, **result)]
