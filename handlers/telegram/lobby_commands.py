"""The lobby's commands in a group: /newgame opens one, /extend gives it more time."""

from __future__ import annotations

from telegram import Update

from handlers.display import render
from handlers.display.ids import Ids
from handlers.display.texts import language_for, t
from handlers.session.table import BOT_CAN_DELETE, PLAYING, Refused, Table, next_game
from handlers.session.table import LOBBY as LOBBY_STATUS
from handlers.storage import history
from handlers.storage.keys import prefs_key, user_key, waiting_key
from handlers.telegram import hub
from handlers.telegram.chats import anonymous_admin, display_name, group_lang, is_admin, own_lang
from handlers.telegram.commands import refuse_outside_group
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.past_games import after_the_calls, next_lobby_calls
from handlers.telegram.refusals import refuse


async def newgame(update: Update, context: BotContext) -> None:
    """/newgame: open a lobby in the group."""
    user, chat = update.effective_user, update.effective_chat
    if await refuse_outside_group(update):
        return
    runtime = context.runtime
    also = [prefs_key(chat.id), user_key(user.id), waiting_key(chat.id)]
    loaded = await hub.read(context, chat.id, update.update_id, also)
    prefs = loaded.data_of(prefs_key(chat.id)) or {}
    lang = prefs.get("lang") or language_for(user.language_code)
    waiting = history.waiting_in(loaded.data_of(waiting_key(chat.id)))
    confirmed = history.confirmations_in(loaded.data_of(waiting_key(chat.id)))

    def open_lobby(table: Table | None, ids: Ids) -> Decided:
        if table is not None and table.status == LOBBY_STATUS:
            raise Refused("lobby_exists")
        if table is not None and table.status == PLAYING:
            raise Refused("game_running")
        now = runtime.clock()
        rights = table.bot_can_delete if table else None
        rights = prefs.get(BOT_CAN_DELETE) if rights is None else rights
        new, news = Table.open_lobby(
            chat.id,
            next_game(table, now),
            user.id,
            display_name(user),
            lang,
            prefs.get("settings") or {},
            now,
            chat.title or "",
            own_lang(user),
            rights,
            user.username,
        )
        # The last game's Play again goes: a new game is open (its Record and Next game stay).
        gone = render.drop_play_again(table, ids) if table is not None else []
        calls = next_lobby_calls(new, waiting, confirmed, runtime.username)
        return shown(context, new, ids, news, *gone, *calls)

    try:
        await hub.handle(context, loaded, open_lobby, update.update_id)
    except Refused as err:
        await refuse(
            context, update, loaded, t(group_lang(context, loaded, user), err.key, **err.kw)
        )
        return
    after_the_calls(context, chat.id, waiting, update.update_id)
    # The host finds this game from the private chat (/mycard, /start), as joiners do.
    runtime.keeper.point_user(user.id, chat.id, loaded)


async def extend(update: Update, context: BotContext) -> None:
    """/extend: a player in the lobby (or an admin) gives it a couple more minutes."""
    user, chat = update.effective_user, update.effective_chat
    if await refuse_outside_group(update):
        return
    loaded = await hub.read(context, chat.id, update.update_id)
    table = loaded.table
    lang = group_lang(context, loaded, user)
    if table is None or table.status != LOBBY_STATUS:
        playing = table is not None and table.status == PLAYING
        await refuse(
            context, update, loaded, t(lang, "extend_started" if playing else "extend_none")
        )
        return
    allowed = table.is_player(user.id) or anonymous_admin(update)
    if not allowed and not await is_admin(context, chat.id, user.id):
        await refuse(context, update, loaded, t(lang, "extend_who"))
        return
    now = context.runtime.clock

    def push_back(current: Table | None, ids: Ids) -> Decided:
        if current is None or current.game != table.game:
            raise Refused("extend_none")
        return shown(
            context,
            current,
            ids,
            current.extend(current.known_as(user.id, display_name(user)), now()),
        )

    try:
        await hub.handle(context, loaded, push_back, update.update_id)
    except Refused as err:
        await refuse(context, update, loaded, t(lang, err.key, **err.kw))
