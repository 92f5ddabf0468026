"""The bot's Telegram side: one small callback per kind of update, all through the host."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import BotCommand, BotCommandScopeAllGroupChats, Update
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from engine import Action
from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP
from handlers import callbacks, render
from handlers.callbacks import BOARD, GAME, LOBBY
from handlers.host import Host, prefs_key, user_key
from handlers.outbox import deliver
from handlers.table import CANCELLED, OVER_STATUS, PLAYING, Refused, Table
from handlers.table import LOBBY as LOBBY_STATUS
from handlers.texts import EN, ZH, language_for, t
from infra.store import GameStore

log = logging.getLogger(__name__)

COMMANDS = {
    EN: [
        ("newgame", "Open a game of Decapitation in this group"),
        ("status", "Show the state of play"),
        ("cancel", "End the game (host or admin)"),
        ("mycard", "Your card and what you learned (private chat)"),
        ("rules", "The rules"),
        ("help", "How to play with this bot"),
        ("language", "English / 中文"),
    ],
    ZH: [
        ("newgame", "在本群开一局斩首行动"),
        ("status", "查看局势"),
        ("cancel", "结束游戏（发起人或管理员）"),
        ("mycard", "你的身份和情报（私聊）"),
        ("rules", "游戏规则"),
        ("help", "使用说明"),
        ("language", "English / 中文"),
    ],
}


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


async def run(context, chat: int, update_id: int | None, changer) -> Table | None:
    """Change a group's table through the host and send what the change owes."""
    d = deps(context)
    change = d.host.change(chat, update_id, changer)
    if change.outs:
        await send(context, change.table, change.outs, update_id)
    if change.repeated:
        raise ApplicationHandlerStop  # a redelivery: its answers went out the first time
    return change.table


async def send(
    context, table: Table | None, outs: list[dict], update_id: int | None = None
) -> None:
    """Deliver messages, remember new message ids, tell the group about unreachable players."""
    d = deps(context)
    delivery = await deliver(context.bot, outs, {})
    if table is not None and (delivery.ids or update_id is not None):
        d.host.remember(table.chat, table.game, delivery.ids, delivery.board_tag, update_id)
    if table is not None and delivery.unreachable and table.status == PLAYING:
        await tell_unreachable(context, table, delivery.unreachable)
    if table is not None and delivery.migrated_to:
        await migrate(context, table.chat, delivery.migrated_to)


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


async def skip_repeat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram delivered an update again that already changed its table: send only what that
    change still owes (a run that died before sending), and handle it no further."""
    chat = table_chat(update)
    if chat is None:
        return
    d = deps(context)
    table = d.host.load(chat)
    if table is None or update.update_id not in table.data.get("applied", []):
        return
    outs = d.host.owed(table, update.update_id)
    if outs:
        await send(context, table, outs, update.update_id)
    raise ApplicationHandlerStop


# -- commands --------------------------------------------------------------------------------


async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame: open a lobby in the group."""
    user, chat = update.effective_user, update.effective_chat
    if not is_group(update):
        await reply(update, t(language_for(user.language_code), "group_only"))
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
        return Table.open_lobby(
            chat.id,
            game,
            user.id,
            display_name(user),
            lang,
            prefs.get("settings") or {},
            d.clock(),
            chat.title or "",
        )

    try:
        await run(context, chat.id, update.update_id, open_lobby)
    except Refused as err:
        await reply(update, t(lang_of(context, chat.id, user), err.key, **err.kw))


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
        return table, table.join(user.id, display_name(user))

    try:
        table = await run(context, chat, update.update_id, join)
    except Refused as err:
        table = deps(context).host.load(chat)
        await reply(update, t(table.lang if table else lang, err.key, **err.kw))
        return
    deps(context).host.put(user_key(user.id), {"chat": chat})
    title = render.esc(table.data.get("title") or "") if table else ""
    await reply(update, t(table.lang if table else lang, "joined", group=title))


