"""The group's turn message: one a turn, its lines as they come, its countdown, and what the
player waited for may press on it (Scout and a seat, or Done: what is public anyway)."""

from __future__ import annotations

from engine.state import SPEAK, TURN
from handlers.session import events as ev
from handlers.session.base import PLAYING, Refused, Seats
from handlers.session.events import Event

SCOUTING = "scout"  # the turn message lists the seats to scout


class Board(Seats):
    """A table's turn message, kept in `data["board"]`: its tag (which the Telegram side knows
    its message by) and lines, and whether it lists the seats to scout."""

    def _open_board(self, seat: int) -> Event:
        tag = self.state.version
        board = {"tag": tag, "lines": [["turn", seat]]}
        self.data["board"] = board
        seconds = self.settings["turn_seconds"]
        return ev.event(ev.BOARD_OPENED, board=self._snapshot(board), seconds=seconds)

    def _extend_board(self, lines: list[dict | list], now: float) -> Event:
        board = self.data["board"]
        board["lines"] += lines
        board.pop("step", None)  # the turn has moved on from choosing a seat
        hold = self.hold
        seconds = None
        if self.state.phase == SPEAK and hold is None:
            seconds = self.settings["speak_seconds"]
        elif hold is not None:
            seconds = round(hold.until - now)
        return self.board_shown(seconds)

    def _close_board(self, lines: list[dict | list]) -> list[Event]:
        board = self.data.get("board") or {}
        if not lines and not board.get("lines"):
            return []
        board.setdefault("lines", []).extend(lines)
        # The closed turn message stays where it is: its edit need not wait for anything.
        return [self.board_shown(None, final=True, side=True)]

    def board_shown(
        self, seconds: float | None, final: bool = False, side: bool = False, redraw: bool = False
    ) -> Event:
        """The turn message as it reads now, with `seconds` left (None: no countdown);
        `redraw`: only if it is in the chat already."""
        board = self._snapshot(self.data.get("board") or {})
        return ev.event(
            ev.BOARD_SHOWN, board=board, seconds=seconds, final=final, side=side, redraw=redraw
        )

    def redraw(self, now: float) -> list[Event]:
        """The current turn message again (after a language switch), its countdown as of now."""
        board = self.data.get("board") or {}
        if self.status != PLAYING or board.get("tag") is None:
            return []
        hold = self.hold
        until = hold.until if hold is not None else self.data.get("deadline")
        return [self.board_shown(None if until is None else round(until - now), redraw=True)]

    def list_seats(self, user: int, listed: bool, now: float) -> list[Event]:
        """The player whose turn it is opens (`listed`) or closes the seats to scout on the turn
        message: seen by all, it changes nothing in the game."""
        deadline = self.data.get("deadline")
        if self.status != PLAYING or deadline is None or now >= deadline:
            raise Refused("too_late")  # the wait is over; its news is the timer's to tell
        seat = self.seat_of(user)
        if seat is None:
            raise Refused("not_a_player")
        if self._pressable() is None or self.state.phase != TURN or self.state.turn != seat:
            raise Refused("not_your_turn")
        board = self.data["board"]
        if listed:
            board["step"] = SCOUTING
        else:
            board.pop("step", None)
        return [self.board_shown(round(deadline - now))]

    def _pressable(self) -> dict | None:
        """What the turn message offers its acting player now: in a turn, Scout (or the seats,
        once listed); in a speaking moment, Done; nothing during a secret wait, which only the
        Turncoat or the Spy may end. The same whatever the cards: all of it is public."""
        if self.status != PLAYING or self.hold is not None:
            return None
        state = self.state
        if state.phase not in (TURN, SPEAK):
            return None
        step = (self.data.get("board") or {}).get("step") if state.phase == TURN else None
        return {
            "seat": state.turn,
            "phase": state.phase,
            "step": step,
            "version": self.public_version,
        }

    def _snapshot(self, board: dict) -> dict:
        """The turn message as it stands, apart from the table's (which later changes
        extend), with what its acting player may press on it now."""
        return {
            "tag": board.get("tag"),
            "lines": list(board.get("lines", [])),
            "acts": self._pressable(),
        }
