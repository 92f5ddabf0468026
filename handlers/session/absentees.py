"""Who is not there, as the session's part stores it: seats away, coming back, removed or left,
the turns each missed in a row, and the players the bot cannot reach privately."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

# the stored keys, in the order they are written
KEYS = (
    "away",
    "back",
    "removed",
    "missed",
    "left",
    "unreachable",
    "blocked",
    "reached",
    "back_held",
    "shut_out",
)


def _listed(*ids: int) -> tuple[int, ...]:
    """`ids` in order, each once."""
    return tuple(dict.fromkeys(ids))


def _frozen(counts: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(counts))


@dataclass(frozen=True)
class Absences:
    """Seats (`away`, `coming_back`, `removed`, `left`, `missed`) and users (`unreachable`,
    `blocked`, `reached_again`, `back_held`, `shut_out`)."""

    away: tuple[int, ...] = ()  # seats whose turns pass for missed turns, in the order marked
    coming_back: tuple[int, ...] = ()  # away seats whose player pressed I'm back
    missed: Mapping[int, int] = field(default_factory=lambda: _frozen({}))  # seat: in a row
    removed: tuple[int, ...] = ()  # seats whose player was removed or left
    left: tuple[int, ...] = ()  # of those, the seats whose player left with /leave
    unreachable: tuple[int, ...] = ()  # users a private message failed to reach
    blocked: tuple[int, ...] = ()  # of those, the users who blocked the bot
    reached_again: tuple[int, ...] = ()  # users lost in this game the bot reaches again
    back_held: tuple[int, ...] = ()  # users back in touch during a secret wait, not told yet
    shut_out: tuple[int, ...] = ()  # users Telegram said blocked the bot (kept from the group)

    # -- seats ---------------------------------------------------------------------------------

    def dealt(self) -> Absences:
        """A game is dealt: nobody is away, coming back or removed, no turn missed yet."""
        return replace(self, away=(), coming_back=(), removed=(), missed=_frozen({}))

    def acted(self, seat: int) -> Absences:
        """The seat took its turn or its speaking moment: its missed turns start again."""
        return replace(self, missed=_frozen({s: n for s, n in self.missed.items() if s != seat}))

    def missed_turn(self, seat: int) -> Absences:
        """The seat's turn ran out: one more missed in a row."""
        return replace(self, missed=_frozen({**self.missed, seat: self.missed.get(seat, 0) + 1}))

    def marked_away(self, seat: int) -> Absences:
        """The seat's turns pass at once from now (until its player comes back)."""
        return replace(self, away=(*self.away, seat))

    def asked_back(self, seat: int) -> Absences:
        """The away seat's player pressed I'm back: their next turn waits for them."""
        return replace(self, coming_back=(*self.coming_back, seat))

    def back(self, seat: int) -> Absences:
        """The seat's player who asked to come back plays again: away no more, no turn missed."""
        return replace(
            self.acted(seat),
            away=tuple(s for s in self.away if s != seat),
            coming_back=tuple(s for s in self.coming_back if s != seat),
        )

    def removed_seat(self, seat: int, user: int, left: bool = False) -> Absences:
        """The seat's player (`user`) is out of the game, removed or `left` by /leave; the bot
        needs to reach them no more."""
        return replace(
            self,
            away=tuple(s for s in self.away if s != seat),
            coming_back=tuple(s for s in self.coming_back if s != seat),
            removed=(*self.removed, seat),
            **({"left": (*self.left, seat)} if left else {}),
            unreachable=tuple(u for u in self.unreachable if u != user),
        )

    # -- users ---------------------------------------------------------------------------------

    def lost(self, users: Collection[int], blocked: Collection[int] = ()) -> Absences:
        """A private message failed to reach `users` (`blocked`: those who blocked the bot)."""
        new = [u for u in users if u not in self.unreachable]
        shut = [u for u in self.blocked if u not in users]
        return replace(
            self,
            unreachable=(*self.unreachable, *new),
            blocked=_listed(*shut, *(u for u in users if u in blocked)),
            reached_again=tuple(u for u in self.reached_again if u not in users),
            back_held=tuple(u for u in self.back_held if u not in users),
        )

    def reached(self, user: int) -> Absences:
        """The bot can message `user` privately (they opened the chat, or left the table)."""
        return replace(
            self,
            unreachable=tuple(u for u in self.unreachable if u != user),
            shut_out=tuple(u for u in self.shut_out if u != user),
        )

    def shut(self, user: int) -> Absences:
        """Telegram said `user` blocked the bot (noted privately: the group is not told)."""
        return replace(self, shut_out=_listed(*self.shut_out, user))

    def opened(self, user: int) -> Absences:
        """Telegram said `user` unblocked the bot."""
        return replace(self, shut_out=tuple(u for u in self.shut_out if u != user))

    def still_unreachable(self, users: Iterable[int]) -> Absences:
        """The users the bot cannot reach, as a next lobby starts with them."""
        return replace(self, unreachable=tuple(users))

    def back_in_touch(self, user: int) -> Absences:
        """`user` is reached again in a game, and the warning may tell it."""
        return replace(self, reached_again=_listed(*self.reached_again, user))

    def back_during_hold(self, user: int) -> Absences:
        """`user` is reached again during a secret wait: told when the next one is."""
        return replace(self, back_held=_listed(*self.back_held, user))

    def held_backs_told(self) -> Absences:
        """Outside a secret wait, those back in touch during one are told with the rest."""
        return replace(
            self, reached_again=_listed(*self.reached_again, *self.back_held), back_held=()
        )

    # -- stored form ---------------------------------------------------------------------------

    def to_stored(self) -> dict[str, Any]:
        """The absences as the session's part stores them, every list (empty: nobody)."""
        return {
            "away": list(self.away),
            "back": list(self.coming_back),
            "removed": list(self.removed),
            "missed": {str(seat): n for seat, n in self.missed.items()},
            "left": list(self.left),
            "unreachable": list(self.unreachable),
            "blocked": list(self.blocked),
            "reached": list(self.reached_again),
            "back_held": list(self.back_held),
            "shut_out": list(self.shut_out),
        }

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> Absences:
        """The absences the session's part holds (its other keys are ignored; a key absent,
        as a version before stored an empty list: nobody)."""

        def ids(key: str) -> tuple[int, ...]:
            return tuple(stored.get(key) or ())

        missed = stored.get("missed") or {}
        return cls(
            away=ids("away"),
            coming_back=ids("back"),
            missed=_frozen({int(seat): n for seat, n in missed.items()}),
            removed=ids("removed"),
            left=ids("left"),
            unreachable=ids("unreachable"),
            blocked=ids("blocked"),
            reached_again=ids("reached"),
            back_held=ids("back_held"),
            shut_out=ids("shut_out"),
        )
