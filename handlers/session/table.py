"""One group's table: the lobby, the running game around the engine, its deadlines and holds,
composed of parts that each keep one side of it. Its commands change it and return session
events; they never render, talk to Telegram or store."""

from __future__ import annotations

from collections.abc import Collection

from engine import Action
from handlers.session import events as ev
from handlers.session.away import Absence
from handlers.session.base import (
    BOT_CAN_DELETE,
    CANCELLED,
    ENDED,
    LOBBY,
    OVER_STATUS,
    PLAYING,
    Illegal,
    Refused,
    Seats,
)
from handlers.session.board import Board
from handlers.session.bot_seats import BotSeats
from handlers.session.events import Event
from handlers.session.lobby import LOBBY_SECONDS, NAME_MAX, Lobby, fitted
from handlers.session.play import Play
from handlers.session.prompts import Prompts
from handlers.session.reach import Reach
from handlers.session.record import OpenPrompt, Roster, TableRecord
from handlers.session.rematch import Rematch
from handlers.session.settings import MAX_PLAYERS, clean_settings

__all__ = [
    "BOT_CAN_DELETE",
    "CANCELLED",
    "ENDED",
    "LOBBY",
    "LOBBY_SECONDS",
    "OVER_STATUS",
    "PLAYING",
    "Illegal",
    "Refused",
    "Table",
]

TITLE_MAX = 64


def next_game(previous: Seats | None, now: float) -> int:
    """The number of a group's next game: after its last one, and never one an earlier life of
    the group's item gave out (the time in seconds is past every number given before it)."""
    return max(previous.game + 1 if previous is not None else 1, int(now))


