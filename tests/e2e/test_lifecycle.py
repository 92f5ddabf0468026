"""Around the games: Play again, /cancel, unreachable players, silence, /status, /mycard, 中文."""

from __future__ import annotations

from testing.deals import WORKED_EXAMPLE_SEED
from testing.drivers import Bot, LambdaBot, LocalBot
from testing.players import Table


def test_play_again_opens_a_lobby_with_the_same_players_and_settings(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5)
    outsider = table.players[4]
    table.open(table.players[1:4])
    table.configure(speak_seconds=30, bodyguards=True)
    state = table.start(seed=21)
    table.decapitate(state.first, state.first % 4 + 1, bodyguard=False)
    ending = table.ending()
    again = table.t("btn_play_again")
    assert ending.button_labels == [again, table.t("btn_record"), table.t("btn_next_game")]
    pressed = ending.button(again).callback_data

    answer = outsider.press(again, ending)
    assert answer == "You are not playing in this game."
    first_game = table.data()["game"]
    second = table.players[2]
    assert second.press(again, ending) is None
    data = table.data()
    assert data["game"] > first_game and data["status"] == "lobby"
    assert data["creator"] == second.id
    assert data["players"][0][0] == second.id
    assert {uid for uid, _ in data["players"]} == {p.id for p in table.players[:4]}
    assert data["settings"]["speak_seconds"] == 30 and data["settings"]["bodyguards"]
    lobby = table.lobby_message()
    assert lobby.message_id > ending.message_id
    assert "Players (4/12):" in lobby.text and "Bodyguards" in lobby.text

    assert table.fake.message(table.group, ending.message_id).button_labels == [
        table.t("btn_record"),
        table.t("btn_next_game"),
    ]
    assert table.host.press_data(pressed, ending) == "You're in."  # a second Play again
    assert table.host.press_data(pressed, ending) == "A new game is already open."
    assert table.players[3].press(table.t("btn_start"), lobby) == (
        "Only the host or a group admin may do that."
    )
    memory_bot.seed = 22
    assert second.press(table.t("btn_start"), lobby) is None
    state = table.state
    assert table.data()["game"] == data["game"] and table.data()["status"] == "playing"
    table.decapitate(state.first, state.first % 4 + 1, bodyguard=True)
    assert table.ending().message_id > lobby.message_id


