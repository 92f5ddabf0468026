"""Variant 4, Turncoat: a scouted X holder may reveal the X and swap cards with the scout."""

from __future__ import annotations

import pytest

from engine import IllegalAction, Variants, apply, legal_actions, public_view, seat_view
from engine import waiting_for as waiting
from tests.engine.helpers import (
    TIMEOUT,
    cards_in,
    decap,
    end,
    keep,
    play,
    private_events,
    public_events,
    scout,
    show,
    swap,
    table,
)

TURNCOAT = Variants(turncoat=True)
# By hand: Red holds 2, X, 6, 7 (no 4), so R2 at seat 1 leads; Blue holds 3, 1, 5, X: B1 at seat 4.
CARDS = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
# The same table with seat 3's X and seat 5's 6 exchanged: the public cannot tell them apart.
TWIN = ("R2", "B3", "R6", "B1", "RX", "B5", "R7", "BX")


def _skip_to(state, seat):
    """Let turns run out until it is `seat`'s turn."""
    while waiting(state) != seat:
        state, _ = apply(state, TIMEOUT)
    return state


def test_scouted_x_holder_chooses_after_the_scout_has_seen_the_x():
    state, events = apply(table(CARDS, variants=TURNCOAT), scout(1, 3))
    kinds = [(e["to"], e["type"]) for e in events]
    assert kinds.index((1, "scout_result")) < kinds.index((3, "turncoat_offer"))
    assert private_events(events, 1)[0]["card"] == "RX"
    assert state.phase == "turncoat"
    assert waiting(state) == 3
    assert legal_actions(state, 3) == [swap(3), keep(3)]
    assert legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        apply(state, end(1))


def test_without_the_variant_an_x_has_no_power():
    state, events = apply(table(CARDS), scout(1, 3))
    assert state.phase == "speak"
    assert not private_events(events, 3)


def test_only_a_scouted_x_offers_the_choice():
    state, _ = apply(table(CARDS, variants=TURNCOAT), scout(1, 2))
    assert state.phase == "speak"


def test_x_holder_who_scouts_gets_no_choice():
    state, _ = apply(table(CARDS, variants=TURNCOAT, first=3), scout(3, 1))
    assert state.phase == "speak"
    assert waiting(state) == 3


def test_swapped_x_lies_face_up_in_front_of_the_scout():
    state, _ = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3))
    assert (state.cards[0], state.cards[2]) == ("RX", "R2"), show(state)
    seats = public_view(state)["seats"]
    assert seats[0]["face_up"] == "RX"
    assert seats[2]["face_up"] is None, "the card given to the X holder stays face down"
    assert state.phase == "speak"
    assert waiting(state) == 1, "the scout then speaks"


def test_former_x_holder_now_sees_the_card_received():
    state, events = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3))
    assert {"to": 3, "type": "new_card", "card": "R2", "source": 1} in events
    assert {"to": 1, "type": "new_card", "card": "RX", "source": 3} in events
    assert {"to": 1, "type": "speak_now"} in events
    assert seat_view(state, 3)["card"] == "R2"


def test_both_parties_know_both_cards_after_a_swap():
    state, _ = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3))
    assert seat_view(state, 1)["known"] == {1: "RX", 3: "R2"}
    assert seat_view(state, 3)["known"] == {1: "RX", 3: "R2"}


def test_the_swap_is_public_but_not_the_card_the_x_holder_received():
    state, events = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3))
    assert {"to": "all", "type": "swapped", "seat": 3, "scout": 1, "card": "RX"} in events
    assert cards_in(public_events(events)) == {"RX"}
    assert cards_in(public_view(state)) == {"RX"}
    assert seat_view(state, 5)["known"] == {1: "RX", 5: "R6"}


def test_swapped_x_has_no_power_any_more():
    state, _ = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3), end(1))
    state, events = apply(state, scout(2, 1))
    assert private_events(events, 2)[0]["card"] == "RX"
    assert state.phase == "speak", "a face-up X offers no second swap"
    assert not private_events(events, 1)


def test_former_x_holder_is_captain_by_the_card_received():
    state, _ = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3), end(1))
    state = _skip_to(state, 3)
    state, _ = apply(state, decap(3, 4))
    assert state.outcome.captains == {"red": 3, "blue": 4}
    assert state.outcome.winner == "red", show(state)


def test_scout_holding_the_swapped_x_is_no_longer_captain():
    state, _ = play(table(CARDS, variants=TURNCOAT), scout(1, 3), swap(3), end(1))
    state = _skip_to(state, 1)
    state, _ = apply(state, decap(1, 4))
    assert state.outcome.winner == "blue", show(state)
    assert "attacker_not_captain" in state.outcome.reasons


