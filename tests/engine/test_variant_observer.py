"""Variant 6, the Observer: predicts a colour after a scout instead of speaking, then sits out."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, legal_actions, public_view, summary
from engine import waiting_for as waiting
from tests.engine.helpers import TIMEOUT, decap, end, play, predict, scout, show, swap, table

OBSERVER = Variants(observer=True)
# Red holds 1 and 4 on the seats (R3 set aside), so R4 at seat 5 leads; Blue's B7 at seat 3 leads.
CARDS = ("R1", "OBS", "B7", "B4", "R4", "B3")


def _observer_result(state):
    return summary(state)["observer"]


def test_observer_may_predict_after_a_scout_in_place_of_speaking():
    state, _ = apply(table(CARDS, variants=OBSERVER, first=2), scout(2, 3))
    assert legal_actions(state, 2) == [end(2), predict(2, "red"), predict(2, "blue")]
    state, events = apply(state, predict(2, "blue"))
    assert {"to": "all", "type": "predicted", "seat": 2, "color": "blue"} in events
    assert not [e for e in events if e["type"] == "turn_ended"], "the prediction replaces speech"
    assert waiting(state) == 3, "the prediction ends the Observer's turn"


def test_prediction_reveals_the_observer_card_publicly():
    state, _ = play(table(CARDS, variants=OBSERVER, first=2), scout(2, 3), predict(2, "red"))
    view = public_view(state)
    assert view["seats"][1]["face_up"] == "OBS"
    assert view["prediction"] == {"seat": 2, "color": "red"}


def test_observer_may_not_predict_without_scouting_first():
    state = table(CARDS, variants=OBSERVER, first=2)
    with pytest.raises(IllegalAction):
        apply(state, predict(2, "red"))


def test_only_the_observer_may_predict():
    state, _ = apply(table(CARDS, variants=OBSERVER), scout(1, 2))
    assert legal_actions(state, 1) == [end(1)]
    with pytest.raises(IllegalAction, match="Observer"):
        apply(state, predict(1, "red"))


def test_predicted_observer_takes_no_more_turns():
    state, _ = play(table(CARDS, variants=OBSERVER, first=2), scout(2, 3), predict(2, "blue"))
    order = []
    for _ in range(6):
        seat = waiting(state)
        order.append(seat)
        state, _ = play(state, scout(seat, 2), end(seat))
    assert order == [3, 4, 5, 6, 1, 3]
    assert legal_actions(state, 2) == []


def test_predicted_observer_turns_are_skipped_even_when_turns_run_out():
    state, _ = play(table(CARDS, variants=OBSERVER, first=2), scout(2, 3), predict(2, "blue"))
    seen = set()
    for _ in range(12):
        seen.add(waiting(state))
        state, _ = apply(state, TIMEOUT)
    assert seen == {1, 3, 4, 5, 6}


def test_observer_wins_when_the_predicted_colour_wins():
    state, _ = play(
        table(CARDS, variants=OBSERVER, first=2), scout(2, 3), predict(2, "blue"), decap(3, 5)
    )
    assert state.outcome.winner == "blue", show(state)
    assert _observer_result(state) == {"seat": 2, "predicted": "blue", "won": True}


def test_observer_loses_when_the_predicted_colour_loses():
    state, _ = play(
        table(CARDS, variants=OBSERVER, first=2), scout(2, 3), predict(2, "red"), decap(3, 5)
    )
    assert _observer_result(state) == {"seat": 2, "predicted": "red", "won": False}


def test_observer_who_never_predicted_loses():
    state, _ = apply(table(CARDS, variants=OBSERVER, first=3), decap(3, 5))
    assert state.outcome.winner == "blue"
    assert _observer_result(state) == {"seat": 2, "predicted": None, "won": False}


def test_speaking_moment_running_out_is_not_a_prediction():
    state, _ = play(table(CARDS, variants=OBSERVER, first=2), scout(2, 3), TIMEOUT)
    assert state.prediction is None
    assert waiting(state) == 3
    state, _ = play(state, *(TIMEOUT for _ in range(5)), scout(2, 4))
    assert predict(2, "red") in legal_actions(state, 2), "the Observer may predict later"


def test_observer_may_predict_right_after_a_first_scout_with_no_first_round_decapitation():
    variants = Variants(no_first_round_decapitation=True, observer=True)
    state, _ = apply(table(CARDS, variants=variants, first=2), scout(2, 3))
    assert predict(2, "blue") in legal_actions(state, 2)
    state, _ = apply(state, predict(2, "blue"))
    assert state.prediction == (2, "blue")
    assert waiting(state) == 3


def test_observer_on_a_virtual_seat_has_no_effect():
    variants = Variants(observer=True, virtual_players=1)
    state = table(CARDS, variants=variants, virtual=[2], first=3)
    state, _ = apply(state, decap(3, 5, proxy=False))
    assert state.outcome.winner == "blue"
    assert _observer_result(state) is None


def test_observer_set_aside_has_no_effect():
    cards = ("R1", "R3", "B7", "B4", "R4", "B3")
    state = table(cards, variants=OBSERVER, first=3, set_aside=["OBS"])
    state, _ = apply(state, decap(3, 5))
    assert _observer_result(state) is None


# Eight seats with the Turncoat: the Observer at seat 1 scouts the Red X at seat 3, which swaps.
# Red on the seats: X, 6, 7 (R1 set aside), so R6 at seat 5 leads; Blue: 3, 1, 5, X, so B1 at 4.
SWAP_CARDS = ("OBS", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
SWAP_VARIANTS = Variants(observer=True, turncoat=True)


def test_after_a_turncoat_swap_the_scout_is_no_longer_the_observer():
    state, _ = play(table(SWAP_CARDS, variants=SWAP_VARIANTS), scout(1, 3), swap(3))
    assert state.cards[0] == "RX"
    assert legal_actions(state, 1) == [end(1)]
    with pytest.raises(IllegalAction):
        apply(state, predict(1, "blue"))


def test_after_a_turncoat_swap_the_new_holder_of_the_card_is_the_observer():
    state, _ = play(table(SWAP_CARDS, variants=SWAP_VARIANTS), scout(1, 3), swap(3), end(1))
    state, _ = play(state, TIMEOUT, scout(3, 4))
    assert predict(3, "blue") in legal_actions(state, 3)
    state, _ = apply(state, predict(3, "blue"))
    assert waiting(state) == 4
    state, _ = apply(state, decap(4, 5))
    assert state.outcome.winner == "blue", show(state)
    assert _observer_result(state) == {"seat": 3, "predicted": "blue", "won": True}


def test_new_observer_may_not_decapitate_and_the_old_one_now_may():
    state, _ = play(table(SWAP_CARDS, variants=SWAP_VARIANTS), scout(1, 3), swap(3), end(1))
    state, _ = apply(state, TIMEOUT)
    assert {a.act for a in legal_actions(state, 3)} == {"scout"}
    state, _ = play(state, *(TIMEOUT for _ in range(6)))
    assert waiting(state) == 1
    assert "decapitate" in {a.act for a in legal_actions(state, 1)}
