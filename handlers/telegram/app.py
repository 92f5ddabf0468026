"""The bot's Telegram side: one small callback per kind of update, all through the host."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import BotCommand, BotCommandScopeAllGroupChats, Update, User
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from engine import Action
from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP
from engine.cards import SPY
from engine.state import SPY_PHASE, TURN
from engine.turns import may_decapitate
from handlers.session.table import BOT_CAN_DELETE, CANCELLED, OVER_STATUS, PLAYING, Refused, Table
from handlers.session.table import LOBBY as LOBBY_STATUS
from handlers.storage.host import Change, Host, game_key, pointed_chats, prefs_key, user_key
from handlers.telegram import buttondata as callbacks
from handlers.telegram import render
from handlers.telegram.buttondata import BOARD, GAME, LOBBY
from handlers.telegram.outbox import deliver
from handlers.telegram.texts import COMMANDS, EN, ZH, language_for, t
from infra import redact
from infra.aws import tls_context
from infra.store import GameStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wake:
    """A timer's nudge: look at this group's table, something may be due."""

    chat: int
    due: float | None = None  # the deadline the timer was set for, when it says


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


# -- plumbing --------------------------------------------------------------------------------


class RetryLater(Exception):
    """Telegram should deliver this update again later: another run is still sending what the
    update's change owes (and may die doing so)."""


def _unchanged(table: Table | None):
    return None, []


async def run(context, chat: int, update_id: int | None, changer) -> Table | None:
    """Change a group's table through the host and send what the change owes (a button's
    answer, when ready, alongside: see `PressAnswer`)."""
    return (await run_change(context, chat, update_id, changer)).table


async def run_change(context, chat: int, update_id: int | None, changer) -> Change:
    """`run`, handing back the host's whole `Change` (the version it saved, too)."""
    d = deps(context)
    change = d.host.change(chat, update_id, changer)
    if change.outs or change.keys:
        press = None if change.repeated else getattr(context, "press_answer", None)
        await send(context, change.table, change.outs, change.keys, press, change.saved_version)
    if change.busy:
        raise RetryLater(update_id)
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
    if delivery.unreachable and table.status == PLAYING:
        await tell_unreachable(context, table, delivery.unreachable)
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


async def follow_upgrade(context, table: Table, delivery) -> None:
    """The group became a supergroup before its service message reached the bot: move the
    table, and post what the old chat refused in the new one (edits as new messages there)."""
    new = delivery.migrated_to
    await migrate(context, table.chat, new)
    again = [
        {**out, "chat": new, **({"msg": None} if out["op"] == "edit" else {})}
        for out in delivery.moved
        if out["op"] != "delete"
    ]
    if again:
        resent = await deliver(context.bot, again, {})
        if resent.ids:
            deps(context).host.remember(new, table.game, resent.ids, resent.board_tag)


async def removed(context, chat: int, update_id: int | None) -> None:
    """The bot is no longer in the group: end its game (no timer is left running) and tell the
    players privately."""

    def end(table: Table | None):
        if table is None or table.status not in (LOBBY_STATUS, PLAYING):
            return None, []
        return table, render.show(table, table.removed())

    await run(context, chat, update_id, end)


async def membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot's own membership changed: removed from a group, its game there ends."""
    member = update.my_chat_member
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


async def note_rights(context, chat: int, update_id: int, can_delete: bool) -> None:
    """Remember whether the bot may delete messages in the group (Telegram says so whenever
    its rights change), so that Start need not ask before dealing."""
    d = deps(context)
    d.host.put_once(prefs_key(chat), update_id, lambda p: {**p, BOT_CAN_DELETE: can_delete})

    def note(table: Table | None):
        if table is None or table.data.get(BOT_CAN_DELETE) == can_delete:
            return None, []
        table.data[BOT_CAN_DELETE] = can_delete
        return table, []

    await run(context, chat, update_id, note)


