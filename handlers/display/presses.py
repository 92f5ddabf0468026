"""What a button means, as a small typed press, and the one codec of its 64-byte callback_data
(and of the deep links that stand in for buttons: Join, a record, the next game's call)."""

from __future__ import annotations

import inspect
import re
from dataclasses import FrozenInstanceError
from typing import ClassVar, Literal

from engine import Action
from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP

MAX_BYTES = 64

# Where a button sits: which message carries it, and so who may press it and how.
LOBBY = "l"  # the group's lobby message (and Play again under an end)
PROMPT = "g"  # a player's private prompt and its menus
BOARD = "c"  # the group's turn message
RECORDS = "h"  # an end's Record and Next game, /history, a next-game confirmation's Cancel
AWAY = "b"  # an away player's private I'm back
REMOVAL = "r"  # the /remove keyboard
LEAVING = "q"  # the /leave question, in the group or the private chat
WHERE = (LOBBY, PROMPT, BOARD, RECORDS, AWAY, REMOVAL, LEAVING)


class Frozen:
    """An immutable record of its annotated fields (a class value is the default), equal and
    hashed by its values like a frozen dataclass, without one's generated code at import."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, object]] = {}
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        names = tuple(inspect.get_annotations(cls))
        cls._fields = cls.__match_args__ = names
        cls._defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}

    def __init__(self, *args: object, **kwargs: object) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} fields, got {len(args)}")
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in names or name in values:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {name!r}")
            values[name] = value
        for name in names:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError(f"{type(self).__name__} is missing the field {name!r}")
                values[name] = self._defaults[name]
        self.__dict__.update(values)

    def _values(self) -> tuple[object, ...]:
        return tuple(self.__dict__[name] for name in self._fields)

    def replace(self, **changes: object) -> Frozen:
        """A copy with `changes` made."""
        return type(self)(**{**self.__dict__, **changes})

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


# -- the decisions of a game (the seat is the presser's) ------------------------------------------


class Scout(Frozen):
    """Look at `target`'s card."""

    target: int

    def action(self) -> Action:
        return Action(SCOUT, target=self.target)


class Done(Frozen):
    """End the speaking moment (and the turn)."""

    def action(self) -> Action:
        return Action(END_TURN)


class Decapitate(Frozen):
    """Strike `target`, with the declarations the variants ask for (None: not asked)."""

    target: int
    proxy: bool | None = None
    bodyguard: bool | None = None

    def action(self) -> Action:
        return Action(DECAPITATE, target=self.target, proxy=self.proxy, bodyguard=self.bodyguard)


class Swap(Frozen):
    """The Turncoat swaps cards with the scout."""

    def action(self) -> Action:
        return Action(SWAP)


class Keep(Frozen):
    """The Turncoat keeps their card."""

    def action(self) -> Action:
        return Action(KEEP)


class Predict(Frozen):
    """The Observer reveals and predicts the winning colour."""

    colour: Literal["red", "blue"]

    def action(self) -> Action:
        return Action(PREDICT, color=self.colour)


class SpyGuess(Frozen):
    """The Spy names both captains."""

    red: int
    blue: int

    def action(self) -> Action:
        return Action(SPY_GUESS, red=self.red, blue=self.blue)


Decision = Scout | Done | Decapitate | Swap | Keep | Predict | SpyGuess


# -- a private prompt's menus (they change nothing in the game) -----------------------------------


class ScoutMenu(Frozen):
    """The seats one may scout."""


class StrikeMenu(Frozen):
    """The seats one may decapitate."""


class TurnMenu(Frozen):
    """Back to the turn prompt."""


class Declaring(Frozen):
    """The decapitation menu, `target` chosen and the declarations answered so far."""

    target: int
    proxy: bool | None = None
    bodyguard: bool | None = None


class SpyRed(Frozen):
    """The Spy named the Red captain; the Blue one is asked next."""

    red: int


Menu = ScoutMenu | StrikeMenu | TurnMenu | Declaring | SpyRed


# -- the group's turn message ---------------------------------------------------------------------


class MyCard(Frozen):
    """A popup with the presser's own card and what they know."""


class ListSeats(Frozen):
    """The acting player opens (`listed`) or closes the seats to scout on the turn message."""

    listed: bool


# -- the lobby --------------------------------------------------------------------------------


class Leave(Frozen):
    """Leave the lobby."""


class Settings(Frozen):
    """Turn the lobby message into the settings menu (`shown`), or back into the lobby."""

    shown: bool


class Start(Frozen):
    """Deal."""


