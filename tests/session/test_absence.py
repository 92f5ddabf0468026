"""Absent players: two turns run out in a row and the player is marked away, their turns then
pass at once; I'm back makes their next turn wait for them again; a removed seat plays on."""

from __future__ import annotations

import pytest

from handlers.session import events as ev
from handlers.session.table import Refused
from tests.support.tables import after, mark_away, play_until, run_out, started, take_turn

TURN = 30


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def test_two_turns_run_out_in_a_row_and_the_player_is_marked_away() -> None:
    table = started(4, turn_seconds=TURN)
    first = table.state.first
    run_out(table)
    play_until(table, first)
    events = run_out(table)
    assert [e["seat"] for e in events if e["type"] == ev.AWAY] == [first]
    assert table.is_away(first)


def test_one_turn_run_out_marks_nobody_away() -> None:
    table = started(4, turn_seconds=TURN)
    assert ev.AWAY not in kinds(run_out(table))
    assert not table.is_away(table.state.first)


def test_a_turn_taken_between_two_that_run_out_starts_the_count_again() -> None:
    table = started(4, turn_seconds=TURN)
    first = table.state.first
    run_out(table)
    play_until(table, first)
    take_turn(table)
    play_until(table, first)
    assert ev.AWAY not in kinds(run_out(table))
    assert not table.is_away(first)


def test_an_away_players_turn_passes_at_once() -> None:
    table = started(4, turn_seconds=TURN)
    away = mark_away(table)
    play_until(table, after(table, after(table, after(table, away))))  # the seat before theirs
    events = take_turn(table)
    assert table.state.turn == after(table, away), "nobody waits for the away seat"
    closed = [e for e in events if e["type"] == ev.BOARD_SHOWN and e["final"]]
    lines = [line for e in closed for line in e["board"]["lines"] if isinstance(line, dict)]
    assert {"type": "timed_out", "passed": "away"}.items() <= lines[-1].items(), lines
    assert away not in [e["seat"] for e in events if e["type"] == ev.PROMPT]


def test_im_back_makes_the_next_turn_wait_and_the_group_hears_it_then() -> None:
    table = started(4, turn_seconds=TURN)
    away = mark_away(table)
    user = table.user_at(away)
    assert kinds(table.come_back(user)) == [ev.COMING_BACK], "only the player is told, at once"
    assert table.come_back(user) == [], "asking twice changes nothing"
    play_until(table, after(table, after(table, after(table, away))))
    events = take_turn(table)
    assert table.state.turn == away
    assert [e["seat"] for e in events if e["type"] == ev.RETURNED] == [away]
    assert [e["seat"] for e in events if e["type"] == ev.PROMPT][-1] == away, "their turn waits"
    assert not table.is_away(away)


def test_im_back_from_a_player_who_is_not_away_changes_nothing() -> None:
    table = started(4, turn_seconds=TURN)
    assert table.come_back(table.user_at(table.state.first)) == []


def test_a_removed_player_cannot_come_back_and_their_seat_plays_on() -> None:
    table = started(4, turn_seconds=TURN)
    away = mark_away(table)
    user = table.user_at(away)
    events = table.remove(away, "Ann", table.deadline() - 1)
    assert [e["seat"] for e in events if e["type"] == ev.SEAT_REMOVED] == [away]
    assert table.absence.was_removed(user) and not table.is_away(away)
    with pytest.raises(Refused) as refused:
        table.come_back(user)
    assert refused.value.key == "you_were_removed"
    assert table.status == "playing"


def test_removing_every_player_cancels_the_game_once_nobody_is_left() -> None:
    table = started(4, turn_seconds=TURN)
    first = table.state.first
    for seat in (s for s in range(1, 5) if s != first):
        table.remove(seat, "Ann", table.deadline() - 1)
    assert table.status == "playing", "one player left still plays"
    events = table.remove(first, "Ann", table.deadline() - 1)
    assert [e.get("why") for e in events if e["type"] == ev.CANCELLED] == ["empty"]
