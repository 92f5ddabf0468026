"""The slash commands: /newgame, /start (joining), /mycard, /status, /cancel, /rules, /help,
/language, /extend, /stats (/history and /nextgame: see `records`)."""

from __future__ import annotations

import logging
from contextlib import suppress

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from handlers.display import presses, render
from handlers.display.ids import Ids, reached_ref
from handlers.display.messages import Send
from handlers.display.render.stats import group_stats, own_stats
from handlers.display.render.table_links import private_keyboard
from handlers.display.texts import EN, ZH, language_for, t
from handlers.session.table import (
    BOT_CAN_DELETE,
    CANCELLED,
    OVER_STATUS,
    PLAYING,
    Refused,
    Table,
    next_game,
)
from handlers.session.table import LOBBY as LOBBY_STATUS
from handlers.storage import history
from handlers.storage.keys import (
    group_stats_key,
    player_stats_key,
    prefs_key,
    user_key,
    waiting_key,
)
from handlers.storage.side_items import all_pointed, pointed_chats
from handlers.telegram import hub
from handlers.telegram.absence import coming_back
from handlers.telegram.chats import (
    anonymous_admin,
    display_name,
    group_lang,
    is_admin,
    is_group,
    may_manage_here,
    membership,
    own_lang,
    reply,
)
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.outbox import deliver
from handlers.telegram.past_games import after_the_calls, next_lobby_calls, start_payload
from handlers.telegram.refusals import refuse

log = logging.getLogger(__name__)


async def refuse_outside_group(update: Update) -> bool:
    """Answer a group-only command sent elsewhere; True when it was refused."""
    if is_group(update):
        return False
    await reply(update, t(language_for(update.effective_user.language_code), "group_only"))
    return True


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
    runtime.host.point_user(user.id, chat.id, loaded)


async def start(update: Update, context: BotContext) -> None:
    """/start in the private chat: join through a deep link, or say hello."""
    user = update.effective_user
    if is_group(update):
        return
    lang = language_for(user.language_code)
    payload = context.args[0] if context.args else ""
    if await start_payload(update, context, payload):
        return
    target = presses.parse_join(payload)
    if target is None:
        if not await own_game(update, context):
            await reply(update, t(lang, "welcome") + "\n\n" + t(lang, "help"))
        await reconnect(update, context)
        return
    chat, game = target
    loaded = await hub.read(context, chat, update.update_id, [user_key(user.id)])
    if not await may_join(update, context, loaded.table, game):
        return

    def join(table: Table | None, ids: Ids) -> Decided:
        if table is None or table.game != game:
            raise Refused("lobby_gone")
        news = table.join(user.id, display_name(user), own_lang(user), user.username)
        # The welcome is owed with the lobby's redraw, and goes out alongside it.
        title = render.group_title(table)
        text = t(table.lang_of(user.id), "joined", group=title)
        welcome = Send(user.id, text, remember=reached_ref(user.id), private=True)
        return shown(context, table, ids, news, welcome)

    try:
        await hub.handle(context, loaded, join, update.update_id)
    except Refused as err:
        table = loaded.table
        lang = table.lang_of(user.id, own_lang(user)) if table else lang  # a private answer
        if not (err.key == "lobby_gone" and await own_game(update, context)):
            await reply(update, t(lang, err.key, **err.kw))
        await reconnect(update, context)  # the host, say, who opened the chat by this link
        return
    context.runtime.host.point_user(user.id, chat, loaded)


async def may_join(update: Update, context: BotContext, table: Table | None, game: int) -> bool:
    """Whether the joiner may take a seat in the group's open lobby: only its members may (a
    forwarded lobby or a guessed link seats nobody else). Otherwise they are told privately
    why, in their language: not a member, or Telegram could not say (then they try again)."""
    user = update.effective_user
    if table is None or table.game != game or table.status != LOBBY_STATUS:
        return True  # the change refuses a game no longer open
    if table.is_player(user.id):
        return True
    member = await membership(context, table.chat, user.id)
    if member is True:
        return True
    lang = table.lang_of(user.id, own_lang(user))
    await reply(update, t(lang, "join_members_only" if member is False else "member_check_failed"))
    return False


async def reconnect(update: Update, context: BotContext) -> None:
    """After /start: a player the bot could not reach is back; each group they are in hears
    it (its lobby then names them no more)."""
    user = update.effective_user.id
    for chat in pointed_chats(context.runtime.host.get(user_key(user))):
        with suppress(ApplicationHandlerStop):  # a redelivery: told the first time
            loaded = await hub.read(context, chat, update.update_id)
            table = loaded.table
            if table is None or user not in table.unreachable():
                continue
            await hub.handle(context, loaded, back_in_touch(context, user), update.update_id)


def back_in_touch(context: BotContext, user: int) -> hub.Step:
    """A step that notes `user` reachable again, and tells the group."""

    def back(table: Table | None, ids: Ids) -> Decided:
        news = table.back_in_touch(user) if table is not None else None
        if news is None:
            return Decided(None)
        return shown(context, table, ids, news)

    return back


async def playing_table(context: BotContext, user: int, statuses: tuple[str, ...]) -> Table | None:
    """The table of the user's latest group where they hold a seat in a game with one of
    `statuses` (a game in play before a finished one), or None."""
    found: Table | None = None
    for chat in pointed_chats(context.runtime.host.get(user_key(user))):
        table = (await hub.read(context, chat)).table
        if table is None or table.status not in statuses or table.seat_of(user) is None:
            continue
        if table.status == PLAYING:
            return table
        found = found or table
    return found


