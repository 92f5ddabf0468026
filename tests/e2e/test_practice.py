"""/practice: a game against bot seats alone in the bot's private chat, through the local bot's
callbacks with Telegram answered in memory: the same lobby, Settings, turn message and prompts
as a group's game, all in the one chat."""

from __future__ import annotations

import re

import pytest

from engine import waiting_for
from engine.state import SPEAK, TURN
from handlers.session.bot_seats import bot_names
from handlers.session.settings import PRACTICE_BOTS
from testing import leaks
from testing.drivers import Bot
from testing.players import Player, Table

SEED = 7
# What only a group has: pinning, deleting, restricting, asking who is an admin or a member.
GROUP_ONLY_CALLS = {
    "pinChatMessage",
    "unpinChatMessage",
    "deleteMessage",
    "restrictChatMember",
    "banChatMember",
    "getChatMember",
    "getChatAdministrators",
}


def practice(bot: Bot, lang: str = "en") -> Table:
    """One person who opened the bot's private chat; their table is that chat."""
    code = "zh-hans" if lang == "zh" else "en"
    user = bot.fake.add_user("Ann", language_code=code, started=True)
    chat = bot.fake.chats[user.id]
    title = Table.t_in(lang, "practice_title")
    return Table(bot, [Player(bot, user, chat)], chat, lang, title)


def opened(bot: Bot, lang: str = "en", **settings: object) -> Table:
    """/practice sent in the private chat, the settings asked chosen in its Settings."""
    table = practice(bot, lang)
    table.host.private("/practice")
    if settings:
        table.configure(**settings)
    return table


def dealt(bot: Bot, lang: str = "en", **settings: object) -> Table:
    table = opened(bot, lang, **settings)
    table.start(seed=SEED)
    return table


def play_out(bot: Bot, table: Table, limit: int = 4000) -> None:
    """The player scouts the next seat and ends their moment; the clock runs a second at a time
    for the bot seats until the game ends."""
    bots = table.data()["bots"]
    for _ in range(limit):
        if table.data()["status"] != "playing":
            return
        state = table.state
        seat = waiting_for(state)
        mine = seat is not None and seat not in bots and table.data().get("hold") is None
        if mine and state.phase == TURN:
            table.scout(seat, seat % state.seats + 1)
        elif mine and state.phase == SPEAK and table.t("btn_done") in table.host.labels():
            table.done(seat)
        else:
            bot.advance(1)
    raise AssertionError("the practice game did not end")


