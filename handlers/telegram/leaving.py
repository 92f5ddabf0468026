"""/leave: a seated player leaves a running game themselves, in the group or in the private chat,
after answering Leave or Stay; the seat plays on as after /remove."""

from __future__ import annotations

from telegram import Update

from handlers.display.ids import Ids
from handlers.display.presses import Button, LeaveGame
from handlers.display.texts import language_for, t
from handlers.session.base import same_game
from handlers.session.table import LOBBY, PLAYING, Refused, Table
from handlers.storage.keys import user_key
from handlers.storage.side_items import pointed_chats
from handlers.telegram import hub
from handlers.telegram.answers import PressAnswer
from handlers.telegram.chats import group_lang, is_group, own_lang, reply
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.private_commands import playing_table
from handlers.telegram.refusals import refuse


async def leave(update: Update, context: BotContext) -> None:
    """/leave: the player is asked, where they sent it and in their language, to confirm."""
    user = update.effective_user
    if is_group(update):
        where, loaded = "group", await hub.read(context, update.effective_chat.id)
    else:
        where, table = "private", await _own_table(context, user.id)
        if table is None:
            await reply(update, t(language_for(user.language_code), "mycard_none"))
            return
        loaded = await hub.read(context, table.chat)
    table = loaded.table

    def ask(current: Table | None, ids: Ids) -> Decided:
        if current is None:
            raise Refused("leave_none")
        return shown(context, current, ids, current.ask_leave(user.id, where))

    try:
        await hub.handle(context, loaded, ask, update.update_id)
    except Refused as err:
        if where == "group":
            text = t(group_lang(context, loaded, user), err.key, **err.kw)
        else:
            text = t(table.lang_of(user.id, own_lang(user)), err.key, **err.kw)
        await refuse(context, update, loaded, text)


async def _own_table(context: BotContext, user: int) -> Table | None:
    """The game in play the user holds a seat in, else an open lobby they joined, or None."""
    table = await playing_table(context, user, (PLAYING,))
    if table is not None:
        return table
    for chat in pointed_chats(context.runtime.keeper.get(user_key(user))):
        lobby = (await hub.read(context, chat)).table
        if lobby is not None and lobby.status == LOBBY and lobby.is_player(user):
            return lobby
    return None


async def press_leaving(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """Leave or Stay, on a /leave question: only its asker may answer it."""
    query = update.callback_query
    user = query.from_user
    message = query.message
    if message is None or message.chat.id not in (button.chat, user.id):
        raise Refused("bad_button")
    loaded = await hub.read(context, button.chat, update.update_id)
    answer.table = loaded.table
    if button.press.user != user.id:
        raise Refused("leave_not_yours")
    now = context.runtime.clock
    leaving = isinstance(button.press, LeaveGame)

    def answered(current: Table | None, ids: Ids) -> Decided:
        current = same_game(current, button.game)
        if ids.leaving.get(user.id) not in (None, message.message_id):
            raise Refused("too_late")  # an older question, replaced since
        news = current.leave_game(user.id, now()) if leaving else current.stay(user.id)
        return shown(context, current, ids, news)

    answer.ready = ""  # the question itself says what was done
    await hub.handle(context, loaded, answered, update.update_id, answer)
    return ""
