"""What a change to a group's session says happened, for the Telegram side to show.

Each is a dict with a "type" from below and the facts it needs, taken when it happened (a turn
message's lines, the version buttons carry), so showing it later shows it as it was.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]

LOBBY_OPENED = "lobby_opened"  # post the lobby message
LOBBY_SHOWN = "lobby_shown"  # redraw the lobby message (the lobby, or the settings menu)
# the lobby closed unstarted: "reason" ("few", "unreachable" or None), "n" players, "users"
# unreachable
LOBBY_EXPIRED = "lobby_expired"
SEATING = "seating"  # the lobby message becomes the seating; "silence": deleting is on
PRIVATE = "private"  # an engine event for one seat; "event", "version" for its buttons
PROMPT = "prompt"  # ask the seat waited for to act; "version"
TIMED_OUT = "timed_out"  # tell "seat" its wait ran out; "quiet" for a secret wait
HURRY = "hurry"  # nudge "seat": "seconds" left
BOARD_OPENED = "board_opened"  # post a new turn message: "board", "seconds"
BOARD_SHOWN = "board_shown"  # redraw the turn message: "board", "seconds", "final", "side"
FINISHED = "finished"  # the reveal: "resolved" (the engine's event), "seconds", "turns"
# "by" (a name, or None when nobody played), "was_lobby"; a game's also "cards", "set_aside",
# "captains", as they stood
CANCELLED = "cancelled"
REMOVED = "removed"  # the bot left the group: tell "users" privately
# the lobby's countdown and players the bot could not reach
LOBBY_REMINDER = "lobby_reminder"  # the countdown ends in "minutes"; /extend adds "extend"
EXTENDED = "extended"  # "name" pushed the countdown back by "minutes"
BACK = "back"  # "user", unreachable before, opened the private chat

# The engine's public events that make a line of the turn message.
BOARD_KINDS = frozenset(
    {
        "scouted",
        "speak",
        "swapped",
        "turn_ended",
        "predicted",
        "timed_out",
        "decapitation_announced",
    }
)


def event(kind: str, **facts: Any) -> Event:
    """A session event of `kind` with its facts."""
    return {"type": kind, **facts}
