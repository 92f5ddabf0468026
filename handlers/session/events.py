"""What a change to a group's session says happened, for the Telegram side to show: each a dict
with a "type" from below and the facts it needs, taken when it happened."""

from __future__ import annotations

from typing import Any

from engine import events as kinds

Event = dict[str, Any]

LOBBY_OPENED = "lobby_opened"  # post the lobby message
LOBBY_SHOWN = "lobby_shown"  # redraw the lobby message (the lobby, or the settings menu)
# the lobby closed unstarted: "reason" ("few", "unreachable" or None), "n" players, "users"
# unreachable
LOBBY_EXPIRED = "lobby_expired"
SEATING = "seating"  # the lobby message becomes the seating; "silence": deleting is on
PRIVATE = "private"  # an engine event for one seat; "event", "version" for its buttons
# ask the seat waited for to act: "seat", "version", "tag"; "shows": told above the question
# (the card dealt with the first turn, a scout result), "group": speak in the group, Done there
PROMPT = "prompt"
HURRY = "hurry"  # nudge "seat": "seconds" left
BOARD_OPENED = "board_opened"  # post a new turn message: "board", "seconds"
# redraw the turn message: "board", "seconds", "final", "side"; "redraw": if it is in the chat
BOARD_SHOWN = "board_shown"
FINISHED = "finished"  # the reveal: "resolved" (the engine's event), "seconds", "turns"
# "by" (a name, or None when nobody played), "was_lobby"; a game's also "cards", "set_aside",
# "captains", as they stood; "why": "empty" when nobody was left to play
CANCELLED = "cancelled"
REMOVED = "removed"  # the bot left the group: tell "users" privately
PROMPT_CLOSED = "prompt_closed"  # close "user"'s prompt ("tag") saying "outcome"; "quiet",
# "tell" (a new message, should there be no prompt to edit)
# absent players
AWAY = "away"  # "seat" missed two turns: tell the group, and its player (with I'm back)
COMING_BACK = "coming_back"  # "seat" asked to play again: tell them privately (on I'm back)
RETURNED = "returned"  # "seat" is back as its turn begins: tell the group
# "seat" was removed "by" (a name): tell the group (on the /remove keyboard) and its player;
# an I'm back of theirs loses its button
SEAT_REMOVED = "seat_removed"
# ... or its player left it with /leave ("left": where they confirmed, "group" or "private")
# /leave: "user" (in "seat") is asked to confirm, "where" they sent it ("group" or "private")
LEAVE_ASKED = "leave_asked"
# "user"'s /leave question (asked "where") closes: "why" is "stay", "moved" (the turn moved on),
# "over" (the game ended), "again" (a newer one replaces it) or "removed"
LEAVE_CLOSED = "leave_closed"
# a game starts or ends: the /remove keyboard's buttons go (when the "group" can be written
# to), the I'm back of each "away" seat, and the unreachable warning's button ("reach")
BUTTONS_GONE = "buttons_gone"
LOBBY_REMOVED = "lobby_removed"  # "user" ("name", reads "lang") taken out of the lobby "by"
# the lobby's countdown and players the bot could not reach
LOBBY_REMINDER = "lobby_reminder"  # the countdown ends in "minutes"; /extend adds "extend"
EXTENDED = "extended"  # "name" pushed the countdown back by "minutes"
BACK = "back"  # "user", unreachable before, opened the private chat
# redraw the game's one warning naming the players the bot cannot reach (and those back)
REACH_SHOWN = "reach_shown"
# the countdown deals without players the bot cannot reach: their "names"; "host", the name of
# the player who hosts now when the host was one of them (else None)
LEFT_OUT = "left_out"
# a rematch's countdown dealt it: the "names" dealt, and the names "left" of those who played
# the last game and did not press I'm in
DEALT_ITSELF = "dealt_itself"

# The engine's public events that make a line of the turn message.
BOARD_KINDS = frozenset(
    {
        kinds.SCOUTED,
        kinds.SPEAKS,
        kinds.SWAPPED,
        kinds.TURN_ENDED,
        kinds.PREDICTED,
        kinds.TIMED_OUT,
        kinds.DECAPITATION_ANNOUNCED,
    }
)


def event(kind: str, **facts: Any) -> Event:
    """A session event of `kind` with its facts."""
    return {"type": kind, **facts}
