"""Running one change to a group's table and delivering what it owes, with what follows
(the lobby settled, unreachable players named, an upgraded or lost group followed)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from handlers.session.table import LOBBY as LOBBY_STATUS
from handlers.session.table import PLAYING, Table
from handlers.storage.host import Change, Host
from handlers.storage.keys import prefs_key
from handlers.telegram import render
from handlers.telegram.answers import PressAnswer
from handlers.telegram.outbox import deliver
from handlers.telegram.texts import EN, ZH, language_for, t

log = logging.getLogger(__name__)


@dataclass
class Deps:
    """What the callbacks need besides Telegram."""

    host: Host
    clock: Callable[[], float] = time.time
    seed: Callable[[], int | None] = lambda: None  # tests fix the deal; play leaves it random


def deps(context: ContextTypes.DEFAULT_TYPE) -> Deps:
    """The callbacks' dependencies."""
    return context.application.bot_data["deps"]


def display_name(user) -> str:
    """A short name for a Telegram user."""
    name = " ".join(p for p in (user.first_name, user.last_name) if p) or user.username or "?"
    return name[:32]


def _unchanged(table: Table | None):
    return None, []


async def run(
    context, chat: int, update_id: int | None, changer, press: PressAnswer | None = None
) -> Table | None:
    """Change a group's table through the host and send what the change owes (a button's
    answer, when ready, alongside: see `PressAnswer`)."""
    return (await run_change(context, chat, update_id, changer, press)).table


async def run_change(
    context, chat: int, update_id: int | None, changer, press: PressAnswer | None = None
) -> Change:
    """`run`, handing back the host's whole `Change` (the version it saved, too)."""
    d = deps(context)
    change = d.host.change(chat, update_id, changer)
    if change.outs or change.keys:
        answer = None if change.repeated else press
        await send(context, change.table, change.outs, change.keys, answer, change.saved_version)
    if change.busy_until is not None:
        # Another run is sending what the update's change owes: should it die, a timer at the
        # end of its lease sends the rest, so Telegram need not come back (and hold the chat).
        d.host.wake(chat, change.busy_until)
        raise ApplicationHandlerStop
    if change.repeated:
        raise ApplicationHandlerStop  # a redelivery: its answers went out the first time
    return change


async def stop_if_repeat(context, update: Update, table: Table | None) -> None:
    """Stop if `update` has already changed `table`: a redelivery that raced its first run
    past the first check. It sends only what the host says is still owed, and answers nothing."""
    if table is not None and update.update_id in table.data.get("applied", []):
        await run(context, table.chat, update.update_id, _unchanged)
        raise ApplicationHandlerStop


async def send(
    context,
    table: Table | None,
    outs: list[dict],
    keys: list[str] | tuple = (),
    press: PressAnswer | None = None,
    saved_version: int | None = None,
) -> None:
    """Deliver messages, remember new message ids and mark the owed batches `keys` delivered,
    tell the group about unreachable players. A press's answer goes out alongside, if ready.
    `saved_version`: the version the change saved the table at, if it saved it."""
    d = deps(context)
    if press is not None and press.ready is not None:
        delivery, _ = await asyncio.gather(deliver(context.bot, outs, {}), press.send())
    else:
        delivery = await deliver(context.bot, outs, {})
    if table is None:
        return
    latest = False  # whether the table is still as this change left it
    if delivery.ids or keys or delivery.retry:
        latest = d.host.remember(
            table.chat,
            table.game,
            delivery.ids,
            delivery.board_tag,
            list(keys),
            delivery.retry,
            delivery.wait,
            saved_version,
        )
    lobby = [out for out in outs if out.get("ref") == "lobby_msg" and out["op"] == "edit"]
    if lobby and table.status == LOBBY_STATUS and not latest:
        await settle_lobby(context, table, lobby[-1])
    if "board" in delivery.ids and table.status == PLAYING and not latest:
        await settle_board(context, table, delivery.ids["board"], keys)
    if table.to_reach(delivery.unreachable) and table.status == PLAYING:
        await tell_unreachable(context, table, table.to_reach(delivery.unreachable))
    if delivery.unreachable and table.status in (LOBBY_STATUS, PLAYING):
        await note_unreachable(context, table, delivery.unreachable)
    if delivery.migrated_to:
        await follow_upgrade(context, table, delivery)
    if table.chat in delivery.removed_from:
        await removed(context, table.chat, None)


async def settle_lobby(context, table: Table, sent: dict) -> None:
    """Make the lobby message end up showing the latest lobby. Runs that change the lobby at
    the same moment (people joining together) save in turn, but their edits may reach Telegram
    out of order; so after its edit each run looks again, and while the stored lobby reads
    otherwise than what it sent last, it sends that. The last edit to land is then the newest."""
    d = deps(context)
    for _ in range(5):
        latest = d.host.latest(table.chat)
        if latest is None or latest.game != table.game or latest.status != LOBBY_STATUS:
            return
        out = render.lobby_message(latest)
        if (out["text"], out["kb"]) == (sent["text"], sent["kb"]):
            return
        await deliver(context.bot, [out], {})
        sent = out


