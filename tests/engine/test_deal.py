"""Setup: seats, the coloured cards for the seat count, neutrals, the deal and the first player."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from engine import Variants, new_game

NEUTRAL_SETS = {
    "no neutrals": {},
    "observer": {"observer": True},
    "spy": {"spy": True},
    "both neutrals": {"observer": True, "spy": True},
}
SETUPS = [
    pytest.param(humans, virtual, uncertain, neutral, id=f"{humans}h-{virtual}v-{u}-{neutral}")
    for humans, virtual, (uncertain, u), neutral in itertools.product(
        range(4, 13), range(3), ((False, "plain"), (True, "uncertain")), NEUTRAL_SETS
    )
]


def _names(humans: int) -> list[str]:
    return [f"P{i}" for i in range(1, humans + 1)]


def _game(humans: int, virtual: int, uncertain: bool, neutral: str, seed: int = 7):
    variants = Variants(
        virtual_players=virtual, uncertain_sides=uncertain, **NEUTRAL_SETS[neutral]
    )
    state, events = new_game(_names(humans), variants, seed=seed)
    return variants, state, events


def _everything(state) -> list[str]:
    return [*state.cards, *state.set_aside]


@pytest.mark.parametrize(("humans", "virtual", "uncertain", "neutral"), SETUPS)
def test_setup_follows_the_card_for_every_player_count(humans, virtual, uncertain, neutral):
    variants, state, _ = _game(humans, virtual, uncertain, neutral)
    seats = humans + virtual
    where = f"deal={state.cards} aside={state.set_aside}"
    assert state.seats == seats, "every count is a count of seats, virtual players included"
    assert sum(state.virtual) == virtual
    per_colour = math.ceil(seats / 2) + (1 if uncertain and seats % 2 == 0 else 0)
    everything = _everything(state)
    for letter in "RB":
        mine = [c for c in everything if c.startswith(letter)]
        assert len(mine) == per_colour, f"{letter}: n=ceil(S/2) (+1 uncertain, even S); {where}"
        if seats <= 6:
            assert not {c[1:] for c in mine} & {"2", "6", "X"}, f"S<=6 removes 2/6/X; {where}"
    neutrals = {c for c in everything if c in ("OBS", "SPY")}
    wanted = {c for c, on in (("OBS", variants.observer), ("SPY", variants.spy)) if on}
    assert neutrals == wanted, f"neutrals are added only with their variant; {where}"
    assert len(everything) == 2 * per_colour + len(wanted), "everything undealt is set aside"
    assert len(state.set_aside) == len(everything) - seats
    assert not [c for c, k in Counter(everything).items() if k > 1], f"no duplicates; {where}"
    assert not state.virtual[state.first - 1], "the first player is always human"
    assert sorted(n for n, v in zip(state.names, state.virtual, strict=True) if not v) == sorted(
        _names(humans)
    )


def test_set_aside_count_is_one_for_odd_seats_and_zero_for_even_seats_without_variants():
    for humans in range(4, 13):
        state, _ = new_game(_names(humans), seed=humans)
        assert len(state.set_aside) == humans % 2, state.set_aside


def test_uncertain_sides_sets_aside_exactly_two_coloured_cards_for_even_seats():
    for humans in (4, 6, 8, 10, 12):
        state, _ = new_game(_names(humans), Variants(uncertain_sides=True), seed=humans)
        assert len(state.set_aside) == 2, state.set_aside


def test_uncertain_sides_changes_nothing_for_odd_seats():
    for humans in (5, 7, 9, 11):
        state, _ = new_game(_names(humans), Variants(uncertain_sides=True), seed=humans)
        assert len(state.set_aside) == 1, state.set_aside


def test_each_neutral_adds_one_more_set_aside_card():
    for humans in (4, 5, 8, 9):
        plain, _ = new_game(_names(humans), seed=3)
        both, _ = new_game(_names(humans), Variants(observer=True, spy=True), seed=3)
        assert len(both.set_aside) == len(plain.set_aside) + 2


def test_a_neutral_is_sometimes_dealt_and_sometimes_set_aside():
    places = set()
    for seed in range(60):
        state, _ = new_game(_names(5), Variants(observer=True), seed=seed)
        places.add("dealt" if "OBS" in state.cards else "aside")
    assert places == {"dealt", "aside"}


def test_every_allowed_card_can_be_dealt_in_a_large_game():
    seen = set()
    for seed in range(200):
        state, _ = new_game(_names(8), seed=seed)
        seen |= set(state.cards)
    assert seen == {f"{c}{r}" for c in "RB" for r in "1234567X"}


def test_each_human_is_told_only_their_own_card_and_virtual_seats_nothing():
    state, events = new_game(_names(5), Variants(virtual_players=2), seed=11)
    private = [e for e in events if e["to"] != "all"]
    assert sorted(e["to"] for e in private) == list(state.humans())
    for e in private:
        assert e == {"to": e["to"], "type": "your_card", "card": state.cards[e["to"] - 1]}
    public_cards = [e for e in events if e["to"] == "all" and "card" in str(e)]
    assert public_cards == []


def test_deal_events_announce_the_seating_and_the_first_player():
    state, events = new_game(_names(6), seed=2)
    seated = events[0]
    assert seated["type"] == "seated"
    assert [s["name"] for s in seated["seats"]] == list(state.names)
    assert events[-1] == {"to": "all", "type": "turn", "seat": state.first}


def test_first_player_is_always_human_even_with_two_virtual_seats():
    for seed in range(100):
        state, _ = new_game(_names(4), Variants(virtual_players=2), seed=seed)
        assert not state.virtual[state.first - 1], f"seed {seed}: first={state.first}"


def test_first_player_is_random():
    firsts = {new_game(_names(6), seed=seed)[0].first for seed in range(50)}
    assert len(firsts) == 6


def test_seating_is_a_random_circle():
    orders = {new_game(_names(6), seed=seed)[0].names for seed in range(20)}
    assert len(orders) > 10


def test_virtual_seats_sit_anywhere_in_the_circle():
    places = set()
    for seed in range(60):
        state, _ = new_game(_names(4), Variants(virtual_players=1), seed=seed)
        places.add(state.virtual.index(True) + 1)
    assert places == {1, 2, 3, 4, 5}


def test_same_seed_gives_the_same_game():
    variants = Variants(virtual_players=1, observer=True, spy=True)
    one = new_game(_names(7), variants, seed=12345)
    two = new_game(_names(7), variants, seed=12345)
    assert one == two


def test_different_seeds_give_different_deals():
    deals = {new_game(_names(8), seed=seed)[0].cards for seed in range(6)}
    assert len(deals) == 6


def test_game_without_a_seed_still_records_the_seed_it_used():
    state, _ = new_game(_names(4))
    assert isinstance(state.seed, int)
    assert new_game(_names(4), seed=state.seed)[0] == state


def test_three_humans_are_refused():
    with pytest.raises(ValueError, match="4 to 12"):
        new_game(_names(3))


def test_three_humans_are_refused_even_with_virtual_players():
    with pytest.raises(ValueError, match="4 to 12"):
        new_game(_names(3), Variants(virtual_players=2))


def test_thirteen_humans_are_refused():
    with pytest.raises(ValueError, match="4 to 12"):
        new_game(_names(13))


def test_more_than_two_virtual_players_are_refused():
    with pytest.raises(ValueError):
        new_game(_names(4), Variants(virtual_players=3))
