"""The waits that hold the group's news: the Spy is told how long they have and hurried
privately (the group sees nothing of it), and a scout whose speaking moment waits for the
Turncoat's pause is told so, privately and on the turn message."""

from __future__ import annotations

import re

import pytest

from engine import Variants
from testing.deals import find_seed, spy_waits, x_apart
from testing.drivers import Bot
from testing.games import after
from testing.players import Table

LANGS = ["en", "zh"]


def plain(text: str) -> str:
    return re.sub("<[^>]+>", "", text)


def group_calls_since(table: Table, mark: int) -> list[str]:
    """What the bot did in the group since call number `mark`: the method of each call."""
    calls = table.fake.calls[mark:]
    return [c.method for c in calls if c.params.get("chat_id") == table.chat and c.kind == "ok"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_spy_is_told_the_time_and_hurried_privately(memory_bot: Bot, lang: str) -> None:
    seed, _ = find_seed(6, Variants(spy=True), spy_waits)
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    spy = table.player_at(state.holder("SPY"))
    table.decapitate(state.first, next(s for s in range(1, 7) if s not in (state.first,)))
    question = spy.prompt().text
    assert question.endswith("\n" + table.t_for(spy, "spy_time", s=15))
    mark, told = len(memory_bot.fake.calls), len(spy.texts())
    memory_bot.advance(10)
    assert spy.texts()[told:] == [table.t_for(spy, "hurry", s=5)]
    assert group_calls_since(table, mark) == []  # the group sees nothing of it
    memory_bot.advance(5)
    assert table.ending() is not None


def test_a_spy_who_answered_is_not_hurried(memory_bot: Bot) -> None:
    seed, _ = find_seed(6, Variants(spy=True), spy_waits)
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    seat = state.holder("SPY")
    table.decapitate(state.first, next(s for s in range(1, 7) if s not in (state.first, seat)))
    table.spy_guess(seat, state.first, state.first)
    told = len(table.player_at(seat).texts())
    memory_bot.advance(10)
    assert table.player_at(seat).texts()[told:] == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_scout_is_told_they_speak_after_the_pause(memory_bot: Bot, lang: str) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = Table.of(memory_bot, 7, lang=lang, bot_admin=True)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=20)
    state = table.start(seed)
    scout = state.first
    player = table.player_at(scout)
    target = after(table, scout)
    table.scout(scout, target)
    result = next(text for text in reversed(player.texts()) if "\n🔍" in text)  # below the card
    assert result.endswith("\n" + table.t_for(player, "scout_wait_deleted", s=20))
    waits = plain(table.t("pause_line", name=table.seat_label(scout), s=20))
    assert waits in table.board().text
    early = player.say("seat 2 is red")
    assert table.fake.message(table.group, early["message"]["message_id"]).deleted
    memory_bot.advance(20)
    board = table.board().text
    assert waits in board  # what the turn message said stays, and the moment follows
    assert plain(table.t("speak_line", name=table.seat_label(scout))) in board
    late = player.say("seat 2 is red")
    assert not table.fake.message(table.group, late["message"]["message_id"]).deleted


def test_without_deleting_the_scout_is_told_only_to_wait(memory_bot: Bot) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = Table.of(memory_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    player = table.player_at(state.first)
    table.scout(state.first, after(table, state.first))
    result = next(text for text in reversed(player.texts()) if "\n🔍" in text)  # below the card
    assert result.endswith("\n" + table.t("scout_wait", s=10))


def sealed_target(memory_bot: Bot, lang: str) -> tuple[Table, str]:
    """Six players with the Spy; the first has announced a decapitation and the target is
    sealed. Returns the table and the sealed line its turn message shows."""
    seed, _ = find_seed(6, Variants(spy=True), spy_waits)
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    table.decapitate(state.first, next(s for s in range(1, 7) if s != state.first))
    sealed = plain(table.t("sealed_line", s=15))
    assert sealed in table.board().text
    return table, sealed


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("end", ["reveal", "cancel", "everyone_leaves"])
def test_no_turn_message_says_a_target_is_sealed_once_the_game_has_ended(
    memory_bot: Bot, lang: str, end: str
) -> None:
    table, sealed = sealed_target(memory_bot, lang)
    if end == "reveal":
        memory_bot.advance(15)
        assert table.ending() is not None
    elif end == "cancel":
        table.host.say("/cancel")
        assert table.data()["status"] == "cancelled"
    else:
        for player in table.players:
            player.private("/leave")
            player.press(table.t_for(player, "btn_leave_game"), player.messages()[-1])
        assert table.data()["status"] != "playing"
    assert not any(sealed in plain(text) for text in table.group_texts())
