"""A group's finished games and its next one: the Record button, /history, /nextgame and its
button; anyone in the group may ask, and nothing of a game in play is shown."""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import InputFile, Update
from telegram.constants import ParseMode
from telegram.error import Forbidden, TelegramError

from handlers.display import presses, render
from handlers.display.ids import call_ref
from handlers.display.messages import DropButtons, Edit, Out
from handlers.display.presses import RECORDS, Button, CallNext, SendRecord, StopWaiting
from handlers.display.render import past_games as shown
from handlers.display.texts import language_for, t
from handlers.session.table import Refused, Table
from handlers.storage import history
from handlers.telegram import hub
from handlers.telegram.answers import PressAnswer
from handlers.telegram.chats import group_lang, is_group, membership, own_lang, reply
from handlers.telegram.context import BotContext
from handlers.telegram.outbox import deliver, markup

log = logging.getLogger(__name__)


def next_lobby_calls(
    table: Table, waiting: dict[int, str | None], confirmed: dict[int, int], bot: str
) -> list[Out]:
    """The private messages that tell the people waiting that `table`'s lobby is open (not
    those already in it); the Cancel of each one's confirmation goes (`confirmed`)."""
    join = render.join_url(table, bot)
    group = render.group_title(table)
    outs: list[Out] = []
    for user, lang in waiting.items():
        msg = confirmed.get(user)
        if msg:
            outs.append(DropButtons(user, msg))
        if table.is_player(user):
            continue
        call = render.send_private(user, *shown.next_lobby_call(lang or table.lang, group, join))
        outs.append(replace(call, remember=call_ref(user)))  # its Join goes with the lobby
    return outs


def after_the_calls(
    context: BotContext, chat: int, waiting: dict[int, str | None], update_id: int
) -> None:
    """The lobby is open and the people waiting were told: take them off the list."""
    if waiting:
        keeper = context.runtime.keeper
        history.told(keeper.store, chat, list(waiting), update_id, keeper.clock)


def presser_lang(user) -> str:
    """The language of an answer to one person: their Telegram app's."""
    return language_for(getattr(user, "language_code", None))


async def reader_lang(context: BotContext, user, chat: int) -> str:
    """The language of a private answer about a group's games: the reader's own, else (their
    app sends none) the group's."""
    return own_lang(user) or group_lang(context, await hub.read(context, chat), user)


async def send_record(context: BotContext, user, chat: int, game: int) -> bool:
    """Send a kept game to `user` privately: the reveal and the whole timeline to read, then the
    record's file; False when they never opened (or have blocked) the private chat. `Refused`
    when the game is not kept (or still in play)."""
    entry = history.game(context.runtime.keeper.store, chat, game)
    if entry is None or not entry.get("record"):
        raise Refused("record_gone")
    loaded = await hub.read(context, chat)
    table = loaded.table
    title = table.title if table else ""
    lang = own_lang(user) or group_lang(context, loaded, user)
    told = shown.pages(render.kept_game(lang, title, entry))
    delivery = await deliver(context.bot, [render.send_private(user.id, text) for text in told])
    if delivery.unreachable:
        return False
    body, name = shown.record_file(entry)
    try:
        await context.bot.send_document(
            chat_id=user.id,
            document=InputFile(body, filename=name),
            caption=shown.record_caption(lang, title, entry),
            parse_mode=ParseMode.HTML,
        )
    except Forbidden:
        return False
    return True


async def group_name(context: BotContext, chat: int, title: str | None = None) -> str:
    """The group's title as messages show it: `title` if known, else its table's, else
    Telegram's."""
    if not title:
        table = (await hub.read(context, chat)).table
        title = (table.title if table else None) or None
    if not title:
        try:
            title = (await context.bot.get_chat(chat)).title
        except TelegramError:
            title = None
    return render.shown_name(title) if title else "—"


async def confirm_waiting(context: BotContext, user, chat: int, title: str | None) -> int | None:
    """Tell `user` privately they are waiting for the group's next lobby, with a button to
    cancel; the message's number, None when the private chat is not open to the bot."""
    lang = presser_lang(user)
    group = await group_name(context, chat, title)
    cancel = presses.encode(Button(RECORDS, chat, 0, 0, StopWaiting()))
    stop = [t(lang, "btn_stop_waiting"), cancel]
    try:
        sent = await context.bot.send_message(
            chat_id=user.id,
            text=t(lang, "next_waiting", group=group),
            parse_mode=ParseMode.HTML,
            reply_markup=markup([[stop]]),
            protect_content=True,
        )
    except Forbidden:
        return None
    return sent.message_id


async def ask_for_next(
    context: BotContext,
    user,
    chat: int,
    update_id: int,
    on: bool | None,
    title: str | None = None,
    pressed: int | None = None,
) -> str | None:
    """Put `user` on (or take them off) the group's list for its next lobby and confirm it
    privately. The place they are left in (history.ON, OFF, ALREADY, FULL), "closed" when
    their private chat is not open to the bot (then they are not on the list), None for a
    repeated update.
    Taken off, their confirmation loses its Cancel (`pressed`: the one they pressed)."""
    keeper = context.runtime.keeper
    store = keeper.store
    lang = own_lang(user)
    earlier = history.confirmations(store, chat).get(user.id)
    place = history.wait_for_next(store, chat, user.id, lang, update_id, on, keeper.clock)
    if place == history.OFF and earlier and earlier != pressed:
        await deliver(context.bot, [DropButtons(user.id, earlier)])
    if place != history.ON:
        return place
    confirmation = await confirm_waiting(context, user, chat, title)
    if confirmation is None:
        history.drop_waiting(store, chat, user.id)
        return "closed"
    history.note_confirmation(store, chat, user.id, confirmation)
    keeper.point_user(user.id, chat)  # so that /forget finds the list they are on
    return place


