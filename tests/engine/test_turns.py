"""A turn: scout or decapitate, round the circle; an illegal decision changes nothing."""

from __future__ import annotations

import pytest

from engine import (
    IllegalAction,
    Variants,
    apply,
    legal_actions,
    state_from_dict,
    state_to_dict,
    waiting_for,
)
from tests.engine.helpers import (
    TIMEOUT,
    decap,
    end,
    keep,
    play,
    predict,
    private_events,
    public_events,
    scout,
    show,
    table,
)

SIX = ("R1", "R3", "B7", "B4", "R4", "B3")  # the worked example's table


def _refused(state, action, match: str | None = None) -> str:
    """Apply an illegal action: it must raise with a message and leave the state as it was."""
    before, version = state_to_dict(state), state.version
    with pytest.raises(IllegalAction) as raised:
        apply(state, action)
    message = str(raised.value)
    assert message, "a refusal says why"
    if match:
        assert match in message, message
    assert state_to_dict(state) == before
    assert state.version == version
    return message


def test_legal_actions_are_listed_in_a_stable_order():
    state = table(SIX)
    first = legal_actions(state, 1)
    assert first == legal_actions(state, 1)
    kinds = [a.act for a in first]
    assert kinds == sorted(kinds, key=["scout", "decapitate"].index), "scouts before strikes"
    assert [a.target for a in first if a.act == "scout"] == [2, 3, 4, 5, 6]
    assert [a.target for a in first if a.act == "decapitate"] == [2, 3, 4, 5, 6]


def test_legal_actions_are_the_same_for_a_rebuilt_state():
    state, _ = play(table(SIX), scout(1, 3), end(1))
    rebuilt = state_from_dict(state_to_dict(state))
    assert legal_actions(rebuilt, 2) == legal_actions(state, 2)


def test_player_may_scout_any_other_seat():
    state = table(SIX, first=4)
    targets = {a.target for a in legal_actions(state, 4) if a.act == "scout"}
    assert targets == {1, 2, 3, 5, 6}


def test_player_may_scout_a_virtual_seat():
    state = table(SIX, variants=Variants(virtual_players=1), virtual=[2])
    assert scout(1, 2) in legal_actions(state, 1)
    state, events = apply(state, scout(1, 2))
    assert private_events(events, 1)[0]["card"] == "R3"


def test_player_may_scout_a_face_up_card():
    cards = ("R1", "OBS", "B7", "B4", "R4", "B3")
    state = table(cards, variants=Variants(observer=True), first=2)
    state, _ = play(state, scout(2, 1), predict(2, "red"))
    assert "OBS" in state.face_up
    assert scout(3, 2) in legal_actions(state, 3)
    state, events = apply(state, scout(3, 2))
    assert private_events(events, 3)[0]["card"] == "OBS"


def test_player_may_decapitate_any_other_seat_when_no_variant_forbids_it():
    targets = {a.target for a in legal_actions(table(SIX), 1) if a.act == "decapitate"}
    assert targets == {2, 3, 4, 5, 6}


def test_player_cannot_scout_themself():
    state = table(SIX)
    assert scout(1, 1) not in legal_actions(state, 1)
    _refused(state, scout(1, 1), "itself")


def test_player_cannot_decapitate_themself():
    state = table(SIX)
    assert decap(1, 1) not in legal_actions(state, 1)
    _refused(state, decap(1, 1), "itself")


def test_seat_out_of_turn_is_refused_and_the_state_is_unchanged():
    state = table(SIX)
    message = _refused(state, scout(2, 3))
    assert "seat 2" in message
    assert legal_actions(state, 2) == []


def test_seat_out_of_turn_may_not_decapitate_either():
    _refused(table(SIX), decap(3, 5))


def test_seats_and_targets_outside_the_table_are_refused():
    state = table(SIX)
    _refused(state, scout(1, 7), "no seat 7")
    _refused(state, scout(1, 0), "no seat 0")
    _refused(state, scout(9, 1), "no seat 9")


def test_speaking_decision_is_refused_on_a_turn():
    _refused(table(SIX), end(1))


def test_scout_or_decapitate_is_refused_while_the_scout_speaks():
    state, _ = apply(table(SIX), scout(1, 3))
    _refused(state, scout(1, 4))
    _refused(state, decap(1, 4))
    _refused(state, scout(2, 4))


