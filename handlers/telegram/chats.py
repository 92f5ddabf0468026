"""What Telegram says about people and chats (names, languages, admins, the bot's own rights),
the host-or-admin rule asked of it, and replying where a command was sent."""

from __future__ import annotations

import asyncio
import logging

from telegram import ChatMember, Update
from telegram.constants import ChatAction, ChatMemberStatus, ChatType, ParseMode
from telegram.error import Forbidden, TelegramError

from handlers.display.texts import EN, ZH, language_for, t
from handlers.session.base import may_manage
from handlers.session.table import NAME_MAX, Table, fitted
from handlers.storage.keys import prefs_key
from handlers.telegram.context import BotContext
from handlers.telegram.item import Read

log = logging.getLogger(__name__)


def display_name(user) -> str:
    """A Telegram user's name, a long one cut to fit and ending in "…"."""
    name = " ".join(p for p in (user.first_name, user.last_name) if p) or user.username or "?"
    return fitted(name, NAME_MAX)


def own_lang(user) -> str | None:
    """The language a Telegram user reads, when Telegram says (None when it does not)."""
    code = getattr(user, "language_code", None)
    return language_for(code) if code else None


def anonymous_answer(context: BotContext, loaded: Read | None, title: str | None) -> str:
    """What an admin posting as the group is told: in the group's language, or in both (Chinese
    first for a title in Chinese characters) while the group has none yet."""
    table = loaded.table if loaded is not None else None
    chat = loaded.chat if loaded is not None else 0
    prefs = context.runtime.keeper.get(prefs_key(chat)) if table is None and chat < 0 else None
    known = table.lang if table is not None else (prefs or {}).get("lang")
    if known in (EN, ZH):
        return t(known, "anonymous_admin")
    chinese = any("\u4e00" <= ch <= "\u9fff" for ch in title or "")
    order = (ZH, EN) if chinese else (EN, ZH)
    return "\n\n".join(t(lang, "anonymous_admin") for lang in order)


def group_lang(context: BotContext, loaded: Read | None, user) -> str:
    """A group's language: its table's, its saved one, or the user's Telegram language."""
    table = loaded.table if loaded is not None else None
    if table is not None:
        return table.lang
    chat = loaded.chat if loaded is not None else 0
    prefs = context.runtime.keeper.get(prefs_key(chat)) if chat < 0 else None
    if prefs and prefs.get("lang") in (EN, ZH):
        return prefs["lang"]
    return language_for(getattr(user, "language_code", None))


IN_GROUP = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


async def membership(context: BotContext, chat: int, user: int) -> bool | None:
    """Whether `user` is in the group (a restricted user only while still a member); None
    when Telegram cannot say."""
    try:
        member = await context.bot.get_chat_member(chat, user)
    except TelegramError as err:
        log.info("membership unknown: %s", type(err).__name__)
        return None
    return in_group(member)


def in_group(member: ChatMember) -> bool:
    """Whether Telegram's `member` is in the group (a restricted user only while a member)."""
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in IN_GROUP


async def is_admin(context: BotContext, chat: int, user: int) -> bool:
    """True when `user` administers the group."""
    try:
        member = await context.bot.get_chat_member(chat, user)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def may_manage_here(context: BotContext, update: Update, table: Table | None) -> bool:
    """The host-or-admin rule (`may_manage`) for the update's sender, in the update's group;
    Telegram is asked whether they are an admin only when being the host is not enough."""
    user = update.effective_user.id
    anonymous = anonymous_admin(update)
    if may_manage(table, user, anonymous):
        return True
    return may_manage(table, user, await is_admin(context, update.effective_chat.id, user))


def anonymous_admin(update: Update) -> bool:
    """A message an admin posted as the group itself ("Remain anonymous")."""
    message, chat = update.effective_message, update.effective_chat
    if update.callback_query is not None:
        return False  # a press is always a person's
    return bool(message and message.sender_chat and chat and message.sender_chat.id == chat.id)


async def bot_can_delete(context: BotContext, chat: int) -> bool:
    """True when the bot is an admin allowed to delete messages in the group."""
    try:
        member = await context.bot.get_chat_member(chat, context.bot.id)
    except TelegramError:
        return False
    return bool(getattr(member, "can_delete_messages", False))


async def unreached(context: BotContext, users: list[int]) -> list[int]:
    """Those of `users` the bot cannot message privately now (blocked, or never started): a
    chat action to each, at once, refused with Forbidden. Any other fault says nothing."""

    async def refused(user: int) -> bool:
        try:
            await context.bot.send_chat_action(user, ChatAction.TYPING)
        except Forbidden:
            return True
        except TelegramError:
            return False
        return False

    answers = await asyncio.gather(*(refused(user) for user in users))
    return [user for user, no in zip(users, answers, strict=True) if no]


def is_group(update: Update) -> bool:
    """True for groups and supergroups."""
    return update.effective_chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def reply(update: Update, text: str) -> None:
    """Answer a command where it was sent."""
    try:
        await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)
    except TelegramError as err:
        log.warning("reply failed: %s", type(err).__name__)
