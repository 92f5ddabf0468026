"""Hostile input: calls without the secret, bodies that are no update, forged buttons, commands
from the wrong place or the wrong sender. Each gets a clear answer or is ignored; no handler
fails and no game changes."""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from handlers.display.texts import EN, ZH, t
from handlers.entry import lambda_webhook as lambda_entry
from testing.drivers import WEBHOOK_SECRET, LambdaBot
from testing.instances import webhook_event
from testing.players import Table


def raw_data(where: str, chat: int, game: int, version: int, arg: str) -> str:
    """Callback data as any client may send it, whatever the bot's buttons say."""
    return f"{where}|{chat}|{game}|{version}|{arg}"


ANONYMOUS = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
OTHER_BOT = {"id": 777000001, "is_bot": True, "first_name": "Spam", "username": "spam_bot"}


@pytest.fixture
def playing(lambda_bot: LambdaBot) -> Table:
    """Five members of a group, four of them in a game just dealt."""
    table = Table.of(lambda_bot, 5)
    table.open(table.players[1:4])
    table.start(seed=81)
    return table


@contextmanager
def unchanged(bot: LambdaBot, table: Table) -> Iterator[None]:
    """The group's stored game is the very same item afterwards, and no handler failed."""
    before = bot.item(table.chat)
    yield
    assert bot.item(table.chat) == before
    assert not bot.errors


def group_update(table: Table, text: str, sender: dict, **extra) -> dict:
    """A message in the group (as the fake has it) sent by `sender` instead of its author."""
    update = table.fake.send_text(table.host.user, table.group, text)
    table.fake.next_updates()
    assert update is not None
    update = copy.deepcopy(update)
    update["message"]["from"] = sender
    update["message"].update(extra)
    return update


# -- the webhook's door ----------------------------------------------------------------------


WRONG_SECRETS = [
    {},
    {"x-telegram-bot-api-secret-token": ""},
    {"x-telegram-bot-api-secret-token": "wrong"},
    {"x-telegram-bot-api-secret-token": WEBHOOK_SECRET.upper()},
    {"x-telegram-bot-api-secret-token": WEBHOOK_SECRET + " "},
    {"x-telegram-bot-api-secret-token": WEBHOOK_SECRET[:-1]},
    {"authorization": f"Bearer {WEBHOOK_SECRET}"},
]


