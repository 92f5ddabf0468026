"""What a finished game adds to the statistics: each player's colour, roles, win and
decapitation, the group's wins and leaderboard, and the bounds the items keep."""

from __future__ import annotations

from engine import Action, captains
from engine.actions import DECAPITATE, END_TURN, PREDICT, SCOUT, SWAP
from engine.cards import OBSERVER, color
from engine.variants import Variants
from handlers.session.stats import (
    GROUPS_KEPT,
    LEADERBOARD,
    LINE_KEPT,
    add_to_group,
    add_to_player,
    add_to_players,
    finished_game,
    leaders,
)
from handlers.session.table import Table
from testing.deals import find_seed, lone_x, x_apart
from tests.support.tables import NOW, started


def decapitate(table: Table, seat: int, target: int, now: float = NOW) -> None:
    table.act(table.user_at(seat), Action(DECAPITATE, seat, target=target), now)


def test_a_finished_game_names_each_players_colour_win_and_decapitation() -> None:
    table = started(5, seed=3)
    state = table.state
    attacker, target = state.first, state.first % 5 + 1
    decapitate(table, attacker, target, NOW + 75)

    figures = finished_game(table, NOW + 75)

    final = table.state
    caps = captains(final.cards)
    assert figures["winner"] == final.outcome.winner
    assert figures["worked"] == (not final.outcome.reasons)
    assert (figures["seconds"], figures["turns"]) == (75, 1)
    for seat in range(1, 6):
        player = figures["players"][str(table.user_at(seat))]
        assert player["colour"] == color(final.cards[seat - 1])
        assert player["won"] == (player["colour"] == final.outcome.winner)
        assert player["tried"] == (seat == attacker)
        assert ("captain" in player["roles"]) == (seat in caps.values())


def test_a_right_observer_wins_and_is_counted_in_the_observers_role() -> None:
    def observer_first(state):
        return state.cards[state.first - 1] == OBSERVER

    seed, _ = find_seed(5, Variants(observer=True), observer_first)
    table = started(5, seed, observer=True)
    observer = table.state.first
    attacker = observer % 5 + 1
    table.act(table.user_at(observer), Action(SCOUT, observer, target=attacker), NOW)
    target = next(s for s in range(1, 6) if s not in (observer, attacker))
    caps, cards = captains(table.state.cards), table.state.cards
    side = color(cards[attacker - 1])
    works = caps[side] == attacker and caps["red" if side == "blue" else "blue"] == target
    winner = side if works else ("red" if side == "blue" else "blue")
    table.act(table.user_at(observer), Action(PREDICT, observer, color=winner), NOW)
    decapitate(table, attacker, target)

    figures = finished_game(table, NOW)

    seen = figures["players"][str(table.user_at(observer))]
    assert seen["roles"] == ["observer"] and seen["won"] and seen["colour"] is None
    group = add_to_group({}, figures)
    assert group["roles"]["observer"] == [1, 1]


def test_a_turncoat_who_swapped_is_counted_in_the_turncoats_role() -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=10)
    first = table.state.first
    holder = lone_x(table.state)
    table.act(table.user_at(first), Action(SCOUT, first, target=holder), NOW)
    table.act(table.user_at(holder), Action(SWAP, holder), NOW + 1)
    table.catch_up(NOW + 10)
    table.act(table.user_at(first), Action(END_TURN, first), NOW + 11)
    seat = table.state.turn
    decapitate(table, seat, seat % 7 + 1, NOW + 12)

    figures = finished_game(table, NOW + 12)

    assert "turncoat" in figures["players"][str(table.user_at(holder))]["roles"]
    others = [p for u, p in figures["players"].items() if u != str(table.user_at(holder))]
    assert not any("turncoat" in p["roles"] for p in others)


