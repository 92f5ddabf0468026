"""Sending what a change owes: group messages in order, private ones side by side.

Telegram's refusals are handled here: a short 429 waits its retry_after, an unchanged edit is
fine, a lost message is posted again (a closed private prompt only when it has news to tell),
a player who never opened (or blocked) the private chat is reported so the group can be told.
A new message Telegram could not take now (a long 429, a 5xx or a timeout after a few tries) is
handed back in `Delivery.retry`, to be kept owed and sent later; one to a group the bot was
removed from, or that became a supergroup, is reported.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

log = logging.getLogger(__name__)

# python-telegram-bot gives a 429's retry_after as a timedelta when PTB_TIMEDELTA is set (its next
# major version's only way); unset, it warns of the change at every 429 it reads.
os.environ.setdefault("PTB_TIMEDELTA", "true")

MAX_WAIT = 5.0  # longest 429 wait sat through inside one update; longer ones are sent later
TRIES = 3
BACKOFF = 0.5  # seconds before the second try of a call that failed, twice that before the third
IN_PLACE = ("edit", "drop_buttons")  # changes of a message already in the chat


@dataclass
class Delivery:
    """What happened to a batch of messages."""

    ids: dict[str, int] = field(default_factory=dict)  # remembered refs -> new message ids
    board_tag: int | None = None
    unreachable: list[int] = field(default_factory=list)  # users we could not message
    migrated_to: int | None = None
    moved: list[dict] = field(default_factory=list)  # what the old group refused for it
    removed_from: set[int] = field(default_factory=set)  # groups that no longer have the bot
    retry: list[dict] = field(default_factory=list)  # new messages to send again later
    wait: float = 0.0  # seconds Telegram asked to wait before `retry`


def markup(kb: list | None) -> InlineKeyboardMarkup | None:
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
    """Run a Bot call, sitting out 429s and retrying network hiccups a few times."""
    for attempt in range(tries):
        try:
            return await coro_factory()
        except RetryAfter as err:
            wait = _retry_after(err)
            if wait > MAX_WAIT or attempt == tries - 1:
                raise
            await asyncio.sleep(wait)
        except (BadRequest, Forbidden, ChatMigrated):
            raise
        except TelegramError:
            if attempt == tries - 1:
                raise
            await asyncio.sleep(BACKOFF * (attempt + 1))
    return None


async def _send(bot: Bot, out: dict) -> int | None:
    message = await _call(
        lambda: bot.send_message(
            chat_id=out["chat"],
            text=out["text"],
            parse_mode=ParseMode.HTML,
            reply_markup=markup(out.get("kb")),
            protect_content=out.get("protect") or None,
            disable_web_page_preview=True,
        )
    )
    return message.message_id if message else None


async def _edit(bot: Bot, out: dict, message_id: int) -> bool:
    """Edit a message; False when it is gone and must be posted again."""
    try:
        await _call(
            lambda: bot.edit_message_text(
                chat_id=out["chat"],
                message_id=message_id,
                text=out["text"],
                parse_mode=ParseMode.HTML,
                reply_markup=markup(out.get("kb")),
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


async def _drop_buttons(bot: Bot, out: dict) -> None:
    """Take a message's buttons off (but those in `kb`, if any), its text as it is (gone or
    as wanted already: nothing to do)."""
    try:
        await _call(
            lambda: bot.edit_message_reply_markup(
                chat_id=out["chat"], message_id=out["msg"], reply_markup=markup(out.get("kb"))
            )
        )
    except BadRequest as err:
        text = str(err).lower()
        if not any(gone in text for gone in ("not modified", "not found", "can't be edited")):
            raise


async def _one(
    bot: Bot, out: dict, refs: dict[str, int | None], delivery: Delivery, side: bool = False
) -> None:
    original = out
    try:
        if out["op"] == "edit":
            message_id = out.get("msg") or refs.get(out.get("ref") or "")
            if message_id and await _edit(bot, out, message_id):
                return
            if out.get("close") and not out.get("tell"):
                return  # a closed prompt that is unknown or gone: nothing left to close
            if side or out.get("close"):  # out of the chat's order (or a wait that ran out,
                # told in a message of its own): posted anew, remembered by nobody
                out = {**out, "op": "send", "remember": None}
            elif out.get("kb") is None and out.get("ref") == "lobby_msg":
                return  # closing a lobby message that is gone: nothing to say
            else:
                out = {**out, "op": "send", "remember": out.get("ref")}
        if out["op"] == "send":
            message_id = await _send(bot, out)
            ref = out.get("remember")
            if ref and message_id:
                refs[ref] = message_id
                delivery.ids[ref] = message_id
                if ref == "board":
                    delivery.board_tag = out.get("tag", delivery.board_tag)
        elif out["op"] == "delete":
            await _call(lambda: bot.delete_message(chat_id=out["chat"], message_id=out["msg"]))
        elif out["op"] == "drop_buttons":
            await _drop_buttons(bot, out)
    except Forbidden:
        if out.get("private") and not out.get("quiet"):
            delivery.unreachable.append(out["chat"])
        elif out.get("private"):
            log.info("a secret wait's player cannot be reached; the group is not told")
        else:
            delivery.removed_from.add(out["chat"])
            log.warning("a group refused a message: the bot is no longer in it")
    except ChatMigrated as err:
        delivery.migrated_to = err.new_chat_id
        delivery.moved.append(original)
    except RetryAfter as err:
        _later(delivery, out, _retry_after(err))
    except BadRequest as err:
        log.warning("%s refused: %s", out["op"], type(err).__name__)
    except NetworkError as err:  # a 5xx or a timeout, several times over
        _later(delivery, out, 0.0)
        log.warning("%s failed: %s", out["op"], type(err).__name__)
    except TelegramError as err:
        log.warning("%s failed: %s", out["op"], type(err).__name__)


def _seconds(wait: Any) -> float:
    return wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)


def _retry_after(err: RetryAfter) -> float:
    """The seconds a 429 asks to wait."""
    return _seconds(err.retry_after)


def _later(delivery: Delivery, out: dict, wait: float) -> None:
    """Keep a new message Telegram could not take now for later; an edit or a deletion is let
    go (the next change redraws the message, and a stale redraw could overwrite a newer one)."""
    if out["op"] == "send":
        delivery.retry.append(out)
        delivery.wait = max(delivery.wait, wait)


async def deliver(bot: Bot, outs: list[dict], refs: dict[str, int | None]) -> Delivery:
    """Send a change's messages: each chat's in order, different chats side by side.

    An edit marked `side` (of a text, or "drop_buttons" taking a message's buttons off) changes
    a message already in place, so it needs no turn in its chat's order and goes out alongside
    (unless another message of the batch touches the same message: then it keeps its place).
    """
    delivery = Delivery()
    by_chat: dict[int, list[dict]] = {}
    side: list[dict] = []
    targets = [_target(out) for out in outs]
    for out, target in zip(outs, targets, strict=True):
        if out.get("side") and out["op"] in IN_PLACE and targets.count(target) == 1:
            side.append(out)
        else:
            by_chat.setdefault(out["chat"], []).append(out)

    async def in_order(queue: list[dict], alongside: bool = False) -> None:
        for out in queue:
            await _one(bot, out, refs, delivery, alongside)

    await asyncio.gather(
        *(in_order(queue) for queue in by_chat.values()),
        *(in_order([out], alongside=True) for out in side),
    )
    position = {id(out): i for i, out in enumerate(outs)}
    delivery.moved.sort(key=lambda out: position.get(id(out), len(outs)))  # as they were owed
    return delivery


def _target(out: dict) -> tuple:
    """The message an out touches: its chat and its id, or the name it is remembered by."""
    return out["chat"], out.get("msg") or out.get("ref") or out.get("remember") or id(out)
