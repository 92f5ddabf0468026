"""Which game a table link opens: the `startapp` selector, as the bot's deep links write it.

`g<chat>_<game>` opens a game's table, `r<chat>_<game>` the replay of a finished one; `m` stands
for a minus sign (only A-Z, a-z, 0-9, _ and - are allowed, at most 64 of them). Anyone can write
any selector: it chooses a game, it never grants a seat.
"""

from __future__ import annotations

import re
from typing import NamedTuple

MAX_LENGTH = 64
TABLE, REPLAY = "g", "r"
_FORM = re.compile(r"([gr])(m?[1-9][0-9]{0,18})_([1-9][0-9]{0,18})")


class Selector(NamedTuple):
    """A game named by a link: its group, its number, and whether it opens the replay."""

    kind: str  # TABLE or REPLAY
    chat: int
    game: int

    def __str__(self) -> str:
        return f"{self.kind}{self.chat}_{self.game}".replace("-", "m")


def table_selector(chat: int, game: int) -> str:
    """The selector of a game's table."""
    return str(Selector(TABLE, chat, game))


def replay_selector(chat: int, game: int) -> str:
    """The selector of a finished game's replay."""
    return str(Selector(REPLAY, chat, game))


def parse_selector(text: str | None) -> Selector | None:
    """The game `text` names, or None unless it is a selector written exactly as ours are."""
    if not text or len(text) > MAX_LENGTH:
        return None
    match = _FORM.fullmatch(text)
    if match is None:
        return None
    kind, chat, game = match.groups()
    return Selector(kind, int(chat.replace("m", "-")), int(game))