async def tell_unreachable(context, table: Table, users: list[int]) -> None:
    """Name the players the bot cannot message privately, with a button to open the chat."""
    names = []
    for user in dict.fromkeys(users):
        seat = table.seat_of(user)
        names.append(render.seat_name(table, seat) if seat else str(user))
    url = f"https://t.me/{render.BOT_USERNAME['name']}?start=hi"
    out = render.send_group(
        table,
        t(table.lang, "cannot_reach", name=", ".join(names)),
        [[[t(table.lang, "btn_open_chat"), url]]],
    )
    await deliver(context.bot, [out], {})


async def reply(update: Update, text: str) -> None:
    """Answer a command where it was sent."""
    try:
        await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)
    except TelegramError as err:
        log.warning("reply failed: %s", type(err).__name__)


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


def table_chat(update: Update) -> int | None:
    """The group whose table an update may change, if any."""
    if update.callback_query is not None:
        press = callbacks.decode(update.callback_query.data)
        return press.chat if press else None
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


NO_PLAYER_NEEDED = ("/cancel", "/status", "/rules", "/help", "/language")
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
    for /newgame the group's saved settings and the host's pointer, for a join the joiner's."""
    keys = [game_key(chat)]
    message, user = update.effective_message, update.effective_user
    if update.callback_query is not None or message is None or user is None:
        return keys
    words = (message.text or "").split()
    command = words[0].split("@")[0] if words else ""
    if command == "/newgame":
        keys += [prefs_key(chat), user_key(user.id)]
    elif command == "/start" and len(words) == 2:
        keys.append(user_key(user.id))
    return keys


# -- commands --------------------------------------------------------------------------------


async def refuse_outside_group(update: Update) -> bool:
    """Answer a group-only command sent elsewhere; True when it was refused."""
    if is_group(update):
        return False
    await reply(update, t(language_for(update.effective_user.language_code), "group_only"))
    return True


async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame: open a lobby in the group."""
    user, chat = update.effective_user, update.effective_chat
    if await refuse_outside_group(update):
        return
    d = deps(context)
    prefs = d.host.get(prefs_key(chat.id)) or {}
    lang = prefs.get("lang") or language_for(user.language_code)

    def open_lobby(table: Table | None):
        if table is not None and table.status == LOBBY_STATUS:
            raise Refused("lobby_exists")
        if table is not None and table.status == PLAYING:
            raise Refused("game_running")
        game = table.game + 1 if table else 1
        new, news = Table.open_lobby(
            chat.id,
            game,
            user.id,
            display_name(user),
            lang,
            prefs.get("settings") or {},
            d.clock(),
            chat.title or "",
        )
        rights = (table.data if table else {}).get(BOT_CAN_DELETE, prefs.get(BOT_CAN_DELETE))
        if rights is not None:
            new.data[BOT_CAN_DELETE] = rights
        return new, render.show(new, news)

    try:
        await run(context, chat.id, update.update_id, open_lobby)
    except Refused as err:
        await reply(update, t(lang_of(context, chat.id, user), err.key, **err.kw))
        return
    # The host finds this game from the private chat (/mycard, /start), as joiners do.
    d.host.point_user(user.id, chat.id)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in the private chat: join through a deep link, or say hello."""
    user = update.effective_user
    if is_group(update):
        return
    lang = language_for(user.language_code)
    payload = context.args[0] if context.args else ""
    target = callbacks.parse_join(payload)
    if target is None:
        await reply(update, t(lang, "welcome") + "\n\n" + t(lang, "help"))
        await resend_private(update, context)
        return
    chat, game = target

    def join(table: Table | None):
        if table is None or table.game != game:
            raise Refused("lobby_gone")
        outs = render.show(table, table.join(user.id, display_name(user)))
        # The welcome is owed with the lobby's redraw, and goes out alongside it.
        title = render.esc(table.data.get("title") or "")
        text = t(table.lang, "joined", group=title)
        return table, [*outs, {"op": "send", "chat": user.id, "text": text, "private": True}]

    try:
        await run(context, chat, update.update_id, join)
    except Refused as err:
        table = deps(context).host.load(chat)
        await stop_if_repeat(context, update, table)
        await reply(update, t(table.lang if table else lang, err.key, **err.kw))
        return
    deps(context).host.point_user(user.id, chat)


