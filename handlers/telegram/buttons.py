"""Inline buttons: one callback decodes a press once, hands it to the place its button sits, and
always answers the presser, with why when the press is refused."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from engine.state import TURN
from handlers.display import presses, render
from handlers.display.ids import Ids
from handlers.display.messages import Edit
from handlers.display.presses import (
    Button,
    Choose,
    Decision,
    Declaring,
    ImIn,
    Leave,
    ListSeats,
    MyCard,
    PlayAgain,
    ScoutMenu,
    Settings,
    SpyRed,
    Start,
    StrikeMenu,
    Toggle,
    TurnMenu,
)
from handlers.display.texts import language_for, t
from handlers.session.base import same_game
from handlers.session.settings import CHOICES
from handlers.session.table import LOBBY, OVER_STATUS, PLAYING, Refused, Table
from handlers.storage import history
from handlers.storage.keys import prefs_key, waiting_key
from handlers.telegram import hub
from handlers.telegram.absence import press_back, press_remove
from handlers.telegram.answers import PressAnswer, answer_press, worded
from handlers.telegram.chats import (
    bot_can_delete,
    display_name,
    is_admin,
    may_manage_here,
    own_lang,
    unreached,
)
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.item import Read
from handlers.telegram.leaving import press_leaving
from handlers.telegram.outbox import deliver
from handlers.telegram.past_games import after_the_calls, next_lobby_calls, press_records

log = logging.getLogger(__name__)

Place = Callable[[Update, BotContext, Button, PressAnswer], Awaitable[str]]


async def on_press(update: Update, context: BotContext) -> None:
    """Any button: decode its data, handle the press where its button sits, and always answer
    the presser (with why, when the press is refused)."""
    query = update.callback_query
    user = query.from_user
    button = presses.decode(query.data)
    answer = PressAnswer(query)
    alert = False
    try:
        if button is None:
            raise Refused("bad_button")
        text = await PLACES[button.where](update, context, button, answer)
    except Refused as err:
        text = worded(err, answer_lang(answer.table, user), answer.table)
        alert = err.key in ALERTS
    except ApplicationHandlerStop:
        raise
    except Exception:
        # The presser's button would spin until Telegram gives up: say so, then fail the
        # update (the webhook asks Telegram to deliver it again).
        if not answer.sent:
            await answer_press(query, t(language_for(user.language_code), "try_again"))
        raise
    if not answer.sent:
        await answer_press(query, text, alert)


ALERTS = {"scout_unblock_first"}  # refusals that ask for a step first: an alert to dismiss


def answer_lang(table: Table | None, user) -> str:
    """The language of a press's answer: a popup is read by the presser alone, so it is in
    theirs (as the table knows it, else as Telegram says), wherever the button sits."""
    if table is None:
        return language_for(user.language_code)
    return table.lang_of(user.id, own_lang(user))


def _in_chat(update: Update, chat: int) -> bool:
    """True when the pressed message is in `chat`."""
    message = update.callback_query.message
    return message is not None and message.chat.id == chat


# -- the lobby ------------------------------------------------------------------------------------


async def press_lobby(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """Lobby and settings buttons on the group's lobby message, and Play again."""
    user = update.callback_query.from_user
    press = button.press
    if not _in_chat(update, button.chat):
        raise Refused("bad_button")
    also = [prefs_key(button.chat)] if isinstance(press, Toggle | Choose) else []
    also += [waiting_key(button.chat)] if isinstance(press, PlayAgain) else []
    loaded = await hub.read(context, button.chat, update.update_id, also)
    table = answer.table = loaded.table
    if isinstance(press, PlayAgain):
        return await play_again(update, context, loaded, button, answer)
    table = same_game(table, button.game)
    if table.status != LOBBY:
        raise Refused("lobby_gone")
    if isinstance(press, Leave):
        answer.ready = t(answer_lang(table, user), "left")
        leave = _lobby_step(
            context, button, lambda current: current.leave(user.id, context.runtime.clock())
        )
        await hub.handle(context, loaded, leave, update.update_id, answer)
        return answer.ready
    if isinstance(press, ImIn):
        now = context.runtime.clock
        answer.ready = t(answer_lang(table, user), "rematch_you_are_in")
        im_in = _lobby_step(context, button, lambda current: current.im_in(user.id, now()))
        await hub.handle(context, loaded, im_in, update.update_id, answer)
        return answer.ready
    if not await may_manage_here(context, update, table):
        raise Refused("only_host")
    if isinstance(press, Choose) and press.value is None:
        if press.key not in CHOICES:  # the button naming a row of choices: nothing changes
            raise Refused("bad_button")
        return t(answer_lang(table, user), f"set_{press.key}", v=table.settings[press.key])
    step = await _lobby_decision(context, button, loaded, answer)
    answer.ready = ""
    saved = await hub.handle(context, loaded, step, update.update_id, answer)
    if saved.table is not None and isinstance(press, Toggle | Choose):
        runtime = context.runtime
        prefs = loaded.data_of(prefs_key(button.chat)) or {}
        defaults = {**prefs, "settings": saved.table.settings, "lang": saved.table.lang}
        opened = saved.table.opened
        runtime.keeper.put_newer(prefs_key(button.chat), defaults, opened, saved, loaded.loaded)
    return ""