class PlayAgain(Frozen):
    """A new lobby with the same players, under a game's end."""


class Toggle(Frozen):
    """Turn the switch `key` on or off ("lang": the group's language)."""

    key: str


class Choose(Frozen):
    """Pick `value` for the setting `key` (None: the button naming its row of choices)."""

    key: str
    value: int | None = None


# -- records, the next game, absent players -----------------------------------------------------


class SendRecord(Frozen):
    """The game's record, sent privately to whoever presses."""


class CallNext(Frozen):
    """Be told privately (or no longer) when the group's next lobby opens."""


class StopWaiting(Frozen):
    """A next-game confirmation's Cancel."""


class ImBack(Frozen):
    """An away player plays again from their next turn."""


class RemoveSeat(Frozen):
    """/remove: take the player of `seat` out of the game."""

    seat: int


class RemovePlayer(Frozen):
    """/remove in a lobby: take `user` out of it."""

    user: int


class RemoveNobody(Frozen):
    """/remove: close the keyboard."""


class LeaveGame(Frozen):
    """/leave confirmed: `user`, who asked, leaves the game; the seat plays on."""

    user: int


class StayInGame(Frozen):
    """/leave answered Stay by `user`, who asked."""

    user: int


Press = (
    Decision
    | Menu
    | MyCard
    | ListSeats
    | Leave
    | Settings
    | Start
    | PlayAgain
    | Toggle
    | Choose
    | SendRecord
    | CallNext
    | StopWaiting
    | ImBack
    | RemoveSeat
    | RemovePlayer
    | RemoveNobody
    | LeaveGame
    | StayInGame
)


class Button(Frozen):
    """A press, where it sits, and the group's game (and public version) it was made for."""

    where: str
    chat: int
    game: int
    version: int
    press: Press


# -- the codec ----------------------------------------------------------------------------------


def _flag(value: bool | None, letter: str) -> str:
    return "" if value is None else f"{letter}{int(value)}"


def _arg(press: Press) -> str:
    """The last field of a button's data."""
    match press:
        case Scout(target):
            return f"s{target}"
        case Decapitate(target, proxy, bodyguard):
            return f"x{target}{_flag(proxy, 'p')}{_flag(bodyguard, 'b')}"
        case Declaring(target, proxy, bodyguard):
            return f"d{target}{_flag(proxy, 'p')}{_flag(bodyguard, 'b')}"
        case SpyRed(red):
            return f"r{red}"
        case SpyGuess(red, blue):
            return f"y{red}.{blue}"
        case Predict(colour):
            return f"p{colour[0]}"
        case ListSeats(listed):
            return "S" if listed else "B"
        case Settings(shown):
            return "set" if shown else "back"
        case Toggle(key):
            return f"t:{key}"
        case Choose(key, value):
            return f"v:{key}" if value is None else f"v:{key}:{value}"
        case RemoveSeat(seat):
            return f"s{seat}"
        case RemovePlayer(user):
            return f"u{user}"
        case LeaveGame(user):
            return f"go{user}"
        case StayInGame(user):
            return f"stay{user}"
    return _PLAIN[type(press)]


_PLAIN: dict[type, str] = {
    Done: "e",
    Swap: "w",
    Keep: "k",
    ScoutMenu: "S",
    StrikeMenu: "D",
    TurnMenu: "B",
    MyCard: "me",
    Leave: "leave",
    Start: "start",
    PlayAgain: "again",
    SendRecord: "rec",
    CallNext: "next",
    StopWaiting: "stop",
    ImBack: "back",
    RemoveNobody: "x",
}

# What each place's buttons may say, in plain words; the rest by pattern below.
_WORDS: dict[str, dict[str, Press]] = {
    LOBBY: {
        "leave": Leave(),
        "set": Settings(True),
        "back": Settings(False),
        "start": Start(),
        "again": PlayAgain(),
    },
    PROMPT: {
        "S": ScoutMenu(),
        "D": StrikeMenu(),
        "B": TurnMenu(),
        "e": Done(),
        "w": Swap(),
        "k": Keep(),
        "pr": Predict("red"),
        "pb": Predict("blue"),
    },
    BOARD: {"me": MyCard(), "S": ListSeats(True), "B": ListSeats(False), "e": Done()},
    RECORDS: {"rec": SendRecord(), "next": CallNext(), "stop": StopWaiting()},
    AWAY: {"back": ImBack()},
    REMOVAL: {"x": RemoveNobody()},
}

