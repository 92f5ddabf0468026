"""A secret window's hold on the group's news (the Turncoat's or the Spy's): until when it runs
and the public events it keeps back until then, with its stored form."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Hold:
    """The window ends at `until`; `held`: the public engine events kept back, in order."""

    until: float
    held: tuple[dict[str, Any], ...] = ()

    def keeping(self, *events: dict[str, Any]) -> Hold:
        """The hold with `events` kept back too."""
        return replace(self, held=(*self.held, *events))

    def to_stored(self) -> dict[str, Any]:
        """The hold as the session's part stores it."""
        return {"until": self.until, "held": list(self.held)}

    @classmethod
    def from_stored(cls, stored: dict[str, Any] | None) -> Hold | None:
        """The hold stored (None: no window runs)."""
        if not stored:
            return None
        return cls(stored["until"], tuple(stored.get("held") or ()))
