"""A move request is read strictly, becomes the engine's decision, and the view lists the moves
the engine allows the seat."""

from __future__ import annotations

import json

import pytest

from engine import Action, Variants, apply, legal_actions
from engine.state import start_state
from handlers.table.moves import BadRequest, Move, moves_for, read_move_request, to_action


def body(**fields) -> bytes:
    request = {"g": "gm100_1", "move_id": "a1b2c3", "version": "v1", "move": {"kind": "done"}}
    return json.dumps(request | fields).encode()


def game(variants: Variants, deal=("R1", "B7", "R4", "B3"), virtual=(False,) * 4):
    names = tuple(f"P{i}" for i in range(1, len(deal) + 1))
    return start_state(
        variants=variants, names=names, virtual=virtual, deal=deal, set_aside=(), first=1
    )


def test_a_move_request_is_read():
    request = read_move_request(body(move={"kind": "scout", "target": 3}))
    assert (request.selector, request.move_id, request.version) == ("gm100_1", "a1b2c3", "v1")
    assert request.move == Move("scout", target=3)


@pytest.mark.parametrize(
    "move",
    [
        {"kind": "decapitate", "target": 2, "proxy": False, "bodyguard": True},
        {"kind": "predict", "color": "blue"},
        {"kind": "spy_guess", "red": 1, "blue": 4},
        {"kind": "swap"},
        {"kind": "keep"},
    ],
)
def test_every_kind_of_move_is_read(move):
    read = read_move_request(body(move=move))
    assert {k: v for k, v in vars_of(read.move).items() if v is not None} == move


def vars_of(move: Move) -> dict:
    return {f: getattr(move, f) for f in Move.__slots__}


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        body(extra=1),
        body(move_id=""),
        body(move_id="has space"),
        body(version=7),
        body(g="x" * 65),
        body(move={"kind": "fly"}),
        body(move={"kind": "scout"}),
        body(move={"kind": "scout", "target": True}),
        body(move={"kind": "scout", "target": "3"}),
        body(move={"kind": "scout", "target": 0}),
        body(move={"kind": "done", "target": 3}),
        body(move={"kind": "decapitate", "target": 2, "proxy": "no"}),
        body(move={"kind": "predict", "color": "green"}),
        body(move={"kind": "spy_guess", "red": 1}),
        body(move={"kind": "done", "say": "hello"}),
        body(move={"kind": "done", "pad": "x" * 3000}),
    ],
)
def test_anything_else_is_a_bad_request(raw):
    with pytest.raises(BadRequest):
        read_move_request(raw)


def test_done_ends_the_turn_and_the_other_moves_keep_their_fields():
    assert to_action(Move("done"), 2) == Action("end_turn", 2)
    assert to_action(Move("scout", target=3), 1) == Action("scout", 1, target=3)
    strike = to_action(Move("decapitate", target=4, proxy=True, bodyguard=False), 1)
    assert strike == Action("decapitate", 1, target=4, proxy=True, bodyguard=False)


def test_a_turn_lists_scouts_and_decapitations_with_the_declarations_their_variants_need():
    state = game(Variants(virtual_players=1, bodyguards=True), ("R1", "B7", "R4", "B3", "R5"))
    state = state._replace(virtual=(False, False, False, False, True))
    moves = moves_for(legal_actions(state, 1))
    assert moves == {
        "scout": [2, 3, 4, 5],
        "decapitate": {"targets": [2, 3, 4, 5], "declare": ["proxy", "bodyguard"]},
    }
    assert moves_for(legal_actions(state, 2)) == {}


def test_the_first_round_rule_leaves_only_scouts():
    state = game(Variants(no_first_round_decapitation=True))
    assert set(moves_for(legal_actions(state, 1))) == {"scout"}


def test_after_a_scout_the_observer_may_end_or_predict():
    state = game(Variants(observer=True), ("OBS", "B7", "R4", "B3"))
    state, _ = apply(state, Action("scout", 1, target=2))
    assert moves_for(legal_actions(state, 1)) == {
        "done": {},
        "predict": {"colors": ["red", "blue"]},
    }


def test_a_scouted_turncoat_may_swap_with_its_scout_or_keep():
    state = game(Variants(turncoat=True), ("R1", "BX", "R4", "B3", "R7", "B1", "R3", "B5"))
    state = state._replace(names=tuple(f"P{i}" for i in range(1, 9)), virtual=(False,) * 8)
    state, _ = apply(state, Action("scout", 1, target=2))
    assert moves_for(legal_actions(state, 2), scout=1) == {"swap": {"with": 1}, "keep": {}}
    assert moves_for(legal_actions(state, 1)) == {}


def test_the_spy_guesses_among_every_seat():
    state = game(Variants(spy=True), ("R1", "B7", "SPY", "B3"))
    state, _ = apply(state, Action("decapitate", 1, target=2))
    assert moves_for(legal_actions(state, 3)) == {"spy_guess": {"seats": [1, 2, 3, 4]}}
