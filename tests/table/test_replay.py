"""A finished game's replay shows every card at every step, from its record."""

from __future__ import annotations

import pytest

from engine import Action, Variants, to_record
from engine.state import start_state
from engine.turns import apply
from handlers.table.replay import replay_view


def describe(state, action) -> str:
    return f"{action.act} by {action.seat}"


def test_the_replay_steps_through_a_swap_to_the_end():
    deal = ("R1", "BX", "R4", "B3", "R7", "B1", "R3")
    state = start_state(
        variants=Variants(turncoat=True),
        names=tuple(f"P{i}" for i in range(1, 8)),
        virtual=(False,) * 7,
        deal=deal,
        set_aside=("B5",),
        first=1,
    )
    for action in (
        Action("scout", 1, target=2),
        Action("swap", 2),
        Action("end_turn", 1),
        Action("decapitate", 2, target=3),
    ):
        state, _ = apply(state, action)
    replay = replay_view(
        to_record(state), lang="en", selector="r1_2", title="T", describe=describe
    )
    assert [s["card"] for s in replay["seats"]] == list(deal)
    assert [s["text"] for s in replay["steps"]] == [
        "scout by 1",
        "swap by 2",
        "end_turn by 1",
        "decapitate by 2",
    ]
    assert replay["steps"][1]["cards"][:2] == ["BX", "R1"]  # the swap, as it happened
    assert replay["steps"][0]["waiting"] == 2  # the Turncoat decides
    assert replay["result"]["winner"] == state.outcome.winner
    assert replay["set_aside"] == ["B5"]
    assert replay["version"]


def test_a_game_still_in_play_has_no_replay():
    state = start_state(
        variants=Variants(),
        names=("A", "B", "C", "D"),
        virtual=(False,) * 4,
        deal=("R1", "B7", "R4", "B3"),
        set_aside=(),
        first=1,
    )
    state, _ = apply(state, Action("scout", 1, target=2))
    with pytest.raises(ValueError):
        replay_view(to_record(state), lang="en", selector="r1_2", title="T", describe=describe)
