"""The open private prompts a table keeps: each is closed once, when its wait ends, whatever
ends it, with the message id Telegram gave it."""

from __future__ import annotations

from engine import Action
from engine.actions import SCOUT
from handlers.session import events as ev
from handlers.session.prompts import prompt_ref, remember_prompt
from tests.support.tables import NOW, started


def closed_events(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == ev.PROMPT_CLOSED]


def test_a_decision_made_anywhere_closes_the_players_remembered_prompt() -> None:
    table = started()
    first = table.state.first
    user = table.user_at(first)
    tag = table.open_prompt_of(user)["tag"]
    assert remember_prompt(table.data, prompt_ref(user, tag), 55)
    events = table.act(user, Action(SCOUT, first, target=first % 4 + 1), NOW)
    [closed] = closed_events(events)
    assert (closed["user"], closed["msg"], closed["quiet"]) == (user, 55, False)
    assert closed["outcome"] == {"act": "scout", "seat": first, "target": first % 4 + 1}
    speak = table.open_prompt_of(user)  # the speaking moment's prompt, a new one
    assert speak["tag"] != tag and speak["msg"] is None


def test_an_id_that_arrives_after_its_prompt_closed_is_not_kept() -> None:
    table = started(turn_seconds=30)
    first = table.state.first
    user = table.user_at(first)
    old = prompt_ref(user, table.open_prompt_of(user)["tag"])
    events = table.catch_up(NOW + 30)  # the turn runs out before Telegram said the id
    [closed] = closed_events(events)
    assert (closed["msg"], closed["tell"]) == (None, True)  # told in a message of its own
    assert remember_prompt(table.data, old, 66)
    assert table.open_prompt_of(user) is None
    nxt = table.user_at(table.state.turn)
    assert table.open_prompt_of(nxt)["msg"] is None


def test_other_refs_are_not_prompts() -> None:
    table = started()
    assert not remember_prompt(table.data, "board", 1)
    assert not remember_prompt(table.data, "lobby_msg", 1)


def test_the_games_end_closes_every_prompt_once() -> None:
    table = started()
    user = table.user_at(table.state.first)
    events = table.cancel("Ann")
    [closed] = closed_events(events)
    assert (closed["user"], closed["outcome"]) == (user, {"act": "cancelled"})
    assert table.data["prompts"] == {}
    assert closed_events(table.catch_up(NOW + 1000)) == []


def test_a_pressed_prompt_the_table_never_noted_is_closed_by_its_decision() -> None:
    table = started()
    table.data.pop("prompts")  # a game dealt before prompts were kept
    first = table.state.first
    user = table.user_at(first)
    table.note_pressed(user, 77)
    events = table.act(user, Action(SCOUT, first, target=first % 4 + 1), NOW)
    [closed] = closed_events(events)
    assert (closed["msg"], closed["tag"]) == (77, None)
