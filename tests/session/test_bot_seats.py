"""The seats the bot plays itself, in the session: dealt a card, moved on the table's own
timers, never away nor removed, counted nowhere in the statistics."""

from __future__ import annotations

import pytest

from engine import waiting_for
from handlers.session.base import Refused
from handlers.session.bot_seats import BOT_DELAY
from handlers.session.table import Table
from tests.support.tables import NOW, started, take_turn


def with_bots(people: int = 2, bots: int = 3, seed: int = 5) -> Table:
    return started(people, seed, bot_seats=bots)


def play_to_a_bot(table: Table, now: float) -> tuple[int, float]:
    """Let the people's turns run out until a bot seat is waited on; its seat and the time."""
    for _ in range(50):
        seat = waiting_for(table.state)
        if table.bots.is_bot(seat):
            return seat, now
        now = table.deadline() or now
        table.catch_up(now)
    raise AssertionError("no bot seat was waited on")


def test_two_people_may_start_with_bot_seats_but_not_without() -> None:
    table = with_bots()
    assert table.state.seats == 5 and len(table.record.bots) == 3
    with pytest.raises(Refused) as refused:
        started(2, 5)
    assert refused.value.key == "need_players"


def test_one_person_may_not_start_a_group_game_with_bot_seats() -> None:
    with pytest.raises(Refused) as refused:
        started(1, 5, bot_seats=5)
    assert refused.value.key == "need_players_bots"


def test_a_bot_seat_moves_at_its_due_time_and_not_before() -> None:
    table = with_bots()
    seat, now = play_to_a_bot(table, NOW)
    due = table.bots.due_at()
    assert due is not None and now + BOT_DELAY[0] <= due <= now + BOT_DELAY[1]
    assert table.next_wake() == due
    version = table.state.version
    table.catch_up(due - 0.01)
    assert table.state.version == version
    table.catch_up(due)
    assert table.state.version > version and table.record.bot_why[str(seat)]


def test_the_same_moment_gives_the_same_bot_move() -> None:
    first, second = with_bots(), with_bots()
    for table in (first, second):
        _, _ = play_to_a_bot(table, NOW)
        table.catch_up(table.bots.due_at() or NOW)
    assert first.state.log == second.state.log


def test_removing_a_bot_seat_is_refused_with_its_own_answer() -> None:
    table = with_bots()
    bot = table.record.bots[0]
    assert bot not in table.removable()
    with pytest.raises(Refused) as refused:
        table.remove(bot, "Ann", NOW)
    assert refused.value.key == "bot_seat_stays"


def test_a_bot_seat_is_never_marked_away() -> None:
    table = with_bots()
    bot = table.record.bots[0]
    for _ in range(3):
        assert table.absence.missed(bot) == []
    assert not table.is_away(bot)


def test_the_statistics_count_the_people_only() -> None:
    table = with_bots()
    for _ in range(200):
        if table.ending is not None:
            break
        if table.bots.is_bot(waiting_for(table.state)):
            table.catch_up(table.bots.due_at() or NOW)
        else:
            take_turn(table)
    assert table.ending is not None and table.ending.figures is not None
    counted = set(table.ending.figures["players"])
    assert counted == {"1", "2"}
