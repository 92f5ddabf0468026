"""Variant 2, no decapitation in the first round: every player's first action is a scout."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, legal_actions, waiting_for
from tests.engine.helpers import TIMEOUT, decap, end, play, scout, show, table

CALM = Variants(no_first_round_decapitation=True)
SIX = ("R1", "R3", "B7", "B4", "R4", "B3")


def _decapitations(state, seat):
    return [a for a in legal_actions(state, seat) if a.act == "decapitate"]


def test_first_action_must_be_a_scout():
    state = table(SIX, variants=CALM)
    assert _decapitations(state, 1) == []
    with pytest.raises(IllegalAction, match="seat 1 may not decapitate in the first round"):
        apply(state, decap(1, 3))


def test_without_the_variant_the_first_action_may_be_a_decapitation():
    state = table(SIX)
    assert _decapitations(state, 1)
    state, _ = apply(state, decap(1, 3))
    assert state.over


def test_after_their_first_scout_a_player_may_decapitate():
    state = table(SIX, variants=CALM, first=3)
    for seat in (3, 4, 5, 6, 1, 2):
        state, _ = play(state, scout(seat, 1 if seat != 1 else 2), end(seat))
    assert waiting_for(state) == 3
    state, _ = apply(state, decap(3, 5))
    assert state.outcome.winner == "blue", show(state)


def test_the_first_round_is_each_players_own_first_action():
    state = table(SIX, variants=CALM)
    state, _ = play(state, scout(1, 2), end(1))
    assert waiting_for(state) == 2
    assert _decapitations(state, 2) == [], "seat 1 having acted does not free seat 2"
    with pytest.raises(IllegalAction, match="first round"):
        apply(state, decap(2, 3))


def test_a_skipped_turn_is_not_the_first_action():
    state = table(SIX, variants=CALM)
    state, _ = apply(state, TIMEOUT)  # seat 1's turn runs out
    for seat in (2, 3, 4, 5, 6):
        state, _ = play(state, scout(seat, 1), end(seat))
    assert waiting_for(state) == 1
    assert _decapitations(state, 1) == [], show(state)
    with pytest.raises(IllegalAction, match="seat 1 may not decapitate in the first round"):
        apply(state, decap(1, 3))


def test_a_scout_whose_speaking_moment_runs_out_has_still_acted():
    state = table(SIX, variants=CALM)
    state, _ = play(state, scout(1, 2), TIMEOUT)
    for seat in (2, 3, 4, 5, 6):
        state, _ = play(state, scout(seat, 1), end(seat))
    assert _decapitations(state, 1), show(state)