async def _lobby_decision(
    context: BotContext, button: Button, loaded: Read, answer: PressAnswer
) -> hub.Step:
    """The step a host's lobby press takes (Start first asks Telegram what it must know)."""
    now = context.runtime.clock
    table = loaded.table
    match button.press:
        case Toggle(key):
            return _lobby_step(context, button, lambda current: current.change_setting(key))
        case Choose(key, value):
            return _lobby_step(
                context, button, lambda current: current.set_setting(key, value, now())
            )
        case Settings(True):
            return _lobby_step(context, button, lambda current: current.show_settings())
        case Settings(False):
            return _lobby_step(context, button, lambda current: current.show_lobby())
        case Start():
            can_delete = table.bot_can_delete
            asked = [unreached(context, not_yet_reached(table, loaded.ids()))]
            if can_delete is None:  # no word from Telegram on the bot's rights here yet: ask
                asked.append(bot_can_delete(context, button.chat))
            blocked, *rights = await asyncio.gather(*asked)  # one round for both
            await _all_reachable(context, button, table, answer, blocked)
            can_delete = rights[0] if rights else can_delete
            seed = context.runtime.seed()
            return _lobby_step(
                context, button, lambda current: current.start(now(), seed, can_delete)
            )
    raise Refused("bad_button")


def not_yet_reached(table: Table, ids: Ids) -> list[int]:
    """The players Start asks Telegram about before dealing: all but those the bot wrote to
    privately in this lobby and has not heard of since (Telegram tells the bot of a block: see
    `group.membership`; a card that fails all the same is a game's player the bot lost)."""
    greeted, away = ids.reached_in(table.game), set(table.unreachable())
    return [user for user, _ in table.players if user not in greeted or user in away]


async def _all_reachable(
    context: BotContext, button: Button, table: Table, answer: PressAnswer, blocked: list[int]
) -> None:
    """Before a deal Telegram is asked whether every player can still get their card (someone
    may have blocked the bot since joining): anyone `blocked` is named in the lobby, and Start
    is refused naming them."""
    if not blocked:
        return
    await hub.note_unreachable(context, table, blocked)
    answer.table = (await hub.read(context, button.chat)).table
    raise Refused("unreachable_start")


def _lobby_step(context: BotContext, button: Button, decide: Callable) -> hub.Step:
    """A step that refuses when the group's table is not the game the button belongs to."""

    def step(table: Table | None, ids: Ids) -> Decided:
        table = same_game(table, button.game)
        return shown(context, table, ids, decide(table))

    return step


async def play_again(
    update: Update, context: BotContext, loaded, button: Button, answer: PressAnswer
) -> str:
    """Play again: a new lobby with the same players and settings."""
    user = update.callback_query.from_user
    runtime = context.runtime
    old = loaded.table
    if old is None:
        raise Refused("stale_button")
    admin = not old.is_player(user.id) and await is_admin(context, old.chat, user.id)
    if waiting_key(old.chat) in loaded.records:  # read with the item (the group did not move)
        waiting = history.waiting_in(loaded.data_of(waiting_key(old.chat)))
        confirmed = history.confirmations_in(loaded.data_of(waiting_key(old.chat)))
    else:
        waiting = history.waiting(runtime.keeper.store, old.chat)
        confirmed = history.confirmations(runtime.keeper.store, old.chat)

    def again(table: Table | None, ids: Ids) -> Decided:
        if table is None:
            raise Refused("stale_button")
        if table.rematch.awaits(button.game, user.id):  # a second Play again: their I'm in
            return shown(context, table, ids, table.im_in(user.id, runtime.clock()))
        new, news = table.play_again(
            button.game,
            user.id,
            display_name(user),
            runtime.clock(),
            own_lang(user),
            admin,
            user.username,
        )
        calls = next_lobby_calls(new, waiting, confirmed, runtime.username)
        # The pressed button goes: the old game's last message keeps its text.
        gone = render.drop_play_again(table, ids)
        return shown(context, new, ids, news, *gone, *calls)

    answer.ready = ""
    if old.rematch.awaits(button.game, user.id):
        answer.ready = t(answer_lang(old, user), "rematch_you_are_in")
    await hub.handle(context, loaded, again, update.update_id, answer)
    after_the_calls(context, old.chat, waiting, update.update_id)
    return ""


# -- a private prompt -----------------------------------------------------------------------------


