"""Players who are not there: marked away after two missed turns, or removed by the host; their
turns pass at once."""

from __future__ import annotations

from engine.state import TURN
from handlers.session import events as ev
from handlers.session.base import LOBBY, PLAYING, Refused
from handlers.session.board import Board
from handlers.session.events import Event

MISSED_TO_AWAY = 2  # turn timeouts in a row that mark a player away


class Absence(Board):
    """Who is away, asked to come back or removed, by seat, and the turns each has missed in a
    row (the table's `absences`)."""

    def is_removed(self, seat: int) -> bool:
        """True when the host or an admin removed the seat's player."""
        return seat in self.absences.removed

    def has_left(self, seat: int) -> bool:
        """True when the seat's player left the game themselves (/leave): removed, by their own
        choice."""
        return seat in self.absences.left

    def gone(self, seat: int) -> Refused:
        """The refusal for a seat's player no longer playing: they left, or were removed."""
        return Refused("you_left" if self.has_left(seat) else "you_were_removed")

    def was_removed(self, user: int) -> bool:
        """True when `user` was removed from the game (their buttons are refused)."""
        seat = self.seat_of(user)
        return seat is not None and self.is_removed(seat)

    def plays_again(self) -> list[list]:
        """Who Play again seats in the next lobby: the lobby's players but those removed."""
        return [list(p) for p in self.players if not self.was_removed(p[0])]

    def is_away(self, seat: int) -> bool:
        """True while the seat's turns pass at once for missed turns (until they come back)."""
        return seat in self.absences.away

    def _passes(self, seat: int) -> bool:
        """True when the seat's turn passes at once: removed, or away and not back yet."""
        absences = self.absences
        back = seat in absences.coming_back
        return seat in absences.removed or (seat in absences.away and not back)

    def _passes_now(self, seat: int) -> bool:
        """True when the game waits on the seat's turn, and that turn passes at once."""
        state = self.state
        return state.phase == TURN and state.turn == seat and self._passes(seat)

    def _present(self) -> list[int]:
        """The human seats whose turns the game still waits for."""
        state = self.state
        out = {state.prediction[0]} if state.prediction else set()  # a predicting Observer
        return [s for s in state.humans() if s not in out and not self._passes(s)]

    def _acted(self, seat: int) -> None:
        """The seat took its turn or its speaking moment: its missed turns start again."""
        self.absences = self.absences.acted(seat)

    def _missed(self, seat: int) -> list[Event]:
        """The seat's turn ran out: count it; at the second in a row, mark the player away."""
        absences = self.absences.missed_turn(seat)
        self.absences = absences
        if absences.missed[seat] < MISSED_TO_AWAY or self._passes(seat):
            return []
        self.absences = absences.marked_away(seat)
        return [ev.event(ev.AWAY, seat=seat)]

    def come_back(self, user: int) -> list[Event]:
        """An away player asks to play again: their next turn waits for them (the group is told
        then, so nothing tells when they asked)."""
        seat = self.seat_of(user)
        if self.status != PLAYING or seat is None:
            raise Refused("mycard_none")
        if self.is_removed(seat):
            raise self.gone(seat)
        absences = self.absences
        if seat not in absences.away or seat in absences.coming_back:
            return []
        self.absences = absences.asked_back(seat)
        return [ev.event(ev.COMING_BACK, seat=seat)]

    def _returns(self, seat: int) -> list[Event]:
        """The seat's turn begins: if its player asked to come back, they are back now."""
        absences = self.absences
        if seat not in absences.coming_back:
            return []
        self.absences = absences.back(seat)
        return [ev.event(ev.RETURNED, seat=seat)]

    def _mark_removed(self, seat: int, by: str | None, left: str | None = None) -> list[Event]:
        """Take the seat's player out of the game, removed `by` someone or `left` by /leave
        (where they confirmed it); the seat stays and keeps its card."""
        if not 1 <= seat <= len(self.data["seats"]) or not self.user_at(seat):
            raise Refused("bad_button")
        if self.is_removed(seat):
            raise Refused("already_removed")
        lost = self.absences.unreachable  # needed no more: never named, nor back
        user = self.user_at(seat)
        self.absences = self.absences.removed_seat(seat, user, left=left is not None)
        if left is None:
            self.data.pop("removing", None)  # the /remove keyboard pressed tells what was done
        asked = self._leave_closed(self.user_at(seat), "removed") if left is None else []
        gone = ev.event(ev.SEAT_REMOVED, seat=seat, by=by, **({"left": left} if left else {}))
        news = [*asked, gone]
        if user in lost:  # the game's warning names them no more
            news.append(ev.event(ev.REACH_SHOWN, removed=seat, left=bool(left)))
        return news

    def ask_leave(self, user: int, where: str) -> list[Event]:
        """/leave, sent `where` ("group" or "private"): a seated player still playing is asked
        to confirm (a question asked before is replaced)."""
        if self.status == LOBBY and self.is_player(user):
            raise Refused("leave_lobby")
        seat = self.seat_of(user) if self.status == PLAYING else None
        if seat is None:
            raise Refused("leave_none")
        if self.is_removed(seat):
            raise self.gone(seat)
        news = self._leave_closed(user, "again")
        self.data.setdefault("leaving", {})[str(user)] = where
        return [*news, ev.event(ev.LEAVE_ASKED, user=user, seat=seat, where=where)]

    def leaving_asked(self, user: int) -> str | None:
        """Where `user`'s /leave question still open was asked, or None."""
        return (self.data.get("leaving") or {}).get(str(user))

    def stay(self, user: int) -> list[Event]:
        """Stay: the /leave question closes, nothing changes."""
        if self.status != PLAYING or self.leaving_asked(user) is None:
            raise Refused("too_late")
        return self._leave_closed(user, "stay")

    def _leave_closed(self, user: int, why: str) -> list[Event]:
        """Close `user`'s open /leave question, if any, saying `why`."""
        where = (self.data.get("leaving") or {}).pop(str(user), None)
        if where is None:
            return []
        return [ev.event(ev.LEAVE_CLOSED, user=user, where=where, why=why)]

    def _leaves_expire(self, why: str) -> list[Event]:
        """Every open /leave question closes: the turn moved on, or the game ended."""
        return [
            e
            for user in list(self.data.get("leaving") or {})
            for e in self._leave_closed(int(user), why)
        ]

    def remove_from_lobby(self, user: int, by: str) -> list[Event]:
        """The host or an admin takes a joined player out of the lobby."""
        if self.status != LOBBY:
            raise Refused("lobby_gone")
        if not self.is_player(user):
            raise Refused("already_removed")
        name = self.lobby_names()[user]
        lang = self.lang_of(user)
        self.data["players"] = [p for p in self.players if p[0] != user]
        self.data.get("langs", {}).pop(str(user), None)
        self.data.get("handles", {}).pop(str(user), None)
        self.data.pop("removing", None)  # the /remove keyboard pressed tells what was done
        removed = ev.event(ev.LOBBY_REMOVED, user=user, name=name, by=by, lang=lang)
        return [removed, ev.event(ev.LOBBY_SHOWN)]

    def offer_removal(self) -> None:
        """/remove: the group is shown whom the host or an admin may remove (one such
        keyboard is live at a time)."""
        self.data["removing"] = True

    def close_removal(self) -> None:
        """The live /remove keyboard was closed, removing nobody."""
        self.data.pop("removing", None)

    def removable(self) -> list[int]:
        """Who /remove offers: the seats still played in a game, the joined players (the host
        apart) in a lobby."""
        if self.status == LOBBY:
            return [uid for uid, _ in self.players if uid != self.data["creator"]]
        return [s for s in self.state.humans() if not self.is_removed(s)]

    def out_of_touch(self) -> list[int]:
        """The players a game's warning names: those the bot cannot reach, and those back in
        touch during a secret wait (told neither while it runs nor as it ends, which could point
        at its player: the warning's next redraw outside a wait tells it)."""
        absences = self.absences
        away = {*absences.unreachable, *absences.back_held}
        return [user for user in self.users() if user in away]

    def _leftovers(self, group_open: bool = True) -> list[Event]:
        """The game starts or ends: the buttons still live of /remove, of I'm back, of /leave
        questions and, at the end, of the warning naming players the bot cannot reach go (the
        group's are only forgotten when it can no longer be written to)."""
        removing = bool(self.data.pop("removing", None)) and group_open
        away = list(self.absences.away)
        asked = [e for e in self._leaves_expire("over") if group_open or e["where"] != "group"]
        ended = self.status not in (LOBBY, PLAYING)
        reach = group_open and ended and bool(self.out_of_touch())
        if not removing and not away and not reach:
            return asked
        gone = ev.event(ev.BUTTONS_GONE, group=removing, away=away, reach=reach)
        return [gone, *asked]

    def _count_skip(self, phase: str) -> bool:
        """A turn passed unplayed; True when a whole round has (the game is then cancelled)."""
        if phase != TURN:
            return False
        self.data["skips"] = self.data.get("skips", 0) + 1
        return self.data["skips"] >= len(self.state.humans())
