"""A removed seat (RULES.md, "Absent players") is virtual for the rest of the game: a human of
its colour may decapitate on behalf of its captain with the proxy declaration, with or without
variant 1; a neutral card on it has no effect; the record keeps the removal."""

from __future__ import annotations

import pytest

from engine import GameState, IllegalAction, Variants, apply, replay_record, summary, to_record
from engine.actions import REMOVE, Action
from engine.codec import state_from_dict, state_to_dict
from engine.resolution import WRONG_PROXY
from tests.engine.helpers import decap, scout, table

# Seats 1-5: R1 (red captain), R3, B7, B5, B3; blue captain B3 at seat 5.
CARDS = ("R1", "R3", "B7", "B5", "B3")


def removed(seat: int) -> Action:
    return Action(REMOVE, seat)


def play(state: GameState, *actions: Action) -> GameState:
    """Apply decisions in order; the final state."""
    for action in actions:
        state, _ = apply(state, action)
    return state


def test_a_removed_captain_lets_a_human_of_its_colour_decapitate_on_its_behalf() -> None:
    state = play(table(CARDS, first=2), removed(1), decap(2, 5, proxy=True))
    assert state.outcome.winner == "red" and state.outcome.reasons == ()


def test_once_a_seat_is_removed_every_decapitation_must_declare() -> None:
    state = play(table(CARDS), removed(4))
    with pytest.raises(IllegalAction, match="must declare proxy"):
        apply(state, decap(1, 5))
    won = play(state, decap(1, 5, proxy=False))  # the captain, acting for itself
    assert won.outcome.winner == "red" and won.outcome.reasons == ()


def test_a_no_from_a_player_whose_captain_was_removed_is_wrong() -> None:
    state = play(table(CARDS, first=2), removed(1), decap(2, 5, proxy=False))
    assert WRONG_PROXY in state.outcome.reasons and state.outcome.winner == "blue"


def test_a_yes_for_a_captain_still_playing_is_wrong() -> None:
    state = play(table(CARDS, first=2), removed(4), decap(2, 5, proxy=True))
    assert WRONG_PROXY in state.outcome.reasons


def test_a_removed_observer_neither_wins_nor_loses() -> None:
    cards = ("R1", "OBS", "B7", "B5", "B3", "R3")
    variants = Variants(observer=True)
    state = play(table(cards, variants=variants), removed(2), decap(1, 5, proxy=False))
    fate = summary(state)["observer"]
    assert fate == {"seat": 2, "predicted": None, "won": None, "removed": True}


def test_a_removed_spy_is_not_asked_and_neither_wins_nor_loses() -> None:
    cards = ("R1", "SPY", "B7", "B5", "B3", "R3")
    state = play(table(cards, variants=Variants(spy=True)), removed(2))
    state = play(state, decap(1, 5, proxy=False))
    assert state.over  # nobody was waited for
    assert summary(state)["spy"] == {"seat": 2, "guess": None, "won": None, "removed": True}


def test_a_removed_x_never_swaps() -> None:
    cards = ("R1", "R3", "BX", "B5", "B3", "R5", "B1")
    state = play(table(cards, variants=Variants(turncoat=True)), removed(3), scout(1, 3))
    assert state.phase == "speak"


def test_no_seat_is_removed_once_a_decapitation_is_announced_or_twice() -> None:
    cards = ("R1", "SPY", "B7", "B5", "B3", "R3")
    state = play(table(cards, variants=Variants(spy=True)), decap(1, 5))
    assert state.phase == "spy"
    with pytest.raises(IllegalAction, match="decapitation is announced"):
        apply(state, removed(3))
    state = play(table(CARDS), removed(3))
    with pytest.raises(IllegalAction, match="removed already"):
        apply(state, removed(3))


def test_a_removal_is_stored_and_recorded_and_replays_the_same() -> None:
    state = play(table(CARDS, first=2), removed(1), decap(2, 5, proxy=True))
    assert state_from_dict(state_to_dict(state)) == state
    record = to_record(state)
    assert {"seat": 1, "act": "remove"} in record["actions"]
    assert summary(replay_record(record)) == summary(state)
