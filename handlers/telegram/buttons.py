"""Inline buttons: the lobby's, a game's private menus and decisions, the turn message's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from engine import Action
from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP
from engine.cards import SPY
from engine.state import SPY_PHASE, TURN
from engine.turns import may_decapitate
from handlers.session.settings import CHOICES, MAX_PLAYERS
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
from handlers.storage.keys import prefs_key
from handlers.telegram import buttondata as callbacks
from handlers.telegram import render
from handlers.telegram.answers import PressAnswer, answer_press
from handlers.telegram.buttondata import Press
from handlers.telegram.changes import (
    bot_can_delete,
    deps,
    display_name,
    is_admin,
    own_lang,
    run,
    run_change,
    stop_if_repeat,
)
from handlers.telegram.outbox import deliver
from handlers.telegram.records import after_the_calls, next_lobby_calls
from handlers.telegram.texts import language_for, t
from handlers.telegram.turn_presses import press_turn

log = logging.getLogger(__name__)


Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE, Press, PressAnswer], Awaitable[str]]


def answered(handle: Handler) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]:
    """A button's callback: decode its data, run `handle`, and always answer the presser (with
    why, when the press is refused)."""

    async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        user = query.from_user
        p = callbacks.decode(query.data)
        press = PressAnswer(query)
        try:
            if p is None:
                raise Refused("bad_button")
            answer = await handle(update, context, p, press)
        except Refused as err:
            table = deps(context).host.load(p.chat) if p else None
            await stop_if_repeat(context, update, table)
            answer = t(answer_lang(table, p, user), err.key, **err.kw)
        except ApplicationHandlerStop:
            raise
        except Exception:
            # The presser's button would spin until Telegram gives up: say so, then fail the
            # update (the webhook asks Telegram to deliver it again).
            if not press.sent:
                await answer_press(query, t(language_for(user.language_code), "try_again"))
            raise
        if not press.sent:
            await answer_press(query, answer)

    callback.__doc__ = handle.__doc__
    return callback


def answer_lang(table: Table | None, p: Press | None, user) -> str:
    """The language of a press's answer: a lobby button's, the group's; a private button's and
    My card's, the presser's own."""
    if table is None:
        return language_for(user.language_code)
    if p is not None and p.kind in (callbacks.LOBBY, callbacks.REMOVE):
        return table.lang
    return table.lang_of(user.id, own_lang(user))


async def refuse(update: Update, context, p: Press, press: PressAnswer) -> str:
    """Any button whose data is none of ours."""
    raise Refused("bad_button")


def _group_message(update: Update, chat: int) -> bool:
    message = update.callback_query.message
    return message is not None and message.chat.id == chat


async def press_lobby(update: Update, context, p: Press, press: PressAnswer) -> str:
    """Lobby and settings buttons on the group's lobby message, and Play again."""
    user = update.callback_query.from_user
    if not _group_message(update, p.chat):
        raise Refused("bad_button")
    d = deps(context)
    table = d.host.load(p.chat)
    if p.arg == "again":
        again_refused(table, p.game)
        return await play_again(update, context, table, press)
    if table is None or table.game != p.game:
        raise Refused("stale_button")
    if table.status != LOBBY_STATUS:
        raise Refused("lobby_gone")
    if p.arg == "leave":
        press.ready = t(table.lang, "left")
        leave = _on_same_game(p, lambda t_: t_.leave(user.id))
        await run(context, p.chat, update.update_id, leave, press)
        return t(table.lang, "left")
    privileged = table.data["creator"] == user.id or await is_admin(context, p.chat, user.id)
    if not privileged:
        raise Refused("only_host")
    try:
        setting = callbacks.parse_setting(p.arg)
    except ValueError:
        raise Refused("bad_button") from None
    if setting is not None and setting[0] == callbacks.CHOICE and setting[2] is None:
        key = setting[1]  # the button naming a row of choices: its value, nothing changed
        if key not in CHOICES:
            raise Refused("bad_button")
        return t(table.lang, f"set_{key}", v=table.settings[key])
    if setting is not None:
        kind, key, value = setting
        if kind == callbacks.SWITCH:
            changer = _on_same_game(p, lambda t_: t_.change_setting(key))
        else:
            changer = _on_same_game(p, lambda t_: t_.set_setting(key, value, d.clock()))
    elif p.arg == "set":
        changer = _on_same_game(p, lambda t_: t_.show_settings())
    elif p.arg == "back":
        changer = _on_same_game(p, lambda t_: t_.show_lobby())
    elif p.arg == "start":
        can_delete = table.data.get(BOT_CAN_DELETE)
        if can_delete is None:  # no word from Telegram on the bot's rights here yet: ask
            can_delete = await bot_can_delete(context, p.chat)
        seed = d.seed()
        changer = _on_same_game(p, lambda t_: dealt(t_, d.clock(), seed, can_delete))
    else:
        raise Refused("bad_button")
    press.ready = ""
    change = await run_change(context, p.chat, update.update_id, changer, press)
    saved = change.table
    if saved is not None and setting is not None:
        prefs = d.host.get(prefs_key(p.chat)) or {}
        defaults = {**prefs, "settings": saved.settings, "lang": saved.lang}
        d.host.put_newer(prefs_key(p.chat), defaults, saved, change.saved_version)
    return ""


