"""A removed seat is a virtual seat for the rest of the game: when it holds its colour's captain,
a human of that colour may decapitate on its behalf with the proxy declaration, with or without
the virtual players variant; a neutral card on it has no effect. The record replays the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import GameState, Variants, captains
from engine.__main__ import replay_command
from engine.cards import OBSERVER, SPY, color, other
from testing.deals import find_seed
from testing.drivers import Bot
from testing.fake_telegram import FakeMessage
from testing.games import after, remove
from testing.players import Player, Table

LANGS = ["en", "zh"]


def captain_beside_the_first(state: GameState) -> bool:
    """The first player holds a colour whose captain is another human, and the other colour
    has a captain the first player can strike (not themselves)."""
    side = color(state.cards[state.first - 1])
    if side is None:
        return False
    caps = captains(state.cards)
    own, target = caps[side], caps[other(side)]
    return own not in (None, state.first) and target not in (None, state.first)


def replayed(player: Player, tmp_path: Path, capsys: pytest.CaptureFixture) -> dict:
    """What `python -m engine replay` prints for the record `player` was sent last."""
    (document,) = [m for m in player.fake.chat(player.user) if m.document is not None][-1:]
    path = tmp_path / "record.json"
    path.write_bytes(document.document.data)
    capsys.readouterr()
    assert replay_command(str(path)) == 0
    return json.loads(capsys.readouterr().out)


def record_of(table: Table, ending: FakeMessage, tmp_path, capsys) -> dict:
    """The end's Record, pressed by the host, replayed."""
    assert table.host.press(table.t("btn_record"), ending) == table.t("record_sent")
    return replayed(table.host, tmp_path, capsys)


@pytest.mark.parametrize("lang", LANGS)
def test_a_removed_captain_is_virtual_so_its_colour_may_decapitate_on_its_behalf(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    seed, _ = find_seed(5, Variants(), captain_beside_the_first)
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    state = table.start(seed)
    side = color(state.cards[state.first - 1])
    caps = captains(state.cards)
    own, target = caps[side], caps[other(side)]
    assert remove(table, table.host, own) is None
    attacker = table.player_at(state.first)
    attacker.press(table.t_for(attacker, "btn_decapitate"))
    attacker.press(table.seat_label(target, attacker.lang))
    assert attacker.prompt().text == table.t_for(attacker, "ask_proxy")
    attacker.press(table.t_for(attacker, "btn_yes"))
    assert attacker.press(table.t_for(attacker, "btn_confirm")) is None
    ending = table.ending()
    assert ending is not None
    lines = ending.text.splitlines()
    assert table.t("end_success") in lines
    yes = table.t("decl_proxy", v=table.t("btn_yes"))
    assert any(yes in line for line in lines)
    assert table.state.outcome.winner == side
    result = record_of(table, ending, tmp_path, capsys)
    assert result["finished"] is True and result["winner"] == side


def test_once_a_seat_is_removed_every_decapitation_declares_and_a_wrong_no_loses(
    memory_bot: Bot,
) -> None:
    seed, _ = find_seed(5, Variants(), captain_beside_the_first)
    table = Table.of(memory_bot, 5)
    table.open()
    state = table.start(seed)
    side = color(state.cards[state.first - 1])
    caps = captains(state.cards)
    own, target = caps[side], caps[other(side)]
    assert remove(table, table.host, own) is None
    table.decapitate(state.first, target, proxy=False)
    ending = table.ending().text
    assert table.t("why_wrong_proxy_declaration") in ending
    assert table.state.outcome.winner == other(side)


def neutral_apart(card: str):
    """The deal's `card` is held by a seat neither the first player nor the one after."""

    def wanted(state: GameState) -> bool:
        holder = state.holder(card)
        first = state.first
        return holder not in (None, first, first % 5 + 1) and color(state.cards[first - 1])

    return wanted


@pytest.mark.parametrize("lang", LANGS)
def test_a_removed_observer_has_no_effect_and_neither_wins_nor_loses(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    seed, _ = find_seed(5, Variants(observer=True), neutral_apart(OBSERVER))
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.configure(observer=True)
    state = table.start(seed)
    seat = state.holder(OBSERVER)
    assert remove(table, table.host, seat) is None
    table.decapitate(state.first, after(table, state.first), proxy=False)
    ending = table.ending().text
    name = table.seat_label(seat)
    assert table.t("neutral_removed", name=name, card=table.t("role_observer")) in ending
    for key in ("observer_won", "observer_lost", "observer_silent"):
        assert table.t(key, name=name) not in ending
    winners = next(line for line in ending.splitlines() if line.startswith("🏆"))
    assert name not in winners
    result = record_of(table, table.ending(), tmp_path, capsys)
    assert result["observer"] == {"seat": seat, "predicted": None, "won": None, "removed": True}


@pytest.mark.parametrize("lang", LANGS)
def test_a_removed_spy_has_no_effect_and_the_wait_is_the_same(
    memory_bot: Bot, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    seed, _ = find_seed(5, Variants(spy=True), neutral_apart(SPY))
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    seat = state.holder(SPY)
    assert remove(table, table.host, seat) is None
    table.decapitate(state.first, after(table, state.first), proxy=False)
    assert table.ending() is None  # the sealed wait runs its full time
    memory_bot.advance(15)
    ending = table.ending().text
    name = table.seat_label(seat)
    assert table.t("neutral_removed", name=name, card=table.t("role_spy")) in ending
    assert table.t("spy_silent", name=name) not in ending
    result = record_of(table, table.ending(), tmp_path, capsys)
    assert result["spy"] == {"seat": seat, "guess": None, "won": None, "removed": True}
