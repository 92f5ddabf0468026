"""What a seat knows: one rule, whether read from a whole game or kept up event by event."""

from __future__ import annotations

import random

import pytest

from engine import Action, Variants, apply, legal_actions, new_game, waiting_for
from engine.events import deal_events
from engine.knowledge import Knowledge, known_from
from engine.policies import InformedPolicy
from engine.views import known_cards
from tests.engine.helpers import end, play, predict, scout, swap, table

ALL_ON = Variants(
    virtual_players=2,
    no_first_round_decapitation=True,
    uncertain_sides=True,
    turncoat=True,
    bodyguards=True,
    observer=True,
    spy=True,
)


def _random_game(humans: int, variants: Variants, seed: int, decisions: int = 40):
    """States and events of a seeded game that scouts a lot and rarely strikes or times out."""
    rng = random.Random(seed)
    state, events = new_game([f"P{i}" for i in range(1, humans + 1)], variants, seed=seed)
    yield state, events
    for _ in range(decisions):
        if state.over:
            return
        legal = legal_actions(state, waiting_for(state))
        calm = [a for a in legal if a.act != "decapitate"] or legal
        roll = rng.random()
        action = Action("timeout") if roll < 0.05 else rng.choice(legal if roll > 0.9 else calm)
        state, events = apply(state, action)
        yield state, events


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("variants", [Variants(), Variants(turncoat=True, observer=True), ALL_ON])
def test_kept_knowledge_matches_the_views_at_every_step(variants, seed):
    kept = Knowledge()
    for state, events in _random_game(8, variants, seed):
        kept.observe(events)
        if state.over:
            break
        for seat in range(1, state.seats + 1):
            assert dict(sorted(kept.of(seat).items())) == known_cards(state, seat), (seed, seat)


def test_a_swap_tells_both_seats_and_everyone_what_moved():
    cards = ("R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX")
    state = table(cards, variants=Variants(turncoat=True))
    _, events = play(state, scout(1, 3), swap(3))
    events = deal_events(state) + events
    assert known_from(events, 1) == {1: "RX", 3: "R2"}
    assert known_from(events, 3) == {1: "RX", 3: "R2"}
    assert known_from(events, 5) == {1: "RX", 5: "R6"}


def test_a_seat_learns_nothing_from_another_seats_secrets():
    state = table(("R1", "R3", "B7", "B4", "R4", "B3"))
    _, events = play(state, scout(1, 5), end(1))
    events = deal_events(state) + events
    assert known_from(events, 2) == {2: "R3"}
    assert known_from(events, 1) == {1: "R1", 5: "R4"}


def test_a_prediction_shows_the_observer_to_everyone():
    cards = ("R1", "OBS", "B7", "B4", "R4", "B3")
    state = table(cards, variants=Variants(observer=True), first=2)
    _, events = play(state, scout(2, 1), predict(2, "red"))
    assert known_from(events, 4) == {2: "OBS"}


def test_informed_play_reads_the_kept_knowledge():
    player = InformedPolicy(random.Random(3))
    state, events = new_game([f"P{i}" for i in range(1, 9)], seed=3)
    player.observe(events)
    for _ in range(20):
        seat = waiting_for(state)
        state, events = apply(state, player.choose(state, seat))
        player.observe(events)
    for seat in state.humans():
        assert dict(sorted(player.knowledge.of(seat).items())) == known_cards(state, seat)
