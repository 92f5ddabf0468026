"""The commands of the private chat: /start (joining through a link, or back in touch),
/mycard, /forget, /practice (a game against bot seats alone, in this chat)."""

from __future__ import annotations

from contextlib import suppress

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from handlers.display import presses, render
from handlers.display.ids import Ids, reached_ref
from handlers.display.messages import Send
from handlers.display.render.common import bot_link
from handlers.display.render.table_links import private_keyboard
from handlers.display.texts import language_for, t
from handlers.session.settings import practice_settings
from handlers.session.table import LOBBY as LOBBY_STATUS
from handlers.session.table import OVER_STATUS, PLAYING, Refused, Table, next_game
from handlers.storage.keys import prefs_key, user_key
from handlers.storage.side_items import all_pointed, pointed_chats
from handlers.telegram import hub
from handlers.telegram.absence import coming_back
from handlers.telegram.chats import display_name, group_lang, is_group, membership, own_lang, reply
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.item import Read
from handlers.telegram.outbox import deliver
from handlers.telegram.past_games import start_payload
from handlers.telegram.refusals import refuse


async def start(update: Update, context: BotContext) -> None:
    """/start in the private chat: join through a deep link, or say hello."""
    user = update.effective_user
    if is_group(update):
        return
    lang = language_for(user.language_code)
    payload = context.args[0] if context.args else ""
    if payload == PRACTICE_PAYLOAD:  # the link /practice answers with in a group
        await open_practice(update, context)
        return
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
    context.runtime.keeper.point_user(user.id, chat, loaded)


async def may_join(update: Update, context: BotContext, table: Table | None, game: int) -> bool:
    """Whether the joiner may take a seat in the group's open lobby: only its members may (a
    forwarded lobby or a guessed link seats nobody else). Otherwise they are told privately
    why, in their language: not a member, or Telegram could not say (then they try again)."""
    user = update.effective_user
    if table is None or table.game != game or table.status != LOBBY_STATUS:
        return True  # the change refuses a game no longer open
    if table.is_player(user.id):
        return True
    if table.practice:  # its player's alone: nobody to ask Telegram about
        await reply(update, t(table.lang_of(user.id, own_lang(user)), "practice_alone"))
        return False
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
    for chat in pointed_chats(context.runtime.keeper.get(user_key(user))):
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
    for chat in pointed_chats(context.runtime.keeper.get(user_key(user))):
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
        context.runtime.keeper.acknowledge(table.chat, table.game, None, delivery.ids)
    return True


async def own_lobby(context: BotContext, user: int) -> bool:
    """A player in an open lobby is told which game their card will come from; False for
    someone in none."""
    for chat in pointed_chats(context.runtime.keeper.get(user_key(user))):
        table = (await hub.read(context, chat)).table
        if table is not None and table.status == LOBBY_STATUS and table.is_player(user):
            if user not in table.unreachable():  # else being back in touch tells them
                text = t(table.lang_of(user), "joined", group=render.group_title(table))
                await deliver(context.bot, [render.send_private(user, text)])
            return True
    return False


async def refused_in_a_group(update: Update, context: BotContext) -> bool:
    """True, once answered, when a private command is sent in a group: it points to the
    private chat, in the group's language."""
    if not is_group(update):
        return False
    loaded = await hub.read(context, update.effective_chat.id)
    lang = group_lang(context, loaded, update.effective_user)
    await refuse(context, update, loaded, t(lang, "private_only"))
    return True


async def mycard(update: Update, context: BotContext) -> None:
    """/mycard: your card and what you know, privately."""
    user = update.effective_user
    lang = language_for(user.language_code)
    if await refused_in_a_group(update, context):
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
    statistics and the groups you played in; and your practice game (cancelled if it is on)
    and its settings."""
    user = update.effective_user
    lang = language_for(user.language_code)
    if await refused_in_a_group(update, context):
        return
    keeper = context.runtime.keeper
    await end_practice(context, user, update.update_id)  # erased below, as it stood
    chats = [chat for chat in all_pointed(keeper.get(user_key(user.id))) if chat != user.id]
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
    keeper.forget_user(user.id, chats)
    await reply(update, t(lang, "forgotten"))


async def end_practice(context: BotContext, user, update_id: int) -> None:
    """/forget: the user's practice lobby or game, if one is on, is cancelled (its buttons
    taken off) before it is erased."""
    with suppress(ApplicationHandlerStop):  # a redelivery: cancelled the first time
        loaded = await hub.read(context, user.id, update_id)
        if not practice_on(loaded.table):
            return
        by = display_name(user)

        def end(table: Table | None, ids: Ids) -> Decided:
            if not practice_on(table):
                return Decided(None)
            return shown(context, table, ids, table.cancel(table.known_as(user.id, by)))

        await hub.handle(context, loaded, end, update_id)


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
        return shown(context, table, ids, table.leave(user, context.runtime.clock()))

    return leave


PRACTICE_PAYLOAD = "practice"  # the deep link that opens a practice game in the private chat


async def practice(update: Update, context: BotContext) -> None:
    """/practice: a game against bot seats alone, played in the private chat (its lobby, turn
    message and prompts all there); in a group, the way to the private chat."""
    user = update.effective_user
    if is_group(update):
        loaded = await hub.read(context, update.effective_chat.id)
        url = bot_link(context.runtime.username, PRACTICE_PAYLOAD)
        text = t(group_lang(context, loaded, user), "practice_in_private", url=url)
        await refuse(context, update, loaded, text)
        return
    await open_practice(update, context)


async def open_practice(update: Update, context: BotContext) -> None:
    """Open a practice lobby keyed by the private chat (a game of the one pipeline, its only
    player the user), with their last practice's settings; one still on is pointed to."""
    user, runtime = update.effective_user, context.runtime
    chat = user.id  # a private chat's id is its user's
    loaded = await hub.read(context, chat, update.update_id, [prefs_key(chat)])
    if practice_on(loaded.table):
        await point_to_practice(context, loaded)
        return
    prefs = loaded.data_of(prefs_key(chat)) or {}
    lang = prefs.get("lang") or language_for(user.language_code)

    def open_lobby(table: Table | None, ids: Ids) -> Decided:
        if practice_on(table):
            raise Refused("practice_running")
        now = runtime.clock()
        settings = practice_settings(prefs.get("settings"))
        name, handle = display_name(user), user.username
        new, news = Table.open_lobby(
            chat, next_game(table, now), user.id, name, lang, settings, now, "", own_lang(user),
            False, handle,
        )  # fmt: skip
        gone = render.drop_play_again(table, ids) if table is not None else []
        return shown(context, new, ids, news, *gone)

    try:
        await hub.handle(context, loaded, open_lobby, update.update_id)
    except Refused:  # opened meanwhile, by the same player's other tap
        await point_to_practice(context, await hub.read(context, chat))
        return
    runtime.keeper.point_user(user.id, chat)  # /mycard and /start find it, as a group's game


def practice_on(table: Table | None) -> bool:
    """True when the private chat holds a practice lobby or game not over."""
    return table is not None and table.status in (LOBBY_STATUS, PLAYING)


async def point_to_practice(context: BotContext, loaded: Read) -> None:
    """A second /practice while one is on: the player is told so, in reply to its message (the
    turn message of a game, else the lobby)."""
    table = loaded.table
    if table is None:
        return
    ids = loaded.ids()
    message = ids.board if table.status == PLAYING else ids.lobby
    text = t(table.lang, "practice_running")
    await deliver(context.bot, [Send(table.chat, text, reply_to=message, protect=True)])
