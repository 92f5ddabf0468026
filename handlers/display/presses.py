"""What a button means, as a small typed press, and the one codec of its 64-byte callback_data
(and of the deep links that stand in for buttons: Join, a record, the next game's call)."""

from __future__ import annotations

import re

from handlers.display.frozen import Frozen
from handlers.display.game_presses import (
    Decapitate,
    Decision,
    Declaring,
    Done,
    ImBack,
    Keep,
    LeaveGame,
    ListSeats,
    Menu,
    MyCard,
    Predict,
    RemoveNobody,
    RemovePlayer,
    RemoveSeat,
    Scout,
    ScoutMenu,
    SpyGuess,
    SpyRed,
    StayInGame,
    StrikeMenu,
    Swap,
    TurnMenu,
)
from handlers.display.lobby_presses import (
    CallNext,
    Choose,
    ImIn,
    Leave,
    PlayAgain,
    SendRecord,
    Settings,
    Start,
    StopWaiting,
    Toggle,
)

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


Press = (
    Decision
    | Menu
    | MyCard
    | ListSeats
    | Leave
    | Settings
    | Start
    | PlayAgain
    | ImIn
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
    ImIn: "in",
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
        "in": ImIn(),
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
