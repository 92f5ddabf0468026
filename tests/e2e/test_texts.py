"""How the bot's texts read to the players: seats, punctuation and lines that claim only what
happened, in English and in Chinese."""

from __future__ import annotations

import re

import pytest

from engine import Variants, captains
from engine.cards import SPY, color
from testing.deals import find_seed, x_holders
from testing.drivers import Bot
from testing.leaks import versions
from testing.players import Table

ISOLATED = re.compile("\u2068[^\u2069]*\u2069")  # a user-supplied name, as the bot shows it
ASCII_SEPARATOR = re.compile(r"[,:;]")
SEAT_WITHOUT_HAOWEI = re.compile(r"\d+号(?![位角])")  # "4号 Ann" (a seat) or "4号" (a card)


def everything_shown(table: Table) -> list[str]:
    """Every text, every version of it, every button label and every popup the bot showed the
    table's players, in the group or privately."""
    fake = table.fake
    shown: list[str] = []
    chats = [*table.groups, *(p.user for p in table.players)]
    for chat in chats:
        for message in fake.chat(chat):
            if message.from_bot:
                for text, labels in versions(message):
                    shown += [text or "", *labels]
    shown += [a.text for a in fake.callback_answers if a.text]
    return shown


def test_a_chinese_game_names_seats_haowei_and_writes_chinese_punctuation(
    memory_bot: Bot,
) -> None:
    """Seats read "N号位" (the card's word; "4号" would read like the card 红4), and Chinese
    text is punctuated with 、：；， rather than ASCII , : ;, in every message, button and popup
    of a game with every declaration, a Turncoat's window and the Spy's sealed wait."""
    variants = Variants(virtual_players=1, bodyguards=True, turncoat=True, spy=True)

    def deal(state) -> bool:
        xs = [s for s in x_holders(state) if not state.virtual[s - 1]]
        spy = state.holder(SPY)
        second = state.first % 7 + 1
        return (
            bool(xs)
            and xs[0] not in (state.first, second)
            and spy not in (None, state.first, second)
            and not state.virtual[spy - 1]
            and not state.virtual[second - 1]
            and state.cards[second - 1] != SPY
        )

    seed, _ = find_seed(6, variants, deal)
    table = Table.of(memory_bot, 6, lang="zh")
    table.open()
    table.configure(virtual_players=1, bodyguards=True, turncoat=True, spy=True)
    state = table.start(seed)
    first, second = state.first, state.first % 7 + 1
    holder = next(s for s in x_holders(state) if not state.virtual[s - 1])

    seating = table.lobby_message().text
    for seat in range(1, 8):
        assert f"{seat}号位 " in seating
    assert seating.count("每次侦查后，游戏都会固定暂停 20 秒") == 1
    board = table.board()
    assert board.button_labels == ["🔍 侦查", "🃏 我的人物牌"]

    table.scout(first, holder)
    assert table.player_at(holder).labels() == [table.t("btn_swap"), table.t("btn_keep")]
    assert "⏳ 你有 20 秒。" in table.player_at(holder).texts()[-1]
    table.keep(holder)
    memory_bot.advance(20)  # the Turncoat's window
    table.player_at(first).press("🃏 我的人物牌", table.board())
    table.host.say("/status")
    table.player_at(first).private("/mycard")
    table.done(first)
    table.decapitate(second, first, proxy=False, bodyguard=False)
    assert "斩首目标已锁定" in table.board().text
    spy = state.holder(SPY)
    table.spy_guess(spy, 1, 2)
    memory_bot.advance(15)
    assert table.ending() is not None

    shown = everything_shown(table)
    for text in shown:
        plain = ISOLATED.sub("", text)
        assert not ASCII_SEPARATOR.search(plain), f"ASCII punctuation in {text!r}"
        assert not SEAT_WITHOUT_HAOWEI.search(plain), f"a number without 号位 in {text!r}"
    assert any("号位：" in text for text in shown)  # the popup and /mycard: seat, then card