_N = "([0-9]{1,6})"  # a seat (or a value): a few plain digits
_DECLARED = f"{_N}(?:p([01]))?(?:b([01]))?"
_KEY = "([a-z_]{1,40})"


def _number(digits: str | None) -> int | None:
    return None if digits is None else int(digits)


def _declared(make: type, m: re.Match[str]) -> Press:
    proxy = None if m[2] is None else m[2] == "1"
    bodyguard = None if m[3] is None else m[3] == "1"
    return make(int(m[1]), proxy, bodyguard)


_PATTERNS: dict[str, list[tuple[re.Pattern[str], object]]] = {
    LOBBY: [
        (re.compile(f"t:{_KEY}"), lambda m: Toggle(m[1])),
        (re.compile(f"v:{_KEY}(?::{_N})?"), lambda m: Choose(m[1], _number(m[2]))),
    ],
    PROMPT: [
        (re.compile(f"s{_N}"), lambda m: Scout(int(m[1]))),
        (re.compile(f"x{_DECLARED}"), lambda m: _declared(Decapitate, m)),
        (re.compile(f"d{_DECLARED}"), lambda m: _declared(Declaring, m)),
        (re.compile(f"r{_N}"), lambda m: SpyRed(int(m[1]))),
        (re.compile(f"y{_N}\\.{_N}"), lambda m: SpyGuess(int(m[1]), int(m[2]))),
    ],
    BOARD: [(re.compile(f"s{_N}"), lambda m: Scout(int(m[1])))],
    REMOVAL: [
        (re.compile(f"s{_N}"), lambda m: RemoveSeat(int(m[1]))),
        (re.compile("u([0-9]{1,20})"), lambda m: RemovePlayer(int(m[1]))),
    ],
    LEAVING: [
        (re.compile("go([0-9]{1,20})"), lambda m: LeaveGame(int(m[1]))),
        (re.compile("stay([0-9]{1,20})"), lambda m: StayInGame(int(m[1]))),
    ],
}


def _press(where: str, arg: str) -> Press | None:
    """The press `arg` stands for on a button sitting `where`, or None."""
    word = _WORDS.get(where, {}).get(arg)
    if word is not None:
        return word
    for pattern, make in _PATTERNS.get(where, ()):
        m = pattern.fullmatch(arg)
        if m:
            return make(m)  # type: ignore[operator]
    return None


def encode(button: Button) -> str:
    """The callback_data for a button; never longer than Telegram's 64 bytes."""
    b = button
    data = f"{b.where}|{b.chat}|{b.game}|{b.version}|{_arg(b.press)}"
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback data too long: {data!r}")
    return data


_INT = re.compile("-?[0-9]{1,20}")


def decode(data: str | None) -> Button | None:
    """The button a callback_data stands for, or None when it is not one of ours."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split("|")
    if len(parts) != 5 or parts[0] not in WHERE:
        return None
    where, chat, game, version, arg = parts
    if not all(_INT.fullmatch(n) for n in (chat, game, version)):
        return None
    press = _press(where, arg)
    if press is None:
        return None
    return Button(where, int(chat), int(game), int(version), press)


# -- deep links: the Join button, a record asked for, the next game's call -----------------------


def join_payload(chat: int, game: int) -> str:
    """The /start deep-link payload that joins a lobby (only A-Z, a-z, 0-9, _ and -)."""
    return f"j{chat}_{game}".replace("-", "m")


def parse_join(payload: str) -> tuple[int, int] | None:
    """The (chat, game) a join payload names, or None."""
    if not payload.startswith("j") or "_" not in payload:
        return None
    chat, _, game = payload[1:].replace("m", "-").partition("_")
    try:
        return int(chat), int(game)
    except ValueError:
        return None


RECORD, NEXT = "rec", "next"  # what a deep link other than Join asks for


def record_payload(chat: int, game: int) -> str:
    """The /start deep-link payload that asks for a finished game's record."""
    return f"r{chat}_{game}".replace("-", "m")


def next_payload(chat: int) -> str:
    """The /start deep-link payload that asks to be told of a group's next lobby."""
    return f"n{chat}".replace("-", "m")


def parse_payload(payload: str) -> tuple[str, int, int] | None:
    """(RECORD, chat, game) or (NEXT, chat, 0) for a payload of ours that is no join, or None."""
    kind = {"r": RECORD, "n": NEXT}.get(payload[:1])
    if kind is None:
        return None
    chat, _, game = payload[1:].replace("m", "-").partition("_")
    if (kind == RECORD) != bool(game):
        return None
    try:
        return kind, int(chat), int(game) if game else 0
    except ValueError:
        return None
