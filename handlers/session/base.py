"""What a group's table holds: who sits where, its engine state, its version and its waits."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self, TypeVar

from engine import GameState
from engine.codec import state_from_dict, state_to_dict
from engine.state import SPEAK
from handlers.session import record as codec
from handlers.session.absentees import Absences
from handlers.session.holds import Hold
from handlers.session.knowledge import known_state
from handlers.session.names import told_apart
from handlers.session.record import Roster, TableRecord

if TYPE_CHECKING:
    from handlers.session.ending import Ending
    from handlers.session.table import Table

T = TypeVar("T", bound="Seats")

LOBBY, PLAYING, OVER_STATUS, CANCELLED = "lobby", "playing", "over", "cancelled"
ENDED = (OVER_STATUS, CANCELLED)
BOT_CAN_DELETE = "bot_can_delete"  # the group's preference: the bot's right to delete, as heard
HANDLE_MAX = 32  # a Telegram username's longest


class Refused(Exception):
    """A request the table turns down; `key` names the text that says why, `kw` the facts it
    names (the Telegram side words them)."""

    def __init__(self, key: str, **kw: object) -> None:
        super().__init__(key)
        self.key, self.kw = key, kw


class Illegal(Refused):
    """A decision the rules refuse at the moment it was made for: "too_late" to a chat button
    (none it offers is refused so), "illegal" to the table."""

    def __init__(self) -> None:
        super().__init__("too_late")


def may_manage(table: Seats | None, user: int, is_admin: bool) -> bool:
    """The host-or-admin rule (Settings and Start, /cancel, /remove, /language): the player who
    opened the table's lobby, or an admin of the group."""
    return is_admin or (table is not None and table.creator == user)


def same_game(table: T | None, game: int) -> T:
    """The table, when it still holds the game a button was made for ("stale_button" else)."""
    if table is None or table.game != game:
        raise Refused("stale_button")
    return table


@dataclass(frozen=True)
class Drawn:
    """What every message drawn of a table reads, read off it at once: the group's language,
    chat, game and title, its settings, and for a game its state, the names and users by seat
    (from seat 1), the public version, and the language each person at the table reads."""

    lang: str
    chat: int
    game: int
    title: str
    settings: dict
    readers: dict[int, str]
    state: GameState | None = None
    names: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    public_version: int | None = None


