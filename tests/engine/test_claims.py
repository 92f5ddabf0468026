"""Claims: a scout's speaking moment may say "seat N holds card C", in public, stored compactly."""

from __future__ import annotations

import json

import pytest

from engine import Action, IllegalAction, apply, replay_record, seat_view, to_record
from engine.codec import state_from_dict, state_to_dict
from tests.engine.helpers import play, public_events, scout, table

SIX = ("R1", "R3", "B7", "B4", "R4", "B3")


def _claim(seat: int, claim: str, say: str | None = None) -> Action:
    return Action("end_turn", seat, say=say, claim=claim)


def test_an_end_of_turn_without_a_claim_is_stored_as_before():
    assert Action("end_turn", 4).pack() == "e4"
    assert Action.unpack("e4") == Action("end_turn", 4)
    assert Action("end_turn", 4).to_dict() == {"seat": 4, "act": "end_turn"}


def test_a_claim_is_stored_with_its_end_of_turn_and_read_back():
    action = _claim(1, "5:R1", say="five is red one")
    assert action.pack() == "e1,5:R1"
    assert Action.unpack("e1,5:R1", "five is red one") == action
    assert Action.from_dict(action.to_dict()) == action
    state, _ = play(table(SIX), scout(1, 5), action, scout(2, 3), _claim(2, "2:B4"))
    stored = json.loads(json.dumps(state_to_dict(state)))
    assert stored["log"] == "s1,5;e1,5:R1;s2,3;e2,2:B4"
    assert state_from_dict(stored) == state
    assert replay_record(json.loads(json.dumps(to_record(state)))) == state


def test_a_claim_is_told_to_everyone_with_the_end_of_the_turn():
    state, _ = play(table(SIX), scout(1, 5))
    _, events = apply(state, _claim(1, "5:R1"))
    ended = [e for e in public_events(events) if e["type"] == "turn_ended"]
    assert ended == [{"to": "all", "type": "turn_ended", "seat": 1, "say": None, "claim": "5:R1"}]


def test_every_public_claim_so_far_is_in_each_seats_view():
    state, _ = play(table(SIX), scout(1, 5), _claim(1, "5:R1"), scout(2, 3), _claim(2, "2:B4"))
    for seat in range(1, 7):
        history = seat_view(state, seat)["public"]["history"]
        claims = [e["claim"] for e in history if e["type"] == "turn_ended"]
        assert claims == ["5:R1", "2:B4"]


def test_an_end_of_turn_without_a_claim_tells_no_claim():
    _, events = play(table(SIX), scout(1, 5), Action("end_turn", 1))
    ended = next(e for e in events if e["type"] == "turn_ended")
    assert "claim" not in ended


@pytest.mark.parametrize("claim", ["7:R1", "0:B4", "12:OBS"])
def test_a_claim_about_a_seat_not_at_the_table_is_illegal(claim):
    state, _ = play(table(SIX), scout(1, 5))
    with pytest.raises(IllegalAction, match="no seat"):
        apply(state, _claim(1, claim))


@pytest.mark.parametrize("claim", ["5", "5:R8", "5:red 1", "five:R1", " 5:R1", "5:R1,", 5, ""])
def test_a_malformed_claim_is_refused_as_it_is_read(claim):
    with pytest.raises(ValueError, match="claim"):
        Action.from_dict({"seat": 1, "act": "end_turn", "claim": claim})


def test_only_an_end_of_turn_may_carry_a_claim():
    state = table(SIX)
    with pytest.raises(IllegalAction, match="claim"):
        apply(state, Action("scout", 1, target=2, claim="2:R3"))
    with pytest.raises(ValueError, match="claim"):
        Action.from_dict({"seat": 1, "act": "scout", "target": 2, "claim": "2:R3"})
