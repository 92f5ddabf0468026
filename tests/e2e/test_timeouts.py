"""Every kind of wait runs out on the clock, and the game goes on as the rules say."""

from __future__ import annotations

import pytest

from engine import Variants, captains
from testing import leaks
from testing.deals import find_seed, lone_x, spy_waits, x_apart
from testing.drivers import Bot, LambdaBot, LocalBot
from testing.players import Table


@pytest.mark.over_http
def test_turn_that_runs_out_is_skipped_and_the_group_is_told(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    state = table.start(seed=11)
    late = table.player_at(state.first)
    stale = late.prompt()
    bot.advance(89)
    assert table.state.turn == state.first
    bot.advance(1)
    skipped = table.t("skipped_line", name=table.seat_label(state.first))
    assert skipped in table.group_texts()[-2]
    assert table.group_texts()[-1].startswith(f"▶️ {table.seat_label(state.first % 4 + 1)}'s turn")
    closed = table.fake.message(late.user, stale.message_id)  # the prompt says it, no buttons
    skipped = f"{table.dealt(late, state)}\n⌛ Time ran out: turn skipped."  # below the card
    assert (closed.text, closed.buttons) == (skipped, [])
    scout = stale.button(table.t("btn_scout")).callback_data  # a client that missed the edit
    assert late.press_data(scout, closed) == "Too late: the game has moved on."
    assert table.state.turn == state.first % 4 + 1
    assert table.player_at(table.state.turn).labels() == [
        table.t("btn_scout"),
        table.t("btn_decapitate"),
    ]
    table.decapitate(table.state.turn, state.first)
    assert table.ending() is not None


def test_speaking_moment_that_runs_out_ends_the_turn(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    table.configure(speak_seconds=30)
    state = table.start(seed=12)
    table.scout(state.first, state.first % 4 + 1)
    scout = table.player_at(state.first)
    assert scout.labels() == [table.t("btn_done")]
    speak = scout.prompt()
    bot.advance(30)
    over = table.t("speak_over_line", name=table.seat_label(state.first))
    assert over in table.group_texts()[-2]
    assert table.fake.message(scout.user, speak.message_id).text == "⌛ Speaking time is over."
    assert scout.labels() == []
    assert table.state.turn == state.first % 4 + 1
    table.decapitate(table.state.turn, state.first)
    assert table.ending() is not None


def test_turncoat_who_stays_silent_keeps_the_card(lambda_bot: LambdaBot) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = Table.of(lambda_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    holder = lone_x(state)
    table.scout(state.first, holder)
    turncoat = table.player_at(holder)
    offer = turncoat.prompt()
    assert offer.button_labels == [table.t("btn_swap"), table.t("btn_keep")]
    lambda_bot.advance(10)
    closed = table.fake.message(turncoat.user, offer.message_id)
    assert (closed.text, closed.buttons) == ("⌛ Time ran out: you kept your card.", [])
    assert table.state.cards == state.cards  # no swap
    assert "🔄" not in table.board().text
    swap = offer.button(table.t("btn_swap")).callback_data
    assert turncoat.press_data(swap, closed) == "Too late: the game has moved on."
    table.done(state.first)
    table.decapitate(table.state.turn, holder)
    assert table.ending() is not None


def test_spy_who_makes_no_guess_in_time_loses(local_bot: LocalBot) -> None:
    seed, _ = find_seed(6, Variants(spy=True), spy_waits)
    table = Table.of(local_bot, 6)
    table.open()
    table.configure(spy=True, spy_seconds=10)
    state = table.start(seed)
    spy = state.holder("SPY")
    caps = captains(state.cards)
    target = next(s for s in range(1, 7) if s not in (state.first, spy))
    table.decapitate(state.first, target)
    prompt = table.player_at(spy).prompt()
    local_bot.advance(10)
    closed = table.fake.message(table.player_at(spy).user, prompt.message_id)
    assert (closed.text, closed.buttons) == ("⌛ Time ran out: no guess was sealed.", [])
    ending = table.ending().text
    assert f"🕵 The Spy {table.seat_label(spy)} made no guess and loses." in ending
    red = prompt.button(table.seat_label(caps["red"] or 1)).callback_data
    late = table.player_at(spy).press_data(red, closed)
    assert late == "Too late: the game has moved on."


def test_game_nobody_plays_for_a_whole_round_is_cancelled(bot: Bot) -> None:
    table = Table.of(bot, 4)
    table.open()
    table.configure(turn_seconds=30)
    table.start(seed=13)
    for _ in range(3):
        bot.advance(30)
        assert table.data()["status"] == "playing"
    last = table.state.turn
    bot.advance(30)
    assert table.data()["status"] == "cancelled"
    cancelled = table.group_texts()[-1]
    assert cancelled.startswith("🛑 Nobody played for a whole round, so the game was cancelled.\n")
    board = table.group_messages()[-2]
    *_, skipped, closing = board.text.splitlines()
    assert skipped == table.t("skipped_line", name=table.seat_label(last))
    assert closing == table.t("closed_cancelled")  # the turn message says it is over
    assert board.buttons == []  # no countdown and no My card button left behind
    assert table.data()["deadline"] is None
    bot.advance(600)
    assert table.group_texts()[-1] == cancelled


def test_lobby_nobody_starts_closes_when_its_countdown_ends(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    table.configure(auto_start=False)
    lambda_bot.advance(299)
    assert table.data()["status"] == "lobby"
    lambda_bot.advance(1)
    assert table.data()["status"] == "cancelled"
    lobby = table.lobby_message()
    assert lobby.text == "This lobby closed without a game. /newgame opens a new one."
    assert lobby.buttons == []


def test_local_bot_restarted_late_applies_the_deadline_it_missed(local_bot: LocalBot) -> None:
    table = Table.of(local_bot, 4)
    table.open()
    state = table.start(seed=14)
    local_bot.close()
    local_bot.tables.remove(table)
    local_bot.clock.advance(500)  # the bot was down well past the turn's deadline

    again = LocalBot(local_bot.fake, local_bot.clock, local_bot.db).start()
    try:
        table.bot = again
        for player in table.players:
            player.bot = again
        again.wait_for_wakes(1)  # resumed from the store at start-up
        skipped = table.t("skipped_line", name=table.seat_label(state.first))
        assert skipped in table.group_texts()[-2]
        assert table.state.turn == state.first % 4 + 1
        assert table.data()["deadline"] == local_bot.clock() + 90
        table.decapitate(table.state.turn, state.first)
        assert table.ending() is not None
        leaks.check(table)
        assert not again.errors
    finally:
        again.close()


def test_each_deadline_costs_one_timer_message_however_long_the_game(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 5)
    table.open()
    lambda_bot.advance(200)  # the lobby's reminder is not due yet
    timers = lambda_bot.application.bot_data["runtime"].keeper.wake
    assert timers.sent == 1  # one for the lobby's reminder
    table.start(seed=15)
    sent = timers.sent
    for _ in range(12):  # people take their time, so older timers come before their deadline
        seat = table.state.turn
        lambda_bot.advance(20)
        table.scout(seat, seat % 5 + 1)
        lambda_bot.advance(20)
        table.done(seat)
    assert timers.sent - sent == 24  # one per new deadline, none for timers since replaced
    table.decapitate(table.state.turn, table.state.turn % 5 + 1)
    lambda_bot.advance(3600)
    assert timers.sent - sent == 24
    assert lambda_bot.due_timers() == []
