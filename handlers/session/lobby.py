"""The lobby's countdown and who the bot can reach privately before (and while) a game runs."""

from __future__ import annotations

from collections.abc import Collection

from engine import waiting_for
from engine.state import SPEAK, TURN
from handlers.session import events as ev
from handlers.session.base import BOT_CAN_DELETE, LOBBY, PLAYING, Refused
from handlers.session.events import Event
from handlers.session.play import REMIND_BEFORE, REMIND_MIN, Play
from handlers.session.settings import MAX_PLAYERS, MIN_PLAYERS

LOBBY_SECONDS = 3600  # a lobby stays open an hour at most, however often it is extended
EXTEND_SECONDS = 120  # what /extend adds to the countdown
REMIND_LOBBY = 60  # seconds before the countdown ends, the group is reminded once
PROMPT_LOST_LEFT = 30  # seconds left of a wait once its player's prompt could not be sent


class Lobby(Play):
    """A table's lobby side: the countdown that starts or closes it, and the players the bot
    cannot message privately (who would get no card, or, in a game, no prompt)."""

    _dealing: tuple[int | None, bool | None] = (None, None)  # a timer's deal: seed, rights

    # -- reachability ---------------------------------------------------------------------------

    def unreachable(self) -> list[int]:
        """The people at the table the bot could not message privately, as last heard."""
        away = set(self.absences.unreachable)
        return [user for user in self.users() if user in away]

    def blocked(self) -> list[int]:
        """Those of `out_of_touch()` who blocked the bot (Restart opens its chat again; the
        others never opened it: Start)."""
        shut = set(self.absences.blocked)
        return [user for user in self.out_of_touch() if user in shut]

    def reached_again(self) -> list[int]:
        """The players the bot lost in this game and can message again, as the warning says."""
        away = set(self.out_of_touch())
        users = self.users()
        return [u for u in self.absences.reached_again if u in users and u not in away]

    def to_reach(self, users: list[int]) -> list[int]:
        """Those of `users` the table still needs to message privately (not one removed)."""
        return [u for u in dict.fromkeys(users) if u in self.users() and not self.was_removed(u)]

    def lost_touch(self, users: list[int], blocked: Collection[int] = ()) -> bool:
        """Note players a private message failed to reach (`blocked`: those of them who blocked
        the bot); True when any is newly noted."""
        lost, absences = self.to_reach(users), self.absences
        self.absences = absences.lost(lost, blocked)
        return any(u not in absences.unreachable for u in lost)

    def out_of_reach(
        self, users: list[int], blocked: Collection[int], now: float
    ) -> list[Event] | None:
        """A private message failed to reach `users` (`blocked`: those who blocked the bot).
        A lobby names the new ones; a game's one warning is drawn again for them, and the wait
        of a player whose prompt failed is cut to PROMPT_LOST_LEFT. None: nothing changes."""
        new = self.lost_touch(users, blocked)
        if self.status == LOBBY:
            return [ev.event(ev.LOBBY_SHOWN)] if new else None
        if self.status != PLAYING:
            return None
        if new and self.hold is None:
            self._tell_held_backs()
        news = [ev.event(ev.REACH_SHOWN)] if new else []
        news += self._cut_short(users, now)
        return news or None

    def _cut_short(self, users: list[int], now: float) -> list[Event]:
        """The public wait for a player the bot could not prompt ends PROMPT_LOST_LEFT from now,
        when more was left (so once a wait); the turn message shows the new countdown."""
        state, deadline = self.state, self.data.get("deadline")
        if self.hold is not None or state.phase not in (TURN, SPEAK) or deadline is None:
            return []
        seat = waiting_for(state)
        if not seat or self.user_at(seat) not in users or deadline - now <= PROMPT_LOST_LEFT:
            return []
        cut = now + PROMPT_LOST_LEFT
        self.data["deadline"] = cut
        refresh = PROMPT_LOST_LEFT >= REMIND_MIN  # the countdown refreshed once, as any wait's
        self.data["reminder"] = [cut - REMIND_BEFORE, cut] if refresh else None
        return [self.board_shown(PROMPT_LOST_LEFT, redraw=True)]  # not posted again for it

    def back_in_touch(self, user: int) -> list[Event] | None:
        """The player opened the private chat: the group hears they are back (not during a
        secret wait, whose player it might point at), and one marked away meanwhile plays again
        from their next turn; None when they were never away."""
        if user not in self.absences.unreachable:
            return None
        self._reached(user)
        if self.status == LOBBY:
            return [ev.event(ev.BACK, user=user), ev.event(ev.LOBBY_SHOWN)]
        if self.status != PLAYING:
            return []
        if self.hold is not None:
            self.absences = self.absences.back_during_hold(user)
            return self._back_from_away(user)
        self.absences = self.absences.held_backs_told().back_in_touch(user)
        return [ev.event(ev.BACK, user=user), *self._back_from_away(user)]

    def _tell_held_backs(self) -> None:
        """Outside a secret wait, the players back in touch during one are told with the rest."""
        self.absences = self.absences.held_backs_told()

    def _back_from_away(self, user: int) -> list[Event]:
        """A player marked away while the bot could not reach them (they never saw I'm back)
        opened the chat again: they are counted back, as with I'm back."""
        seat = self.seat_of(user)
        return self.come_back(user) if seat and self.is_away(seat) else []

    def _reached(self, user: int) -> None:
        self.absences = self.absences.reached(user)

    # -- the countdown --------------------------------------------------------------------------

    def _count_down(self, until: float, now: float) -> None:
        """The lobby ends at `until` (an hour after it opened at the latest); the group is
        reminded a minute before, when there is a minute to spare."""
        until = min(until, self.data.get("opened", now) + LOBBY_SECONDS)
        self.data["deadline"] = until
        remind = until - REMIND_LOBBY
        self.data["reminder"] = [remind, until] if remind > now else None

    def extend(self, name: str, now: float) -> list[Event]:
        """/extend: the countdown pushed back by a couple of minutes, or what is left of the
        hour (`name` asked; the event says the minutes really added)."""
        news = self.catch_up(now)
        if self.status != LOBBY:
            return news  # the countdown ended first
        deadline = self.data["deadline"]
        self._count_down(deadline + EXTEND_SECONDS, now)
        added = self.data["deadline"] - deadline  # less than asked, under the hour's cap
        if added <= 0:
            raise Refused("extend_max")  # nothing is saved
        minutes = max(1, round(added / 60))
        shown = ev.event(ev.LOBBY_SHOWN)
        return [*news, shown, ev.event(ev.EXTENDED, name=name, minutes=minutes)]

    def starts_itself(self) -> bool:
        """True when the lobby deals at the end of its countdown: auto-start is on and its
        players pressed Join (Play again seats them without asking: someone presses Start)."""
        return bool(self.settings["auto_start"]) and not self.data.get("again_of")

    def deal_with(self, seed: int | None, can_delete: bool | None) -> None:
        """How a lobby whose countdown ends deals: the seed, and the bot's right to delete."""
        self._dealing = (seed, can_delete)

    def deals_without(self, away: list[int]) -> bool:
        """True when enough players would remain to deal without `away`."""
        return len(self.players) - len(away) >= MIN_PLAYERS

    def _leave_out(self, away: list[int]) -> list[Event]:
        """Take the players the bot cannot reach out of the lobby, so the others can play; the
        group is told who and why (and who hosts now, if the host was one of them)."""
        names = self.lobby_names()
        self.data["players"] = [p for p in self.players if p[0] not in away]
        for user in away:
            self._note_lang(user, None)
            self._note_handle(user, None)
            self._reached(user)
        host = None
        if self.data["creator"] in away:
            self._pass_host(None)
            host = self.lobby_names()[self.data["creator"]]
        return [ev.event(ev.LEFT_OUT, names=[names[u] for u in away], host=host)]

    def _pass_host(self, old: str | None) -> None:
        """The host is gone: the next player in lobby order hosts it now (`old`, the name of a
        host who left, is shown in the lobby; None when they were left out of the deal)."""
        self.data["creator"] = self.players[0][0]
        if old is not None:
            self.data["host_left"] = old

    def _remind(self, now: float) -> list[Event]:
        if self.status != LOBBY:
            return super()._remind(now)
        left = max(round((self.data["deadline"] - now) / 60), 1)
        reminder = ev.event(ev.LOBBY_REMINDER, minutes=left, extend=EXTEND_SECONDS // 60)
        if not self.data.get("menu"):
            return [reminder]
        self.data["menu"] = False  # a menu left open: the last minute shows who plays, and Join
        return [ev.event(ev.LOBBY_SHOWN), reminder]

    def _on_deadline(self, now: float) -> list[Event]:
        if self.status != LOBBY:
            return super()._on_deadline(now)
        return self._lobby_ends(now)

    def _lobby_ends(self, now: float) -> list[Event]:
        """The countdown ran out: deal if it may and can (without those the bot cannot reach,
        when enough others remain), else close, saying why."""
        n = len(self.players)
        few = not MIN_PLAYERS <= n <= MAX_PLAYERS
        away = self.unreachable()
        if self.starts_itself() and not few and (not away or self.deals_without(away)):
            left_out = self._leave_out(away) if away else []
            seed, can_delete = self._dealing
            if can_delete is None:
                can_delete = bool(self.data.get(BOT_CAN_DELETE))
            return left_out + self.start(now, seed, can_delete)
        reason = None
        if self.starts_itself():
            reason = "few" if few else "unreachable"
        self._close()
        return [ev.event(ev.LOBBY_EXPIRED, reason=reason, n=n, users=away), *self._leftovers()]
