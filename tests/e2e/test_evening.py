"""Whole evenings in one group: lobbies, games with away and removed players, the end, Play
again, records and statistics, one after another, as people play them. After each stretch no
button is left that would only answer "too late" or "old game"."""

from __future__ import annotations

import pytest

from handlers.display import presses
from handlers.display.render import isolate
from testing.drivers import Bot
from testing.games import (
    after,
    end_now,
    miss_two_turns,
    remove,
    scout_the_next,
)
from testing.players import Table

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])


def live_buttons(bot: Bot) -> list[tuple[int, str, str]]:
    """Every button still pressable in every chat (group and private): (chat, the message's
    first line, the button's data)."""
    found = []
    for chat in list(bot.fake.chats):
        for message in bot.fake.chat(chat):
            if not message.from_bot or message.deleted:
                continue
            first = (message.text or "").split("\n")[0]
            found += [
                (chat, first, button.callback_data)
                for row in message.buttons
                for button in row
                if button.callback_data
            ]
    return found


def lasting(data: str) -> bool:
    """A button meant to stay after a game: the end message's Play again, Record and Next
    game, and /history's."""
    button = presses.decode(data)
    assert button is not None, data
    return button.where == presses.RECORDS or isinstance(button.press, presses.PlayAgain)


def assert_nothing_live_but_what_lasts(bot: Bot) -> None:
    """No chat keeps a button that would only answer that it is too late."""
    stale = [entry for entry in live_buttons(bot) if not lasting(entry[2])]
    assert stale == [], stale


# -- Play again after a game with an away and a removed player --------------------------------


