"""A move made at the table, run as a button in the chat is run: the move read as the same typed
press (`presses`), decided by the same session call, and taken through the same update path
(`hub.read`, then `hub.handle`: saved with the messages it owes in one conditional write, sent,
acknowledged). It is kept by its move id as an update is kept by its number, so a request sent
again changes nothing twice, and whichever of a chat press and a table move comes second is too
late."""

from __future__ import annotations

from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application, ApplicationHandlerStop

from handlers.display.ids import Ids
from handlers.display.presses import (
    Decapitate,
    Decision,
    Done,
    Keep,
    Predict,
    Scout,
    SpyGuess,
    Swap,
)
from handlers.display.table_view import seat_view
from handlers.session.table import Illegal, Refused, Table
from handlers.table.api import APPLIED, ILLEGAL, NOT_YOURS, REUSED, STALE, MoveOutcome
from handlers.table.moves import DONE, Move, MoveRequest
from handlers.table.selector import Selector
from handlers.table.view import moment_of
from handlers.telegram import hub
from handlers.telegram.chats import in_group
from handlers.telegram.context import BotContext
from handlers.telegram.hub import Decided, shown
from handlers.telegram.item import Read
from handlers.telegram.table_source import move_key, seat_at


def press_of(move: Move) -> Decision:
    """The press a table move stands for: the one its button in the chat would carry."""
    match move.kind:
        case "scout":
            return Scout(move.target)
        case "decapitate":
            return Decapitate(move.target, move.proxy, move.bodyguard)
        case "swap":
            return Swap()
        case "keep":
            return Keep()
        case "predict":
            return Predict("red" if move.color == "red" else "blue")
        case "spy_guess":
            return SpyGuess(move.red, move.blue)
    assert move.kind == DONE
    return Done()


class TableMove:
    """One move request as a step of the update path: a seat at the game, then the decision a
    chat button makes, judged by the session alone on the game's moment the view was made at
    (a stale view is refused as a stale button is). `result` and `seat` say what became of
    it."""

    def __init__(
        self, context: BotContext, selector: Selector, user: int, request: MoveRequest
    ) -> None:
        self.context, self.selector, self.user, self.request = context, selector, user, request
        self.result = NOT_YOURS
        self.seat: int | None = None

    def step(self, table: Table | None, ids: Ids) -> Decided:
        """Judge the move on the group's table as read (again after a lost race), and decide."""
        self.result = NOT_YOURS
        self.seat = seat_at(table, self.selector, self.user)
        moment = moment_of(self.request.version)
        if table is None or self.seat is None:
            return Decided(None)
        self.result = STALE
        if moment is None:  # no view's version: no moment of the game
            return Decided(None)
        action = press_of(self.request.move).action()
        try:
            events = table.decide(self.user, action, moment, self.context.runtime.clock())
        except Illegal:
            self.result = ILLEGAL
            return Decided(None)
        except Refused as refused:  # made at another moment (a deadline may have passed)
            self.result = STALE if refused.key == "too_late" else ILLEGAL
            return Decided(None)
        self.result = APPLIED
        return shown(self.context, table, ids, events)


def move_context(application: Application) -> BotContext:
    """The context a table move runs in: a callback's, on the bot's Application."""
    return BotContext(application)


async def is_member(application: Application, chat: int, user: int) -> bool | None:
    """Whether `user` is in the group, as Telegram says when a join is checked: the table's
    gate for an opening without a seat's pass. No for a group Telegram will not tell the bot
    about (unknown, or the bot is out of it); None when it could not say (a network fault, a
    flood wait)."""
    try:
        member = await application.bot.get_chat_member(chat, user)
    except (BadRequest, Forbidden):
        return False
    except TelegramError:
        return None
    return in_group(member)


async def run_move(
    context: BotContext, selector: Selector, user: int, request: MoveRequest
) -> MoveOutcome:
    """Run a table move through the update path and say what it came to, with the seat's view
    as it now is."""
    key = move_key(user, request)
    move = TableMove(context, selector, user, request)
    try:
        loaded = await hub.read(context, selector.chat, key)
        saved = await hub.handle(context, loaded, move.step, key)
    except ApplicationHandlerStop:  # applied before: what it owed is sent, nothing changes
        return again(context, selector, user, key)
    # the seat's view, built once: after the move, or of the game as stored (a refusal saved
    # nothing, whatever the session caught up with in judging it)
    table = saved.table if move.result == APPLIED else loaded.fresh_table()
    if move.seat is None or table is None:
        return MoveOutcome(NOT_YOURS)
    return MoveOutcome(move.result, seat_view(table, move.seat))


def again(context: BotContext, selector: Selector, user: int, key: str) -> MoveOutcome:
    """A move id sent again after it was applied, with the seat's view as it now is: applied
    for the same move, refused (REUSED) for another."""
    read = Read.of(context.runtime.keeper.load(selector.chat))
    seat = seat_at(read.table, selector, user)
    if seat is None:
        return MoveOutcome(NOT_YOURS)
    result = APPLIED if read.applied_exactly(key) else REUSED
    return MoveOutcome(result, seat_view(read.table, seat))
