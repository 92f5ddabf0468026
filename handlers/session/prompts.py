"""The private prompts a game has open: one a player at most, each closed when its wait ends."""

from __future__ import annotations

from engine.state import SPY_PHASE, TURNCOAT
from handlers.session import events as ev
from handlers.session.base import Seats
from handlers.session.events import Event

QUIET = (TURNCOAT, SPY_PHASE)  # the secret waits: their player's prompt tells the group nothing


class Prompts(Seats):
    """The open private prompts of a table's game."""

    def _open_prompt(self, seat: int, shows: dict | None = None) -> int | None:
        """Note a prompt sent to `seat`'s player now (for the wait the game is in); its tag,
        or None for a virtual seat. `shows`: the scout result it tells, kept when it closes."""
        user = self.user_at(seat)
        if not user:
            return None
        tag = self.data.get("prompt_tags", 0) + 1
        self.data["prompt_tags"] = tag
        quiet = self.state.phase in QUIET
        noted = {"tag": tag, "quiet": quiet}
        if shows is not None:
            noted["shows"] = shows
        self.data.setdefault("prompts", {})[str(user)] = noted
        return tag

    def open_prompt_of(self, user: int) -> dict | None:
        """The prompt `user` has open: its tag, or None."""
        return (self.data.get("prompts") or {}).get(str(user))

    def note_pressed(self, user: int) -> int | None:
        """A prompt's button was pressed: `user` has a prompt open (even one the table did not
        note, so that the decision closes it); its tag (None for one not noted)."""
        quiet = self.state.phase in QUIET
        prompts = self.data.setdefault("prompts", {})
        return prompts.setdefault(str(user), {"tag": None, "quiet": quiet})["tag"]

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
        facts = open_ or {"tag": None, "quiet": outcome.get("phase") in QUIET}
        shows = {"shows": facts["shows"]} if facts.get("shows") else {}
        return [
            ev.event(
                ev.PROMPT_CLOSED,
                user=user,
                seat=seat,
                tag=facts["tag"],
                quiet=facts["quiet"],
                outcome=outcome,
                tell=tell,
                **shows,
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
