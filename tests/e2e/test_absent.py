"""Absent players: a player who misses two turns in a row is skipped at once until they come
back, and the host or an admin may remove a player, whose seat then plays on as skipped."""

from __future__ import annotations

import pytest

from engine import Variants, captains
from engine.cards import color
from handlers.display.render import isolate
from handlers.display.texts import card_name
from testing.deals import find_seed
from testing.drivers import Bot
from testing.games import TURN, after, miss_two_turns, remove, scout_the_next
from testing.players import Table


def test_a_player_who_misses_two_turns_is_skipped_at_once_until_they_act_again(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=11)
    away = miss_two_turns(memory_bot, table)
    absent = table.player_at(away)
    assert absent.texts()[-2:] == [
        table.t("closed_timeout_turn"),
        table.t("away_private", group=isolate(table.title)),
    ]
    assert absent.labels() == [table.t("btn_back_in")]
    told = absent.prompt()
    sent = len(absent.messages())

    # The next time round, the away seat's turn passes at once: nobody waits for it.
    seat = table.state.turn
    while after(table, seat) != away:
        scout_the_next(table, seat)
        seat = table.state.turn
    scout_the_next(table, seat)
    assert table.state.turn == after(table, away)
    passed = table.t("passed_away_line", name=table.seat_label(away))
    assert passed in table.group_texts()[-2].splitlines()
    assert len(absent.messages()) == sent  # no turn prompt was sent

    # They press I'm back: from their next turn the game waits for them again.
    assert absent.press(table.t("btn_back_in")) is None  # the message itself says it
    told = table.fake.message(absent.user, told.message_id)
    assert told.text == table.t("back_private", group=isolate(table.title))
    assert told.buttons == []
    seat = table.state.turn
    while seat != away:
        scout_the_next(table, seat)
        seat = table.state.turn
    assert absent.labels() == [table.t("btn_scout"), table.t("btn_decapitate")]
    memory_bot.advance(TURN - 1)
    assert table.state.turn == away
    scout_the_next(table, away)
    assert table.state.turn == after(table, away)


