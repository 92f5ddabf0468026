"""The fake Telegram server enforces Telegram's rules on texts, keyboards, formatting, commands
and chat members, and its faults (flood control, delays) reach a real python-telegram-bot Bot
as Telegram's would."""

import datetime as dtm
import time
from typing import Any

import pytest
import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, NetworkError, RetryAfter

from testing.fake_telegram import FakeTelegram
from testing.fake_telegram.formatting import EntityParseError, parse_text
from tests.ptb_scenarios import run


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


def test_getchatmember_tells_members_from_the_rest(fake_telegram: FakeTelegram) -> None:
    fake = fake_telegram
    ann, bob, cat, dan, eve, rex = (
        fake.add_user(n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Rex")
    )
    group = fake.add_group("Table", [bob, cat, dan, eve], owner=ann)
    fake.restrict(cat, group, is_member=True)
    fake.restrict(dan, group, is_member=False)
    fake.ban(eve, group, by=ann)

    async def scenario(bot: telegram.Bot) -> dict[str, tuple]:
        seen = {}
        for user in (ann, bob, cat, dan, eve, rex):
            member = await bot.get_chat_member(group.id, user.id)
            seen[user.first_name] = (member.status, getattr(member, "is_member", None))
        return seen

    assert run(fake, scenario) == {
        "Ann": ("creator", None),
        "Bob": ("member", None),
        "Cat": ("restricted", True),
        "Dan": ("restricted", False),
        "Eve": ("kicked", None),
        "Rex": ("left", None),  # never in the group
    }
    with pytest.raises(AssertionError, match="banned"):
        fake.join(eve, group)
    with pytest.raises(AssertionError, match="restricted"):
        fake.send_text(cat, group, "hello")


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


def test_latency_is_sat_out_by_every_call_and_off_by_default(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)

    async def scenario(bot: telegram.Bot) -> None:
        await bot.send_message(alice.id, "one")

    run(fake, scenario)
    assert fake.slept == []
    before = len(fake.calls)
    fake.latency = 0.06
    run(fake, scenario)
    slowed = fake.calls[before:]
    assert {c.method for c in slowed} >= {"getMe", "sendMessage"}
    assert fake.slept == [0.06] * len(slowed)
    assert fake.texts(alice) == ["one", "one"]


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
