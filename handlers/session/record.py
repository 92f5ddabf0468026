"""The session's part of a group's item as typed records (the lobby's people, the turn message, the
open prompts, the absences, the hold) and its codec, as `engine/codec.py` is the engine's.

The codec is written here, not taken from a library: the session imports only the standard
library (an import contract), and it reads the sparse parts an earlier version wrote. It is
generic: each field is named once, in the record, and kept by the rule its declaration gives
(`kept` where the rule does not say)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from typing import Any, TypeVar

from engine.codec import SCHEMA, newer_form
from handlers.session.absentees import Absences
from handlers.session.holds import Hold

R = TypeVar("R")
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


def kept(
    read: Callable[[Any], Any] | None = None,
    write: Callable[[Any], Any] | None = None,
    flat: bool = False,
    sparse: bool = False,
) -> dict[str, Any]:
    """A field's metadata: how its codec keeps it where the generic rule (`_written`, `_read`)
    does not say: how its stored value is `read` and `write`-n, `flat`, its record's keys
    among the part's own (`read` is then handed the whole part), or `sparse`, left out empty."""
    return {"read": read, "write": write, "flat": flat, "sparse": sparse}


def _players(stored: Any) -> list[list[Any]]:
    return [list(player) for player in stored or ()]


@dataclass
class Roster:
    """The lobby's people: the host (`creator`), who joined (`players`, as [user, name] in
    order), the language each reads and their usernames (by user id, as text), and the name of
    a host who left."""

    creator: int | None = None
    players: list[list[Any]] = field(metadata=kept(_players), default_factory=list)
    langs: dict[str, str] = field(default_factory=dict)
    handles: dict[str, str] = field(default_factory=dict)
    host_left: str | None = None


def _roster(part: dict[str, Any]) -> Roster:
    return _read(Roster, part)


def _reminder(stored: Any) -> list[float] | None:
    return list(stored) if stored else None


def _hold_stored(hold: Hold | None) -> dict[str, Any] | None:
    return hold.to_stored() if hold is not None else None


def _prompts(stored: Any) -> dict[str, OpenPrompt]:
    return {user: OpenPrompt.from_stored(open_) for user, open_ in (stored or {}).items()}


def _prompts_stored(prompts: dict[str, OpenPrompt]) -> dict[str, Any]:
    return {user: open_.to_stored() for user, open_ in prompts.items()}


@dataclass
class TableRecord:
    """A group's lobby or game as the session stores it: each field under its own name, in
    this order (the lobby's people and the absences among the part's own keys)."""

    chat: int
    game: int
    status: str
    lang: str = field(metadata=kept(lambda stored: stored or "en"))
    settings: dict[str, Any] = field(metadata=kept(lambda stored: dict(stored or {})))
    title: str = ""
    opened: float = 0
    roster: Roster = field(metadata=kept(_roster, flat=True), default_factory=Roster)
    again_of: int | None = None  # the game whose Play again opened this lobby
    menu: bool = False  # the lobby message shows the settings menu
    bot_can_delete: bool | None = None  # the bot's right to delete messages, as last heard
    removing: bool = False  # a /remove keyboard is live
    leaving: dict[str, str] = field(default_factory=dict)  # user: where /leave was asked
    deadline: float | None = None  # when the current wait ends
    # [when the countdown is refreshed, for which deadline]
    reminder: list[float] | None = field(default=None, metadata=kept(_reminder))
    # the game
    seats: list[int] = field(default_factory=list)  # the user in each seat (0: virtual)
    engine: dict[str, Any] | None = None  # the engine's state, in its codec's form
    shift: int = 0  # the public version's distance from the engine's (secret decisions)
    start: float | None = None  # when the game was dealt
    skips: int = 0  # turns passed unplayed in a row
    silence: bool = False  # the bot deletes what is said out of turn
    group_scout: bool = False  # this turn's scout was pressed on the group's turn message
    board: TurnBoard = field(
        metadata=kept(TurnBoard.from_stored, TurnBoard.to_stored), default_factory=TurnBoard
    )
    # by user id, as text
    prompts: dict[str, OpenPrompt] = field(
        metadata=kept(_prompts, _prompts_stored), default_factory=dict
    )
    prompt_tags: int = 0  # the last prompt tag given out
    hold: Hold | None = field(default=None, metadata=kept(Hold.from_stored, _hold_stored))
    absences: Absences = field(
        metadata=kept(Absences.from_stored, Absences.to_stored, flat=True),
        default_factory=Absences,
    )
    # the seats the bot plays itself (see `bot_seats.py`)
    bots: list[int] = field(metadata=kept(sparse=True), default_factory=list)  # their seats
    # by seat: its last move and what it knew
    bot_why: dict[str, dict[str, Any]] = field(metadata=kept(sparse=True), default_factory=dict)
    # a rematch: the lobby Play again opened deals itself (see `rematch.py`); "awaited", the
    # players of the last game seated in it who have not yet pressed I'm in
    rematch: bool = field(default=False, metadata=kept(sparse=True))
    awaited: list[int] = field(metadata=kept(sparse=True), default_factory=list)


