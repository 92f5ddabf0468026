"""The lobby before Start: who the bot cannot message privately (and how they fix it), the
countdown that starts or closes it, /extend, and /status."""

from __future__ import annotations

import re
import time

import pytest

from handlers.display.render import isolate
from handlers.storage.keys import prefs_key
from testing.drivers import Bot, LambdaBot
from testing.fake_telegram import FakeMessage
from testing.players import Table

LANGS = ["en", "zh"]


def warning(table: Table, *players, blocked: bool = False) -> str:
    names = table.t("sep_list").join(isolate(p.name) for p in players)
    key = "lobby_unreachable_blocked" if blocked else "lobby_unreachable"
    return table.t(key, names=names, button=table.t("btn_open_chat"))


def countdown_line(message: FakeMessage) -> str:
    return next(line for line in message.text.splitlines() if line.startswith("⏳"))


def deadline_shown(message: FakeMessage) -> int:
    (entity,) = [e for e in message.entities if e["type"] == "date_time"]
    return entity["unix_time"]


def never_started_host(bot: Bot, n: int = 4, lang: str = "en") -> Table:
    """A group whose host opens the lobby without ever having opened the bot's chat; the
    others join through the link."""
    table = Table.of(bot, n, lang=lang)
    table.host.user.started = False
    table.open()
    return table


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_names_a_host_who_never_opened_the_private_chat_with_the_link(
    memory_bot: Bot, lang: str
) -> None:
    table = never_started_host(memory_bot, lang=lang)
    lobby = table.lobby_message()
    assert warning(table, table.host) in lobby.text
    button = lobby.button(table.t("btn_open_chat"))
    assert button.url.startswith("https://t.me/")
    assert table.host.messages() == []


