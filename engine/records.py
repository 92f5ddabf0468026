"""Game records: the documented JSON format a game is written to and replayed from."""

from __future__ import annotations

from collections import Counter

from engine.actions import Action, IllegalAction
from engine.cards import ALL_CARDS, BLUE, RED, color, coloured_pool
from engine.deal import MAX_HUMANS, MIN_HUMANS, cards_per_colour, neutrals
from engine.resolution import observer_result, spy_result
from engine.state import GameState, start_state
from engine.turns import apply, waiting_for
from engine.variants import Variants

FORMAT = "decapitation/1"
_KEYS = {"format", "variants", "seats", "set_aside", "first", "actions"}


class BadRecord(ValueError):
    """A record the rules could not have produced, or one with an illegal decision."""


def to_record(state: GameState) -> dict:
    """The record of a finished or unfinished game."""
    return {
        "format": FORMAT,
        "variants": state.variants.to_dict(),
        "seats": [
            {"name": n, **({"virtual": True} if v else {}), "card": c}
            for n, v, c in zip(state.names, state.virtual, state.deal, strict=True)
        ],
        "set_aside": list(state.set_aside),
        "first": state.first,
        "actions": [a.to_dict() for a in state.log],
    }


def deal_from_record(record: object) -> GameState:
    """The state after the record's deal; raises BadRecord naming the first thing wrong."""
    if not isinstance(record, dict):
        raise BadRecord("a record must be a JSON object")
    unknown = sorted(set(record) - _KEYS)
    if unknown:
        raise BadRecord(f"unknown key {unknown[0]!r}")
    if record.get("format") != FORMAT:
        raise BadRecord(f"format must be {FORMAT!r}")
    try:
        variants = Variants.from_dict(record.get("variants", {}))
    except (TypeError, ValueError) as err:
        raise BadRecord(str(err)) from None
    seats = record.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise BadRecord("seats must be a list of objects")
    names, virtual, deal = [], [], []
    for i, seat in enumerate(seats, 1):
        extra = sorted(set(seat) - {"name", "virtual", "card"})
        if extra:
            raise BadRecord(f"seat {i}: unknown key {extra[0]!r}")
        if not isinstance(seat.get("name"), str):
            raise BadRecord(f"seat {i}: name must be text")
        if type(seat.get("virtual", False)) is not bool:
            raise BadRecord(f"seat {i}: virtual must be true or false")
        if seat.get("card") not in ALL_CARDS:
            raise BadRecord(f"seat {i}: unknown card {seat.get('card')!r}")
        names.append(seat["name"])
        virtual.append(seat.get("virtual", False))
        deal.append(seat["card"])
    humans = virtual.count(False)
    if not MIN_HUMANS <= humans <= MAX_HUMANS:
        raise BadRecord(f"{humans} human seats; the game needs {MIN_HUMANS} to {MAX_HUMANS}")
    if virtual.count(True) != variants.virtual_players:
        raise BadRecord(
            f"{virtual.count(True)} virtual seats but virtual_players is "
            f"{variants.virtual_players}"
        )
    set_aside = record.get("set_aside", [])
    if not isinstance(set_aside, list) or any(c not in ALL_CARDS for c in set_aside):
        raise BadRecord("set_aside must be a list of cards")
    _check_cards(deal, set_aside, variants)
    first = record.get("first")
    if type(first) is not int or not 1 <= first <= len(deal):
        raise BadRecord(f"first must be a seat from 1 to {len(deal)}")
    if virtual[first - 1]:
        raise BadRecord(f"first seat {first} is virtual; a human must start")
    return start_state(
        variants=variants,
        names=tuple(names),
        virtual=tuple(virtual),
        deal=tuple(deal),
        set_aside=tuple(set_aside),
        first=first,
    )


def _check_cards(deal: list[str], set_aside: list[str], variants: Variants) -> None:
    seats = len(deal)
    everything = Counter(deal + set_aside)
    twice = sorted(c for c, k in everything.items() if k > 1)
    if twice:
        raise BadRecord(f"card {twice[0]} appears more than once")
    per_colour = cards_per_colour(seats, variants)
    for colour in (RED, BLUE):
        pool = set(coloured_pool(colour, seats))
        mine = [c for c in everything if color(c) == colour]
        outside = sorted(c for c in mine if c not in pool)
        if outside:
            raise BadRecord(f"card {outside[0]} is removed in a {seats}-seat game")
        if len(mine) != per_colour:
            raise BadRecord(
                f"{len(mine)} {colour} cards in the deal and set aside; "
                f"a {seats}-seat game uses {per_colour}"
            )
    wanted = set(neutrals(variants))
    present = {c for c in everything if color(c) is None}
    if present != wanted:
        card = sorted(present ^ wanted)[0]
        raise BadRecord(f"neutral {card} is {'missing' if card in wanted else 'not in play'}")


def replay_record(record: object) -> GameState:
    """Deal and apply every decision of a record; raises BadRecord on the first problem."""
    state = deal_from_record(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise BadRecord("actions must be a list")
    for i, data in enumerate(actions, 1):
        try:
            action = Action.from_dict(data)
            state, _ = apply(state, action)
        except (ValueError, IllegalAction) as err:
            raise BadRecord(f"action {i}: {err}") from None
    return state


def summary(state: GameState) -> dict:
    """The replay command's answer for a game."""
    if not state.over:
        return {"finished": False, "waiting_for": waiting_for(state), "phase": state.phase}
    outcome = state.outcome
    return {
        "finished": True,
        "winner": outcome.winner,
        "captains": outcome.captains,
        "attacker": state.decapitation.seat,
        "target": state.decapitation.target,
        "cards": {str(s): c for s, c in enumerate(state.cards, 1)},
        "observer": observer_result(state, outcome.winner),
        "spy": spy_result(state, state.spy_guess, outcome.captains),
    }
