"""/status as the group reads it: the lobby's players, settings and countdown; in a game the
seating, whose turn and what they are doing, the time left, and what is public so far, never a
secret."""

from __future__ import annotations

import time

import pytest

from engine import Variants
from engine.cards import SPY, color
from testing.deals import find_seed, lone_x, x_apart
from testing.drivers import Bot
from testing.players import Table

FSI, PDI = "\u2068", "\u2069"
SAY = {
    "en": {
        "lobby": "📋 A lobby is open with 4 players (4 to 12 can play):",
        "variants": "Variants: Bodyguards, Spy",
        "limits": "Time limits: turn 60 s, speaking 60 s, Spy 15 s",
        "chatter": "Delete out-of-turn messages: on",
        "clock": "{}:{} UTC",
        "countdown": "⏳ Starts by itself at {} with 4 or more players. /extend waits 2 min more.",
        "game": "📋 A game is on. Seats:",
        "virtual": " (virtual)",
        "vp": "Variants: virtual players ×1",
        "turn": "▶️ {}'s turn: scout or decapitate.",
        "speak": "🗣 It is {}'s speaking moment.",
        "scouted": "🔍 {} has scouted; their speaking moment begins when this wait ends.",
        "sealed": "🗡 {} announced a decapitation; the target stays sealed until this wait ends.",
        "left": "⏳ {} s left.",
        "nothing": "Nobody has acted yet.",
        "so_far": "So far:",
        "scout_line": "🔍 {} scouted {}.",
        "swap_line": "🔄 {} reveals {} and swaps cards with {}!",
        "announced": "🗡 {} announces a decapitation!",
        "x": {"R": "Red X", "B": "Blue X"},
    },
    "zh": {
        "lobby": "📋 房间已开，现有 4 名玩家（4–12 人可以开局）：",
        "variants": "可选规则：保镖、密探",
        "limits": "时限：行动 60 秒、发言 60 秒、密探 15 秒",
        "chatter": "删除回合外发言：开",
        "clock": "UTC {}时{}分",
        "countdown": "⏳ 若有 4 人或以上，游戏将于 {} 自动开始。发送 /extend 可延长 2 分钟。",
        "game": "📋 游戏进行中。座位：",
        "virtual": "（虚拟玩家）",  # no space before a full-width bracket
        "vp": "可选规则：虚拟玩家×1",
        "turn": "▶️ 轮到 {}：侦查或斩首。",
        "speak": "🗣 现在是 {} 的发言时间。",
        "scouted": "🔍 {} 已侦查，等待结束后开始发言。",
        "sealed": "🗡 {} 宣布了斩首行动，斩首目标已锁定，等待结束后公开。",
        "left": "⏳ 还剩 {} 秒。",
        "nothing": "还没有人行动。",
        "so_far": "目前为止：",
        "scout_line": "🔍 {} 查看了 {} 的人物牌。",
        "swap_line": "🔄 {} 翻开了 {}，与 {} 交换了人物牌！",
        "announced": "🗡 {} 宣布发起斩首行动！",
        "x": {"R": "红X", "B": "蓝X"},
    },
}


def status(table: Table) -> str:
    table.host.say("/status")
    return table.group_texts()[-1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_status_in_a_lobby_names_the_players_and_the_settings_in_play(
    memory_bot: Bot, lang: str
) -> None:
    say = SAY[lang]
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.configure(bodyguards=True, spy=True, turn_seconds=60)
    names = [f"• {FSI}{p.name}{PDI}" for p in table.players]
    moment = time.gmtime(table.data()["deadline"])
    ends = say["clock"].format(f"{moment.tm_hour:02}", f"{moment.tm_min:02}")
    countdown = say["countdown"].format(ends)
    assert status(table) == "\n".join(
        [say["lobby"], *names, say["variants"], say["limits"], say["chatter"], countdown]
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_status_in_a_game_shows_the_circle_whose_turn_the_time_left_and_what_is_public(
    memory_bot: Bot, lang: str
) -> None:
    say = SAY[lang]
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.configure(virtual_players=1)
    state = table.start(seed=8)
    label = table.seat_label
    first = state.first
    seats = [f"{label(s)}{say['virtual'] if state.virtual[s - 1] else ''}" for s in range(1, 6)]
    virtual = state.names[state.virtual.index(True)]
    assert virtual == {"en": "V1", "zh": "甲"}[lang]  # named in the group's language
    assert status(table) == "\n".join(
        [
            say["game"],
            *seats,
            say["vp"],
            say["turn"].format(label(first)),
            say["left"].format(90),
            say["nothing"],
        ]
    )
    memory_bot.advance(30)
    assert say["left"].format(60) in status(table).splitlines()

    target = first % 5 + 1
    table.scout(first, target)
    scouted = say["scout_line"].format(label(first), label(target))
    lines = status(table).splitlines()
    assert lines[-4:] == [
        say["speak"].format(label(first)),
        say["left"].format(60),
        say["so_far"],
        scouted,
    ]
    table.done(first)
    lines = status(table).splitlines()
    assert lines[-4:] == [
        say["turn"].format(label(table.state.turn)),
        say["left"].format(90),
        say["so_far"],
        scouted,
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_status_during_a_secret_wait_shows_its_end_and_no_secret(
    memory_bot: Bot, lang: str
) -> None:
    """While a Turncoat may swap, or the Spy may guess, /status tells what the group was told:
    the scout or the attacker, when the wait ends; a swap only once it is announced."""
    say = SAY[lang]

    def deal(state) -> bool:
        first, nxt = state.first, state.first % 7 + 1
        spy = state.holder(SPY)
        return (
            x_apart(state, first, nxt)
            and spy not in (None, first, nxt, lone_x(state))
            and bool(color(state.cards[first - 1]))
            and bool(color(state.cards[nxt - 1]))
        )

    seed, _ = find_seed(7, Variants(turncoat=True, spy=True), deal)
    table = Table.of(memory_bot, 7, lang=lang)
    table.open()
    table.configure(turncoat=True, spy=True, turncoat_seconds=10)
    state = table.start(seed)
    label = table.seat_label
    first, nxt = state.first, state.first % 7 + 1
    holder = lone_x(state)

    table.scout(first, holder)
    memory_bot.advance(4)
    table.swap(holder)
    scouted = say["scout_line"].format(label(first), label(holder))
    lines = status(table).splitlines()
    assert lines[-4:] == [
        say["scouted"].format(label(first)),
        say["left"].format(6),
        say["so_far"],
        scouted,
    ]

    memory_bot.advance(6)  # the window closes: the swap is announced
    x = say["x"][state.cards[holder - 1][0]]
    swapped = say["swap_line"].format(label(holder), x, label(first))
    lines = status(table).splitlines()
    assert lines[-5:] == [
        say["speak"].format(label(first)),
        say["left"].format(60),
        say["so_far"],
        scouted,
        swapped,
    ]

    table.done(first)
    table.decapitate(nxt, first)
    lines = status(table).splitlines()
    assert lines[-6:] == [
        say["sealed"].format(label(nxt)),
        say["left"].format(15),
        say["so_far"],
        scouted,
        swapped,
        say["announced"].format(label(nxt)),
    ]
    memory_bot.advance(15)
    assert table.ending() is not None
