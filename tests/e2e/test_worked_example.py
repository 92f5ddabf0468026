"""The rule card's worked example, dealt from a seed and played through the bot."""

from __future__ import annotations

from engine import Variants, new_game
from testing.deals import WORKED_EXAMPLE_DEAL, WORKED_EXAMPLE_SEED
from testing.drivers import Bot
from testing.players import Table


def test_the_seed_deals_the_worked_example() -> None:
    state, _ = new_game(["a", "b", "c", "d", "e", "f"], Variants(), WORKED_EXAMPLE_SEED)
    assert state.deal == WORKED_EXAMPLE_DEAL
    assert state.first == 1
    assert state.set_aside == ()


def test_worked_example_captain_decapitates_captain_and_blue_wins(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6)
    table.open()
    state = table.start(seed=WORKED_EXAMPLE_SEED)
    expected, _ = new_game(table.lobby_names(), Variants(), WORKED_EXAMPLE_SEED)
    assert state.names == expected.names
    assert state.deal == expected.deal == WORKED_EXAMPLE_DEAL
    assert state.first == 1

    seating = table.lobby_message().text
    assert seating.startswith("🎲 The game begins.")
    assert table.t("starts", name=table.seat_label(1)) in seating
    for seat, card in enumerate(("Red 1", "Red 3", "Blue 7", "Blue 4", "Red 4", "Blue 3"), 1):
        player = table.player_at(seat)
        assert f"Your card: {card}" in player.texts()[-1]  # the first's, with their turn

    first = table.player_at(1)
    table.scout(1, 5)
    seen = f"🔍 {table.seat_label(5)} holds Red 4."
    assert first.texts()[-2] == f"{table.dealt(first, state)}\n{seen}"
    assert table.t("scouted_line", name=table.seat_label(1), target=table.seat_label(5)) in (
        table.board().text
    )
    table.done(1)
    table.scout_and_done(2, 3)
    assert table.player_at(2).texts()[-2] == f"🔍 {table.seat_label(3)} holds Blue 7."
    table.decapitate(3, 5)

    ending = table.ending()
    assert ending is not None
    lines = ending.text.splitlines()
    assert lines[0] == "🏁 Blue wins!"
    assert lines[1] == f"{table.seat_label(3)} (Blue 7) decapitated {table.seat_label(5)} (Red 4)."
    assert lines[2] == "Captain on captain: it worked."
    assert f"{table.seat_label(5)}: Red 4 👑 captain" in lines
    assert f"{table.seat_label(3)}: Blue 7 👑 captain" in lines
    assert table.data()["status"] == "over"
    assert table.state.outcome.winner == "blue"