def test_teams_are_judged_by_the_cards_held_at_resolution():
    # Blue's captain (B1, seat 4) scouts the Red X and takes it: seat 3 now holds B1 for Blue.
    state = table(CARDS, variants=TURNCOAT, first=4)
    state, _ = play(state, scout(4, 3), swap(3), end(4))
    assert (state.cards[2], state.cards[3]) == ("B1", "RX")
    state = _skip_to(state, 3)
    state, _ = apply(state, decap(3, 1))
    assert state.outcome.captains == {"red": 1, "blue": 3}
    assert state.outcome.winner == "blue", show(state)


def test_keep_changes_no_card_and_the_scout_speaks():
    state, _ = apply(table(CARDS, variants=TURNCOAT), scout(1, 3))
    state, events = apply(state, keep(3))
    assert state.cards == CARDS
    assert state.face_up == frozenset()
    assert (state.phase, waiting(state)) == ("speak", 1)
    assert {"to": 3, "type": "kept", "scout": 1} in events
    assert {"to": 1, "type": "speak_now"} in events, "the scout is told it may speak now"
    assert public_events(events) == []


def test_turncoat_silence_counts_as_keep():
    kept, kept_events = play(table(CARDS, variants=TURNCOAT), scout(1, 3), keep(3))
    silent, silent_events = play(table(CARDS, variants=TURNCOAT), scout(1, 3), TIMEOUT)
    assert silent.cards == kept.cards
    assert (silent.phase, waiting(silent)) == ("speak", 1)
    assert silent_events == kept_events


def test_public_view_while_the_x_holder_decides_looks_like_any_speaking_moment():
    deciding, deciding_events = apply(table(CARDS, variants=TURNCOAT), scout(1, 3))
    plain, plain_events = apply(table(TWIN, variants=TURNCOAT), scout(1, 3))
    assert deciding.phase == "turncoat" and plain.phase == "speak"
    assert public_view(deciding) == public_view(plain)
    assert public_events(deciding_events) == public_events(plain_events)


def test_a_keep_never_reaches_the_public():
    kept, kept_events = play(table(CARDS, variants=TURNCOAT), scout(1, 3), keep(3), end(1))
    plain, plain_events = play(table(TWIN, variants=TURNCOAT), scout(1, 3), end(1))
    assert public_view(kept) == public_view(plain)
    assert public_events(kept_events) == public_events(plain_events)
    assert seat_view(kept, 2) == seat_view(plain, 2), "a third seat cannot tell either"


def test_a_timed_out_choice_never_reaches_the_public():
    silent, _ = play(table(CARDS, variants=TURNCOAT), scout(1, 3), TIMEOUT)
    plain, _ = apply(table(TWIN, variants=TURNCOAT), scout(1, 3))
    assert public_view(silent) == public_view(plain)


def test_virtual_x_never_offers_the_choice():
    variants = Variants(turncoat=True, virtual_players=1)
    state = table(CARDS, variants=variants, virtual=[3])
    state, events = apply(state, scout(1, 3))
    assert state.phase == "speak"
    assert waiting(state) == 1
    assert all(e["to"] in ("all", 1) for e in events)


def _x_swapped_between_8_and_3():
    """Seat 8 (Blue X) scouts seat 3 (Red X), who swaps: 8 shows the Red X, 3 holds the Blue X."""
    state = _skip_to(table(CARDS, variants=TURNCOAT), 8)
    state, _ = play(state, scout(8, 3), swap(3), end(8))
    assert state.cards[2] == "BX" and state.cards[7] == "RX", show(state)
    return state


def test_an_x_received_face_down_keeps_its_power():
    state = _x_swapped_between_8_and_3()
    assert public_view(state)["seats"][2]["face_up"] is None, show(state)
    state, _ = apply(state, scout(1, 3))
    assert waiting(state) == 3 and state.phase == "turncoat", show(state)


def test_a_face_up_x_stays_face_up_when_it_changes_hands_again():
    state = _skip_to(_x_swapped_between_8_and_3(), 8)
    state, _ = play(state, scout(8, 3), swap(3), end(8))
    seats = public_view(state)["seats"]
    assert (seats[2]["face_up"], seats[7]["face_up"]) == ("RX", "BX"), show(state)
    state, _ = apply(_skip_to(state, 1), scout(1, 3))
    assert state.phase == "speak", "a face-up X has no power: " + show(state)