def playing_table(context, user: int, statuses: tuple[str, ...]) -> Table | None:
    """The table of the user's latest group where they hold a seat in a game with one of
    `statuses` (a game in play before a finished one), or None."""
    d = deps(context)
    found: Table | None = None
    for chat in pointed_chats(d.host.get(user_key(user))):
        table = d.host.load(chat)
        if table is None or table.status not in statuses or table.seat_of(user) is None:
            continue
        if table.status == PLAYING:
            return table
        found = found or table
    return found


async def resend_private(update: Update, context) -> None:
    """After /start: a seated player who could not be reached gets their card and prompt."""
    table = playing_table(context, update.effective_user.id, (PLAYING,))
    if table is None:
        return
    seat = table.seat_of(update.effective_user.id)
    outs = [render.send_private(update.effective_user.id, render.my_card(table, seat, False))]
    if table.state.turn == seat and not table.data.get("hold"):  # a held moment comes later
        outs += [o for o in render.prompt(table) if o["chat"] == update.effective_user.id]
    outs += render.secret_prompt(table, seat)  # a Turncoat's or Spy's, while their time runs
    await deliver(context.bot, outs, {})


async def mycard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/mycard: your card and what you know, privately."""
    user = update.effective_user
    lang = language_for(user.language_code)
    if is_group(update):
        await reply(update, t(lang_of(context, update.effective_chat.id, user), "private_only"))
        return
    table = playing_table(context, user.id, (PLAYING, OVER_STATUS))
    seat = table.seat_of(user.id) if table else None
    if seat is None:
        await reply(update, t(lang, "mycard_none"))
        return
    out = render.send_private(user.id, render.my_card(table, seat, False))
    await deliver(context.bot, [out], {})


async def status(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/status: the state of play in this group."""
    chat = update.effective_chat
    if await refuse_outside_group(update):
        return
    table = deps(context).host.load(chat.id)
    if table is None or table.status in (OVER_STATUS, CANCELLED):
        await reply(update, t(lang_of(context, chat.id, update.effective_user), "status_none"))
    elif table.status == LOBBY_STATUS:
        await reply(update, t(table.lang, "status_lobby", n=len(table.players)))
    else:
        await reply(update, render.status(table))


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/cancel: the host or an admin ends the lobby or game."""
    user, chat = update.effective_user, update.effective_chat
    if await refuse_outside_group(update):
        return
    d = deps(context)
    table = d.host.load(chat.id)
    if table is None or table.status not in (LOBBY_STATUS, PLAYING):
        await stop_if_repeat(context, update, table)
        await reply(update, t(lang_of(context, chat.id, user), "cancel_none"))
        return
    host = table.data["creator"] == user.id or anonymous_admin(update)
    if not host and not await is_admin(context, chat.id, user.id):
        await reply(update, t(table.lang, "only_host"))
        return

    def end(current: Table | None):
        if current is None:
            raise Refused("cancel_none")
        return current, render.show(current, current.cancel(display_name(user)))

    try:
        await run(context, chat.id, update.update_id, end)
    except Refused as err:
        await reply(update, t(table.lang, err.key, **err.kw))


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules: the rules in the chat's language."""
    lang = lang_of(context, update.effective_chat.id, update.effective_user)
    await reply(update, t(lang, "rules"))


