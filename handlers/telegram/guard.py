"""What gets through to the handlers: only what a person sent, well formed, and new."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from handlers.storage.keys import game_key, group_stats_key, prefs_key, user_key, waiting_key
from handlers.telegram import buttondata as callbacks
from handlers.telegram.changes import deps, is_group, lang_of, reply, stop_if_repeat
from handlers.telegram.texts import t

log = logging.getLogger(__name__)


def table_chat(update: Update) -> int | None:
    """The group whose table an update may change, if any."""
    if update.callback_query is not None:
        press = callbacks.decode(update.callback_query.data)
        return press.chat if press else None
    if update.my_chat_member is not None:  # the bot's own membership: in a group, its table's
        return update.effective_chat.id if is_group(update) else None
    message = update.effective_message
    if message is None or update.effective_chat is None:
        return None
    if is_group(update):
        return update.effective_chat.id
    words = (message.text or "").split()
    if len(words) == 2 and words[0] == "/start":
        target = callbacks.parse_join(words[1])
        return target[0] if target else None
    return None


def anonymous_admin(update: Update) -> bool:
    """A message an admin posted as the group itself ("Remain anonymous")."""
    message, chat = update.effective_message, update.effective_chat
    return bool(message and message.sender_chat and chat and message.sender_chat.id == chat.id)


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


async def guard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
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
            lang = lang_of(context, update.effective_chat.id, None)
            await reply(update, t(lang, "anonymous_admin"))
        raise ApplicationHandlerStop
    if message is not None and message.sender_chat is not None:
        raise ApplicationHandlerStop  # written on behalf of a channel
    user = update.effective_user
    if user is not None and user.is_bot and update.my_chat_member is None:
        raise ApplicationHandlerStop


async def skip_repeat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram delivered an update again that already changed its table: send only what that
    change still owes (a run that died before sending), and handle it no further."""
    chat = table_chat(update)
    if chat is None:
        return
    host = deps(context).host
    host.prefetch(reads_of(update, chat))
    await stop_if_repeat(context, update, host.load(chat))


def reads_of(update: Update, chat: int) -> list[str]:
    """The store keys that handling `update` reads, to be read in one call: the table, and
    for /newgame the group's saved settings, the host's pointer and who waits for the next
    lobby (Play again: the latter), for a join the joiner's, for a settings button or news of
    the bot's rights the group's saved record, for /stats the group's statistics."""
    keys = [game_key(chat)]
    message, user = update.effective_message, update.effective_user
    if update.my_chat_member is not None:
        return [*keys, prefs_key(chat)]
    if update.callback_query is not None:
        press = callbacks.decode(update.callback_query.data)
        if press is not None and press.kind == callbacks.LOBBY and press.arg[:2] in ("t:", "v:"):
            keys.append(prefs_key(chat))
        if press is not None and press.kind == callbacks.LOBBY and press.arg == "again":
            keys.append(waiting_key(chat))  # who waits to hear of the next lobby
        return keys
    if message is None or user is None:
        return keys
    words = (message.text or "").split()
    command = words[0].split("@")[0] if words else ""
    if command == "/newgame":
        keys += [prefs_key(chat), user_key(user.id), waiting_key(chat)]
    elif command == "/start" and len(words) == 2:
        keys.append(user_key(user.id))
    elif command == "/stats":
        keys.append(group_stats_key(chat))
    return keys
