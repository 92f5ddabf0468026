"""The secret windows: while a Turncoat or the Spy may decide, the group's news is held, and
nothing the group can see (its events, the buttons' version, the wait's length) tells whether
they decided, or what."""

from __future__ import annotations

from engine import Action, captains
from engine.actions import DECAPITATE, KEEP, SCOUT, SPY_GUESS, SWAP
from engine.variants import Variants
from handlers.session import events as ev
from handlers.session.table import Table
from testing.deals import find_seed, lone_x, spy_can_win, x_apart
from tests.support.tables import NOW, started

GROUP = (ev.BOARD_SHOWN, ev.BOARD_OPENED, ev.FINISHED, ev.CANCELLED, ev.AWAY, ev.RETURNED)
WINDOW = 10


def group_news(events: list[dict]) -> list[dict]:
    """What the group is told (everything but private messages and prompts)."""
    return [e for e in events if e["type"] in GROUP]


def turncoat_scouted() -> tuple[Table, int, int]:
    """Seven players with the Turncoat; the first has just scouted the X card's holder."""
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=WINDOW)
    first, holder = table.state.first, lone_x(table.state)
    table.act(table.user_at(first), Action(SCOUT, first, target=holder), NOW)
    return table, first, holder


def test_the_turncoat_s_choice_shows_nowhere_until_the_window_ends() -> None:
    shown = {}
    for choice in (SWAP, KEEP, None):  # None: the Turncoat stays silent
        table, _, holder = turncoat_scouted()
        version = table.public_version
        during = []
        if choice is not None:
            during = table.act(table.user_at(holder), Action(choice, holder), NOW + 1)
        assert group_news(during) == [], choice
        assert table.public_version == version, "a button would tell that the Turncoat chose"
        assert table.catch_up(NOW + WINDOW - 1) == []
        assert table.deadline() == NOW + WINDOW, "the window is fixed, whatever was chosen"
        shown[choice] = [e["type"] for e in group_news(table.catch_up(NOW + WINDOW))]
    assert shown[SWAP] == shown[KEEP] == shown[None] != []


def test_during_the_window_a_swap_is_known_only_to_its_two_seats() -> None:
    table, first, holder = turncoat_scouted()
    dealt = list(table.state.cards)
    table.act(table.user_at(holder), Action(SWAP, holder), NOW + 1)
    third = next(s for s in range(1, 8) if s not in (first, holder))
    assert list(table.known_state(third).cards) == dealt
    assert list(table.public_state().cards) == dealt
    for seat in (first, holder):
        known = table.known_state(seat).cards
        assert (known[first - 1], known[holder - 1]) == (dealt[holder - 1], dealt[first - 1])
    table.catch_up(NOW + WINDOW)
    assert list(table.known_state(third).cards) == list(table.state.cards)


def test_the_scout_speaks_only_once_the_window_ends() -> None:
    table, first, holder = turncoat_scouted()
    table.act(table.user_at(holder), Action(KEEP, holder), NOW + 1)
    assert table.speaker() is None
    table.catch_up(NOW + WINDOW)
    assert table.speaker() == table.user_at(first)


def spy_announced() -> tuple[Table, int, dict, list[dict]]:
    """Six players with the Spy; the first has just announced a decapitation. Returns the
    table, the Spy's seat, the captains, and what the announcement said."""
    seed, _ = find_seed(6, Variants(spy=True), spy_can_win)
    table = started(6, seed, spy=True, spy_seconds=15)
    state = table.state
    spy = state.holder("SPY")
    target = next(s for s in range(1, 7) if s not in (state.first, spy))
    decapitate = Action(DECAPITATE, state.first, target=target)
    events = table.act(table.user_at(state.first), decapitate, NOW)
    return table, spy, captains(state.cards), events


def test_the_spy_s_wait_seals_the_target_and_the_end_until_it_runs_out() -> None:
    table, spy, _, events = spy_announced()
    board = next(e for e in events if e["type"] == ev.BOARD_SHOWN)
    assert ["sealed", 15] in board["board"]["lines"]
    assert ev.FINISHED not in [e["type"] for e in events]
    asked = [e for e in events if e["type"] == ev.PRIVATE and e["event"]["type"] == "spy_turn"]
    assert [table.user_at(e["event"]["to"]) for e in asked] == [table.user_at(spy)]
    assert table.status == "playing" and table.deadline() == NOW + 15


def test_the_spy_s_guess_shows_nowhere_and_the_wait_keeps_its_length() -> None:
    ends = {}
    for guesses in (True, False):
        table, spy, caps, _ = spy_announced()
        version = table.public_version
        if guesses:
            guess = Action(SPY_GUESS, spy, red=caps["red"], blue=caps["blue"])
            assert group_news(table.act(table.user_at(spy), guess, NOW + 2)) == []
        assert table.public_version == version
        during = table.catch_up(NOW + 14)
        assert group_news(during) == []
        hurried = [e["seat"] for e in during if e["type"] == ev.HURRY]  # privately, if silent
        assert hurried == ([] if guesses else [spy])
        end = table.catch_up(NOW + 15)
        assert table.status == "over"
        ends[guesses] = [e["type"] for e in group_news(end)]
    assert ends[True] == ends[False]
    assert ev.FINISHED in ends[True]


def test_a_silent_spy_s_prompt_closes_when_the_wait_runs_out() -> None:
    table, spy, _, _ = spy_announced()
    closed = [e for e in table.catch_up(NOW + 15) if e["type"] == ev.PROMPT_CLOSED]
    spy_user = table.user_at(spy)
    told = [e for e in closed if e["user"] == spy_user]
    assert [e["outcome"] for e in told] == [{"act": "timeout", "phase": "spy"}], closed
