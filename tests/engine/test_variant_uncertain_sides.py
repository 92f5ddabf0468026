"""Variant 3, uncertain sides: even seat counts deal from n + 1 cards per colour."""

from __future__ import annotations

import json
import math

import pytest

from engine import BadRecord, Variants, apply, new_game
from engine.records import deal_from_record
from tests.engine.helpers import decap, record, show, table

UNCERTAIN = Variants(uncertain_sides=True)


def _names(humans: int) -> list[str]:
    return [f"P{i}" for i in range(1, humans + 1)]


def _colour_counts(cards) -> tuple[int, int]:
    return sum(c.startswith("R") for c in cards), sum(c.startswith("B") for c in cards)


@pytest.mark.parametrize("humans", [4, 6, 8, 10, 12])
def test_even_seats_use_n_plus_one_cards_per_colour(humans):
    state, _ = new_game(_names(humans), UNCERTAIN, seed=humans)
    n = math.ceil(humans / 2)
    assert _colour_counts([*state.cards, *state.set_aside]) == (n + 1, n + 1)
    assert len(state.set_aside) == 2, "the two undealt cards are set aside"


@pytest.mark.parametrize("humans", [5, 7, 9, 11])
def test_odd_seats_are_dealt_as_without_the_variant(humans):
    state, _ = new_game(_names(humans), UNCERTAIN, seed=humans)
    n = math.ceil(humans / 2)
    assert _colour_counts([*state.cards, *state.set_aside]) == (n, n)
    assert len(state.set_aside) == 1


def test_virtual_seats_count_towards_the_even_seat_count():
    state, _ = new_game(_names(5), Variants(uncertain_sides=True, virtual_players=1), seed=4)
    assert state.seats == 6
    assert _colour_counts([*state.cards, *state.set_aside]) == (4, 4)


def test_teams_are_equal_or_differ_by_two():
    differences = set()
    for seed in range(80):
        state, _ = new_game(_names(8), UNCERTAIN, seed=seed)
        red, blue = _colour_counts(state.cards)
        differences.add(abs(red - blue))
    assert differences == {0, 2}


def test_small_uncertain_game_still_removes_the_2_6_and_x():
    for seed in range(30):
        state, _ = new_game(_names(6), UNCERTAIN, seed=seed)
        ranks = {c[1:] for c in [*state.cards, *state.set_aside]}
        assert not ranks & {"2", "6", "X"}, state


def test_record_with_uncertain_sides_needs_n_plus_one_per_colour():
    cards = ("R1", "R3", "B7", "B4", "R4", "B3")
    good = record(cards, variants=UNCERTAIN, set_aside=["R5", "B1"])
    assert deal_from_record(good).set_aside == ("R5", "B1")
    short = record(cards, variants=UNCERTAIN, set_aside=[])
    with pytest.raises(BadRecord, match="uses 4"):
        deal_from_record(json.loads(json.dumps(short)))


def test_teams_of_four_and_two_play_by_the_same_captain_rule():
    # Six seats, four red and two blue: Red holds 1, 3, 5, 7 (no 4: R1 leads);
    # Blue holds 4, 3 (B1 and B5 set aside), so the highest, B4, leads.
    cards = ("R1", "B4", "R3", "R5", "B3", "R7")
    state = table(cards, variants=UNCERTAIN, set_aside=["B1", "B5"], first=2)
    state, _ = apply(state, decap(2, 1))
    assert state.outcome.captains == {"red": 1, "blue": 2}
    assert state.outcome.winner == "blue", show(state)
