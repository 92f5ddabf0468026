"""Events: what happened, each addressed to everyone or to one seat."""

from __future__ import annotations

from typing import Any

from engine.state import GameState

Event = dict[str, Any]
EVERYONE = "all"

# The kinds of event, the `"type"` of each (the fields each carries are named beside it).
SEATED = "seated"  # public: "seats" [{"seat", "name", "virtual"}], "variants"
YOUR_CARD = "your_card"  # private: "card" dealt
TURN_BEGINS = "turn"  # public: "seat" whose turn it is now
SCOUTED = "scouted"  # public: "seat" scouted "target"
SCOUT_RESULT = "scout_result"  # private, to the scout: "target" holds "card"
TURNCOAT_OFFER = "turncoat_offer"  # private, to a scouted X holder: "scout" may be swapped with
SPEAKS = "speak"  # public: the scout "seat" may speak now
KEPT = "kept"  # private, to the Turncoat: kept their card ("scout")
SPEAK_NOW = "speak_now"  # private, to the scout: the Turncoat's window is over
SWAPPED = "swapped"  # public: "seat" (the X's holder) swapped "card" with "scout"
NEW_CARD = "new_card"  # private: "card" now held, from "source"
TURN_ENDED = "turn_ended"  # public: "seat" ended its turn, having said "say" (and "claim")
PREDICTED = "predicted"  # public: the Observer "seat" predicted "color"
DECAPITATION_ANNOUNCED = "decapitation_announced"  # public: "seat" strikes
SPY_TURN = "spy_turn"  # private, to the Spy: guess both captains
SEAT_REMOVED = "removed"  # public: "seat"'s player was removed; the seat is virtual from now on
TIMED_OUT = "timed_out"  # public: "seat"'s wait in "phase" ran out
RESOLVED = "resolved"  # public: the reveal (`engine.resolution`)


def public(kind: str, **fields: Any) -> Event:
    """An event everyone at the table may see."""
    return {"to": EVERYONE, "type": kind, **fields}


def private(seat: int, kind: str, **fields: Any) -> Event:
    """An event only `seat` may see."""
    return {"to": seat, "type": kind, **fields}


def sent_to(event: Event, seat: int | None) -> bool:
    """True when `seat` (None: the public) receives `event`."""
    return event["to"] == EVERYONE or event["to"] == seat


def deal_events(state: GameState) -> list[Event]:
    """The public seating and each human's own card."""
    seats = [
        {"seat": s, "name": n, "virtual": v}
        for s, (n, v) in enumerate(zip(state.names, state.virtual, strict=True), 1)
    ]
    events = [public(SEATED, seats=seats, variants=list(state.variants.names_on()))]
    events += [private(s, YOUR_CARD, card=state.cards[s - 1]) for s in state.humans()]
    events.append(public(TURN_BEGINS, seat=state.first))
    return events
