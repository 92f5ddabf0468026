"""The presses around a game: the lobby and its Settings, Play again, a finished game's record
and the next game's call."""

from __future__ import annotations

from handlers.display.frozen import Frozen

# -- the lobby and its Settings ------------------------------------------------------------------


class Leave(Frozen):
    """Leave the lobby."""


class Settings(Frozen):
    """Turn the lobby message into the settings menu (`shown`), or back into the lobby."""

    shown: bool


class Start(Frozen):
    """Deal."""


class PlayAgain(Frozen):
    """A new lobby with the same players, under a game's end."""


class ImIn(Frozen):
    """A rematch's I'm in: a player of the last game plays the next."""


class Toggle(Frozen):
    """Turn the switch `key` on or off ("lang": the group's language)."""

    key: str


class Choose(Frozen):
    """Pick `value` for the setting `key` (None: the button naming its row of choices)."""

    key: str
    value: int | None = None


# -- records, the next game ----------------------------------------------------------------------


class SendRecord(Frozen):
    """The game's record, sent privately to whoever presses."""


class CallNext(Frozen):
    """Be told privately (or no longer) when the group's next lobby opens."""


class StopWaiting(Frozen):
    """A next-game confirmation's Cancel."""
