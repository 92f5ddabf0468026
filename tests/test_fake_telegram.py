"""The fake Telegram server behaves like Telegram towards a real python-telegram-bot Bot:
sending, editing and deleting messages, and the errors Telegram answers them with."""

import re

import pytest
import telegram
from telegram.error import BadRequest, ChatMigrated, Forbidden

from testing.fake_telegram import TEST_TOKEN, FakeTelegram
from tests.ptb_scenarios import keyboard, run


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


def test_a_document_upload_arrives_with_its_bytes_and_is_refused_where_the_user_never_started(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    alice = fake.add_user("Alice", started=True)
    bob = fake.add_user("Bob")
    body = b'{"format": "decapitation/1"}'

    async def scenario(bot: telegram.Bot) -> telegram.Message:
        sent = await bot.send_document(
            alice.id,
            telegram.InputFile(body, filename="game.json"),
            caption="<b>Record</b> of a game",
            parse_mode="HTML",
        )
        with pytest.raises(Forbidden, match="can't initiate conversation"):
            await bot.send_document(bob.id, telegram.InputFile(body, filename="game.json"))
        with pytest.raises(BadRequest):
            await bot.send_document(alice.id, "not a file id")
        return sent

    sent = run(fake, scenario)
    assert sent.document.file_name == "game.json" and sent.document.file_size == len(body)
    assert sent.caption == "Record of a game"
    (message,) = fake.chat(alice)
    assert message.document is not None and message.document.data == body
    assert message.caption == "Record of a game" and message.text is None