async def help_(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/help: the commands."""
    lang = lang_of(context, update.effective_chat.id, update.effective_user)
    await reply(update, t(lang, "help"))


async def language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/language: switch the group's language (saved with its settings)."""
    chat, user = update.effective_chat, update.effective_user
    if await refuse_outside_group(update):
        return
    d = deps(context)
    new = ZH if lang_of(context, chat.id, user) == EN else EN

    def switch(table: Table | None):
        if table is None or table.status not in (LOBBY_STATUS, PLAYING):
            return None, []
        news = table.switch_language(ZH if table.lang == EN else EN, d.clock())
        return table, render.show(table, news)  # the turn message, all in the new language

    table = await run(context, chat.id, update.update_id, switch)  # stops a redelivery
    if table is not None and table.status in (LOBBY_STATUS, PLAYING):
        new = table.lang
    if not d.host.put_once(prefs_key(chat.id), update.update_id, lambda p: {**p, "lang": new}):
        return  # a redelivery of a switch made without a table
    await reply(update, t(new, "language_set"))


async def unknown(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An unknown command: point to /help in private chats; stay quiet in groups."""
    if not is_group(update):
        await reply(update, t(language_for(update.effective_user.language_code), "help"))


# -- buttons ---------------------------------------------------------------------------------


async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any inline button: decode, check, act, and always answer the presser."""
    query = update.callback_query
    user = query.from_user
    p = callbacks.decode(query.data)
    answer = ""
    press_answer = context.press_answer = PressAnswer(query)
    try:
        if p is None:
            raise Refused("bad_button")
        if p.kind == LOBBY:
            answer = await press_lobby(update, context, p)
        elif p.kind == GAME:
            answer = await press_game(update, context, p)
        elif p.kind == BOARD:
            answer = press_board(context, p, user.id)
    except Refused as err:
        table = deps(context).host.load(p.chat) if p else None
        await stop_if_repeat(context, update, table)
        lang = table.lang if table else language_for(user.language_code)
        answer = t(lang, err.key, **err.kw)
    except (ApplicationHandlerStop, RetryLater):
        raise
    except Exception:
        # The presser's button would spin until Telegram gives up: say so, then fail the update
        # (the webhook asks Telegram to deliver it again).
        if not press_answer.sent:
            await answer_press(query, t(language_for(user.language_code), "try_again"))
        raise
    if not press_answer.sent:
        await answer_press(query, answer)


async def answer_press(query, answer: str) -> None:
    """Answer a button press (a popup when `answer` is not empty)."""
    try:
        await query.answer(answer[:200] or None)
    except TelegramError as err:
        log.info("callback answer failed: %s", type(err).__name__)


class PressAnswer:
    """A button press's answer, sent once. A handler that knows what it will answer if its
    change is saved says so in `ready` before changing; the answer then goes out alongside the
    change's messages instead of a round trip after them."""

    def __init__(self, query) -> None:
        self.query = query
        self.ready: str | None = None
        self.sent = False

    async def send(self) -> None:
        """Answer with `ready` (once)."""
        if not self.sent and self.ready is not None:
            self.sent = True
            await answer_press(self.query, self.ready)


def answer_when_saved(context, answer: str) -> None:
    """The answer to the press being handled, should the change that follows be saved."""
    press = getattr(context, "press_answer", None)
    if press is not None:
        press.ready = answer


def _group_message(update: Update, chat: int) -> bool:
    message = update.callback_query.message
    return message is not None and message.chat.id == chat


async def press_lobby(update: Update, context, p: callbacks.Press) -> str:
    """Lobby and settings buttons on the group's lobby message, and Play again."""
    user = update.callback_query.from_user
    if not _group_message(update, p.chat):
        raise Refused("bad_button")
    d = deps(context)
    table = d.host.load(p.chat)
    if table is None or table.game != p.game:
        raise Refused("stale_button")
    if p.arg == "again":
        return await play_again(update, context, table)
    if table.status != LOBBY_STATUS:
        raise Refused("lobby_gone")
    if p.arg == "leave":
        answer_when_saved(context, t(table.lang, "left"))
        await run(
            context, p.chat, update.update_id, _on_same_game(p, lambda t_: t_.leave(user.id))
        )
        return t(table.lang, "left")
    privileged = table.data["creator"] == user.id or await is_admin(context, p.chat, user.id)
    if not privileged:
        raise Refused("only_host")
    if p.arg == "set":
        changer = _on_same_game(p, lambda t_: t_.show_settings())
    elif p.arg == "back":
        changer = _on_same_game(p, lambda t_: t_.show_lobby())
    elif p.arg.startswith("t:"):
        changer = _on_same_game(p, lambda t_: t_.change_setting(p.arg[2:]))
    elif p.arg == "start":
        can_delete = table.data.get(BOT_CAN_DELETE)
        if can_delete is None:  # no word from Telegram on the bot's rights here yet: ask
            can_delete = await bot_can_delete(context, p.chat)
        seed = d.seed()
        changer = _on_same_game(p, lambda t_: t_.start(d.clock(), seed, can_delete))
    else:
        raise Refused("bad_button")
    answer_when_saved(context, "")
    change = await run_change(context, p.chat, update.update_id, changer)
    saved = change.table
    if saved is not None and p.arg.startswith("t:"):
        prefs = d.host.get(prefs_key(p.chat)) or {}
        defaults = {**prefs, "settings": saved.settings, "lang": saved.lang}
        d.host.put_newer(prefs_key(p.chat), defaults, saved, change.saved_version)
    return ""


def _on_same_game(p: callbacks.Press, fn):
    """A changer that refuses when the group's table is not the game the button belongs to."""

    def changer(table: Table | None):
        if table is None or table.game != p.game:
            raise Refused("stale_button")
        return table, render.show(table, fn(table))

    return changer


async def play_again(update: Update, context, old: Table) -> str:
    """Play again: a new lobby with the same players and settings."""
    user = update.callback_query.from_user
    d = deps(context)
    if old.status not in (OVER_STATUS, CANCELLED):
        raise Refused("game_running")
    if not old.is_player(user.id) and not await is_admin(context, old.chat, user.id):
        raise Refused("not_a_player")

    def again(table: Table | None):
        if table is None or table.game != old.game or table.status not in (OVER_STATUS, CANCELLED):
            raise Refused("stale_button")
        new, news = Table.open_lobby(
            table.chat,
            table.game + 1,
            user.id,
            display_name(user),
            table.lang,
            table.settings,
            d.clock(),
            table.data.get("title") or "",
        )
        if table.data.get(BOT_CAN_DELETE) is not None:
            new.data[BOT_CAN_DELETE] = table.data[BOT_CAN_DELETE]
        others = [p for p in table.players if p[0] != user.id]
        new.data["players"] += [list(p) for p in others][: 12 - 1]
        return new, render.show(new, news)

    answer_when_saved(context, "")
    await run(context, old.chat, update.update_id, again)
    return ""


GAME_FINAL = {"e", "pr", "pb", "w", "k"}


async def press_game(update: Update, context, p: callbacks.Press) -> str:
    """A private game button: navigate a menu, or make a decision."""
    query = update.callback_query
    user = query.from_user
    d = deps(context)
    table = d.host.load(p.chat)
    if table is None or table.game != p.game:
        raise Refused("stale_button")
    if table.status != PLAYING:
        raise Refused("too_late")
    seat = table.seat_of(user.id)
    if seat is None:
        raise Refused("not_a_player")
    if query.message is None or query.message.chat.id != user.id:
        raise Refused("bad_button")
    if p.version != table.public_version:
        raise Refused("too_late")
    arg = p.arg
    menu = navigate(table, seat, arg)
    if menu is not None:
        text, kb = menu
        edit = {
            "op": "edit",
            "chat": user.id,
            "msg": query.message.message_id,
            "text": text,
            "kb": kb,
            "private": True,
        }
        answer_when_saved(context, "")  # a menu changes no game: answer while it opens
        await asyncio.gather(deliver(context.bot, [edit], {}), context.press_answer.send())
        return ""
    action = decision(seat, arg)
    if action is None:
        raise Refused("bad_button")

    label = chosen_label(table, arg, query)
    done = {
        "op": "edit",
        "chat": user.id,
        "msg": query.message.message_id,
        "text": t(table.lang, "chosen", what=label),
        "kb": None,
        "private": True,
        "side": True,  # the pressed prompt, in place: it goes out alongside what follows
    }

    def decide(current: Table | None):
        if current is None or current.game != p.game:
            raise Refused("stale_button")
        if current.status == PLAYING and current.public_version != p.version:
            raise Refused("too_late")
        # The prompt shows what was chosen; owed with the change, so a death cannot lose it.
        return current, [*render.show(current, current.act(user.id, action, d.clock())), done]

    answer_when_saved(context, t(table.lang, "ok"))
    await run(context, p.chat, update.update_id, decide)
    return t(table.lang, "ok")


def navigate(table: Table, seat: int, arg: str):
    """The menu a navigation button opens, or None when `arg` is a decision."""
    state = table.state
    if state.turn != seat and arg in ("S", "D", "B"):
        raise Refused("not_your_turn")
    if arg == "S":
        back = [render.game_button(table, "btn_back", "B")]
        return t(table.lang, "pick_scout"), [*render.seat_keyboard(table, "s", seat), back]
    if arg == "D":
        if may_decapitate(state, seat) is not None or state.phase != TURN:
            raise Refused("not_your_turn")
        back = [render.game_button(table, "btn_back", "B")]
        return t(table.lang, "pick_target"), [*render.seat_keyboard(table, "d", seat), back]
    if arg == "B":
        return render.turn_prompt(table, seat)
    if arg.startswith("d"):
        try:
            target = callbacks.parse_decapitation(arg)[0]
        except ValueError:
            raise Refused("bad_button") from None
        if not 1 <= target <= state.seats or target == seat:
            raise Refused("bad_button")
        return render.decapitation_menu(table, seat, arg)
    if arg.startswith("r") and arg[1:].isdigit():
        if state.phase != SPY_PHASE or state.holder(SPY) != seat:
            raise Refused("not_your_turn")
        return t(table.lang, "prompt_spy_blue"), render.seat_keyboard(table, f"y{arg[1:]}.", None)
    return None


def decision(seat: int, arg: str) -> Action | None:
    """The engine action a final button stands for, or None when malformed."""
    try:
        if arg.startswith("s") and arg[1:].isdigit():
            return Action(SCOUT, seat, target=int(arg[1:]))
        if arg.startswith("x"):
            target, proxy, guard = callbacks.parse_decapitation(arg)
            return Action(DECAPITATE, seat, target=target, proxy=proxy, bodyguard=guard)
        if arg.startswith("y"):
            red, _, blue = arg[1:].partition(".")
            return Action(SPY_GUESS, seat, red=int(red), blue=int(blue))
    except ValueError:
        return None
    simple = {
        "e": Action(END_TURN, seat),
        "w": Action(SWAP, seat),
        "k": Action(KEEP, seat),
        "pr": Action(PREDICT, seat, color="red"),
        "pb": Action(PREDICT, seat, color="blue"),
    }
    return simple.get(arg)


def chosen_label(table: Table, arg: str, query) -> str:
    """The label of the button pressed, for the 'you chose' line."""
    markup = query.message.reply_markup if query.message else None
    for row in markup.inline_keyboard if markup else []:
        for button in row:
            if button.callback_data == query.data:
                return render.esc(button.text)
    return "✔️"


def press_board(context, p: callbacks.Press, user: int) -> str:
    """The group turn message's My card button: a popup only the presser sees."""
    table = deps(context).host.load(p.chat)
    if table is None or table.game != p.game or table.status not in (PLAYING, OVER_STATUS):
        raise Refused("stale_button")
    seat = table.seat_of(user)
    if seat is None:
        raise Refused("not_a_player")
    return render.my_card(table, seat, True)


# -- the group's chatter, timers, migration --------------------------------------------------


async def chatter(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Delete a seated player's message outside their speaking moment, when asked to."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None or not is_group(update):
        return
    table = deps(context).host.load(update.effective_chat.id)
    if table is None or table.status != PLAYING or not table.data.get("silence"):
        return
    if table.seat_of(user.id) is None or table.speaker() == user.id:
        return
    out = {"op": "delete", "chat": table.chat, "msg": message.message_id}
    await deliver(context.bot, [out], {})


async def wake(update: Wake, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A timer fired: apply whatever deadline has passed."""
    d = deps(context)

    def due(table: Table | None):
        if table is None or table.next_wake() is None:
            return None, []
        if d.clock() < table.next_wake():
            # Early: a resumed timer, or a hop towards a far deadline, is set again; a timer for
            # a deadline since replaced is dropped (the new deadline has a timer of its own).
            if update.due is None or update.due == table.next_wake():
                d.host.wake(update.chat, table.next_wake())
            return None, []
        return table, render.show(table, table.catch_up(d.clock()))

    await run(context, update.chat, None, due)


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
        return Table(data), []

    d.host.change(new, None, move)
    d.host.point(old, new)


async def migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The service message of a group upgrade."""
    message = update.effective_message
    if message.migrate_to_chat_id:
        await migrate(context, message.chat.id, message.migrate_to_chat_id)


async def failed(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log a handler's failure by its kind only (never texts, cards or tokens), and note it for
    the webhook entry, which then asks Telegram to deliver the update again."""
    context.application.bot_data.setdefault("failed", []).append(context.error)
    if isinstance(context.error, RetryLater):
        log.info("update %s is still being sent by another run", context.error)
        return
    log.error("update failed: %s", type(context.error).__name__, exc_info=context.error)


# -- building the application ----------------------------------------------------------------


def build(
    token: str,
    store: GameStore,
    *,
    base_url: str | None = None,
    polling: bool = True,
    wake_at: Callable[[int, float], None] | None = None,
    clock: Callable[[], float] = time.time,
    seed: Callable[[], int | None] | None = None,
    username: str | None = None,
) -> Application:
    """The Application with every handler registered (built once per process).

    With the bot's `username` known, the Application starts without asking Telegram (getMe).
    The token is kept out of every log record from here on (it is part of every API URL).
    """
    redact.hide(token)
    api = f"{base_url.rstrip('/')}/bot" if base_url else None
    clients = {} if polling else shared_tls_clients()
    if username:
        builder = ApplicationBuilder().bot(KnownBot(token, username, base_url=api, **clients))
    else:
        builder = ApplicationBuilder().token(token)
        if api:
            builder = builder.base_url(api)
        if clients:
            builder = builder.request(clients["request"])
            builder = builder.get_updates_request(clients["get_updates_request"])
    if not polling:
        builder = builder.updater(None)
    application = builder.build()
    application.bot_data["deps"] = Deps(Host(store, wake_at, clock), clock, seed or (lambda: None))
    application.add_handler(TypeHandler(Update, guard), group=-2)
    application.add_handler(TypeHandler(Update, skip_repeat), group=-1)
    only_new = filters.UpdateType.MESSAGE
    for name, callback in (
        ("newgame", newgame),
        ("start", start),
        ("mycard", mycard),
        ("status", status),
        ("cancel", cancel),
        ("rules", rules),
        ("help", help_),
        ("language", language),
    ):
        application.add_handler(CommandHandler(name, callback, filters=only_new))
    application.add_handler(CallbackQueryHandler(press))
    application.add_handler(ChatMemberHandler(membership, ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    application.add_handler(MessageHandler(only_new & filters.COMMAND, unknown))
    application.add_handler(MessageHandler(only_new & filters.ChatType.GROUPS, chatter))
    application.add_handler(TypeHandler(Wake, wake))
    application.add_error_handler(failed)
    return application


def shared_tls_clients() -> dict[str, HTTPXRequest]:
    """The bot's two HTTP clients (API calls, getUpdates) with one TLS context between them:
    each would otherwise load the CA bundle itself, tens of milliseconds of a cold start."""
    tls = tls_context()
    return {
        name: HTTPXRequest(httpx_kwargs={"verify": tls})
        for name in ("request", "get_updates_request")
    }


class KnownBot(ExtBot):
    """A bot told its own account up front (its id is the token's first part), so that
    `initialize()` makes no getMe call, a round trip to Telegram on every cold start."""

    __slots__ = ("_known",)

    def __init__(self, token: str, username: str, **kwargs) -> None:
        super().__init__(token, **kwargs)
        self._known = User(int(token.split(":", 1)[0]), username, True, username=username)
        self._known.set_bot(self)

    async def get_me(self, *args, **kwargs) -> User:
        """The account given, without a call (any arguments: ask Telegram)."""
        if args or kwargs:
            return await super().get_me(*args, **kwargs)
        self._bot_user = self._known
        return self._known


async def register_commands(application: Application) -> None:
    """Tell Telegram the bot's command list in both languages."""
    bot = application.bot
    for lang, commands in COMMANDS.items():
        listed = [BotCommand(name, text) for name, text in commands]
        code = None if lang == EN else "zh"
        await bot.set_my_commands(listed, language_code=code)
        await bot.set_my_commands(listed, scope=BotCommandScopeAllGroupChats(), language_code=code)
