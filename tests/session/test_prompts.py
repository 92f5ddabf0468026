"""The open private prompts a table keeps: each is closed once, when its wait ends, whatever
ends it (which message shows it is the Telegram side's to know, by its tag)."""

from __future__ import annotations

from engine import Action
from engine.actions import SCOUT
from handlers.session import events as ev
from tests.support.tables import NOW, started


def closed_events(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == ev.PROMPT_CLOSED]


def test_a_decision_made_anywhere_closes_the_players_open_prompt() -> None:
    table = started()
    first = table.state.first
    user = table.user_at(first)
    tag = table.open_prompt_of(user).tag
    events = table.act(user, Action(SCOUT, first, target=first % 4 + 1), NOW)
    [closed] = closed_events(events)
    assert (closed["user"], closed["tag"], closed["quiet"]) == (user, tag, False)
    assert closed["outcome"] == {"act": "scout", "seat": first, "target": first % 4 + 1}
    speak = table.open_prompt_of(user)  # the speaking moment's prompt, a new one
    assert speak.tag != tag


def test_a_wait_that_runs_out_closes_its_prompt_and_tells_it() -> None:
    table = started(turn_seconds=30)
    first = table.state.first
    user = table.user_at(first)
    tag = table.open_prompt_of(user).tag
    events = table.catch_up(NOW + 30)  # the turn runs out
    [closed] = closed_events(events)
    assert (closed["tag"], closed["tell"]) == (tag, True)  # told in a message of its own
    assert table.open_prompt_of(user) is None
    assert table.open_prompt_of(table.user_at(table.state.turn)).tag > tag


def test_the_games_end_closes_every_prompt_once() -> None:
    table = started()
    user = table.user_at(table.state.first)
    events = table.cancel("Ann")
    [closed] = closed_events(events)
    assert (closed["user"], closed["outcome"]) == (user, {"act": "cancelled"})
    assert table.record.prompts == {}
    assert closed_events(table.catch_up(NOW + 1000)) == []


def test_a_pressed_prompt_the_table_never_noted_is_closed_by_its_decision() -> None:
    table = started()
    table.record.prompts.clear()  # a game dealt before prompts were kept
    first = table.state.first
    user = table.user_at(first)
    assert table.note_pressed(user) is None  # open now, with no tag
    events = table.act(user, Action(SCOUT, first, target=first % 4 + 1), NOW)
    [closed] = closed_events(events)
    assert (closed["user"], closed["tag"]) == (user, None)
