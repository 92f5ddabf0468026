"""Variant 5, bodyguards: the attacker declares whether the target's colour's 3 sits beside it."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, legal_actions
from tests.engine.helpers import decap, show, table

GUARDS = Variants(bodyguards=True)
# Red: 1, 5, 3 (no 4), R1 at seat 1 leads; seat 6 holds R3 and seat 6 is next to seat 1.
# Blue: 5, 1, 3 (no 4), B1 at seat 3 leads; seat 4 holds B3, right beside it.
WRAP = ("R1", "B5", "B1", "B3", "R5", "R3")


def _strike(cards, attacker, target, bodyguard, variants=GUARDS, proxy=None, **options):
    state = table(cards, variants=variants, first=attacker, **options)
    state, _ = apply(state, decap(attacker, target, proxy=proxy, bodyguard=bodyguard))
    assert state.over, show(state)
    return state


def test_yes_is_right_when_the_targets_bodyguard_sits_beside_it():
    state = _strike(WRAP, 1, 3, bodyguard=True)
    assert state.outcome.winner == "red", show(state)
    assert state.outcome.reasons == ()


def test_wrong_no_loses_even_captain_on_captain():
    state = _strike(WRAP, 1, 3, bodyguard=False)
    assert state.outcome.winner == "blue", show(state)
    assert "wrong_bodyguard_declaration" in state.outcome.reasons


def test_seat_s_sits_next_to_seat_1():
    assert _strike(WRAP, 3, 1, bodyguard=True).outcome.winner == "blue"
    assert _strike(WRAP, 3, 1, bodyguard=False).outcome.winner == "red"


def test_seat_1_sits_next_to_seat_s():
    # Blue: 3, 5, 1, B1 at seat 6 leads, and seat 1 holds B3. Red: 1, 5, 3, R1 at seat 2 leads,
    # with B3 and R5 beside it: no red bodyguard.
    cards = ("B3", "R1", "R5", "B5", "R3", "B1")
    assert _strike(cards, 2, 6, bodyguard=True).outcome.winner == "red"
    assert _strike(cards, 2, 6, bodyguard=False).outcome.winner == "blue"
    assert _strike(cards, 6, 2, bodyguard=False).outcome.winner == "blue"
    assert _strike(cards, 6, 2, bodyguard=True).outcome.winner == "red"


def test_a_3_does_not_guard_itself():
    # Red: 3, 5, 7 (no 4), so R3 at seat 1 leads; its neighbours hold B7 and B5.
    cards = ("R3", "B5", "R5", "B1", "R7", "B7")
    state = _strike(cards, 4, 1, bodyguard=False)
    assert state.outcome.winner == "blue", show(state)
    state = _strike(cards, 4, 1, bodyguard=True)
    assert state.outcome.winner == "red", show(state)
    assert "wrong_bodyguard_declaration" in state.outcome.reasons


def test_the_other_colours_3_is_no_bodyguard():
    # Blue: 1, 5, 7, B1 at seat 3 leads; beside it sit R3 (seat 2) and B5 (seat 4).
    cards = ("R1", "R3", "B1", "B5", "R5", "B7")
    assert _strike(cards, 1, 3, bodyguard=False).outcome.winner == "red"
    assert _strike(cards, 1, 3, bodyguard=True).outcome.winner == "blue"


def test_neutral_target_has_no_bodyguard_so_no_is_right():
    # The Observer at seat 2 sits between R3 and B3; it has no colour, so nothing guards it.
    cards = ("R3", "OBS", "B3", "B1", "R1", "B5")
    variants = Variants(bodyguards=True, observer=True)
    right = _strike(cards, 5, 2, bodyguard=False, variants=variants)
    assert "wrong_bodyguard_declaration" not in right.outcome.reasons
    wrong = _strike(cards, 5, 2, bodyguard=True, variants=variants)
    assert "wrong_bodyguard_declaration" in wrong.outcome.reasons
    assert right.outcome.winner == wrong.outcome.winner == "blue", "the target is no captain"


def test_a_virtual_seats_3_guards_too():
    variants = Variants(bodyguards=True, virtual_players=1)
    state = _strike(WRAP, 1, 3, bodyguard=True, variants=variants, proxy=False, virtual=[4])
    assert state.outcome.winner == "red", show(state)


def test_bodyguard_and_proxy_declarations_are_judged_together():
    # Seats 5 and 6 virtual: R1 at seat 1 still leads Red, so "no" is its right proxy answer.
    variants = Variants(bodyguards=True, virtual_players=2)
    state = table(WRAP, variants=variants, virtual=[5, 6])
    state, _ = apply(state, decap(1, 3, proxy=False, bodyguard=True))
    assert state.outcome.winner == "red", show(state)


def test_decapitation_must_declare_the_bodyguard():
    state = table(WRAP, variants=GUARDS)
    with pytest.raises(IllegalAction, match="bodyguard"):
        apply(state, decap(1, 3))
    choices = {a.bodyguard for a in legal_actions(state, 1) if a.act == "decapitate"}
    assert choices == {False, True}
