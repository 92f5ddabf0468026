"""Variant 1, virtual players: never acting; any human of a virtual captain's colour strikes."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, legal_actions, waiting_for
from tests.engine.helpers import decap, end, play, scout, show, table

VP = Variants(virtual_players=2)
# Seats 3 and 6 are virtual. By hand: Red holds 3, 1, 5 (no 4), so R1 at virtual seat 3 leads Red.
# Blue holds 5, 1, 3 (no 4), so B1 at human seat 4 leads Blue.
CARDS = ("R3", "B5", "R1", "B1", "R5", "B3")
VIRTUAL = (3, 6)


def _strike(attacker: int, target: int, proxy: bool):
    state = table(CARDS, variants=VP, virtual=VIRTUAL, first=attacker)
    state, _ = apply(state, decap(attacker, target, proxy=proxy))
    assert state.over, show(state)
    return state


@pytest.mark.parametrize("attacker", [1, 5])
def test_any_human_of_the_colour_may_decapitate_for_a_virtual_captain_declaring_yes(attacker):
    state = _strike(attacker, 4, proxy=True)
    assert state.outcome.winner == "red", show(state)
    assert state.outcome.reasons == ()


def test_an_x_holder_of_the_colour_may_act_for_its_virtual_captain():
    # Seven seats, virtual at 3 and 6. Red: X, 2, 5, 6, so R2 at virtual seat 3 leads Red.
    cards = ("RX", "B2", "R2", "B1", "R5", "B7", "R6")
    state = table(cards, variants=VP, virtual=VIRTUAL)
    state, _ = apply(state, decap(1, 4, proxy=True))
    assert state.outcome.winner == "red", show(state)


@pytest.mark.parametrize("attacker", [1, 5])
def test_saying_no_when_the_captain_is_virtual_loses(attacker):
    state = _strike(attacker, 4, proxy=False)
    assert state.outcome.winner == "blue", show(state)
    assert "wrong_proxy_declaration" in state.outcome.reasons


def test_right_yes_still_needs_the_enemy_captain_as_target():
    state = _strike(1, 2, proxy=True)
    assert state.outcome.winner == "blue", show(state)
    assert "wrong_proxy_declaration" not in state.outcome.reasons


def test_right_yes_against_a_virtual_non_captain_loses():
    state = _strike(5, 6, proxy=True)
    assert state.outcome.winner == "blue", show(state)


def test_human_captain_declaring_no_strikes_a_virtual_captain():
    state = _strike(4, 3, proxy=False)
    assert state.outcome.winner == "blue", show(state)
    assert state.outcome.reasons == ()


def test_human_captain_declaring_yes_loses():
    state = _strike(4, 3, proxy=True)
    assert state.outcome.winner == "red", show(state)
    assert "wrong_proxy_declaration" in state.outcome.reasons


@pytest.mark.parametrize("proxy", [False, True])
def test_when_the_captain_is_human_only_that_human_may_decapitate(proxy):
    state = _strike(2, 3, proxy=proxy)
    assert state.outcome.winner == "red", show(state)


def test_decapitation_must_declare_yes_or_no_with_virtual_players():
    state = table(CARDS, variants=VP, virtual=VIRTUAL)
    with pytest.raises(IllegalAction, match="proxy"):
        apply(state, decap(1, 4))
    proxies = {a.proxy for a in legal_actions(state, 1) if a.act == "decapitate"}
    assert proxies == {False, True}


def test_virtual_seat_may_be_scouted_and_targeted():
    state = table(CARDS, variants=VP, virtual=VIRTUAL)
    actions = legal_actions(state, 1)
    assert scout(1, 3) in actions
    assert decap(1, 3, proxy=False) in actions


def test_virtual_seat_never_acts_and_is_skipped():
    state = table(CARDS, variants=VP, virtual=VIRTUAL, first=2)
    seen = []
    for _ in range(5):
        seat = waiting_for(state)
        seen.append(seat)
        state, _ = play(state, scout(seat, 3 if seat != 3 else 1), end(seat))
    assert seen == [2, 4, 5, 1, 2]
    for seat in VIRTUAL:
        assert legal_actions(state, seat) == []
        with pytest.raises(IllegalAction):
            apply(state, scout(seat, 1))