def buttons_left(table: Table) -> list[str]:
    """The labels of every button still pressable in the practice chat."""
    return [
        b.text for m in table.group_messages() for row in m.buttons for b in row if b.callback_data
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_practice_plays_alone_against_bot_seats_to_the_reveal(memory_bot: Bot, lang: str) -> None:
    table = dealt(memory_bot, lang)
    state = table.state
    assert state.seats == 1 + PRACTICE_BOTS
    assert sorted(state.names[s - 1] for s in table.data()["bots"]) == bot_names(
        lang, PRACTICE_BOTS
    )
    assert table.dealt(table.host, state) in table.host.texts()
    play_out(memory_bot, table)
    ending = table.ending()
    assert ending is not None, table.group_texts()[-3:]
    assert table.t("reveal_bots") in ending.text
    assert ending.button_labels == [table.t("btn_play_again")]
    leaks.check(table)


def test_a_practice_lobby_offers_three_to_eleven_bot_seats_at_the_learning_level(
    memory_bot: Bot,
) -> None:
    table = opened(memory_bot)
    lobby = table.lobby_message()
    assert table.t("practice_lobby") in lobby.text
    level = table.t("bot_level_learning")
    assert table.t("variant_bot_seats", n=PRACTICE_BOTS, level=level) in lobby.text
    assert lobby.button_labels == [table.t("btn_settings"), table.t("btn_start")]
    table.host.press(table.t("btn_settings"), table.lobby_message())
    menu = table.lobby_message()
    offered = [b.text for row in menu.buttons for b in row if "|v:bot_seats:" in b.callback_data]
    assert offered[0] == table.t("choice_chosen", v="3") and offered[1:] == [
        str(n) for n in range(4, 12)
    ]
    pressed = [b.callback_data or "" for row in menu.buttons for b in row]
    for group_only in ("delete_chatter", "auto_start", "lobby_minutes"):
        assert not any(f":{group_only}" in data for data in pressed), group_only


def test_a_practice_game_plays_eleven_bot_seats_and_the_variants_chosen_in_settings(
    memory_bot: Bot,
) -> None:
    table = dealt(memory_bot, bot_seats=11, bot_strong=True, turncoat=True, spy=True)
    assert table.state.seats == 12 and table.state.variants.spy
    play_out(memory_bot, table)
    assert table.ending() is not None
    leaks.check(table)


def test_the_practice_player_gets_a_group_games_card_turn_message_and_prompts_in_one_chat(
    memory_bot: Bot,
) -> None:
    table = dealt(memory_bot)
    seat = table.seat_of(table.host)
    for _ in range(200):
        if waiting_for(table.state) == seat and table.state.phase == TURN:
            break
        memory_bot.advance(1)
    board = table.board()
    assert board.chat_id == table.host.id
    assert table.t("btn_my_card") in board.button_labels
    labels = table.host.labels()
    assert table.t("btn_scout") in labels, labels
    table.scout(seat, seat % table.state.seats + 1)
    assert table.t("btn_done") in table.host.labels()
    table.done(seat)
    leaks.check(table)


def test_a_practice_game_makes_no_group_only_call_and_writes_to_its_player_alone(
    memory_bot: Bot,
) -> None:
    table = dealt(memory_bot, turncoat=True, observer=True)
    play_out(memory_bot, table)
    calls = [c for c in table.fake.calls if c.kind == "ok"]
    assert not {c.method for c in calls} & GROUP_ONLY_CALLS
    chats = {int(c.params["chat_id"]) for c in calls if "chat_id" in c.params}
    assert chats == {table.host.id}
    links = [b for m in table.group_messages() for row in m.buttons for b in row if b.url]
    assert not links, links  # no Join, no group link to the table view


def test_cancel_ends_a_practice_game_with_no_button_left_but_play_again(
    memory_bot: Bot,
) -> None:
    table = dealt(memory_bot)
    table.host.private("/cancel")
    assert table.data()["status"] == "cancelled"
    assert buttons_left(table) == [table.t("btn_play_again")]
    leaks.check(table)


def test_cancel_closes_a_practice_lobby_with_no_button_left(memory_bot: Bot) -> None:
    table = opened(memory_bot)
    table.host.private("/cancel")
    assert table.data()["status"] == "cancelled"
    assert buttons_left(table) == []
    assert "/practice" in table.lobby_message().text


def test_a_second_practice_while_one_is_on_answers_in_reply_to_its_message(
    memory_bot: Bot,
) -> None:
    table = dealt(memory_bot)
    game, board = table.data()["game"], table.ids().board
    table.host.private("/practice")
    answer = table.host.messages()[-1]
    assert answer.text == table.t("practice_running")
    assert answer.reply_to_message_id == board
    assert table.data()["game"] == game and table.data()["status"] == "playing"


def test_practice_in_a_group_points_to_the_private_chat_whose_link_opens_one(
    memory_bot: Bot,
) -> None:
    group = Table.of(memory_bot, 2)
    asker = group.host
    asker.say("/practice")
    answer = group.group_messages()[-1]
    link = next(e["url"] for e in answer.entities if e.get("url"))
    assert link == f"https://t.me/{memory_bot.fake.bot_username}?start=practice"
    assert answer.text == re.sub("<[^>]+>", "", group.t("practice_in_private", url=link))
    assert memory_bot.item(group.chat) is None  # no table in the group
    asker.open_link(link)
    own = Table(memory_bot, [asker], memory_bot.fake.chats[asker.id], "en")
    assert own.data()["status"] == "lobby"


def test_a_practice_lobby_seats_nobody_else(memory_bot: Bot) -> None:
    table = opened(memory_bot)
    stranger = memory_bot.fake.add_user("Zoe", started=True)
    url = f"https://t.me/{memory_bot.fake.bot_username}?start=j{table.chat}_{table.data()['game']}"
    memory_bot.act(lambda: memory_bot.fake.open_deep_link(stranger, url))
    assert [uid for uid, _ in table.data()["players"]] == [table.host.id]
    said = [m.text for m in memory_bot.fake.chat(stranger) if m.from_bot]
    assert said[-1] == Table.t_in("en", "practice_alone")


def test_a_practice_game_counts_in_no_statistics_and_no_history(memory_bot: Bot) -> None:
    table = dealt(memory_bot)
    play_out(memory_bot, table)
    store, user = memory_bot.store, table.host.id
    assert store.load(f"stats#user#{user}") is None
    assert store.load(f"stats#group#{user}") is None
    assert store.load(f"history#{user}") is None
    table.host.private("/stats")
    assert table.host.last_text() == Table.t_in("en", "stats_own_none")


def test_forget_cancels_and_erases_a_practice_game_and_its_settings(memory_bot: Bot) -> None:
    table = dealt(memory_bot, bot_seats=5)
    assert memory_bot.store.load(f"prefs#{table.host.id}") is not None
    table.host.private("/forget")
    assert table.host.last_text() == Table.t_in("en", "forgotten")
    assert memory_bot.item(table.chat) is None
    assert memory_bot.store.load(f"prefs#{table.host.id}") is None
    assert buttons_left(table) == [table.t("btn_play_again")]
    table.host.private("/practice")  # a new one: the built-in settings again
    assert table.data()["settings"]["bot_seats"] == PRACTICE_BOTS
