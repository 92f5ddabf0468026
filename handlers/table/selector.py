"""Which game a table link opens: the `startapp` selector, as the bot's deep links write it.

`g<chat>_<game>` opens a game's table, `r<chat>_<game>_<key>` the replay of a finished one (its
key made from the bot token: see `passes`); `m` stands for a minus sign (only A-Z, a-z, 0-9, _
and - are allowed, at most 64 of them). Anyone can write a table's selector: it chooses a game,
it never grants a seat.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from handlers.table.passes import replay_key

MAX_LENGTH = 64
TABLE, REPLAY = "g", "r"
_FORM = re.compile(r"([gr])(m?[1-9][0-9]{0,18})_([1-9][0-9]{0,18})(?:_([0-9a-f]{16}))?")


class Selector(NamedTuple):
    """A game named by a link: its group, its number, and whether it opens the replay."""

    kind: str  # TABLE or REPLAY
    chat: int
    game: int
    key: str = ""  # a replay's key

    def __str__(self) -> str:
        key = f"_{self.key}" if self.key else ""
        return f"{self.kind}{self.chat}_{self.game}".replace("-", "m") + key


def table_selector(chat: int, game: int) -> str:
    """The selector of a game's table."""
    return str(Selector(TABLE, chat, game))


def replay_selector(chat: int, game: int) -> str:
    """The selector of a finished game's replay, with its key."""
    return str(Selector(REPLAY, chat, game, replay_key(chat, game)))


def parse_selector(text: str | None) -> Selector | None:
    """The game `text` names, or None unless it is a selector written exactly as ours are."""
    if not text or len(text) > MAX_LENGTH:
        return None
    match = _FORM.fullmatch(text)
    if match is None:
        return None
    kind, chat, game, key = match.groups()
    if (kind == REPLAY) != (key is not None):
        return None  # a replay is named with its key, a table without one
    return Selector(kind, int(chat.replace("m", "-")), int(game), key or "")
