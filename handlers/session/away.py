"""Players who are not there: marked away after two missed turns, or removed by the host; their
turns pass at once."""

from __future__ import annotations

from engine.state import TURN
from handlers.session import events as ev
from handlers.session.base import LOBBY, PLAYING, Part, Refused
from handlers.session.events import Event

MISSED_TO_AWAY = 2  # turn timeouts in a row that mark a player away


class Absence(Part):
    """Who is away, asked to come back or removed, by seat, and the turns each has missed in a
    row (the record's `absences`); the /remove keyboard and the /leave questions."""

    def is_removed(self, seat: int) -> bool:
        """True when the host or an admin removed the seat's player."""
        return seat in self.record.absences.removed

    def has_left(self, seat: int) -> bool:
        """True when the seat's player left the game themselves (/leave): removed, by their own
        choice."""
        return seat in self.record.absences.left

    def gone(self, seat: int) -> Refused:
        """The refusal for a seat's player no longer playing: they left, or were removed."""
        return Refused("you_left" if self.has_left(seat) else "you_were_removed")

    def was_removed(self, user: int) -> bool:
        """True when `user` was removed from the game (their buttons are refused)."""
        seat = self.table.seat_of(user)
        return seat is not None and self.is_removed(seat)

    def plays_again(self) -> list[list]:
        """Who Play again seats in the next lobby: the lobby's players but those removed."""
        return [list(p) for p in self.table.players if not self.was_removed(p[0])]

    def is_away(self, seat: int) -> bool:
        """True while the seat's turns pass at once for missed turns (until they come back)."""
        return seat in self.record.absences.away

    def passes(self, seat: int) -> bool:
        """True when the seat's turn passes at once: removed, or away and not back yet."""
        absences = self.record.absences
        back = seat in absences.coming_back
        return seat in absences.removed or (seat in absences.away and not back)

    def passes_now(self, seat: int) -> bool:
        """True when the game waits on the seat's turn, and that turn passes at once."""
        state = self.table.state
        return state.phase == TURN and state.turn == seat and self.passes(seat)

    def present(self) -> list[int]:
        """The human seats whose turns the game still waits for."""
        state = self.table.state
        out = {state.prediction[0]} if state.prediction else set()  # a predicting Observer
        out |= set(self.record.bots)  # a game of bot seats alone is over
        return [s for s in state.humans() if s not in out and not self.passes(s)]

    def acted(self, seat: int) -> None:
        """The seat took its turn or its speaking moment: its missed turns start again."""
        self.record.absences = self.record.absences.acted(seat)

    def missed(self, seat: int) -> list[Event]:
        """The seat's turn ran out: count it; at the second in a row, mark the player away."""
        if self.table.bots.is_bot(seat):  # never away
            return []
        absences = self.record.absences.missed_turn(seat)
        self.record.absences = absences
        if absences.missed[seat] < MISSED_TO_AWAY or self.passes(seat):
            return []
        self.record.absences = absences.marked_away(seat)
        return [ev.event(ev.AWAY, seat=seat)]

    def come_back(self, user: int) -> list[Event]:
        """An away player asks to play again: their next turn waits for them (the group is told
        then, so nothing tells when they asked)."""
        seat = self.table.seat_of(user)
        if self.table.status != PLAYING or seat is None:
            raise Refused("mycard_none")
        if self.is_removed(seat):
            raise self.gone(seat)
        absences = self.record.absences
        if seat not in absences.away or seat in absences.coming_back:
            return []
        self.record.absences = absences.asked_back(seat)
        return [ev.event(ev.COMING_BACK, seat=seat)]

    def returns(self, seat: int) -> list[Event]:
        """The seat's turn begins: if its player asked to come back, they are back now."""
        absences = self.record.absences
        if seat not in absences.coming_back:
            return []
        self.record.absences = absences.back(seat)
        return [ev.event(ev.RETURNED, seat=seat)]

    def mark_removed(
        self, seat: int, by: str | None, left: str | None = None, themselves: bool = False
    ) -> list[Event]:
        """Take the seat's player out of the game, removed `by` someone (`themselves`: by their
        own /remove) or `left` by /leave (where they confirmed it); the seat stays and keeps its
        card."""
        table = self.table
        if table.bots.is_bot(seat):
            raise Refused("bot_seat_stays")
        if not 1 <= seat <= len(self.record.seats) or not table.user_at(seat):
            raise Refused("bad_button")
        if self.is_removed(seat):
            raise Refused("already_removed")
        lost = self.record.absences.unreachable  # needed no more: never named, nor back
        user = table.user_at(seat)
        self.record.absences = self.record.absences.removed_seat(seat, user, left=left is not None)
        if left is None:
            self.record.removing = False  # the /remove keyboard pressed tells what was done
        asked = self.leave_closed(user, "removed") if left is None else []
        said = {"left": left} if left else {"themselves": True} if themselves else {}
        gone = ev.event(ev.SEAT_REMOVED, seat=seat, by=by, **said)
        news = [*asked, gone]
        if user in lost:  # the game's warning names them no more
            news.append(ev.event(ev.REACH_SHOWN, removed=seat, left=bool(left)))
        return news

    def ask_leave(self, user: int, where: str) -> list[Event]:
        """/leave, sent `where` ("group" or "private"): a seated player still playing is asked
        to confirm (a question asked before is replaced)."""
        table = self.table
        if table.status == LOBBY and table.is_player(user):
            raise Refused("leave_lobby")
        seat = table.seat_of(user) if table.status == PLAYING else None
        if seat is None:
            raise Refused("leave_none")
        if self.is_removed(seat):
            raise self.gone(seat)
        news = self.leave_closed(user, "again")
        self.record.leaving[str(user)] = where
        return [*news, ev.event(ev.LEAVE_ASKED, user=user, seat=seat, where=where)]

    def leaving_asked(self, user: int) -> str | None:
        """Where `user`'s /leave question still open was asked, or None."""
        return self.record.leaving.get(str(user))

    def stay(self, user: int) -> list[Event]:
        """Stay: the /leave question closes, nothing changes."""
        if self.table.status != PLAYING or self.leaving_asked(user) is None:
            raise Refused("too_late")
        return self.leave_closed(user, "stay")

    def leave_closed(self, user: int, why: str) -> list[Event]:
        """Close `user`'s open /leave question, if any, saying `why`."""
        where = self.record.leaving.pop(str(user), None)
        if where is None:
            return []
        return [ev.event(ev.LEAVE_CLOSED, user=user, where=where, why=why)]

    def leaves_expire(self, why: str) -> list[Event]:
        """Every open /leave question closes: the turn moved on, or the game ended."""
        return [e for user in list(self.record.leaving) for e in self.leave_closed(int(user), why)]

    def remove_from_lobby(self, user: int, by: str, themselves: bool = False) -> list[Event]:
        """The host or an admin takes a joined player out of the lobby (`themselves`: their
        own)."""
        table = self.table
        if table.status != LOBBY:
            raise Refused("lobby_gone")
        if not table.is_player(user):
            raise Refused("already_removed")
        name = table.lobby_names()[user]
        lang = table.lang_of(user)
        roster = self.record.roster
        roster.players = [p for p in roster.players if p[0] != user]
        roster.langs.pop(str(user), None)
        roster.handles.pop(str(user), None)
        self.record.removing = False  # the /remove keyboard pressed tells what was done
        said = {"themselves": True} if themselves else {}
        removed = ev.event(ev.LOBBY_REMOVED, user=user, name=name, by=by, lang=lang, **said)
        return [removed, ev.event(ev.LOBBY_SHOWN)]

    def offer_removal(self) -> None:
        """/remove: the group is shown whom the host or an admin may remove (one such
        keyboard is live at a time)."""
        self.record.removing = True

    def close_removal(self) -> None:
        """The live /remove keyboard was closed, removing nobody."""
        self.record.removing = False

    def removable(self) -> list[int]:
        """Who /remove offers: the seats still played in a game, the joined players (the host
        apart) in a lobby."""
        table = self.table
        if table.status == LOBBY:
            return [uid for uid, _ in table.players if uid != table.creator]
        people = [s for s in table.state.humans() if not table.bots.is_bot(s)]
        return [s for s in people if not self.is_removed(s)]

    def out_of_touch(self) -> list[int]:
        """The players a game's warning names: those the bot cannot reach, and those back in
        touch during a secret wait (told neither while it runs nor as it ends, which could point
        at its player: the warning's next redraw outside a wait tells it)."""
        absences = self.record.absences
        away = {*absences.unreachable, *absences.back_held}
        return [user for user in self.table.users() if user in away]

    def leftovers(self, group_open: bool = True) -> list[Event]:
        """The game starts or ends: the buttons still live of /remove, of I'm back, of /leave
        questions and, at the end, of the warning naming players the bot cannot reach go (the
        group's are only forgotten when it can no longer be written to)."""
        removing = self.record.removing and group_open
        self.record.removing = False
        away = list(self.record.absences.away)
        asked = [e for e in self.leaves_expire("over") if group_open or e["where"] != "group"]
        ended = self.table.status not in (LOBBY, PLAYING)
        reach = group_open and ended and bool(self.out_of_touch())
        if not removing and not away and not reach:
            return asked
        gone = ev.event(ev.BUTTONS_GONE, group=removing, away=away, reach=reach)
        return [gone, *asked]

    def count_skip(self, phase: str) -> bool:
        """A turn passed unplayed; True when a whole round has (the game is then cancelled)."""
        if phase != TURN:
            return False
        self.record.skips += 1
        people = [s for s in self.table.state.humans() if not self.table.bots.is_bot(s)]
        return self.record.skips >= len(people)
