"""The group's turn message: what its acting player may press on it, and listing the seats."""

from __future__ import annotations

import pytest

from engine import Action
from engine.actions import END_TURN, SCOUT
from handlers.session import events as ev
from handlers.session.table import Refused, Table
from tests.support.tables import NOW, started


def refusal(call) -> str:
    with pytest.raises(Refused) as caught:
        call()
    return caught.value.key


def acting(table: Table) -> tuple[int, int]:
    """The seat whose turn it is and its user."""
    seat = table.state.turn
    return seat, table.user_at(seat)


def shown_acts(events: list[dict]) -> dict | None:
    """What the last turn message shown offers its acting player."""
    boards = [e for e in events if e["type"] in (ev.BOARD_OPENED, ev.BOARD_SHOWN)]
    return boards[-1]["board"]["acts"]


def test_the_turn_message_offers_scout_then_done_and_nothing_once_closed() -> None:
    table = started()
    seat, user = acting(table)
    assert table.board.shown(90)["board"]["acts"] == {
        "seat": seat,
        "phase": "turn",
        "step": None,
        "version": table.public_version,
    }
    events = table.act(user, Action(SCOUT, seat, target=seat % 4 + 1), NOW + 1)
    acts = shown_acts(events)
    assert acts["phase"] == "speak" and acts["version"] == table.public_version
    events = table.act(user, Action(END_TURN, seat), NOW + 2)
    closed = next(e for e in events if e["type"] == ev.BOARD_SHOWN and e["final"])
    assert closed["board"]["lines"][-1]["type"] == "turn_ended"
    assert shown_acts(events)["seat"] == table.state.turn  # the new turn message's


def test_listing_the_seats_is_the_acting_players_and_changes_no_version() -> None:
    table = started(turn_seconds=60)
    seat, user = acting(table)
    other = table.user_at(seat % 4 + 1)
    version = table.public_version
    assert refusal(lambda: table.list_seats(other, True, NOW + 1)) == "not_your_turn"
    assert refusal(lambda: table.list_seats(99, True, NOW + 1)) == "not_a_player"
    events = table.list_seats(user, True, NOW + 10)
    assert [e["type"] for e in events] == [ev.BOARD_SHOWN]
    assert events[0]["seconds"] == 50 and events[0]["board"]["acts"]["step"] == "scout"
    assert table.public_version == version
    assert table.list_seats(user, False, NOW + 11)[0]["board"]["acts"]["step"] is None
    table.list_seats(user, True, NOW + 12)
    # A scout, from wherever it came, moves the turn message on from the seats.
    events = table.act(user, Action(SCOUT, seat, target=seat % 4 + 1), NOW + 13)
    assert shown_acts(events)["step"] is None and table.record.board.step is None
    assert refusal(lambda: table.list_seats(user, True, NOW + 14)) == "not_your_turn"


def test_listing_the_seats_after_the_turn_ran_out_is_too_late() -> None:
    table = started(turn_seconds=30)
    _, user = acting(table)
    version = table.public_version
    assert refusal(lambda: table.list_seats(user, True, NOW + 30)) == "too_late"
    # The timer, not the press, tells the skip.
    assert table.public_version == version and table.record.board.step is None