def to_stored(record: TableRecord) -> dict[str, Any]:
    """The session's part as stored (JSON)."""
    return {"form": FORM, **_written(record)}


def from_stored(stored: dict[str, Any]) -> TableRecord:
    """The record a stored session part holds: what a change may edit in place is copied, so
    the stored dict stays as read (the engine's state is replaced whole, never edited). An item
    stored before the session had a part of its own is read once from its one dict; keys this
    form does not know are let go, and a newer form raises `NewerForm` (the item is left)."""
    newer_form(stored.get("form"), FORM, "the session's part")
    newer_form((stored.get("engine") or {}).get("schema"), SCHEMA, "the game state's schema")
    typed = isinstance(stored.get("form"), int) and stored["form"] >= TYPED
    return _read(TableRecord, stored if typed else _the_sessions(stored))


@cache
def _plan(kind: type) -> tuple[tuple[str, str, Any], ...]:
    """How each field of `kind` is kept, in order: (name, rule, its function or default)."""
    plan = []
    for f in fields(kind):
        how = f.metadata
        if how.get("read") is not None:
            rule, given = ("flat" if how.get("flat") else "read"), how["read"]
        elif f.default is MISSING and f.default_factory is MISSING:
            rule, given = "required", None
        elif f.type == "bool":
            rule, given = "flag", None
        elif f.default_factory is not MISSING:
            rule, given = "copy", type(f.default_factory())
        else:
            rule, given = ("as_is" if f.default is None else "or_default"), f.default
        plan.append((f.name, rule, given))
    return tuple(plan)


@cache
def _writing(kind: type) -> tuple[tuple[str, Callable[[Any], Any] | None, bool, bool], ...]:
    """How each field of `kind` is written, in order: (name, its `write`, whether `flat`,
    whether `sparse`)."""
    return tuple(
        (
            f.name,
            f.metadata.get("write"),
            bool(f.metadata.get("flat")),
            bool(f.metadata.get("sparse")),
        )
        for f in fields(kind)
    )


def _written(record: Any) -> dict[str, Any]:
    """A record's fields as stored, in their order: a field's own `write`, else the generic
    form for a `flat` record, else its value."""
    stored: dict[str, Any] = {}
    for name, write, flat, sparse in _writing(type(record)):
        value = getattr(record, name)
        if sparse and not value:
            continue
        if write is not None:
            value = write(value)
        elif flat:
            value = _written(value)
        if flat:
            stored.update(value)
        else:
            stored[name] = value
    return stored


def _read(kind: type[R], stored: dict[str, Any]) -> R:
    """A record of `kind` from its stored fields: a field's own `read` (handed the whole part
    when `flat`), else the value as stored, a required field's or one whose default is None;
    a flag as true or false; a list or dict copied; any other taking its default when absent
    or empty."""
    values: dict[str, Any] = {}
    for name, rule, given in _plan(kind):
        value = stored.get(name)
        if rule == "read":
            values[name] = given(value)
        elif rule == "flat":
            values[name] = given(stored)
        elif rule == "required":
            values[name] = stored[name]
        elif rule == "flag":
            values[name] = bool(value)
        elif rule == "copy":
            values[name] = given(value or ())
        elif rule == "as_is":
            values[name] = value
        else:
            values[name] = value or given
    return kind(**values)


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
