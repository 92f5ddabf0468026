"""Variant 7, the Spy: a sealed guess of both captains, opened with the decapitation's target."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, legal_actions, public_view, seat_view, summary
from engine import waiting_for as waiting
from tests.engine.helpers import (
    TIMEOUT,
    decap,
    end,
    guess,
    play,
    private_events,
    public_events,
    scout,
    show,
    swap,
    table,
)

SPY = Variants(spy=True)
# Red holds 1 and 4 on the seats (R3 set aside), so R4 at seat 5 leads; Blue's B7 at seat 3 leads.
CARDS = ("R1", "SPY", "B7", "B4", "R4", "B3")


def _announce(target: int, cards=CARDS, variants=SPY, attacker: int = 3, **options):
    state = table(cards, variants=variants, first=attacker, **options)
    state, _ = play(state, scout(attacker, 1), end(attacker))
    state = _skip_to(state, attacker)
    return apply(state, decap(attacker, target))


def _skip_to(state, seat):
    while waiting(state) != seat:
        state, _ = apply(state, TIMEOUT)
    return state


def _spy_result(state):
    return summary(state)["spy"]


def test_decapitation_waits_for_the_spys_guess():
    state, events = _announce(5)
    assert state.phase == "spy"
    assert waiting(state) == 2
    assert guess(2, 5, 3) in legal_actions(state, 2)
    assert legal_actions(state, 3) == []
    assert private_events(events, 2) == [{"to": 2, "type": "spy_turn"}]


def test_decapitation_target_is_sealed_from_everyone_until_resolution():
    at_red_captain, events_one = _announce(5)
    at_seat_one, events_two = _announce(1)
    assert public_events(events_one) == public_events(events_two)
    assert private_events(events_one, 2) == private_events(events_two, 2)
    assert public_view(at_red_captain) == public_view(at_seat_one)
    for seat in range(1, 7):
        assert seat_view(at_red_captain, seat) == seat_view(at_seat_one, seat), seat
    announced = public_events(events_one)
    assert announced == [{"to": "all", "type": "decapitation_announced", "seat": 3}]


def test_spy_right_on_both_captains_wins():
    state, _ = _announce(5)
    state, events = apply(state, guess(2, 5, 3))
    assert state.outcome.winner == "blue", show(state)
    assert _spy_result(state) == {"seat": 2, "guess": {"red": 5, "blue": 3}, "won": True}
    resolved = public_events(events)[-1]
    assert resolved["target"] == 5, "the target is opened with the guess"
    assert resolved["spy"]["guess"] == {"red": 5, "blue": 3}


def test_spy_wins_on_the_captains_whatever_the_decapitation_does():
    state, _ = _announce(1)
    state, _ = apply(state, guess(2, 5, 3))
    assert state.outcome.winner == "red", show(state)
    assert _spy_result(state)["won"] is True


@pytest.mark.parametrize(("red", "blue"), [(1, 3), (5, 4), (3, 5), (2, 2)])
def test_spy_wrong_on_either_captain_loses(red, blue):
    state, _ = _announce(5)
    state, _ = apply(state, guess(2, red, blue))
    assert _spy_result(state) == {"seat": 2, "guess": {"red": red, "blue": blue}, "won": False}


def test_spy_without_a_guess_in_time_loses():
    state, _ = _announce(5)
    state, _ = apply(state, TIMEOUT)
    assert state.over
    assert state.outcome.winner == "blue", show(state)
    assert _spy_result(state) == {"seat": 2, "guess": None, "won": False}


def test_colour_with_no_captain_makes_any_guess_for_it_wrong():
    # Four seats, both neutrals: both red cards are set aside, so Red has no captain.
    cards = ("B1", "SPY", "B3", "OBS")
    variants = Variants(spy=True, observer=True)
    for red in range(1, 5):
        state = table(cards, variants=variants, set_aside=["R1", "R3"])
        state, _ = play(state, decap(1, 3), guess(2, red, 1))
        assert state.outcome.captains == {"red": None, "blue": 1}
        assert state.outcome.winner == "red", "no red captain to strike: the other colour wins"
        assert _spy_result(state)["won"] is False, red


def test_only_the_spy_may_guess():
    state, _ = _announce(5)
    with pytest.raises(IllegalAction):
        apply(state, guess(3, 5, 3))
    with pytest.raises(IllegalAction, match="no seat 7"):
        apply(state, guess(2, 7, 3))


def test_spy_on_a_virtual_seat_gets_no_guess_and_no_result():
    variants = Variants(spy=True, virtual_players=1)
    state = table(CARDS, variants=variants, virtual=[2], first=3)
    state, _ = apply(state, decap(3, 5, proxy=False))
    assert state.over, "no spy phase"
    assert _spy_result(state) is None


def test_spy_set_aside_gets_no_guess_and_no_result():
    cards = ("R1", "R3", "B7", "B4", "R4", "B3")
    state = table(cards, variants=SPY, set_aside=["SPY"], first=3)
    state, _ = apply(state, decap(3, 5))
    assert state.over, "no spy phase"
    assert _spy_result(state) is None


def test_after_a_turncoat_swap_the_new_holder_of_the_card_is_the_spy():
    # Eight seats: the Spy at seat 1 scouts the Red X at seat 3, which swaps.
    cards = ("SPY", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
    variants = Variants(spy=True, turncoat=True)
    state, _ = play(table(cards, variants=variants), scout(1, 3), swap(3), end(1))
    assert {a.act for a in legal_actions(_skip_to(state, 3), 3)} == {"scout"}
    state = _skip_to(state, 4)
    state, _ = apply(state, decap(4, 5))
    assert waiting(state) == 3
    state, _ = apply(state, guess(3, 5, 4))
    assert _spy_result(state) == {"seat": 3, "guess": {"red": 5, "blue": 4}, "won": True}
