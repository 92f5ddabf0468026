"""Time limits: what running out of time means in every phase."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, summary
from engine import waiting_for as waiting
from tests.engine.helpers import (
    TIMEOUT,
    decap,
    end,
    play,
    private_events,
    public_events,
    scout,
    table,
)

SIX = ("R1", "R3", "B7", "B4", "R4", "B3")


def test_turn_that_runs_out_is_skipped_and_the_group_is_told():
    state = table(SIX, first=2)
    state, events = apply(state, TIMEOUT)
    assert public_events(events) == [
        {"to": "all", "type": "timed_out", "seat": 2, "phase": "turn"},
        {"to": "all", "type": "turn", "seat": 3},
    ]
    assert (state.phase, waiting(state)) == ("turn", 3)
    assert state.cards == SIX
    assert not any(state.acted), "a skipped turn is not an action"


def test_turn_running_out_at_the_last_seat_goes_round_to_seat_1():
    state, _ = apply(table(SIX, first=6), TIMEOUT)
    assert waiting(state) == 1


def test_speaking_moment_that_runs_out_ends_the_turn():
    state, _ = apply(table(SIX), scout(1, 3))
    state, events = apply(state, TIMEOUT)
    assert {"to": "all", "type": "timed_out", "seat": 1, "phase": "speak"} in events
    assert (state.phase, waiting(state)) == ("turn", 2)
    assert state.acted[0], "the scout still counts as the player's action"


def test_speaking_timeout_gives_the_same_next_turn_as_ending_it():
    timed, _ = play(table(SIX), scout(1, 3), TIMEOUT)
    ended, _ = play(table(SIX), scout(1, 3), end(1))
    assert (timed.phase, timed.turn, timed.acted) == (ended.phase, ended.turn, ended.acted)


def test_turncoat_silence_is_no_swap():
    cards = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
    state, _ = apply(table(cards, variants=Variants(turncoat=True)), scout(1, 3))
    state, events = apply(state, TIMEOUT)
    assert state.cards == cards
    assert (state.phase, waiting(state)) == ("speak", 1)
    assert public_events(events) == [], "the group never hears of the choice"
    assert private_events(events, 3) == [{"to": 3, "type": "kept", "scout": 1}]
    assert state.log[-1] == TIMEOUT, "the record keeps the silence, not a keep"


def test_spy_silence_is_no_guess_and_the_decapitation_resolves():
    cards = ("R1", "SPY", "B7", "B4", "R4", "B3")
    state, _ = apply(table(cards, variants=Variants(spy=True), first=3), decap(3, 5))
    state, events = apply(state, TIMEOUT)
    assert state.over
    assert [e["type"] for e in public_events(events)] == ["resolved"]
    assert summary(state)["spy"] == {"seat": 2, "guess": None, "won": False}
    assert summary(state)["winner"] == "blue"


def test_timeout_after_the_game_is_over_is_refused():
    state, _ = apply(table(SIX), decap(1, 3))
    with pytest.raises(IllegalAction, match="over"):
        apply(state, TIMEOUT)


def test_timeout_is_written_in_the_record_without_a_seat():
    state, _ = apply(table(SIX), TIMEOUT)
    assert state.log[-1].to_dict() == {"act": "timeout"}
