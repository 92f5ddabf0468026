"""The rematch as the group sees it: who is in and who is awaited, its countdown and I'm in,
and how it dealt itself or closed."""

from __future__ import annotations

from handlers.display.ids import LOBBY as LOBBY_MSG
from handlers.display.ids import Ids
from handlers.display.presses import LOBBY, ImIn
from handlers.display.render.common import (
    Keyboard,
    Out,
    button,
    edit_ref,
    joined,
    send_group,
    shown_name,
    t_,
    time_of_day,
)
from handlers.session.lobby import EXTEND_SECONDS
from handlers.session.settings import MIN_PLAYERS
from handlers.session.table import Table


def rematch_lines(table: Table) -> list[str]:
    """Who is in for the next game, and who of the last is awaited (nothing but in a rematch)."""
    if not table.rematch.is_on():
        return []
    names = table.lobby_names()
    awaited = table.rematch.awaited()
    ins = [shown_name(names[user]) for user, _ in table.rematch.players_in()]
    lines = [t_(table, "rematch_in", names=joined(table, ins) or t_(table, "rematch_nobody"))]
    if awaited:
        waiting = joined(table, [shown_name(names[user]) for user in awaited])
        lines.append(t_(table, "rematch_waiting", names=waiting))
    return lines


def rematch_countdown(table: Table) -> str | None:
    """When a rematch deals itself (None: no rematch)."""
    if not table.rematch.is_on():
        return None
    if not table.rematch.awaited():
        return t_(table, "rematch_all_in")
    when = time_of_day(table, table.deadline() or 0)
    return t_(table, "rematch_countdown", time=when, min=MIN_PLAYERS, m=EXTEND_SECONDS // 60)


def with_im_in(table: Table, kb: Keyboard) -> Keyboard:
    """The lobby's keyboard, with I'm in first while someone of the last game is awaited."""
    if not table.rematch.is_on() or not table.rematch.awaited():
        return kb
    return [[button(t_(table, "btn_im_in"), LOBBY, table, 0, ImIn())], *kb]


def dealt_itself(table: Table, e: dict) -> Out:
    """The group told that the rematch dealt itself: who plays, and who was not in."""
    lines = [t_(table, "rematch_dealt", names=joined(table, [shown_name(n) for n in e["names"]]))]
    if e["left"]:
        left = joined(table, [shown_name(name) for name in e["left"]])
        lines.append(t_(table, "rematch_dealt_left", names=left))
    return send_group(table, "\n".join(lines), None)


def rematch_closed(table: Table, ids: Ids, e: dict) -> Out | None:
    """The lobby message of a rematch its countdown closed for want of players (None: no
    rematch's): why, and no buttons."""
    if not table.record.rematch or e.get("reason") != "few":
        return None
    seats = e["n"] + table.settings.get("bot_seats", 0)
    text = t_(table, "rematch_closed_few", n=seats, min=MIN_PLAYERS)
    return edit_ref(table, ids, LOBBY_MSG, text, None)
