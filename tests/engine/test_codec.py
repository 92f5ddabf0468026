"""The stored form of a state: pinned byte for byte, read back to the same state."""

from __future__ import annotations

import json

import pytest

from engine import Variants, state_from_dict, state_to_dict
from tests.engine.helpers import TIMEOUT, end, play, predict, scout, swap, table

STORED = (
    '{"schema":1,"version":10,"variants":{"virtual_players":1,"turncoat":true,"observer":true},'
    '"names":["P1","P2","P3","P4","P5","V6","P7"],"virtual":[6],'
    '"deal":["R1","BX","B4","R5","OBS","B2","R7"],"set_aside":["R2","B1"],"first":1,'
    '"seed":null,"log":"s1,2;w2;e1;t;s3,5;e3;s4,1;e4;s5,1;p5,r","say":{"2":"hello, 你好"}}'
)


def _game():
    """A swap, a speech, a timeout and a prediction, with a virtual seat."""
    variants = Variants(virtual_players=1, turncoat=True, observer=True)
    state = table(("R1", "BX", "B4", "R5", "OBS", "B2", "R7"), variants=variants, virtual=[6])
    state, _ = play(
        state,
        scout(1, 2),
        swap(2),
        end(1, say="hello, 你好"),
        TIMEOUT,
        scout(3, 5),
        end(3),
        scout(4, 1),
        end(4),
        scout(5, 1),
        predict(5, "red"),
    )
    return state


def test_stored_form_is_unchanged_byte_for_byte():
    stored = json.dumps(state_to_dict(_game()), ensure_ascii=False, separators=(",", ":"))
    assert stored == STORED


def test_stored_form_reads_back_to_the_same_state():
    assert state_from_dict(json.loads(STORED)) == _game()


def test_unknown_schema_is_refused():
    with pytest.raises(ValueError, match="schema"):
        state_from_dict({**json.loads(STORED), "schema": 2})


def test_a_version_that_does_not_match_the_log_is_refused():
    with pytest.raises(ValueError, match="version"):
        state_from_dict({**json.loads(STORED), "version": 9})
