"""One group's table: the lobby, the running game around the engine, its deadlines and holds.
Its methods change it and return session events; they never render, talk to Telegram or store."""

from __future__ import annotations

from engine import new_game
from handlers.session import events as ev
from handlers.session.base import (
    BOT_CAN_DELETE,
    CANCELLED,
    ENDED,
    LOBBY,
    OVER_STATUS,
    PLAYING,
    Refused,
)
from handlers.session.events import Event
from handlers.session.lobby import LOBBY_SECONDS, Lobby
from handlers.session.names import virtual_names
from handlers.session.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    clean_settings,
    set_setting,
    toggle_setting,
    variants_of,
)

__all__ = [
    "BOT_CAN_DELETE",
    "CANCELLED",
    "ENDED",
    "LOBBY",
    "LOBBY_SECONDS",
    "OVER_STATUS",
    "PLAYING",
    "Refused",
    "Table",
]

NAME_MAX, TITLE_MAX = 32, 64


def fitted(text: str, limit: int) -> str:
    """`text` as kept: whole when it fits, else cut to `limit` characters ending in "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def next_game(previous: Lobby | None, now: float) -> int:
    """The number of a group's next game: after its last one, and never one an earlier life of
    the group's item gave out (the time in seconds is past every number given before it)."""
    return max(previous.game + 1 if previous is not None else 1, int(now))