def test_a_call_without_the_right_secret_is_refused_before_the_store_is_touched(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    store = lambda_bot.store
    for headers in WRONG_SECRETS:
        calls, reads, writes = len(lambda_bot.fake.calls), store.reads, store.writes
        body = json.dumps(playing.fake.send_text(playing.host.user, playing.group, "/cancel"))
        answer = lambda_entry.webhook(LambdaBot.event(body, headers))
        assert answer["statusCode"] == 403, headers
        assert (store.reads, store.writes) == (reads, writes), headers
        assert len(lambda_bot.fake.calls) == calls, headers
        for secret in (WEBHOOK_SECRET, lambda_bot.fake.token):
            assert secret not in json.dumps(answer)
    assert playing.data()["status"] == "playing"


NESTED = "[" * 100_000 + "]" * 100_000
NOT_UPDATES = [  # each with whether it comes base64-encoded
    ("{", False),
    ("null", False),
    ("42", False),
    ('"update"', False),
    ("[]", False),
    ('{"message": {"text": "/newgame"}}', False),
    ('{"update_id": 1.5}', False),
    ('{"update_id": true}', False),
    ('{"update_id": null}', False),
    (NESTED, False),
    ('{"update_id": 1, "pad": "' + "x" * 300_000 + '"}', False),
    ("!!!!", True),
    (base64.b64encode(b"\x80\x81\x82").decode(), True),
    (base64.b64encode(b"[1]").decode(), True),
    ('{"update_id": 5, "message": "not a message"}', False),
    ('{"update_id": 5, "callback_query": [1, 2]}', False),
]


def test_a_body_that_is_no_update_is_answered_ok_and_changes_nothing(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    store = lambda_bot.store
    for body, base64_encoded in NOT_UPDATES:
        event = lambda_bot.event(body)
        event["isBase64Encoded"] = base64_encoded
        with unchanged(lambda_bot, playing):
            reads, writes = store.reads, store.writes
            answer = lambda_entry.webhook(event)
            assert (store.reads, store.writes) == (reads, writes), body[:40]
        # Telegram would hold the chat's later updates behind one it must send again: a 2xx.
        assert (answer["statusCode"], answer["body"]) == (200, "not an update"), body[:40]


def test_a_body_of_the_wrong_kind_is_answered_ok(lambda_bot: LambdaBot, playing: Table) -> None:
    for body in ({"update_id": 1}, ["update"], 42):
        event = lambda_bot.event("")
        event["body"] = body
        assert lambda_entry.webhook(event)["body"] == "not an update"


# -- forged buttons --------------------------------------------------------------------------


def forged(table: Table) -> list[tuple[str, str]]:
    """(what, callback data) a forger might try on the player whose turn it is."""
    state = table.state
    seat, game, version = state.turn, table.data()["game"], state.version
    other = Table.of(table.bot, 4)  # another group, with a game of its own
    other.open()
    other.start(seed=82)
    return [
        ("another group's game", raw_data("g", other.chat, 1, other.state.version, "S")),
        ("another game here", raw_data("g", table.chat, game + 1, version, "S")),
        (
            "an old version",
            raw_data("g", table.chat, game, version - 1, f"s{seat % 4 + 1}"),
        ),
        ("a future version", raw_data("g", table.chat, game, version + 5, "S")),
        ("another seat's act", raw_data("g", table.chat, game, version, "e")),
        ("a seat that is not there", raw_data("g", table.chat, game, version, "s99")),
        ("itself as target", raw_data("g", table.chat, game, version, f"x{seat}")),
        ("a spy guess", raw_data("g", table.chat, game, version, "y1.2")),
        ("lobby start, in private", raw_data("l", table.chat, game, 0, "start")),
        ("random bytes", "\x00\x7f\u2603|g|\ufffd"),
        ("too many parts", "g|1|2|3|4|5|6"),
        ("huge numbers", f"g|{10**30}|{10**30}|{10**30}|S"),
        ("empty", ""),
    ]


def test_forged_buttons_get_a_popup_and_change_nothing(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    player = playing.player_at(playing.state.turn)
    prompt = player.prompt()
    for what, data in forged(playing):
        with unchanged(lambda_bot, playing):
            answer = player.press_data(data, prompt)
        assert answer and len(answer) <= 200, what


def test_a_players_button_pressed_by_an_outsider_or_in_the_group_changes_nothing(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    outsider = playing.players[4]
    player = playing.player_at(playing.state.turn)
    scout = player.prompt().buttons[0][0].callback_data
    outsider.private("/start")
    with unchanged(lambda_bot, playing):
        assert (
            outsider.press_data(scout, outsider.messages()[-1])
            == "You are not playing in this game."
        )
        assert (
            player.press_data(scout, playing.board(), playing.group) == "That button is not valid."
        )


# -- the wrong place, the wrong sender -------------------------------------------------------


def test_a_group_command_in_a_private_chat_is_answered_there(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    player = playing.players[1]
    for command in ("/newgame", "/cancel", "/status", "/language"):
        with unchanged(lambda_bot, playing):
            player.private(command)
        assert player.last_text() == "That command works in a group. Add me to one!"
    with unchanged(lambda_bot, playing):
        playing.host.say("/mycard")
    assert playing.group_texts()[-1].startswith("Send /mycard to me in a private chat")


def test_commands_from_someone_who_does_not_play_change_nothing(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    outsider = playing.players[4]
    with unchanged(lambda_bot, playing):
        outsider.say("/cancel")
        assert playing.group_texts()[-1] == "Only the host or a group admin may do that."
        outsider.say("/newgame")
        assert playing.group_texts()[-1].startswith("A game is already running")
        outsider.say("/start")  # in a group: not for it


def test_messages_from_bots_the_bot_itself_and_channels_are_ignored(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    channel = lambda_bot.fake.add_channel("News")
    calls = len(lambda_bot.fake.calls)
    itself = {"id": lambda_bot.fake.bot_id, "is_bot": True, "first_name": "Decapitation"}
    with unchanged(lambda_bot, playing):
        lambda_bot.post(group_update(playing, "/cancel", OTHER_BOT))
        lambda_bot.post(group_update(playing, "/newgame", OTHER_BOT))
        lambda_bot.post(group_update(playing, "/cancel", itself))
        on_behalf = {"id": channel.id, "type": "channel", "title": "News"}
        lambda_bot.post(group_update(playing, "/cancel", OTHER_BOT, sender_chat=on_behalf))
        post = lambda_bot.fake.channel_post(channel, "/newgame")
        lambda_bot.fake.next_updates()
        lambda_bot.post(post)
    assert lambda_bot.fake.calls[calls:] == []


def test_an_anonymous_admin_is_told_how_to_play_and_may_cancel(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    group = {"id": playing.chat, "type": "group", "title": playing.group.title}
    with unchanged(lambda_bot, playing):
        lambda_bot.post(group_update(playing, "/newgame", ANONYMOUS, sender_chat=group))
    assert "Remain anonymous" in playing.group_texts()[-1]
    lambda_bot.post(group_update(playing, "/cancel", ANONYMOUS, sender_chat=group))
    assert playing.data()["status"] == "cancelled"


def test_edited_commands_are_ignored(lambda_bot: LambdaBot, playing: Table) -> None:
    sent = playing.fake.send_text(playing.host.user, playing.group, "/status")
    playing.fake.next_updates()
    calls = len(lambda_bot.fake.calls)
    edited = playing.fake.edited_text(
        playing.host.user, playing.group, sent["message"]["message_id"], "/cancel"
    )
    playing.fake.next_updates()
    with unchanged(lambda_bot, playing):
        lambda_bot.post(edited)
    assert lambda_bot.fake.calls[calls:] == []


def test_a_redelivered_update_id_with_other_content_changes_nothing(
    lambda_bot: LambdaBot, playing: Table
) -> None:
    # An update id the game has applied, arriving again with other content, is a replay.
    applied = playing.envelope()["applied"][-1]
    update = playing.fake.send_text(playing.host.user, playing.group, "/cancel")
    playing.fake.next_updates()
    update["update_id"] = applied
    with unchanged(lambda_bot, playing):
        assert lambda_entry.webhook(webhook_event(update))["statusCode"] == 200


def test_an_anonymous_admin_is_answered_in_the_groups_language_and_in_chinese_when_unknown(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4, lang="zh", title="周五桌游")  # no game yet: no language
    group = {"id": table.chat, "type": "group", "title": table.group.title}
    lambda_bot.post(group_update(table, "/newgame", ANONYMOUS, sender_chat=group))
    told = table.group_texts()[-1]
    assert told.startswith(t(ZH, "anonymous_admin")) and t(EN, "anonymous_admin") in told
    table.open()
    lambda_bot.post(group_update(table, "/newgame", ANONYMOUS, sender_chat=group))
    assert table.group_texts()[-1] == t(ZH, "anonymous_admin")  # the lobby's language
