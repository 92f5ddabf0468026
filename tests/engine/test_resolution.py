"""Resolution: only captain on captain wins for the attacker's colour; no draw."""

from __future__ import annotations

import itertools

import pytest

from engine import apply
from tests.engine.helpers import decap, public_events, show, table

SIX = ("R1", "R3", "B7", "B4", "R4", "B3")
RED_CAPTAIN, BLUE_CAPTAIN = 5, 3  # by hand: Red holds the 4, so R4 leads; Blue's highest is B7
COLOUR = {1: "red", 2: "red", 3: "blue", 4: "blue", 5: "red", 6: "blue"}
OTHER = {"red": "blue", "blue": "red"}


def _strike(attacker: int, target: int):
    state, events = apply(table(SIX, first=attacker), decap(attacker, target))
    assert state.over, show(state)
    return state, events


def test_captain_on_captain_wins_for_the_attackers_colour_red():
    state, _ = _strike(RED_CAPTAIN, BLUE_CAPTAIN)
    assert state.outcome.winner == "red", show(state)
    assert state.outcome.reasons == ()


def test_captain_on_captain_wins_for_the_attackers_colour_blue():
    state, _ = _strike(BLUE_CAPTAIN, RED_CAPTAIN)
    assert state.outcome.winner == "blue", show(state)


def test_attacker_not_captain_wins_for_the_other_colour():
    state, _ = _strike(1, BLUE_CAPTAIN)
    assert state.outcome.winner == "blue", show(state)
    assert "attacker_not_captain" in state.outcome.reasons


def test_target_not_captain_wins_for_the_other_colour():
    state, _ = _strike(RED_CAPTAIN, 4)
    assert state.outcome.winner == "blue", show(state)
    assert "target_not_captain" in state.outcome.reasons


def test_both_wrong_wins_for_the_other_colour():
    state, _ = _strike(6, 2)
    assert state.outcome.winner == "red", show(state)


def test_captain_striking_own_colour_wins_for_the_other_colour():
    state, _ = _strike(RED_CAPTAIN, 1)
    assert state.outcome.winner == "blue", show(state)


@pytest.mark.parametrize(
    ("attacker", "target"), [p for p in itertools.permutations(range(1, 7), 2)]
)
def test_every_decapitation_has_exactly_one_winning_colour(attacker, target):
    state, _ = _strike(attacker, target)
    success = (attacker, target) in ((RED_CAPTAIN, BLUE_CAPTAIN), (BLUE_CAPTAIN, RED_CAPTAIN))
    mine = COLOUR[attacker]
    assert state.outcome.winner == (mine if success else OTHER[mine]), show(state)


def test_resolution_reveals_every_card_the_captains_and_the_set_aside_cards():
    cards = ("R1", "B2", "R5", "B3", "R7", "B6", "R3")
    _, events = apply(table(cards, set_aside=["B1"]), decap(1, 2))
    resolved = public_events(events)[-1]
    assert resolved["type"] == "resolved"
    assert resolved["cards"] == list(cards)
    assert resolved["set_aside"] == ["B1"]
    assert resolved["captains"] == {"red": 1, "blue": 2}
    assert resolved["winner"] == "red"
    assert (resolved["attacker"], resolved["target"]) == (1, 2)
