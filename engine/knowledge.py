"""What a seat can tell about who holds which card, from the events it was sent: the one rule."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.cards import OBSERVER
from engine.events import (
    EVERYONE,
    NEW_CARD,
    PREDICTED,
    SCOUT_RESULT,
    SEATED,
    SWAPPED,
    YOUR_CARD,
    Event,
    sent_to,
)

Known = dict[int, str]  # seat -> the card `seat` can tell it holds now


def _own_card(known: Known, seat: int, event: Event) -> None:
    known[seat] = event["card"]


def _scout_result(known: Known, seat: int, event: Event) -> None:
    known[event["target"]] = event["card"]


def _swapped(known: Known, seat: int, event: Event) -> None:
    scout, holder = event["scout"], event["seat"]
    scout_card = known.pop(scout, None)
    known.pop(holder, None)
    known[scout] = event["card"]  # the X, now face up in front of the scout
    if scout_card is not None:
        known[holder] = scout_card


def _predicted(known: Known, seat: int, event: Event) -> None:
    known[event["seat"]] = OBSERVER  # a predicting Observer shows its card


# The events that tell a seat who holds a card; every other event teaches it nothing.
_RULES: dict[str, Callable[[Known, int, Event], None]] = {
    YOUR_CARD: _own_card,
    NEW_CARD: _own_card,
    SCOUT_RESULT: _scout_result,
    SWAPPED: _swapped,
    PREDICTED: _predicted,
}


def learn(known: Known, seat: int, event: Event) -> None:
    """Update `seat`'s knowledge `known` with one event `seat` received."""
    rule = _RULES.get(event["type"])
    if rule is not None:
        rule(known, seat, event)


def known_from(events: Iterable[Event], seat: int) -> Known:
    """Who holds what, as far as `seat` can tell from `events` (others' secrets are skipped)."""
    known: Known = {}
    for event in events:
        if sent_to(event, seat):
            learn(known, seat, event)
    return known


class Knowledge:
    """Every seat's `known_from` the events so far, kept up to date as events arrive."""

    def __init__(self) -> None:
        self._seats: dict[int, Known] = {}

    def observe(self, events: Iterable[Event]) -> None:
        """Teach each seat the events addressed to it or to everyone."""
        for event in events:
            kind, to = event["type"], event["to"]
            if kind == SEATED:  # from the deal on, every seat hears every public event
                for seat in event["seats"]:
                    self._seats.setdefault(seat["seat"], {})
            elif kind in _RULES and to == EVERYONE:
                for seat, known in self._seats.items():
                    learn(known, seat, event)
            elif kind in _RULES:
                learn(self._seats.setdefault(to, {}), to, event)

    def of(self, seat: int) -> Known:
        """What `seat` can tell now (the live dict: do not change it)."""
        return self._seats.get(seat, {})