def dealt(table: Table, now: float, seed: int | None, can_delete: bool) -> list[dict]:
    """Start pressed: deal, or (while someone would get no card) say who and what to do."""
    try:
        return table.start(now, seed, can_delete)
    except Refused as err:
        if err.key != "unreachable_start":
            raise
        raise Refused(err.key, **render.start_refused(table)) from None


def _on_same_game(p: Press, fn):
    """A changer that refuses when the group's table is not the game the button belongs to."""

    def changer(table: Table | None):
        if table is None or table.game != p.game:
            raise Refused("stale_button")
        return table, render.show(table, fn(table))

    return changer


def again_refused(table: Table | None, game: int) -> None:
    """Refuse a Play again press that is not for the group's latest game: the game it opened is
    still open, or the button is older than that."""
    if table is None:
        raise Refused("stale_button")
    if table.game != game:
        opened = table.data.get("again_of") == game and table.status in (LOBBY_STATUS, PLAYING)
        raise Refused("again_open" if opened else "stale_button")


async def play_again(update: Update, context, old: Table, press: PressAnswer) -> str:
    """Play again: a new lobby with the same players and settings."""
    user = update.callback_query.from_user
    d = deps(context)
    if old.status not in (OVER_STATUS, CANCELLED):
        raise Refused("game_running")
    if old.was_removed(user.id):
        raise Refused("you_were_removed")
    if not old.is_player(user.id) and not await is_admin(context, old.chat, user.id):
        raise Refused("not_a_player")
    waiting = history.waiting(d.host.store, old.chat)
    confirmed = history.confirmations(d.host.store, old.chat)

    def again(table: Table | None):
        again_refused(table, old.game)  # someone else's press came first
        if table.status not in (OVER_STATUS, CANCELLED):
            raise Refused("stale_button")
        new, news = Table.open_lobby(
            table.chat,
            next_game(table, d.clock()),
            user.id,
            display_name(user),
            table.lang,
            table.settings,
            d.clock(),
            table.data.get("title") or "",
            own_lang(user),
            user.username,
        )
        if table.data.get(BOT_CAN_DELETE) is not None:
            new.data[BOT_CAN_DELETE] = table.data[BOT_CAN_DELETE]
        others = [p for p in table.plays_again() if p[0] != user.id][: MAX_PLAYERS - 1]
        new.data["players"] += others
        langs, handles = table.data.get("langs") or {}, table.data.get("handles") or {}
        for uid, _ in others:  # each keeps the language they read, and their username
            if str(uid) in langs:
                new.data["langs"][str(uid)] = langs[str(uid)]
            if str(uid) in handles:
                new.data.setdefault("handles", {})[str(uid)] = handles[str(uid)]
        new.data["again_of"] = table.game
        new.data["unreachable"] = [u for u in table.unreachable() if new.is_player(u)]
        # The pressed button goes: the old game's last message keeps its text.
        calls = next_lobby_calls(new, waiting, confirmed)
        return new, [*render.show(new, news), *render.drop_play_again(table), *calls]

    press.ready = ""
    await run(context, old.chat, update.update_id, again, press)
    after_the_calls(context, old.chat, waiting, update.update_id)
    return ""


