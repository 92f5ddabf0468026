"""Who the bot can reach privately before and while a game runs: a player it cannot message
would get no card, or, in a game, no prompt."""

from __future__ import annotations

from collections.abc import Collection

from engine import waiting_for
from engine.state import SPEAK, TURN
from handlers.session import events as ev
from handlers.session.base import LOBBY, PLAYING, Part
from handlers.session.events import Event

PROMPT_LOST_LEFT = 30  # seconds left of a wait once its player's prompt could not be sent


class Reach(Part):
    """The players the bot cannot message privately, as last heard, and what it does about it."""

    def unreachable(self) -> list[int]:
        """The people at the table the bot could not message privately, as last heard."""
        away = set(self.record.absences.unreachable)
        return [user for user in self.table.users() if user in away]

    def blocked(self) -> list[int]:
        """Those of `out_of_touch()` who blocked the bot (Restart opens its chat again; the
        others never opened it: Start)."""
        shut = set(self.record.absences.blocked)
        return [user for user in self.table.absence.out_of_touch() if user in shut]

    def reached_again(self) -> list[int]:
        """The players the bot lost in this game and can message again, as the warning says."""
        away = set(self.table.absence.out_of_touch())
        users = self.table.users()
        return [u for u in self.record.absences.reached_again if u in users and u not in away]

    def to_reach(self, users: list[int]) -> list[int]:
        """Those of `users` the table still needs to message privately (not one removed)."""
        table, gone = self.table, self.table.absence.was_removed
        return [u for u in dict.fromkeys(users) if u in table.users() and not gone(u)]

    def lost_touch(self, users: list[int], blocked: Collection[int] = ()) -> bool:
        """Note players a private message failed to reach (`blocked`: those of them who blocked
        the bot); True when any is newly noted."""
        lost, absences = self.to_reach(users), self.record.absences
        self.record.absences = absences.lost(lost, blocked)
        return any(u not in absences.unreachable for u in lost)

    def out_of_reach(
        self, users: list[int], blocked: Collection[int], now: float
    ) -> list[Event] | None:
        """A private message failed to reach `users` (`blocked`: those who blocked the bot).
        A lobby names the new ones; a game's one warning is drawn again for them, and the wait
        of a player whose prompt failed is cut to PROMPT_LOST_LEFT. None: nothing changes."""
        new = self.lost_touch(users, blocked)
        status = self.table.status
        if status == LOBBY:
            return [ev.event(ev.LOBBY_SHOWN)] if new else None
        if status != PLAYING:
            return None
        if new and self.table.hold is None:
            self.tell_held_backs()
        news = [ev.event(ev.REACH_SHOWN)] if new else []
        news += self._cut_short(users, now)
        return news or None

    def _cut_short(self, users: list[int], now: float) -> list[Event]:
        """The public wait for a player the bot could not prompt ends PROMPT_LOST_LEFT from now,
        when more was left (so once a wait); the turn message shows the new countdown."""
        table, deadline = self.table, self.record.deadline
        state = table.state
        if table.hold is not None or state.phase not in (TURN, SPEAK) or deadline is None:
            return []
        seat = waiting_for(state)
        if not seat or table.user_at(seat) not in users or deadline - now <= PROMPT_LOST_LEFT:
            return []
        table.play.wait(PROMPT_LOST_LEFT, now)  # the countdown refreshed once, as any wait's
        return [table.board.shown(PROMPT_LOST_LEFT, redraw=True)]  # not posted again for it

    def back_in_touch(self, user: int) -> list[Event] | None:
        """The player opened the private chat: the group hears they are back (not during a
        secret wait, whose player it might point at), and one marked away meanwhile plays again
        from their next turn; None when they were never away."""
        if user not in self.record.absences.unreachable:
            return None
        self.reached(user)
        status = self.table.status
        if status == LOBBY:
            return [ev.event(ev.BACK, user=user), ev.event(ev.LOBBY_SHOWN)]
        if status != PLAYING:
            return []
        if self.table.hold is not None:
            self.record.absences = self.record.absences.back_during_hold(user)
            return self._back_from_away(user)
        self.record.absences = self.record.absences.held_backs_told().back_in_touch(user)
        return [ev.event(ev.BACK, user=user), *self._back_from_away(user)]

    def tell_held_backs(self) -> None:
        """Outside a secret wait, the players back in touch during one are told with the rest."""
        self.record.absences = self.record.absences.held_backs_told()

    def _back_from_away(self, user: int) -> list[Event]:
        """A player marked away while the bot could not reach them (they never saw I'm back)
        opened the chat again: they are counted back, as with I'm back."""
        table = self.table
        seat = table.seat_of(user)
        return table.absence.come_back(user) if seat and table.absence.is_away(seat) else []

    def heard_blocked(self, user: int, shut: bool) -> bool:
        """Telegram said a player blocked the bot (`shut`) or unblocked it: noted privately, for
        a scout pressed in the group to be refused at once. True when the note changes."""
        absences = self.record.absences
        if not self.table.is_player(user) or (user in absences.shut_out) == shut:
            return False
        self.record.absences = absences.shut(user) if shut else absences.opened(user)
        return True

    def cannot_reach(self, user: int) -> bool:
        """The bot knows it cannot message `user`: they blocked it (as Telegram said, or as a
        private message found)."""
        return user in self.record.absences.shut_out or user in self.blocked()

    def reached(self, user: int) -> None:
        """The bot can message `user` privately (they opened the chat, or left the table)."""
        self.record.absences = self.record.absences.reached(user)
