"""Bot seats (engine.bots): they decide on their own seat's view only, and only legally."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Action, IllegalAction, Variants, apply, legal_actions, waiting_for
from engine.__main__ import main
from engine.bots import LEVELS, bot_view, choose
from engine.cards import color
from engine.deal import deal
from engine.simulate import simulate, simulated_minutes
from engine.state import GameState, start_state
from engine.turns import why_illegal
from engine.views import events_for
from tests.engine.helpers import decap, end, play, scout, table

# Seat counts and variants, so every variant is played, alone and together.
TABLES = [
    (4, Variants()),
    (5, Variants(no_first_round_decapitation=True)),
    (6, Variants(uncertain_sides=True)),
    (8, Variants(turncoat=True)),
    (7, Variants(bodyguards=True)),
    (6, Variants(observer=True)),
    (6, Variants(spy=True)),
    (5, Variants(virtual_players=1)),
    (6, Variants(virtual_players=2, bodyguards=True)),
    (
        12,
        Variants(
            virtual_players=2,
            no_first_round_decapitation=True,
            uncertain_sides=True,
            turncoat=True,
            bodyguards=True,
            observer=True,
            spy=True,
        ),
    ),
    (9, Variants(turncoat=True, observer=True, spy=True, uncertain_sides=True)),
]


def _level(seat: int) -> str:
    return LEVELS[seat % 2]  # learning and strong seats at one table


def _new(humans: int, variants: Variants, seed: int) -> GameState:
    return deal([f"P{i}" for i in range(1, humans + 1)], variants, seed=seed)


def test_a_bot_seat_only_ever_chooses_a_legal_action():
    for number, (seats, variants) in enumerate(TABLES):
        for seed in range(3):
            state = _new(seats - variants.virtual_players, variants, 100 * number + seed)
            rng = random.Random(seed)
            for _ in range(40 * state.seats):
                if state.over:
                    break
                seat = waiting_for(state)
                action = choose(bot_view(state, seat), _level(seat), rng).action
                offered = action._replace(claim=None)  # a claim rides on an offered end of turn
                assert offered in legal_actions(state, seat), (seats, variants, action)
                assert why_illegal(state, action) is None, (seats, variants, action)
                state, _ = apply(state, action)
            assert state.over, (seats, variants, seed)


def _redealt(state: GameState, rng: random.Random, seat: int) -> GameState | None:
    """The same decisions on another deal that moves only cards `seat` was never shown, or None
    when the decisions are not legal there."""
    seen = {e["target"] for e in events_for(state, seat) if e["type"] == "scout_result"}
    seen.add(seat)
    hidden = [s for s in range(1, state.seats + 1) if s not in seen]
    cards = list(state.deal)
    moved = [cards[s - 1] for s in hidden]
    rng.shuffle(moved)
    for s, card in zip(hidden, moved, strict=True):
        cards[s - 1] = card
    aside = list(state.set_aside)
    if aside and hidden:  # a card set aside may as well be on the table, if of the same colour
        s, i = rng.choice(hidden), rng.randrange(len(aside))
        if color(aside[i]) == color(cards[s - 1]):
            cards[s - 1], aside[i] = aside[i], cards[s - 1]
    other = start_state(
        variants=state.variants,
        names=state.names,
        virtual=state.virtual,
        deal=tuple(cards),
        set_aside=tuple(sorted(aside)),
        first=state.first,
        seed=state.seed,
    )
    try:
        for action in state.log:
            other, _ = apply(other, action)
    except IllegalAction:
        return None
    return other


def _told_apart_by_nobody(state: GameState, other: GameState | None, seat: int) -> bool:
    """True when `other` holds other cards but `seat` received the very same events."""
    if other is None or other.cards == state.cards:
        return False
    return events_for(other, seat) == events_for(state, seat)


def test_a_bot_seat_acts_the_same_on_two_deals_it_cannot_tell_apart():
    compared = 0
    spoken: Counter[str] = Counter()  # the claims and predictions among the decisions compared
    observed = [(seats, Variants(observer=True)) for seats in (5, 7, 9, 11)]  # more predictions
    for number, (seats, variants) in enumerate(TABLES + observed):
        state = _new(seats - variants.virtual_players, variants, 7 + number)
        rng = random.Random(number)
        while not state.over:
            seat = waiting_for(state)
            level = _level(seat)
            other = _redealt(state, rng, seat)
            if _told_apart_by_nobody(state, other, seat):
                pick = rng.getrandbits(32)
                mine = choose(bot_view(state, seat), level, random.Random(pick))
                theirs = choose(bot_view(other, seat), level, random.Random(pick))
                assert mine == theirs, (seats, variants, state.log)
                assert mine.action.claim == theirs.action.claim == mine.claim
                compared += 1
                spoken["claim"] += mine.claim is not None
                spoken["predict"] += mine.action.act == "predict"
            state, _ = apply(state, choose(bot_view(state, seat), level, rng).action)
    assert compared > 50  # the deals told apart by nobody were many, not a lucky few
    assert spoken["claim"] > 10 and spoken["predict"] >= 1, spoken


def test_simulate_plays_every_seat_as_a_bot_of_the_level_asked(capsys):
    assert main(["simulate", "--seats", "5", "--games", "4", "--bots", "strong"]) == 0
    out = capsys.readouterr().out
    assert "strong bot play" in out
    assert "unfinished (hit the cap)       0" in out
    assert main(["simulate", "--seats", "5", "--games", "4", "--bots", "learning"]) == 0
    assert "learning bot play" in capsys.readouterr().out


def _winner_when_one_colour_plays_strong(seats: int, seed: int, strong: str) -> str:
    """Play one seeded game in which the seats dealt `strong`'s colour play strong."""
    state = _new(seats, Variants(), seed)
    rng = random.Random(seed)
    while not state.over:
        seat = waiting_for(state)
        level = "strong" if color(state.deal[seat - 1]) == strong else "learning"
        state, _ = apply(state, choose(bot_view(state, seat), level, rng).action)
    return state.outcome.winner