async def press_game(update: Update, context, p: Press, press: PressAnswer) -> str:
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
    if p.version != table.public_version:
        raise Refused("too_late")
    arg = p.arg
    table = table.speaking_to(user.id)  # the player's own menus, in their language
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
        press.ready = ""  # a menu changes no game: answer while it opens
        await asyncio.gather(deliver(context.bot, [edit], {}), press.send())
        return ""
    action = decision(seat, arg)
    if action is None:
        raise Refused("bad_button")
    pressed = query.message.message_id

    def decide(current: Table | None):
        if current is None or current.game != p.game:
            raise Refused("stale_button")
        if current.status == PLAYING and current.public_version != p.version:
            raise Refused("too_late")
        # The pressed message is the prompt the decision closes, saying what was chosen;
        # owed with the change, so a death cannot lose it.
        current.note_pressed(user.id, pressed)
        return current, render.show(current, current.act(user.id, action, d.clock()))

    press.ready = ""  # no toast: the prompt itself turns into what was decided
    await run(context, p.chat, update.update_id, decide, press)
    return ""


def navigate(table: Table, seat: int, arg: str):
    """The menu a navigation button opens, or None when `arg` is a decision."""
    state = table.state
    if state.turn != seat and arg in ("S", "D", "B"):
        raise Refused("not_your_turn")
    if arg == "S":
        back = [render.game_button(table, "btn_back", "B")]
        return t(table.lang, "pick_scout"), [*render.seat_keyboard(table, "s", seat), back]
    if arg == "D":
        if may_decapitate(state, seat) is not None or state.phase != TURN:
            raise Refused("not_your_turn")
        back = [render.game_button(table, "btn_back", "B")]
        return t(table.lang, "pick_target"), [*render.seat_keyboard(table, "d", seat), back]
    if arg == "B":
        return render.turn_prompt(table, seat)
    if arg.startswith("d"):
        try:
            target = callbacks.parse_decapitation(arg)[0]
        except ValueError:
            raise Refused("bad_button") from None
        if not 1 <= target <= state.seats or target == seat:
            raise Refused("bad_button")
        return render.decapitation_menu(table, seat, arg)
    if arg.startswith("r") and arg[1:].isdigit():
        if state.phase != SPY_PHASE or state.holder(SPY) != seat:
            raise Refused("not_your_turn")
        return t(table.lang, "prompt_spy_blue"), render.seat_keyboard(table, f"y{arg[1:]}.", None)
    return None


def decision(seat: int, arg: str) -> Action | None:
    """The engine action a final button stands for, or None when malformed."""
    try:
        if arg.startswith("s") and arg[1:].isdigit():
            return Action(SCOUT, seat, target=int(arg[1:]))
        if arg.startswith("x"):
            target, proxy, guard = callbacks.parse_decapitation(arg)
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


async def press_board(update: Update, context, p: Press, press: PressAnswer) -> str:
    """The group turn message's buttons: My card, a popup only the presser sees, in their
    language; the acting player's Scout, seats, Back and Done (`press_turn`)."""
    if p.arg != "me":
        return await press_turn(update, context, p, press)
    user = update.callback_query.from_user
    table = deps(context).host.load(p.chat)
    if table is None or table.game != p.game or table.status not in (PLAYING, OVER_STATUS):
        raise Refused("stale_button")
    seat = table.seat_of(user.id)
    if seat is None:
        raise Refused("not_a_player")
    return render.my_card(table, seat, True, table.lang_of(user.id, own_lang(user)))