class Table(Seats):
    """A group's lobby or game, as stored: its record, read through `Seats`, and its parts (the
    lobby, the game's play, the turn message, the open prompts, who is absent, who is out of
    reach). Its commands are the parts', each named once here."""

    def __init__(self, record: TableRecord) -> None:
        super().__init__(record)
        self.lobby = Lobby(self)
        self.play = Play(self)
        self.board = Board(self)
        self.prompts = Prompts(self)
        self.absence = Absence(self)
        self.reach = Reach(self)
        self.bots = BotSeats(self)
        self.rematch = Rematch(self)

    @classmethod
    def open_lobby(
        cls,
        chat: int,
        game: int,
        creator: int,
        name: str,
        lang: str,
        settings: dict,
        now: float,
        title: str = "",
        own_lang: str | None = None,
        can_delete: bool | None = None,
        handle: str | None = None,
    ) -> tuple[Table, list[Event]]:
        """A new lobby with its creator seated; returns the lobby message to post. `lang` is the
        group's language, `own_lang` the one the creator reads (when Telegram says), `handle`
        their username; `can_delete` the bot's right to delete messages in the group, as last
        heard."""
        record = TableRecord(
            chat=chat,
            game=game,
            status=LOBBY,
            lang=lang,
            settings=clean_settings(settings),
            roster=Roster(players=[[creator, fitted(name, NAME_MAX)]], creator=creator),
            title=fitted(title, TITLE_MAX),
            opened=now,
            bot_can_delete=can_delete,
        )
        table = cls(record)
        table.lobby.count_down(now + 60 * table.settings["lobby_minutes"], now)
        table.note_lang(creator, own_lang)
        table.note_handle(creator, handle)
        return table, [ev.event(ev.LOBBY_OPENED)]

    def play_again(
        self,
        game: int,
        user: int,
        name: str,
        now: float,
        own_lang: str | None = None,
        is_admin: bool = False,
        handle: str | None = None,
    ) -> tuple[Table, list[Event]]:
        """Play again, pressed under the end of `game` by `user` (a player of it, or an admin):
        a new lobby with the same settings, seating everyone who was still in the game (each
        keeps the language they read and their username). It is a rematch: the others are
        awaited until they press I'm in, and it deals itself (see `rematch.py`)."""
        if self.game != game:  # someone's press came first, or the button is older than that
            opened = self.record.again_of == game and self.status in (LOBBY, PLAYING)
            raise Refused("again_open" if opened else "stale_button")
        if self.status not in ENDED:
            raise Refused("game_running")
        if self.absence.was_removed(user):
            raise Refused("you_were_removed")
        if not self.is_player(user) and not is_admin:
            raise Refused("not_a_player")
        new, news = Table.open_lobby(
            self.chat,
            next_game(self, now),
            user,
            name,
            self.lang,
            self.settings,
            now,
            self.title,
            own_lang,
            self.bot_can_delete,
            handle,
        )
        others = [p for p in self.absence.plays_again() if p[0] != user][: MAX_PLAYERS - 1]
        roster = new.roster
        roster.players += others
        for uid, _ in others:
            if str(uid) in self.roster.langs:
                roster.langs[str(uid)] = self.roster.langs[str(uid)]
            if str(uid) in self.roster.handles:
                roster.handles[str(uid)] = self.roster.handles[str(uid)]
        new.record.again_of = self.game
        unreachable = [u for u in self.reach.unreachable() if new.is_player(u)]
        new.absences = new.absences.still_unreachable(unreachable)
        new.rematch.open([uid for uid, _ in others], now)
        return new, news

    def im_in(self, user: int, now: float) -> list[Event]:
        return self.rematch.im_in(user, now)

    def note_rights(self, can_delete: bool) -> bool:
        """Remember whether the bot may delete messages in the group (kept for its next game);
        True when that is news."""
        if self.record.bot_can_delete == can_delete:
            return False
        self.record.bot_can_delete = can_delete
        return True

    def moved(self, chat: int) -> None:
        """The group became a supergroup: the table lives on under its new chat id (the old
        chat's messages are none of the new one's)."""
        self.record.chat = chat

    def switch_language(self, lang: str, now: float) -> list[Event]:
        """Speak `lang` from now on: the lobby, or the current turn message, redrawn in it."""
        self.record.lang = lang
        if self.status == LOBBY:
            return self.lobby.shown(menu=False)
        return self.board.redraw(now)

    def catch_up(self, now: float) -> list[Event]:
        """Apply what the deadline says has happened by `now` (at most one step at a time): a
        lobby's countdown, a game's wait, and the countdown refresh due before them."""
        news: list[Event] = []
        for _ in range(3):
            if self.bots.due(now):  # a bot seat moves before its wait ends
                news += self.bots.move(now)
                continue
            deadline = self.record.deadline
            if deadline is None or now < deadline:
                break
            news += self.lobby.ends(now) if self.status == LOBBY else self.play.on_deadline(now)
        reminder = self.reminder()
        if reminder is not None and now >= reminder:
            self.record.reminder = None
            news += self.lobby.remind(now) if self.status == LOBBY else self.play.remind(now)
        return news

    def next_wake(self) -> float | None:
        """When the table next needs waking: its countdown or deadline, or a bot seat's move."""
        wakes = [at for at in (super().next_wake(), self.bots.due_at()) if at is not None]
        return min(wakes, default=None)

    # -- the lobby's commands -------------------------------------------------------------------

    def join(
        self, user: int, name: str, lang: str | None = None, handle: str | None = None
    ) -> list[Event]:
        return self.lobby.join(user, name, lang, handle)

    def leave(self, user: int, now: float) -> list[Event]:
        return self.lobby.leave(user, now)

    def show_settings(self) -> list[Event]:
        return self.lobby.show_settings()

    def show_lobby(self) -> list[Event]:
        return self.lobby.show_lobby()

    def change_setting(self, key: str) -> list[Event]:
        return self.lobby.change_setting(key)

    def set_setting(self, key: str, value: object, now: float | None = None) -> list[Event]:
        return self.lobby.set_setting(key, value, now)

    def start(self, now: float, seed: int | None = None, can_delete: bool = False) -> list[Event]:
        return self.lobby.start(now, seed, can_delete)

    def extend(self, name: str, now: float) -> list[Event]:
        return self.lobby.extend(name, now)

    def starts_itself(self) -> bool:
        return self.lobby.starts_itself()

    def enough_players(self) -> bool:
        return self.lobby.enough(len(self.players))

    def least_people(self) -> int:
        return self.lobby.least()

    def deal_with(self, seed: int | None, can_delete: bool | None) -> None:
        self.lobby.deal_with(seed, can_delete)

    def deals_without(self, away: list[int]) -> bool:
        return self.lobby.deals_without(away)

    # -- the game's commands --------------------------------------------------------------------

    def decide(self, user: int, action: Action, version: int, now: float) -> list[Event]:
        return self.play.decide(user, action, version, now)

    def menu_of(self, user: int, version: int, menu: str, target: int = 0) -> int:
        return self.play.menu_of(user, version, menu, target)

    def from_turn_message(
        self, user: int, version: int, now: float, action: Action | None, listed: bool = False
    ) -> list[Event]:
        return self.play.from_turn_message(user, version, now, action, listed)

    def act(self, user: int, action: Action, now: float) -> list[Event]:
        return self.play.act(user, action, now)

    def remove(self, seat: int, by: str, now: float, themselves: bool = False) -> list[Event]:
        return self.play.remove(seat, by, now, themselves)

    def leave_game(self, user: int, now: float) -> list[Event]:
        return self.play.leave_game(user, now)

    def cancel(self, by: str | None, why: str | None = None) -> list[Event]:
        return self.play.cancel(by, why)

    def removed(self) -> list[Event]:
        return self.play.removed()

    def speaks_in_group(self) -> bool:
        return self.play.speaks_in_group()

    def turncoat_pauses(self) -> bool:
        return self.play.turncoat_pauses()

    def list_seats(self, user: int, listed: bool, now: float) -> list[Event]:
        return self.board.list_seats(user, listed, now)

    def open_prompt_of(self, user: int) -> OpenPrompt | None:
        return self.prompts.of(user)

    def note_pressed(self, user: int) -> int | None:
        return self.prompts.note_pressed(user)

    # -- who is absent, and who is out of reach -------------------------------------------------

    def is_removed(self, seat: int) -> bool:
        return self.absence.is_removed(seat)

    def has_left(self, seat: int) -> bool:
        return self.absence.has_left(seat)

    def is_away(self, seat: int) -> bool:
        return self.absence.is_away(seat)

    def come_back(self, user: int) -> list[Event]:
        return self.absence.come_back(user)

    def ask_leave(self, user: int, where: str) -> list[Event]:
        return self.absence.ask_leave(user, where)

    def leaving_asked(self, user: int) -> str | None:
        return self.absence.leaving_asked(user)

    def stay(self, user: int) -> list[Event]:
        return self.absence.stay(user)

    def remove_from_lobby(self, user: int, by: str, themselves: bool = False) -> list[Event]:
        return self.absence.remove_from_lobby(user, by, themselves)

    def offer_removal(self) -> None:
        self.absence.offer_removal()

    def close_removal(self) -> None:
        self.absence.close_removal()

    def removable(self) -> list[int]:
        return self.absence.removable()

    def out_of_touch(self) -> list[int]:
        return self.absence.out_of_touch()

    def unreachable(self) -> list[int]:
        return self.reach.unreachable()

    def blocked(self) -> list[int]:
        return self.reach.blocked()

    def reached_again(self) -> list[int]:
        return self.reach.reached_again()

    def lost_touch(self, users: list[int], blocked: Collection[int] = ()) -> bool:
        return self.reach.lost_touch(users, blocked)

    def heard_blocked(self, user: int, shut: bool) -> bool:
        return self.reach.heard_blocked(user, shut)

    def cannot_reach(self, user: int) -> bool:
        return self.reach.cannot_reach(user)

    def held_back(self, seconds: float, now: float) -> bool:
        return self.play.held_back(seconds, now)

    def out_of_reach(
        self, users: list[int], blocked: Collection[int], now: float
    ) -> list[Event] | None:
        return self.reach.out_of_reach(users, blocked, now)

    def back_in_touch(self, user: int) -> list[Event] | None:
        return self.reach.back_in_touch(user)
