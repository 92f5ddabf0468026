"""Information: the group sees no face-down card before the end; a seat sees only its own."""

from __future__ import annotations

from engine import Variants, apply, new_game, public_view, seat_view
from tests.engine.helpers import (
    cards_in,
    decap,
    end,
    play,
    predict,
    scout,
    swap,
    table,
)

SIX = ("R1", "R3", "B7", "B4", "R4", "B3")


def test_public_view_holds_no_card_at_the_start():
    state, _ = new_game([f"P{i}" for i in range(1, 9)], Variants(observer=True, spy=True), seed=5)
    view = public_view(state)
    assert cards_in(view) == set(), view
    assert all(s["face_up"] is None for s in view["seats"])


def test_public_view_holds_no_face_down_card_during_play():
    state, _ = play(table(SIX), scout(1, 5), end(1, "五号位是红1"), scout(2, 3))
    view = public_view(state)
    assert cards_in(view) == set(), view


def test_public_view_shows_seating_turn_and_who_scouted_whom():
    state, _ = play(table(SIX), scout(1, 5), end(1, "hello"))
    view = public_view(state)
    assert [s["name"] for s in view["seats"]] == [f"P{i}" for i in range(1, 7)]
    assert view["turn"] == 2
    assert view["phase"] == "turn"
    history = view["history"]
    assert {"type": "scouted", "seat": 1, "target": 5} in history
    assert {"type": "turn_ended", "seat": 1, "say": "hello"} in history
    assert all("card" not in e for e in history)


def test_public_view_shows_face_up_cards_only():
    cards = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
    state, _ = play(table(cards, variants=Variants(turncoat=True)), scout(1, 3), swap(3))
    assert cards_in(public_view(state)) == {"RX"}
    cards = ("R1", "OBS", "B7", "B4", "R4", "B3")
    state, _ = play(table(cards, variants=Variants(observer=True), first=2), scout(2, 1))
    state, _ = apply(state, predict(2, "red"))
    assert cards_in(public_view(state)) == {"OBS"}


def test_public_view_reveals_everything_at_the_end_with_the_set_aside_cards():
    cards = ("R1", "B2", "R5", "B3", "R7", "B6", "R3")
    state, _ = apply(table(cards, set_aside=["B1"]), decap(1, 2))
    view = public_view(state)
    assert [s["face_up"] for s in view["seats"]] == list(cards)
    resolved = view["history"][-1]
    assert resolved["set_aside"] == ["B1"]
    assert resolved["captains"] == {"red": 1, "blue": 2}
    assert view["phase"] == "over"


def test_seat_view_holds_only_its_own_card_at_the_start():
    state = table(SIX)
    for seat, card in enumerate(SIX, 1):
        view = seat_view(state, seat)
        assert view["card"] == card
        assert view["known"] == {seat: card}
        assert cards_in(view) == {card}, view


def test_seat_view_adds_what_the_seat_scouted():
    state, _ = play(table(SIX), scout(1, 5), end(1))
    assert seat_view(state, 1)["known"] == {1: "R1", 5: "R4"}
    assert cards_in(seat_view(state, 1)) == {"R1", "R4"}


def test_scout_result_reaches_no_other_seat():
    state, _ = play(table(SIX), scout(1, 5), end(1))
    for seat in range(2, 7):
        view = seat_view(state, seat)
        assert view["known"] == {seat: SIX[seat - 1]}
        assert cards_in(view) == {SIX[seat - 1]}, view


def test_scouted_seat_is_not_told_the_scouts_card():
    state, _ = play(table(SIX), scout(1, 5), end(1))
    assert seat_view(state, 5)["learned"] == [{"type": "your_card", "card": "R4"}]


def test_what_a_seat_is_told_stays_out_of_the_public_view():
    state, _ = play(table(SIX), scout(1, 5))
    assert cards_in(public_view(state)) == set()
    told = {"type": "scout_result", "target": 5, "card": "R4"}
    assert seat_view(state, 1)["learned"][-1] == told


def test_seat_view_hides_nothing_at_the_end():
    state, _ = apply(table(SIX), decap(1, 3))
    assert seat_view(state, 2)["known"] == dict(enumerate(SIX, 1))


def test_public_phase_hides_the_spy_at_work():
    cards = ("R1", "SPY", "B7", "B4", "R4", "B3")
    state, _ = apply(table(cards, variants=Variants(spy=True), first=3), decap(3, 5))
    view = public_view(state)
    assert view["phase"] == "decapitation"
    assert cards_in(view) == set()
