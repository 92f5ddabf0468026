"""Who knew what, once every card is face up: what each seat learned on which turn, and the
first turn after which the table's scouts, pooled, decided both captains (docs/rules.md)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import NamedTuple

from engine.captains import captain
from engine.cards import BLUE, COLORS, RED, color, coloured_pool
from engine.deal import cards_per_colour, neutrals
from engine.events import (
    EVERYONE,
    KEPT,
    NEW_CARD,
    PREDICTED,
    SCOUT_RESULT,
    SWAPPED,
    TURN_BEGINS,
    Event,
)
from engine.knowledge import Known, learn
from engine.state import GameState
from engine.views import all_events

# The kinds of fact a seat learns (or makes known) in a game, beside its own card.
SCOUTED = "scouted"  # `seat` held `card` when this seat scouted it
TURNCOAT_SWAPPED = "swapped"  # this seat's X went to `seat`, and it was given `card`
TOOK_X = "took_x"  # this seat, scouting the X of `seat`, was given it (`card`) face up
TURNCOAT_KEPT = "kept"  # this seat kept its X when `seat` scouted it
PREDICTION = "predicted"  # this seat, the Observer, foretold `colour` would win
SPY_GUESS = "guessed"  # this seat, the Spy, named `seats` (red, blue) as the captains

# What a scouted seat's card lets the whole table know: the pooled knowledge's events.
_POOLED = (SCOUT_RESULT, SWAPPED, NEW_CARD, PREDICTED)


class Fact(NamedTuple):
    """One thing a seat learned or did that the reveal does not tell, on turn `turn`."""

    turn: int
    kind: str
    seat: int = 0
    card: str = ""
    colour: str = ""
    seats: tuple[int, ...] = ()


def turns_of(events: Iterable[Event]) -> Iterable[tuple[int, Event]]:
    """Each event with the turn it belongs to (the n-th turn begun; 0 before the first)."""
    turn = 0
    for event in events:
        if event["type"] == TURN_BEGINS:
            turn += 1
        yield turn, event


def learned_by(state: GameState) -> dict[int, list[Fact]]:
    """Every seat's facts in turn order: its scouts and what they showed, a Turncoat's swap or
    keep, an Observer's prediction, a Spy's guess (made with the decapitation)."""
    facts: dict[int, list[Fact]] = {seat: [] for seat in range(1, state.seats + 1)}
    last = 0
    for turn, event in turns_of(all_events(state)):
        last = turn
        kind, to = event["type"], event["to"]
        if kind == SCOUT_RESULT:
            facts[to].append(Fact(turn, SCOUTED, event["target"], event["card"]))
        elif kind == SWAPPED:
            holder, scout = event["seat"], event["scout"]
            facts[holder].append(Fact(turn, TURNCOAT_SWAPPED, scout))  # its card: the next line
            facts[scout].append(Fact(turn, TOOK_X, holder, event["card"]))
        elif kind == NEW_CARD and facts[to] and facts[to][-1].kind == TURNCOAT_SWAPPED:
            facts[to][-1] = facts[to][-1]._replace(card=event["card"])
        elif kind == KEPT:
            facts[to].append(Fact(turn, TURNCOAT_KEPT, event["scout"]))
        elif kind == PREDICTED:
            facts[event["seat"]].append(Fact(turn, PREDICTION, colour=event["color"]))
    if state.spy_guess is not None:
        spy, red, blue = state.spy_guess
        facts[spy].append(Fact(last, SPY_GUESS, seats=(red, blue)))
    return facts


def pooled(events: Iterable[Event]) -> Known:
    """Who holds what, as the table could tell by pooling what its seats were shown in the game
    (scouts, swaps, a predicting Observer), its own cards as dealt left out."""
    known: Known = {}
    for event in events:
        pool(known, event)
    return known


def pool(known: Known, event: Event) -> None:
    """Add to the table's pooled knowledge `known` what `event` showed any seat."""
    if event["type"] in _POOLED:
        learn(known, event["to"] if event["to"] != EVERYONE else 0, event)


def decided(state: GameState, known: Known) -> bool:
    """True when `known` (seat -> card held) and the deal's rules leave one seat (or none) for
    each colour's captain, however the other cards lie."""
    return all(_one_captain(state, known, colour) for colour in COLORS)


def _one_captain(state: GameState, known: Known, colour: str) -> bool:
    """True when every deal consistent with `known` gives `colour` the same captain seat."""
    seats = state.seats
    per = cards_per_colour(seats, state.variants)
    unknown = [s for s in range(1, seats + 1) if s not in known]
    held = set(known.values())
    mine = [c for c in coloured_pool(colour, seats) if c not in held]
    rest = [c for c in coloured_pool(BLUE if colour == RED else RED, seats) if c not in held]
    rest_room = per - sum(1 for c in held if color(c) and color(c) != colour)
    others = min(len(rest), rest_room) + sum(1 for c in neutrals(state.variants) if c not in held)
    room = per - sum(1 for c in held if color(c) == colour)
    mine_known = [(s, c) for s, c in known.items() if color(c) == colour]
    answers: set[int | None] = set()
    for size in range(min(room, len(mine), len(unknown)) + 1):
        if len(unknown) - size > others:
            continue  # the other unknown seats could not all be filled
        for drawn in combinations(mine, size):
            answers.add(_captain_seat(colour, mine_known, drawn, unknown))
            if len(answers) > 1 or AMBIGUOUS in answers:
                return False
    return True


AMBIGUOUS = -1  # the captain sits on one of several unknown seats: which, the table cannot tell


def _captain_seat(
    colour: str, mine_known: list[tuple[int, str]], drawn: tuple[str, ...], unknown: list[int]
) -> int | None:
    """The captain's seat when the unknown seats hold `drawn` of `colour` (and no other card of
    it): a known seat, the one unknown seat, `AMBIGUOUS`, or None for no captain."""
    at = captain([c for _, c in mine_known] + list(drawn), colour)
    if at is None:
        return None
    if at <= len(mine_known):
        return mine_known[at - 1][0]
    return unknown[0] if len(unknown) == 1 else AMBIGUOUS


def knowable_from(state: GameState) -> int | None:
    """The first turn after which the table's pooled knowledge decided both captains, as the
    cards then stood; None if it never did before the decapitation."""
    known: Known = {}
    turn = 0
    for at, event in turns_of(all_events(state)):
        if at != turn:
            if turn and decided(state, known):
                return turn
            turn = at
        pool(known, event)
    return turn if turn and decided(state, known) else None
