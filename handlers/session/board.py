"""The group's turn message: one a turn, its lines as they come, its countdown."""

from __future__ import annotations

from engine.state import SPEAK
from handlers.session import events as ev
from handlers.session.base import PLAYING, Seats
from handlers.session.events import Event


class Board(Seats):
    """A table's turn message, kept in `data["board"]`: its message id, tag and lines."""

    def _open_board(self, seat: int) -> Event:
        tag = self.state.version
        board = {"msg": None, "tag": tag, "lines": [["turn", seat]]}
        self.data["board"] = board
        seconds = self.settings["turn_seconds"]
        return ev.event(ev.BOARD_OPENED, board=_snapshot(board), seconds=seconds)

    def _extend_board(self, lines: list[dict | list], now: float) -> Event:
        board = self.data["board"]
        board["lines"] += lines
        hold = self.data.get("hold")
        seconds = None
        if self.state.phase == SPEAK and not hold:
            seconds = self.settings["speak_seconds"]
        elif hold:
            seconds = round(hold["until"] - now)
        return self.board_shown(seconds)

    def _close_board(self, lines: list[dict | list]) -> list[Event]:
        board = self.data.get("board") or {}
        if not lines and not board.get("lines"):
            return []
        board.setdefault("lines", []).extend(lines)
        # The closed turn message stays where it is: its edit need not wait for anything.
        return [self.board_shown(None, final=True, side=True)]

    def board_shown(self, seconds: float | None, final: bool = False, side: bool = False) -> Event:
        """The turn message as it reads now, with `seconds` left (None: no countdown)."""
        board = _snapshot(self.data.get("board") or {})
        return ev.event(ev.BOARD_SHOWN, board=board, seconds=seconds, final=final, side=side)

    def redraw(self, now: float) -> list[Event]:
        """The current turn message again (after a language switch), its countdown as of now."""
        board = self.data.get("board") or {}
        if self.status != PLAYING or not board.get("msg"):
            return []
        hold = self.data.get("hold")
        until = hold["until"] if hold else self.data.get("deadline")
        return [self.board_shown(None if until is None else round(until - now))]


def _snapshot(board: dict) -> dict:
    """The turn message as it stands, apart from the table's (which later changes extend)."""
    return {
        "msg": board.get("msg"),
        "tag": board.get("tag"),
        "lines": list(board.get("lines", [])),
    }