def test_a_host_who_opened_the_private_chat_is_told_where_the_card_will_come(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    hello = table.t("lobby_hello", group=isolate(table.title))
    assert table.host.texts() == [hello]
    lobby = table.lobby_message()
    assert "⚠️" not in lobby.text and table.t("btn_open_chat") not in lobby.button_labels


@pytest.mark.parametrize("lang", LANGS)
def test_start_is_refused_while_a_player_is_unreachable_and_names_them(
    memory_bot: Bot, lang: str
) -> None:
    table = never_started_host(memory_bot, lang=lang)
    answer = table.host.press(table.t("btn_start"), table.lobby_message())
    button = table.t("btn_open_chat")
    assert answer == table.t("unreachable_start", names=isolate(table.host.name), button=button)
    assert table.data()["status"] == "lobby"
    joined = table.t_for(table.players[1], "joined", group=isolate(table.title))
    assert all(p.last_text() == joined for p in table.players[1:])  # no card dealt


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_who_opens_the_chat_is_told_back_in_the_group_and_the_warning_goes(
    memory_bot: Bot, lang: str
) -> None:
    table = never_started_host(memory_bot, lang=lang)
    lobby = table.lobby_message()
    table.host.press(table.t("btn_open_chat"), lobby)  # opens the chat and presses Start
    assert table.group_texts()[-1] == table.t("back_lobby", name=isolate(table.host.name))
    lobby = table.lobby_message()
    assert "⚠️" not in lobby.text and table.t("btn_open_chat") not in lobby.button_labels
    state = table.start(seed=3)
    told = table.t("your_seat", seat=table.seat_of(table.host), group=isolate(table.title))
    assert any(told in text for text in table.host.texts())
    assert state.seats == 4


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_lost_mid_game_is_told_back_in_the_group_with_their_card(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    guest = table.players[1]
    table.start(seed=3)
    seat = table.seat_of(guest)
    memory_bot.fake.block(guest.user)  # after the deal: the bot learns it at their turn's prompt
    while table.state.turn != seat:
        table.scout_and_done(table.state.turn, seat)
    assert table.data()["unreachable"] == [guest.id]
    guest.private("/start")
    assert table.group_texts()[-1] == table.t("back_game", name=table.seat_label(seat))
    assert table.data()["unreachable"] == []
    told = table.t_for(guest, "your_seat", seat=seat, group=isolate(table.title))
    assert any(told in text for text in guest.texts())


def test_the_lobby_reminds_the_group_a_minute_before_it_closes(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open(table.players[1:3])
    before = len(table.group_messages())
    memory_bot.advance(239)
    assert len(table.group_messages()) == before
    memory_bot.advance(1)
    texts = table.group_texts()
    assert len(texts) == before + 1
    assert texts[-1] == table.t("lobby_remind_few", left=1, n=3, min=4, m=2)
    assert table.data()["status"] == "lobby"


@pytest.mark.parametrize("lang", LANGS)
def test_the_reminder_mentions_a_player_the_bot_cannot_reach(memory_bot: Bot, lang: str) -> None:
    table = never_started_host(memory_bot, lang=lang)
    memory_bot.advance(240)
    reminder = table.group_messages()[-1]
    button = table.t("btn_open_chat")
    away = table.t("lobby_remind_away", names=isolate(table.host.name), button=button)
    assert reminder.text == table.t("lobby_remind_start", left=1, n=4, m=2) + "\n" + away
    links = [e.get("url") or e.get("user", {}).get("id") for e in reminder.entities]
    assert [link for link in links if "tg://user" in str(link) or link == table.host.id] in (
        [f"tg://user?id={table.host.id}"],
        [table.host.id],
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_reminder_asks_a_player_who_blocked_the_bot_to_unblock_it(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    gone = table.players[2]
    memory_bot.fake.block(gone.user)
    table.host.press(table.t("btn_start"), table.lobby_message())  # the bot learns of the block
    memory_bot.advance(240)
    button = table.t("btn_open_chat")
    told = table.t("lobby_remind_left_out_blocked", names=isolate(gone.name), button=button)
    assert table.group_texts()[-1].endswith("\n" + told)


def clock(table: Table, when: float) -> str:
    moment = time.gmtime(when)
    return table.t("clock_utc", h=f"{moment.tm_hour:02}", m=f"{moment.tm_min:02}")


@pytest.mark.parametrize("lang", LANGS)
def test_extend_pushes_the_countdown_back(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open(table.players[1:3])
    first = table.data()["deadline"]
    assert deadline_shown(table.lobby_message()) == int(first)
    memory_bot.advance(200)
    table.players[2].say("/extend")
    assert table.data()["deadline"] == first + 120
    assert deadline_shown(table.lobby_message()) == int(first + 120)
    told = table.group_messages()[-1]
    name = isolate(table.players[2].name)
    assert told.text == table.t("extended", name=name, m=2, time=clock(table, first + 120))
    memory_bot.advance(100)  # past the first end: still open, and no reminder yet
    assert table.data()["status"] == "lobby" and table.group_messages()[-1] == told
    memory_bot.advance(60)
    assert table.group_texts()[-1] == table.t("lobby_remind_few", left=1, n=3, min=4, m=2)
    memory_bot.advance(60)
    assert table.data()["status"] == "cancelled"


def test_extend_stops_at_an_hour_and_needs_a_player(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    table.open(table.players[1:3])
    table.players[4].say("/extend")  # not in the lobby, not an admin
    refusal = memory_bot.store.load(prefs_key(table.chat)).data["refusal_msg"]
    assert table.fake.message(table.group, refusal).text == table.t("extend_who")
    for _ in range(30):
        table.players[1].say("/extend")
    refusal = memory_bot.store.load(prefs_key(table.chat)).data["refusal_msg"]  # the latest
    text = table.fake.message(table.group, refusal).text
    assert re.fullmatch(re.escape(table.t("extend_max")) + r" \(×\d+\)", text), text  # repeated
    assert table.data()["deadline"] == table.data()["opened"] + 3600


def test_a_full_enough_lobby_starts_itself_when_the_countdown_ends(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    assert countdown_line(table.lobby_message()).startswith("⏳ Starts by itself at ")
    memory_bot.seed = 3
    memory_bot.advance(300)
    assert table.data()["status"] == "playing"
    assert table.lobby_message().text.startswith("🎲 The game begins.")
    for player in table.players:
        assert any("Your card" in text for text in player.texts())
    first = table.state.first
    assert table.player_at(first).labels() == [table.t("btn_scout"), table.t("btn_decapitate")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_lobby_without_enough_players_closes_when_the_countdown_ends(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open(table.players[1:3])
    memory_bot.advance(300)
    assert memory_bot.fake.chat_actions == []  # a lobby that cannot deal asks nobody's reach
    lobby = table.lobby_message()
    assert lobby.text == table.t("lobby_closed_few", n=3, min=4)
    assert lobby.buttons == []
    assert table.data()["status"] == "cancelled"


@pytest.mark.parametrize("lang", LANGS)
def test_an_unreachable_player_keeps_the_lobby_from_starting_itself(
    memory_bot: Bot, lang: str
) -> None:
    table = never_started_host(memory_bot, lang=lang)
    memory_bot.advance(300)
    lobby = table.lobby_message()
    assert lobby.text == table.t("lobby_closed_away", names=isolate(table.host.name))
    assert lobby.buttons == [] and table.data()["status"] == "cancelled"


def test_with_auto_start_off_the_lobby_closes_unstarted_after_the_countdown_chosen(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.configure(auto_start=False, lobby_minutes=10)
    assert countdown_line(table.lobby_message()).startswith("⏳ Closes at ")
    memory_bot.advance(540)
    assert table.group_texts()[-1] == table.t("lobby_remind_host", left=1, m=2)
    memory_bot.advance(60)
    assert table.lobby_message().text == table.t("lobby_expired")
    assert table.data()["status"] == "cancelled"


@pytest.mark.parametrize("lang", LANGS)
def test_status_in_a_lobby_names_who_the_bot_cannot_reach(memory_bot: Bot, lang: str) -> None:
    table = never_started_host(memory_bot, lang=lang)
    table.players[1].say("/status")
    lines = table.group_texts()[-1].splitlines()
    assert table.t("status_unreachable", names=isolate(table.host.name)) in lines
    assert lines[-1].startswith("⏳")


def test_a_redelivered_start_tells_the_group_once(lambda_bot: LambdaBot) -> None:
    table = never_started_host(lambda_bot)
    update = lambda_bot.fake.send_text(table.host.user, table.host.user, "/start")
    lambda_bot.fake.next_updates()
    lambda_bot.post(update)
    back = table.t("back_lobby", name=isolate(table.host.name))
    assert table.group_texts()[-1] == back
    lambda_bot.post(update)  # Telegram delivers it again
    assert table.group_texts().count(back) == 1


def test_play_again_names_a_player_the_bot_lost_before_dealing(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    guest = table.players[1]
    state = table.start(seed=3)
    memory_bot.fake.block(guest.user)  # after the deal
    table.decapitate(state.first, state.first % 4 + 1)
    table.players[2].press(table.t("btn_play_again"), table.ending())
    lobby = table.lobby_message()
    assert table.players[2].press(table.t("btn_start"), lobby) == table.t(
        "unreachable_start", names=isolate(guest.name), button=table.t("btn_open_chat")
    )
    assert warning(table, guest) in table.lobby_message().text
    assert table.data()["status"] == "lobby"


def test_a_lobby_closed_by_its_countdown_leaves_no_live_remove_keyboard(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open(table.players[1:3])
    table.host.say("/remove")
    keyboard = table.group_messages()[-1]
    assert keyboard.buttons, "the /remove keyboard offers the lobby's players"
    memory_bot.advance(300)
    assert table.data()["status"] == "cancelled"
    assert table.fake.message(table.group, keyboard.message_id).buttons == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_who_blocked_the_bot_after_joining_is_named_at_start_and_nobody_is_dealt(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    gone = table.players[2]
    memory_bot.fake.block(gone.user)
    answer = table.host.press(table.t("btn_start"), table.lobby_message())
    button = table.t("btn_open_chat")
    assert answer == table.t("unreachable_start_blocked", names=isolate(gone.name), button=button)
    assert table.data()["status"] == "lobby"
    assert warning(table, gone, blocked=True) in table.lobby_message().text
    assert not any("🃏" in text for p in table.players for text in p.texts())  # no card dealt


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_who_blocks_the_bot_in_the_lobby_is_asked_there_at_once_to_unblock_it(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    gone = table.players[2]
    memory_bot.act(lambda: memory_bot.fake.block(gone.user))  # Telegram tells the bot of the block
    assert warning(table, gone, blocked=True) in table.lobby_message().text
    assert warning(table, gone) not in table.lobby_message().text  # Start would not help
    assert table.lobby_message().button(table.t("btn_open_chat")).url.startswith("https://t.me/")


def test_start_deals_without_asking_again_about_players_the_bot_greeted_in_this_lobby(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5)
    table.open()  # the host greeted, the others welcomed as they joined by the link
    asked = len(memory_bot.fake.calls_to("sendChatAction"))
    table.start(seed=3)
    assert table.data()["status"] == "playing"
    assert len(memory_bot.fake.calls_to("sendChatAction")) == asked


def test_start_still_asks_about_a_player_the_bot_has_not_written_to_in_this_lobby(
    memory_bot: Bot,
) -> None:
    table = never_started_host(memory_bot)
    table.host.press(table.t("btn_open_chat"), table.lobby_message())  # back, yet not written to
    blocked = "Forbidden: bot was blocked by the user"  # a block Telegram has not told of yet
    memory_bot.fake.fail_next(
        "sendChatAction", status=403, description=blocked, chat_id=table.host.user
    )
    answer = table.host.press(table.t("btn_start"), table.lobby_message())
    button = table.t("btn_open_chat")
    assert answer == table.t("unreachable_start", names=isolate(table.host.name), button=button)
    assert table.data()["status"] == "lobby"


@pytest.mark.parametrize("lang", LANGS)
def test_a_countdown_deals_without_a_player_who_blocked_the_bot_when_enough_remain(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    gone = table.players[3]
    memory_bot.fake.block(gone.user)
    memory_bot.seed = 3
    memory_bot.advance(300)
    assert table.data()["status"] == "playing"
    assert gone.name not in table.state.names
    assert len(table.state.names) == 4


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_reminder_of_an_hour_long_lobby_offers_no_extend(bot: Bot, lang: str) -> None:
    table = Table.of(bot, 4, lang=lang)
    table.open()
    for _ in range(28):  # 5 minutes and 28 times 2 more: the hour is reached
        table.host.say("/extend")
    bot.advance(3600 - 60)
    reminder = table.group_texts()[-1]
    assert reminder == table.t("lobby_remind_start_last", left=1, n=4)
    assert "/extend" not in reminder
