"""The Turncoat at six seats or fewer, where the deal has no X: the lobby says it has no effect,
and no scout is followed by its pause (nothing is hidden by skipping a wait no X can cause)."""

from __future__ import annotations

import re

import pytest

from engine import Variants
from engine.cards import is_x
from testing.deals import find_seed
from testing.drivers import Bot
from testing.games import after
from testing.players import Table

LANGS = ["en", "zh"]


def plain(text: str) -> str:
    return re.sub("<[^>]+>", "", text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_says_the_turncoat_has_no_effect_at_six_seats_or_fewer(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 7, lang=lang)
    table.open(table.players[1:5])
    table.configure(turncoat=True, virtual_players=1)
    idle = table.t("lobby_turncoat_idle", n=6)
    assert idle in table.lobby_message().text
    table.join(table.players[5])  # seven seats with the virtual player: an X may be dealt
    assert table.t("lobby_turncoat_idle", n=7) not in table.lobby_message().text
    assert not any(
        line.startswith("⚠️") and "X" in line for line in table.lobby_message().text.splitlines()
    )


@pytest.mark.parametrize("lang", LANGS)
def test_at_six_seats_or_fewer_a_scout_speaks_at_once_and_the_seating_says_why(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=30)
    state = table.start(seed=7)
    assert not any(is_x(card) for card in state.cards + state.set_aside)
    seating = table.lobby_message().text
    assert plain(table.t("turncoat_none", n=6)) in seating
    assert plain(table.t("turncoat_pause", s=30)) not in seating
    scout = state.first
    table.scout(scout, after(table, scout))
    # No pause: the speaking moment begins with the scout, with Done to press.
    speak = plain(table.t("speak_line", name=table.seat_label(scout)))
    assert speak in table.board().text
    assert table.player_at(scout).labels() == [table.t_for(table.player_at(scout), "btn_done")]
    assert table.data()["hold"] is None
    table.done(scout)
    assert table.state.turn == after(table, scout)


def test_at_seven_seats_the_pause_stays_whatever_the_cards(memory_bot: Bot) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), lambda s: not any(map(is_x, s.cards)))
    table = Table.of(memory_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    assert plain(table.t("turncoat_pause", s=10)) in table.lobby_message().text
    scout = state.first
    table.scout(scout, after(table, scout))
    assert table.player_at(scout).labels() == []  # the window runs though no X is out
    memory_bot.advance(10)
    assert table.player_at(scout).labels() == [table.t("btn_done")]
