"""Games played through the Telegram side's callbacks (the real Application, its handlers and a
SQLite store), with Telegram answered in memory by the fake Bot API: the fast tier's games.

Each test ends with the e2e checks (no card leaked, no call refused, no handler failed).
"""

from __future__ import annotations

import pytest

from handlers.display.render import isolate
from handlers.display.texts import card_name
from testing.drivers import Bot
from testing.games import after
from testing.players import OK_ANSWERS, Table

SEED = 33  # five players; seat 2 opens


def dealt(bot: Bot, lang: str = "en") -> Table:
    """Five players in a lobby, then dealt by `SEED`."""
    table = Table.of(bot, 5, lang=lang)
    table.open()
    table.start(seed=SEED)
    return table


def test_a_game_in_memory_is_in_the_fast_tier(
    memory_bot: Bot, request: pytest.FixtureRequest
) -> None:
    assert request.node.get_closest_marker("slow") is None
    assert memory_bot.fake._server is None, "the fake Bot API serves no HTTP here"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lobby_opens_on_newgame_and_names_everyone_who_joins(memory_bot: Bot, lang: str):
    table = Table.of(memory_bot, 5, lang=lang)
    table.host.say("/newgame")
    lobby = table.lobby_message()
    for key in ("btn_join", "btn_leave", "btn_settings", "btn_start"):
        assert table.t(key) in lobby.button_labels, (key, lobby.button_labels)
    for player in table.players[1:]:
        table.join(player)  # the Join link, then the welcome in the joiner's language
    text = table.lobby_message().text
    assert all(isolate(p.name) in text for p in table.players), text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_start_deals_each_player_their_own_card_privately(memory_bot: Bot, lang: str) -> None:
    table = dealt(memory_bot, lang)
    state = table.state
    for seat, card in enumerate(state.cards, start=1):
        player = table.player_at(seat)
        mine = table.t_for(player, "your_card", card=card_name(player.lang or lang, card))
        assert any(mine in text for text in player.texts()), player.texts()
    opener = table.t("turn_line", name=table.seat_label(state.first))
    assert opener in table.board().text


def test_the_acting_player_scouts_from_the_turn_message_and_alone_learns_the_card(
    memory_bot: Bot,
) -> None:
    table = dealt(memory_bot)
    state = table.state
    first, target = state.first, state.first % 5 + 1
    other = table.player_at(target)
    told = other.press(table.t("btn_scout"), table.board(), table.group)
    name = isolate(state.names[first - 1])
    assert told == table.t("turn_of", seat=first, name=name)
    table.scout_in_group(first, target)
    scout = table.player_at(first)
    card = card_name("en", state.cards[target - 1])
    seen = table.t("scout_result", target=table.seat_label(target), card=card)
    assert scout.texts()[-1] == f"{seen}\n{table.t('prompt_speak_group')}", scout.texts()
    line = table.t("scouted_line", name=table.seat_label(first), target=table.seat_label(target))
    assert line in table.board().text
    assert table.state.phase == "speak" and table.state.turn == first
    table.done_in_group(first)
    assert table.state.turn == target


def test_a_private_decapitation_ends_the_game_and_leaves_no_live_button(memory_bot: Bot):
    table = dealt(memory_bot)
    first = table.state.first
    table.decapitate(first, first % 5 + 1)
    assert table.ending() is not None, table.group_texts()[-3:]
    for player in table.players:
        assert player.prompt() is None, f"{player.name} still has buttons: {player.labels()}"
    assert table.t("btn_play_again") in table.ending().button_labels


def test_status_in_a_game_says_whose_turn_it_is(memory_bot: Bot) -> None:
    table = dealt(memory_bot)
    table.host.say("/status")
    status = table.group_texts()[-1]
    assert status.startswith(table.t("status_game")), status
    assert table.t("status_turn", name=table.seat_label(table.state.first)) in status


def test_a_turn_left_to_run_out_is_skipped_and_its_prompt_closes(memory_bot: Bot) -> None:
    table = dealt(memory_bot)
    first = table.state.first
    player = table.player_at(first)
    assert player.prompt() is not None
    memory_bot.advance(table.data()["settings"]["turn_seconds"])
    assert table.state.turn != first
    assert player.prompt() is None, player.labels()
    closed = table.t_for(player, "closed_timeout_turn")
    assert f"{table.dealt(player)}\n{closed}" in player.texts(), player.texts()  # below the card
    assert table.t("skipped_line", name=table.seat_label(first)) in "\n".join(table.group_texts())


def test_a_redelivered_press_changes_the_game_once(memory_bot: Bot) -> None:
    table = dealt(memory_bot)
    first = table.state.first
    scout = table.player_at(first)
    scout.press(table.t("btn_scout"), table.board(), table.group)
    update = scout.bot.act(
        lambda: table.fake.press(
            scout.user, table.group, table.board().message_id, table.seat_label(first % 5 + 1)
        )
    )
    version = table.state.version
    memory_bot.redeliver(update)
    assert table.state.version == version
    assert scout.answer_to(update) in OK_ANSWERS


def test_a_game_follows_its_group_upgraded_to_a_supergroup(memory_bot: Bot) -> None:
    table = dealt(memory_bot)
    first = table.state.first
    old = table.chat
    table.scout(first, after(table, first))
    table.upgrade_to_supergroup()
    assert table.chat != old and table.data()["chat"] == table.chat
    table.done(first)  # a private button made before the upgrade
    nxt = after(table, first)
    board = table.board()
    assert board.chat_id == table.chat
    assert table.t("turn_line", name=table.seat_label(nxt)) in board.text
    memory_bot.advance(table.data()["settings"]["turn_seconds"])  # a timer of the old chat id
    skipped = table.t("skipped_line", name=table.seat_label(nxt))
    assert skipped in "\n".join(table.group_texts())
    table.decapitate(table.state.turn, first)
    assert table.ending().chat_id == table.chat
