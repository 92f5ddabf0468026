"""What each seat knows, and what everyone knows: derived from the events each audience was
sent, so a view can never hold more than its audience was told."""

from __future__ import annotations

from engine.events import Event, deal_events, sent_to
from engine.knowledge import known_from
from engine.state import OVER, SPEAK, SPY_PHASE, TURN, TURNCOAT, GameState, dealt
from engine.turns import apply

# The public never learns that a Turncoat is deciding or that a Spy is guessing.
PUBLIC_PHASE = {TURN: TURN, TURNCOAT: SPEAK, SPEAK: SPEAK, SPY_PHASE: "decapitation", OVER: OVER}


def all_events(state: GameState) -> list[Event]:
    """Every event of the game so far, for every audience, by replaying it from the deal."""
    current = dealt(state)
    events = deal_events(current)
    for action in state.log:
        current, new = apply(current, action)
        events += new
    return events


def events_for(state: GameState, seat: int | None) -> list[Event]:
    """The events `seat` received (None: the public ones), in order."""
    return [e for e in all_events(state) if sent_to(e, seat)]


def public_view(state: GameState) -> dict:
    """Everything the group may know now; no face-down card, scout result or secret choice."""
    face_up = _public_face_up(state)
    history = [_strip(e) for e in events_for(state, None)]
    return {
        # What the group was told so far: counting every decision would betray the hidden ones.
        "version": len(history),
        "variants": list(state.variants.names_on()),
        "seats": [
            {"seat": s, "name": n, "virtual": v, "face_up": face_up.get(s)}
            for s, (n, v) in enumerate(zip(state.names, state.virtual, strict=True), 1)
        ],
        "phase": PUBLIC_PHASE[state.phase],
        "turn": None if state.over else state.turn,
        "first": state.first,
        "acted": [s for s, a in enumerate(state.acted, 1) if a],
        "prediction": (
            {"seat": state.prediction[0], "color": state.prediction[1]}
            if state.prediction
            else None
        ),
        "history": history,
    }


def _strip(event: Event) -> Event:
    return {k: v for k, v in event.items() if k != "to"}


def _public_face_up(state: GameState) -> dict[int, str]:
    if state.over:
        return dict(enumerate(state.cards, 1))
    return {s: c for s, c in enumerate(state.cards, 1) if c in state.face_up}


def known_cards(state: GameState, seat: int) -> dict[int, str]:
    """Who holds what now, as far as `seat` can tell from the events it received."""
    if state.over:  # the reveal; a caller holding it back passes the state as still open
        return dict(enumerate(state.cards, 1))
    return dict(sorted(known_from(all_events(state), seat).items()))


def learned(state: GameState, seat: int) -> list[dict]:
    """The private facts `seat` was told, in order (its card, scout results, swaps, prompts)."""
    return [_strip(e) for e in all_events(state) if e["to"] == seat]


def seat_view(state: GameState, seat: int) -> dict:
    """What `seat` knows: its card, what it learned, and the public view."""
    return {
        "seat": seat,
        "name": state.names[seat - 1],
        "card": state.cards[seat - 1],
        "known": known_cards(state, seat),
        "learned": learned(state, seat),
        "public": public_view(state),
    }
