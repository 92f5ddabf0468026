"""The /status answer: a lobby's players and settings, or a game as the group may know it."""

from __future__ import annotations

from engine.state import SPEAK, TURN
from handlers.display.render.common import first_round, joined, seat_name, shown_name, t_
from handlers.display.render.lobby import away_names, countdown, variants_list
from handlers.display.render.reveal import timeline
from handlers.session.settings import MAX_PLAYERS, MIN_PLAYERS
from handlers.session.table import LOBBY, Table


def status(table: Table, now: float) -> str:
    """What /status answers in a group with a lobby open or a game in play, as of `now`."""
    if table.status == LOBBY:
        return lobby_status(table)
    return game_status(table, now)


def lobby_status(table: Table) -> str:
    """The players who joined, and the settings the game would be played with."""
    settings = table.settings
    players = table.players
    lines = [t_(table, "status_lobby", n=len(players), min=MIN_PLAYERS, max=MAX_PLAYERS)]
    lines += [f"• {shown_name(name)}" for name in table.lobby_names().values()]
    lines.append(t_(table, "in_play", list=variants_list(table, settings)))
    limits = [("limit_turn", "turn_seconds"), ("limit_speak", "speak_seconds")]
    if settings["turncoat"]:
        limits.append(("limit_turncoat", "turncoat_seconds"))
    if settings["spy"]:
        limits.append(("limit_spy", "spy_seconds"))
    shown = [t_(table, key, s=settings[setting]) for key, setting in limits]
    lines.append(t_(table, "status_limits", list=joined(table, shown)))
    chatter = t_(table, "on" if settings["delete_chatter"] else "off")
    lines.append(t_(table, "set_delete_chatter", v=chatter))
    if table.unreachable():
        lines.append(t_(table, "status_unreachable", names=away_names(table, table.unreachable())))
    lines += [line for line in (countdown(table),) if line]
    return "\n".join(lines)


def game_status(table: Table, now: float) -> str:
    """The seating circle, whose turn it is and what they are doing, the time left of the
    current wait, and what is public so far. During a secret wait (a Turncoat's window, the
    Spy's guess) it tells only what the group was told: who scouted or who announced a
    decapitation, and when the wait ends."""
    state = table.state
    lines = [t_(table, "status_game")]
    for seat in range(1, state.seats + 1):
        tag = t_(table, "virtual_tag") if state.virtual[seat - 1] else ""
        if table.is_removed(seat) or table.is_away(seat):
            tag = t_(table, _tag(table, seat))
        lines.append(f"{seat_name(table, seat)}{tag}")
    lines.append(t_(table, "in_play", list=variants_list(table, table.settings)))
    lines.append(t_(table, f"status_{now_doing(table)}", name=seat_name(table, state.turn)))
    deadline = table.deadline()
    if deadline is not None:
        lines.append(t_(table, "status_left", s=max(int(deadline - now), 0)))
    public = timeline(table, table.public_state())
    lines += [t_(table, "status_so_far"), *public] if public else [t_(table, "status_nothing")]
    return "\n".join(lines)


def now_doing(table: Table) -> str:
    """What the seat whose turn it is is doing, as the group knows it: its turn, its speaking
    moment, or the wait that follows its scout (a Turncoat's window) or its decapitation (the
    Spy's guess), whether or not anyone decides in that wait."""
    phase, held = table.state.phase, table.hold is not None
    if phase == TURN and not held:
        return "turn_first" if first_round(table.state, table.state.turn) else "turn"
    if phase == SPEAK and not held:
        return "speak"
    if table.state.decapitation is not None:
        return "sealed"
    return "scouted"


def _tag(table: Table, seat: int) -> str:
    """The key of the mark after a seat whose player is not playing: left, removed or away."""
    if table.has_left(seat):
        return "left_tag"
    return "removed_tag" if table.is_removed(seat) else "away_tag"
