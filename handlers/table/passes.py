"""The table's two keys, made from the bot token so that checking one needs no read: a finished
game's replay key (in its link, so a replay is named only by someone shown the link) and a seat's
pass (given to a player with their private button and their first view, so that later polls skip
Telegram's membership check and stay bound to the one game they were opened for)."""

from __future__ import annotations

import hashlib
import hmac

REPLAY_KEY_LENGTH = 16  # hex digits: 64 bits, out of reach of guessing behind the throttles
PASS_LENGTH = 32
_TOKEN = {"token": ""}  # the bot token of this process's links (set by its entry point)


def configure(token: str) -> None:
    """The bot token the links this process writes are keyed with."""
    _TOKEN["token"] = token


def _mac(token: str, text: str) -> str:
    key = hashlib.sha256(b"decapitation-table:" + token.encode()).digest()
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def replay_key(chat: int, game: int, token: str | None = None) -> str:
    """The key in the link of the game's replay."""
    return _mac(_TOKEN["token"] if token is None else token, f"replay:{chat}:{game}")[
        :REPLAY_KEY_LENGTH
    ]


def seat_pass(user: int, chat: int, game: int, token: str | None = None) -> str:
    """The pass of `user` to the game's table and replay."""
    return _mac(_TOKEN["token"] if token is None else token, f"pass:{user}:{chat}:{game}")[
        :PASS_LENGTH
    ]


def is_replay_key(text: str, chat: int, game: int, token: str) -> bool:
    """True when `text` is the game's replay key."""
    return hmac.compare_digest(text.encode(), replay_key(chat, game, token).encode())


def is_seat_pass(text: str | None, user: int, chat: int, game: int, token: str) -> bool:
    """True when `text` is `user`'s pass to the game."""
    if not text or not text.isascii():
        return False
    return hmac.compare_digest(text.encode(), seat_pass(user, chat, game, token).encode())
