"""The fake Telegram server behaves like Telegram towards a real python-telegram-bot Bot."""

import asyncio
import datetime as dtm
import json
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from handlers.playtest.fake_telegram import TEST_TOKEN, FakeTelegram
from handlers.playtest.fake_telegram.formatting import EntityParseError, parse_text

T = TypeVar("T")


def run(fake: FakeTelegram, scenario: Callable[[telegram.Bot], Awaitable[T]]) -> T:
    """Run scenario(bot) with a real Bot pointed at the fake."""

    async def main() -> T:
        async with telegram.Bot(fake.token, base_url=fake.base_url) as bot:
            return await scenario(bot)

    return asyncio.run(main())


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    """An inline keyboard of callback buttons given as (label, data) rows."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


def raw_call(fake: FakeTelegram, path: str, body: bytes = b"", ctype: str = "") -> Any:
    """POST to the fake without PTB; returns (status, JSON body)."""
    headers = {"Content-Type": ctype} if ctype else {}
    request = urllib.request.Request(f"{fake.url}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_token_cannot_pass_for_a_real_one() -> None:
    assert re.search(r"[0-9]{8,10}:[A-Za-z0-9_-]{35}", TEST_TOKEN) is None


def test_get_me(fake_telegram: FakeTelegram) -> None:
    me = run(fake_telegram, lambda bot: bot.get_me())
    assert me.is_bot and me.username == "decapitation_test_bot"
    assert me.can_join_groups and not me.can_read_all_group_messages
    assert not me.supports_inline_queries
    assert me.id == fake_telegram.bot_id


def test_send_edit_and_not_modified(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)
    markup = keyboard([("Join", "join")])

    async def scenario(bot: telegram.Bot) -> tuple[telegram.Message, telegram.Message]:
        first = await bot.send_message(alice.id, "<b>Lobby</b> &amp; 1 player", parse_mode="HTML")
        second = await bot.send_message(alice.id, "Waiting", reply_markup=markup)
        assert second.message_id == first.message_id + 1
        edited = await bot.edit_message_text("Lobby: 2", alice.id, first.message_id)
        with pytest.raises(BadRequest, match=r"(?i)not modified"):
            await bot.edit_message_text("Lobby: 2", alice.id, first.message_id)
        with pytest.raises(BadRequest, match=r"(?i)not modified"):
            await bot.edit_message_reply_markup(alice.id, second.message_id, reply_markup=markup)
        more = keyboard([("Join", "join"), ("Leave", "leave")])
        await bot.edit_message_reply_markup(alice.id, second.message_id, reply_markup=more)
        return first, edited

    first, edited = run(fake, scenario)
    assert first.text == "Lobby & 1 player"
    assert first.entities[0].type == "bold"
    assert edited.edit_date is not None and edited.from_user.id == fake.bot_id
    (msg, waiting) = fake.chat(alice)
    assert msg.text == "Lobby: 2" and [v.text for v in msg.history] == ["Lobby & 1 player"]
    assert waiting.text == "Waiting" and waiting.edit_date is not None
    assert [b.callback_data for b in fake.buttons(alice, waiting.message_id)[0]] == [
        "join",
        "leave",
    ]
    assert [c.description for c in fake.refused] == [
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a current content and reply markup of the message",
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a current content and reply markup of the message",
    ]


def test_callback_data_over_64_bytes_is_refused(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)

    async def scenario(bot: telegram.Bot) -> None:
        await bot.send_message(alice.id, "ok", reply_markup=keyboard([("A", "é" * 32)]))
        with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
            await bot.send_message(alice.id, "no", reply_markup=keyboard([("A", "x" * 65)]))

    run(fake, scenario)
    assert len(fake.texts(alice)) == 1
    (refused,) = fake.refused
    assert refused.method == "sendMessage" and refused.status == 400
    assert refused.description == "Bad Request: BUTTON_DATA_INVALID"
    with pytest.raises(AssertionError, match="1 call"):
        fake.assert_no_refused()


def test_unknown_parameter_is_refused(fake_telegram: FakeTelegram) -> None:
    alice = fake_telegram.add_user("Alice", started=True)

    async def scenario(bot: telegram.Bot) -> None:
        with pytest.raises(BadRequest, match=r"(?i)unknown parameter"):
            await bot.send_message(alice.id, "hi", api_kwargs={"colour": "red"})

    run(fake_telegram, scenario)
    assert fake_telegram.refused[0].params["colour"] == "red"
    assert fake_telegram.texts(alice) == []


def test_user_who_never_started_cannot_be_messaged(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    bob = fake.add_user("Bob")

    async def scenario(bot: telegram.Bot) -> None:
        with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
            await bot.send_message(bob.id, "hi")
        fake.send_text(bob, bob, "/start")
        await bot.send_message(bob.id, "welcome")
        fake.block(bob)
        with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
            await bot.send_message(bob.id, "still there?")

    run(fake, scenario)
    assert fake.texts(bob) == ["welcome"]
    assert [c.kind for c in fake.errors] == ["error", "error"]
    fake.assert_no_refused()


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
def test_flood_control_surfaces_as_retry_after(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)
    fake.fail_next("sendMessage", status=429, retry_after=3)
    fake.fail_next("sendmessage", status=502, chat_id=alice)

    async def scenario(bot: telegram.Bot) -> RetryAfter:
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(alice.id, "one")
        with pytest.raises(NetworkError, match=r"(?i)Bad Gateway"):
            await bot.send_message(alice.id, "two")
        await bot.send_message(alice.id, "three")
        return caught.value

    retry_after = run(fake, scenario).retry_after
    seconds = (
        retry_after.total_seconds() if isinstance(retry_after, dtm.timedelta) else retry_after
    )
    assert seconds == 3
    assert fake.texts(alice) == ["three"]
    assert [c.kind for c in fake.calls_to("sendMessage")] == ["injected", "injected", "ok"]


def test_migrated_group_raises_chat_migrated(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice")
    group = fake.add_group("Table", [alice])
    new_id = fake.migrate(group)
    assert new_id < -1_000_000_000_000 and fake.chats[new_id].type == "supergroup"

    async def scenario(bot: telegram.Bot) -> None:
        with pytest.raises(ChatMigrated) as caught:
            await bot.send_message(group.id, "hello")
        assert caught.value.new_chat_id == new_id
        await bot.send_message(new_id, "hello again")

    run(fake, scenario)
    updates = fake.next_updates()
    assert [u["message"].get("migrate_to_chat_id") for u in updates] == [new_id, None]
    assert updates[1]["message"]["migrate_from_chat_id"] == group.id
    assert fake.texts(new_id) == ["hello again"]


def test_get_updates_in_order_with_offsets(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Table", [alice, bob])
    fake.send_text(alice, alice, "/start game_42")
    assert fake.users[alice.id].started
    fake.send_text(bob, group, "just chatting")  # privacy mode: the bot does not get this
    fake.send_text(bob, group, "/join")
    fake.send_text(bob, group, "/join@some_other_bot")

    async def scenario(bot: telegram.Bot) -> None:
        lobby = await bot.send_message(group.id, "Lobby", reply_markup=keyboard([("Join", "j")]))
        fake.press(alice, group, lobby.message_id, "Join")
        updates = await bot.get_updates(timeout=0)
        assert [u.update_id for u in updates] == list(
            range(updates[0].update_id, updates[0].update_id + 3)
        )
        start, join, press = updates
        assert start.message.text == "/start game_42" and start.message.chat.type == "private"
        assert start.message.entities[0].type == "bot_command"
        assert join.message.from_user.id == bob.id and join.message.chat.id == group.id
        assert press.callback_query.data == "j" and press.callback_query.from_user.id == alice.id
        assert await bot.get_updates(offset=updates[1].update_id, timeout=0) == updates[1:]
        await bot.answer_callback_query(press.callback_query.id, "Joined")
        assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == ()
        later = threading.Timer(0.1, fake.send_text, (alice, alice, "/help"))
        later.start()
        started = time.monotonic()
        (woken,) = await bot.get_updates(timeout=5)
        assert woken.message.text == "/help" and time.monotonic() - started < 0.9
        limited = await bot.get_updates(allowed_updates=["callback_query"], timeout=0)
        assert limited == ()

    run(fake, scenario)
    assert fake.callback_answers[0].text == "Joined"
    fake.assert_no_refused()


def test_press_needs_a_visible_button(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice, bob = fake.add_user("Alice", started=True), fake.add_user("Bob")
    vote = run(
        fake, lambda bot: bot.send_message(alice.id, "Vote", reply_markup=keyboard([("Yes", "y")]))
    )
    with pytest.raises(AssertionError, match="no button 'No'"):
        fake.press(alice, alice, vote.message_id, "No")
    with pytest.raises(AssertionError, match="another user's private chat"):
        fake.press(bob, alice, vote.message_id, "Yes")
    forged = fake.press(alice, alice, vote.message_id, callback_data="admin:win")
    assert forged["callback_query"]["data"] == "admin:win"


def test_callback_answers_follow_telegram_rules(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)

    async def scenario(bot: telegram.Bot) -> None:
        msg = await bot.send_message(alice.id, "Pick", reply_markup=keyboard([("A", "a")]))
        first = fake.press(alice, alice, msg.message_id, "A")["callback_query"]["id"]
        second = fake.press(alice, alice, msg.message_id, "A")["callback_query"]["id"]
        with pytest.raises(BadRequest, match=r"(?i)message_too_long"):
            await bot.answer_callback_query(first, "x" * 201)
        await bot.answer_callback_query(first, "x" * 200, show_alert=True)
        for stale in (first, "12345"):
            with pytest.raises(BadRequest, match=r"(?i)query is too old"):
                await bot.answer_callback_query(stale)
        fake.expire_callback_queries()
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_callback_query(second)

    run(fake, scenario)
    assert [(a.text, a.show_alert) for a in fake.callback_answers] == [("x" * 200, True)]
    assert len(fake.refused) == 4


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBUserWarning")
def test_text_and_keyboard_rules(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)
    link = InlineKeyboardButton("Open", url="https://t.me/decapitation_test_bot?start=seat_3")

    async def scenario(bot: telegram.Bot) -> None:
        await bot.send_message(alice.id, f"<i>{'a' * 4096}</i>", parse_mode="HTML")
        await bot.send_message(alice.id, "Join", reply_markup=InlineKeyboardMarkup([[link]]))
        bad: list[dict[str, Any]] = [
            {"text": "a" * 4097},
            {"text": " "},
            {"text": "<b>bold", "parse_mode": "HTML"},
            {"text": "1 < 2", "parse_mode": "HTML"},
            {"text": "Game over!", "parse_mode": "MarkdownV2"},
            {"text": "x", "reply_markup": {"inline_keyboard": [{"text": "A"}]}},
            {"text": "x", "reply_markup": {"inline_keyboard": [[{"text": "A"}]]}},
            {"text": "x", "reply_markup": {"inline_keyboard": [[{"text": "", "url": "a"}]]}},
            {
                "text": "x",
                "reply_markup": {"inline_keyboard": [[{"text": "A", "url": "ftp://x"}]]},
            },
            {
                "text": "x",
                "reply_markup": {
                    "inline_keyboard": [[{"text": "A", "url": "https://x.org", "pay": True}]]
                },
            },
            {"text": "x", "reply_markup": "{not json"},
            {"text": "x", "disable_notification": "maybe"},
            {"text": "x", "message_thread_id": "seven"},
        ]
        for kwargs in bad:
            with pytest.raises(BadRequest):
                await bot.do_api_request("sendMessage", {"chat_id": alice.id, **kwargs})
        with pytest.raises(BadRequest, match=r"(?i)chat_id is empty"):
            await bot.do_api_request("sendMessage", {"text": "x"})

    run(fake, scenario)
    assert len(fake.refused) == 14
    assert len(fake.texts(alice)) == 2
    update = fake.press(alice, alice, 2, "Open")
    assert update["message"]["text"] == "/start seat_3"
    with pytest.raises(AssertionError, match="payload"):
        fake.open_deep_link(alice, "https://t.me/decapitation_test_bot?start=bad%20payload")


def test_formatting_parsers() -> None:
    assert parse_text("a &lt;b&gt; <b>c</b>", "HTML") == (
        "a <b> c",
        [{"type": "bold", "offset": 6, "length": 1}],
    )
    plain, entities = parse_text('<a href="https://x.org">😀x</a>', "HTML")
    assert (plain, entities[0]["length"]) == ("😀x", 3)
    assert parse_text(r"*Round 1\.* _you_", "MarkdownV2")[0] == "Round 1. you"
    for text, mode in [("<u>x</b>", "HTML"), ("<blink>x</blink>", "HTML"), ("*x", "MarkdownV2")]:
        with pytest.raises(EntityParseError):
            parse_text(text, mode)


def test_delete_needs_rights_in_groups(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice")
    group = fake.add_group("Table", [alice])
    fake.send_text(alice, group, "/play")

    async def scenario(bot: telegram.Bot) -> None:
        own = await bot.send_message(group.id, "mine")
        with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
            await bot.delete_message(group.id, 1)
        fake.set_bot_admin(group)
        assert (await bot.get_chat_member(group.id, fake.bot_id)).can_delete_messages
        assert await bot.delete_message(group.id, 1)
        assert await bot.delete_message(group.id, own.message_id)
        with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
            await bot.delete_message(group.id, own.message_id)
        with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
            await bot.edit_message_text("x", group.id, own.message_id)
        fake.kick_bot(group)
        with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the group chat"):
            await bot.send_message(group.id, "hello?")

    run(fake, scenario)
    assert [m.deleted for m in fake.chat(group)] == [True, True]


def test_commands_and_members(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice, bob = fake.add_user("Alice", language_code="de"), fake.add_user("Bob")
    group = fake.add_group("Table", [bob], admins=[alice])

    async def scenario(bot: telegram.Bot) -> None:
        await bot.set_my_commands([("play", "Start a game")])
        await bot.set_my_commands([("spiel", "Spiel starten")], language_code="de")
        admin_scope = telegram.BotCommandScopeChatAdministrators(group.id)
        await bot.set_my_commands([("stop", "Stop the game")], scope=admin_scope)
        with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
            await bot.set_my_commands([("Play", "Start")])
        with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_DESCRIPTION_INVALID"):
            await bot.set_my_commands([("play", "x" * 257)])
        assert [c.command for c in await bot.get_my_commands(language_code="de")] == ["spiel"]
        admin = await bot.get_chat_member(group.id, alice.id)
        assert admin.status == "administrator" and admin.can_delete_messages
        assert (await bot.get_chat_member(group.id, bob.id)).status == "member"
        assert (await bot.get_chat(group.id)).title == "Table"
        await bot.send_chat_action(group.id, "typing")
        await bot.set_my_description("A hidden-role game")
        await bot.set_my_short_description("Decapitation")
        assert await bot.leave_chat(group.id)

    run(fake, scenario)
    assert [c["command"] for c in fake.visible_commands(alice, group)] == ["stop"]
    assert [c["command"] for c in fake.visible_commands(bob, group)] == ["play"]
    assert [c["command"] for c in fake.visible_commands(alice, alice)] == ["spiel"]
    assert fake.chat_actions[0][:2] == (group.id, "typing")
    assert fake.chats[group.id].bot_status == "left"
    assert len(fake.refused) == 2


def test_webhook_mode_and_raw_requests(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)
    token = fake.token
    form = f"chat_id={alice.id}&text=form".encode()
    assert raw_call(fake, f"/bot{token}/sendMessage", form, "application/x-www-form-urlencoded")[
        1
    ]["ok"]
    body = json.dumps({"chat_id": alice.id, "text": "json"}).encode()
    assert raw_call(fake, f"/bot{token}/SENDMESSAGE", body, "application/json")[0] == 200
    boundary = "xYzZY"
    multipart = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="chat_id"\r\n\r\n{alice.id}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nmultipart\r\n'
        f"--{boundary}--\r\n"
    ).encode()
    ctype = f"multipart/form-data; boundary={boundary}"
    assert raw_call(fake, f"/bot{token}/sendMessage", multipart, ctype)[0] == 200
    assert raw_call(fake, f"/bot{token}/sendMessage?chat_id={alice.id}&text=query")[0] == 200
    assert fake.texts(alice) == ["form", "json", "multipart", "query"]
    assert raw_call(fake, "/bot1:wrong/getMe") == (
        401,
        {"ok": False, "error_code": 401, "description": "Unauthorized"},
    )
    assert raw_call(fake, f"/bot{token}/sendPhoto") == (
        404,
        {"ok": False, "error_code": 404, "description": "Not Found"},
    )

    async def scenario(bot: telegram.Bot) -> None:
        with pytest.raises(BadRequest, match=r"(?i)HTTPS"):
            await bot.set_webhook("http://bot.example/hook")
        await bot.set_webhook("https://bot.example/hook", secret_token="s3cret")
        assert (await bot.get_webhook_info()).url == "https://bot.example/hook"
        fake.send_text(alice, alice, "/status")
        with pytest.raises(telegram.error.Conflict):
            await bot.get_updates(timeout=0)

    run(fake, scenario)
    (update,) = fake.next_updates()
    assert update["message"]["text"] == "/status"
    assert fake.webhook_headers()["X-Telegram-Bot-Api-Secret-Token"] == "s3cret"
    delivered: list[dict[str, Any]] = []
    fake.on_update(delivered.append)
    fake.send_text(alice, alice, "/again")
    assert [u["message"]["text"] for u in delivered] == ["/again"] and fake.next_updates() == []


def test_delay_next_slows_the_answer(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    fake.delay_next("getMe", 0.2)

    async def scenario(bot: telegram.Bot) -> float:
        started = time.monotonic()
        await bot.get_me()
        return time.monotonic() - started

    # The Bot's own initialize() makes the delayed call, so the explicit one is fast.
    started = time.monotonic()
    assert run(fake, scenario) < 0.2
    assert time.monotonic() - started >= 0.2


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
def test_group_flood_limit_when_enabled() -> None:
    with FakeTelegram(rate_limits=True) as fake:
        alice = fake.add_user("Alice")
        group = fake.add_group("Table", [alice])

        async def scenario(bot: telegram.Bot) -> None:
            for i in range(20):
                await bot.send_message(group.id, f"line {i}")
            with pytest.raises(RetryAfter):
                await bot.send_message(group.id, "one too many")

        run(fake, scenario)
        assert len(fake.texts(group)) == 20 and fake.errors[0].status == 429


def test_application_polling_round_trip(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None and update.effective_user is not None
        ready = keyboard([("Ready", "ready")])
        name = update.effective_user.first_name
        await update.message.reply_text(f"Hello {name}, seat {context.args}", reply_markup=ready)

    async def ready(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("Noted")
        await query.edit_message_text("You are ready")

    async def main() -> None:
        app = Application.builder().token(fake.token).base_url(fake.base_url).build()
        app.add_handler(CommandHandler("start", start))
        app.add_handler(CallbackQueryHandler(ready))
        async with app:
            await app.start()
            assert app.updater is not None
            await app.updater.start_polling(poll_interval=0, timeout=5)
            alice = fake.add_user("Alice")
            fake.open_deep_link(alice, "https://t.me/decapitation_test_bot?start=seat_2")
            hello = await asyncio.to_thread(fake.wait_for, lambda: fake.last_message(alice))
            assert hello.text == "Hello Alice, seat ['seat_2']"
            fake.press(alice, alice, hello.message_id, "Ready")
            done = ["You are ready"]
            await asyncio.to_thread(fake.wait_for, lambda: fake.texts(alice) == done)
            await app.updater.stop()
            await app.stop()

    asyncio.run(main())
    assert [a.text for a in fake.callback_answers] == ["Noted"]
    fake.assert_no_refused()
    assert fake.errors == []
