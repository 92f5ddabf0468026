"""The acting player's buttons on the group's turn message: Scout, a seat, Back, Done.

They stand for what the group learns anyway (who scouted whom, the end of a speaking moment);
the decision goes through the same `Play.act` as the private prompt's, so whichever is pressed
second is too late. Anyone else pressing them is told whose turn it is.
"""

from __future__ import annotations

from telegram import Update

from engine import Action
from engine.actions import END_TURN, SCOUT
from handlers.session.table import PLAYING, Refused, Table
from handlers.telegram import render
from handlers.telegram.answers import PressAnswer
from handlers.telegram.buttondata import Press
from handlers.telegram.changes import deps, run
from handlers.telegram.render import isolate

LIST, UNLIST, DONE = "S", "B", "e"  # open the seats to scout, close them, end speaking


async def press_turn(update: Update, context, p: Press, press: PressAnswer) -> str:
    """A press on the turn message's Scout, a seat, Back or Done."""
    query = update.callback_query
    user = query.from_user
    d = deps(context)
    table = d.host.load(p.chat)
    if table is None or table.game != p.game:
        raise Refused("stale_button")
    if query.message is None or query.message.chat.id != p.chat:
        raise Refused("bad_button")
    if table.status != PLAYING or p.version != table.public_version:
        raise Refused("too_late")
    target = scouted(table, p.arg)
    turn = table.state.turn  # whose turn it is: public, whatever the game waits on in secret
    if table.seat_of(user.id) != turn:
        raise Refused("turn_of", seat=turn, name=isolate(table.name_of(turn)))
    if p.arg in (LIST, UNLIST):
        listed = p.arg == LIST

        def changer(current: Table | None):
            same_board(current, p)
            return current, render.show(current, current.list_seats(user.id, listed, d.clock()))

    else:
        action = Action(SCOUT, turn, target=target) if target else Action(END_TURN, turn)

        def changer(current: Table | None):
            same_board(current, p)
            return current, render.show(current, current.act(user.id, action, d.clock()))

    press.ready = ""  # the turn message itself shows what happened
    await run(context, p.chat, update.update_id, changer, press)
    return ""


def scouted(table: Table, arg: str) -> int | None:
    """The seat a seat button scouts (None for Scout, Back and Done); `bad_button` for an
    argument that is none of these."""
    if arg in (LIST, UNLIST, DONE):
        return None
    if arg.startswith("s") and arg[1:].isascii() and arg[1:].isdigit():
        seat = int(arg[1:])
        if 1 <= seat <= table.state.seats and seat != table.state.turn:
            return seat
    raise Refused("bad_button")


def same_board(current: Table | None, p: Press) -> None:
    """Refuse a press whose turn message is no longer the table's as it is now."""
    if current is None or current.game != p.game:
        raise Refused("stale_button")
    if current.status != PLAYING or current.public_version != p.version:
        raise Refused("too_late")
