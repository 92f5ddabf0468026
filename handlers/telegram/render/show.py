"""Session events into messages: what each kind of event looks like to whom."""

from __future__ import annotations

from dataclasses import replace

from engine.actions import SCOUT
from engine.events import SCOUT_RESULT
from handlers.session import events as ev
from handlers.session.table import Table
from handlers.telegram.render import absence
from handlers.telegram.render.board import board, edit_board
from handlers.telegram.render.closed import closed_prompt
from handlers.telegram.render.common import (
    Out,
    edit_ref,
    group_title,
    send_group,
    send_private,
    t_,
)
from handlers.telegram.render.lobby import lobby, lobby_message, seating
from handlers.telegram.render.prompts import private_event, prompt
from handlers.telegram.render.reach import back, closed, extended, hello, left_out, reminder
from handlers.telegram.render.reveal import cancelled, ending


def _cancelled(table: Table, e: dict) -> list[Out]:
    text, kb = cancelled(table, e)
    if e["was_lobby"]:
        return [edit_ref(table, "lobby_msg", text, None)]
    return [send_group(table, text, kb, remember="end_msg")]


def _board_opened(table: Table, e: dict) -> list[Out]:
    out = send_group(table, *board(table, e["board"], e["seconds"]), remember="board")
    return [replace(out, tag=e["board"]["tag"])]


def _board_shown(table: Table, e: dict) -> list[Out]:
    out = edit_board(table, e["board"], e["seconds"], e["final"])
    return [replace(out, side=True) if e["side"] else out]


def _hurry(table: Table, e: dict) -> list[Out]:
    user = table.user_at(e["seat"])
    text = t_(table.speaking_to(user), "hurry", s=e["seconds"])
    return [send_private(user, text, quiet=True)]


def _removed(table: Table, e: dict) -> list[Out]:
    return [
        send_private(user, t_(table.speaking_to(user), "removed", group=group_title(table)))
        for user in e["users"]
    ]


_SHOWN = {
    ev.LOBBY_EXPIRED: lambda table, e: [closed(table, e)],
    ev.LOBBY_REMINDER: lambda table, e: [reminder(table, e)],
    ev.LEFT_OUT: lambda table, e: [left_out(table, e)],
    ev.EXTENDED: lambda table, e: [extended(table, e)],
    ev.BACK: back,
    ev.SEATING: lambda table, e: [seating(table, e["silence"])],
    ev.PRIVATE: lambda table, e: private_event(table, e["event"], e["version"], e.get("tag")),
    ev.PROMPT: lambda table, e: prompt(table, e["version"], e.get("tag")),
    ev.HURRY: _hurry,
    ev.BOARD_OPENED: _board_opened,
    ev.BOARD_SHOWN: _board_shown,
    ev.FINISHED: lambda table, e: [send_group(table, *ending(table, e), remember="end_msg")],
    ev.CANCELLED: _cancelled,
    ev.REMOVED: _removed,
    ev.PROMPT_CLOSED: closed_prompt,
    ev.AWAY: absence.away,
    ev.COMING_BACK: absence.coming_back,
    ev.RETURNED: absence.returned,
    ev.SEAT_REMOVED: absence.seat_removed,
    ev.LOBBY_REMOVED: absence.lobby_removed,
    ev.BUTTONS_GONE: absence.buttons_gone,
}


def show(table: Table, events: list[dict], bot: str) -> list[Out]:
    """The messages that show a change's session events, in order (`bot`: the bot's name,
    which the lobby's links carry)."""
    return [out for e in results_in_place(events) for out in _shown(table, e, bot)]


def results_in_place(events: list[dict]) -> list[dict]:
    """A scout's result shown in the prompt they scouted from, as it closes (a prompt that is
    gone is posted anew with it): the moment brings the scout's chat one new message, the
    invitation to speak, and the result stays where they chose."""
    closing = {
        e["seat"]: i
        for i, e in enumerate(events)
        if e["type"] == ev.PROMPT_CLOSED and e["outcome"].get("act") == SCOUT
    }
    shown: list[dict | None] = list(events)
    for i, e in enumerate(events):
        seen = e["event"] if e["type"] == ev.PRIVATE else None
        if seen is not None and seen["type"] == SCOUT_RESULT and seen["to"] in closing:
            where = closing[seen["to"]]
            shown[where] = {**events[where], "result": seen, "tell": True, "quiet": False}
            shown[i] = None
    return [e for e in shown if e is not None]


def _shown(table: Table, e: dict, bot: str) -> list[Out]:
    if e["type"] == ev.LOBBY_OPENED:
        return [send_group(table, *lobby(table, bot), remember="lobby_msg"), hello(table)]
    if e["type"] == ev.LOBBY_SHOWN:
        return [lobby_message(table, bot)]
    return _SHOWN[e["type"]](table, e)
