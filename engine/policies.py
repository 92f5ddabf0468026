"""Automatic players for the simulator: `random` and `informed` (docs/balance.md says how
`informed` plays: on what its own seat has been told, never the hidden state)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import combinations

from engine import bots
from engine.actions import (
    DECAPITATE,
    END_TURN,
    KEEP,
    PREDICT,
    SCOUT,
    SPY_GUESS,
    SWAP,
    Action,
)
from engine.captains import captain
from engine.cards import BLUE, COLORS, RED, bodyguard_of, color, coloured_pool, number, other
from engine.events import Event
from engine.knowledge import Knowledge
from engine.resolution import neighbours
from engine.state import GameState
from engine.turns import legal_actions


class RandomPolicy:
    """Picks uniformly among the legal actions."""

    listens = False  # needs no events

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def observe(self, events: Iterable[Event]) -> None:
        """Random play learns nothing."""

    def choose(self, state: GameState, seat: int) -> Action:
        """Any legal action."""
        return self.rng.choice(legal_actions(state, seat))


class InformedPolicy:
    """A sensible player for every seat, each acting only on what that seat was told."""

    listens = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.knowledge = Knowledge()

    def observe(self, events: Iterable[Event]) -> None:
        """Update each seat's knowledge from the events addressed to it or to everyone."""
        self.knowledge.observe(events)

    def choose(self, state: GameState, seat: int) -> Action:
        """The informed decision for `seat`, from `seat`'s knowledge and the public facts."""
        legal = legal_actions(state, seat)
        acts = {a.act for a in legal}
        known = self.knowledge.of(seat)
        if SPY_GUESS in acts:
            return self._spy_guess(state, seat, known)
        if SWAP in acts:
            scout_card = known.get(state.turn)
            useful = scout_card is not None and number(scout_card) is not None
            return Action(SWAP if useful else KEEP, seat)
        if END_TURN in acts:
            colour = self._observer_call(state, seat, known) if PREDICT in acts else None
            return Action(PREDICT, seat, color=colour) if colour else Action(END_TURN, seat)
        if DECAPITATE in acts:
            strike = self._strike(state, seat, known)
            if strike:
                return strike
        return self._scout(state, seat, known, legal)

    def _scout(self, state: GameState, seat: int, known: dict, legal: list[Action]) -> Action:
        for step in range(1, state.seats):
            target = (seat - 1 + step) % state.seats + 1
            if target not in known:
                return Action(SCOUT, seat, target=target)
        return self.rng.choice([a for a in legal if a.act == SCOUT])

    def _strike(self, state: GameState, seat: int, known: dict) -> Action | None:
        side = color(known[seat])
        own = proven_captain(state, known, side)
        enemy = proven_captain(state, known, other(side))
        if own is None or enemy is None:
            return None
        proxy = None
        if state.asks_proxy:
            if own != seat and not state.stands_in(own):
                return None
            proxy = own != seat
        elif own != seat:
            return None
        guard = None
        if state.variants.bodyguards:
            sides = [known.get(n) for n in neighbours(enemy, state.seats)]
            if None in sides:
                return None
            guard = bodyguard_of(other(side)) in sides
        return Action(DECAPITATE, seat, target=enemy, proxy=proxy, bodyguard=guard)

    def _observer_call(self, state: GameState, seat: int, known: dict) -> str | None:
        if len(known) < state.seats:
            return None
        cards = [known[s] for s in range(1, state.seats + 1)]
        order = [(seat - 1 + k) % state.seats + 1 for k in range(1, state.seats + 1)]
        for s in order:
            side = color(cards[s - 1])
            if side is None or state.stands_in(s):
                continue
            cap = captain(cards, side)
            if cap == s or (cap is not None and state.stands_in(cap)):
                return side
        return None

    def _spy_guess(self, state: GameState, seat: int, known: dict) -> Action:
        seen = ["" for _ in range(state.seats)]
        for s, c in known.items():
            seen[s - 1] = c
        guess = {}
        for colour in COLORS:
            cap = captain(seen, colour)
            guess[colour] = cap if cap is not None else self.rng.randint(1, state.seats)
        return Action(SPY_GUESS, seat, red=guess[RED], blue=guess[BLUE])


def proven_captain(state: GameState, known: dict[int, str], colour: str) -> int | None:
    """The captain of `colour` if every deal consistent with `known` agrees on it, else None."""
    unknown = state.seats - len(known)
    held = set(known.values())
    candidates = [
        c for c in coloured_pool(colour, state.seats) if c not in held and number(c) is not None
    ]
    seats = [known.get(s, "") for s in range(1, state.seats + 1)]
    answer = captain(seats, colour)
    if answer is None:
        return None
    for size in range(1, min(unknown, len(candidates)) + 1):
        for extra in combinations(candidates, size):
            cards = seats + list(extra)
            if captain(cards, colour) != answer:  # an unknown seat could change it
                return None
    return answer


class BotPolicy:
    """Every seat a bot seat of one level (engine.bots), each deciding on its own view only."""

    listens = False  # each decision reads the seat's view afresh

    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = level
        self.rng = rng

    def observe(self, events: Iterable[Event]) -> None:
        """The bot reads its view when it decides."""

    def choose(self, state: GameState, seat: int) -> Action:
        """The bot's action for `seat`, from what `seat` knows."""
        return bots.choose(bots.bot_view(state, seat), self.level, self.rng).action


def policy(name: str, rng: random.Random) -> RandomPolicy | InformedPolicy | BotPolicy:
    """The named policy: random, informed, or a bot level (learning, strong)."""
    if name == "random":
        return RandomPolicy(rng)
    if name == "informed":
        return InformedPolicy(rng)
    if name in bots.LEVELS:
        return BotPolicy(name, rng)
    raise ValueError(f"unknown policy {name!r} (random, informed, learning or strong)")