class Table(Lobby):
    """A group's lobby or game, as stored."""

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
        table = cls(
            {
                "chat": chat,
                "game": game,
                "title": fitted(title, TITLE_MAX),
                "status": LOBBY,
                "lang": lang,
                "creator": creator,
                "players": [[creator, fitted(name, NAME_MAX)]],
                "settings": clean_settings(settings),
                "opened": now,
            }
        )
        table._count_down(now + 60 * table.settings["lobby_minutes"], now)
        table._note_lang(creator, own_lang)
        if can_delete is not None:
            table.data[BOT_CAN_DELETE] = can_delete
        table._note_handle(creator, handle)
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
        keeps the language they read and their username). It waits for Start: nobody in it
        pressed Join."""
        if self.game != game:  # someone's press came first, or the button is older than that
            opened = self.data.get("again_of") == game and self.status in (LOBBY, PLAYING)
            raise Refused("again_open" if opened else "stale_button")
        if self.status not in ENDED:
            raise Refused("game_running")
        if self.was_removed(user):
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
            self.data.get(BOT_CAN_DELETE),
            handle,
        )
        others = [p for p in self.plays_again() if p[0] != user][: MAX_PLAYERS - 1]
        new.data["players"] += others
        langs, handles = self.data.get("langs") or {}, self.data.get("handles") or {}
        for uid, _ in others:
            if str(uid) in langs:
                new.data["langs"][str(uid)] = langs[str(uid)]
            if str(uid) in handles:
                new.data.setdefault("handles", {})[str(uid)] = handles[str(uid)]
        new.data["again_of"] = self.game
        unreachable = [u for u in self.unreachable() if new.is_player(u)]
        new.absences = new.absences.still_unreachable(unreachable)
        return new, news

    def note_rights(self, can_delete: bool) -> bool:
        """Remember whether the bot may delete messages in the group (kept for its next game);
        True when that is news."""
        if self.data.get(BOT_CAN_DELETE) == can_delete:
            return False
        self.data[BOT_CAN_DELETE] = can_delete
        return True

    def moved(self, chat: int) -> None:
        """The group became a supergroup: the table lives on under its new chat id (the old
        chat's messages are none of the new one's)."""
        self.data["chat"] = chat

    def _in_lobby(self) -> None:
        if self.status != LOBBY:
            raise Refused("lobby_gone")

    def _lobby_shown(self, menu: bool) -> list[Event]:
        """The lobby message redrawn as the lobby or as the settings menu."""
        self.data["menu"] = menu
        return [ev.event(ev.LOBBY_SHOWN)]

    def join(
        self, user: int, name: str, lang: str | None = None, handle: str | None = None
    ) -> list[Event]:
        """Seat a user in the lobby; `lang` is the language they read (when Telegram says),
        `handle` their username (it tells them apart from a player of the same name)."""
        self._in_lobby()
        if self.is_player(user):
            raise Refused("already_joined")
        if len(self.players) >= MAX_PLAYERS:
            raise Refused("lobby_full", max=MAX_PLAYERS)
        self.players.append([user, fitted(name, NAME_MAX)])
        self._note_lang(user, lang)
        self._note_handle(user, handle)
        self._reached(user)  # they joined from the private chat
        return self._lobby_shown(menu=False)

    def leave(self, user: int) -> list[Event]:
        """Take a user out of the lobby."""
        if self.status != LOBBY or not self.is_player(user):
            raise Refused("not_in_lobby")
        name = self.lobby_names()[user]
        self.data["players"] = [p for p in self.players if p[0] != user]
        self._note_lang(user, None)
        self._note_handle(user, None)
        self._reached(user)
        if user == self.data["creator"] and self.players:
            self._pass_host(name)
        return self._lobby_shown(menu=False)

    def show_settings(self) -> list[Event]:
        """Turn the lobby message into the settings menu."""
        self._in_lobby()
        return self._lobby_shown(menu=True)

    def show_lobby(self) -> list[Event]:
        """Back from the settings menu."""
        self._in_lobby()
        return self._lobby_shown(menu=False)

    def change_setting(self, key: str) -> list[Event]:
        """Toggle a switch ("lang" switches the language)."""
        self._in_lobby()
        if key == "lang":
            self.data["lang"] = "zh" if self.lang == "en" else "en"
        elif not toggle_setting(self.settings, key):
            raise Refused("bad_button")
        return self._lobby_shown(menu=True)

    def set_setting(self, key: str, value: object, now: float | None = None) -> list[Event]:
        """Set a time limit or the number of virtual players to one of its CHOICES (a new
        lobby countdown runs from `now`)."""
        self._in_lobby()
        if not set_setting(self.settings, key, value):
            raise Refused("bad_button")
        if key == "lobby_minutes" and now is not None:
            self._count_down(now + 60 * self.settings[key], now)
        return self._lobby_shown(menu=True)

    def switch_language(self, lang: str, now: float) -> list[Event]:
        """Speak `lang` from now on: the lobby, or the current turn message, redrawn in it."""
        self.data["lang"] = lang
        if self.status == LOBBY:
            return self._lobby_shown(menu=False)
        return self.redraw(now)

    def start(self, now: float, seed: int | None = None, can_delete: bool = False) -> list[Event]:
        """Deal: seat everyone, send each their card, turn the lobby message into the seating
        and post the first turn."""
        self._in_lobby()
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise Refused("need_players", n=len(self.players), min=MIN_PLAYERS, max=MAX_PLAYERS)
        if self.unreachable():  # they would get no card
            raise Refused("unreachable_start")
        shown = self.lobby_names()
        names = list(shown.values())
        ids = {name: uid for uid, name in shown.items()}
        virtual = virtual_names(self.lang)
        state, events = new_game(names, variants_of(self.settings), seed, virtual)
        self.data["seats"] = [
            0 if v else ids[n] for n, v in zip(state.names, state.virtual, strict=True)
        ]
        self.data["status"] = PLAYING
        self.data["start"] = now
        self.data["skips"] = 0
        self.absences = self.absences.dealt()
        self.data["board"] = {"lines": []}
        self.hold = None
        self._set_state(state)
        silence = self.settings["delete_chatter"] and can_delete
        self.data["silence"] = silence
        self.data[BOT_CAN_DELETE] = can_delete  # kept for the next game here
        seating = ev.event(ev.SEATING, silence=silence)
        return [seating, *self._leftovers(), *self._deliver(events, now)]