async def own_game(update: Update, context: BotContext) -> bool:
    """After /start: a player seated in a game in play is answered with it (their seat, card
    and what they know, the turn's state) and, while a decision of theirs is awaited, its
    prompt again; False for someone in no game."""
    user = update.effective_user.id
    table = await playing_table(context, user, (PLAYING,))
    if table is None:
        return await own_lobby(context, user)
    seat = table.seat_of(user)
    outs = [render.send_private(user, render.rejoined(table, seat, context.runtime.clock()))]
    if not table.is_removed(seat):  # nothing is asked of a removed player
        if table.state.turn == seat and table.hold is None:  # a held moment: later
            outs += [o for o in render.prompt(table) if o.chat == user]
        outs += render.secret_prompt(table, seat)  # a Turncoat's or Spy's, while it runs
    delivery = await deliver(context.bot, outs)
    if delivery.ids:  # the prompt, to be closed when its wait ends
        context.runtime.host.acknowledge(table.chat, table.game, None, delivery.ids)
    return True


async def own_lobby(context: BotContext, user: int) -> bool:
    """A player in an open lobby is told which game their card will come from; False for
    someone in none."""
    for chat in pointed_chats(context.runtime.host.get(user_key(user))):
        table = (await hub.read(context, chat)).table
        if table is not None and table.status == LOBBY_STATUS and table.is_player(user):
            if user not in table.unreachable():  # else being back in touch tells them
                text = t(table.lang_of(user), "joined", group=render.group_title(table))
                await deliver(context.bot, [render.send_private(user, text)])
            return True
    return False


async def mycard(update: Update, context: BotContext) -> None:
    """/mycard: your card and what you know, privately."""
    user = update.effective_user
    lang = language_for(user.language_code)
    if is_group(update):
        loaded = await hub.read(context, update.effective_chat.id)
        await refuse(context, update, loaded, t(group_lang(context, loaded, user), "private_only"))
        return
    table = await playing_table(context, user.id, (PLAYING, OVER_STATUS))
    seat = table.seat_of(user.id) if table else None
    if seat is None:
        await reply(update, t(lang, "mycard_none"))
        return
    keyboard = private_keyboard(table.speaking_to(user.id), user.id)
    out = render.send_private(user.id, render.my_card(table, seat, False), keyboard)
    await deliver(context.bot, [out])
    if table.status == PLAYING and table.is_away(seat):  # counted back in from the next turn
        loaded = await hub.read(context, table.chat, update.update_id)
        back = coming_back(context, user.id, table.game)
        await hub.handle(context, loaded, back, update.update_id)


async def forget(update: Update, context: BotContext) -> None:
    """/forget: erase what the bot keeps about you, in every group that holds you: your place
    in any lobby (not in a game in play, whose cards need their players until the end), your
    name and id in its kept games, on its leaderboard and on its list for the next game, your
    statistics and the groups you played in."""
    user = update.effective_user
    lang = language_for(user.language_code)
    if is_group(update):
        loaded = await hub.read(context, update.effective_chat.id)
        await refuse(context, update, loaded, t(group_lang(context, loaded, user), "private_only"))
        return
    host = context.runtime.host
    chats = all_pointed(host.get(user_key(user.id)))
    loaded = hub.read_all(context, chats)
    if any(in_play(each.table, user.id) for each in loaded):
        await reply(update, t(lang, "forget_playing"))
        return
    for each in loaded:
        try:
            await hub.handle(context, each, leave_lobby(context, user.id), update.update_id)
        except Refused:  # dealt since: they play it to its end
            await reply(update, t(lang, "forget_playing"))
            return
        except ApplicationHandlerStop:  # a redelivery: left the first time
            continue
    host.forget_user(user.id, chats)
    await reply(update, t(lang, "forgotten"))


def in_play(table: Table | None, user: int) -> bool:
    """Whether `user` holds a seat in the table's game in play."""
    return table is not None and table.status == PLAYING and table.seat_of(user) is not None


def leave_lobby(context: BotContext, user: int) -> hub.Step:
    """A step that takes `user` out of the lobby, if they are still in it; `Refused` when the
    game has been dealt with them in it."""

    def leave(table: Table | None, ids: Ids) -> Decided:
        if in_play(table, user):
            raise Refused("forget_playing")
        if table is None or table.status != LOBBY_STATUS or not table.is_player(user):
            return Decided(None)
        return shown(context, table, ids, table.leave(user))

    return leave


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
    """/cancel: the host or an admin ends the lobby or game."""
    user, chat = update.effective_user, update.effective_chat
    if await refuse_outside_group(update):
        return
    loaded = await hub.read(context, chat.id, update.update_id)
    table = loaded.table
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
    if not runtime.host.put_once(
        prefs_key(chat.id), update.update_id, lambda p: {**p, "lang": new}
    ):
        return  # a redelivery of a switch made without a table
    await reply(update, t(new, "language_set"))


async def stats(update: Update, context: BotContext) -> None:
    """/stats: in a group, its finished games and leaderboard (for anyone there); in a private
    chat, the player's own figures across groups. A game in play counts once it ends."""
    user, chat, host = update.effective_user, update.effective_chat, context.runtime.host
    if is_group(update):
        loaded = await hub.read(context, chat.id, also=[group_stats_key(chat.id)])
        figures = host.get(group_stats_key(chat.id))
        lang = group_lang(context, loaded, user)
        await reply(update, group_stats(lang, chat.title or "", figures))
    else:
        figures = host.get(player_stats_key(user.id))
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