async def press_prompt(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """A private game button: open a menu, or make a decision."""
    query = update.callback_query
    user = query.from_user
    if not _in_chat(update, user.id):
        raise Refused("bad_button")
    loaded = await hub.read(context, button.chat, update.update_id)
    answer.table = loaded.table
    press = button.press
    if not isinstance(press, Decision):
        table = same_game(loaded.table, button.game)
        return await open_menu(context, query, table, button, answer)
    pressed = query.message.message_id
    now = context.runtime.clock

    def decide(table: Table | None, ids: Ids) -> Decided:
        table = same_game(table, button.game)
        # The pressed message is the prompt the decision closes, saying what was chosen;
        # owed with the change, so a death cannot lose it.
        ids.pressed(user.id, table.note_pressed(user.id), pressed)
        decided = table.decide(user.id, press.action(), button.version, now())
        return shown(context, table, ids, decided)

    answer.ready = ""  # no toast: the prompt itself turns into what was decided
    await hub.handle(context, loaded, decide, update.update_id, answer)
    return ""


async def open_menu(
    context: BotContext, query, table: Table, button: Button, answer: PressAnswer
) -> str:
    """A menu of the private prompt, opened in place: it changes no game."""
    user = query.from_user
    press = button.press
    seat = table.menu_of(user.id, button.version, _MENUS[type(press)], getattr(press, "target", 0))
    table = render.View.of(table).speaking_to(user.id)  # their own menus, in their language
    match press:
        case ScoutMenu():
            back = [render.game_button(table, "btn_back", TurnMenu())]
            kb = [*render.seat_keyboard(table, presses.Scout, seat), back]
            text = t(table.lang, "pick_scout")
        case StrikeMenu():
            back = [render.game_button(table, "btn_back", TurnMenu())]
            kb = [*render.seat_keyboard(table, _aiming, seat), back]
            text = t(table.lang, "pick_target")
        case TurnMenu():
            text, kb = render.turn_prompt(table, seat)
        case Declaring():
            text, kb = render.decapitation_menu(table, seat, press)
        case SpyRed(red):
            text = t(table.lang, "prompt_spy_blue")
            kb = render.spy_keyboard(table, lambda blue: presses.SpyGuess(red, blue), seat)
    menu = Edit(user.id, text, kb, msg=query.message.message_id, private=True)
    answer.ready = ""  # a menu changes no game: answer while it opens
    await asyncio.gather(deliver(context.bot, [menu]), answer.send())
    return ""


def _aiming(seat: int) -> Declaring:
    return Declaring(seat)


_MENUS = {
    ScoutMenu: "scout",
    StrikeMenu: "strike",
    TurnMenu: "turn",
    Declaring: "aim",
    SpyRed: "spy",
}


# -- the group's turn message ---------------------------------------------------------------------


async def press_board(
    update: Update, context: BotContext, button: Button, answer: PressAnswer
) -> str:
    """The group turn message's buttons: My card, a popup only the presser sees, in their
    language; the acting player's Scout, seats, Back and Done."""
    user = update.callback_query.from_user
    if not _in_chat(update, button.chat):
        raise Refused("bad_button")
    loaded = await hub.read(context, button.chat, update.update_id)
    answer.table = loaded.table
    press = button.press
    if isinstance(press, MyCard):
        return my_card(same_game(loaded.table, button.game), user)
    if isinstance(press, presses.Scout) and card_cannot_reach(loaded.table, user.id):
        raise Refused("scout_unblock_first")
    action = press.action() if isinstance(press, Decision) else None
    listed = isinstance(press, ListSeats) and press.listed
    now = context.runtime.clock

    def step(table: Table | None, ids: Ids) -> Decided:
        table = same_game(table, button.game)
        news = table.from_turn_message(user.id, button.version, now(), action, listed)
        return shown(context, table, ids, news)

    answer.ready = ""  # the turn message itself shows what happened
    await hub.handle(context, loaded, step, update.update_id, answer)
    return ""


def card_cannot_reach(table: Table | None, user: int) -> bool:
    """True when the acting player scouting from the turn message blocked the bot, so the card
    they scout could not reach them: as the table noted it (Telegram's word of the block, or a
    private message refused), Telegram not asked. A block not heard of yet shows when the card's
    message is refused (the player is then noted out of reach, as any private message finds)."""
    if table is None or table.status != PLAYING or table.state.phase != TURN:
        return False
    if table.user_at(table.state.turn) != user:
        return False  # refused as not their turn
    return table.cannot_reach(user)


def my_card(table: Table, user) -> str:
    """My card: the presser's card and what they know, as a popup in their language."""
    if table.status not in (PLAYING, OVER_STATUS):
        raise Refused("stale_button")
    seat = table.seat_of(user.id)
    if seat is None:
        raise Refused("not_a_player")
    return render.my_card(table, seat, True, table.lang_of(user.id, own_lang(user)))


PLACES: dict[str, Place] = {
    presses.LOBBY: press_lobby,
    presses.PROMPT: press_prompt,
    presses.BOARD: press_board,
    presses.RECORDS: press_records,
    presses.AWAY: press_back,
    presses.REMOVAL: press_remove,
    presses.LEAVING: press_leaving,
}
