"""A seat's view keeps to the contract, carries only what that seat was told, and its version
changes exactly when what it shows does."""

from __future__ import annotations

import json

import pytest

from engine import Action, Variants
from handlers.table.view import stamped, view_problems, view_version
from tests.support.table_game import TableGame

NOW = 1_800_000_000.0


@pytest.fixture
def game() -> TableGame:
    return TableGame.deal(NOW)


def test_every_seat_is_shown_a_view_that_keeps_to_the_contract(game):
    game.act(Action("scout", 1, target=3), NOW)
    for seat in range(1, 5):
        assert view_problems(game.view_of(seat)) == []
    game.act(Action("end_turn", 1), NOW)
    game.act(Action("decapitate", 2, target=3), NOW)
    for seat in range(1, 5):
        view = game.view_of(seat)
        assert view_problems(view) == []
        assert view["result"]["winner"] in ("red", "blue")


def test_a_scouted_card_reaches_the_scout_and_nobody_else(game):
    game.act(Action("scout", 1, target=3), NOW)
    scout = game.view_of(1)
    assert scout["seats"][2]["card"] == "R4"
    assert scout["you"]["facts"] == [{"kind": "scouted", "seat": 3, "card": "R4"}]
    for seat in (2, 4):
        shown = json.dumps(game.view_of(seat))
        assert '"R4"' not in shown


def test_a_seat_knows_its_own_card_and_no_other_before_scouting(game):
    view = game.view_of(2)
    assert view["you"]["card"] == "B7"
    assert [s["card"] for s in view["seats"]] == [None, "B7", None, None]
    assert [s["you"] for s in view["seats"]] == [False, True, False, False]


def test_the_version_ignores_the_servers_time_and_follows_the_view(game):
    view = game.view_of(1)
    assert stamped(view, NOW)["version"] == stamped(view, NOW + 30)["version"]
    assert stamped(view, NOW)["now"] == NOW
    game.act(Action("scout", 1, target=3), NOW)
    assert view_version(game.view_of(1)) != view_version(view)


def test_a_turncoats_silent_keep_changes_no_version_but_the_scouts():
    """Ann scouts Bo's X; Bo keeps it. Only Ann, now free to speak, sees a new view: Cai's and
    Dee's versions cannot tell that an X was scouted and kept."""
    deal = ("R1", "BX", "R4", "B3", "R7", "B1", "R3", "B5")
    game = TableGame.deal(NOW, Variants(turncoat=True), deal)
    game.act(Action("scout", 1, target=2), NOW)
    before = {seat: view_version(game.view_of(seat)) for seat in range(1, 9)}
    assert game.view_of(2)["you"]["moves"] == {"swap": {"with": 1}, "keep": {}}
    game.act(Action("keep", 2), NOW)
    after = {seat: view_version(game.view_of(seat)) for seat in range(1, 9)}
    changed = [seat for seat in before if before[seat] != after[seat]]
    assert changed == [1, 2]  # the scout may speak now; the Turncoat's offer is gone


def test_the_contract_check_names_what_is_wrong(game):
    view = game.view_of(1)
    broken = {**view, "phase": "lunch", "seats": view["seats"][:2]}
    problems = view_problems(broken)
    assert "phase" in problems and "seats numbered" in problems
    leaky = {**view, "you": {**view["you"], "facts": [{"kind": "rumour"}]}}
    assert any(p.startswith("fact") for p in view_problems(leaky))


def test_the_variants_in_play_are_named_as_the_engine_names_them():
    game = TableGame.deal(NOW, Variants(bodyguards=True, turncoat=True))
    assert game.view_of(1)["variants"] == ["turncoat", "bodyguards"]
