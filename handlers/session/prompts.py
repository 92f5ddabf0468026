"""The private prompts a game has open: one a player at most, each closed when its wait ends."""

from __future__ import annotations

from engine.state import SPY_PHASE, TURNCOAT
from handlers.session import events as ev
from handlers.session.base import Part
from handlers.session.events import Event
from handlers.session.record import OpenPrompt

QUIET = (TURNCOAT, SPY_PHASE)  # the secret waits: their player's prompt tells the group nothing


class Prompts(Part):
    """The open private prompts of a table's game (the record's `prompts`, by user)."""

    def open(self, seat: int, shows: dict | None = None) -> int | None:
        """Note a prompt sent to `seat`'s player now (for the wait the game is in); its tag,
        or None for a virtual seat. `shows`: the private event it tells above its question
        (the deal's card, a scout result), kept when it closes."""
        user = self.table.user_at(seat)
        if not user:
            return None
        record = self.record
        record.prompt_tags += 1
        quiet = self.table.state.phase in QUIET
        record.prompts[str(user)] = OpenPrompt(record.prompt_tags, quiet, shows)
        return record.prompt_tags

    def of(self, user: int) -> OpenPrompt | None:
        """The prompt `user` has open, or None."""
        return self.record.prompts.get(str(user))

    def note_pressed(self, user: int) -> int | None:
        """A prompt's button was pressed: `user` has a prompt open (even one the table did not
        note, so that the decision closes it); its tag (None for one not noted)."""
        quiet = self.table.state.phase in QUIET
        return self.record.prompts.setdefault(str(user), OpenPrompt(None, quiet)).tag

    def close(self, seat: int, outcome: dict, tell: bool = False) -> list[Event]:
        """Close `seat`'s open prompt, saying `outcome` (an action's record, a wait that ran
        out, the game's end). `tell`: say it in a new message should there be no prompt to
        edit (a wait that ran out)."""
        user = self.table.user_at(seat)
        if not user:
            return []
        open_ = self.record.prompts.pop(str(user), None)
        if open_ is None and not tell:
            return []
        facts = open_ or OpenPrompt(None, outcome.get("phase") in QUIET)
        shows = {"shows": facts.shows} if facts.shows else {}
        return [
            ev.event(
                ev.PROMPT_CLOSED,
                user=user,
                seat=seat,
                tag=facts.tag,
                quiet=facts.quiet,
                outcome=outcome,
                tell=tell,
                **shows,
            )
        ]

    def close_all(self, outcome: dict) -> list[Event]:
        """Close every prompt still open (the game ends)."""
        news: list[Event] = []
        for user in list(self.record.prompts):
            seat = self.table.seat_of(int(user))
            if seat is None:
                self.record.prompts.pop(user)
                continue
            news += self.close(seat, outcome)
        return news
