"""The messages a change owes (a new message, an edit, buttons taken off, a deletion) and their
stored form, which only this module reads or writes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

Keyboard = list[list[list[str]]] | None  # rows of [label, callback data or URL]


@dataclass(frozen=True)
class Send:
    """A new message in `chat`."""

    chat: int
    text: str
    kb: Keyboard = None
    remember: str | None = None  # the name its message id is remembered by, for later edits
    tag: int | None = None  # the turn message it is (its id is kept only while it is current)
    private: bool = False  # to one person: an unreachable one is reported
    protect: bool = False  # protected from forwarding
    quiet: bool = False  # part of a secret wait: its player is never named in the group
    reply_to: int | None = None  # the message it answers (sent all the same if that is gone)


@dataclass(frozen=True)
class Edit:
    """A message of `chat` rewritten in place: the one numbered `msg`, else the one remembered
    by `ref` (when it is gone, posted anew and remembered by `ref` again)."""

    chat: int
    text: str
    kb: Keyboard = None
    msg: int | None = None
    ref: str | None = None
    tag: int | None = None
    private: bool = False
    protect: bool = False
    quiet: bool = False
    side: bool = False  # in place: it needs no turn in its chat's order
    close: bool = False  # a prompt closed: unknown or gone, there is nothing to close ...
    tell: bool = False  # ... unless it tells a wait that ran out (then it comes as a new message)


@dataclass(frozen=True)
class DropButtons:
    """Message `msg` of `chat` loses its buttons (but `kb`, when given), its text as it is."""

    chat: int
    msg: int
    kb: Keyboard = None
    side: bool = True


@dataclass(frozen=True)
class Delete:
    """Message `msg` of `chat` is deleted."""

    chat: int
    msg: int


Out = Send | Edit | DropButtons | Delete

_OPS: dict[str, type] = {"send": Send, "edit": Edit, "drop_buttons": DropButtons, "delete": Delete}
_OP_OF = {kind: op for op, kind in _OPS.items()}


def op(out: Out) -> str:
    """What `out` does, in a word: "send", "edit", "drop_buttons" or "delete"."""
    return _OP_OF[type(out)]


def to_stored(out: Out) -> dict[str, Any]:
    """The message as an owed batch stores it: its kind as "op", and the fields it sets."""
    defaults = {f.name: f.default for f in fields(out)}
    stored = {k: v for k, v in asdict(out).items() if v != defaults[k]}
    return {"op": op(out), **stored}


def from_stored(stored: dict[str, Any]) -> Out:
    """The message an owed batch stored (earlier versions' extra keys are let go)."""
    kind = _OPS[stored["op"]]
    names = {f.name for f in fields(kind)}
    return kind(**{k: v for k, v in stored.items() if k in names})