def test_host_cancels_a_running_game_and_others_may_not(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(seed=23)
    guest = table.players[1]
    before = memory_bot.item(table.chat)
    guest.say("/cancel")
    assert table.group_texts()[-1] == "Only the host or a group admin may do that."
    refusal = table.group_messages()[-1].message_id  # the group's one refusal message
    assert memory_bot.item(table.chat) == before

    first = table.player_at(state.first)
    prompt = first.prompt()
    table.host.say("/cancel")
    assert table.group_texts()[-1].startswith("🛑 The game was cancelled by \u2068Ann\u2069.\n")
    assert table.group_messages()[-2].buttons == []  # the turn message is closed
    assert table.data()["status"] == "cancelled" and table.data()["deadline"] is None
    closed = table.fake.message(first.user, prompt.message_id)  # the prompt says it
    cancelled = f"{table.dealt(first, state)}\n🛑 The game was cancelled."  # below the card
    assert (closed.text, closed.buttons) == (cancelled, [])
    scout = prompt.button(table.t("btn_scout")).callback_data  # a client that missed the edit
    assert first.press_data(scout, closed) == "Too late: the game has moved on."
    table.host.say("/status")
    assert table.group_texts()[-1] == "No game here. /newgame opens one."
    typed = table.host.say("/cancel")["message"]["message_id"]  # the old refusal scrolled up
    latest = table.group_messages()[-1]
    assert (latest.text, latest.reply_to_message_id) == ("There is no game to cancel.", typed)
    assert latest.message_id != refusal  # posted anew, as a reply to the command


def test_admin_who_does_not_play_may_cancel(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    admin = table.players[4]
    memory_bot.fake.set_admin(table.group, admin.user)
    table.open(table.players[1:4])
    table.start(seed=24)
    admin.say("/cancel")
    assert table.group_texts()[-1].startswith("🛑 The game was cancelled by \u2068Eve\u2069.\n")
    assert table.data()["status"] == "cancelled"


def test_out_of_turn_chatter_is_deleted_when_the_bot_may_delete(local_bot: LocalBot) -> None:
    table = Table.of(local_bot, 5, bot_admin=True)
    outsider = table.players[4]
    table.open(table.players[1:4])
    state = table.start(seed=25)
    assert table.t("silence_enforced") in table.group_messages()[-2].text
    first = table.player_at(state.first)
    other = table.player_at(state.first % 4 + 1)

    def kept(update: dict) -> bool:
        message_id = update["message"]["message_id"]
        return not local_bot.fake.message(table.group, message_id).deleted

    assert not kept(other.say("I am the captain"))
    assert not kept(first.say("let me think"))  # a turn is not a speaking moment
    assert kept(outsider.say("good luck all"))
    table.scout(state.first, table.seat_of(other))
    assert kept(first.say("seat 2 is red"))
    assert not kept(other.say("no I am not"))
    table.done(state.first)
    assert not kept(first.say("one more thing"))


def test_status_my_card_button_and_mycard_command(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    outsider = table.players[4]
    table.open(table.players[1:4])
    table.host.say("/status")
    assert table.group_texts()[-1].startswith("📋 A lobby is open with 4 players")
    state = table.start(seed=26)
    first = table.player_at(state.first)
    table.host.say("/status")
    name = table.seat_label(state.first)
    assert f"▶️ {name}'s turn: scout or decapitate." in table.group_texts()[-1]
    target = state.first % 4 + 1
    table.scout(state.first, target)
    table.host.say("/status")
    assert f"🗣 It is {name}'s speaking moment." in table.group_texts()[-1]

    def card(code: str) -> str:
        return ("Red " if code[0] == "R" else "Blue ") + code[1:]

    board = table.board()
    popup = first.press(table.t("btn_my_card"), board)
    mine, seen = card(state.cards[state.first - 1]), card(state.cards[target - 1])
    assert popup == f"🃏 Your card: {mine} (seat {state.first}) | seat {target}: {seen}"
    assert outsider.press(table.t("btn_my_card"), board) == "You are not playing in this game."

    first.private("/mycard")
    text = first.last_text()
    assert f"Your card: {mine}" in text
    assert f"What you know:\n{table.seat_label(target)}: {seen}" in text
    table.host.say("/mycard")
    assert table.group_texts()[-1].startswith("Send /mycard to me in a private chat")
    outsider.private("/mycard")
    assert outsider.last_text() == "You are not in a running game."
    table.host.private("/mycard")  # the host opened the lobby and never used a Join link
    host_card = card(state.cards[table.seat_of(table.host) - 1])
    assert f"Your card: {host_card}" in table.host.last_text()
    table.done(state.first)


def test_a_whole_game_in_chinese(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6, lang="zh")
    table.open()
    assert table.lobby_message().text.startswith("🎯 斩首行动 — 新的一局")
    table.configure(turncoat=True)
    state = table.start(seed=WORKED_EXAMPLE_SEED)
    first = table.player_at(1)
    assert "你的人物牌：红1" in first.texts()[-1]  # with the first turn's prompt
    table.scout(1, 5)
    memory_bot.advance(20)  # the Turncoat window, though no X is in a six-seat game
    seen = f"🔍 {table.seat_label(5)} 的人物牌是 红4。"
    assert first.texts()[-2] == f"{table.dealt(first, state)}\n{seen}"
    table.done(1)
    table.scout(2, 3)
    memory_bot.advance(20)
    table.done(2)
    table.decapitate(3, 5)
    ending = table.ending().text
    assert ending.startswith("🏁 蓝方获胜！")
    assert f"{table.seat_label(5)}：红4 👑 队长" in ending
    assert state.deal == ("R1", "R3", "B7", "B4", "R4", "B3")


def test_switching_language_mid_game_redraws_the_turn_message_in_the_new_one(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(seed=27)
    target = state.first % 4 + 1
    table.scout(state.first, target)
    first, seen = table.seat_label(state.first), table.seat_label(target)
    english = [table.t("scouted_line", name=first, target=seen), table.t("speak_line", name=first)]
    assert all(line in table.board().text for line in english)
    table.host.say("/language")
    table.lang = "zh"
    first, seen = table.seat_label(state.first), table.seat_label(target)
    board = table.board().text
    assert table.t("scouted_line", name=first, target=seen) in board
    assert table.t("speak_line", name=first) in board
    assert not any(line in board for line in english)
    assert "⏳" in board  # the countdown is still there
    table.lang = "en"  # the speaker's Done button was sent before the switch
    table.done(state.first)
    table.lang = "zh"
    assert table.t("turn_line", name=table.seat_label(table.state.turn)) in table.board().text


def test_game_follows_its_group_upgraded_to_a_supergroup(lambda_bot: LambdaBot) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=27)
    old = table.chat
    table.scout(state.first, state.first % 4 + 1)
    table.upgrade_to_supergroup()
    assert table.chat != old and table.data()["chat"] == table.chat
    table.done(state.first)  # a button made before the upgrade
    board = table.board()
    assert board.chat_id == table.chat
    assert board.text.startswith(f"▶️ {table.seat_label(state.first % 4 + 1)}'s turn")
    table.host.say("/status")
    turn = table.t("status_turn", name=table.seat_label(state.first % 4 + 1))
    assert turn in table.group_texts()[-1].splitlines()
    lambda_bot.advance(90)  # a timer set for the old chat id
    assert table.t("skipped_line", name=table.seat_label(state.first % 4 + 1)) in "".join(
        table.group_texts()
    )
    table.decapitate(table.state.turn, state.first)
    assert table.ending().chat_id == table.chat
    assert [m.text for m in lambda_bot.fake.chat(old) if m.from_bot][-1].startswith("▶️")
