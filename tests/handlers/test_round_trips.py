"""What an update costs in round trips: DynamoDB calls, and Telegram calls on a cold start."""

from __future__ import annotations

import pytest

from tests.e2e.drivers import LambdaBot
from tests.e2e.players import Table
from tests.fake_telegram import BOT_USERNAME


def test_a_move_reads_its_table_once(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=51)
    player = table.player_at(state.first)
    target = table.seat_label(state.first % 4 + 1)
    store = lambda_bot.store
    reads, writes = store.reads, store.writes
    player.press(table.t("btn_scout"))  # opens a menu: changes no game
    assert (store.reads - reads, store.writes - writes) == (1, 0)
    reads, writes = store.reads, store.writes
    player.press(target)  # the change, then the new message ids and delivery marked
    assert (store.reads - reads, store.writes - writes) == (1, 2)


def test_a_press_is_answered_before_the_change_is_marked_delivered(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=51)
    player = table.player_at(state.first)
    player.press(table.t("btn_scout"))
    target = table.seat_label(state.first % 4 + 1)
    mark = len(lambda_bot.fake.calls)
    player.press(target)
    methods = [call.method for call in lambda_bot.fake.calls[mark:]]
    # The answer goes out with the change's first messages, not after all of them.
    assert methods.index("answerCallbackQuery") < len(methods) - 1


def test_with_the_username_configured_a_cold_start_asks_telegram_nothing(
    lambda_bot: LambdaBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOT_USERNAME", BOT_USERNAME)
    table = Table.of(lambda_bot, 4)
    table.open()
    assert lambda_bot.fake.calls_to("getMe") == []
    join = table.lobby_message().button(table.t("btn_join")).url
    assert join.startswith(f"https://t.me/{BOT_USERNAME}?start=")
    assert len(table.data()["players"]) == 4