async def resend_private(update: Update, context) -> None:
    """After /start: a seated player who could not be reached gets their card and prompt."""
    d = deps(context)
    pointer = d.host.get(user_key(update.effective_user.id))
    if not pointer:
        return
    table = d.host.load(pointer["chat"])
    if table is None or table.status != PLAYING:
        return
    seat = table.seat_of(update.effective_user.id)
    if seat is None:
        return
    outs = [render.send_private(update.effective_user.id, render.my_card(table, seat, False))]
    if table.state.turn == seat or table.state.phase in ("turncoat", "spy"):
        outs += [o for o in render.prompt(table) if o["chat"] == update.effective_user.id]
    await deliver(context.bot, outs, {})


async def mycard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/mycard: your card and what you know, privately."""
    user = update.effective_user
    lang = language_for(user.language_code)
    if is_group(update):
        await reply(update, t(lang_of(context, update.effective_chat.id, user), "private_only"))
        return
    d = deps(context)
    pointer = d.host.get(user_key(user.id))
    table = d.host.load(pointer["chat"]) if pointer else None
    seat = table.seat_of(user.id) if table and table.status in (PLAYING, OVER_STATUS) else None
    if seat is None:
        await reply(update, t(lang, "mycard_none"))
        return
    out = render.send_private(user.id, render.my_card(table, seat, False))
    await deliver(context.bot, [out], {})


async def status(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/status: the state of play in this group."""
    chat = update.effective_chat
    if not is_group(update):
        await reply(update, t(language_for(update.effective_user.language_code), "group_only"))
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
    if not is_group(update):
        await reply(update, t(language_for(user.language_code), "group_only"))
        return
    d = deps(context)
    table = d.host.load(chat.id)
    if table is None or table.status not in (LOBBY_STATUS, PLAYING):
        await reply(update, t(lang_of(context, chat.id, user), "cancel_none"))
        return
    if table.data["creator"] != user.id and not await is_admin(context, chat.id, user.id):
        await reply(update, t(table.lang, "only_host"))
        return

    def end(current: Table | None):
        if current is None:
            raise Refused("cancel_none")
        return current, current.cancel(render.esc(display_name(user)))

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
    if not is_group(update):
        await reply(update, t(language_for(user.language_code), "group_only"))
        return
    d = deps(context)
    new = ZH if lang_of(context, chat.id, user) == EN else EN
    prefs = d.host.get(prefs_key(chat.id)) or {}
    d.host.put(prefs_key(chat.id), {**prefs, "lang": new})

    def switch(table: Table | None):
        if table is None or table.status not in (LOBBY_STATUS, PLAYING):
            return None, []
        table.data["lang"] = new
        outs = [render.edit_lobby(table)] if table.status == LOBBY_STATUS else []
        return table, outs

    await run(context, chat.id, update.update_id, switch)
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
        lang = table.lang if table else language_for(user.language_code)
        answer = t(lang, err.key, **err.kw)
    try:
        await query.answer(answer[:200] or None)
    except TelegramError as err:
        log.info("callback answer failed: %s", type(err).__name__)


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
        can_delete = await bot_can_delete(context, p.chat)
        seed = d.seed()
        changer = _on_same_game(p, lambda t_: t_.start(d.clock(), seed, can_delete))
    else:
        raise Refused("bad_button")
    saved = await run(context, p.chat, update.update_id, changer)
    if saved is not None and p.arg == "start" and saved.status == PLAYING:
        # Every player, the host too, finds this game from the private chat (/mycard, /start).
        for uid, _ in saved.players:
            d.host.put(user_key(uid), {"chat": p.chat})
    if saved is not None and p.arg.startswith("t:"):
        prefs = d.host.get(prefs_key(p.chat)) or {}
        d.host.put(prefs_key(p.chat), {**prefs, "settings": saved.settings, "lang": saved.lang})
    return ""