class Seats:
    """A group's lobby or game, as stored: its record and what can be read off it."""

    def __init__(self, record: TableRecord) -> None:
        self.record = record  # the session's part of the group's item (see `record.py`)
        self._state: GameState | None = None
        self._voice: str | None = None  # a view's language, for one player's private messages
        self.ending: Ending | None = None  # the game this change ended, for storage to keep

    @property
    def chat(self) -> int:
        return self.record.chat

    @property
    def game(self) -> int:
        return self.record.game

    @property
    def practice(self) -> bool:
        """True for a practice table: one person against bot seats alone, kept under their
        private chat (whose id, a user's, is positive; a group's is negative)."""
        return self.record.chat > 0

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def roster(self) -> Roster:
        """The lobby's people: who joined, the host, their languages and usernames."""
        return self.record.roster

    @property
    def lang(self) -> str:
        """The language the table speaks: the group's (or, in a `speaking_to` view, the
        player's)."""
        return self._voice or self.record.lang

    def lang_of(self, user: int, fallback: str | None = None) -> str:
        """The language `user` reads in private: their own, as Telegram said when they joined;
        else `fallback`; else the group's."""
        return self.roster.langs.get(str(user)) or fallback or self.record.lang

    def speaking_to(self, user: int) -> Self:
        """The table as `user` reads it in private: a read-only view in their language."""
        return self.speaking(self.lang_of(user))

    def speaking(self, lang: str) -> Self:
        """The table speaking `lang`: itself if it does, else a read-only view that does."""
        if lang == self.lang:
            return self
        view = copy.copy(self)
        view._voice = lang
        return view

    def note_lang(self, user: int, lang: str | None) -> None:
        """Keep the language a joining player reads (None: Telegram did not say)."""
        langs = self.roster.langs
        if lang:
            langs[str(user)] = lang
        else:
            langs.pop(str(user), None)

    def note_handle(self, user: int, handle: str | None) -> None:
        """Keep a lobby player's username (None: they have none, or left)."""
        if handle:
            self.roster.handles[str(user)] = handle[:HANDLE_MAX]
        else:
            self.roster.handles.pop(str(user), None)

    def lobby_names(self) -> dict[int, str]:
        """The lobby's players and the names they are shown by: those sharing a name marked
        (see `handlers.session.names`)."""
        users = [uid for uid, _ in self.players]
        names = told_apart(self.players, self.roster.handles)
        return dict(zip(users, names, strict=True))

    @property
    def settings(self) -> dict:
        return self.record.settings

    @property
    def players(self) -> list[list]:
        return self.roster.players

    @property
    def title(self) -> str:
        return self.record.title

    @property
    def creator(self) -> int | None:
        """The host: who opened the lobby, or was handed it."""
        return self.roster.creator

    @property
    def host_left(self) -> str | None:
        """The name of a host who left the lobby, handing it to the next player."""
        return self.roster.host_left

    @property
    def seat_users(self) -> tuple[int, ...]:
        """The user in each seat, from seat 1 (0: a virtual player); empty before the deal."""
        return tuple(self.record.seats)

    @property
    def silent(self) -> bool:
        """True when the bot deletes what is said in the group outside a speaking moment."""
        return self.record.silence

    @property
    def menu_open(self) -> bool:
        """True while the lobby message shows the settings menu."""
        return self.record.menu

    @property
    def bot_can_delete(self) -> bool | None:
        """The bot's right to delete messages in the group, as last heard (None: never said)."""
        return self.record.bot_can_delete

    @property
    def state(self) -> GameState:
        """The engine's state (rebuilt from the stored deal and decisions once per load)."""
        if self._state is None:
            self._state = state_from_dict(self.record.engine or {})
        return self._state

    def set_state(self, state: GameState, secret: bool = False) -> None:
        """Store the engine's new state; `secret` when it follows a decision the group must not
        learn of (a Turncoat's or the Spy's, or their silence)."""
        self._state = state
        self.record.engine = state_to_dict(state)
        if secret:
            self.record.shift -= 1

    @property
    def public_version(self) -> int:
        """The game's version as buttons carry it. It counts what everyone sees (decisions,
        and the end of each secret wait) and not the decisions made in secret, so nobody can
        tell from a button whether a Turncoat or a Spy decided, and a Turncoat's buttons are
        out of date once the wait is over."""
        return self.state.version + self.record.shift

    def known_state(self, seat: int) -> GameState:
        """The game as `seat` may know it now (while the group's news is held, less)."""
        return known_state(self.state, seat, self.hold is not None)

    def public_state(self) -> GameState:
        """The game as the group may know it now: while its news is held, without a swap made
        in the Turncoat's window (its public events are those the group was told)."""
        return known_state(self.state, 0, self.hold is not None)

    def seat_of(self, user: int) -> int | None:
        """The seat a user sits in, or None."""
        seats = self.record.seats
        return seats.index(user) + 1 if user in seats else None

    def known_as(self, user: int, name: str) -> str:
        """The name the table shows `user` by (their seat's, or the lobby's, where two players
        share a name), or `name` when they are not at the table."""
        seat = self.seat_of(user)
        if seat is not None:
            return self.name_of(seat)
        return self.lobby_names().get(user, name) if self.players else name

    def user_at(self, seat: int) -> int:
        """The user id in a seat (0 for a virtual seat)."""
        return self.record.seats[seat - 1]

    def name_of(self, seat: int) -> str:
        """A seat's display name."""
        return self.state.names[seat - 1]

    def is_player(self, user: int) -> bool:
        """Seated (or, in the lobby, joined)."""
        if self.status == LOBBY:
            return any(uid == user for uid, _ in self.players)
        return self.seat_of(user) is not None

    def drawn(self) -> Drawn:
        """The table as every message drawn of it reads it, at once (in the language it
        speaks: a view speaking to a player speaks theirs)."""
        readers = {user: self.lang_of(user) for user in self.users()}
        record = self.record
        group = (self.lang, record.chat, record.game, record.title, record.settings, readers)
        if record.engine is None:
            return Drawn(*group)
        state, seats = self.state, tuple(record.seats)
        return Drawn(*group, state, state.names, seats, self.public_version)

    def users(self) -> list[int]:
        """The people at the table: seated, or joined while in the lobby."""
        return [u for u in self.record.seats or [uid for uid, _ in self.players] if u]

    def check_version(self, version: int) -> None:
        """Refuse a button made for another moment of the game than now ("too_late"): its
        buttons carry the public version they were made for."""
        if self.status != PLAYING or self.public_version != version:
            raise Refused("too_late")

    @property
    def hold(self) -> Hold | None:
        """The secret window holding the group's news back, if one runs."""
        return self.record.hold

    @hold.setter
    def hold(self, hold: Hold | None) -> None:
        self.record.hold = hold

    @property
    def absences(self) -> Absences:
        """Who is not there: seats away or removed, players the bot cannot reach."""
        return self.record.absences

    @absences.setter
    def absences(self, absences: Absences) -> None:
        self.record.absences = absences

    @property
    def opened(self) -> float:
        """When the table's lobby opened (0: not known)."""
        return self.record.opened

    def to_stored(self) -> dict:
        """The session's part of the group's item, as stored (JSON)."""
        return codec.to_stored(self.record)

    @classmethod
    def from_stored(cls, stored: dict) -> Self:
        """The table a stored session part holds (see `record.from_stored`)."""
        return cls(codec.from_stored(stored))

    def reminder(self) -> float | None:
        """When the board's countdown is next refreshed (only for the wait it was set for)."""
        reminder = self.record.reminder
        if not reminder or reminder[1] != self.record.deadline:
            return None
        return reminder[0]

    def deadline(self) -> float | None:
        """When the current wait ends (None when nothing waits)."""
        return self.record.deadline

    def next_wake(self) -> float | None:
        """When the table next needs waking: the countdown refresh, else the deadline."""
        reminder = self.reminder()
        return reminder if reminder is not None else self.record.deadline

    def speaker(self) -> int | None:
        """The user whose speaking moment it is now, if any."""
        if self.status != PLAYING or self.hold is not None:
            return None
        if self.state.phase != SPEAK:
            return None
        return self.user_at(self.state.turn)

    def close(self) -> None:
        """The lobby or game ends without a reveal: nothing waits any more."""
        self.record.status = CANCELLED
        self.record.deadline = None
        self.hold = None


class Part:
    """One part of a table's rules, over the table it belongs to (which holds the record and
    its other parts)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.record: TableRecord = table.record  # the table's, for good: never replaced
