"""The group's turn message: one a turn, its lines as they come, its countdown, and what the
player waited for may press on it (Scout and a seat, or Done: what is public anyway)."""

from __future__ import annotations

from engine.state import SPEAK, TURN
from handlers.session import events as ev
from handlers.session.base import PLAYING, Part, Refused
from handlers.session.events import Event
from handlers.session.record import TurnBoard

SCOUTING = "scout"  # the turn message lists the seats to scout


class Board(Part):
    """A table's turn message, kept in the record's `board`: its tag (which the Telegram side
    knows its message by) and lines, and whether it lists the seats to scout."""

    def open(self, seat: int) -> Event:
        """A new turn message for `seat`'s turn."""
        table = self.table
        state = table.state
        first = state.variants.no_first_round_decapitation and not state.acted[seat - 1]
        board = TurnBoard(state.version, [["turn", seat, *(["first"] if first else [])]])
        self.record.board = board
        seconds = table.settings["turn_seconds"]
        return ev.event(ev.BOARD_OPENED, board=self._snapshot(board), seconds=seconds)

    def extend(self, lines: list[dict | list], now: float) -> Event:
        """The turn message with `lines` added, its countdown as the wait now says."""
        board = self.record.board
        board.lines += lines
        board.step = None  # the turn has moved on from choosing a seat
        hold = self.table.hold
        seconds = None
        if self.table.state.phase == SPEAK and hold is None:
            seconds = self.table.settings["speak_seconds"]
        elif hold is not None:
            seconds = round(hold.until - now)
        return self.shown(seconds)

    def add(self, lines: list[dict | list]) -> None:
        """`lines` written on the turn message, shown when it is next drawn."""
        self.record.board.lines += lines

    def close(self, lines: list[dict | list]) -> list[Event]:
        """The turn message closes with `lines` (if it has anything to say)."""
        board = self.record.board
        if not lines and not board.lines:
            return []
        board.lines.extend(lines)
        # The closed turn message stays where it is: its edit need not wait for anything.
        return [self.shown(None, final=True, side=True)]

    def shown(
        self, seconds: float | None, final: bool = False, side: bool = False, redraw: bool = False
    ) -> Event:
        """The turn message as it reads now, with `seconds` left (None: no countdown);
        `redraw`: only if it is in the chat already."""
        board = self._snapshot(self.record.board)
        return ev.event(
            ev.BOARD_SHOWN, board=board, seconds=seconds, final=final, side=side, redraw=redraw
        )

    def redraw(self, now: float) -> list[Event]:
        """The current turn message again (after a language switch), its countdown as of now."""
        if self.table.status != PLAYING or self.record.board.tag is None:
            return []
        hold = self.table.hold
        until = hold.until if hold is not None else self.record.deadline
        return [self.shown(None if until is None else round(until - now), redraw=True)]

    def list_seats(self, user: int, listed: bool, now: float) -> list[Event]:
        """The player whose turn it is opens (`listed`) or closes the seats to scout on the turn
        message: seen by all, it changes nothing in the game."""
        table, deadline = self.table, self.record.deadline
        if table.status != PLAYING or deadline is None or now >= deadline:
            raise Refused("too_late")  # the wait is over; its news is the timer's to tell
        seat = table.seat_of(user)
        if seat is None:
            raise Refused("not_a_player")
        if self.pressable() is None or table.state.phase != TURN or table.state.turn != seat:
            raise Refused("not_your_turn")
        self.record.board.step = SCOUTING if listed else None
        return [self.shown(round(deadline - now))]

    def pressable(self) -> dict | None:
        """What the turn message offers its acting player now: in a turn, Scout (or the seats,
        once listed); in a speaking moment, Done; nothing during a secret wait, which only the
        Turncoat or the Spy may end. The same whatever the cards: all of it is public."""
        table = self.table
        if table.status != PLAYING or table.hold is not None:
            return None
        state = table.state
        if state.phase not in (TURN, SPEAK):
            return None
        step = self.record.board.step if state.phase == TURN else None
        return {
            "seat": state.turn,
            "phase": state.phase,
            "step": step,
            "version": table.public_version,
        }

    def _snapshot(self, board: TurnBoard) -> dict:
        """The turn message as it stands, apart from the table's (which later changes
        extend), with what its acting player may press on it now."""
        return {"tag": board.tag, "lines": list(board.lines), "acts": self.pressable()}
