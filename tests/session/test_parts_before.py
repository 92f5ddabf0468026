"""A session part stored by the version before the table had a typed record (one dict, a key
absent where nothing had been noted) is read by the record's codec, plays on exactly as it would
have, and is saved whole.

Each file in `parts_before/` holds a part as that version stored it, what the table answered
then, the step that came next (a table method and its arguments), the events that step gave and
the part it left, all saved by that version: a lobby with its settings open and its host gone,
a Turncoat's window with a /remove keyboard open, a seat away and another removed, a scout
pressed on the group's turn message with a /leave question open, and a cancelled game whose
Play again is pressed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handlers.session import record as codec
from handlers.session.rematch import REMATCH_SECONDS
from handlers.session.settings import clean_settings
from handlers.session.table import Table

PARTS = Path(__file__).parent / "parts_before"
NAMES = sorted(path.stem for path in PARTS.glob("*.json"))


def kept(name: str) -> dict[str, Any]:
    return json.loads((PARTS / f"{name}.json").read_text(encoding="utf-8"))


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_the_parts_kept_are_in_the_form_before() -> None:
    assert NAMES, "no part kept"
    for name in NAMES:
        part = kept(name)["part"]
        assert part["form"] == codec.FORM, name
        assert set(through_json(codec.to_stored(codec.from_stored(part)))) > set(part), name


def facts(t: Table) -> dict[str, Any]:
    """What the table answers, as the handlers ask it (as the version before was asked)."""
    out = {
        "status": t.status,
        "users": t.users(),
        "next_wake": t.next_wake(),
        "creator": t.creator,
        "host_left": t.host_left,
        "menu_open": t.menu_open,
        "lobby_names": {str(k): v for k, v in t.lobby_names().items()},
        "removable": t.removable(),
        "bot_can_delete": t.bot_can_delete,
    }
    if t.status != "lobby":
        seats = range(1, t.state.seats + 1)
        prompts = {str(u): getattr(t.open_prompt_of(u), "tag", None) for u in t.users()}
        out.update(
            public_version=t.public_version,
            speaks_in_group=t.speaks_in_group(),
            hold_until=t.hold.until if t.hold else None,
            speaker=t.speaker(),
            prompts=prompts,
            away=[s for s in seats if t.is_away(s)],
            removed=[s for s in seats if t.is_removed(s)],
            leaving={str(u): t.leaving_asked(u) for u in t.users()},
            out_of_touch=t.out_of_touch(),
        )
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_part_stored_before_answers_as_it_did(name: str) -> None:
    saved = kept(name)
    assert through_json(facts(Table.from_stored(saved["part"]))) == saved["facts"]


@pytest.mark.parametrize("name", NAMES)
def test_a_part_stored_before_plays_its_next_step_as_it_would_have(name: str) -> None:
    saved = kept(name)
    table = Table.from_stored(saved["part"])
    events = getattr(table, saved["step"])(*saved["args"])
    if isinstance(events, tuple):  # Play again opens a new table
        table, events = events
    assert through_json(events) == saved["events"]
    after = codec.from_stored(saved["after"])
    if saved["step"] == "play_again":  # a new lobby takes the settings added since at default
        after.settings = clean_settings(after.settings)
        # ... and is a rematch now: the others awaited, dealing itself within a minute
        now = saved["args"][3]
        after.rematch, after.awaited = True, [u for u, _ in after.roster.players[1:]]
        after.deadline, after.reminder = now + REMATCH_SECONDS, None
    assert table.record == after


@pytest.mark.parametrize("name", NAMES)
def test_a_part_stored_before_is_saved_whole_and_read_back_the_same(name: str) -> None:
    table = Table.from_stored(kept(name)["part"])
    again = Table.from_stored(through_json(table.to_stored()))
    assert again.record == table.record
    assert again.next_wake() == table.next_wake()
    if table.record.engine is not None:
        assert again.public_version == table.public_version
