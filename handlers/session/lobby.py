"""A table's lobby: who joins and leaves, its settings, its countdown, and the deal ending it."""

from __future__ import annotations

from engine import new_game
from handlers.session import events as ev
from handlers.session.base import LOBBY, PLAYING, Part, Refused
from handlers.session.bot_seats import bot_names
from handlers.session.events import Event
from handlers.session.names import virtual_names
from handlers.session.record import TurnBoard
from handlers.session.settings import (
    GROUP_ONLY_SETTINGS,
    MAX_PLAYERS,
    MIN_BESIDE_BOTS,
    MIN_PLAYERS,
    PRACTICE_LEAST_BOTS,
    seats_fit,
    set_setting,
    toggle_setting,
    variants_of,
)

LOBBY_SECONDS = 3600  # a lobby stays open an hour at most, however often it is extended
EXTEND_SECONDS = 120  # what /extend adds to the countdown
REMIND_LOBBY = 60  # seconds before the countdown ends, the group is reminded once
NAME_MAX = 32  # a player's name as kept, at most


def fitted(text: str, limit: int) -> str:
    """`text` as kept: whole when it fits, else cut to `limit` characters ending in "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Lobby(Part):
    """A table's lobby side: its players, settings and countdown, which starts or closes it."""

    _dealing: tuple[int | None, bool | None] = (None, None)  # a timer's deal: seed, rights

    def _in_lobby(self) -> None:
        if self.table.status != LOBBY:
            raise Refused("lobby_gone")

    def least(self) -> int:
        """The fewest people beside bot seats: two in a group, its one player in practice."""
        return 1 if self.table.practice else MIN_BESIDE_BOTS

    def enough(self, people: int) -> bool:
        """True when `people` and the bot seats make a table the card deals."""
        return seats_fit(people, self.record.settings, self.least())

    def shown(self, menu: bool) -> list[Event]:
        """The lobby message redrawn as the lobby or as the settings menu."""
        self.record.menu = menu
        return [ev.event(ev.LOBBY_SHOWN)]

    def join(
        self, user: int, name: str, lang: str | None = None, handle: str | None = None
    ) -> list[Event]:
        """Seat a user in the lobby; `lang` is the language they read (when Telegram says),
        `handle` their username (it tells them apart from a player of the same name)."""
        self._in_lobby()
        table = self.table
        if table.is_player(user):
            raise Refused("already_joined")
        if table.practice:  # its player's own, against bot seats alone
            raise Refused("practice_alone")
        if len(table.players) >= MAX_PLAYERS:
            raise Refused("lobby_full", max=MAX_PLAYERS)
        table.players.append([user, fitted(name, NAME_MAX)])
        table.note_lang(user, lang)
        table.note_handle(user, handle)
        table.reach.reached(user)  # they joined from the private chat
        return self.shown(menu=False)

    def leave(self, user: int, now: float) -> list[Event]:
        """Take a user out of the lobby (at `now`: a rematch whose last awaited player left
        deals now)."""
        table = self.table
        if table.status != LOBBY or not table.is_player(user):
            raise Refused("not_in_lobby")
        name = table.lobby_names()[user]
        roster = self.record.roster
        roster.players = [p for p in roster.players if p[0] != user]
        table.note_lang(user, None)
        table.note_handle(user, None)
        table.reach.reached(user)
        table.rematch.left(user, now)
        if user == roster.creator and roster.players:
            self._pass_host(name)
        return self.shown(menu=False)

    def show_settings(self) -> list[Event]:
        """Turn the lobby message into the settings menu."""
        self._in_lobby()
        return self.shown(menu=True)

    def show_lobby(self) -> list[Event]:
        """Back from the settings menu."""
        self._in_lobby()
        return self.shown(menu=False)

    def change_setting(self, key: str) -> list[Event]:
        """Toggle a switch ("lang" switches the language)."""
        self._in_lobby()
        if self.table.practice and key in GROUP_ONLY_SETTINGS:
            raise Refused("bad_button")
        if key == "lang":
            self.record.lang = "zh" if self.table.lang == "en" else "en"
        elif not toggle_setting(self.record.settings, key):
            raise Refused("bad_button")
        return self.shown(menu=True)

    def set_setting(self, key: str, value: object, now: float | None = None) -> list[Event]:
        """Set a time limit or the number of virtual players to one of its CHOICES (a new
        lobby countdown runs from `now`)."""
        self._in_lobby()
        settings = self.record.settings
        fewer = key == "bot_seats" and isinstance(value, int) and value < PRACTICE_LEAST_BOTS
        if self.table.practice and (fewer or key in GROUP_ONLY_SETTINGS):
            raise Refused("bad_button")
        if not set_setting(settings, key, value):
            raise Refused("bad_button")
        if key == "lobby_minutes" and now is not None:
            self.count_down(now + 60 * settings[key], now)
        return self.shown(menu=True)

    def start(self, now: float, seed: int | None = None, can_delete: bool = False) -> list[Event]:
        """Deal: seat everyone, send each their card, turn the lobby message into the seating
        and post the first turn."""
        self._in_lobby()
        table, record = self.table, self.record
        if not self.enough(len(table.players)):
            raise self._too_few()
        if table.reach.unreachable():  # they would get no card
            raise Refused("unreachable_start")
        shown = table.lobby_names()
        names = list(shown.values())
        ids = {name: uid for uid, name in shown.items()}
        virtual = virtual_names(table.lang)
        bots = bot_names(table.lang, record.settings["bot_seats"])
        state, events = new_game(names + bots, variants_of(record.settings), seed, virtual)
        seated = zip(state.names, state.virtual, strict=True)
        record.seats = [0 if virtual else ids.get(name, 0) for name, virtual in seated]
        table.bots.seat_dealt(state.names, state.virtual, table.lang)
        record.status = PLAYING
        table.rematch.dealt()
        record.start = now
        record.skips = 0
        record.absences = record.absences.dealt()
        record.board = TurnBoard()
        record.hold = None
        table.set_state(state)
        silence = record.settings["delete_chatter"] and can_delete
        record.silence = silence
        record.bot_can_delete = can_delete  # kept for the next game here
        seating = ev.event(ev.SEATING, silence=silence)
        return [seating, *table.absence.leftovers(), *table.play.deliver(events, now)]

    def _too_few(self) -> Refused:
        """Why Start cannot deal: too few or too many people, bot seats counted."""
        n, bots = len(self.table.players), self.record.settings["bot_seats"]
        if not bots:
            return Refused("need_players", n=n, min=MIN_PLAYERS, max=MAX_PLAYERS)
        return Refused("need_players_bots", n=n, bots=bots, least=self.least())

    # -- the countdown --------------------------------------------------------------------------

    def count_down(self, until: float, now: float) -> None:
        """The lobby ends at `until` (an hour after it opened at the latest); the group is
        reminded a minute before, when there is a minute to spare."""
        record = self.record
        cap = (record.opened or now) + LOBBY_SECONDS
        if self.table.practice:  # it waits for its player's Start, the lobby's hour at most
            record.deadline, record.reminder = cap, None
            return
        until = min(until, cap)
        record.deadline = until
        remind = until - REMIND_LOBBY
        record.reminder = [remind, until] if remind > now else None

    def extend(self, name: str, now: float) -> list[Event]:
        """/extend: the countdown pushed back by a couple of minutes, or what is left of the
        hour (`name` asked; the event says the minutes really added)."""
        news = self.table.catch_up(now)
        if self.table.status != LOBBY:
            return news  # the countdown ended first
        deadline = self.record.deadline
        assert deadline is not None  # a lobby always counts down
        self.count_down(deadline + EXTEND_SECONDS, now)
        added = (self.record.deadline or deadline) - deadline  # less under the hour's cap
        if added <= 0:
            raise Refused("extend_max")  # nothing is saved
        minutes = max(1, round(added / 60))
        shown = ev.event(ev.LOBBY_SHOWN)
        return [*news, shown, ev.event(ev.EXTENDED, name=name, minutes=minutes)]

    def starts_itself(self) -> bool:
        """True when the lobby deals at the end of its countdown: auto-start is on and its
        players pressed Join (Play again seats them without asking: someone presses Start), or
        it is a rematch, which deals those who pressed I'm in."""
        if self.table.practice:
            return False
        if self.record.rematch:
            return True
        return bool(self.record.settings["auto_start"]) and not self.record.again_of

    def deal_with(self, seed: int | None, can_delete: bool | None) -> None:
        """How a lobby whose countdown ends deals: the seed, and the bot's right to delete."""
        self._dealing = (seed, can_delete)

    def deals_without(self, away: list[int]) -> bool:
        """True when enough players would remain to deal without `away`."""
        return self.enough(len(self.table.rematch.players_in()) - len(away))

    def _leave_out(self, away: list[int]) -> list[Event]:
        """Take the players the bot cannot reach out of the lobby, so the others can play; the
        group is told who and why (and who hosts now, if the host was one of them)."""
        table, roster = self.table, self.record.roster
        names = table.lobby_names()
        roster.players = [p for p in roster.players if p[0] not in away]
        for user in away:
            table.note_lang(user, None)
            table.note_handle(user, None)
            table.reach.reached(user)
        host = None
        if roster.creator in away:
            self._pass_host(None)
            host = table.lobby_names()[roster.creator]
        return [ev.event(ev.LEFT_OUT, names=[names[u] for u in away], host=host)]

    def _pass_host(self, old: str | None) -> None:
        """The host is gone: the next player in lobby order hosts it now (`old`, the name of a
        host who left, is shown in the lobby; None when they were left out of the deal)."""
        roster = self.record.roster
        roster.creator = roster.players[0][0]
        if old is not None:
            roster.host_left = old

    def remind(self, now: float) -> list[Event]:
        """A minute before the countdown ends, the group is reminded (a settings menu left
        open shows the lobby again)."""
        record = self.record
        left = max(round(((record.deadline or now) - now) / 60), 1)
        reminder = ev.event(ev.LOBBY_REMINDER, minutes=left, extend=self._can_extend(now))
        if not record.menu:
            return [reminder]
        record.menu = False  # a menu left open: the last minute shows who plays, and Join
        return [ev.event(ev.LOBBY_SHOWN), reminder]

    def _can_extend(self, now: float) -> int:
        """The minutes /extend would add now: none once the countdown ends at the hour's end."""
        record = self.record
        cap = (record.opened or now) + LOBBY_SECONDS
        room = min(EXTEND_SECONDS, cap - (record.deadline or now))
        return max(round(room / 60), 1) if room > 0 else 0

    def ends(self, now: float) -> list[Event]:
        """The countdown ran out: deal if it may and can (without those the bot cannot reach,
        when enough others remain), else close, saying why."""
        table = self.table
        n = len(table.rematch.players_in())
        few = not self.enough(n)
        away = [user for user in table.reach.unreachable() if user not in table.rematch.awaited()]
        if self.starts_itself() and not few and (not away or self.deals_without(away)):
            dealt_itself = table.rematch.drop_awaited() if self.record.rematch else []
            left_out = dealt_itself + (self._leave_out(away) if away else [])
            seed, can_delete = self._dealing
            if can_delete is None:
                can_delete = bool(self.record.bot_can_delete)
            return left_out + self.start(now, seed, can_delete)
        reason = None
        if self.starts_itself():
            reason = "few" if few else "unreachable"
        table.close()
        expired = ev.event(ev.LOBBY_EXPIRED, reason=reason, n=n, users=away)
        return [expired, *table.absence.leftovers()]