@LANGS
def test_play_again_leaves_the_removed_player_out_and_seats_the_away_one_as_anyone(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.start(seed=11)
    away = miss_two_turns(memory_bot, table)
    gone = next(s for s in range(1, 6) if s not in (away, table.state.turn))
    absent, leaver = table.player_at(away), table.player_at(gone)
    assert remove(table, table.host, gone) is None
    ending = end_now(table)
    assert_nothing_live_but_what_lasts(memory_bot)

    # The removed player's Play again is refused like their other buttons.
    again = table.t("btn_play_again")
    assert leaver.press(again, ending, chat=table.group) == table.t_for(leaver, "you_were_removed")
    assert table.data()["status"] == "over"
    assert absent.press(again, ending, chat=table.group) is None
    assert table.data()["status"] == "lobby"
    names = table.lobby_names()
    assert leaver.name not in names
    assert absent.name == names[0] and len(names) == 4
    assert isolate(leaver.name) not in table.lobby_message().text

    # They may join again like anyone; the away player plays as everyone does.
    table.join(leaver)
    state = table.start(seed=12)
    assert table.data()["away"] == [] and table.data()["removed"] == []
    seat = state.first
    while seat != table.seat_of(absent):
        scout_the_next(table, seat)
        seat = table.state.turn
    assert absent.labels() == [
        table.t_for(absent, "btn_scout"),
        table.t_for(absent, "btn_decapitate"),
    ]
    end_now(table)
    assert_nothing_live_but_what_lasts(memory_bot)


# -- the bot removed from the group while a player is away -------------------------------------


@pytest.mark.over_http
def test_the_bot_removed_from_the_group_takes_the_buttons_off_an_away_players_im_back(
    bot: Bot,
) -> None:
    """Played over HTTP both ways: the bot's own removal is a kind of update of its own."""
    table = Table.of(bot, 4)
    table.open()
    table.start(seed=11)
    away = miss_two_turns(bot, table)
    absent = table.player_at(away)
    told = absent.prompt()
    assert told.button_labels == [table.t("btn_back_in")]
    bot.act(lambda: bot.fake.kick_bot(table.group, by=table.host.user))
    assert table.data()["status"] == "cancelled"
    assert table.fake.message(absent.user, told.message_id).buttons == []
    assert [entry for entry in live_buttons(bot) if entry[0] != table.chat] == []


# -- a removed player the bot cannot reach ------------------------------------------------------


@LANGS
def test_a_removed_player_who_blocked_the_bot_is_neither_named_unreachable_nor_announced_back(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    state = table.start(seed=32)
    gone = next(s for s in range(1, 6) if s != state.turn)
    leaver = table.player_at(gone)
    memory_bot.fake.block(leaver.user)  # the bot learns it when it tells them they were removed
    said = len(table.group_texts())
    assert remove(table, table.host, gone) is None
    name = table.seat_label(gone)
    assert table.group_texts()[said:] == [
        table.t("removed_seat", name=name, by=isolate(table.host.name))
    ]
    memory_bot.fake.unblock(leaver.user)
    leaver.private("/start")
    assert table.group_texts()[said:] == [
        table.t("removed_seat", name=name, by=isolate(table.host.name))
    ]
    table.host.say("/status")
    assert table.t("status_unreachable", names=name) not in table.group_texts()[-1]
    end_now(table)
    assert_nothing_live_but_what_lasts(memory_bot)


def test_a_removed_player_lost_before_the_removal_is_not_announced_back(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5, lang="zh")
    table.open()
    leaver = table.players[2]
    table.start(seed=32)
    gone = table.seat_of(leaver)
    memory_bot.fake.block(leaver.user)  # after the deal: their turn's prompt does not reach them
    while table.state.turn != gone:
        table.scout_and_done(table.state.turn, gone)
    name = table.seat_label(gone)
    assert table.group_texts()[-1].startswith(f"⚠️ {name}：你屏蔽了我，我无法私聊你。")
    assert remove(table, table.host, gone) is None
    said = len(table.group_texts())
    memory_bot.fake.unblock(leaver.user)
    leaver.private("/start")
    assert table.group_texts()[said:] == []
    assert table.data()["unreachable"] == []


# -- statistics and history of a game with a removed player ------------------------------------


@LANGS
def test_stats_count_the_game_but_not_for_the_player_removed_from_it(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    state = table.start(seed=32)
    gone = next(s for s in range(1, 6) if s != state.turn)
    leaver = table.player_at(gone)
    assert remove(table, table.host, gone) is None
    end_now(table)
    table.host.say("/stats")
    lines = table.group_texts()[-1].splitlines()
    assert table.t("stats_games", n=1) in lines
    board = lines[lines.index(table.t("stats_leaders")) + 1 :]
    assert len(board) == 4
    assert not any(isolate(leaver.name) in line for line in board)
    leaver.private("/stats")
    assert leaver.last_text() == table.t_for(leaver, "stats_own_none")
    table.host.private("/stats")
    assert table.t_for(table.host, "stats_own_games", n=1, groups=1) in table.host.last_text()
    # /history keeps the game as it was dealt, the removed player's name with the others.
    table.host.say("/history")
    history = table.group_texts()[-1]
    assert isolate(leaver.name) in history.splitlines()[1]


# -- a player the bot lost, marked away meanwhile, opens the chat again -----------------------


@LANGS
def test_a_lost_player_marked_away_who_opens_the_chat_again_plays_from_their_next_turn(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=11)
    lost = table.player_at(after(table, state.first))
    memory_bot.fake.block(lost.user)  # after their card came: they never see I'm back
    away = miss_two_turns(memory_bot, table)
    assert table.player_at(away) == lost
    name = table.seat_label(away)
    memory_bot.fake.unblock(lost.user)
    said = len(table.group_texts())
    lost.private("/start")
    assert len(table.group_texts()) == said  # the game's warning says so
    assert table.t("back_game", name=name) in table.group_texts()
    assert table.t_for(lost, "back_private", group=isolate(table.title)) in lost.texts()
    seat = table.state.turn
    while seat != away:
        scout_the_next(table, seat)
        seat = table.state.turn
    assert table.group_texts()[-2] == table.t("away_returned", name=name)
    assert lost.labels() == [table.t_for(lost, "btn_scout"), table.t_for(lost, "btn_decapitate")]
    end_now(table)
    assert_nothing_live_but_what_lasts(memory_bot)


# -- /newgame after a game: the old Play again goes ---------------------------------------------


@LANGS
def test_newgame_after_a_game_takes_play_again_off_its_end_message(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.start(seed=11)
    ending = end_now(table)
    assert ending.button_labels[0] == table.t("btn_play_again")
    table.players[1].say("/newgame")
    assert table.data()["status"] == "lobby"
    ending = table.fake.message(table.group, ending.message_id)
    assert ending.button_labels == [table.t("btn_record"), table.t("btn_next_game")]


# -- the call to the next game, once made -------------------------------------------------------


@LANGS
def test_the_next_game_confirmation_loses_its_cancel_once_the_call_is_made(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    zoe = table.member("Zoe")
    seated = table.players[1]
    table.open()
    table.start(seed=11)
    ending = end_now(table)
    zoe.say("/nextgame")
    seated.press(table.t("btn_next_game"), ending, chat=table.group)  # they will play again
    confirmations = [zoe.prompt(), seated.prompt()]
    assert [m.button_labels for m in confirmations] == [
        [table.t_for(zoe, "btn_stop_waiting")],
        [table.t_for(seated, "btn_stop_waiting")],
    ]
    assert table.host.press(table.t("btn_play_again"), ending, chat=table.group) is None
    opened = table.t_for(zoe, "next_opened", group=isolate(table.title))
    assert zoe.last_text() == opened
    for person, confirmation in zip((zoe, seated), confirmations, strict=True):
        shown = table.fake.message(person.user, confirmation.message_id)
        assert shown.text == table.t_for(person, "next_waiting", group=isolate(table.title))
        assert shown.buttons == []


# -- a whole evening -----------------------------------------------------------------------------


@LANGS
def test_an_evening_of_two_games_leaves_only_the_buttons_meant_to_stay(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 6, lang=lang)
    stranger = table.member("Zed", started=False)
    late = table.players[5]
    table.open(table.players[1:5])
    # The host looks at Settings when the countdown deals: the game starts all the same.
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    memory_bot.seed = 11
    memory_bot.advance(60 * 5)
    assert table.data()["status"] == "playing"
    late.say("/extend")  # too late for the lobby
    assert table.group_texts()[-1] == table.t("extend_started")
    assert (
        table.group_texts()[-1]
        == {
            "en": "The game has already begun: there is no lobby to extend.",
            "zh": "游戏已经开始，没有可以延长的房间。",
        }[lang]
    )

    # Game one: a player misses two turns, another is removed, the first comes back.
    away = miss_two_turns(memory_bot, table)
    absent = table.player_at(away)
    gone = next(s for s in range(1, 6) if s not in (away, table.state.turn))
    leaver = table.player_at(gone)
    assert remove(table, table.host, gone) is None
    assert absent.press(table.t_for(absent, "btn_back_in")) is None
    ending = end_now(table)
    assert_nothing_live_but_what_lasts(memory_bot)
    assert stranger.press(table.t("btn_record"), ending, chat=table.group) == table.t(
        "open_chat_first"
    )

    # Play again: the removed player is not seated; a sixth player joins; /extend, Start.
    assert absent.press(table.t("btn_play_again"), ending, chat=table.group) is None
    assert leaver.name not in table.lobby_names()
    table.join(late)
    deadline = table.data()["deadline"]
    late.say("/extend")
    assert table.data()["deadline"] == deadline + 120
    state = table.start(seed=12)
    assert len(state.cards) == 5

    # Game two is cancelled while its player lists the seats in the group.
    player = table.player_at(state.turn)
    assert player.press(table.t("btn_scout"), table.board(), chat=table.group) is None
    table.host.say("/cancel")
    assert table.data()["status"] == "cancelled"
    assert_nothing_live_but_what_lasts(memory_bot)

    # /history keeps both games; /stats counts the finished one, not for the removed player.
    table.host.say("/history")
    lines = table.group_texts()[-1].splitlines()
    assert lines[1].endswith(table.t("history_cancelled"))
    assert len([line for line in lines if line[:2] in ("1.", "2.")]) == 2
    table.host.say("/stats")
    stats = table.group_texts()[-1]
    assert table.t("stats_games", n=1) in stats.splitlines()
    assert isolate(leaver.name) not in stats
    assert_nothing_live_but_what_lasts(memory_bot)


@LANGS
def test_calling_off_the_next_game_in_the_group_takes_the_cancel_off_the_confirmation(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    zoe = table.member("Zoe")
    zoe.say("/nextgame")
    confirmation = zoe.prompt()
    assert confirmation.button_labels == [table.t_for(zoe, "btn_stop_waiting")]
    zoe.say("/nextgame")  # a switch: off again
    assert zoe.last_text() == table.t_for(zoe, "next_stopped", group=isolate(table.title))
    assert table.fake.message(zoe.user, confirmation.message_id).buttons == []
    assert_nothing_live_but_what_lasts(memory_bot)


# -- the Settings menu left open as the countdown runs out -------------------------------------


def test_the_reminder_shows_the_lobby_again_over_a_settings_menu_left_open(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5)
    table.open(table.players[1:4])
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    assert table.t("btn_join") not in table.lobby_message().button_labels
    memory_bot.advance(60 * 4)  # the reminder: a minute left
    assert table.group_texts()[-1] == table.t("lobby_remind_start", left=1, n=4, m=2)
    lobby = table.lobby_message()
    assert table.t("btn_join") in lobby.button_labels
    table.join(table.players[4])  # a latecomer can still take a seat
    memory_bot.seed = 11
    memory_bot.advance(60)
    assert table.data()["status"] == "playing"
    assert len(table.state.cards) == 5


# -- Play again and the countdown ---------------------------------------------------------------


@LANGS
def test_a_rematch_nobody_else_answers_closes_at_its_minute_with_no_live_button(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.start(seed=11)
    ending = end_now(table)
    assert table.players[2].press(table.t("btn_play_again"), ending, chat=table.group) is None
    lobby = table.lobby_message()
    countdown = next(line for line in lobby.text.splitlines() if line.startswith("⏳"))
    assert countdown.startswith(table.t("rematch_countdown", time="|", min=4, m=2).split("|")[0])
    said = len(table.group_texts())
    memory_bot.advance(60)
    assert table.group_texts()[said:] == [], "the lobby message says it all: no reminder"
    assert table.data()["status"] == "cancelled"
    assert table.lobby_message().text == table.t("rematch_closed_few", n=1, min=4)
    assert table.lobby_message().buttons == []
    assert_nothing_live_but_what_lasts(memory_bot)
    # A lobby opened afresh, where everyone pressed Join, starts by itself again.
    table.open()
    memory_bot.seed = 11
    memory_bot.advance(60 * 5)
    assert table.data()["status"] == "playing"
