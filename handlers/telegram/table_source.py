"""The games behind the table's routes, as the bot keeps them: views read from the store, and a
move made as a press is, through the host's one conditional change (a `TableSource`).

A move is a decision by `Table.act`, shown by `render.show` and saved with the messages it owes,
exactly as a button in the chat makes it; the entry that serves the table runs that change and
delivers its messages as a press's are delivered (`change`, see `handlers.telegram.table_moves`).
Reading needs no Telegram library.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from engine.turns import why_illegal
from handlers.session.table import Refused, Table
from handlers.storage import history
from handlers.storage.host import Change, Changer, Host
from handlers.table.api import APPLIED, ILLEGAL, NOT_YOURS, STALE, MoveOutcome
from handlers.table.auth import Opening
from handlers.table.moves import MoveRequest, to_action
from handlers.table.selector import Selector
from handlers.table.view import view_version
from handlers.telegram import render
from handlers.telegram.table_view import replay_of, seat_view
from handlers.telegram.texts import language_for

MOVES = "table_moves"  # the table's moves applied lately, as "<seat>:<digest of the move id>"
MOVES_KEPT = 16  # a page sends a move again within seconds; a move id is never reused
# Runs a change to a group's table and delivers what it owes: (chat, changer) -> the change.
RunChange = Callable[[int, Changer], Change]


def seat_at(table: Table | None, selector: Selector, user: int) -> int | None:
    """The seat `user` holds at the game `selector` names, or None (no such game now, or no
    seat of theirs at it)."""
    if table is None or table.game != selector.game or not table.data.get("seats"):
        return None
    return table.seat_of(user)


def move_key(seat: int, move_id: str) -> str:
    """How an applied move is remembered: short, since it is kept in the stored table."""
    digest = hashlib.sha256(move_id.encode()).hexdigest()[:12]
    return f"{seat}:{digest}"


def was_applied(table: Table, seat: int, move_id: str) -> bool:
    """Whether the seat's move `move_id` has changed this table already."""
    return move_key(seat, move_id) in table.data.get(MOVES, [])


def note_applied(table: Table, seat: int, move_id: str) -> None:
    """Remember the seat's move, as an applied update is remembered."""
    applied = table.data.setdefault(MOVES, [])
    applied.append(move_key(seat, move_id))
    del applied[:-MOVES_KEPT]


class TableMove:
    """One move request, as a change to the group's table: the checks of the table's contract
    in their order, then the same decision a button makes. After the change, `outcome` says
    what became of it."""

    def __init__(self, selector: Selector, user: int, request: MoveRequest, now: float) -> None:
        self.selector, self.user, self.request, self.now = selector, user, request, now
        self.result = NOT_YOURS
        self.seat: int | None = None
        self.view: dict | None = None  # the seat's view when the move was judged

    def changer(self, current: Table | None) -> tuple[Table | None, list[dict]]:
        """A seat (else NOT_YOURS), a move id already applied (APPLIED, nothing changes), the
        version (else STALE), the rules (else ILLEGAL); then the decision, as a press's."""
        self.result, self.view = NOT_YOURS, None
        self.seat = seat = seat_at(current, self.selector, self.user)
        if seat is None:
            return None, []
        self.view = seat_view(current, seat)
        request = self.request
        if was_applied(current, seat, request.move_id):
            self.result = APPLIED
            return None, []
        if view_version(self.view) != request.version:
            self.result = STALE
            return None, []
        action = to_action(request.move, seat)
        if not self.view["you"]["must_act"] or why_illegal(current.state, action):
            self.result = ILLEGAL
            return None, []
        try:
            events = current.act(self.user, action, self.now)
        except Refused as refused:  # its wait ran out meanwhile: the view is out of date
            self.result = STALE if refused.key == "too_late" else ILLEGAL
            return None, []
        note_applied(current, seat, request.move_id)
        self.result = APPLIED
        return current, render.show(current, events)

    def outcome(self, change: Change) -> MoveOutcome:
        """What the move came to, with the seat's view as it now is."""
        if self.seat is None or self.view is None:
            return MoveOutcome(NOT_YOURS)
        if self.result == APPLIED and change.saved_version is not None:
            return MoveOutcome(APPLIED, seat_view(change.table, self.seat))
        return MoveOutcome(self.result, self.view)


class StoreTables:
    """The table's `TableSource` over the bot's host: one load for a view, a move as one change
    run by `change` (None: this source only reads)."""

    def __init__(self, host: Host, change: RunChange | None = None) -> None:
        self.host = host
        self.change = change

    def view(self, selector: Selector, opening: Opening, now: float) -> dict | None:
        table = self.host.load(selector.chat)
        seat = seat_at(table, selector, opening.user.id)
        return None if seat is None else seat_view(table, seat)

    def move(
        self, selector: Selector, opening: Opening, request: MoveRequest, now: float
    ) -> MoveOutcome:
        if self.change is None:
            raise RuntimeError("this source serves no moves")
        move = TableMove(selector, opening.user.id, request, now)
        return move.outcome(self.change(selector.chat, move.changer))

    def replay(self, selector: Selector, opening: Opening, now: float) -> dict | None:
        entry = history.game(self.host.store, selector.chat, selector.game)
        if entry is None or not entry.get("record") or entry.get("winner") is None:
            return None
        table = self.host.load(selector.chat)
        own = language_for(opening.user.language_code)
        lang = table.lang_of(opening.user.id, own) if table is not None else own
        title = table.title if table is not None else ""
        try:
            return replay_of(entry, lang, title, selector.chat)
        except ValueError:  # not a finished game's record
            return None
