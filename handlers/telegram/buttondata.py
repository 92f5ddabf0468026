"""Callback data: what a button means, in at most 64 bytes, naming its game and version."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
LOBBY, GAME, BOARD, HISTORY = "l", "g", "c", "h"
BACK, REMOVE = "b", "r"  # an away player's I'm back; the /remove keyboard
KINDS = (LOBBY, GAME, BOARD, HISTORY, BACK, REMOVE)
RECORD, NEXT, STOP = "rec", "next", "stop"  # a HISTORY button's argument


@dataclass(frozen=True)
class Press:
    """A decoded button: which kind, which group's game, which version, and its argument."""

    kind: str
    chat: int
    game: int
    version: int
    arg: str


def encode(kind: str, chat: int, game: int, version: int, arg: str) -> str:
    """The callback_data for a button; never longer than Telegram's 64 bytes."""
    data = f"{kind}|{chat}|{game}|{version}|{arg}"
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback data too long: {data!r}")
    return data


def pattern(kind: str) -> re.Pattern[str]:
    """What the callback data of a button of `kind` starts with (for routing presses)."""
    return re.compile(f"^{re.escape(kind)}\\|")


def decode(data: str | None) -> Press | None:
    """The press a callback_data stands for, or None when it is not one of ours."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split("|")
    if len(parts) != 5 or parts[0] not in KINDS:
        return None
    kind, chat, game, version, arg = parts
    try:
        return Press(kind, int(chat), int(game), int(version), arg)
    except ValueError:
        return None


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


SWITCH, CHOICE = "t", "v"  # a settings button that toggles, or that picks a value


def switch_arg(key: str) -> str:
    """The argument of a settings button that turns the switch `key` on or off ("lang": the
    language)."""
    return f"{SWITCH}:{key}"


def choice_arg(key: str, value: int | None = None) -> str:
    """The argument of a settings button that picks `value` for `key` (None: the button that
    names the row of choices)."""
    return f"{CHOICE}:{key}" if value is None else f"{CHOICE}:{key}:{value}"


def parse_setting(arg: str) -> tuple[str, str, int | None] | None:
    """(SWITCH, key, None) for 't:key', (CHOICE, key, value or None) for 'v:key[:value]', None
    for an argument that is no settings button; ValueError if malformed."""
    kind, colon, rest = arg.partition(":")
    if not colon or kind not in (SWITCH, CHOICE):
        return None
    parts = rest.split(":")
    if not parts[0] or len(parts) > (1 if kind == SWITCH else 2):
        raise ValueError(arg)
    if len(parts) == 1:
        return kind, parts[0], None
    if not (parts[1].isascii() and parts[1].isdigit()):
        raise ValueError(arg)
    return kind, parts[0], int(parts[1])


def parse_decapitation(arg: str) -> tuple[int, bool | None, bool | None]:
    """(target, proxy, bodyguard) from 'd5', 'd5p1', 'd5p0b1', 'x5b0' ...; ValueError if bad."""
    body = arg[1:]
    proxy = guard = None
    if "b" in body:
        body, _, g = body.partition("b")
        if g not in ("0", "1"):
            raise ValueError(arg)
        guard = g == "1"
    if "p" in body:
        body, _, p = body.partition("p")
        if p not in ("0", "1"):
            raise ValueError(arg)
        proxy = p == "1"
    if not body.isdigit():
        raise ValueError(arg)
    return int(body), proxy, guard


NOBODY = "x"  # the /remove keyboard's button that removes nobody


def remove_arg(seat: int | None = None, user: int | None = None) -> str:
    """The argument of a /remove button: a game's seat ('s3'), a lobby's player ('u12345')."""
    return f"s{seat}" if seat is not None else f"u{user}"


def parse_remove(arg: str) -> tuple[str, int] | None:
    """("s", seat) or ("u", user) from a /remove button's argument; None if malformed."""
    kind, number = arg[:1], arg[1:]
    if kind not in ("s", "u") or not (number.isascii() and number.isdigit()):
        return None
    return kind, int(number)
