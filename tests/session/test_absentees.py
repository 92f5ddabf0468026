"""Who is not there is a record of its own in the session's part: each change gives a new record,
its stored form holds every list, and the shapes items were stored in before read as they held
them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handlers.session.absentees import KEYS, Absences
from handlers.session.table import Table
from tests.support.tables import mark_away, started

ITEMS_BEFORE = Path(__file__).parents[1] / "storage" / "items_before"

SHAPES: dict[str, dict[str, Any]] = {
    "a lobby nobody joined": {},
    "a lobby someone joined": {"unreachable": []},
    "a lobby with a player out of reach": {"unreachable": [7, 8], "blocked": [8]},
    "a game just dealt": {"away": [], "back": [], "removed": [], "missed": {}, "unreachable": []},
    "a seat away that asked back": {
        "away": [4, 2],
        "back": [2],
        "removed": [],
        "missed": {"4": 2, "2": 3},
        "unreachable": [],
    },
    "a seat left, players back in touch": {
        "away": [],
        "back": [],
        "removed": [3, 1],
        "missed": {"1": 1},
        "left": [1],
        "unreachable": [5],
        "reached": [6],
        "back_held": [7],
    },
}


def through_json(stored: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(stored))


def test_a_record_round_trips_through_its_stored_form() -> None:
    record = Absences().dealt().missed_turn(2).missed_turn(2).marked_away(2).asked_back(2)
    record = record.lost([5, 6], blocked=[6]).removed_seat(3, 9, left=True)
    assert Absences.from_stored(through_json(record.to_stored())) == record


def empty() -> dict[str, Any]:
    return {key: {} if key == "missed" else [] for key in KEYS}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_stored_shape_reads_and_is_written_back_with_every_list(shape: str) -> None:
    stored = SHAPES[shape]
    again = Absences.from_stored(through_json(stored)).to_stored()
    assert list(again) == list(KEYS)  # every list, in one order
    assert again == {**empty(), **stored}  # what was noted, as it was


def test_a_shape_is_read_in_the_games_words() -> None:
    record = Absences.from_stored(SHAPES["a seat left, players back in touch"])
    assert record.removed == (3, 1) and record.left == (1,)
    assert record.missed == {1: 1}
    assert (record.unreachable, record.reached_again, record.back_held) == ((5,), (6,), (7,))
    assert record.away == record.coming_back == record.blocked == ()


def test_the_items_stored_before_read_their_absences_as_they_hold_them() -> None:
    if not ITEMS_BEFORE.is_dir():
        pytest.skip(f"{ITEMS_BEFORE} is not there")
    for path in sorted(ITEMS_BEFORE.glob("*.json")):
        data = json.loads(path.read_text())["data"]
        theirs = {key: data[key] for key in KEYS if key in data}
        assert Absences.from_stored(data).to_stored() == {**empty(), **theirs}, path


def test_two_turns_missed_count_in_a_row_and_a_turn_taken_starts_again() -> None:
    record = Absences().dealt().missed_turn(3).missed_turn(1).missed_turn(3)
    assert record.missed == {3: 2, 1: 1}
    assert record.acted(3).missed == {1: 1}
    assert record.acted(3).to_stored()["missed"] == {"1": 1}


def test_an_away_seat_asks_back_and_is_back_with_no_turn_missed() -> None:
    away = Absences().dealt().missed_turn(4).missed_turn(4).marked_away(4)
    asked = away.asked_back(4)
    assert (asked.away, asked.coming_back) == ((4,), (4,))
    back = asked.back(4)
    assert (back.away, back.coming_back, dict(back.missed)) == ((), (), {})
    assert back.to_stored() == empty()


def test_a_removed_seat_is_away_no_more_and_its_player_needs_reaching_no_more() -> None:
    record = Absences().dealt().lost([9, 8]).marked_away(2).asked_back(2)
    removed = record.removed_seat(2, 9)
    assert (removed.away, removed.coming_back, removed.removed) == ((), (), (2,))
    assert removed.left == () and removed.unreachable == (8,)
    left = removed.removed_seat(5, 8, left=True)
    assert (left.removed, left.left, left.unreachable) == ((2, 5), (5,), ())


def test_players_lost_are_noted_once_and_those_who_blocked_the_bot_apart() -> None:
    record = Absences().lost([1, 2], blocked=[2]).lost([2, 3], blocked=[3])
    assert record.unreachable == (1, 2, 3)
    assert record.blocked == (3,), "2 is lost again without having blocked the bot"


def test_a_player_reached_again_is_told_at_once_or_after_the_secret_wait() -> None:
    record = Absences().lost([1, 2, 3])
    told = record.reached(1).back_in_touch(1)
    held = told.reached(2).back_during_hold(2)
    assert (held.unreachable, held.reached_again, held.back_held) == ((3,), (1,), (2,))
    after = held.held_backs_told()
    assert (after.reached_again, after.back_held) == ((1, 2), ())
    assert after.to_stored() == {**empty(), "unreachable": [3], "reached": [1, 2]}
    lost_again = after.lost([1, 2])
    assert lost_again.reached_again == () and lost_again.to_stored()["reached"] == []


def test_every_list_is_stored_empty_or_not() -> None:
    assert Absences().to_stored() == empty()
    assert Absences().lost([4]).to_stored() == {**empty(), "unreachable": [4]}


def test_a_change_leaves_the_record_it_was_made_from_as_it_was() -> None:
    record = Absences().dealt()
    record.marked_away(1).removed_seat(2, 7)
    assert record == Absences().dealt()
    with pytest.raises(AttributeError):
        record.away = (1,)  # type: ignore[misc]


def test_the_tables_absences_are_stored_and_read_back_with_it() -> None:
    table = started(4, turn_seconds=30)
    away = mark_away(table)
    other = next(seat for seat in range(1, 5) if seat != away)
    table.remove(other, "Host", table.deadline() - 1)
    absences = table.absences
    assert absences.away == (away,) and absences.removed == (other,)
    again = Table.from_stored(through_json(table.to_stored()))
    assert again.absences == absences
    assert again.is_away(away) and again.is_removed(other) and not again.has_left(other)
