"""The Telegram side's part of a group's item: the ids of the messages the bot edits again,
kept only for what is still current."""

from __future__ import annotations

import json

from engine import Action
from engine.actions import SCOUT
from handlers.display.ids import END, LOBBY, REACH, REMOVE, Ids, away_ref, prompt_ref
from handlers.storage.envelope import Posted
from tests.support.tables import NOW, started


def posted(table, **refs: int) -> dict[str, Posted]:
    """Ids delivered for `table`'s game, as the acknowledgement keeps them."""
    return {ref: Posted(msg, table.record.board.tag, table.game) for ref, msg in refs.items()}


def test_an_id_that_arrives_after_its_prompt_closed_is_not_kept() -> None:
    table = started(turn_seconds=30)
    user = table.user_at(table.state.first)
    old = prompt_ref(user, table.open_prompt_of(user).tag)
    table.catch_up(NOW + 30)  # the turn runs out before Telegram said the id
    assert Ids().folded({old: Posted(66, None, table.game)}, table).prompts == {}


def test_an_open_prompts_id_is_kept_until_it_is_closed() -> None:
    table = started()
    first = table.state.first
    user = table.user_at(first)
    ref = prompt_ref(user, table.open_prompt_of(user).tag)
    ids = Ids().folded({ref: Posted(55, None, table.game)}, table)
    assert ids.of(ref) == 55
    table.act(user, Action(SCOUT, first, target=first % 4 + 1), NOW)
    assert ids.closing_prompt(ref) == 55 and ids.of(ref) is None


def test_a_turn_messages_id_is_kept_only_while_it_is_the_current_one() -> None:
    table = started()
    ids = Ids()
    ids.opening_board(table.record.board.tag)
    assert ids.folded(posted(table, board=9), table).board == 9
    ids.opening_board(table.record.board.tag + 1)  # the next turn's, on its way
    assert ids.folded(posted(table, board=8), table).board is None


def test_ids_of_another_game_are_not_kept() -> None:
    table = started()
    late = {LOBBY: Posted(3, None, table.game - 1), END: Posted(4, None, table.game - 1)}
    ids = Ids().folded(late, table)
    assert (ids.lobby, ids.end) == (None, None)


def test_the_part_round_trips_through_its_stored_form() -> None:
    table = started()
    ids = Ids().folded(posted(table, **{LOBBY: 2, END: 5, REMOVE: 7, away_ref(3): 11}), table)
    ids.opening_board(4)
    ids.board = 10
    ids.pressed(table.user_at(1), 6, 12)
    stored = json.loads(json.dumps(ids.to_stored()))
    assert Ids.from_stored(stored) == ids
    assert (ids.lobby, ids.end, ids.remove, ids.away) == (2, 5, 7, {3: 11})


def test_the_warnings_id_is_kept_and_a_part_stored_before_it_had_one_still_reads() -> None:
    table = started()
    ids = Ids().folded(posted(table, **{REACH: 9}), table)
    assert ids.of(REACH) == 9
    assert Ids.from_stored(json.loads(json.dumps(ids.to_stored()))) == ids
    before = {"form": 2, "lobby": 2, "board": 10, "board_tag": 4}  # no warning's id in it
    assert Ids.from_stored(before) == Ids(lobby=2, board=10, board_tag=4)
    ids.moved()  # a supergroup now: the old chat's warning is not edited
    assert ids.reach is None
