"""The seats the bot plays itself: named at the deal, each move due a few seconds after its wait
opens (drawn from what the group sees, so a wake delivered twice plays it once), chosen by
`engine.bots` on what the seat knows, played as a press is, and kept for the reveal."""

from __future__ import annotations

import random
from typing import Any

from engine import waiting_for
from engine.actions import END_TURN
from engine.bots import bot_view, choose
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT
from handlers.session.base import PLAYING, Part, Refused
from handlers.session.events import Event
from handlers.session.settings import WAIT_SETTING

BOT_DELAY = (4.0, 9.0)  # seconds a bot seat takes over a move: never at once, as a person would
BOT_NAMES = {"en": "🤖 Bot {n}", "zh": "🤖 机器人{n}"}
_HELD_WAITS = {TURNCOAT: "turncoat_seconds", SPY_PHASE: "spy_seconds"}


def bot_names(lang: str, count: int) -> list[str]:
    """The names the deal gives `count` bot seats in a group that reads `lang`."""
    form = BOT_NAMES.get(lang, BOT_NAMES["en"])
    return [form.format(n=n) for n in range(1, count + 1)]


def bot_level(settings: dict) -> str:
    """The level the table's bot seats play at."""
    return "strong" if settings.get("bot_strong") else "learning"


class BotSeats(Part):
    """The table's bot seats (the record's `bots`): when the next one moves, and its move."""

    def is_bot(self, seat: int) -> bool:
        """True when the bot plays `seat` itself."""
        return seat in self.record.bots

    def seat_dealt(self, names: tuple[str, ...], virtual: tuple[bool, ...], lang: str) -> None:
        """Note which seats the deal gave the bot seats (by the names it was handed)."""
        named = set(bot_names(lang, self.record.settings.get("bot_seats", 0)))
        self.record.bots = [
            seat
            for seat, (name, stand_in) in enumerate(zip(names, virtual, strict=True), 1)
            if name in named and not stand_in
        ]
        self.record.bot_why = {}

    def _waiting(self) -> int | None:
        """The bot seat the game waits on now, if any (not while a secret window holds the
        scout's moment back)."""
        table = self.table
        if table.status != PLAYING or not self.record.bots:
            return None
        state = table.state
        seat = waiting_for(state)
        if seat is None or not self.is_bot(seat):
            return None
        if table.hold is not None and state.phase in (SPEAK, TURN):
            return None
        return seat

    def due_at(self) -> float | None:
        """When the waited bot seat moves: a few seconds after its wait opened (the deadline
        less the wait's length), drawn from the game's public moment alone."""
        seat, deadline = self._waiting(), self.record.deadline
        if seat is None or deadline is None:
            return None
        phase = self.table.state.phase
        key = _HELD_WAITS.get(phase) or WAIT_SETTING[phase]
        limit = self.record.settings[key]
        moment = f"{self.table.game}:{self.table.public_version}:{phase}:{seat}"
        delay = random.Random(moment).uniform(*BOT_DELAY)
        return deadline - limit + min(delay, limit - 1)

    def due(self, now: float) -> bool:
        """True when a bot seat's move is due by `now`."""
        at = self.due_at()
        return at is not None and now >= at

    def move(self, now: float) -> list[Event]:
        """The waited bot seat moves, as its player's press would: chosen on what it may know
        (seeded by the moment, so the same moment gives the same move), kept for the reveal."""
        seat = self._waiting()
        if seat is None:
            return []
        table = self.table
        view = bot_view(table.known_state(seat), seat)
        moment = f"{table.game}:{table.public_version}:{table.state.phase}:{seat}:move"
        choice = choose(view, bot_level(self.record.settings), random.Random(moment))
        knew = {str(s): c for s, c in view["known"].items() if int(s) != seat}
        kept = self.record.bot_why.get(str(seat))
        if choice.action.act == END_TURN and kept is not None:  # its scout tells more
            kept["knew"] = knew
        else:
            self.record.bot_why[str(seat)] = {"act": choice.action.act, "knew": knew, **choice.why}
        try:
            return table.play.seat_moves(seat, choice.action, now)
        except Refused:  # never expected: its wait runs out as a person's would
            return []

    def told(self) -> dict[str, dict[str, Any]]:
        """What the reveal says of each bot seat: what it knew and why it made its last move."""
        return {seat: dict(why) for seat, why in self.record.bot_why.items()}
