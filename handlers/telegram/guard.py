"""What gets through to the handlers: only what a person sent, well formed. (A redelivered
update is recognised where its group's item is read: `hub.read`.)"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from handlers.telegram import hub
from handlers.telegram.chats import anonymous_admin, anonymous_answer, reply
from handlers.telegram.context import BotContext

log = logging.getLogger(__name__)


NO_PLAYER_NEEDED = ("/cancel", "/status", "/rules", "/help", "/language", "/history", "/stats")


_TEXT = (str, type(None))


def _typed(obj: object, **kinds) -> bool:
    return all(isinstance(getattr(obj, name, None), kind) for name, kind in kinds.items())


def well_formed(update: Update) -> bool:
    """The fields the handlers read have the types the Bot API promises. Telegram's updates
    always do; one made up by hand may not (python-telegram-bot takes JSON as it comes)."""
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is not None and not _typed(
        user, id=int, is_bot=bool, first_name=str, last_name=_TEXT, username=_TEXT
    ):
        return False
    if user is not None and not _typed(user, language_code=_TEXT):
        return False
    if chat is not None and not _typed(chat, id=int, type=str, title=_TEXT):
        return False
    if message is not None:
        entities = getattr(message, "entities", ())  # a message too old to show has none
        if not _typed(message, message_id=int, text=_TEXT) or not isinstance(entities, tuple):
            return False
        if not all(_typed(e, type=str, offset=int, length=int) for e in entities):
            return False
        if message.sender_chat is not None and not _typed(message.sender_chat, id=int):
            return False
        if not _typed(message, migrate_to_chat_id=(int, type(None))):
            return False
        markup = getattr(message, "reply_markup", None)
        rows = getattr(markup, "inline_keyboard", ()) if markup is not None else ()
        if not isinstance(rows, tuple) or not all(
            isinstance(row, tuple) and all(_typed(b, text=str, callback_data=_TEXT) for b in row)
            for row in rows
        ):
            return False
    query = update.callback_query
    if query is not None and not _typed(query, id=str, data=_TEXT):
        return False
    member = update.my_chat_member
    return member is None or _typed(member.new_chat_member, status=str)


async def guard(update: Update, context: BotContext) -> None:
    """Let through only what a person sent: other bots, channels and posts made on behalf of a
    channel are ignored. An anonymous admin may use the commands that need no player (and
    /cancel, being an admin); /newgame gets told what to do instead."""
    if update.channel_post is not None or update.edited_channel_post is not None:
        raise ApplicationHandlerStop
    if not well_formed(update):
        log.info("ignored a malformed update")
        raise ApplicationHandlerStop
    message = update.effective_message
    if message is not None and (update.effective_chat is None or update.effective_user is None):
        raise ApplicationHandlerStop  # no chat or no sender: not a message a person sent
    if update.callback_query is not None and update.callback_query.from_user is None:
        raise ApplicationHandlerStop
    if anonymous_admin(update):
        words = (message.text or "").split()
        command = words[0].split("@")[0].lower() if words and words[0][:1] == "/" else None
        if command in NO_PLAYER_NEEDED and update.message is not None:
            return
        if command == "/newgame" and update.message is not None:
            loaded = await hub.read(context, update.effective_chat.id)
            title = update.effective_chat.title
            await reply(update, anonymous_answer(context, loaded, title))
        raise ApplicationHandlerStop
    if message is not None and message.sender_chat is not None:
        raise ApplicationHandlerStop  # written on behalf of a channel
    user = update.effective_user
    if user is not None and user.is_bot and update.my_chat_member is None:
        raise ApplicationHandlerStop