async def press_records(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """The Record and Next game buttons (on a group's end message or /history list), and the
    Cancel button of a private call's confirmation."""
    query = update.callback_query
    user = query.from_user
    lang = await reader_lang(context, user, button.chat)
    message = query.message
    where = message.chat.id if message is not None else None
    chat = button.chat
    if isinstance(button.press, StopWaiting):
        if where != user.id:
            raise Refused("bad_button")
        pressed = message.message_id
        place = await ask_for_next(context, user, chat, update.update_id, False, None, pressed)
        if place is None:
            return ""  # a redelivered press: its confirmation says so already
        group = await group_name(context, chat)
        text = t(lang, "next_stopped", group=group)
        await deliver(context.bot, [Edit(user.id, text, msg=message.message_id, private=True)])
        return t(lang, "next_off")
    if where != chat:
        raise Refused("bad_button")
    if isinstance(button.press, SendRecord):
        if await send_record(context, user, chat, button.game):
            return t(lang, "record_sent")
        await open_chat_first(context, answer, lang, presses.record_payload(chat, button.game))
        return ""
    if not isinstance(button.press, CallNext):
        raise Refused("bad_button")
    # The button is the group's: pressed again it keeps the call (its label cannot show whose).
    place = await ask_for_next(context, user, chat, update.update_id, True, message.chat.title)
    if place == "closed":
        await open_chat_first(context, answer, lang, presses.next_payload(chat))
        return ""
    said = {history.ALREADY: "next_already", history.FULL: "next_full"}
    return t(lang, said.get(place, "next_on"))


async def open_chat_first(
    context: BotContext, answer: PressAnswer, lang: str, payload: str
) -> None:
    """Answer a press whose presser never opened the private chat: their app opens it at a
    deep link that, once they press Start, does what they asked."""
    answer.sent = True
    url = render.bot_link(context.runtime.username, payload)
    try:
        await answer.query.answer(t(lang, "open_chat_first"), url=url)
    except TelegramError as err:
        log.info("callback answer failed: %s", type(err).__name__)


async def start_payload(update: Update, context: BotContext, payload: str) -> bool:
    """/start with a record's or a call's deep link; True when the payload was one of those."""
    asked = presses.parse_payload(payload)
    if asked is None:
        return False
    kind, chat, game = asked
    user = update.effective_user
    lang = presser_lang(user)
    member = await membership(context, chat, user.id)  # its records and calls: its members'
    if member is not True:
        await reply(update, t(lang, "not_in_group" if member is False else "member_check_failed"))
        return True
    try:
        if kind == presses.RECORD:
            await send_record(context, user, chat, game)
        else:
            place = await ask_for_next(context, user, chat, update.update_id, True)
            if place in (history.FULL, history.ALREADY):
                await reply(update, t(lang, f"next_{place}"))
    except Refused as err:
        await reply(update, t(lang, err.key, **err.kw))
    return True


async def history_command(update: Update, context: BotContext) -> None:
    """/history: the group's last ten games, each with its Record button."""
    chat, user = update.effective_chat, update.effective_user
    if not is_group(update):
        await reply(update, t(presser_lang(user), "group_only"))
        return
    lang = group_lang(context, await hub.read(context, chat.id), user)
    text, kb = shown.history_list(lang, chat.id, context.runtime.keeper.games(chat.id))
    try:
        await update.effective_message.reply_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup(kb)
        )
    except TelegramError as err:
        log.warning("reply failed: %s", type(err).__name__)


async def nextgame_command(update: Update, context: BotContext) -> None:
    """/nextgame: be told privately, once, when the group's next lobby opens; again: not."""
    chat, user = update.effective_chat, update.effective_user
    if not is_group(update):
        await reply(update, t(presser_lang(user), "group_only"))
        return
    place = await ask_for_next(context, user, chat.id, update.update_id, None, chat.title)
    lang = group_lang(context, await hub.read(context, chat.id), user)
    if place == history.OFF:
        group = await group_name(context, chat.id, chat.title)
        text = t(presser_lang(user), "next_stopped", group=group)
        await deliver(context.bot, [render.send_private(user.id, text)])
    elif place == history.FULL:
        await reply(update, t(lang, "next_full"))
    elif place == "closed":
        name = render.shown_name(user.first_name or "?")
        url = render.bot_link(context.runtime.username, presses.next_payload(chat.id))
        text = t(lang, "next_open_chat", name=name)
        try:
            await update.effective_message.reply_text(
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup([[[t(lang, "btn_open_chat"), url]]]),
            )
        except TelegramError as err:
            log.warning("reply failed: %s", type(err).__name__)
