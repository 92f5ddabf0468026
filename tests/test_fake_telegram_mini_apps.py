"""The fake Telegram server and Mini Apps as Telegram has them: a web_app button only in a
private chat (a group's is refused with BUTTON_TYPE_INVALID), a direct link in any chat, each
opened with initData signed by the bot's token as Telegram signs it."""

from urllib.parse import parse_qs, urlsplit

import pytest
import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.error import BadRequest

from handlers.table.auth import check_init_data
from testing.fake_telegram import FakeTelegram
from tests.ptb_scenarios import run

PAGE = "https://table.example.org/table"


def web_app(url: str = PAGE) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("🗺 Table", web_app=WebAppInfo(url))]])


def test_a_web_app_button_is_refused_in_a_group_and_taken_in_a_private_chat(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann", started=True)
    group = fake.add_group("Club", [ann])

    async def scenario(bot: telegram.Bot) -> None:
        await bot.send_message(ann.id, "Your card", reply_markup=web_app())
        with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
            await bot.send_message(group.id, "Turn", reply_markup=web_app())
        sent = await bot.send_message(group.id, "Turn")
        with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
            await bot.edit_message_text("Turn!", group.id, sent.message_id, reply_markup=web_app())
        with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
            await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=web_app())

    run(fake, scenario)
    assert len(fake.refused) == 3
    fake.refused.clear()
    assert fake.chat(ann)[-1].buttons[0][0].web_app == PAGE


def test_a_private_web_app_button_opens_its_page_signed_for_the_bot(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann", language_code="zh-hans", started=True)
    page = f"{PAGE}?tgWebAppStartParam=g1_2"

    async def scenario(bot: telegram.Bot) -> None:
        await bot.send_message(ann.id, "Your card", reply_markup=web_app(page))

    run(fake, scenario)
    message = fake.chat(ann)[-1]
    opened = fake.open_mini_app(ann, ann, message.message_id, "🗺 Table", auth_date=1_000)

    assert opened.url == page
    assert opened.start_param is None
    checked = check_init_data(opened.init_data, fake.token, 1_000)
    assert (checked.user.id, checked.user.language_code) == (ann.id, "zh-hans")
    assert checked.start_param == ""
    assert "query_id" in parse_qs(opened.init_data)


def test_a_direct_link_opens_the_registered_app_in_the_group_it_is_pressed_in(
    fake_telegram: FakeTelegram,
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann", started=True)
    group = fake.add_group("Club", [ann])
    link = f"https://t.me/{fake.bot_username}/table?startapp=g1_2&mode=compact"
    button = InlineKeyboardButton("🗺 Table", url=link)

    async def scenario(bot: telegram.Bot) -> None:
        await bot.send_message(group.id, "Turn", reply_markup=InlineKeyboardMarkup([[button]]))

    run(fake, scenario)
    message = fake.chat(group)[-1]
    with pytest.raises(AssertionError, match="no Mini App"):
        fake.open_mini_app(ann, group, message.message_id, "🗺 Table")
    fake.register_mini_app("table", PAGE)  # BotFather's /newapp, done by hand
    opened = fake.open_mini_app(ann, group, message.message_id, "🗺 Table", auth_date=5_000)

    assert urlsplit(opened.url)._replace(query="").geturl() == PAGE
    assert parse_qs(urlsplit(opened.url).query) == {"tgWebAppStartParam": ["g1_2"]}
    assert opened.start_param == "g1_2"
    fields = parse_qs(opened.init_data)
    assert fields["chat_type"] == ["group"]
    assert "chat_instance" in fields and "query_id" not in fields
    assert check_init_data(opened.init_data, fake.token, 5_000).start_param == "g1_2"
