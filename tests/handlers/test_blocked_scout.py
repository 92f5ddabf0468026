"""A player who blocked the bot cannot spend a scout from the group's turn message: the card
could not reach them, so the press is answered with an alert and the turn stays theirs."""

from __future__ import annotations

import pytest

from testing.drivers import Bot
from testing.players import Table

SEED = 33  # five players; seat 2 opens


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_scout_pressed_by_a_player_who_blocked_the_bot_is_refused_with_an_alert(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=SEED)
    first = table.state.first
    scout = table.player_at(first)
    memory_bot.act(lambda: table.fake.block(scout.user))
    scout.press(table.t("btn_scout"), table.board(), table.group)
    version = table.state.version
    update = memory_bot.act(
        lambda: table.fake.press(
            scout.user, table.group, table.board().message_id, table.seat_label(first % 5 + 1)
        )
    )
    query = update["callback_query"]["id"]
    (answer,) = [a for a in table.fake.callback_answers if a.query_id == query]
    assert (answer.text, answer.show_alert) == (table.t_for(scout, "scout_unblock_first"), True)
    state = table.state
    assert (state.version, state.phase, state.turn) == (version, "turn", first)


def pressed_scout(bot: Bot, table: Table, scout) -> str | None:
    """The acting player presses Scout, then a seat, on the turn message; the seat's answer."""
    first = table.state.first
    scout.press(table.t("btn_scout"), table.board(), table.group)
    update = bot.act(
        lambda: table.fake.press(
            scout.user, table.group, table.board().message_id, table.seat_label(first % 5 + 1)
        )
    )
    query = update["callback_query"]["id"]
    (answer,) = [a for a in table.fake.callback_answers if a.query_id == query]
    return answer.text


def test_a_scout_whose_players_block_telegram_told_is_refused_without_asking_telegram(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5)
    table.open()
    table.start(seed=SEED)
    scout = table.player_at(table.state.first)
    memory_bot.act(lambda: table.fake.block(scout.user))
    asked = len(table.fake.calls_to("sendChatAction"))
    assert pressed_scout(memory_bot, table, scout) == table.t("scout_unblock_first")
    assert len(table.fake.calls_to("sendChatAction")) == asked
    assert table.t("scout_unblock_first") not in table.group_texts()


def test_a_scout_asks_telegram_nothing_and_a_player_who_unblocked_may_scout_again(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5)
    table.open()
    table.start(seed=SEED)
    first = table.state.first
    scout = table.player_at(first)
    memory_bot.act(lambda: table.fake.block(scout.user))
    memory_bot.act(lambda: table.fake.unblock(scout.user))
    asked = len(table.fake.calls_to("sendChatAction"))
    assert pressed_scout(memory_bot, table, scout) != table.t("scout_unblock_first")
    assert len(table.fake.calls_to("sendChatAction")) == asked
    assert table.state.phase == "speak" and table.state.turn == first
