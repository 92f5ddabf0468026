"""A secret window's hold is a record of its own in the session's part: until when it runs and
the public news it keeps back, stored and read back as it was."""

from __future__ import annotations

import json

from engine import Action
from engine.actions import SCOUT
from engine.variants import Variants
from handlers.session.holds import Hold
from handlers.session.table import Table
from testing.deals import find_seed, x_apart
from tests.support.tables import NOW, started


def test_a_hold_round_trips_through_its_stored_form() -> None:
    hold = Hold(NOW + 15).keeping({"type": "scouted", "to": "all", "seat": 1, "target": 2})
    assert Hold.from_stored(json.loads(json.dumps(hold.to_stored()))) == hold
    assert Hold.from_stored(None) is None


def test_a_scout_in_the_turncoats_window_is_held_and_stored_with_it() -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=15)
    first = table.state.first
    table.act(table.user_at(first), Action(SCOUT, first, target=first % 7 + 1), NOW)
    hold = table.hold
    assert hold is not None and hold.until == NOW + 15
    assert [event["type"] for event in hold.held] == ["speak"]  # it begins as the window ends
    again = Table.from_stored(json.loads(json.dumps(table.to_stored())))
    assert again.hold == hold
    table.catch_up(NOW + 15)  # the window ends: its news goes out, nothing is held
    assert table.hold is None
