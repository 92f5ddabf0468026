"""A move made at the table, run as a button in the chat is run: the move read as the same typed
press (`presses`), decided by the same session call, and taken through the same update path
(`hub.read`, then `hub.handle`: saved with the messages it owes in one conditional write, sent,
acknowledged). It is kept by its move id as an update is kept by its number, so a request sent
again changes nothing twice, and whichever of a chat press and a table move comes second is too
late."""

from __future__ import annotations

from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Application, ApplicationHandlerStop

from engine.turns import why_illegal
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
from handlers.session.table import Refused, Table
from handlers.table.api import APPLIED, ILLEGAL, NOT_YOURS, REUSED, STALE, MoveOutcome
from handlers.table.moves import DONE, Move, MoveRequest
from handlers.table.selector import Selector
from handlers.table.view import view_version
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
    """One move request as a step of the update path: the checks of the table's contract in
    their order (a seat, the version, the rules), then the decision a button makes. `result`
    and `seat` say what became of it."""

    def __init__(
        self, context: BotContext, selector: Selector, user: int, request: MoveRequest
    ) -> None:
        self.context, self.selector, self.user, self.request = context, selector, user, request
        self.result = NOT_YOURS
        self.seat: int | None = None
        self.view: dict | None = None  # the seat's view when the move was judged

    def step(self, table: Table | None, ids: Ids) -> Decided:
        """Judge the move on the group's table as read (again after a lost race), and decide."""
        self.result, self.view = NOT_YOURS, None
        self.seat = seat = seat_at(table, self.selector, self.user)
        if seat is None:
            return Decided(None)
        self.view = seat_view(table, seat)
        if view_version(self.view) != self.request.version:
            self.result = STALE
            return Decided(None)
        press = press_of(self.request.move)
        action = press.action()._replace(seat=seat)
        if not self.view["you"]["must_act"] or why_illegal(table.state, action):
            self.result = ILLEGAL
            return Decided(None)
        version = table.public_version  # the moment the view was made for
        try:
            events = table.decide(self.user, press.action(), version, self.context.runtime.clock())
        except Refused as refused:  # its wait ran out meanwhile: the view is out of date
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
    if move.seat is None or move.view is None:
        return MoveOutcome(NOT_YOURS)
    if move.result == APPLIED and saved.table is not None:
        return MoveOutcome(APPLIED, seat_view(saved.table, move.seat))
    return MoveOutcome(move.result, move.view)


def again(context: BotContext, selector: Selector, user: int, key: str) -> MoveOutcome:
    """A move id sent again after it was applied, with the seat's view as it now is: applied
    for the same move, refused (REUSED) for another."""
    read = Read.of(context.runtime.keeper.load(selector.chat))
    seat = seat_at(read.table, selector, user)
    if seat is None:
        return MoveOutcome(NOT_YOURS)
    result = APPLIED if read.applied_exactly(key) else REUSED
    return MoveOutcome(result, seat_view(read.table, seat))
