"""Session events into messages: what each kind of event looks like to whom. The messages the
bot will edit again are found by their ids, which the Telegram side keeps (`Ids`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.actions import SCOUT
from engine.events import SCOUT_RESULT
from engine.state import SPEAK
from handlers.display.ids import BOARD, END, LOBBY, Ids
from handlers.display.messages import DropButtons, Edit, Send
from handlers.display.render import absence
from handlers.display.render.board import board, edit_board
from handlers.display.render.closed import closed_prompt
from handlers.display.render.common import (
    Out,
    edit_ref,
    group_title,
    send_group,
    send_private,
    t_,
)
from handlers.display.render.lobby import lobby, lobby_message, seating
from handlers.display.render.prompts import private_event, prompt
from handlers.display.render.reach import (
    back,
    closed,
    extended,
    hello,
    left_out,
    reminder,
    warning,
)
from handlers.display.render.rematch import dealt_itself, rematch_closed
from handlers.display.render.reveal import cancelled, ending
from handlers.display.render.view import View
from handlers.session import events as ev
from handlers.session.table import Table


def _cancelled(table: Table, ids: Ids, e: dict) -> list[Out]:
    text, kb = cancelled(table, e)
    if e["was_lobby"]:
        return [edit_ref(table, ids, LOBBY, text, None)]
    return [send_group(table, text, kb, remember=END)]


def _board_opened(table: Table, ids: Ids, e: dict) -> list[Out]:
    ids.opening_board(e["board"]["tag"])
    out = send_group(table, *board(table, e["board"], e["seconds"]), remember=BOARD)
    return [replace(out, tag=e["board"]["tag"])]


def _board_shown(table: Table, ids: Ids, e: dict) -> list[Out]:
    out = edit_board(table, ids, e["board"], e["seconds"], e["final"])
    if e.get("redraw") and out.msg is None:
        return []  # a turn message not known (yet) is not posted again just to redraw it
    return [replace(out, side=True) if e["side"] else out]


def _hurry(table: Table, ids: Ids, e: dict) -> list[Out]:
    """The player waited for is told privately how long is left: to decide, or to speak."""
    user = table.user_at(e["seat"])
    key = "hurry_speak" if table.state.phase == SPEAK else "hurry"
    text = t_(table.speaking_to(user), key, s=e["seconds"])
    return [send_private(user, text, quiet=True)]


def _removed(table: Table, ids: Ids, e: dict) -> list[Out]:
    return [
        send_private(user, t_(table.speaking_to(user), "removed", group=group_title(table)))
        for user in e["users"]
    ]


Shown = Callable[[Table, Ids, dict], list[Out]]

_SHOWN: dict[str, Shown] = {
    ev.LOBBY_EXPIRED: lambda table, ids, e: [
        rematch_closed(table, ids, e) or closed(table, ids, e)
    ],
    ev.DEALT_ITSELF: lambda table, ids, e: [dealt_itself(table, e)],
    ev.LOBBY_REMINDER: lambda table, ids, e: [reminder(table, e)],
    ev.LEFT_OUT: lambda table, ids, e: [left_out(table, e)],
    ev.EXTENDED: lambda table, ids, e: [extended(table, ids, e)],
    ev.SEATING: lambda table, ids, e: [seating(table, ids, e["silence"])],
    ev.PRIVATE: lambda table, ids, e: private_event(table, e["event"], e["version"], e.get("tag")),
    ev.PROMPT: lambda table, ids, e: prompt(
        table, e["version"], e.get("tag"), bool(e.get("group")), e.get("shows")
    ),
    ev.HURRY: _hurry,
    ev.BOARD_OPENED: _board_opened,
    ev.BOARD_SHOWN: _board_shown,
    ev.FINISHED: lambda table, ids, e: [send_group(table, *ending(table, e), remember=END)],
    ev.CANCELLED: _cancelled,
    ev.REMOVED: _removed,
    ev.PROMPT_CLOSED: closed_prompt,
    ev.AWAY: lambda table, ids, e: absence.away(table, e),
    ev.COMING_BACK: absence.coming_back,
    ev.RETURNED: lambda table, ids, e: absence.returned(table, e),
    ev.SEAT_REMOVED: absence.seat_removed,
    ev.LEAVE_ASKED: absence.leave_asked,
    ev.LEAVE_CLOSED: absence.leave_closed,
    ev.LOBBY_REMOVED: absence.lobby_removed,
    ev.BUTTONS_GONE: absence.buttons_gone,
}


def show(table: Table, ids: Ids, events: list[dict], bot: str) -> list[Out]:
    """The messages that show a change's session events, in order (`ids`: the messages to edit,
    kept up to date as they are shown; `bot`: the bot's name, which the lobby's links carry).
    They are rendered from one view of the table, built here."""
    view = View.of(table)
    outs = [out for e in results_in_place(events) for out in _shown(view, ids, e, bot)]
    return [_own_chat(out) for out in outs] if table.practice else outs


def _own_chat(out: Out) -> Out:
    """A practice game's message: in its player's private chat, so protected from forwarding
    as any private message of theirs (the turn message and the lobby included)."""
    return replace(out, protect=True) if isinstance(out, Send | Edit) else out


def results_in_place(events: list[dict]) -> list[dict]:
    """A scout's result shown in the prompt they scouted from, as it closes (a prompt that is
    gone is posted anew with it): the moment brings the scout's chat one new message, the
    invitation to speak, and the result stays where they chose. A scout made from the group is
    told in a new message: they are there, not in the prompt."""
    closing = {
        e["seat"]: i
        for i, e in enumerate(events)
        if e["type"] == ev.PROMPT_CLOSED
        and e["outcome"].get("act") == SCOUT
        and not e["outcome"].get("group")
    }
    shown: list[dict | None] = list(events)
    for i, e in enumerate(events):
        seen = e["event"] if e["type"] == ev.PRIVATE else None
        if seen is not None and seen["type"] == SCOUT_RESULT and seen["to"] in closing:
            where = closing[seen["to"]]
            shown[where] = {**events[where], "result": seen, "tell": True, "quiet": False}
            shown[i] = None
    return [e for e in shown if e is not None]


LOBBY_GONE = (ev.SEATING, ev.LOBBY_EXPIRED, ev.CANCELLED)  # dealt, closed, or cancelled


def _shown(table: Table, ids: Ids, e: dict, bot: str) -> list[Out]:
    """An event's messages; a lobby that goes takes the Join off each private call to it."""
    gone = ids.taking_calls() if e["type"] in LOBBY_GONE else []
    return [*(DropButtons(user, msg) for user, msg in gone), *_shown_one(table, ids, e, bot)]


def _shown_one(table: Table, ids: Ids, e: dict, bot: str) -> list[Out]:
    if e["type"] == ev.LOBBY_OPENED:
        ids.new_game()  # the group's last game: none of its messages is edited again
        lobby_msg = send_group(table, *lobby(table, bot), remember=LOBBY)
        return [lobby_msg] if table.practice else [lobby_msg, hello(table)]
    if e["type"] == ev.LOBBY_SHOWN:
        return [lobby_message(table, ids, bot)]
    if e["type"] == ev.BACK:
        return back(table, ids, e, bot)
    if e["type"] == ev.REACH_SHOWN:
        return warning(table, ids, bot, e.get("removed"), e.get("left", False))
    return _SHOWN[e["type"]](table, ids, e)
