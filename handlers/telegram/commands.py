"""The commands of a group or any chat: /status, /cancel, /rules, /help, /language, /stats;
the lobby's are `lobby_commands`, the private chat's `private_commands`, /history and /nextgame
`past_games`."""

from __future__ import annotations

import logging

from telegram import Update

from handlers.display import render
from handlers.display.ids import Ids
from handlers.display.render.stats import group_stats, own_stats
from handlers.display.texts import EN, ZH, language_for, t
from handlers.session.table import CANCELLED, OVER_STATUS, PLAYING, Refused, Table
from handlers.session.table import LOBBY as LOBBY_STATUS
from handlers.storage.keys import group_stats_key, player_stats_key, prefs_key
from handlers.telegram import hub
from handlers.telegram.chats import (
    display_name,
    group_lang,
    is_group,
    may_manage_here,
    own_lang,
    reply,
)
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.refusals import refuse

log = logging.getLogger(__name__)


async def refuse_outside_group(update: Update) -> bool:
    """Answer a group-only command sent elsewhere; True when it was refused."""
    if is_group(update):
        return False
    await reply(update, t(language_for(update.effective_user.language_code), "group_only"))
    return True


async def chat_lang(context: BotContext, update: Update) -> str:
    """The language to answer a command in: a group's (its table's, or saved), or the
    sender's in a private chat."""
    chat = update.effective_chat.id
    loaded = await hub.read(context, chat) if chat < 0 else None
    return group_lang(context, loaded, update.effective_user)


async def status(update: Update, context: BotContext) -> None:
    """/status: the state of play in this group."""
    chat = update.effective_chat
    if await refuse_outside_group(update):
        return
    loaded = await hub.read(context, chat.id)
    table = loaded.table
    if table is None or table.status in (OVER_STATUS, CANCELLED):
        await reply(update, t(group_lang(context, loaded, update.effective_user), "status_none"))
    else:
        await reply(update, render.status(table, context.runtime.clock()))


async def cancel(update: Update, context: BotContext) -> None:
    """/cancel: the host or an admin ends the lobby or game (in the private chat, its player
    their practice game)."""
    user, chat = update.effective_user, update.effective_chat
    loaded = await hub.read(context, chat.id, update.update_id)
    table = loaded.table
    live = table is not None and table.status in (LOBBY_STATUS, PLAYING)
    if not is_group(update) and not live:  # a private chat holds only a practice game
        await refuse_outside_group(update)
        return
    if table is None or table.status not in (LOBBY_STATUS, PLAYING):
        await refuse(context, update, loaded, t(group_lang(context, loaded, user), "cancel_none"))
        return
    if not await may_manage_here(context, update, table):
        await refuse(context, update, loaded, t(table.lang, "only_host"))
        return

    def end(current: Table | None, ids: Ids) -> Decided:
        if current is None:
            raise Refused("cancel_none")
        return shown(
            context, current, ids, current.cancel(current.known_as(user.id, display_name(user)))
        )

    try:
        await hub.handle(context, loaded, end, update.update_id)
    except Refused as err:
        await refuse(context, update, loaded, t(table.lang, err.key, **err.kw))


async def rules(update: Update, context: BotContext) -> None:
    """/rules: the rules in the chat's language."""
    await reply(update, t(await chat_lang(context, update), "rules"))


async def help_(update: Update, context: BotContext) -> None:
    """/help: the commands."""
    await reply(update, t(await chat_lang(context, update), "help"))


async def language(update: Update, context: BotContext) -> None:
    """/language: the host (of the group's latest game) or an admin switches the group's
    language (saved with its settings)."""
    chat, user = update.effective_chat, update.effective_user
    if await refuse_outside_group(update):
        return
    runtime = context.runtime
    loaded = await hub.read(context, chat.id, update.update_id)
    lang = group_lang(context, loaded, user)
    if not await may_manage_here(context, update, loaded.table):
        await refuse(context, update, loaded, t(lang, "only_host"))
        return
    new = ZH if lang == EN else EN

    def switch(table: Table | None, ids: Ids) -> Decided:
        if table is None or table.status not in (LOBBY_STATUS, PLAYING):
            return Decided(None)
        news = table.switch_language(ZH if table.lang == EN else EN, runtime.clock())
        return shown(context, table, ids, news)  # the turn message, all in the new language

    table = (await hub.handle(context, loaded, switch, update.update_id)).table
    if table is not None and table.status in (LOBBY_STATUS, PLAYING):
        new = table.lang
    if not runtime.keeper.put_once(
        prefs_key(chat.id), update.update_id, lambda p: {**p, "lang": new}
    ):
        return  # a redelivery of a switch made without a table
    await reply(update, t(new, "language_set"))


async def stats(update: Update, context: BotContext) -> None:
    """/stats: in a group, its finished games and leaderboard (for anyone there); in a private
    chat, the player's own figures across groups. A game in play counts once it ends."""
    user, chat, keeper = update.effective_user, update.effective_chat, context.runtime.keeper
    if is_group(update):
        loaded = await hub.read(context, chat.id, also=[group_stats_key(chat.id)])
        figures = loaded.data_of(group_stats_key(chat.id))
        lang = group_lang(context, loaded, user)
        await reply(update, group_stats(lang, chat.title or "", figures))
    else:
        figures = keeper.get(player_stats_key(user.id))
        await reply(update, own_stats(await own_stats_lang(context, user, figures), figures))


async def own_stats_lang(context: BotContext, user, figures: dict | None) -> str:
    """The language of a player's own /stats: their app's, else (it sends none) that of the
    group they last finished a game in."""
    groups = (figures or {}).get("groups") or []
    if own_lang(user) or not groups:
        return language_for(user.language_code)
    return group_lang(context, await hub.read(context, groups[0]), user)


async def unknown(update: Update, context: BotContext) -> None:
    """An unknown command: point to /help in private chats; stay quiet in groups."""
    if not is_group(update):
        await reply(update, t(language_for(update.effective_user.language_code), "help"))
