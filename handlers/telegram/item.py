"""A group's item as the Telegram side reads and saves it: storage hands over the session's part
and its own, as stored; the table is built from the session's part here, once a read, and its
message ids from its own; a change goes back to storage as plain data, each part in its owner's
stored form."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

from handlers.display.ids import AWAY, BOARD, LEAVING, LOBBY, REMOVE, Ids
from handlers.display.messages import DropButtons, Send, to_stored
from handlers.display.texts import EN, LANGUAGES, t
from handlers.session.table import ENDED, Table
from handlers.storage.keeper import Change, Keeper, Loaded, Saved


class Read:
    """A group's item as read once for an update (`loaded`, storage's), with the table built
    from its session part (the table a step changes: its own copy, the item stays as read),
    the table's game and its next wake as read, and the Telegram side's message ids."""

    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.chat = loaded.chat  # the group's chat id, an upgrade followed
        self.item = loaded.item
        self.records = loaded.records  # the small records read in the same call

    @cached_property
    def _opened(self) -> tuple[Table | None, int | None, float | None]:
        """The table built from the session's part, with its game and next wake as read."""
        table = self.fresh_table()
        return (table, table.game, table.next_wake()) if table is not None else (None, None, None)

    @cached_property
    def table(self) -> Table | None:
        """The table the session's part holds, for the session to change (built once)."""
        return self._opened[0]

    @property
    def game(self) -> int | None:
        """The table's game (None: no table here)."""
        return self._opened[1]

    @property
    def wake(self) -> float | None:
        """When the table as read next needs waking (whatever a step made of it since)."""
        return self._opened[2]

    def data_of(self, key: str) -> dict[str, Any] | None:
        """The data of a small record read with the item (one of `Keeper.load`'s `also`), or
        None when it is absent; KeyError when it was not read."""
        item = self.records[key]
        return item.data if item is not None else None

    def fresh_table(self) -> Table | None:
        """The table as stored, apart from any a step may have changed."""
        session = self.loaded.session
        return Table.from_stored(session) if session is not None else None

    def applied(self, update_id: int | str | None) -> bool:
        """True when `update_id` changed the table already (its redelivery changes nothing). A
        table move is known by its key up to its `:` (its id, whatever move it carries)."""
        if update_id is None:
            return False
        known = {known_as(applied) for applied in self.loaded.envelope.applied}
        return known_as(update_id) in known

    def applied_exactly(self, update_id: int | str) -> bool:
        """True when `update_id` itself (a table move's id with the same move) was applied."""
        return update_id in self.loaded.envelope.applied

    def ids(self) -> Ids:
        """The Telegram side's part as read, with the ids delivered since taken in (a new copy
        each time: a step changes its own)."""
        posted = self.loaded.envelope.posted
        return Ids.from_stored(self.loaded.telegram).folded(posted, self.table, self.game)

    @classmethod
    def of(cls, loaded: Loaded | Read) -> Read:
        """`loaded`, read by the Telegram side."""
        return loaded if isinstance(loaded, Read) else cls(loaded)


def check(loaded: Loaded) -> None:
    """Read the session's part and the Telegram side's as an update would (raising when either
    cannot be read)."""
    read = Read(loaded)
    read.ids()
    read.fresh_table()


def notice(chat: int, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What a group whose item could not be read is told (in its language, when that can still
    be read): its game was closed, and /newgame starts a new one."""
    session = data.get("session") if isinstance(data.get("session"), dict) else data
    lang = session.get("lang") if isinstance(session, dict) else None
    lang = lang if lang in LANGUAGES else EN
    told = [to_stored(Send(chat, t(lang, "game_unreadable")))]
    return told + [to_stored(DropButtons(chat, msg)) for msg in buttons_left(data)]


def buttons_left(data: dict[str, Any]) -> list[int]:
    """The group messages an unreadable item still names that may show live buttons (as far
    as its raw data can be read: anything else is let go): a lobby's, or a game's turn
    message; a /remove question, an I'm back or a /leave question."""
    session = data.get("session") if isinstance(data.get("session"), dict) else {}
    in_lobby = session.get("status") == "lobby"
    part = data.get("telegram") if isinstance(data.get("telegram"), dict) else {}
    found = [part.get("lobby" if in_lobby else "board"), part.get("remove")]
    for key in ("away", "leaving"):
        found += list(part[key].values()) if isinstance(part.get(key), dict) else []
    posted = data.get("posted") if isinstance(data.get("posted"), dict) else {}
    refs = (LOBBY if in_lobby else BOARD, REMOVE, AWAY, LEAVING)
    for ref, delivered in posted.items():
        if isinstance(ref, str) and ref.startswith(refs):
            found.append(delivered[0] if isinstance(delivered, list) and delivered else None)
    return sorted({msg for msg in found if type(msg) is int and msg > 0})


def ids_of(loaded: Loaded) -> Ids:
    """The Telegram side's part of a group's item as read, with the ids delivered since taken
    in."""
    return Read.of(loaded).ids()


@dataclass
class Kept(Saved):
    """A change as saved, with the table it leaves (the session's, as the Telegram side holds
    it) and its game."""

    table: Table | None = None
    game: int | None = None

    @classmethod
    def of(cls, saved: Saved, table: Table | None, game: int | None) -> Kept:
        """`saved`, with its table and game."""
        kept = {f.name: getattr(saved, f.name) for f in fields(Saved)}
        return cls(**kept, table=table, game=game)


def save(
    keeper: Keeper,
    loaded: Read,
    table: Table | None,
    telegram: dict[str, Any] | None,
    outs: list[dict[str, Any]],
    update_id: int | None,
) -> Kept:
    """Save a change over the item as read: the table a step left (None: nothing to save), the
    Telegram side's part and the messages owed, in their stored forms. Storage is handed the
    table's stored part and what its keeping needs: its next wake (and the one as read: an
    unchanged wake is set already) and whether its game is over (its item then lasts a day)."""
    if table is None:
        saved = keeper.save(loaded.loaded, Change(None, telegram, outs), update_id)
        # a claim wrote the item again: its table as stored, not as a step may have left it
        kept = loaded.fresh_table() if saved.item is not None else loaded.table
        return Kept.of(saved, kept, loaded.game)
    woke = loaded.wake
    session, wake, status, game = table.to_stored(), table.next_wake(), table.status, table.game
    change = Change(session, telegram, outs, table.ending, wake, woke, status in ENDED)
    return Kept.of(keeper.save(loaded.loaded, change, update_id), table, game)


def known_as(update_id: int | str) -> int | str:
    """What an update is recognised by: its number, or a table move's id (its key up to `:`)."""
    return update_id.partition(":")[0] if isinstance(update_id, str) else update_id


def answer_again(keeper: Keeper, loaded: Read, update_id: int) -> Kept:
    """A redelivered update answered from the item as read (see `Keeper.answer_again`)."""
    saved = keeper.answer_again(loaded.loaded, update_id, loaded.wake)
    return Kept.of(saved, loaded.table, loaded.game)
