"""The Telegram side's part of a group's stored item: the ids of the messages it keeps for later
edits (the lobby message, the turn message, each open private prompt, the end, the /remove
keyboard, each away player's I'm back, the game's warning naming who the bot cannot reach), who
the bot reached privately in the lobby, with the codec of their stored form.

The session knows none of them: it says which turn message (its tag) and which prompts (their
tags) are open; this part says which Telegram messages show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.codec import newer_form

if TYPE_CHECKING:
    from collections.abc import Mapping

    from handlers.session.table import Table
    from handlers.storage.envelope import Posted

FORM = 2  # the stored form written; an item stored before had the ids among the session's data
APART = 2  # the first form of this part (before it, the ids were among the session's data)

# The names an owed message remembers its new id by (its `remember` or `ref`).
LOBBY, BOARD, END, REMOVE = "lobby_msg", "board", "end_msg", "remove_msg"
EXTEND = "extend_msg"  # the lobby's /extend line, rewritten by each /extend after the first
REACH = "reach_msg"  # the game's warning naming the players the bot cannot reach privately
PROMPT, AWAY = "prompt.", "away_msg_"
LEAVING = "leave_msg_"  # a player's /leave question, by user
REACHED = "reached."  # a lobby's private greeting or welcome, by user: the bot reached them
CALL = "call_msg_"  # the private call to a lobby (its Join) of someone waiting for it, by user


def prompt_ref(user: int, tag: int | None) -> str:
    """The name a prompt's message id is remembered by."""
    return f"{PROMPT}{user}.{tag}"


def leave_ref(user: int) -> str:
    """The name a player's /leave question is remembered by."""
    return f"{LEAVING}{user}"


def reached_ref(user: int) -> str:
    """The name a lobby's private greeting (the host's) or welcome (a joiner's) goes by."""
    return f"{REACHED}{user}"


def call_ref(user: int) -> str:
    """The name the private call telling `user` the lobby is open is remembered by."""
    return f"{CALL}{user}"


def away_ref(seat: int) -> str:
    """The name an away seat's private message (with I'm back) is remembered by."""
    return f"{AWAY}{seat}"


