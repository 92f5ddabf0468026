"""The host sets an item its owners cannot read aside once: the next read finds the empty item
put in its place, owing the group its notice."""

from __future__ import annotations

from handlers.storage.keeper import UNREADABLE_BATCH, Keeper, Loaded
from handlers.storage.keys import unreadable_key
from infra.sqlite_store import SQLiteStore
from infra.store import Item


def refuses(loaded: Loaded) -> None:
    """An owner that cannot read the session's part it is handed."""
    if loaded.session is not None and "broken" in loaded.session:
        raise ValueError("the session's part is broken")


def test_an_unreadable_item_is_set_aside_once_and_its_group_owed_a_notice(
    store: SQLiteStore, clock
) -> None:
    broken = store.save(Item("game#-5", 0, {"form": 2, "session": {"broken": True}}))
    host = Keeper(store, clock=clock)
    host.reading(refuses, lambda chat, data: [{"op": "send", "chat": chat, "text": "closed"}])
    loaded = [host.load(-5), host.load(-5)]
    assert [x.session for x in loaded] == [None, None]
    assert all([b.key for b in x.owed()] == [UNREADABLE_BATCH] for x in loaded)
    assert store.load("game#-5").version == broken.version + 1  # replaced once
    kept = store.load(unreadable_key("game#-5", broken.version))
    assert kept.data["data"] == broken.data and "broken" in kept.data["error"]