async def settle_board(context, table: Table, message_id: int, keys) -> None:
    """A turn message this run posted, with another change saved before its delivery mark (the
    next player acting at once, the game ending): if the table no longer has it as its turn
    message, nobody will ever take its buttons off, so they come off now. (While the mark is
    not written, its batch is owed and goes out again: the message is left as it is.)"""
    latest = deps(context).host.latest(table.chat)
    if latest is None or any(batch.get("key") in keys for batch in latest.data.get("owed") or []):
        return
    board = latest.data.get("board") or {}
    current = latest.game == table.game and latest.status == PLAYING
    if current and board.get("msg") == message_id:
        return
    await deliver(context.bot, [{"op": "drop_buttons", "chat": table.chat, "msg": message_id}], {})


async def follow_upgrade(context, table: Table, delivery) -> None:
    """The group became a supergroup before its service message reached the bot: move the
    table, and post what the old chat refused in the new one (edits as new messages there)."""
    new = delivery.migrated_to
    await migrate(context, table.chat, new)
    again = [
        {**out, "chat": new, **({"msg": None} if out["op"] == "edit" else {})}
        for out in delivery.moved
        if out["op"] not in ("delete", "drop_buttons")
    ]
    if again:
        resent = await deliver(context.bot, again, {})
        if resent.ids:
            deps(context).host.remember(new, table.game, resent.ids, resent.board_tag)


async def migrate(context, old: int, new: int) -> None:
    """The group became a supergroup: move its table to the new chat id."""
    d = deps(context)
    table = d.host.load(old)
    if table is None:
        return

    def move(current: Table | None):
        if current is not None:
            return None, []
        data = dict(table.data)
        data["chat"] = new
        data["board"] = {**(data.get("board") or {}), "msg": None} if data.get("board") else None
        data["lobby_msg"] = None
        data.pop("end_msg", None)  # a message of the old chat: its number names none here
        return Table(data), []

    d.host.change(new, None, move)
    d.host.point(old, new)


async def removed(context, chat: int, update_id: int | None) -> None:
    """The bot is no longer in the group: end its game (no timer is left running) and tell the
    players privately."""

    def end(table: Table | None):
        if table is None or table.status not in (LOBBY_STATUS, PLAYING):
            return None, []
        return table, render.show(table, table.removed())

    await run(context, chat, update_id, end)


async def tell_unreachable(context, table: Table, users: list[int]) -> None:
    """Name the players the bot cannot message privately, with a button to open the chat."""
    names = []
    for user in dict.fromkeys(users):
        seat = table.seat_of(user)
        names.append(render.seat_name(table, seat) if seat else str(user))
    url = f"https://t.me/{render.BOT_USERNAME['name']}?start=hi"
    out = render.send_group(
        table,
        t(table.lang, "cannot_reach", name=t(table.lang, "sep_list").join(names)),
        [[[t(table.lang, "btn_open_chat"), url]]],
    )
    await deliver(context.bot, [out], {})


async def note_unreachable(context, table: Table, users: list[int]) -> None:
    """Remember who a private message failed to reach: the lobby names them (and Start waits
    for them); in a game, the group hears when they are back."""

    def note(current: Table | None):
        if current is None or current.game != table.game or not current.lost_touch(users):
            return None, []
        if current.status == LOBBY_STATUS:
            return current, [render.lobby_message(current)]
        return current, []

    await run(context, table.chat, None, note)


async def reply(update: Update, text: str) -> None:
    """Answer a command where it was sent."""
    try:
        await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)
    except TelegramError as err:
        log.warning("reply failed: %s", type(err).__name__)


def own_lang(user) -> str | None:
    """The language a Telegram user reads, when Telegram says (None when it does not)."""
    code = getattr(user, "language_code", None)
    return language_for(code) if code else None


def lang_of(context, chat_id: int, user) -> str:
    """A chat's language: its table's, its saved one, or the user's Telegram language."""
    d = deps(context)
    table = d.host.load(chat_id) if chat_id < 0 else None
    if table is not None:
        return table.lang
    prefs = d.host.get(prefs_key(chat_id)) if chat_id < 0 else None
    if prefs and prefs.get("lang") in (EN, ZH):
        return prefs["lang"]
    return language_for(getattr(user, "language_code", None))


IN_GROUP = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


async def membership(context, chat: int, user: int) -> bool | None:
    """Whether `user` is in the group (a restricted user only while still a member); None
    when Telegram cannot say."""
    try:
        member = await context.bot.get_chat_member(chat, user)
    except TelegramError as err:
        log.info("membership unknown: %s", type(err).__name__)
        return None
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in IN_GROUP


async def is_admin(context, chat: int, user: int) -> bool:
    """True when `user` administers the group."""
    try:
        member = await context.bot.get_chat_member(chat, user)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def bot_can_delete(context, chat: int) -> bool:
    """True when the bot is an admin allowed to delete messages in the group."""
    try:
        member = await context.bot.get_chat_member(chat, context.bot.id)
    except TelegramError:
        return False
    return bool(getattr(member, "can_delete_messages", False))


def is_group(update: Update) -> bool:
    """True for groups and supergroups."""
    return update.effective_chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)
