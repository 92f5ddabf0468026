"""Captains: lowest number, or highest when the team holds the 4; never an X; seats only."""

from __future__ import annotations

from engine import apply, captain, captains
from tests.engine.helpers import decap, table


def test_captain_is_lowest_number():
    assert captain(["R3", "R5", "R1", "B2"], "red") == 3


def test_captain_is_lowest_number_for_blue_too():
    assert captain(["B6", "R1", "B2", "B7"], "blue") == 3


def test_captain_is_highest_number_when_team_holds_the_4():
    assert captain(["R1", "R4", "R7", "R3"], "red") == 3


def test_the_4_itself_is_captain_when_it_is_the_highest():
    assert captain(["R1", "R4", "R3", "B7"], "red") == 2


def test_the_4_alone_is_its_team_captain():
    assert captain(["R4", "B1", "B2"], "red") == 1


def test_the_other_colours_4_does_not_flip_the_rule():
    assert captain(["R1", "B4", "R7"], "red") == 1


def test_x_is_never_captain_even_when_lowest_in_order():
    assert captain(["RX", "R5", "R6"], "red") == 2


def test_x_is_never_captain_when_the_team_holds_the_4():
    assert captain(["R4", "RX", "R2"], "red") == 1


def test_colour_holding_only_an_x_has_no_captain():
    assert captain(["RX", "B1", "B2", "B3"], "red") is None


def test_empty_colour_has_no_captain():
    assert captains(["B1", "B2", "OBS", "SPY"]) == {"red": None, "blue": 1}


def test_neutral_cards_are_never_captain():
    assert captains(["OBS", "R5", "SPY", "B7"]) == {"red": 2, "blue": 4}


def test_set_aside_4_does_not_make_the_captain_the_highest():
    # Seven seats: one red card is set aside. It is the R4, so Red's seats hold 1, 5, 7 only.
    state = table(["R1", "B2", "R5", "B3", "R7", "B6", "B5"], set_aside=["R4"])
    state, _ = apply(state, decap(1, 2))
    assert state.outcome.captains == {"red": 1, "blue": 2}
    assert state.outcome.winner == "red"


def test_set_aside_lowest_card_does_not_count_as_captain():
    # The B1 is set aside; Blue's seats hold 2, 3, 6, so B2 at seat 2 leads them.
    state = table(["R1", "B2", "R5", "B3", "R7", "B6", "R3"], set_aside=["B1"], first=2)
    state, _ = apply(state, decap(2, 1))
    assert state.outcome.captains == {"red": 1, "blue": 2}
    assert state.outcome.winner == "blue"
