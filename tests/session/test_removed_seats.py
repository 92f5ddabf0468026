"""A removal tells the engine the seat is virtual from now on, without changing a button, and
without showing a swap still held in the Turncoat's window."""

from __future__ import annotations

from engine import Action
from engine.actions import SCOUT, SWAP
from engine.variants import Variants
from testing.deals import find_seed, lone_x, x_apart
from tests.support.tables import NOW, started

WINDOW = 10


def test_a_removal_makes_the_seat_virtual_for_the_engine_and_keeps_the_buttons() -> None:
    table = started(5, 3)
    seat = table.state.first % 5 + 1
    version = table.public_version
    table.remove(seat, "Host", NOW)
    assert seat in table.state.removed and table.state.asks_proxy
    assert table.public_version == version, "the buttons shown stay good"


def test_a_removal_after_a_swap_in_the_window_still_hides_the_swap() -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=WINDOW)
    first, holder = table.state.first, lone_x(table.state)
    table.act(table.user_at(first), Action(SCOUT, first, target=holder), NOW)
    dealt = list(table.state.cards)
    table.act(table.user_at(holder), Action(SWAP, holder), NOW + 1)
    third = next(s for s in range(1, 8) if s not in (first, holder))
    fourth = next(s for s in range(1, 8) if s not in (first, holder, third))
    table.remove(fourth, "Host", NOW + 2)
    assert table.state.log[-1].act == "remove"
    assert list(table.known_state(third).cards) == dealt
    assert list(table.public_state().cards) == dealt
    table.catch_up(NOW + WINDOW)
    assert list(table.known_state(third).cards) == list(table.state.cards)
