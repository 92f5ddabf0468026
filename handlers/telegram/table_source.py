"""The games behind the table's routes, as the bot keeps them: each view read through the host's
one read of the group's item (`Keeper.load`, the read every update starts with), a replay from the
group's kept games, and a move handed to `move` (`handlers.telegram.table_moves` runs it as a
press is run: the same typed press, the same session decision, the same save, send and
acknowledgement).

Reading needs no Telegram library: the table's GET routes import this module alone.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable

from handlers.display.table_view import replay_of, seat_view
from handlers.display.texts import language_for
from handlers.session.table import Table
from handlers.storage import history
from handlers.storage.keeper import Keeper
from handlers.table.api import Gone, MoveOutcome, Unchanged
from handlers.table.auth import Opening
from handlers.table.moves import MoveRequest
from handlers.table.selector import Selector, replay_selector
from handlers.table.view import view_version
from handlers.telegram.item import Read

# Runs one move as a press: (the game, the mover's user id, the request) -> what became of it.
RunMove = Callable[[Selector, int, MoveRequest], MoveOutcome]
# Asks Telegram whether a user is in a group: (chat, user) -> yes, no, or None (it cannot say).
AskMember = Callable[[int, int], "bool | None"]
VERSIONS_KEPT = 2048  # views' versions remembered per process, by group, item version and seat


def seat_at(table: Table | None, selector: Selector, user: int) -> int | None:
    """The seat `user` holds at the game `selector` names, or None (no such game now, or no
    seat of theirs at it)."""
    if table is None or table.game != selector.game:
        return None
    return table.seat_of(user)


def move_key(user: int, request: MoveRequest) -> str:
    """The key a table move is kept by among the updates the group's item applied (a Telegram
    update is kept by its number; a move by a short digest of its mover and id, so that a
    request sent again is recognised and changes nothing twice, then `:` and a digest of what
    it asked, so that the id used again for another move is told apart)."""
    mover = hashlib.sha256(f"{user}:{request.move_id}".encode()).hexdigest()[:16]
    asked = f"{request.selector}:{request.version}:{request.move!r}"
    return f"m{mover}:{hashlib.sha256(asked.encode()).hexdigest()[:8]}"


def gone(host: Keeper, table: Table | None, selector: Selector, user: int) -> Gone | None:
    """A link to an older game of the group, opened by one of its players: the game is over
    (another has replaced it), with its replay when the group keeps it. None otherwise (the
    one answer a stranger gets whatever the group holds)."""
    if table is None or table.game <= selector.game:
        return None
    entry = history.game(host.store, selector.chat, selector.game)
    if entry is None or user not in (entry.get("users") or []):
        return None
    kept = entry.get("record") and entry.get("winner") is not None
    return Gone(replay_selector(selector.chat, selector.game) if kept else None)


class StoreTables:
    """The table's `TableSource` over the bot's host: one read for a view, a move run by `move`
    (None: this source only reads), membership asked of Telegram by `member` (None: nobody is
    taken for a member)."""

    def __init__(
        self, host: Keeper, move: RunMove | None = None, member: AskMember | None = None
    ) -> None:
        self.host = host
        self.run_move = move
        self.ask_member = member
        # (group, item version, game, seat) -> the version of the view it showed: a view is a
        # function of the item and the seat, so a page holding it is answered without a build.
        self.versions: OrderedDict[tuple[int, int, int, int], str] = OrderedDict()

    def member(self, chat: int, user: int) -> bool | None:
        return self.ask_member(chat, user) if self.ask_member is not None else False

    def view(
        self, selector: Selector, opening: Opening, now: float, held: str | None = None
    ) -> dict | Gone | Unchanged | None:
        loaded = self.host.load(selector.chat)
        table = Read.of(loaded).table
        seat = seat_at(table, selector, opening.user.id)
        if table is None or seat is None:
            return gone(self.host, table, selector, opening.user.id)
        item_version = loaded.item.version if loaded.item is not None else 0
        key = (table.chat, item_version, table.game, seat)
        if held is not None and self.versions.get(key) == held:
            return Unchanged(held)
        view = seat_view(table, seat)
        self.versions[key] = view_version(view)
        while len(self.versions) > VERSIONS_KEPT:
            self.versions.popitem(last=False)
        return view

    def move(
        self, selector: Selector, opening: Opening, request: MoveRequest, now: float
    ) -> MoveOutcome:
        if self.run_move is None:
            raise RuntimeError("this source serves no moves")
        return self.run_move(selector, opening.user.id, request)

    def replay(
        self, selector: Selector, opening: Opening, now: float, member: bool
    ) -> dict | None:
        entry = history.game(self.host.store, selector.chat, selector.game)
        if entry is None or not entry.get("record") or entry.get("winner") is None:
            return None
        if not member and opening.user.id not in (entry.get("users") or []):
            return None  # a replay is for the group's members and those who played
        table = Read.of(self.host.load(selector.chat)).table
        own = language_for(opening.user.language_code)
        lang = table.lang_of(opening.user.id, own) if table is not None else own
        title = table.title if table is not None else ""
        try:
            return replay_of(entry, lang, title, selector.chat)
        except ValueError:  # not a finished game's record
            return None
