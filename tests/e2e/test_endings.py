"""How a game ends, as the group reads it: who won, how long it took, what a cancelled game
shows, and Play again."""

from __future__ import annotations

import pytest

from engine import Variants, captains
from engine.cards import color
from handlers.display.texts import card_name
from testing.deals import (
    WORKED_EXAMPLE_SEED,
    a_right_prediction,
    find_seed,
    lone_x,
    x_apart,
)
from testing.drivers import Bot, LambdaBot
from testing.games import worked_example
from testing.players import Table

RECORD_ROW = ("btn_record", "btn_next_game")  # under Play again: the record, the next game


def other(colour: str) -> str:
    return "blue" if colour == "red" else "red"


def lines(text: str) -> list[str]:
    return text.splitlines()


def test_the_end_names_the_winners_the_length_and_the_turns(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6)
    worked_example(memory_bot, table, lobby_seconds=30)
    text = table.ending().text
    assert text.startswith("🏁 Blue wins!")
    blue = ", ".join(table.seat_label(seat) for seat in (3, 4, 6))
    assert f"🏆 Winners: {blue}" in lines(text)
    assert "⏱ 2 min 5 s, turns: 3" in lines(text)


def test_the_end_names_the_winners_the_length_and_the_turns_in_chinese(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 6, lang="zh")
    worked_example(memory_bot, table, lobby_seconds=30)
    text = table.ending().text
    assert text.startswith("🏁 蓝方获胜！")
    blue = "、".join(table.seat_label(seat) for seat in (3, 4, 6))
    assert f"🏆 获胜者：{blue}" in lines(text)
    assert "⏱ 用时 2 分 5 秒，共 3 回合" in lines(text)


