"""The private prompts a game has open: one a player at most, each closed when its wait ends."""

from __future__ import annotations

from engine.state import SPY_PHASE, TURNCOAT
from handlers.session import events as ev
from handlers.session.base import Seats
from handlers.session.events import Event

PREFIX = "prompt."
QUIET = (TURNCOAT, SPY_PHASE)  # the secret waits: their player's prompt tells the group nothing


def prompt_ref(user: int, tag: int) -> str:
    """The name a prompt's message id is remembered by."""
    return f"{PREFIX}{user}.{tag}"


def remember_prompt(data: dict, ref: str, message_id: int) -> bool:
    """Keep a just-sent prompt's message id, if `ref` names a prompt (True) and it is still the
    open one (else the id is dropped: that prompt is closed already)."""
    if not ref.startswith(PREFIX):
        return False
    user, _, tag = ref[len(PREFIX) :].partition(".")
    open_ = (data.get("prompts") or {}).get(user)
    if open_ is not None and str(open_["tag"]) == tag:
        open_["msg"] = message_id
    return True


class Prompts(Seats):
    """The open private prompts of a table's game."""

    def _open_prompt(self, seat: int) -> int | None:
        """Note a prompt sent to `seat`'s player now (for the wait the game is in); its tag,
        or None for a virtual seat."""
        user = self.user_at(seat)
        if not user:
            return None
        tag = self.data.get("prompt_tags", 0) + 1
        self.data["prompt_tags"] = tag
        quiet = self.state.phase in QUIET
        self.data.setdefault("prompts", {})[str(user)] = {"tag": tag, "msg": None, "quiet": quiet}
        return tag

    def open_prompt_of(self, user: int) -> dict | None:
        """The prompt `user` has open: its tag and message id, or None."""
        return (self.data.get("prompts") or {}).get(str(user))

    def note_pressed(self, user: int, message_id: int) -> None:
        """A button on `message_id` was pressed: that message is `user`'s open prompt (even
        one the table did not note, so that the decision closes it)."""
        quiet = self.state.phase in QUIET
        open_ = self.data.setdefault("prompts", {}).setdefault(
            str(user), {"tag": None, "msg": None, "quiet": quiet}
        )
        open_["msg"] = message_id

    def _close_prompt(self, seat: int, outcome: dict, tell: bool = False) -> list[Event]:
        """Close `seat`'s open prompt, saying `outcome` (an action's record, a wait that ran
        out, the game's end). `tell`: say it in a new message should there be no prompt to
        edit (a wait that ran out)."""
        user = self.user_at(seat)
        if not user:
            return []
        open_ = (self.data.get("prompts") or {}).pop(str(user), None)
        if open_ is None and not tell:
            return []
        facts = open_ or {"tag": None, "msg": None, "quiet": outcome.get("phase") in QUIET}
        return [
            ev.event(
                ev.PROMPT_CLOSED,
                user=user,
                seat=seat,
                tag=facts["tag"],
                msg=facts["msg"],
                quiet=facts["quiet"],
                outcome=outcome,
                tell=tell,
            )
        ]

    def _close_prompts(self, outcome: dict) -> list[Event]:
        """Close every prompt still open (the game ends)."""
        news: list[Event] = []
        for user in list(self.data.get("prompts") or {}):
            seat = self.seat_of(int(user))
            if seat is None:
                self.data["prompts"].pop(user)
                continue
            news += self._close_prompt(seat, outcome)
        return news
