"""The rule card's worked example: six seats, two scouts, Blue's captain strikes Red's captain."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import apply, captains, legal_actions, replay_record, summary, to_record, waiting_for
from engine.records import deal_from_record
from tests.engine.helpers import decap, end, play, private_events, public_events, scout, table

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "docs" / "records" / "worked-example.json"
CARDS = ("R1", "R3", "B7", "B4", "R4", "B3")
# By hand: Red holds 1, 3, 4, so with the 4 its captain is the highest, R4 at seat 5.
# Blue holds 7, 4, 3, so its captain is B7 at seat 3. Seat 3 strikes seat 5: Blue wins.
EXPECTED = {
    "finished": True,
    "winner": "blue",
    "captains": {"red": 5, "blue": 3},
    "attacker": 3,
    "target": 5,
    "cards": {"1": "R1", "2": "R3", "3": "B7", "4": "B4", "5": "R4", "6": "B3"},
    "observer": None,
    "spy": None,
}


def _replay_command(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_worked_example_red_captain_is_seat_5_because_red_holds_the_4():
    assert captains(CARDS)["red"] == 5


def test_worked_example_blue_captain_is_seat_3_the_lowest_blue_is_not_it_the_highest_is():
    assert captains(CARDS)["blue"] == 3


def test_worked_example_blue_wins_in_three_actions_through_engine_calls():
    state = table(CARDS)
    assert waiting_for(state) == 1
    state, events = play(state, scout(1, 5))
    assert private_events(events, 1)[0]["card"] == "R4", "seat 1 sees seat 5's card privately"
    state, _ = play(state, end(1, "五号位是红1"), scout(2, 3), end(2, "我是蓝4"))
    assert waiting_for(state) == 3
    state, events = apply(state, decap(3, 5))
    assert state.over
    assert state.outcome.winner == "blue"
    assert state.outcome.captains == {"red": 5, "blue": 3}
    actions = [a for a in state.log if a.act in ("scout", "decapitate")]
    assert len(actions) == 3, "the card counts three actions: two scouts and the decapitation"
    resolved = public_events(events)[-1]
    assert resolved["type"] == "resolved"
    assert resolved["cards"] == list(CARDS), "all cards in seats are revealed"


def test_worked_example_record_file_deals_the_six_seats_of_the_card():
    state = deal_from_record(json.loads(RECORD.read_text(encoding="utf-8")))
    assert state.cards == CARDS
    assert state.set_aside == ()
    assert state.first == 1
    assert legal_actions(state, 1), "seat 1 starts"


def test_worked_example_record_replays_to_a_blue_win():
    state = replay_record(json.loads(RECORD.read_text(encoding="utf-8")))
    assert summary(state) == EXPECTED


def test_worked_example_written_back_as_a_record_replays_the_same():
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    state = replay_record(record)
    again = to_record(state)
    assert again["seats"] == record["seats"]
    assert again["actions"] == record["actions"]
    assert replay_record(json.loads(json.dumps(again))) == state


@pytest.mark.slow
def test_replay_command_prints_the_worked_example_result():
    done = _replay_command(str(RECORD))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == EXPECTED
    assert len(done.stdout.strip().splitlines()) == 1


@pytest.mark.slow
def test_replay_command_reads_the_worked_example_from_standard_input():
    done = _replay_command("-", stdin=RECORD.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED
