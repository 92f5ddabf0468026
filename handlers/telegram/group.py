"""What happens in the group besides commands and buttons: chatter, the bot's membership (and a
player blocking it), upgrades to a supergroup, timers, and failures."""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ApplicationHandlerStop

from handlers.display.ids import Ids
from handlers.display.messages import Delete
from handlers.session.table import BOT_CAN_DELETE, LOBBY, PLAYING, Table
from handlers.storage.keys import prefs_key, user_key
from handlers.storage.side_items import pointed_chats
from handlers.telegram import hub
from handlers.telegram.chats import bot_can_delete, is_group, unreached
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, migrate, removed, shown
from handlers.telegram.item import Read
from handlers.telegram.outbox import deliver

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wake:
    """A timer's nudge: look at this group's table, something may be due."""

    chat: int
    due: float | None = None  # the deadline the timer was set for, when it says
    also: tuple[float, ...] = ()  # those of the group's other timers delivered with it

    def names(self, when: float) -> bool:
        """True when one of the timers this nudge stands for was set for `when`."""
        return any(same_time(due, when) for due in (self.due, *self.also) if due is not None)


async def membership(update: Update, context: BotContext) -> None:
    """The bot's own membership changed: removed from a group, its game there ends; blocked
    by a user in their private chat, the lobbies they are in name them (their games note it
    privately); unblocked, their games note that."""
    member = update.my_chat_member
    if member.chat.type == ChatType.PRIVATE:
        status = member.new_chat_member.status
        if status == ChatMemberStatus.BANNED:  # "kicked": blocked
            await blocked_in_lobbies(context, member.chat.id, update.update_id)
        elif status == ChatMemberStatus.MEMBER:  # unblocked
            await unblocked_in_games(context, member.chat.id, update.update_id)
        return
    if member.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        return
    status = member.new_chat_member.status
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        await removed(context, member.chat.id, update.update_id)
        return
    can_delete = status == ChatMemberStatus.ADMINISTRATOR and bool(
        getattr(member.new_chat_member, "can_delete_messages", False)
    )
    await note_rights(context, member.chat.id, update.update_id, can_delete)


async def blocked_in_lobbies(context: BotContext, user: int, update_id: int) -> None:
    """The user blocked the bot: each open lobby they are in names them (as a private message
    that failed would), so Start waits for them. A game notes it privately, for a scout they
    press to be refused at once; the group hears of it at the next private message to them
    (told now, it could hear of it during a secret wait)."""
    now = context.runtime.clock

    def note(table: Table | None, ids: Ids) -> Decided:
        if table is None or not table.is_player(user):
            return Decided(None)
        if table.status == PLAYING:
            return Decided(table if table.heard_blocked(user, True) else None)
        if table.status != LOBBY:
            return Decided(None)
        news = table.out_of_reach([user], [user], now())
        return Decided(None) if news is None else shown(context, table, ids, news)

    await in_their_groups(context, user, update_id, note)


async def unblocked_in_games(context: BotContext, user: int, update_id: int) -> None:
    """The user unblocked the bot: the games that noted the block forget it (the group hears
    they are back once they open the chat)."""

    def note(table: Table | None, ids: Ids) -> Decided:
        if table is None or table.status != PLAYING:
            return Decided(None)
        return Decided(table if table.heard_blocked(user, False) else None)

    await in_their_groups(context, user, update_id, note)


async def in_their_groups(context: BotContext, user: int, update_id: int, step: hub.Step) -> None:
    """Take `step` in each group the user's pointer names."""
    for chat in pointed_chats(context.runtime.keeper.get(user_key(user))):
        with suppress(ApplicationHandlerStop):  # a redelivery: noted the first time
            await hub.handle(context, await hub.read(context, chat, update_id), step, update_id)


async def note_rights(context: BotContext, chat: int, update_id: int, can_delete: bool) -> None:
    """Remember whether the bot may delete messages in the group (Telegram says so whenever
    its rights change), so that Start need not ask before dealing."""
    loaded = await hub.read(context, chat, update_id, [prefs_key(chat)])
    keeper = context.runtime.keeper
    keeper.put_once(prefs_key(chat), update_id, lambda p: {**p, BOT_CAN_DELETE: can_delete})

    def note(table: Table | None, ids: Ids) -> Decided:
        if table is None or not table.note_rights(can_delete):
            return Decided(None)
        return Decided(table)

    await hub.handle(context, loaded, note, update_id)


async def chatter(update: Update, context: BotContext) -> None:
    """Delete a seated player's message outside their speaking moment, when asked to."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or not is_group(update):
        return
    table = (await hub.read(context, update.effective_chat.id)).table
    if table is None or table.status != PLAYING or not table.silent:
        return
    if table.seat_of(user.id) is None or table.speaker() == user.id:
        return
    await deliver(context.bot, [Delete(table.chat, message.message_id)])


async def wake(update: Wake, context: BotContext) -> None:
    """A timer fired: apply whatever deadline has passed."""
    runtime = context.runtime
    seed = runtime.seed()
    # A lobby about to deal: may the bot delete messages? Who can no longer get a card?
    rights: dict[str, Any] = {}
    idle: list[float | None] = []  # nothing of the game's was due: its next wake

    def due(table: Table | None, ids: Ids) -> Decided:
        idle.clear()
        if table is None:
            return Decided(None)
        now, wake_at = runtime.clock(), table.next_wake()
        if wake_at is not None and now >= wake_at:
            if deals_now(table, now) and "blocked" not in rights:
                rights["ask"] = table  # ask Telegram, then come back
                return Decided(None)
            table.lost_touch(rights.get("blocked", []))  # dealt without, if enough remain
            table.deal_with(seed, rights.get("can_delete"))  # should a countdown start it
            return shown(context, table, ids, table.catch_up(now))
        idle.append(wake_at)
        return Decided(None)  # a lapsed owed batch is claimed and sent all the same

    loaded = await hub.read(context, update.chat)
    await hub.handle(context, loaded, due)
    lobby = rights.pop("ask", None)
    if lobby is not None:
        players = [user for user, _ in lobby.players]
        asked = [unreached(context, players)]
        if lobby.bot_can_delete is None:  # Telegram never said
            asked.append(bot_can_delete(context, update.chat))
        answers = await asyncio.gather(*asked)
        rights["blocked"] = answers[0]
        if len(answers) > 1:
            rights["can_delete"] = answers[1]
        loaded = await hub.read(context, update.chat)
        await hub.handle(context, loaded, due)
    if idle:
        set_again(context, update, idle[0], loaded)


def set_again(context: BotContext, update: Wake, wake_at: float | None, loaded: Read) -> None:
    """A timer found nothing of the game's due. One early for what is next due (a resumed one,
    or a hop towards a wait longer than SQS's delays) is set again; one for a time since
    replaced is dropped (the new time has a timer of its own). A hop towards the table's own
    next wake hops on even when an owed batch is due before it: that batch is sent by a timer
    of its own, or was claimed now. What is next due is read off the item as the timer read it."""
    keeper, now = context.runtime.keeper, context.runtime.clock()
    if wake_at is not None and update.names(wake_at):
        keeper.wake(update.chat, wake_at)
        return
    when = keeper.next_due(loaded.loaded, loaded.wake)
    if when is not None and when > now and (update.due is None or update.names(when)):
        keeper.wake(update.chat, when)


def deals_now(table: Table, now: float) -> bool:
    """A lobby whose countdown has ended and that deals by itself, with players enough: Telegram
    is asked first who can still get a card (and, when it never said, whether the bot may
    delete messages). A lobby that closes instead asks nothing."""
    deadline = table.deadline()
    ended = deadline is not None and now >= deadline
    return table.status == LOBBY and ended and table.starts_itself() and table.enough_players()


def same_time(a: float, b: float) -> bool:
    """Two times stored apart (a timer's, a table's) that name the same moment."""
    return abs(a - b) < 0.001


async def migrated(update: Update, context: BotContext) -> None:
    """The service message of a group upgrade."""
    message = update.effective_message
    if message.migrate_to_chat_id:
        await migrate(context, message.chat.id, message.migrate_to_chat_id)


async def failed(update: object, context: BotContext) -> None:
    """Log a handler's failure by its kind only (never texts, cards or tokens), and note it for
    the webhook entry, which then asks Telegram to deliver the update again (a few times)."""
    context.runtime.failed.append(context.error)
    log.error("update failed: %s", type(context.error).__name__, exc_info=context.error)
