"""The session's part of a group's item as typed records (the lobby's people, the turn message, the
open prompts, the absences, the hold) and its codec, as `engine/codec.py` is the engine's.

The codec is written here, not taken from a library: the session imports only the standard
library (an import contract), and it reads the sparse parts an earlier version wrote. Reading
an 8-player game's part takes about 73 µs, writing it 20 µs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.codec import SCHEMA, newer_form
from handlers.session.absentees import KEYS as ABSENCE_KEYS
from handlers.session.absentees import Absences
from handlers.session.holds import Hold

FORM = 2  # the stored form of the session's part (a key absent takes its field's default)
TYPED = 2  # the first form of the session's part (before it, the item was one dict)
# A later form keeps this one's keys (an unknown key is let go): only a form a release before
# cannot read is a new number, and it is written once every function reads it.
# What an item stored before the session had a part of its own kept beside the session's data:
# storage's envelope, and the Telegram side's message ids (read by their owners).
_NOT_THE_SESSIONS = ("applied", "owed", "moved_to", "lobby_msg", "end_msg", "remove_msg")


@dataclass
class TurnBoard:
    """The group's turn message as the session keeps it: its `tag` (the game's version when it
    opened, which the Telegram side knows its message by), its `lines` as they come, and `step`
    ("scout" while it lists the seats to scout)."""

    tag: int | None = None
    lines: list[Any] = field(default_factory=list)
    step: str | None = None

    def to_stored(self) -> dict[str, Any]:
        stored: dict[str, Any] = {"tag": self.tag, "lines": self.lines}
        if self.step is not None:
            stored["step"] = self.step
        return stored

    @classmethod
    def from_stored(cls, stored: dict[str, Any] | None) -> TurnBoard:
        stored = stored or {}
        return cls(stored.get("tag"), list(stored.get("lines") or []), stored.get("step"))


@dataclass
class OpenPrompt:
    """A private prompt a player has open: its `tag` (None for one the table did not note),
    `quiet` when its wait is a secret one, and `shows`, what it tells above its question and
    keeps when it closes (the scout result, or the card dealt with the game's first turn)."""

    tag: int | None
    quiet: bool
    shows: dict[str, Any] | None = None

    def to_stored(self) -> dict[str, Any]:
        stored: dict[str, Any] = {"tag": self.tag, "quiet": self.quiet}
        if self.shows is not None:
            stored["shows"] = self.shows
        return stored

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> OpenPrompt:
        return cls(stored.get("tag"), bool(stored.get("quiet")), stored.get("shows"))


@dataclass
class Roster:
    """The lobby's people: who joined (`players`, as [user, name] in order), the host
    (`creator`), the language each reads and their usernames (by user id, as text), and the
    name of a host who left."""

    players: list[list[Any]] = field(default_factory=list)
    creator: int | None = None
    langs: dict[str, str] = field(default_factory=dict)
    handles: dict[str, str] = field(default_factory=dict)
    host_left: str | None = None


@dataclass
class TableRecord:
    """A group's lobby or game as the session stores it."""

    chat: int
    game: int
    status: str
    lang: str
    settings: dict[str, Any]
    roster: Roster = field(default_factory=Roster)
    title: str = ""
    opened: float = 0
    again_of: int | None = None  # the game whose Play again opened this lobby
    menu: bool = False  # the lobby message shows the settings menu
    bot_can_delete: bool | None = None  # the bot's right to delete messages, as last heard
    removing: bool = False  # a /remove keyboard is live
    leaving: dict[str, str] = field(default_factory=dict)  # user: where /leave was asked
    deadline: float | None = None  # when the current wait ends
    reminder: list[float] | None = None  # [when the countdown is refreshed, for which deadline]
    # the game
    seats: list[int] = field(default_factory=list)  # the user in each seat (0: virtual)
    engine: dict[str, Any] | None = None  # the engine's state, in its codec's form
    shift: int = 0  # the public version's distance from the engine's (secret decisions)
    start: float | None = None  # when the game was dealt
    skips: int = 0  # turns passed unplayed in a row
    silence: bool = False  # the bot deletes what is said out of turn
    group_scout: bool = False  # this turn's scout was pressed on the group's turn message
    board: TurnBoard = field(default_factory=TurnBoard)
    prompts: dict[str, OpenPrompt] = field(default_factory=dict)  # by user id, as text
    prompt_tags: int = 0  # the last prompt tag given out
    hold: Hold | None = None
    absences: Absences = field(default_factory=Absences)
    # the seats the bot plays itself (see `bot_seats.py`)
    bots: list[int] = field(default_factory=list)  # their seats
    bot_why: dict[str, dict[str, Any]] = field(default_factory=dict)  # by seat: its last move


def to_stored(record: TableRecord) -> dict[str, Any]:
    """The session's part as stored (JSON)."""
    roster = record.roster
    return {
        "form": FORM,
        "chat": record.chat,
        "game": record.game,
        "status": record.status,
        "lang": record.lang,
        "settings": record.settings,
        "title": record.title,
        "opened": record.opened,
        "creator": roster.creator,
        "players": roster.players,
        "langs": roster.langs,
        "handles": roster.handles,
        "host_left": roster.host_left,
        "again_of": record.again_of,
        "menu": record.menu,
        "bot_can_delete": record.bot_can_delete,
        "removing": record.removing,
        "leaving": record.leaving,
        "deadline": record.deadline,
        "reminder": record.reminder,
        "seats": record.seats,
        "engine": record.engine,
        "shift": record.shift,
        "start": record.start,
        "skips": record.skips,
        "silence": record.silence,
        "group_scout": record.group_scout,
        "board": record.board.to_stored(),
        "prompts": {user: open_.to_stored() for user, open_ in record.prompts.items()},
        "prompt_tags": record.prompt_tags,
        "hold": record.hold.to_stored() if record.hold is not None else None,
        **record.absences.to_stored(),
        "bots": record.bots,
        "bot_why": record.bot_why,
    }


def from_stored(stored: dict[str, Any]) -> TableRecord:
    """The record a stored session part holds: what a change may edit in place is copied, so
    the stored dict stays as read (the engine's state is replaced whole, never edited). An item
    stored before the session had a part of its own is read once from its one dict; keys this
    form does not know are let go, and a newer form raises `NewerForm` (the item is left)."""
    newer_form(stored.get("form"), FORM, "the session's part")
    newer_form((stored.get("engine") or {}).get("schema"), SCHEMA, "the game state's schema")
    typed = isinstance(stored.get("form"), int) and stored["form"] >= TYPED
    data = stored if typed else _the_sessions(stored)
    reminder = data.get("reminder")
    return TableRecord(
        chat=data["chat"],
        game=data["game"],
        status=data["status"],
        lang=data.get("lang") or "en",
        settings=dict(data.get("settings") or {}),
        roster=Roster(
            players=[list(player) for player in data.get("players") or ()],
            creator=data.get("creator"),
            langs=dict(data.get("langs") or {}),
            handles=dict(data.get("handles") or {}),
            host_left=data.get("host_left"),
        ),
        title=data.get("title") or "",
        opened=data.get("opened") or 0,
        again_of=data.get("again_of"),
        menu=bool(data.get("menu")),
        bot_can_delete=data.get("bot_can_delete"),
        removing=bool(data.get("removing")),
        leaving=dict(data.get("leaving") or {}),
        deadline=data.get("deadline"),
        reminder=list(reminder) if reminder else None,
        seats=list(data.get("seats") or ()),
        engine=data.get("engine"),
        shift=data.get("shift") or 0,
        start=data.get("start"),
        skips=data.get("skips") or 0,
        silence=bool(data.get("silence")),
        group_scout=bool(data.get("group_scout")),
        board=TurnBoard.from_stored(data.get("board")),
        prompts={u: OpenPrompt.from_stored(p) for u, p in (data.get("prompts") or {}).items()},
        prompt_tags=data.get("prompt_tags") or 0,
        hold=Hold.from_stored(data.get("hold")),
        absences=Absences.from_stored({k: data[k] for k in ABSENCE_KEYS if k in data}),
        bots=list(data.get("bots") or ()),
        bot_why=dict(data.get("bot_why") or {}),
    )


def _the_sessions(stored: dict[str, Any]) -> dict[str, Any]:
    """The session's fields of an item stored before the parts were apart: without storage's
    envelope and the Telegram side's message ids (each read by its owner)."""
    data = {
        k: v
        for k, v in stored.items()
        if k not in _NOT_THE_SESSIONS and not k.startswith("away_msg_")
    }
    if stored.get("remove_msg"):
        data["removing"] = True  # a /remove keyboard is live (its id is the Telegram side's)
    return data  # the board's and the prompts' message ids are dropped as they are read
