"""Items stored by the version before the group's item had its three parts (one dict for the
session's fields, the message ids and storage's envelope) are read once, each part by its own
codec, and saved in the new form at their next change; a game stored mid-way plays on.

The items in `items_before/` were saved by that version through the Lambda entry, in a lobby
with its Settings open, in a Turncoat's window (a /remove keyboard open), with a seat away,
with a change's messages still owed, and at a game's end."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from handlers.session.table import Table
from handlers.storage.host import FORM, Host, Loaded
from handlers.storage.keys import game_key
from handlers.telegram import hub
from handlers.telegram.context import Runtime
from handlers.telegram.hub import Decided, shown
from handlers.telegram.ids import Ids, ids_of, prompt_ref
from handlers.telegram.messages import Edit, from_stored
from infra.sqlite_store import SQLiteStore
from infra.store import Item

ITEMS = Path(__file__).parent / "items_before"
NAMES = sorted(path.stem for path in ITEMS.glob("*.json"))
CHAT = -4_100_000_001
TELEGRAMS_KEYS = ("lobby_msg", "end_msg", "remove_msg")


def before(name: str) -> Item:
    stored = json.loads((ITEMS / f"{name}.json").read_text())
    return Item(stored["key"], stored["version"], stored["data"])


@pytest.mark.parametrize("name", NAMES)
def test_an_item_stored_before_is_read_in_its_three_parts(name: str) -> None:
    item = before(name)
    data = item.data
    loaded = Loaded(CHAT, item)
    envelope, session, telegram = loaded.parts
    assert session is telegram is item.data  # one dict: each owner reads its own fields
    assert envelope == {"applied": data["applied"], "owed": data["owed"]}
    assert all(loaded.applied(update_id) for update_id in data["applied"])
    assert [batch.to_stored() for batch in loaded.owed()] == data["owed"]
    for batch in loaded.owed():  # what a dead run owed is still sent as it was rendered
        assert [from_stored(out) for out in batch.outs]
    table = loaded.table
    assert (table.status, table.game, table.chat) == (data["status"], data["game"], CHAT)
    assert not {*TELEGRAMS_KEYS, "applied", "owed"} & set(table.data)
    assert not [key for key in table.data if key.startswith("away_msg_")]
    assert "msg" not in (table.data.get("board") or {})
    assert all("msg" not in open_ for open_ in (table.data.get("prompts") or {}).values())
    if "engine" in data:
        assert table.state.version == data["engine"]["version"]  # the game replays
    ids = ids_of(loaded)
    board = data.get("board") or {}
    assert (ids.lobby, ids.end, ids.remove) == tuple(data.get(k) for k in TELEGRAMS_KEYS)
    assert (ids.board, ids.board_tag) == (board.get("msg"), board.get("tag"))
    prompts = {
        prompt_ref(int(user), open_["tag"]): open_["msg"]
        for user, open_ in (data.get("prompts") or {}).items()
        if open_["msg"] is not None
    }
    assert ids.prompts == prompts
    away = {int(k.rsplit("_", 1)[1]): v for k, v in data.items() if k.startswith("away_msg_")}
    assert ids.away == away


@pytest.fixture
def context(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(hub, "backoff", lambda attempt: 0.0)
    now = [4_000_000_000.0]
    store = SQLiteStore(tmp_path / "store.sqlite3", clock=lambda: now[0])
    runtime = Runtime(Host(store, clock=lambda: now[0]), lambda: now[0])
    yield SimpleNamespace(runtime=runtime, bot=None, now=now)
    store.close()


def stored_before(context, name: str) -> Item:
    """The item the version before stored, put in the store as it was."""
    item = before(name)
    context.runtime.host.store.save(Item(item.key, 0, item.data))
    return item


@pytest.mark.parametrize("name", NAMES)
def test_an_item_stored_before_is_saved_in_the_new_form_at_its_next_change(
    context, name: str
) -> None:
    item = stored_before(context, name)
    first = Loaded(CHAT, context.runtime.host.store.load(game_key(CHAT)))
    asyncio.run(hub.handle(context, first, lambda table, ids: Decided(table), 1))
    saved = context.runtime.host.store.load(game_key(CHAT))
    assert saved.data["form"] == FORM
    assert set(saved.data) == {"form", "applied", "owed", "session", "telegram"}
    again = Loaded(CHAT, saved)
    assert again.table.data == first.table.data
    assert ids_of(again) == ids_of(Loaded(CHAT, item))
    assert again.parts[0]["applied"] == [*item.data["applied"], 1][-40:]
    assert [b.to_stored() for b in again.owed()] == [b.to_stored() for b in first.owed()]


def test_a_game_stored_in_a_turncoats_window_plays_on_and_closes_its_prompt(context) -> None:
    """The window ends after the deploy: the Turncoat's prompt, whose message id the version
    before kept among the session's fields, is closed in place, saying time ran out."""
    item = stored_before(context, "turncoat_window")
    turncoat = 500_000_001
    context.now[0] = item.data["hold"]["until"]
    loaded = asyncio.run(hub.read(context, CHAT))
    decided: list[Decided] = []

    def window_ends(table: Table | None, ids: Ids) -> Decided:
        decided.append(shown(context, table, ids, table.catch_up(context.now[0])))
        return Decided(table)  # nothing sent: no Telegram here

    asyncio.run(hub.handle(context, loaded, window_ends, 2))
    [closed] = [out for out in decided[0].outs if isinstance(out, Edit) and out.chat == turncoat]
    assert closed.msg == item.data["prompts"][str(turncoat)]["msg"] and closed.close
    assert "Time ran out" in closed.text
    table = Loaded(CHAT, context.runtime.host.store.load(game_key(CHAT))).table
    assert table.data["hold"] is None and table.state.phase == "speak"
