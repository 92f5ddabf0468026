"""A command refused in a group, answered in as little space as the chat allows: where the bot
may delete, the last refusal goes and the new one is posted; otherwise one message is rewritten
on every refusal (and left as it is when it says so already). The group's saved preferences
keep where its one refusal is; its game is left untouched."""

from __future__ import annotations

import zlib
from typing import Any

from telegram import Update

from handlers.session.table import BOT_CAN_DELETE
from handlers.storage.keys import prefs_key
from handlers.telegram.chats import is_group, reply
from handlers.telegram.context import BotContext
from handlers.telegram.item import Read
from handlers.telegram.messages import Delete, Edit, Out, Send
from handlers.telegram.outbox import deliver

# Kept with the group's preferences: its last refusal (the message's id) and a checksum of what
# that message says.
REFUSAL_REF = "refusal_msg"
REFUSAL_SAID = "refusal_said"
# A refusal is rewritten in place only while it is among the group's last few messages.
FEW = 3


def said(text: str) -> int:
    """The checksum a refusal's text is remembered by."""
    return zlib.crc32(text.encode())


def refusal(
    chat: int, kept: dict[str, Any], may_delete: bool, text: str, typed: int | None = None
) -> list[Out]:
    """The messages that say `text` in the group in place of its last refusal (`kept`: the
    group's preferences; `typed`: the refused command's message id)."""
    last = kept.get(REFUSAL_REF)
    if may_delete:
        gone: list[Out] = [Delete(chat, last)] if last else []
        return [*gone, Send(chat, text, remember=REFUSAL_REF)]
    if last and typed is not None and typed - last > FEW:
        return [Send(chat, text, remember=REFUSAL_REF)]  # the old one is out of sight
    if last and kept.get(REFUSAL_SAID) == said(text):
        return []  # the group's one refusal says so already
    return [Edit(chat, text, msg=last, ref=REFUSAL_REF)]


async def refuse(context: BotContext, update: Update, loaded: Read | None, text: str) -> None:
    """Answer a refused command with `text`: in a group, as its one refusal; elsewhere, as a
    reply."""
    if not is_group(update):
        await reply(update, text)
        return
    chat = update.effective_chat.id
    host = context.runtime.host
    kept = host.get(prefs_key(chat)) or {}
    table = loaded.table if loaded is not None else None
    may_delete = table.bot_can_delete if table else None
    may_delete = kept.get(BOT_CAN_DELETE) if may_delete is None else may_delete
    typed = update.effective_message.message_id if update.effective_message else None
    outs = refusal(chat, kept, bool(may_delete), text, typed)
    if not outs:
        return
    delivery = await deliver(context.bot, outs)
    msg = delivery.ids.get(REFUSAL_REF) or kept.get(REFUSAL_REF)

    def note(prefs: dict) -> dict:
        return {**prefs, REFUSAL_REF: msg, REFUSAL_SAID: said(text)}

    host.put_once(prefs_key(chat), update.update_id, note)
