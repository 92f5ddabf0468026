"""A command refused in a group, answered in as little space as the chat allows: where the bot
may delete, the last refusal goes and the new one is posted; otherwise one message is rewritten
on every refusal (and left as it is when it says so already)."""

from __future__ import annotations

import zlib

from telegram import Update

from handlers.session.table import BOT_CAN_DELETE, Table
from handlers.storage.host import Loaded
from handlers.telegram.chats import is_group, reply
from handlers.telegram.context import BotContext
from handlers.telegram.messages import Delete, Edit, Out, Send
from handlers.telegram.outbox import deliver

# Kept on the table: the group's last refusal (its message id) and a checksum of what it says.
REFUSAL_REF = "refusal_msg"
REFUSAL_SAID = "refusal_said"


def said(text: str) -> int:
    """The checksum a refusal's text is remembered by."""
    return zlib.crc32(text.encode())


def refusal(table: Table, text: str) -> list[Out]:
    """The messages that say `text` in the table's group in place of its last refusal."""
    last = table.data.get(REFUSAL_REF)
    if table.data.get(BOT_CAN_DELETE):
        gone: list[Out] = [Delete(table.chat, last)] if last else []
        return [*gone, Send(table.chat, text, remember=REFUSAL_REF)]
    if last and table.data.get(REFUSAL_SAID) == said(text):
        return []  # the group's one refusal says so already
    return [Edit(table.chat, text, msg=last, ref=REFUSAL_REF)]


async def refuse(context: BotContext, update: Update, loaded: Loaded | None, text: str) -> None:
    """Answer a refused command with `text`: in a group with a table, as its one refusal (kept
    on the table); elsewhere, as a reply."""
    table = loaded.table if loaded is not None else None
    if not is_group(update) or table is None or table.chat != update.effective_chat.id:
        await reply(update, text)
        return
    outs = refusal(table, text)
    if not outs:
        return
    delivery = await deliver(context.bot, outs)
    kept = {**delivery.ids, REFUSAL_SAID: said(text)}
    context.runtime.host.acknowledge(table.chat, table.game, None, kept)
