"""Absent players on the Telegram side: /remove and its keyboard, and I'm back."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from handlers.session.table import LOBBY, PLAYING, Refused, Table
from handlers.telegram import buttondata as callbacks
from handlers.telegram import render
from handlers.telegram.answers import PressAnswer
from handlers.telegram.buttondata import Press
from handlers.telegram.changes import (
    deps,
    display_name,
    is_admin,
    is_group,
    lang_of,
    reply,
    run,
    stop_if_repeat,
)
from handlers.telegram.guard import anonymous_admin
from handlers.telegram.render.absence import remove_keyboard
from handlers.telegram.texts import language_for, t

OPEN = (LOBBY, PLAYING)


async def remove(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/remove: the host or an admin is shown whom they may remove from the lobby or game."""
    user, chat = update.effective_user, update.effective_chat
    if not is_group(update):
        await reply(update, t(language_for(user.language_code), "group_only"))
        return
    table = deps(context).host.load(chat.id)
    if table is None or table.status not in OPEN:
        await stop_if_repeat(context, update, table)
        await reply(update, t(lang_of(context, chat.id, user), "remove_none"))
        return
    host = table.data["creator"] == user.id or anonymous_admin(update)
    if not host and not await is_admin(context, chat.id, user.id):
        await reply(update, t(table.lang, "only_host"))
        return

    def keyboard(current: Table | None):
        if current is None or current.game != table.game or current.status not in OPEN:
            raise Refused("remove_none")
        outs = []
        old = current.data.pop("remove_msg", None)
        if old:  # only the newest keyboard stays live
            outs.append({"op": "drop_buttons", "chat": current.chat, "msg": old, "side": True})
        outs.append(render.send_group(current, *remove_keyboard(current), remember="remove_msg"))
        return current, outs

    try:
        await run(context, chat.id, update.update_id, keyboard)
    except Refused as err:
        await reply(update, t(table.lang, err.key, **err.kw))


async def press_remove(update: Update, context, p: Press, press: PressAnswer) -> str:
    """A button of the /remove keyboard: the host or an admin removes a player, or nobody."""
    query = update.callback_query
    user = query.from_user
    message = query.message
    if message is None or message.chat.id != p.chat:
        raise Refused("bad_button")
    d = deps(context)
    table = d.host.load(p.chat)
    if table is None or table.game != p.game:
        raise Refused("stale_button")
    if table.status not in OPEN:
        raise Refused("too_late")
    if table.data["creator"] != user.id and not await is_admin(context, p.chat, user.id):
        raise Refused("only_host")
    if p.arg == callbacks.NOBODY:
        changer = _nobody(p, message.message_id)
    else:
        target = callbacks.parse_remove(p.arg)
        if target is None:
            raise Refused("bad_button")
        changer = _removal(p, message.message_id, target, display_name(user), d.clock())
    press.ready = ""
    await run(context, p.chat, update.update_id, changer, press)
    return ""


def _same_game(current: Table | None, p: Press) -> Table:
    if current is None or current.game != p.game:
        raise Refused("stale_button")
    if current.status not in OPEN:
        raise Refused("too_late")
    return current


def _nobody(p: Press, msg: int):
    """A changer that closes the pressed keyboard, removing nobody."""

    def close(current: Table | None):
        current = _same_game(current, p)
        if current.data.get("remove_msg") == msg:
            current.data["remove_msg"] = None
        text = t(current.lang, "remove_closed")
        return current, [{"op": "edit", "chat": p.chat, "msg": msg, "text": text, "kb": None}]

    return close


def _removal(p: Press, msg: int, target: tuple[str, int], by: str, now: float):
    """A changer that removes the seat ("s") or the lobby's player ("u") pressed."""
    kind, number = target

    def removal(current: Table | None):
        current = _same_game(current, p)
        if (kind == "s") != (current.status == PLAYING):
            raise Refused("stale_button")  # a lobby's keyboard once the game began
        newest = current.data.get("remove_msg")
        current.data["remove_msg"] = msg  # the pressed keyboard tells what was done
        if kind == "s":
            news = current.remove(number, by, now)
        else:
            news = current.remove_from_lobby(number, by)
        if newest not in (None, msg):
            current.data["remove_msg"] = newest
        return current, render.show(current, news)

    return removal


async def press_back(update: Update, context, p: Press, press: PressAnswer) -> str:
    """I'm back, in an away player's private chat: their next turn waits for them again."""
    query = update.callback_query
    user = query.from_user
    table = deps(context).host.load(p.chat)
    if table is None or table.game != p.game:
        raise Refused("stale_button")
    if table.status != PLAYING:
        raise Refused("too_late")
    if query.message is None or query.message.chat.id != user.id:
        raise Refused("bad_button")
    press.ready = ""  # no toast: the message itself says they are back
    await run(context, p.chat, update.update_id, coming_back(user.id, p.game), press)
    return ""


def coming_back(user: int, game: int):
    """A changer that counts an away player back in from their next turn."""

    def back(current: Table | None):
        if current is None or current.game != game:
            raise Refused("stale_button")
        return current, render.show(current, current.come_back(user))

    return back
