"""Sending what a change owes: group messages in order, private ones side by side.

Telegram's refusals are handled here: a 429 is never sat out (an update holds one of the
webhook's few connections while it waits), an unchanged edit is fine, a lost message is posted
again (a closed private prompt only when it has news to tell), a player who never opened (or
blocked) the private chat is reported so the group can be told (and which of the two: Telegram
says "bot was blocked by the user" for one who blocked the bot, "bot can't initiate conversation
with a user" for one who never pressed Start).
What Telegram could not take now (a 429, a 5xx or a timeout after a few tries) is handed back
in `Delivery.retry` with the wait asked, to be kept owed and sent by a timer; an edit held back
gives way to a later edit of its message (`latest_edits`). One to a group the bot was removed
from, or that became a supergroup, is reported."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from handlers.display.messages import Delete, DropButtons, Edit, Keyboard, Out, Send, op

log = logging.getLogger(__name__)

# python-telegram-bot gives a 429's retry_after as a timedelta when PTB_TIMEDELTA is set (its next
# major version's only way); unset, it warns of the change at every 429 it reads.
os.environ.setdefault("PTB_TIMEDELTA", "true")

TRIES = 3
HELD = "held"  # the mark of a message Telegram held back, in the form its owed batch stores
BACKOFF = 0.5  # seconds before the second try of a call that failed, twice that before the third
IN_PLACE = (Edit, DropButtons)  # changes of a message already in the chat


@dataclass
class Delivery:
    """What happened to a batch of messages."""

    ids: dict[str, int] = field(default_factory=dict)  # remembered refs -> new message ids
    board_tag: int | None = None
    unreachable: list[int] = field(default_factory=list)  # users we could not message
    blocked: list[int] = field(default_factory=list)  # those of them who blocked the bot
    migrated_to: int | None = None
    moved: list[Out] = field(default_factory=list)  # what the old group refused for it
    removed_from: set[int] = field(default_factory=set)  # groups that no longer have the bot
    retry: list[Out] = field(default_factory=list)  # what to send again later, in order
    wait: float = 0.0  # seconds Telegram asked to wait before `retry`


def markup(kb: Keyboard) -> InlineKeyboardMarkup | None:
    """An inline keyboard from rows of [label, callback data, URL or "webapp:" and the URL of a
    Mini App (private chats only)]."""
    if not kb:
        return None
    return InlineKeyboardMarkup([[_button(label, data) for label, data in row] for row in kb])


def _button(label: str, data: str) -> InlineKeyboardButton:
    if data.startswith("webapp:"):
        return InlineKeyboardButton(label, web_app=WebAppInfo(data.removeprefix("webapp:")))
    if data.startswith(("https://", "tg://")):
        return InlineKeyboardButton(label, url=data)
    return InlineKeyboardButton(label, callback_data=data)


async def _call(coro_factory, tries: int = TRIES) -> Any:
    """Run a Bot call, retrying network hiccups a few times (a 429 is raised at once)."""
    for attempt in range(tries):
        try:
            return await coro_factory()
        except (RetryAfter, BadRequest, Forbidden, ChatMigrated):
            raise
        except TelegramError:
            if attempt == tries - 1:
                raise
            await pause(BACKOFF * (attempt + 1))
    return None


async def pause(seconds: float) -> None:
    """Sit out `seconds` before trying a call again."""
    await asyncio.sleep(seconds)


async def _send(bot: Bot, out: Send | Edit) -> int | None:
    answered = getattr(out, "reply_to", None)
    replying = ReplyParameters(answered, allow_sending_without_reply=True) if answered else None
    message = await _call(
        lambda: bot.send_message(
            chat_id=out.chat,
            text=out.text,
            parse_mode=ParseMode.HTML,
            reply_markup=markup(out.kb),
            protect_content=out.protect or None,
            disable_web_page_preview=True,
            reply_parameters=replying,
        )
    )
    return message.message_id if message else None


async def _edit(bot: Bot, out: Edit, message_id: int) -> bool:
    """Edit a message; False when it is gone and must be posted again."""
    try:
        await _call(
            lambda: bot.edit_message_text(
                chat_id=out.chat,
                message_id=message_id,
                text=out.text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(out.kb),
                disable_web_page_preview=True,
            )
        )
    except BadRequest as err:
        text = str(err).lower()
        if "not modified" in text:
            return True
        if "not found" in text or "can't be edited" in text:
            return False
        raise
    return True


async def _drop_buttons(bot: Bot, out: DropButtons) -> None:
    """Take a message's buttons off (but those in `kb`, if any), its text as it is (gone or
    as wanted already: nothing to do)."""
    try:
        await _call(
            lambda: bot.edit_message_reply_markup(
                chat_id=out.chat, message_id=out.msg, reply_markup=markup(out.kb)
            )
        )
    except BadRequest as err:
        text = str(err).lower()
        if not any(gone in text for gone in ("not modified", "not found", "can't be edited")):
            raise


async def _post(bot: Bot, out: Send, delivery: Delivery) -> None:
    """Post a new message, remembering its id by the name it asks for."""
    message_id = await _send(bot, out)
    if out.remember and message_id:
        delivery.ids[out.remember] = message_id
        if out.remember == "board" and out.tag is not None:
            delivery.board_tag = out.tag


async def _rewrite(bot: Bot, out: Edit, delivery: Delivery, side: bool) -> Send | None:
    """Edit a message in place; None once done, else the new message that stands for it (one
    that is unknown or gone is posted anew, when it has news)."""
    message_id = out.msg or delivery.ids.get(out.ref or "")
    if message_id and await _edit(bot, out, message_id):
        return None
    if out.close and not out.tell:
        return None  # a closed prompt that is unknown or gone: nothing left to close
    if not (side or out.close) and out.kb is None and out.ref == "lobby_msg":
        return None  # closing a lobby message that is gone: nothing to say
    # Out of the chat's order (or a wait that ran out, told in a message of its own), it is
    # remembered by nobody; in its place, it is remembered as the message it stands for.
    remember = None if side or out.close else out.ref
    return Send(
        out.chat,
        out.text,
        out.kb,
        remember=remember,
        tag=out.tag,
        private=out.private,
        protect=out.protect,
        quiet=out.quiet,
    )


async def _one(bot: Bot, out: Out, delivery: Delivery, side: bool = False) -> None:
    doing: Out | None = out  # an edit of a message that is gone becomes a new message
    try:
        if isinstance(out, Edit):
            doing = await _rewrite(bot, out, delivery, side)
        match doing:
            case Send():
                await _post(bot, doing, delivery)
            case Delete():
                await _call(lambda: bot.delete_message(chat_id=out.chat, message_id=out.msg))
            case DropButtons():
                await _drop_buttons(bot, doing)
    except Forbidden as err:
        private = isinstance(doing, Send | Edit) and doing.private
        if private and not doing.quiet:
            delivery.unreachable.append(out.chat)
            if "blocked" in str(err).lower():
                delivery.blocked.append(out.chat)
        elif private:
            log.info("a secret wait's player cannot be reached; the group is not told")
        else:
            delivery.removed_from.add(out.chat)
            log.warning("a group refused a message: the bot is no longer in it")
    except ChatMigrated as err:
        delivery.migrated_to = err.new_chat_id
        delivery.moved.append(out)
    except RetryAfter as err:
        _later(delivery, doing, _retry_after(err))
    except BadRequest as err:
        log.warning("%s refused: %s", _kind(doing), type(err).__name__)
    except NetworkError as err:  # a 5xx or a timeout, several times over
        _later(delivery, doing, 0.0)
        log.warning("%s failed: %s", _kind(doing), type(err).__name__)
    except TelegramError as err:
        log.warning("%s failed: %s", _kind(doing), type(err).__name__)


def _kind(out: Out | None) -> str:
    """What an out does, for the logs."""
    return op(out) if out is not None else "nothing"


def _seconds(wait: Any) -> float:
    return wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)


def _retry_after(err: RetryAfter) -> float:
    """The seconds a 429 asks to wait."""
    return _seconds(err.retry_after)


def _later(delivery: Delivery, out: Out | None, wait: float) -> None:
    """Keep what Telegram could not take now for later, an edit with the id it was meant for
    (a message posted by this batch is known by its id only here)."""
    if out is None:
        return
    if isinstance(out, Edit) and out.msg is None and out.ref in delivery.ids:
        out = replace(out, msg=delivery.ids[out.ref])
    delivery.retry.append(out)
    delivery.wait = max(delivery.wait, wait)


def latest_edits(outs: list[Out], held: Collection[int]) -> list[Out]:
    """The messages to send, an edit Telegram held back (its index in `held`) left out when a
    later edit rewrites the same message (no new message taking its name between): only the
    latest is drawn."""
    targets = [_target(out) for out in outs]
    kept: list[Out] = []
    for i, out in enumerate(outs):
        later = zip(outs[i + 1 :], targets[i + 1 :], strict=True)
        if i in held and isinstance(out, Edit) and _redrawn(targets[i], later):
            continue
        kept.append(out)
    return kept


def _redrawn(target: tuple, later) -> bool:
    """True when a later edit rewrites `target` before a new message takes its name."""
    for out, other in later:
        if other != target:
            continue
        return isinstance(out, Edit)
    return False


async def deliver(bot: Bot, outs: list[Out]) -> Delivery:
    """Send a change's messages: each chat's in order, different chats side by side.

    An edit marked `side` (of a text, or "drop_buttons" taking a message's buttons off) changes
    a message already in place, so it needs no turn in its chat's order and goes out alongside
    (unless another message of the batch touches the same message: then it keeps its place).
    """
    delivery = Delivery()
    by_chat: dict[int, list[Out]] = {}
    side: list[Out] = []
    targets = [_target(out) for out in outs]
    for out, target in zip(outs, targets, strict=True):
        if isinstance(out, IN_PLACE) and out.side and targets.count(target) == 1:
            side.append(out)
        else:
            by_chat.setdefault(out.chat, []).append(out)

    async def in_order(queue: list[Out], alongside: bool = False) -> None:
        for out in queue:
            await _one(bot, out, delivery, alongside)

    await asyncio.gather(
        *(in_order(queue) for queue in by_chat.values()),
        *(in_order([out], alongside=True) for out in side),
    )
    position = {id(out): i for i, out in enumerate(outs)}
    delivery.moved.sort(key=lambda out: position.get(id(out), len(outs)))  # as they were owed
    return delivery


def _target(out: Out) -> tuple:
    """The message an out touches: its chat and its id, or the name it is remembered by."""
    name = out.remember if isinstance(out, Send) else None
    if isinstance(out, Edit):
        name = out.msg or out.ref
    elif isinstance(out, DropButtons | Delete):
        name = out.msg
    return out.chat, name or id(out)