@pytest.mark.parametrize(
    "lang, line",
    [
        ("en", "🕵 The Spy {spy} guessed {red} for Red and {blue} for Blue, and loses."),
        ("zh", "🕵 密探 {spy} 猜测红方队长是 {red}、蓝方队长是 {blue}，失败。"),
    ],
)
def test_the_spys_wrong_guess_is_told_as_seats_not_as_cards(
    memory_bot: Bot, lang: str, line: str
) -> None:
    """The reveal names the seats the Spy guessed ("Red 3" would read like a card)."""

    def deal(state) -> bool:
        spy = state.holder(SPY)
        return spy not in (None, state.first) and bool(color(state.cards[state.first - 1]))

    seed, _ = find_seed(6, Variants(spy=True), deal)
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    table.configure(spy=True)
    state = table.start(seed)
    spy = state.holder(SPY)
    caps = captains(state.cards)
    wrong = next(s for s in range(1, 7) if s != caps["red"])
    table.decapitate(state.first, state.first % 6 + 1)
    table.spy_guess(spy, wrong, caps["blue"] or 1)
    memory_bot.advance(15)
    label = table.seat_label
    expected = line.format(spy=label(spy), red=label(wrong), blue=label(caps["blue"] or 1))
    assert expected in table.ending().text.splitlines()


@pytest.mark.parametrize(
    "lang, line",
    [("en", "✅ {name}'s turn is over."), ("zh", "✅ {name} 的回合结束。")],
)
def test_a_turn_ended_with_done_does_not_claim_anyone_spoke(
    memory_bot: Bot, lang: str, line: str
) -> None:
    """Done ends the speaking moment whether or not the scout said a word: the turn message
    says the turn is over, not that they spoke ("发言结束")."""
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=27)
    first = state.first
    table.scout(first, first % 4 + 1)
    board = table.board()
    table.done(first)
    closed = table.fake.message(table.group, board.message_id).text
    assert closed.splitlines()[-1] == line.format(name=table.seat_label(first))
    assert "发言结束" not in closed and " is done" not in closed


FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE, POP DIRECTIONAL ISOLATE
RTL_NAMES = ("علي 3", "דנה 12", "Zed & <Q>", "Ólafur", "Kiyoshi")
RTL_TITLE = "نادي الجمعة 7"


def not_isolated(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` anywhere not wrapped in FSI ... PDI."""
    start = text.find(name)
    while start != -1:
        end = start + len(name)
        if text[start - 1 : start] != FSI or text[end : end + 1] != PDI:
            return True
        start = text.find(name, end)
    return False


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_name_a_user_chose_is_isolated_in_messages_and_on_buttons(
    memory_bot: Bot, lang: str
) -> None:
    """An Arabic or Hebrew name followed by digits ("علي 3", then a seat number or a card)
    cannot reorder the line around it: every player's name and the group's title is wrapped in
    FSI ... PDI wherever it is shown, in the group and privately, on buttons too; and a name
    that looks like HTML is still shown as typed."""
    table = Table.of(memory_bot, 5, lang=lang, names=RTL_NAMES, title=RTL_TITLE)
    table.open()
    table.host.say("/status")
    state = table.start(seed=27)
    first, target = state.first, state.first % 5 + 1
    zed = table.seat_of(table.players[2])
    table.scout(first, target)
    table.player_at(first).press(table.t("btn_my_card"), table.board())
    table.player_at(first).private("/mycard")
    table.host.say("/status")
    table.done(first)
    table.decapitate(table.state.turn, first)
    assert table.ending() is not None
    table.host.say("/newgame")
    table.host.say("/cancel")

    shown = everything_shown(table)
    for name in (*RTL_NAMES, RTL_TITLE):
        assert any(name in text for text in shown), f"{name!r} never shown"
        faults = [text for text in shown if not_isolated(text, name)]
        assert not faults, f"{name!r} shown without isolates in {faults[:3]!r}"
    assert f"{zed}{'. ' if lang == 'en' else '号位 '}{FSI}Zed & <Q>{PDI}" in "".join(shown)
