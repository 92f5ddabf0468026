"""A table as the renderers read it: built once for a change from the session's table, with
what every message asks for (the language, the group, the names by seat) read off it once."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.state import GameState
from handlers.session.base import Drawn
from handlers.session.table import Table


@dataclass(frozen=True, eq=False)
class View:
    """The table as the renderers read it, in one language: what every message reads (the
    language, the group, the names and users by seat) is read off the table at once, as plain
    values; anything else is asked of the table itself (so a view stands wherever a `Table`
    does, and renders the same). Only its texts speak the view's language: the renderers ask
    the table for facts, never for words."""

    table: Table
    lang: str
    chat: int
    game: int
    title: str
    drawn: Drawn

    @classmethod
    def of(cls, table: Table | View) -> View:
        """The view of `table` (a view is its own)."""
        if isinstance(table, View):
            return table
        drawn = table.drawn()
        return cls(table, drawn.lang, drawn.chat, drawn.game, drawn.title, drawn)

    @property
    def state(self) -> GameState:
        """The engine's state, as the table rebuilt it."""
        return self.drawn.state if self.drawn.state is not None else self.table.state

    @property
    def names(self) -> tuple[str, ...]:
        """The display names, by seat (from seat 1)."""
        return self.drawn.names

    @property
    def seats(self) -> tuple[int, ...]:
        """The user in each seat (0: a virtual player), by seat (from seat 1)."""
        return self.drawn.seats

    @property
    def settings(self) -> dict:
        """The game's settings."""
        return self.drawn.settings

    @property
    def public_version(self) -> int:
        """The game's version as buttons carry it."""
        version = self.drawn.public_version
        return version if version is not None else self.table.public_version

    @property
    def readers(self) -> dict[int, str]:
        """The language each person at the table reads in private."""
        return self.drawn.readers

    def name_of(self, seat: int) -> str:
        """A seat's display name."""
        return self.names[seat - 1]

    def user_at(self, seat: int) -> int:
        """The user in a seat (0 for a virtual seat)."""
        return self.seats[seat - 1]

    def speaking(self, lang: str) -> View:
        """The view in `lang` (itself if it speaks it): only the texts change, so what it
        learnt of the table holds."""
        return self if lang == self.lang else replace(self, lang=lang)

    def speaking_to(self, user: int) -> View:
        """The view as `user` reads it in private, in their language."""
        lang = self.readers.get(user)
        return self.speaking(lang if lang is not None else self.table.lang_of(user))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)