def figures_of(users: range, winner: str = "red", chat: int = -1, at: int = int(NOW)) -> dict:
    players = {
        str(u): {
            "name": f"P{u}",
            "colour": "red",
            "roles": [],
            "won": True,
            "tried": False,
            "worked": False,
        }
        for u in users
    }
    return {
        "chat": chat,
        "at": at,
        "winner": winner,
        "worked": True,
        "seconds": 60,
        "turns": 2,
        "players": players,
    }


def test_the_leaderboard_keeps_the_players_with_most_games_and_on_a_tie_the_latest() -> None:
    group: dict = {}
    group = add_to_group(group, figures_of(range(1, 5)))  # four play twice
    group = add_to_group(group, figures_of(range(1, 5)))
    for start in range(5, 5 + 60, 2):  # sixty play once each, two a game
        group = add_to_group(group, figures_of(range(start, start + 2)))

    kept = group["players"]
    assert len(kept) == LEADERBOARD
    assert {"1", "2", "3", "4"} <= set(kept)
    assert {str(u) for u in range(5, 19)}.isdisjoint(kept)  # the longest idle went first
    assert {str(u) for u in range(19, 65)} <= set(kept)
    assert group["games"] == 32 and group["wins"] == {"red": 32, "blue": 0}


def test_a_line_leaves_the_board_a_year_after_its_players_last_game_there() -> None:
    group = add_to_group({}, figures_of(range(1, 5), at=int(NOW)))
    group = add_to_group(group, figures_of(range(1, 3), at=int(NOW) + LINE_KEPT - 1))
    assert set(group["players"]) == {"1", "2", "3", "4"}  # 3 and 4 played within the year
    group = add_to_group(group, figures_of(range(5, 7), at=int(NOW) + LINE_KEPT))
    assert set(group["players"]) == {"1", "2", "5", "6"}
    assert group["players"]["5"][5] == int(NOW) + LINE_KEPT  # when they last played
    assert group["games"] == 3  # the group's own figures stay


def test_a_line_from_before_lines_were_dated_is_dated_at_the_next_game() -> None:
    board = {"players": {"9": ["P9", 3, 1, 0, 2]}, "games": 2}
    group = add_to_group(board, figures_of(range(1, 5), at=int(NOW)))
    assert group["players"]["9"] == ["P9", 3, 1, 0, 2, int(NOW)]


def test_a_players_own_item_stays_bounded_however_many_groups() -> None:
    mine: dict = {}
    for chat in range(-1, -1 - 2 * GROUPS_KEPT, -1):
        mine = add_to_player(mine, figures_of(range(1, 5), chat=chat), "1")
    assert mine["games"] == 2 * GROUPS_KEPT
    assert len(mine["groups"]) == GROUPS_KEPT and mine["groups"][0] == -2 * GROUPS_KEPT
    assert set(mine) == {
        "games",
        "seconds",
        "turns",
        "wins",
        "colours",
        "roles",
        "tried",
        "worked",
        "groups",
    }


def test_a_game_is_added_to_the_players_it_counted_for_and_no_others() -> None:
    figures = figures_of(range(1, 5))
    before = {"1": {"games": 2}, "9": {"games": 7, "wins": 1}}  # 9 was removed from it
    after = add_to_players(before, figures)
    assert after["1"] == add_to_player({"games": 2}, figures, "1")
    assert after["9"] == {"games": 7, "wins": 1}


def test_the_leaderboard_breaks_a_tie_in_wins_by_decapitations_then_by_name() -> None:
    board = {
        "1": ["Zed", 4, 2, 0, 9, 0],  # two wins, no decapitation
        "2": ["Cora", 5, 2, 1, 1, 0],  # two wins, one decapitation, more games
        "3": ["bea", 4, 2, 0, 2, 0],  # as Zed: by name, whatever the case
        "4": ["Alma", 3, 1, 3, 8, 0],  # fewer wins: after all, however many decapitations
    }
    assert [line[0] for _, line in leaders(board)] == ["Cora", "bea", "Zed", "Alma"]
