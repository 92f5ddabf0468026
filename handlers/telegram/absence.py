"""Absent players on the Telegram side: /remove and its keyboard, and I'm back."""

from __future__ import annotations

from telegram import Update

from handlers.display import render
from handlers.display.ids import REMOVE, Ids
from handlers.display.messages import DropButtons, Edit
from handlers.display.presses import Button, RemoveNobody, RemovePlayer, RemoveSeat
from handlers.display.render.absence import remove_keyboard
from handlers.display.texts import language_for, t
from handlers.session.base import same_game
from handlers.session.table import LOBBY, PLAYING, Refused, Table
from handlers.telegram import hub
from handlers.telegram.answers import PressAnswer
from handlers.telegram.chats import display_name, group_lang, is_group, may_manage_here, reply
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.refusals import refuse

OPEN = (LOBBY, PLAYING)


async def remove(update: Update, context: BotContext) -> None:
    """/remove: the host or an admin is shown whom they may remove from the lobby or game."""
    user, chat = update.effective_user, update.effective_chat
    if not is_group(update):
        await reply(update, t(language_for(user.language_code), "group_only"))
        return
    loaded = await hub.read(context, chat.id, update.update_id)
    table = loaded.table
    if table is None or table.status not in OPEN:
        await refuse(context, update, loaded, t(group_lang(context, loaded, user), "remove_none"))
        return
    if not await may_manage_here(context, update, table):
        await refuse(context, update, loaded, t(table.lang, "only_host"))
        return

    def keyboard(current: Table | None, ids: Ids) -> Decided:
        if current is None or current.game != table.game or current.status not in OPEN:
            raise Refused("remove_none")
        current.offer_removal()
        outs = []
        old = ids.taking_remove()
        if old:  # only the newest keyboard stays live
            outs.append(DropButtons(current.chat, old))
        outs.append(render.send_group(current, *remove_keyboard(current), remember=REMOVE))
        return Decided(current, outs)

    try:
        await hub.handle(context, loaded, keyboard, update.update_id)
    except Refused as err:
        await refuse(context, update, loaded, t(table.lang, err.key, **err.kw))


async def press_remove(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """A button of the /remove keyboard: the host or an admin removes a player, or nobody."""
    query = update.callback_query
    user = query.from_user
    message = query.message
    if message is None or message.chat.id != button.chat:
        raise Refused("bad_button")
    loaded = await hub.read(context, button.chat, update.update_id)
    table = answer.table = loaded.table
    table = _same_game(table, button)
    if not await may_manage_here(context, update, table):
        raise Refused("only_host")
    press = button.press
    if isinstance(press, RemoveNobody):
        step = _nobody(button, message.message_id)
    else:
        now = context.runtime.clock()
        step = _removal(context, button, message.message_id, (user.id, display_name(user)), now)
    answer.ready = ""
    await hub.handle(context, loaded, step, update.update_id, answer)
    return ""


def _same_game(current: Table | None, button: Button) -> Table:
    current = same_game(current, button.game)
    if current.status not in OPEN:
        raise Refused("too_late")
    return current


def _nobody(button: Button, msg: int) -> hub.Step:
    """A step that closes the pressed keyboard, removing nobody."""

    def close(current: Table | None, ids: Ids) -> Decided:
        current = _same_game(current, button)
        if ids.remove == msg:
            ids.taking_remove()
            current.close_removal()
        text = t(current.lang, "remove_closed")
        return Decided(current, [Edit(button.chat, text, None, msg=msg)])

    return close


def _removal(
    context: BotContext, button: Button, msg: int, presser: tuple[int, str], now: float
) -> hub.Step:
    """A step that removes the seat or the lobby's player pressed by `presser` (id, name)."""
    press = button.press

    def removal(current: Table | None, ids: Ids) -> Decided:
        current = _same_game(current, button)
        by = current.known_as(*presser)
        if isinstance(press, RemoveSeat) != (current.status == PLAYING):
            raise Refused("stale_button")  # a lobby's keyboard once the game began
        if isinstance(press, RemoveSeat):
            themselves = current.user_at(press.seat) == presser[0]
            news = current.remove(press.seat, by, now, themselves)
        elif isinstance(press, RemovePlayer):
            news = current.remove_from_lobby(press.user, by, press.user == presser[0])
        newest = ids.remove
        ids.remove = msg  # the pressed keyboard tells what was done
        decided = shown(context, current, ids, news)
        if newest not in (None, msg):
            ids.remove = newest
        return decided

    return removal


async def press_back(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """I'm back, in an away player's private chat: their next turn waits for them again."""
    query = update.callback_query
    user = query.from_user
    loaded = await hub.read(context, button.chat, update.update_id)
    table = answer.table = same_game(loaded.table, button.game)
    if table.status != PLAYING:
        raise Refused("too_late")
    if query.message is None or query.message.chat.id != user.id:
        raise Refused("bad_button")
    answer.ready = ""  # no toast: the message itself says they are back
    await hub.handle(
        context, loaded, coming_back(context, user.id, button.game), update.update_id, answer
    )
    return ""


def coming_back(context: BotContext, user: int, game: int) -> hub.Step:
    """A step that counts an away player back in from their next turn."""

    def back(current: Table | None, ids: Ids) -> Decided:
        current = same_game(current, game)
        return shown(context, current, ids, current.come_back(user))

    return back
