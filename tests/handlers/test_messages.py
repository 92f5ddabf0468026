"""The messages a change owes: their stored form (kept in the item until delivered) round trips,
and the form the version before wrote is still read."""

from __future__ import annotations

import json

import pytest

from handlers.display.messages import Delete, DropButtons, Edit, Send, from_stored, to_stored

GROUP, ANN = -4_100_000_001, 500_000_001
KB = [
    [["✅ Done", "c|-4100000001|4000000000|11|e"], ["🃏 My card", "c|-4100000001|4000000000|0|me"]]
]


@pytest.mark.parametrize(
    "out",
    [
        Send(GROUP, "turn", KB, remember="board", tag=10),
        Send(ANN, "your card", private=True, protect=True),
        Send(ANN, "a Turncoat's offer", KB, private=True, protect=True, quiet=True),
        Edit(GROUP, "lobby", KB, ref="lobby_msg"),
        Edit(
            ANN, "closed", msg=6, ref="prompt.1.2", private=True, side=True, close=True, tell=True
        ),
        DropButtons(GROUP, 12),
        DropButtons(GROUP, 12, KB, side=True),
        Delete(GROUP, 99),
    ],
)
def test_an_owed_message_round_trips_through_json(out) -> None:
    stored = json.loads(json.dumps(to_stored(out)))
    assert from_stored(stored) == out


def test_the_stored_form_names_its_kind_and_only_the_fields_it_sets() -> None:
    assert to_stored(Send(GROUP, "hi")) == {"op": "send", "chat": GROUP, "text": "hi"}
    assert to_stored(DropButtons(GROUP, 5)) == {"op": "drop_buttons", "chat": GROUP, "msg": 5}


def test_a_message_owed_by_the_version_before_is_read() -> None:
    # As the version before stored a closed prompt and a turn message's buttons, in an owed
    # batch (its end message also carried the game for the history: that key is let go).
    closed = {
        "chat": ANN,
        "close": True,
        "kb": None,
        "msg": 6,
        "op": "edit",
        "private": True,
        "protect": True,
        "ref": "prompt.500000001.11",
        "side": True,
        "text": "🔍 You scouted 2. ⁨Ben⁩.",
    }
    assert from_stored(closed) == Edit(
        ANN,
        "🔍 You scouted 2. ⁨Ben⁩.",
        None,
        msg=6,
        ref="prompt.500000001.11",
        private=True,
        protect=True,
        side=True,
        close=True,
    )
    end = {"op": "send", "chat": GROUP, "text": "🏁", "kb": KB, "remember": "end_msg"}
    assert from_stored({**end, "history": {"game": 1}}) == Send(GROUP, "🏁", KB, "end_msg")
