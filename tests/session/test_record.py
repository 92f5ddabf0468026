"""The session's part is one typed record with its own codec: stored whole, read back equal, and
never edited in place where it was read from (a change works on its own copy)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Action
from engine.actions import END_TURN, SCOUT
from handlers.session import record as codec
from handlers.session.record import OpenPrompt, TableRecord, TurnBoard
from handlers.session.table import Table
from tests.support.tables import NOW, lobby, mark_away, started, take_turn


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_every_field_of_the_record_is_stored_and_read_back() -> None:
    table = started(6, 3)
    mark_away(table)
    table.ask_leave(table.user_at(table.state.turn % 6 + 1), "private")
    table.offer_removal()
    table.record.bots = [6]  # a field kept only when it holds something is given something
    table.record.bot_why = {"6": {"did": "scout", "knew": {}}}
    table.record.rematch, table.record.awaited = True, [2]
    stored = through_json(table.to_stored())
    again = codec.from_stored(stored)
    assert again == table.record
    assert isinstance(again.board, TurnBoard) and again.board.tag is not None
    assert all(isinstance(open_, OpenPrompt) for open_ in again.prompts.values())
    fields = set(TableRecord.__dataclass_fields__) - {"roster", "absences"}
    assert fields <= set(stored), "a field the codec does not store"


def test_a_game_without_bot_seats_stores_no_key_for_them() -> None:
    stored = started(6, 3).to_stored()
    assert "bots" not in stored and "bot_why" not in stored


def test_a_table_read_from_a_stored_part_leaves_that_part_as_it_was_read() -> None:
    stored = through_json(lobby(5).to_stored())
    read = copy.deepcopy(stored)
    table = Table.from_stored(stored)
    table.join(6, "Fay", "zh", "fay")
    table.leave(1, NOW)  # the host leaves: the lobby is handed on
    table.change_setting("turncoat")
    table.set_setting("lobby_minutes", 10, NOW)
    assert stored == read
    table.start(NOW, 3)
    playing = through_json(table.to_stored())
    read = copy.deepcopy(playing)
    table = Table.from_stored(playing)
    seat = table.state.turn
    table.from_turn_message(
        table.user_at(seat), table.public_version, NOW + 1, Action(SCOUT, seat, seat % 5 + 1)
    )
    table.act(table.user_at(seat), Action(END_TURN, seat), NOW + 2)  # Done
    take_turn(table)
    table.remove(table.state.turn, "Ben", table.deadline() - 1)
    table.cancel("Ben")
    assert playing == read


def test_a_part_without_its_optional_fields_reads_with_their_defaults() -> None:
    bare = {"form": codec.FORM, "chat": -1, "game": 2, "status": "lobby", "lang": "en"}
    record = codec.from_stored({**bare, "settings": {"auto_start": True}})
    assert record.roster.players == [] and record.deadline is None and record.hold is None
    assert record.board == TurnBoard() and record.prompts == {} and record.shift == 0


FORMS = Path(__file__).parent / "stored_forms"


@pytest.mark.parametrize("name", sorted(p.stem for p in FORMS.glob("*.json")))
def test_a_part_is_read_and_written_again_byte_for_byte_as_the_codec_before_wrote_it(
    name: str,
) -> None:
    """Tables in several states (a lobby, a game with absences, a scout in its pause, a removal,
    a cancellation) as the codec before the generic one wrote them."""
    written = (FORMS / f"{name}.json").read_text()
    again = codec.to_stored(codec.from_stored(json.loads(written)))
    assert json.dumps(again, ensure_ascii=False) + "\n" == written
