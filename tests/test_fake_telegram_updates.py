"""The fake Telegram server's updates, as a real python-telegram-bot Bot sees them: getUpdates,
button presses and callback answers, webhook mode, and PTB's Application polling it."""

import asyncio
import json
import threading
import time
from typing import Any

import pytest
import telegram
from telegram import Update
from telegram.error import BadRequest
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from testing.fake_telegram import FakeTelegram
from tests.ptb_scenarios import keyboard, raw_call, run


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
