"""/nextgame and the Next game button: whoever asks is told privately, once, when the group's
next lobby opens, with its Join link; they can call it off; someone who blocked the bot is
skipped; someone who never opened the private chat is shown the way there."""

from __future__ import annotations

import pytest

from handlers.storage.history import waiting
from testing.drivers import Bot
from testing.players import Player, Table

LANGS = ["en", "zh"]


def title(table: Table) -> str:
    return f"\u2068{table.title}\u2069"


def calls(table: Table, player: Player) -> list[str]:
    """The private messages that told `player` a lobby opened."""
    opened = table.t_for(player, "next_opened", group=title(table))
    return [text for text in player.texts() if text == opened]


def finish(table: Table, seed: int = 51) -> None:
    state = table.start(seed)
    table.decapitate(state.first, state.first % len(table.players) + 1)


@pytest.mark.parametrize("lang", LANGS)
def test_nextgame_tells_the_player_privately_when_the_next_lobby_opens_once(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    zoe = table.member()
    before = len(table.group_messages())
    zoe.say("/nextgame")
    assert len(table.group_messages()) == before  # the group is not told
    assert zoe.last_text() == table.t_for(zoe, "next_waiting", group=title(table))
    assert zoe.prompt().button_labels == [table.t_for(zoe, "btn_stop_waiting")]
    table.open()
    assert calls(table, zoe) == [table.t_for(zoe, "next_opened", group=title(table))]
    call = zoe.messages()[-1]
    assert call.button_labels == [table.t_for(zoe, "btn_join")]
    zoe.press(table.t_for(zoe, "btn_join"), call)  # the Join link seats her
    assert zoe.name in table.lobby_names()
    table.host.say("/cancel")
    table.host.say("/newgame")
    assert len(calls(table, zoe)) == 1  # once
    assert waiting(memory_bot.store, table.chat) == {}


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_message_calls_to_the_next_game(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    finish(table)
    zoe = table.member()
    ending = table.ending()
    assert zoe.press(table.t("btn_next_game"), ending) == table.t("next_on")
    assert zoe.last_text() == table.t_for(zoe, "next_waiting", group=title(table))
    memory_bot.advance(60)
    assert table.players[1].press(table.t("btn_play_again"), ending) is None
    assert len(calls(table, zoe)) == 1
    assert all(calls(table, p) == [] for p in table.players)  # those seated need no call
    # The end message keeps its Record and Next game buttons; Play again is gone.
    assert table.fake.message(table.group, ending.message_id).button_labels == [
        table.t("btn_record"),
        table.t("btn_next_game"),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_nextgame_can_be_cancelled(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    zoe, yan = table.member(), table.member("Yan")
    zoe.say("/nextgame")
    confirmation = zoe.prompt()
    assert zoe.press(table.t_for(zoe, "btn_stop_waiting"), confirmation) == table.t_for(
        zoe, "next_off"
    )
    shown = table.fake.message(zoe.user, confirmation.message_id)
    assert shown.text == table.t_for(zoe, "next_stopped", group=title(table))
    assert shown.buttons == []
    yan.say("/nextgame")
    yan.say("/nextgame")  # again: called off
    assert yan.last_text() == table.t_for(yan, "next_stopped", group=title(table))
    table.open()
    assert calls(table, zoe) == [] and calls(table, yan) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_next_game_button_does_what_it_says_however_often_pressed(
    memory_bot: Bot, lang: str
) -> None:
    # The button is the whole group's: its label cannot show one person's state, so a second
    # press keeps the call (and says how to cancel it) instead of silently calling it off.
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    finish(table)
    zoe = table.member()
    assert zoe.press(table.t("btn_next_game"), table.ending()) == table.t_for(zoe, "next_on")
    confirmations = len(zoe.texts())
    assert zoe.press(table.t("btn_next_game"), table.ending()) == table.t_for(zoe, "next_already")
    assert len(zoe.texts()) == confirmations  # no second confirmation
    memory_bot.advance(60)
    table.host.press(table.t("btn_play_again"), table.ending())
    assert len(calls(table, zoe)) == 1


def test_a_player_who_blocked_the_bot_is_skipped_when_the_lobby_opens(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    zoe, yan = table.member(), table.member("Yan")
    zoe.say("/nextgame")
    yan.say("/nextgame")
    memory_bot.act(lambda: memory_bot.fake.block(yan.user))
    table.open()
    assert len(calls(table, zoe)) == 1
    assert calls(table, yan) == []
    assert waiting(memory_bot.store, table.chat) == {}  # told or not, nobody is called twice
    assert table.lobby_names() == [p.name for p in table.players]
    assert not any("Yan" in text for text in table.group_texts())


@pytest.mark.parametrize("lang", LANGS)
def test_someone_who_never_opened_the_private_chat_is_shown_the_way(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    xia = table.member("Xia", started=False)
    xia.say("/nextgame")
    hint = table.group_messages()[-1]
    assert hint.text == table.t("next_open_chat", name="\u2068Xia\u2069")
    assert waiting(memory_bot.store, table.chat) == {}
    xia.press(table.t("btn_open_chat"), hint)  # the link opens the chat; Start asks for it
    assert xia.last_text() == table.t_for(xia, "next_waiting", group=title(table))
    table.open()
    assert len(calls(table, xia)) == 1


def test_the_next_game_button_sends_one_who_never_opened_the_chat_there(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    finish(table)
    xia = table.member("Xia", started=False)
    ending = table.ending()
    update = memory_bot.act(
        lambda: memory_bot.fake.press(
            xia.user, table.group, ending.message_id, table.t("btn_next_game")
        )
    )
    query = update["callback_query"]["id"]
    answer = next(a for a in memory_bot.fake.callback_answers if a.query_id == query)
    assert answer.text == table.t("open_chat_first")
    assert waiting(memory_bot.store, table.chat) == {}
    xia.open_link(answer.url)
    assert xia.id in waiting(memory_bot.store, table.chat)


def test_the_calls_are_for_the_group_s_members(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    outsider = memory_bot.fake.add_user("Out", started=True)
    player = Player(memory_bot, outsider, table.group)
    url = f"https://t.me/{memory_bot.fake.bot_username}?start=n{table.chat}".replace("=n-", "=nm")
    player.open_link(url)
    assert player.last_text() == table.t("not_in_group")
    assert waiting(memory_bot.store, table.chat) == {}


def live_calls(table: Table, player: Player) -> list[list[str]]:
    """The buttons still on the private calls that told `player` a lobby opened."""
    opened = table.t_for(player, "next_opened", group=title(table))
    return [m.button_labels for m in player.messages() if m.text == opened and m.buttons]


@pytest.mark.parametrize("lang", LANGS)
def test_a_call_to_a_lobby_loses_its_join_once_the_lobby_is_cancelled_or_dealt(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    zoe = table.member()
    zoe.say("/nextgame")
    table.open()
    assert live_calls(table, zoe) == [[table.t_for(zoe, "btn_join")]]
    table.host.say("/cancel")
    assert live_calls(table, zoe) == []  # cancelled
    zoe.say("/nextgame")
    table.open()
    assert live_calls(table, zoe) == [[table.t_for(zoe, "btn_join")]]
    table.start(51)
    assert live_calls(table, zoe) == []  # dealt
