"""A command refused in a group, answered in as little space as the chat allows: a refusal
posted replies to the command; where the bot may delete, the last refusal goes and the new one
is posted; otherwise one message is rewritten on every refusal while in sight (a repeat shows a
count). The group's saved preferences keep where its one refusal is; its game is left
untouched."""

from __future__ import annotations

import zlib
from typing import Any

from telegram import Update

from handlers.display.messages import Delete, Edit, Out, Send
from handlers.session.table import BOT_CAN_DELETE
from handlers.storage.keys import prefs_key
from handlers.telegram.chats import is_group, reply
from handlers.telegram.context import BotContext
from handlers.telegram.item import Read
from handlers.telegram.outbox import deliver

# Kept with the group's preferences: its last refusal (the message's id) and a checksum of what
# that message says.
REFUSAL_REF = "refusal_msg"
REFUSAL_SAID = "refusal_said"
REFUSAL_TIMES = "refusal_times"  # how many times in a row it said so
# A refusal is rewritten in place only while it is among the group's last few messages.
FEW = 3


def said(text: str) -> int:
    """The checksum a refusal's text is remembered by."""
    return zlib.crc32(text.encode())


def refusal(
    chat: int, kept: dict[str, Any], may_delete: bool, text: str, typed: int | None = None
) -> list[Out]:
    """The messages that say `text` in the group in place of its last refusal (`kept`: the
    group's preferences; `typed`: the refused command's message id, which a refusal posted
    replies to)."""
    last = kept.get(REFUSAL_REF)
    posted = Send(chat, text, remember=REFUSAL_REF, reply_to=typed)
    if may_delete:
        gone: list[Out] = [Delete(chat, last)] if last else []
        return [*gone, posted]
    if not last or (typed is not None and typed - last > FEW):
        return [posted]  # none yet, or the old one is out of sight
    return [Edit(chat, counted(text, times_said(kept, text)), msg=last, ref=REFUSAL_REF)]


def times_said(kept: dict[str, Any], text: str) -> int:
    """How many times in a row the group's one refusal will have said `text`."""
    if kept.get(REFUSAL_SAID) != said(text):
        return 1
    return int(kept.get(REFUSAL_TIMES) or 1) + 1


def counted(text: str, times: int) -> str:
    """A refusal rewritten for its repeat shows how many times it was said, so the repeat is
    seen answered."""
    return text if times == 1 else f"{text} (×{times})"


async def refuse(context: BotContext, update: Update, loaded: Read | None, text: str) -> None:
    """Answer a refused command with `text`: in a group, as its one refusal; elsewhere, as a
    reply."""
    if not is_group(update):
        await reply(update, text)
        return
    chat = update.effective_chat.id
    keeper = context.runtime.keeper
    kept = keeper.get(prefs_key(chat)) or {}
    table = loaded.table if loaded is not None else None
    may_delete = table.bot_can_delete if table else None
    may_delete = kept.get(BOT_CAN_DELETE) if may_delete is None else may_delete
    typed = update.message.message_id if update.message else None
    outs = refusal(chat, kept, bool(may_delete), text, typed)
    delivery = await deliver(context.bot, outs)
    msg = delivery.ids.get(REFUSAL_REF) or kept.get(REFUSAL_REF)
    times = times_said(kept, text) if isinstance(outs[-1], Edit) else 1

    def note(prefs: dict) -> dict:
        return {**prefs, REFUSAL_REF: msg, REFUSAL_SAID: said(text), REFUSAL_TIMES: times}

    keeper.put_once(prefs_key(chat), update.update_id, note)