@dataclass
class Ids:
    """The ids of a group's messages the bot will edit again (None: not sent, or not known
    yet). An id arriving for a prompt closed meanwhile, or for a turn message no longer
    current, is not kept (see `folded`)."""

    lobby: int | None = None
    board: int | None = None
    board_tag: int | None = None  # the session's tag of the turn message `board` shows
    prompts: dict[str, int] = field(default_factory=dict)  # an open prompt's ref -> its id
    end: int | None = None
    remove: int | None = None
    away: dict[int, int] = field(default_factory=dict)  # seat -> its I'm back message
    extend: int | None = None
    reach: int | None = None
    leaving: dict[int, int] = field(default_factory=dict)  # user -> their /leave question
    reached: dict[int, int] = field(default_factory=dict)  # user -> the game greeting them
    calls: dict[int, int] = field(default_factory=dict)  # user -> their call to the lobby

    def reached_in(self, game: int) -> set[int]:
        """The users the bot wrote to privately in game `game`'s lobby (a greeting delivered)."""
        return {user for user, greeted in self.reached.items() if greeted == game}

    # -- which message a name stands for ------------------------------------------------------

    def of(self, ref: str | None) -> int | None:
        """The id remembered by `ref`, or None."""
        if ref == LOBBY:
            return self.lobby
        if ref == BOARD:
            return self.board
        if ref == END:
            return self.end
        if ref == REMOVE:
            return self.remove
        if ref == EXTEND:
            return self.extend
        if ref == REACH:
            return self.reach
        if ref and ref.startswith(PROMPT):
            return self.prompts.get(ref)
        if ref and ref.startswith(AWAY):
            return self.away.get(int(ref[len(AWAY) :]))
        if ref and ref.startswith(LEAVING):
            return self.leaving.get(int(ref[len(LEAVING) :]))
        if ref and ref.startswith(CALL):
            return self.calls.get(int(ref[len(CALL) :]))
        return None

    def opening_board(self, tag: int) -> None:
        """A new turn message (tagged `tag`) is on its way: the previous one is not current."""
        self.board, self.board_tag = None, tag

    def pressed(self, user: int, tag: int | None, message_id: int) -> None:
        """A button was pressed on `message_id`: it shows `user`'s open prompt (tagged `tag`)."""
        self.prompts[prompt_ref(user, tag)] = message_id

    def closing_prompt(self, ref: str | None) -> int | None:
        """The prompt is closed: its id (if known) for the edit that closes it."""
        return self.prompts.pop(ref, None) if ref else None

    def taking_away(self, seat: int) -> int | None:
        """The seat's I'm back message loses its button: its id, if known."""
        return self.away.pop(seat, None)

    def taking_leave(self, user: int) -> int | None:
        """The user's /leave question is answered or expires: its id, if known."""
        return self.leaving.pop(user, None)

    def taking_calls(self) -> list[tuple[int, int]]:
        """The lobby is gone: each call to it (user, message id) loses its Join."""
        calls, self.calls = list(self.calls.items()), {}
        return calls

    def taking_remove(self) -> int | None:
        """The /remove keyboard is used up: its id, if known."""
        remove, self.remove = self.remove, None
        return remove

    def moved(self) -> None:
        """The group became a supergroup: none of the old chat's messages is in the new one."""
        self.lobby = self.board = self.end = self.remove = self.extend = self.reach = None

    def new_game(self) -> None:
        """A new lobby replaces the group's last game: none of its messages is edited again."""
        self.__init__()

    # -- ids delivered since ----------------------------------------------------------------

    def folded(
        self, posted: Mapping[str, Posted], table: Table | None, game: int | None = None
    ) -> Ids:
        """These ids with those of messages delivered since the last change taken in (`posted`,
        by the name each is remembered by): only the table's game's (`game`, when the caller
        has it at hand); a turn message's only while it is the current one, a prompt's only
        while the table has that prompt open."""
        if table is None:
            return self
        game = table.game if game is None else game
        for ref, delivered in posted.items():
            message_id, tag = delivered.msg, delivered.board_tag
            if delivered.game != game:
                continue
            if ref == BOARD:
                if tag is not None and tag == self.board_tag:
                    self.board = message_id
            elif ref.startswith(PROMPT):
                user, _, tag_ = ref[len(PROMPT) :].partition(".")
                open_ = table.open_prompt_of(int(user))
                if open_ is not None and str(open_.tag) == tag_:
                    self.prompts[ref] = message_id
            elif ref.startswith(AWAY):
                self.away[int(ref[len(AWAY) :])] = message_id
            elif ref.startswith(LEAVING):
                user = int(ref[len(LEAVING) :])
                if table.leaving_asked(user) is not None:
                    self.leaving[user] = message_id
            elif ref.startswith(REACHED):
                self.reached[int(ref[len(REACHED) :])] = game
            elif ref.startswith(CALL):
                self.calls[int(ref[len(CALL) :])] = message_id
            elif ref == LOBBY:
                self.lobby = message_id
            elif ref == END:
                self.end = message_id
            elif ref == REMOVE:
                self.remove = message_id
            elif ref == EXTEND:
                self.extend = message_id
            elif ref == REACH:
                self.reach = message_id
        return self

    # -- the stored form ----------------------------------------------------------------------

    def to_stored(self) -> dict[str, Any]:
        """The part as the item stores it."""
        stored: dict[str, Any] = {"form": FORM}
        for name in ("lobby", "board", "board_tag", "end", "remove", "extend", "reach"):
            if getattr(self, name) is not None:
                stored[name] = getattr(self, name)
        if self.prompts:
            stored["prompts"] = dict(self.prompts)
        if self.away:
            stored["away"] = {str(seat): msg for seat, msg in self.away.items()}
        if self.leaving:
            stored["leaving"] = {str(user): msg for user, msg in self.leaving.items()}
        if self.reached:
            stored["reached"] = {str(user): game for user, game in self.reached.items()}
        if self.calls:
            stored["calls"] = {str(user): msg for user, msg in self.calls.items()}
        return stored

    @classmethod
    def from_stored(cls, stored: dict[str, Any] | None) -> Ids:
        """The part as stored (None: nothing yet); an item stored before this form kept the
        ids among the session's data, and is read from there once. Keys this form does not
        know are let go; a newer form raises `NewerForm` (the item is left as it is)."""
        if not stored:
            return cls()
        newer_form(stored.get("form"), FORM, "the Telegram side's part")
        if not isinstance(stored.get("form"), int) or stored["form"] < APART:
            return cls._from_before(stored)
        return cls(
            lobby=stored.get("lobby"),
            board=stored.get("board"),
            board_tag=stored.get("board_tag"),
            prompts=dict(stored.get("prompts") or {}),
            end=stored.get("end"),
            remove=stored.get("remove"),
            away={int(seat): msg for seat, msg in (stored.get("away") or {}).items()},
            extend=stored.get("extend"),
            reach=stored.get("reach"),  # absent from an item stored before the warning had one
            leaving={int(user): msg for user, msg in (stored.get("leaving") or {}).items()},
            reached={int(user): game for user, game in (stored.get("reached") or {}).items()},
            calls={int(user): msg for user, msg in (stored.get("calls") or {}).items()},
        )

    @classmethod
    def _from_before(cls, data: dict[str, Any]) -> Ids:
        """The ids of an item the version before stored: `lobby_msg`, the board's `msg` and
        `tag`, each open prompt's `msg` beside its `tag`, `end_msg`, `remove_msg`, and an away
        seat's `away_msg_<seat>`."""
        board = data.get("board") or {}
        prompts = {
            prompt_ref(int(user), open_["tag"]): open_["msg"]
            for user, open_ in (data.get("prompts") or {}).items()
            if open_.get("msg") is not None
        }
        away = {
            int(key[len(AWAY) :]): msg
            for key, msg in data.items()
            if key.startswith(AWAY) and msg is not None
        }
        return cls(
            lobby=data.get("lobby_msg"),
            board=board.get("msg"),
            board_tag=board.get("tag"),
            prompts=prompts,
            end=data.get("end_msg"),
            remove=data.get("remove_msg"),
            away=away,
            extend=data.get(EXTEND),
        )