def test_the_group_is_told_when_a_player_is_marked_away_and_when_they_return(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    table.open()
    table.start(seed=31)
    away = miss_two_turns(memory_bot, table)
    absent = table.player_at(away)
    marked = f"⏸ {table.seat_label(away)} 连续两次超时，已标为暂离；回来之前，其回合都会直接跳过。"
    assert table.t("away_marked", name=table.seat_label(away)) == marked
    assert marked in table.group_texts()
    assert table.group_texts()[-1].startswith(f"▶️ 轮到 {table.seat_label(after(table, away))}")
    assert absent.labels() == ["👋 我回来了"]
    told = absent.prompt()

    # Twice round the table: the group is told only once, and its turn passes each time.
    for _ in range(2):
        seat = table.state.turn
        while after(table, seat) != away:
            scout_the_next(table, seat)
            seat = table.state.turn
        scout_the_next(table, seat)
    assert table.group_texts().count(marked) == 1

    # /mycard in private brings them back; the group hears it when their turn comes.
    absent.private("/mycard")
    told = table.fake.message(absent.user, told.message_id)
    assert told.text == table.t("back_private", group=isolate(table.title))
    assert told.buttons == []
    back = f"👋 {table.seat_label(away)} 回来了，重新参与游戏。"
    assert back not in table.group_texts()
    seat = table.state.turn
    while seat != away:
        scout_the_next(table, seat)
        seat = table.state.turn
    assert table.group_texts()[-2] == back
    assert table.group_texts()[-1].startswith(f"▶️ 轮到 {table.seat_label(away)}")
    table.decapitate(away, after(table, away))
    assert table.ending() is not None


def test_the_group_is_told_when_a_player_is_marked_away_in_english(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=11)
    away = miss_two_turns(memory_bot, table)
    marked = (
        f"⏸ {table.seat_label(away)} missed two turns: their turns are skipped until they "
        "act again."
    )
    assert marked in table.group_texts()
    table.player_at(away).press("👋 I'm back")
    seat = table.state.turn
    while seat != away:
        scout_the_next(table, seat)
        seat = table.state.turn
    assert table.group_texts()[-2] == f"👋 {table.seat_label(away)} is back and plays again."


def test_the_host_can_remove_a_player_and_their_seat_is_skipped(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    table.open()
    state = table.start(seed=32)
    first = state.first
    gone = after(table, first)
    leaver = table.player_at(gone)
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    assert keyboard.text == table.t("remove_pick")
    labels = [table.seat_label(seat) for seat in range(1, 6)]
    assert keyboard.button_labels == [*labels, table.t("btn_remove_none")]
    assert table.host.press(table.seat_label(gone), keyboard) is None
    announced = table.t("removed_seat", name=table.seat_label(gone), by=isolate("Ann"))
    keyboard = table.fake.message(table.group, keyboard.message_id)
    assert keyboard.text == announced
    assert keyboard.buttons == []
    assert leaver.last_text() == table.t(
        "removed_private", by=isolate("Ann"), group=isolate(table.title)
    )

    # Their turn passes at once, every time round.
    passed = table.t("passed_removed_line", name=table.seat_label(gone))
    for rounds in (1, 2):
        seat = table.state.turn
        while after(table, seat) != gone:
            scout_the_next(table, seat)
            seat = table.state.turn
        scout_the_next(table, seat)
        assert table.state.turn == after(table, gone)
        lines = [line for text in table.group_texts() for line in text.splitlines()]
        assert lines.count(passed) == rounds
    assert table.data()["status"] == "playing"
    assert leaver.prompt() is None  # never prompted again
    table.host.say("/status")
    assert f"{table.seat_label(gone)}{table.t('removed_tag')}" in table.group_texts()[-1]


def test_the_host_can_remove_a_player_from_the_lobby(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    table.open()
    leaver = table.players[2]
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    assert keyboard.text == "🚪 将谁移出房间？（发起人或管理员）"
    names = [isolate(p.name) for p in table.players[1:]]
    assert keyboard.button_labels == [*names, "✖️ 不移出"]
    assert table.host.press(isolate(leaver.name), keyboard) is None
    keyboard = table.fake.message(table.group, keyboard.message_id)
    assert keyboard.text == f"🚪 {isolate('Ann')} 将 {isolate(leaver.name)} 移出了房间。"
    assert (
        leaver.last_text() == f"🚪 {isolate('Ann')} 将你移出了「{isolate(table.title)}」的房间。"
    )
    assert leaver.id not in [uid for uid, _ in table.data()["players"]]
    assert isolate(leaver.name) not in table.lobby_message().text
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    assert table.host.press("✖️ 不移出", keyboard) is None
    assert table.fake.message(table.group, keyboard.message_id).text == "没有人被移出。"
    assert len(table.data()["players"]) == 4


def test_a_removed_players_card_stays_hidden_until_the_end(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6, lang="zh")
    table.open()
    state = table.start(seed=33)
    first = state.first
    gone = after(table, after(table, first))
    leaver = table.player_at(gone)
    assert remove(table, table.host, gone) is None
    ann, group = isolate("Ann"), isolate(table.title)
    told = f"🚪 {ann} 将 {table.seat_label(gone)} 移出了游戏。"
    told += "轮到该座位时直接跳过，其人物牌在结算时公开。"
    assert told in table.group_texts()
    assert (
        leaver.last_text() == f"🚪 {ann} 将你移出了「{group}」的游戏。"
        "轮到你的座位时会直接跳过；所有人物牌在结算时公开。"
    )
    card = card_name("zh", state.cards[gone - 1])
    scout_the_next(table, first)
    scout_the_next(table, table.state.turn)
    assert table.state.turn == after(table, gone)
    # The leaks check (run after every e2e test) shows that no card reached the group before
    # the end; the end shows the removed seat's card with everyone's.
    shown = f"{table.seat_label(gone)}：{card}"
    assert not any(shown in text for text in table.group_texts())
    assert leaver.prompt() is None  # nothing to press, nothing asked of them
    leaver.private("/mycard")  # their own card, privately, as ever
    assert f"你的人物牌：{card}" in leaver.last_text()
    table.decapitate(table.state.turn, gone)
    assert any(line.startswith(shown) for line in table.ending().text.splitlines())


def test_only_the_host_or_an_admin_may_remove(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    guest, admin = table.players[1], table.players[4]
    memory_bot.fake.set_admin(table.group, admin.user)
    table.open()
    state = table.start(seed=34)
    before = memory_bot.item(table.chat)
    guest.say("/remove")
    assert table.group_texts()[-1] == "只有发起人或群管理员可以这样做。"
    assert memory_bot.item(table.chat).data == before.data

    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    target = after(table, state.first)
    refused = guest.press(table.seat_label(target), keyboard)
    assert refused == "只有发起人或群管理员可以这样做。"
    assert table.data()["removed"] == []
    assert admin.press(table.seat_label(target), keyboard) is None
    assert table.data()["removed"] == [target]
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    assert table.seat_label(target) not in keyboard.button_labels


def test_removing_the_last_active_player_cancels_the_game(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(seed=35)
    order = [state.first]
    while len(order) < 4:
        order.append(after(table, order[-1]))
    # The seat whose turn it is goes first: its turn passes at once.
    assert remove(table, table.host, order[0]) is None
    assert table.state.turn == order[1]
    for seat in order[1:3]:
        assert remove(table, table.host, seat) is None
        assert table.data()["status"] == "playing"
    assert table.state.turn == order[3]
    assert remove(table, table.host, order[3]) is None
    assert table.data()["status"] == "cancelled"
    cancelled = table.group_texts()[-1]
    assert cancelled.startswith(table.t("cancelled_empty") + "\n")
    for seat in range(1, 5):
        assert table.seat_label(seat) in cancelled
    assert table.data()["deadline"] is None


def test_no_im_back_or_remove_button_stays_live_once_the_game_is_over(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.host.say("/remove")
    lobby_keyboard = table.group_messages()[-1]
    table.start(seed=36)
    assert table.fake.message(table.group, lobby_keyboard.message_id).buttons == []
    away = miss_two_turns(memory_bot, table)
    absent = table.player_at(away)
    told = absent.prompt()
    assert told.button_labels == [table.t("btn_back_in")]
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    table.decapitate(table.state.turn, away)
    assert table.ending() is not None
    assert table.fake.message(absent.user, told.message_id).buttons == []
    assert table.fake.message(table.group, keyboard.message_id).buttons == []


def test_removing_the_player_waited_for_closes_their_prompt(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    table.open()
    state = table.start(seed=32)
    first = state.first
    leaver = table.player_at(first)
    prompt = leaver.prompt()
    assert prompt is not None and prompt.buttons
    assert remove(table, table.host, first) is None
    closed = table.fake.message(leaver.user, prompt.message_id)
    assert closed.text == f"{table.dealt(leaver, state)}\n🚪 你已被移出本局游戏。"
    assert closed.buttons == []
    assert table.state.turn == after(table, first)  # their turn passed at once


def a_removed_seat_on_the_winning_side(state) -> int | None:
    """A seat, neither the first player nor the one they strike (the next), holding the colour
    that wins when the first player decapitates the next; None if there is none."""
    attacker, target = state.first, state.first % 5 + 1
    caps, side = captains(state.cards), color(state.cards[attacker - 1])
    other = "blue" if side == "red" else "red"
    winner = side if caps[side] == attacker and caps[other] == target else other
    seats = [s for s in range(1, 6) if s not in (attacker, target)]
    return next((s for s in seats if color(state.cards[s - 1]) == winner), None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_end_marks_a_removed_player_among_the_winners(memory_bot: Bot, lang: str) -> None:
    seed, state = find_seed(5, Variants(), lambda s: a_removed_seat_on_the_winning_side(s))
    gone = a_removed_seat_on_the_winning_side(state)
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=seed)
    assert remove(table, table.host, gone) is None
    table.decapitate(state.first, state.first % 5 + 1)
    winners = next(line for line in table.ending().text.splitlines() if line.startswith("🏆"))
    assert f"{table.seat_label(gone)}{table.t('removed_tag')}" in winners


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ends_timeline_tells_a_removal_and_the_removed_seats_passed_turns(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    state = table.start(seed=33)
    first = state.first
    gone = after(table, after(table, first))
    assert remove(table, table.host, gone) is None
    scout_the_next(table, first)
    scout_the_next(table, table.state.turn)  # the removed seat's turn passes
    assert table.state.turn == after(table, gone)
    table.decapitate(table.state.turn, first)
    lines = table.ending().text.splitlines()
    name = table.seat_label(gone)
    assert table.t("replay_removed", name=name) in lines
    assert table.t("passed_removed_line", name=name) in lines
    assert table.t("skipped_line", name=name) not in lines


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_host_who_removes_themselves_reads_as_having_removed_themselves(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=32)
    seat = table.seat_of(table.host)
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    assert table.host.press(table.seat_label(seat), keyboard) is None
    said = table.fake.message(table.group, keyboard.message_id).text
    assert said == table.t("removed_self_seat", name=table.seat_label(seat))
    told = table.t("removed_self_private", group=isolate(table.title))
    assert table.host.last_text() == told