def test_a_right_observer_is_named_among_the_winners(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    state, winner = a_right_prediction(table)
    text = table.ending().text
    team = [table.seat_label(s) for s in range(1, 6) if color(state.cards[s - 1]) == winner]
    names = ", ".join([*team, f"{table.seat_label(state.first)} (Observer)"])
    assert f"🏆 Winners: {names}" in lines(text)
    assert "⏱ 0 s, turns: 2" in lines(text)


def test_the_winners_are_the_team_each_holds_after_a_swap(memory_bot: Bot) -> None:
    def swap_changes_sides(state):
        first, second = state.first, state.first % 7 + 1
        if not x_apart(state, first, second):
            return False
        x = color(state.cards[lone_x(state) - 1])
        return color(state.cards[first - 1]) != x and color(state.cards[second - 1]) != x

    seed, _ = find_seed(7, Variants(turncoat=True), swap_changes_sides)
    table = Table.of(memory_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    scout, second = state.first, state.first % 7 + 1
    holder = lone_x(state)
    x_colour = color(state.cards[holder - 1])
    table.scout(scout, holder)
    table.swap(holder)
    memory_bot.advance(10)
    table.done(scout)
    table.decapitate(second, holder)  # the holder now plays for the attacker's side: it fails
    final = table.state.cards
    assert color(final[scout - 1]) == x_colour != color(final[holder - 1])
    text = table.ending().text
    team = [table.seat_label(s) for s in range(1, 8) if color(final[s - 1]) == x_colour]
    assert table.seat_label(scout) in team and table.seat_label(holder) not in team
    assert f"🏆 Winners: {', '.join(team)}" in lines(text)
    assert "⏱ 10 s, turns: 2" in lines(text)


def test_a_spy_who_names_both_captains_is_named_among_the_winners_in_chinese(
    memory_bot: Bot,
) -> None:
    def human_spy(state):
        spy, caps = state.holder("SPY"), captains(state.cards)
        return spy not in (None, state.first) and None not in caps.values()

    seed, _ = find_seed(6, Variants(spy=True), human_spy)
    table = Table.of(memory_bot, 6, lang="zh")
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    spy, caps = state.holder("SPY"), captains(state.cards)
    target = next(s for s in range(1, 7) if s not in (state.first, spy))
    side = color(state.cards[state.first - 1])
    works = caps[side] == state.first and caps[other(side)] == target
    winner = side if works else other(side)
    memory_bot.advance(61)
    table.decapitate(state.first, target)
    table.spy_guess(spy, caps["red"], caps["blue"])
    memory_bot.advance(15)
    text = table.ending().text
    team = [table.seat_label(s) for s in range(1, 7) if color(state.cards[s - 1]) == winner]
    names = "、".join([*team, f"{table.seat_label(spy)}（密探）"])
    assert f"🏆 获胜者：{names}" in lines(text)
    assert "⏱ 用时 1 分 16 秒，共 1 回合" in lines(text)


def card_lines(table: Table, cards: tuple[str, ...]) -> list[str]:
    """The card list of a reveal as the group reads it: every seat, its card, the captains."""
    caps = captains(cards).values()
    shown = []
    for seat, code in enumerate(cards, 1):
        name = card_name(table.lang, code)
        cap = f" {table.t('captain_tag')}" if seat in caps else ""
        colon = "：" if table.lang == "zh" else ": "
        shown.append(f"{table.seat_label(seat)}{colon}{name}{cap}")
    return shown


def test_a_game_cancelled_by_its_host_shows_every_card_the_captains_and_play_again(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(speak_seconds=30)
    state = table.start(seed=WORKED_EXAMPLE_SEED)
    table.scout_and_done(1, 5)
    table.host.say("/cancel")
    message = table.group_messages()[-1]
    text = lines(message.text)
    assert text[0] == "🛑 The game was cancelled by \u2068Ann\u2069."
    cards = card_lines(table, state.cards)
    assert cards[2] == f"{table.seat_label(3)}: Blue 7 👑 captain"
    assert cards[4] == f"{table.seat_label(5)}: Red 4 👑 captain"
    assert text[text.index("Cards:") + 1 :][:6] == cards
    assert not state.set_aside and not any(line.startswith("Set aside") for line in text)
    assert message.button_labels == [table.t(k) for k in ("btn_play_again", *RECORD_ROW)]

    first_game = table.data()["game"]
    assert table.players[3].press(table.t("btn_play_again"), message) is None
    data = table.data()
    assert data["game"] > first_game and data["status"] == "lobby"
    assert data["creator"] == table.players[3].id
    assert {uid for uid, _ in data["players"]} == {p.id for p in table.players}
    assert data["settings"]["speak_seconds"] == 30


def test_a_game_nobody_played_is_cancelled_showing_every_card_in_chinese(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    table.open()
    state = table.start(seed=41)
    for _ in range(5):
        memory_bot.advance(90)
    assert table.data()["status"] == "cancelled"
    message = table.group_messages()[-1]
    text = lines(message.text)
    assert text[0] == table.t("cancelled_idle")  # 🛑 一整轮无人行动，游戏已取消。
    assert text[text.index(table.t("end_cards")) + 1 :][:5] == card_lines(table, state.cards)
    (aside,) = state.set_aside
    assert table.t("set_aside_line", cards=card_name("zh", aside)) in text
    assert message.button_labels == [table.t(k) for k in ("btn_play_again", *RECORD_ROW)]


def test_a_cancelled_lobby_shows_no_cards_and_points_to_newgame(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.host.say("/cancel")
    lobby = table.lobby_message()
    assert lobby.text == "🛑 The game was cancelled by \u2068Ann\u2069. /newgame opens a new one."
    assert lobby.buttons == []


def test_a_cancelled_lobby_points_to_newgame_in_chinese(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    table.open()
    table.host.say("/cancel")
    cancelled = table.t("cancelled", name="\u2068Ann\u2069")  # 🛑 Ann 取消了游戏。
    assert table.lobby_message().text == f"{cancelled}发送 /newgame 重新开局。"


def test_play_again_takes_its_button_off_the_end_and_a_late_press_says_a_game_is_open(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    state = table.start(seed=42)
    table.decapitate(state.first, state.first % 4 + 1)
    ending = table.ending()
    text = ending.text
    again = ending.button(table.t("btn_play_again")).callback_data

    first_game = table.data()["game"]
    assert table.players[1].press(table.t("btn_play_again"), ending) is None
    assert table.data()["game"] > first_game and table.data()["status"] == "lobby"
    ending = table.fake.message(table.group, ending.message_id)
    # The end stays, its Play again button is gone (its record and the next game's call stay).
    assert ending.button_labels == [table.t(k) for k in RECORD_ROW] and ending.text == text
    # A press that was on its way (or from a client that still shows the button) is the
    # presser's I'm in, once; then it says a game is open.
    assert table.players[2].press_data(again, ending) == "You're in."
    assert table.players[2].press_data(again, ending) == "A new game is already open."
    assert table.host.press_data(again, ending) == "You're in."
    assert table.data()["game"] > first_game and len(table.data()["players"]) == 4

    state = table.start(seed=43)
    assert table.host.press_data(again, ending) == "A new game is already open."
    table.decapitate(state.first, state.first % 4 + 1)
    assert table.host.press_data(again, ending) == "That button is from an old game."


def test_play_again_from_a_cancelled_game_takes_its_button_off_in_chinese(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    table.open()
    table.start(seed=44)
    table.host.say("/cancel")
    message = table.group_messages()[-1]
    text = message.text
    again = message.button(table.t("btn_play_again")).callback_data
    first_game = table.data()["game"]
    assert table.players[3].press(table.t("btn_play_again"), message) is None
    assert table.data()["game"] > first_game and table.data()["status"] == "lobby"
    message = table.fake.message(table.group, message.message_id)
    assert message.button_labels == [table.t(k) for k in RECORD_ROW] and message.text == text
    assert table.players[1].press_data(again, message) == "你已加入。"
    assert table.players[1].press_data(again, message) == "新的一局已经开了。"


def test_play_again_after_the_group_became_a_supergroup_leaves_the_new_chat_alone(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=45)
    table.decapitate(state.first, state.first % 4 + 1)
    ending = table.ending()
    table.upgrade_to_supergroup()
    for _ in range(ending.message_id):  # the new chat's messages reach the old end's number
        table.host.say("/help")
    first_game = table.data()["game"]
    assert table.players[1].press(table.t("btn_play_again"), ending) is None
    assert table.data()["game"] > first_game
    assert table.lobby_message().chat_id == table.chat
    # The old end's number names another message in the new chat: nothing is taken off there.
    assert [c for c in table.fake.calls if c.method == "editMessageReplyMarkup"] == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("scouted", [False, True])
def test_a_cancelled_games_turn_message_says_so_and_offers_nothing(
    memory_bot: Bot, lang: str, scouted: bool
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=41)
    if scouted:  # a turn message with lines of its own, and one fresh
        table.scout_and_done(state.first, state.first % 4 + 1)
    board = table.board()
    table.host.say("/cancel")
    shown = table.fake.message(table.group, board.message_id)
    assert shown.text.splitlines()[-1] == table.t("closed_cancelled")
    assert shown.buttons == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_games_end_says_its_timeline_is_cut_and_where_the_whole_is(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.start(seed=41)
    for _ in range(16):
        seat = table.state.turn
        table.scout_and_done(seat, seat % 4 + 1)
    table.decapitate(table.state.turn, table.state.turn % 4 + 1)
    lines = table.ending().text.splitlines()
    shown = lines[
        lines.index(table.t("timeline")) + 1 : lines.index(table.t("aftermath_title")) - 1
    ]
    assert len(shown) == 15
    assert shown[0] == table.t("timeline_cut", n=3)  # 17 lines: the first 3 folded into one
    assert shown[-1].startswith("🗡")
