"""A table as the renderers read it: built once for a change from the session's table, with
what every message asks for (the language, the group, the names by seat) read off it once."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from engine.state import GameState
from handlers.session.table import Table

# What a view learns of its table once, the same whichever language it speaks.
_SHARED = ("state", "names", "seats", "settings", "public_version", "readers")


@dataclass(frozen=True, eq=False)
class View:
    """The table as the renderers read it, in one language: the language, the group and the
    seats are plain values, read once; anything else is asked of the table itself (so a view
    stands wherever a `Table` does, and renders the same). Only its texts speak the view's
    language: the renderers ask the table for facts, never for words."""

    table: Table
    lang: str
    chat: int
    game: int
    title: str

    @classmethod
    def of(cls, table: Table | View) -> View:
        """The view of `table` (a view is its own)."""
        if isinstance(table, View):
            return table
        return cls(table, table.lang, table.chat, table.game, table.title)

    @cached_property
    def state(self) -> GameState:
        """The engine's state, as the table rebuilt it."""
        return self.table.state

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The display names, by seat (from seat 1)."""
        return tuple(self.state.names)

    @cached_property
    def seats(self) -> tuple[int, ...]:
        """The user in each seat (0: a virtual player), by seat (from seat 1)."""
        return self.table.seat_users

    @cached_property
    def settings(self) -> dict:
        """The game's settings."""
        return self.table.settings

    @cached_property
    def public_version(self) -> int:
        """The game's version as buttons carry it."""
        return self.table.public_version

    def name_of(self, seat: int) -> str:
        """A seat's display name."""
        return self.names[seat - 1]

    def user_at(self, seat: int) -> int:
        """The user in a seat (0 for a virtual seat)."""
        return self.seats[seat - 1]

    def speaking(self, lang: str) -> View:
        """The view in `lang` (itself if it speaks it): only the texts change, so what it
        learnt of the table holds."""
        if lang == self.lang:
            return self
        spoken = replace(self, lang=lang)
        spoken.__dict__.update(
            {key: self.__dict__[key] for key in _SHARED if key in self.__dict__}
        )
        return spoken

    @cached_property
    def readers(self) -> dict[int, str]:
        """The language each person at the table reads in private, asked of the table once."""
        return {user: self.table.lang_of(user) for user in self.table.users()}

    def speaking_to(self, user: int) -> View:
        """The view as `user` reads it in private, in their language."""
        lang = self.readers.get(user)
        return self.speaking(lang if lang is not None else self.table.lang_of(user))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)
