"""A seat's view keeps to the contract, carries only what that seat was told, and its version
changes exactly when what it shows does."""

from __future__ import annotations

import json

import pytest

from engine import Action, Variants
from engine.actions import END_TURN, KEEP, SCOUT, SWAP
from handlers.display.table_view import seat_view
from handlers.table.view import stamped, view_problems, view_version
from testing.deals import find_seed, lone_x, x_apart
from tests.support.table_game import TableGame
from tests.support.tables import NOW as T
from tests.support.tables import started

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


def test_the_turncoats_pause_is_a_pause_for_every_seat_until_it_ends():
    """After a scout the bot pauses for the Turncoat's window: every seat's view says the game
    is paused (the scout speaks after it), whether or not an X was scouted; then it is not."""

    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=10)
    first, holder = table.state.first, lone_x(table.state)
    assert [seat_view(table, s)["pause"] for s in range(1, 8)] == [False] * 7
    table.act(table.user_at(first), Action(SCOUT, first, target=holder), T)
    views = [seat_view(table, s) for s in range(1, 8)]
    assert [v["pause"] for v in views] == [True] * 7
    assert all(view_problems(v) == [] for v in views)
    table.catch_up(T + 10)
    assert [seat_view(table, s)["pause"] for s in range(1, 8)] == [False] * 7


TURNCOAT_DEAL = ("R1", "BX", "R4", "B3", "R7", "B1", "R3", "B5")


def cai_scouts_bos_x_after_ann_scouted_cai() -> TableGame:
    """Ann scouts Cai (Red 4); Bo scouts Dee; Cai scouts Bo's X and Bo swaps."""
    game = TableGame.deal(NOW, Variants(turncoat=True), TURNCOAT_DEAL)
    for seat, target in ((1, 3), (2, 4)):
        game.act(Action("scout", seat, target=target), NOW)
        game.act(Action("end_turn", seat), NOW)
    game.act(Action("scout", 3, target=2), NOW)
    game.act(Action("swap", 2), NOW)
    return game


def test_a_scout_of_a_seat_that_swapped_since_is_marked_stale():
    game = TableGame.deal(NOW, Variants(turncoat=True), TURNCOAT_DEAL)
    game.act(Action("scout", 1, target=3), NOW)
    assert game.view_of(1)["you"]["facts"] == [{"kind": "scouted", "seat": 3, "card": "R4"}]
    game = cai_scouts_bos_x_after_ann_scouted_cai()
    ann = game.view_of(1)
    assert ann["you"]["facts"] == [{"kind": "scouted", "seat": 3, "card": "R4", "stale": True}]
    assert ann["seats"][2]["card"] == "BX" and ann["seats"][2]["face_up"] is True
    assert view_problems(ann) == []
    dee = game.view_of(4)  # scouted by Bo, never scouted anyone: no stale fact of its own
    assert dee["you"]["facts"] == []


def strike(variants: Variants, deal: tuple[str, ...], target: int, guess=None) -> TableGame:
    """Ann decapitates `target` on her first turn; the Spy guesses `guess` (red, blue)."""
    game = TableGame.deal(NOW, variants, deal)
    game.act(Action("decapitate", 1, target=target), NOW)
    if guess is not None:
        spy = deal.index("SPY") + 1
        game.act(Action("spy_guess", spy, red=guess[0], blue=guess[1]), NOW)
    return game


def test_the_end_says_the_target_who_won_alone_and_whether_you_won():
    game = strike(Variants(observer=True, spy=True), ("R1", "B7", "OBS", "SPY"), 2, (1, 2))
    views = [game.view_of(seat) for seat in range(1, 5)]
    result = views[0]["result"]
    assert (result["winner"], result["attacker"], result["target"]) == ("red", 1, 2)
    assert result["reasons"] == []
    assert result["observer"] == {"seat": 3, "won": False, "predicted": None}
    assert result["spy"] == {"seat": 4, "won": True, "guess": {"red": 1, "blue": 2}}
    assert [v["result"]["you_won"] for v in views] == [True, False, False, True]
    assert all(view_problems(v) == [] for v in views)


def test_the_end_says_why_a_strike_failed():
    game = strike(Variants(), ("R1", "B7", "R4", "B3"), 3)
    result = game.view_of(2)["result"]
    assert (result["winner"], result["target"]) == ("blue", 3)
    assert result["reasons"] == ["attacker_not_captain", "target_not_captain"]
    assert (result["observer"], result["spy"], result["you_won"]) == (None, None, True)


def test_a_swap_in_the_turncoats_window_makes_no_scout_stale_until_the_window_ends():
    """Ann scouted the Turncoat earlier; the next player scouts it and it swaps. Until the
    window ends Ann's view cannot tell (her scout stays current); then her scout is stale."""

    seed, _ = find_seed(7, Variants(turncoat=True), lambda s: x_apart(s, s.first, s.first % 7 + 1))
    table = started(7, seed, turncoat=True, turncoat_seconds=10)
    ann, holder = table.state.first, lone_x(table.state)
    bo = ann % 7 + 1
    table.act(table.user_at(ann), Action(SCOUT, ann, target=holder), T)
    table.act(table.user_at(holder), Action(KEEP, holder), T + 1)
    table.catch_up(T + 10)
    table.act(table.user_at(ann), Action(END_TURN, ann), T + 11)
    table.act(table.user_at(bo), Action(SCOUT, bo, target=holder), T + 12)
    before = seat_view(table, ann)
    table.act(table.user_at(holder), Action(SWAP, holder), T + 13)
    during = seat_view(table, ann)
    assert during == before
    assert "stale" not in during["you"]["facts"][0] and during["pause"] is True
    table.catch_up(T + 22)
    assert seat_view(table, ann)["you"]["facts"][0]["stale"] is True
