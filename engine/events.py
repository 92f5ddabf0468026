"""Events: what happened, each addressed to everyone or to one seat."""

from __future__ import annotations

from typing import Any

from engine.state import GameState

Event = dict[str, Any]
EVERYONE = "all"


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
    events = [public("seated", seats=seats, variants=list(state.variants.names_on()))]
    events += [private(s, "your_card", card=state.cards[s - 1]) for s in state.humans()]
    events.append(public("turn", seat=state.first))
    return events