def _on_same_game(p: callbacks.Press, fn):
    """A changer that refuses when the group's table is not the game the button belongs to."""

    def changer(table: Table | None):
        if table is None or table.game != p.game:
            raise Refused("stale_button")
        return table, fn(table)

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
        new, _ = Table.open_lobby(
            table.chat,
            table.game + 1,
            user.id,
            display_name(user),
            table.lang,
            table.settings,
            d.clock(),
            table.data.get("title") or "",
        )
        others = [p for p in table.players if p[0] != user.id]
        new.data["players"] += [list(p) for p in others][: 12 - 1]
        return new, [render.send_group(new, *render.lobby(new), remember="lobby_msg")]

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
    state = table.state
    if p.version != state.version:
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
        await deliver(context.bot, [edit], {})
        return ""
    action = decision(seat, arg)
    if action is None:
        raise Refused("bad_button")

    def decide(current: Table | None):
        if current is None or current.game != p.game:
            raise Refused("stale_button")
        if current.status == PLAYING and current.state.version != p.version:
            raise Refused("too_late")
        return current, current.act(user.id, action, d.clock())

    await run(context, p.chat, update.update_id, decide)
    label = chosen_label(table, arg, query)
    done = {
        "op": "edit",
        "chat": user.id,
        "msg": query.message.message_id,
        "text": t(table.lang, "chosen", what=label),
        "kb": None,
        "private": True,
    }
    await deliver(context.bot, [done], {})
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
        if render.may_decapitate(state, seat) is not None or state.phase != "turn":
            raise Refused("not_your_turn")
        back = [render.game_button(table, "btn_back", "B")]
        return t(table.lang, "pick_target"), [*render.seat_keyboard(table, "d", seat), back]
    if arg == "B":
        return render.turn_prompt(table, seat)
    if arg.startswith("d"):
        try:
            target = render.parse_decapitation(arg)[0]
        except ValueError:
            raise Refused("bad_button") from None
        if not 1 <= target <= state.seats or target == seat:
            raise Refused("bad_button")
        return render.decapitation_menu(table, seat, arg)
    if arg.startswith("r") and arg[1:].isdigit():
        if state.phase != "spy" or state.holder("SPY") != seat:
            raise Refused("not_your_turn")
        return t(table.lang, "prompt_spy_blue"), render.seat_keyboard(table, f"y{arg[1:]}.", None)
    return None


def decision(seat: int, arg: str) -> Action | None:
    """The engine action a final button stands for, or None when malformed."""
    try:
        if arg.startswith("s") and arg[1:].isdigit():
            return Action(SCOUT, seat, target=int(arg[1:]))
        if arg.startswith("x"):
            target, proxy, guard = render.parse_decapitation(arg)
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
        if table is None or table.deadline() is None:
            return None, []
        if d.clock() < table.deadline():
            # Early: a resumed timer, or a hop towards a far deadline, is set again; a timer for
            # a deadline since replaced is dropped (the new deadline has a timer of its own).
            if update.due is None or update.due == table.deadline():
                d.host.wake(update.chat, table.deadline())
            return None, []
        return table, table.catch_up(d.clock())

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
    """Log a handler's failure by its kind only (never texts, cards or tokens)."""
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
) -> Application:
    """The Application with every handler registered (built once per process)."""
    builder = ApplicationBuilder().token(token)
    if base_url:
        builder = builder.base_url(f"{base_url.rstrip('/')}/bot")
    if not polling:
        builder = builder.updater(None)
    application = builder.build()
    application.bot_data["deps"] = Deps(Host(store, wake_at, clock), clock, seed or (lambda: None))
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
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    application.add_handler(MessageHandler(only_new & filters.COMMAND, unknown))
    application.add_handler(MessageHandler(only_new & filters.ChatType.GROUPS, chatter))
    application.add_handler(TypeHandler(Wake, wake))
    application.add_error_handler(failed)
    return application


async def register_commands(application: Application) -> None:
    """Tell Telegram the bot's command list in both languages."""
    bot = application.bot
    for lang, commands in COMMANDS.items():
        listed = [BotCommand(name, text) for name, text in commands]
        code = None if lang == EN else "zh"
        await bot.set_my_commands(listed, language_code=code)
        await bot.set_my_commands(listed, scope=BotCommandScopeAllGroupChats(), language_code=code)
