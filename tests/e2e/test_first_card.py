"""The player whose turn opens the game gets one message at the deal: their seat and card, then
their turn, with its buttons. When that turn's prompt closes, the message keeps the card above
what happened. Every other player's card comes as ever, on its own."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import GameState, Variants
from handlers.display.render import isolate
from handlers.display.texts import card_name
from testing.deals import find_seed
from testing.drivers import Bot
from testing.players import NAMES, Table

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])


def dealt(table: Table, seed: int | None = None) -> tuple[GameState, dict[int, list]]:
    """The host presses Start: the deal, and the messages each player's chat got from it."""
    before = {p.id: len(p.messages()) for p in table.players}
    state = table.start(seed=seed)
    return state, {p.id: p.messages()[before[p.id] :] for p in table.players}


@LANGS
def test_the_first_player_gets_their_card_and_their_turn_in_one_message(
    bot: Bot, lang: str
) -> None:
    table = Table.of(bot, 5, lang=lang)
    table.open()
    state, news = dealt(table, seed=41)
    first = table.player_at(state.first)
    (message,) = news[first.id]
    turn = table.t_for(first, "prompt_turn", group=isolate(table.title))
    assert message.text == f"{table.dealt(first, state)}\n{turn}"
    assert message.button_labels == [
        table.t_for(first, "btn_scout"),
        table.t_for(first, "btn_decapitate"),
    ]
    assert first.prompt() is not None and first.prompt().message_id == message.message_id
    for player in table.players:
        if player is not first:  # their card, on its own, with nothing to press
            (card,) = news[player.id]
            assert (card.text, card.buttons) == (table.dealt(player, state), [])


def scout_privately(table: Table, first: int) -> str:
    table.scout(first, first % 5 + 1)
    seen = card_name(table.lang, table.state.cards[first % 5])
    return table.t("scout_result", target=table.seat_label(first % 5 + 1), card=seen)


def scout_in_group(table: Table, first: int) -> str:
    table.scout_in_group(first, first % 5 + 1)
    return table.t("closed_scout", target=table.seat_label(first % 5 + 1))


def decapitate(table: Table, first: int) -> str:
    table.decapitate(first, first % 5 + 1)
    assert table.ending() is not None
    return table.t("closed_decapitate", target=table.seat_label(first % 5 + 1), decl="")


def time_out(table: Table, first: int) -> str:
    table.bot.advance(table.data()["settings"]["turn_seconds"])
    assert table.state.turn != first
    return table.t("closed_timeout_turn")


def cancel(table: Table, first: int) -> str:
    table.host.say("/cancel")
    assert table.data()["status"] == "cancelled"
    return table.t("closed_cancelled")


CLOSES: dict[str, Callable[[Table, int], str]] = {
    "scout": scout_privately,
    "scout_in_group": scout_in_group,
    "decapitate": decapitate,
    "timeout": time_out,
    "cancel": cancel,
}


@LANGS
@pytest.mark.parametrize("close", list(CLOSES))
def test_the_first_turns_prompt_keeps_the_card_when_it_closes(
    bot: Bot, lang: str, close: str
) -> None:
    table = Table.of(bot, 5, lang=lang)
    table.open()
    state, news = dealt(table, seed=42)
    first = table.player_at(state.first)
    (message,) = news[first.id]
    outcome = CLOSES[close](table, state.first)
    closed = table.fake.message(first.user, message.message_id)
    assert closed.text == f"{table.dealt(first, state)}\n{outcome}"
    assert closed.buttons == []


def test_a_first_player_the_bot_cannot_reach_is_named_and_still_gets_their_card(
    bot: Bot,
) -> None:
    seed, deal = find_seed(4, Variants(), lambda s: True)
    table = Table.of(bot, 4)
    table.open()
    first = table.players[NAMES.index(deal.names[deal.first - 1])]
    # They block the bot after the lobby greeted them, and Telegram has not told it yet.
    blocked = "Forbidden: bot was blocked by the user"
    bot.fake.fail_next("sendMessage", status=403, description=blocked, chat_id=first.user)
    state, news = dealt(table, seed=seed)
    assert state.first == table.seat_of(first) and news[first.id] == []
    assert table.data()["unreachable"] == [first.id]
    warning = next(m for m in table.group_messages() if (m.text or "").startswith("⚠️"))
    button = table.t("btn_open_chat")
    names = table.seat_label(state.first)
    assert warning.text == table.t("cannot_reach_blocked", names=names, button=button, s=30)
    assert table.t("time_left", s=30) in table.board().text.splitlines()
    first.private("/mycard")
    assert first.last_text().startswith(table.dealt(first, state))
