"""The rematch: the lobby Play again opens deals itself. Those who played are seated and asked
to press I'm in; when all have, or when its short countdown ends with seats enough among those
in, the lobby's deadline deals it (the timer's wake, as any countdown's)."""

from __future__ import annotations

from handlers.session import events as ev
from handlers.session.base import LOBBY, Part, Refused
from handlers.session.events import Event
from handlers.session.settings import seats_fit

REMATCH_SECONDS = 60  # a rematch deals itself this long after Play again, with seats enough


class Rematch(Part):
    """A rematch lobby's side: who of the last game is still awaited, and when it deals."""

    def open(self, awaited: list[int], now: float) -> None:
        """The lobby Play again opened is a rematch: `awaited` are seated but not yet in, and
        it deals itself within `REMATCH_SECONDS` (at once, should nobody be awaited)."""
        self.record.rematch = True
        self.record.awaited = list(awaited)
        self.table.lobby.count_down(now + REMATCH_SECONDS, now)
        self._all_in(now)

    def is_on(self) -> bool:
        """True when the table is a rematch lobby."""
        return self.table.status == LOBBY and self.record.rematch

    def awaits(self, game: int, user: int) -> bool:
        """True when `user` played `game` and is awaited in the rematch it opened (a second
        Play again of theirs is their I'm in)."""
        return self.is_on() and self.record.again_of == game and user in self.record.awaited

    def im_in(self, user: int, now: float) -> list[Event]:
        """`user` pressed I'm in: no longer awaited; when nobody is, the rematch deals now."""
        if not self.is_on():
            raise Refused("lobby_gone")
        if not self.table.is_player(user):
            raise Refused("rematch_join")
        if user not in self.record.awaited:
            raise Refused("rematch_already_in")
        self.record.awaited.remove(user)
        self._all_in(now)
        return self.table.lobby.shown(menu=False)

    def awaited(self) -> list[int]:
        """Those of the last game seated here who have not pressed I'm in (nobody, but in a
        rematch)."""
        if not self.record.rematch:
            return []
        return [user for user in self.record.awaited if self.table.is_player(user)]

    def _all_in(self, now: float) -> None:
        """Everyone who played is in: the countdown ends now (the timer deals it)."""
        deadline = self.record.deadline
        if not self.awaited() and (deadline is None or deadline > now):
            self.record.deadline = now
            self.record.reminder = None

    def left(self, user: int, now: float) -> None:
        """`user` left the lobby at `now`: no longer awaited; when nobody else is, the rematch
        deals now."""
        if user in self.record.awaited:
            self.record.awaited.remove(user)
        if self.is_on():
            self._all_in(now)

    def players_in(self) -> list[list]:
        """The lobby's players its countdown would deal: those not awaited."""
        awaited = self.awaited()
        return [p for p in self.table.players if p[0] not in awaited]

    def deals(self) -> bool:
        """True when its countdown may deal: the players in (with the bot seats) fit a game."""
        return seats_fit(len(self.players_in()), self.record.settings)

    def drop_awaited(self) -> list[Event]:
        """The countdown deals: those still awaited are taken out of the lobby (the host, if
        one of them, passes to the next in); the group is told who is dealt and who is not."""
        table, roster = self.table, self.record.roster
        names, awaited = table.lobby_names(), self.awaited()
        left = [names[user] for user in awaited]
        roster.players = [p for p in roster.players if p[0] not in awaited]
        for user in awaited:
            table.note_lang(user, None)
            table.note_handle(user, None)
        if roster.creator in awaited and roster.players:
            roster.creator = roster.players[0][0]
        self.record.awaited = []
        dealt = [names[user] for user, _ in roster.players]
        return [ev.event(ev.DEALT_ITSELF, names=dealt, left=left)]

    def dealt(self) -> None:
        """The rematch is dealt (by its countdown or by Start): the next lobby is no rematch
        until its own Play again."""
        self.record.rematch = False
        self.record.awaited = []
