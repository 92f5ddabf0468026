"""The aftermath, pure: what each seat learned on which turn, and the first turn after which the
table's scouts, pooled, decided both captains (the ruling in docs/rules.md)."""

from __future__ import annotations

from engine import Variants, apply
from engine.aftermath import (
    PREDICTION,
    SCOUTED,
    SPY_GUESS,
    TOOK_X,
    TURNCOAT_KEPT,
    TURNCOAT_SWAPPED,
    Fact,
    decided,
    knowable_from,
    learned_by,
)
from engine.views import all_events
from tests.engine.helpers import (
    TIMEOUT,
    decap,
    end,
    guess,
    keep,
    play,
    predict,
    scout,
    swap,
    table,
)

# Four seats: Red holds 4 and 7 (with the 4 the highest leads: R7, seat 2), Blue 1 and 7 (B1).
FOUR = ("R4", "R7", "B1", "B7")


def test_each_seat_learns_its_scouts_in_turn_order_with_the_card_it_saw():
    state, _ = play(
        table(FOUR),
        scout(1, 2),
        end(1),
        scout(2, 1),
        end(2),
        scout(3, 4),
        end(3),
        scout(4, 3),
        end(4),
        scout(1, 4),
        end(1),
        decap(2, 3),
    )
    facts = learned_by(state)
    assert facts[1] == [Fact(1, SCOUTED, 2, "R7"), Fact(5, SCOUTED, 4, "B7")]
    assert facts[2] == [Fact(2, SCOUTED, 1, "R4")]
    assert facts[3] == [Fact(3, SCOUTED, 4, "B7")]
    assert facts[4] == [Fact(4, SCOUTED, 3, "B1")]


def test_the_captains_are_knowable_after_the_turn_whose_scout_completes_what_decides_them():
    state = table(FOUR)
    turns = [scout(1, 2), end(1), scout(2, 1), end(2), scout(3, 4), end(3), scout(4, 3), end(4)]
    for done in range(0, len(turns), 2):  # after each whole turn but the fourth: not yet
        now, _ = play(state, *turns[:done])
        assert knowable_from(now) is None, f"decided too early, after {done // 2} turns"
    state, _ = play(state, *turns, decap(1, 3))
    assert knowable_from(state) == 4


def test_a_game_decapitated_before_the_scouts_decide_the_captains_never_knew_them():
    state, _ = play(table(FOUR), scout(1, 2), end(1), decap(2, 3))
    assert knowable_from(state) is None
    state, _ = play(table(FOUR), decap(1, 3))
    assert knowable_from(state) is None


def test_pooled_knowledge_leaves_the_players_own_cards_out():
    """Every seat knows its own card: were those pooled, every game would be decided at once."""
    state, _ = play(table(FOUR), scout(1, 2), end(1), scout(2, 1), end(2), decap(3, 2))
    assert knowable_from(state) is None


def test_the_rules_decide_a_captain_whatever_the_seat_nobody_scouted_holds():
    """Six seats, no set-aside card: Red is all known (R1 leads); Blue holds the 4 (the highest
    leads) and the 7, so the sixth seat's blue card, whichever it is, leaves B7 leading."""
    known = {1: "R1", 2: "R3", 3: "R5", 4: "B4", 5: "B7"}
    assert decided(table(("R1", "R3", "R5", "B4", "B7", "B1")), known)
    other = {1: "R1", 2: "R3", 3: "R5", 4: "B3", 5: "B5"}  # seat 6: B1 leads, B4 gives it B5
    assert not decided(table(("R1", "R3", "R5", "B3", "B5", "B1")), other)


def test_a_captain_on_one_of_two_unknown_seats_is_not_decided():
    known = {1: "R1", 2: "R3", 3: "R5", 4: "B4"}  # seats 5 and 6: two blues, the higher leads
    assert not decided(table(("R1", "R3", "R5", "B4", "B1", "B7")), known)
    known = {1: "R1", 2: "R3", 3: "R5", 6: "B7"}  # with the 4 among them, B7 would lead
    assert not decided(table(("R1", "R3", "R5", "B4", "B1", "B7")), known)


def test_uncertain_sides_leave_open_whether_a_card_is_in_play():
    """With uncertain sides two cards are set aside: Red's known 1, 3, 5 may be all of Red on
    the seats, or a fourth red (the 4, say) may sit on the seat nobody saw."""
    sides = Variants(uncertain_sides=True)
    cards = ("R1", "R3", "R5", "B4", "B7", "B1")
    known = {1: "R1", 2: "R3", 3: "R5", 4: "B4", 5: "B7"}
    assert decided(table(cards), known)
    assert not decided(table(cards, variants=sides), known)


def test_with_the_observer_in_the_deal_the_last_unseen_seat_decides_it():
    """Seven seats and the Observer: four of each colour, one card set aside. Red's 1, 3, 5
    and Blue's 4, 7 seen, the seventh seat may hold the Observer or a fourth red."""
    cards = ("R1", "R3", "R5", "B4", "B7", "B1", "B2")
    known = {1: "R1", 2: "R3", 3: "R5", 4: "B4", 5: "B7", 6: "B1"}
    aside = ["R2", "OBS"]
    assert not decided(table(cards, variants=Variants(observer=True), set_aside=aside), known)
    assert decided(
        table(cards, variants=Variants(observer=True), set_aside=aside), known | {7: "B2"}
    )


def test_the_turncoat_swap_is_known_to_both_seats_and_moves_the_pooled_cards():
    turncoat = Variants(turncoat=True)
    cards = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
    state, _ = play(table(cards, variants=turncoat), scout(1, 3), swap(3), end(1), decap(2, 4))
    facts = learned_by(state)
    assert facts[1] == [Fact(1, SCOUTED, 3, "RX"), Fact(1, TOOK_X, 3, "RX")]
    assert facts[3] == [Fact(1, TURNCOAT_SWAPPED, 1, "R2")]


def test_a_turncoat_who_keeps_knows_who_saw_the_x():
    turncoat = Variants(turncoat=True)
    cards = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
    state, _ = play(table(cards, variants=turncoat), scout(1, 3), keep(3), end(1), decap(2, 4))
    assert learned_by(state)[3] == [Fact(1, TURNCOAT_KEPT, 1)]


def test_the_observer_prediction_is_its_fact_and_the_spy_guess_its_own():
    observer = Variants(observer=True)
    state, _ = play(
        table(("R1", "OBS", "B7", "B4", "R4", "B3"), variants=observer, first=2),
        scout(2, 1),
        predict(2, "blue"),
        decap(3, 5),
    )
    assert learned_by(state)[2] == [Fact(1, SCOUTED, 1, "R1"), Fact(1, PREDICTION, colour="blue")]
    spy = Variants(spy=True)
    state = table(("R1", "SPY", "B7", "B4", "R4", "B3"), variants=spy, first=3)
    state, _ = play(state, scout(3, 1), end(3))
    while state.turn != 3:
        state, _ = apply(state, TIMEOUT)
    state, _ = play(state, decap(3, 5), guess(2, 5, 3))
    turns = sum(1 for e in all_events(state) if e["type"] == "turn")
    assert learned_by(state)[2] == [Fact(turns, SPY_GUESS, seats=(5, 3))]
