"""`python -m engine replay`: a result on stdout, or exit 2 and one line naming what is wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Variants
from tests.engine.helpers import decap, end, guess, predict, record, scout

pytestmark = pytest.mark.slow  # every test runs `python -m engine replay`

ROOT = Path(__file__).resolve().parents[2]
SIX = ["R1", "R3", "B7", "B4", "R4", "B3"]
GOOD = record(SIX, actions=[scout(1, 5), end(1), scout(2, 3), end(2), decap(3, 5)])


def _run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def _replay(value) -> subprocess.CompletedProcess:
    text = value if isinstance(value, (str, bytes)) else json.dumps(value, ensure_ascii=False)
    return _run(["-"], text if isinstance(text, bytes) else text.encode("utf-8"))


def _changed(**changes) -> dict:
    return {**json.loads(json.dumps(GOOD)), **changes}


def _seat(card: str, name: str = "P", **more) -> dict:
    return {"name": name, "card": card, **more}


def _assert_refused(done: subprocess.CompletedProcess, expected: str) -> str:
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, (done.returncode, err)
    assert done.stdout == b""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), f"exactly one line on stderr: {err!r}"
    assert expected in lines[0], lines[0]
    return lines[0]


MALFORMED = {
    "bad JSON": ("{", "bad JSON"),
    "not an object": ("[1, 2]", "a record must be a JSON object"),
    "wrong format string": (_changed(format="decapitation/2"), "format must be"),
    "unknown key": (_changed(colour="red"), "unknown key 'colour'"),
    "unknown seat key": (
        _changed(seats=[_seat(c, team="x") if i == 0 else _seat(c) for i, c in enumerate(SIX)]),
        "seat 1: unknown key 'team'",
    ),
    "too few humans": (
        _changed(seats=[_seat(c) for c in ("R1", "B1", "R3")], set_aside=["B3"]),
        "3 human seats",
    ),
    "too many humans": (
        _changed(
            seats=[_seat(c) for c in [f"{x}{r}" for x in "RB" for r in "1234567"][:13]],
            set_aside=["B7"],
        ),
        "13 human seats",
    ),
    "virtual seat without the variant": (
        _changed(seats=[_seat(c, virtual=i == 1) for i, c in enumerate(SIX)]),
        "1 virtual seats but virtual_players is 0",
    ),
    "virtual variant without virtual seats": (
        _changed(variants={"virtual_players": 2}),
        "0 virtual seats but virtual_players is 2",
    ),
    "bad variant value": (_changed(variants={"virtual_players": 3}), "virtual_players"),
    "unknown variant": (_changed(variants={"jokers": True}), "unknown variant 'jokers'"),
    "unknown card": (_changed(seats=[_seat("R9")] + [_seat(c) for c in SIX[1:]]), "R9"),
    "duplicate card": (
        _changed(seats=[_seat(c) for c in ["R1", "R1", *SIX[2:]]]),
        "card R1 appears more than once",
    ),
    "card removed in a small game": (
        _changed(seats=[_seat(c) for c in ["R2", *SIX[1:]]]),
        "card R2 is removed in a 6-seat game",
    ),
    "wrong per-colour count": (
        _changed(set_aside=["R5"]),
        "4 red cards in the deal and set aside; a 6-seat game uses 3",
    ),
    "missing neutral": (_changed(variants={"observer": True}), "neutral OBS is missing"),
    "neutral not in play": (_changed(set_aside=["SPY"]), "neutral SPY is not in play"),
    "first seat virtual": (
        _changed(
            variants={"virtual_players": 1},
            seats=[_seat(c, virtual=i == 0) for i, c in enumerate(SIX)],
            actions=[],
        ),
        "first seat 1 is virtual",
    ),
    "first seat missing": (_changed(first=7), "first must be a seat from 1 to 6"),
    "first round decapitation": (
        _changed(variants={"no_first_round_decapitation": True}, actions=[decap(1, 3).to_dict()]),
        "action 1: seat 1 may not decapitate in the first round",
    ),
    "decision out of turn": (
        _changed(actions=[scout(1, 5).to_dict(), scout(3, 5).to_dict()]),
        "action 2: it is not seat 3's decision",
    ),
    "missing proxy": (
        _changed(
            variants={"virtual_players": 1},
            seats=[_seat(c, virtual=i == 5) for i, c in enumerate(SIX)],
            actions=[decap(1, 3).to_dict()],
        ),
        "action 1: a decapitation must declare proxy",
    ),
    "decision after the game ended": (
        _changed(actions=[*GOOD["actions"], scout(4, 1).to_dict()]),
        "action 6: the game is over",
    ),
    "unknown act": (_changed(actions=[{"seat": 1, "act": "shoot"}]), "action 1: unknown act"),
    "act that is not text": (_changed(actions=[{"seat": 1, "act": ["scout"]}]), "action 1:"),
    "action missing a field": (
        _changed(actions=[{"seat": 1, "act": "scout"}]),
        "action 1: scout needs target",
    ),
    "action key with a line break": (
        _changed(actions=[{"seat": 1, "act": "scout", "target": 2, "a\nb": 1}]),
        "action 1: scout does not take",
    ),
    "actions not a list": (_changed(actions={"seat": 1}), "actions must be a list"),
    "not UTF-8": (b'{"format": "\xff"}', "cannot read -: not UTF-8 text"),
    "nested too deeply": ("[" * 100_000, "bad JSON"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_record_exits_2_with_one_line_naming_the_first_problem(case):
    value, expected = MALFORMED[case]
    _assert_refused(_replay(value), expected)


def test_missing_file_exits_2_with_one_line(tmp_path):
    _assert_refused(_run([str(tmp_path / "nowhere.json")]), "cannot read")


def test_file_that_is_not_utf8_exits_2_with_one_line(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b'{"format": "decapitation/1", "seats": [{"name": "\xff"}]}')
    _assert_refused(_run([str(path)]), "not UTF-8 text")


def test_record_file_is_read_from_a_path(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GOOD, ensure_ascii=False), encoding="utf-8")
    done = _run([str(path)])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == "blue"


def _unfinished(value) -> dict:
    done = _replay(value)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    return json.loads(done.stdout)


def test_unfinished_game_reports_whose_turn_it_is():
    value = _changed(actions=GOOD["actions"][:4])
    assert _unfinished(value) == {"finished": False, "waiting_for": 3, "phase": "turn"}


def test_unfinished_game_reports_a_speaking_moment():
    value = _changed(actions=GOOD["actions"][:3])
    assert _unfinished(value) == {"finished": False, "waiting_for": 2, "phase": "speak"}


def test_unfinished_game_reports_a_turncoat_choice():
    cards = ["R2", "B3", "RX", "B1", "R6", "B5", "R7", "BX"]
    value = record(cards, variants=Variants(turncoat=True), actions=[scout(1, 3)])
    assert _unfinished(value) == {"finished": False, "waiting_for": 3, "phase": "turncoat"}


def test_unfinished_game_reports_the_spys_guess():
    cards = ["R1", "SPY", "B7", "B4", "R4", "B3"]
    value = record(cards, variants=Variants(spy=True), first=3, actions=[decap(3, 5)])
    assert _unfinished(value) == {"finished": False, "waiting_for": 2, "phase": "spy"}


def test_game_with_every_variant_replays_to_its_result():
    cards = ["R1", "SPY", "B7", "B4", "R4", "OBS"]
    variants = Variants(
        virtual_players=1, no_first_round_decapitation=True, bodyguards=True, observer=True,
        spy=True, turncoat=True,
    )  # fmt: skip
    value = record(
        cards,
        variants=variants,
        virtual=[4],
        first=3,
        actions=[
            scout(3, 6),
            end(3),
            scout(5, 4),
            end(5),
            scout(6, 3),
            predict(6, "blue"),
            scout(1, 3),
            end(1),
            scout(2, 1),
            end(2),
            decap(3, 5, proxy=False, bodyguard=False),
            guess(2, 5, 3),
        ],
    )
    result = _unfinished(value)
    # By hand: Red's seats hold 1 and 4, so R4 at seat 5 leads; Blue's hold 7 and 4: B7 at 3.
    assert result == {
        "finished": True,
        "winner": "blue",
        "captains": {"red": 5, "blue": 3},
        "attacker": 3,
        "target": 5,
        "cards": {"1": "R1", "2": "SPY", "3": "B7", "4": "B4", "5": "R4", "6": "OBS"},
        "observer": {"seat": 6, "predicted": "blue", "won": True},
        "spy": {"seat": 2, "guess": {"red": 5, "blue": 3}, "won": True},
    }