def test_a_strong_bot_table_beats_a_learning_one_more_often_than_not():
    games = 40
    wins = 0
    for seed in range(games):
        strong = ("red", "blue")[seed % 2]
        wins += _winner_when_one_colour_plays_strong(6, seed, strong) == strong
    assert wins > games / 2


SIX = ("R1", "R3", "B7", "B4", "R4", "B3")


def _speaks(state: GameState, level: str = "strong", seed: int = 0):
    seat = waiting_for(state)
    return choose(bot_view(state, seat), level, random.Random(seed))


def test_a_strong_bot_tells_the_truth_about_the_other_colours_card_it_scouted():
    state, _ = play(table(SIX), scout(1, 3))
    picked = _speaks(state)
    assert picked.claim == "3:B7"
    assert picked.action == Action("end_turn", 1, claim="3:B7")
    assert picked.why == {"knew": {"1": "R1", "3": "B7"}, "claimed": "3:B7", "true": True}


def test_a_strong_bot_bluffs_about_a_card_of_its_own_colour_it_scouted():
    state, _ = play(table(SIX), scout(1, 2))
    for seed in range(10):
        picked = _speaks(state, seed=seed)
        about, card = picked.claim.split(":")
        assert about == "2" and color(card) == "blue", picked
        assert picked.why["true"] is False


def test_a_learning_bot_claims_true_and_false_at_random():
    state, _ = play(table(SIX), scout(1, 2))
    truths = {_speaks(state, "learning", seed).why.get("true") for seed in range(40)}
    assert truths == {True, False, None}  # None: it said nothing


# The Spy (seat 1) heard seats 2 and 3 claim about its own card, one of them falsely, then each
# name a different seat as holding Blue 1.
SPY_TABLE = ("SPY", "R1", "B3", "R3", "B4", "R5")


@pytest.mark.parametrize(("liar", "believed"), [(2, 5), (3, 4)])
def test_a_bot_believes_the_speaker_it_found_truthful_over_one_it_caught_lying(liar, believed):
    about_me = {liar: "1:R1", 5 - liar: "1:SPY"}
    state = table(SPY_TABLE, variants=Variants(spy=True))
    state, _ = play(
        state,
        scout(1, 6),
        end(1),
        scout(2, 1),
        Action("end_turn", 2, claim=about_me[2]),
        scout(3, 1),
        Action("end_turn", 3, claim=about_me[3]),
        *(a for s in (4, 5, 6, 1) for a in (scout(s, 2), end(s))),
        scout(2, 4),
        Action("end_turn", 2, claim="4:B1"),
        scout(3, 5),
        Action("end_turn", 3, claim="5:B1"),
        decap(4, 2),
    )
    picked = _speaks(state)
    assert picked.action.act == "spy_guess"
    assert picked.action.blue == believed, picked.why


def _observer_games(seats: int, games: int, level: str) -> tuple[int, int]:
    """(games the Observer predicted in, games it won) over seeded tables of bots at `level`."""
    predicted = won = 0
    for seed in range(games):
        state = _new(seats, Variants(observer=True), seed)
        rng = random.Random(seed)
        while not state.over:
            seat = waiting_for(state)
            state, _ = apply(state, choose(bot_view(state, seat), level, rng).action)
        holder = state.holder("OBS")
        if holder is None:
            continue
        if state.prediction:
            predicted += 1
            won += state.prediction[1] == state.outcome.winner
    return predicted, won


def test_an_observer_bot_predicts_from_its_belief_and_is_right_more_often_than_not():
    predicted, won = _observer_games(7, 30, "strong")
    assert predicted >= 10
    assert won > predicted / 2


@pytest.mark.parametrize("seats", [4, 8, 12])
def test_a_strong_bot_table_ends_within_the_cards_one_to_five_simulated_minutes(seats):
    tally = simulate(seats, 8, 3, Variants(), "strong")
    assert tally.unfinished == 0
    assert 1 <= simulated_minutes(tally.decisions / tally.games) <= 5


def test_simulate_pits_one_policy_against_another_one_colour_each(capsys):
    argv = ["simulate", "--seats", "6", "--games", "4", "--bots", "strong", "--against", "random"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "strong bot against random" in out
    assert "first policy's colour wins" in out
    assert "in simulated minutes" in out