def test_declarations_of_variants_not_in_play_are_refused():
    state = table(SIX)
    _refused(state, decap(1, 3, proxy=False), "proxy")
    _refused(state, decap(1, 3, bodyguard=False), "bodyguard")


def test_illegal_action_never_half_applies():
    state = table(SIX)
    for bad in (scout(1, 1), scout(2, 1), decap(1, 1), end(1), keep(1)):
        with pytest.raises(IllegalAction):
            apply(state, bad)
    after, events = apply(state, scout(1, 5))
    fresh, fresh_events = apply(table(SIX), scout(1, 5))
    assert after == fresh
    assert events == fresh_events
    assert after.version == 1, show(after)


def test_scout_sees_the_card_privately_and_everyone_sees_who_scouted_whom():
    _, events = apply(table(SIX), scout(1, 4))
    assert private_events(events, 1) == [
        {"to": 1, "type": "scout_result", "target": 4, "card": "B4"}
    ]
    scouted = public_events(events)[0]
    assert scouted == {"to": "all", "type": "scouted", "seat": 1, "target": 4}
    assert all(e["to"] in ("all", 1) for e in events), "no other seat is told anything"


def test_after_scouting_the_player_may_speak_then_the_turn_passes():
    state, _ = apply(table(SIX), scout(1, 4))
    assert state.phase == "speak"
    assert waiting_for(state) == 1
    assert legal_actions(state, 1) == [end(1)]
    state, events = apply(state, end(1, "我是红1"))
    assert {"to": "all", "type": "turn_ended", "seat": 1, "say": "我是红1"} in events
    assert waiting_for(state) == 2


def test_decapitation_goes_straight_to_resolution():
    state, events = apply(table(SIX), decap(1, 3))
    assert state.over
    assert waiting_for(state) is None
    assert [e["type"] for e in public_events(events)] == ["decapitation_announced", "resolved"]


def test_turns_go_round_the_circle_from_the_first_player():
    state = table(SIX, first=5)
    order = []
    for _ in range(7):
        seat = waiting_for(state)
        order.append(seat)
        state, _ = play(state, scout(seat, 1 if seat != 1 else 2), end(seat))
    assert order == [5, 6, 1, 2, 3, 4, 5]


def test_turns_skip_virtual_seats():
    state = table(SIX, variants=Variants(virtual_players=2), virtual=[3, 6], first=2)
    order = []
    for _ in range(6):
        seat = waiting_for(state)
        order.append(seat)
        state, _ = play(state, scout(seat, 3), end(seat))
    assert order == [2, 4, 5, 1, 2, 4]


def test_a_virtual_seat_never_acts():
    state = table(SIX, variants=Variants(virtual_players=1), virtual=[2])
    state, _ = play(state, scout(1, 2), end(1))
    assert waiting_for(state) == 3
    assert legal_actions(state, 2) == []
    _refused(state, scout(2, 1))


def test_observer_holder_never_gets_decapitate_actions_and_is_refused():
    cards = ("R1", "OBS", "B7", "B4", "R4", "B3")
    state = table(cards, variants=Variants(observer=True), first=2)
    assert {a.act for a in legal_actions(state, 2)} == {"scout"}
    _refused(state, decap(2, 3), "Observer")


def test_spy_holder_never_gets_decapitate_actions_and_is_refused():
    cards = ("R1", "SPY", "B7", "B4", "R4", "B3")
    state = table(cards, variants=Variants(spy=True), first=2)
    assert {a.act for a in legal_actions(state, 2)} == {"scout"}
    _refused(state, decap(2, 3), "Spy")


def test_skipped_turn_passes_to_the_next_seat_and_is_not_an_action():
    state = table(SIX, first=3)
    state, events = apply(state, TIMEOUT)
    assert waiting_for(state) == 4
    assert state.acted == (False,) * 6, "a skipped turn is not an action"
    assert {"to": "all", "type": "timed_out", "seat": 3, "phase": "turn"} in events


def test_nothing_is_accepted_once_the_game_is_over():
    state, _ = apply(table(SIX), decap(1, 3))
    assert legal_actions(state, 2) == []
    _refused(state, scout(2, 3), "over")
    _refused(state, TIMEOUT, "over")
