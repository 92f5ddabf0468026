"""Items stored by the version before the group's item had its three parts (one dict for the
session's fields, the message ids and storage's envelope) are read once, each part by its own
codec, and saved in the new form at their next change; a game stored mid-way plays on.

The items in `items_before/` were saved by that version: in a lobby with its Settings open, in a
Turncoat's window (a /remove keyboard open), with a seat away, with a change's messages still
owed, at a game's end, and mid-game among players two of whom share a name
(`same_names_mid_game`, played with a seeded deal to a scout and saved as it stood)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import boto3
import pytest
from moto import mock_aws

from engine import Action
from engine.actions import END_TURN
from handlers.display.ids import Ids, prompt_ref
from handlers.display.messages import DropButtons, Edit, Send, from_stored
from handlers.session.table import Table
from handlers.storage.envelope import Envelope
from handlers.storage.keeper import FORM, Keeper, Loaded
from handlers.storage.keys import game_key
from handlers.telegram import hub
from handlers.telegram.context import Runtime
from handlers.telegram.hub import Decided, shown
from handlers.telegram.item import Read, ids_of
from infra.dynamo_store import DynamoStore, create_table
from infra.sqlite_store import SQLiteStore
from infra.store import GameStore, Item
from testing.moto_server import REGION

ITEMS = Path(__file__).parent / "items_before"
NAMES = sorted(path.stem for path in ITEMS.glob("*.json"))
CHAT = -4_100_000_001
TELEGRAMS_KEYS = ("lobby_msg", "end_msg", "remove_msg")
ENVELOPES_KEYS = ("applied", "owed")
NEW_FORM = {"form", "applied", "owed", "session", "telegram"}


def before(name: str) -> Item:
    stored = json.loads((ITEMS / f"{name}.json").read_text())
    return Item(stored["key"], stored["version"], stored["data"])


def test_the_items_kept_are_in_the_form_before() -> None:
    for name in NAMES:
        data = before(name).data
        assert "form" not in data and {"status", *ENVELOPES_KEYS} <= set(data), name


@pytest.mark.parametrize("name", NAMES)
def test_an_item_stored_before_is_read_in_its_three_parts(name: str) -> None:
    item = before(name)
    data = item.data
    loaded = Loaded(CHAT, item)
    envelope, session, telegram = loaded.parts
    assert session is telegram is item.data  # one dict: each owner reads its own fields
    assert envelope == Envelope(tuple(data["applied"]), tuple(loaded.owed()))
    assert envelope.to_stored() == {key: data[key] for key in ENVELOPES_KEYS}
    assert all(loaded.applied(update_id) for update_id in data["applied"])
    for batch in loaded.owed():  # what a dead run owed is still sent as it was rendered
        assert [from_stored(out) for out in batch.outs]
    table = Read.of(loaded).table
    assert (table.status, table.game, table.chat) == (data["status"], data["game"], CHAT)
    assert not {*TELEGRAMS_KEYS, *ENVELOPES_KEYS} & set(table.to_stored())
    assert not [key for key in table.to_stored() if key.startswith("away_msg_")]
    assert "msg" not in table.to_stored()["board"]
    assert all("msg" not in open_ for open_ in table.to_stored()["prompts"].values())
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


@pytest.fixture(params=["sqlite", "dynamodb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """Each backend in turn: SQLite on a file, DynamoDB under moto."""
    clock = request.getfixturevalue("clock")
    if request.param == "sqlite":
        with SQLiteStore(tmp_path / "store.sqlite3", clock=clock) as opened:
            yield opened
        return
    request.getfixturevalue("aws_env")
    with mock_aws():
        client = boto3.client("dynamodb", region_name=REGION)
        name = f"games-{uuid.uuid4().hex[:12]}"
        create_table(client, name)
        yield DynamoStore(name, client=client, clock=clock)


@pytest.fixture
def context(store: GameStore, clock, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    monkeypatch.setattr(hub, "backoff", lambda attempt: 0.0)
    clock.now = 4_000_000_000.0
    runtime = Runtime(Keeper(store, clock=clock), clock)
    return SimpleNamespace(runtime=runtime, bot=None, clock=clock)


def stored_before(context, name: str) -> Item:
    """The item the version before stored, put in the store as it was."""
    item = before(name)
    context.runtime.keeper.store.save(Item(item.key, 0, item.data))
    return item


def stored_now(context) -> Item:
    return context.runtime.keeper.store.load(game_key(CHAT))


@pytest.mark.parametrize("name", NAMES)
def test_an_item_stored_before_is_saved_in_the_new_form_at_its_next_change(
    context, name: str
) -> None:
    item = stored_before(context, name)
    first = Read.of(Loaded(CHAT, stored_now(context)))
    asyncio.run(hub.handle(context, first, lambda table, ids: Decided(table), 1))
    saved = stored_now(context)
    assert set(saved.data) == NEW_FORM and saved.data["form"] == FORM
    again = Read.of(Loaded(CHAT, saved))
    assert again.table.record == first.table.record
    assert ids_of(again) == ids_of(Read.of(Loaded(CHAT, item)))
    assert again.loaded.envelope.applied == (*item.data["applied"], 1)[-40:]
    assert again.loaded.owed() == first.loaded.owed()


def test_a_game_stored_mid_way_plays_on_editing_the_messages_it_sent_before(context) -> None:
    """The speaking player ends their turn after the deploy: their prompt and the turn message,
    whose ids the version before kept among the session's fields, are edited in place; the
    players who share a name are still told apart; the next save is in the new form."""
    item = stored_before(context, "same_names_mid_game")
    data = item.data
    seat = data["engine"]["first"]
    speaker = data["seats"][seat - 1]
    table_before = Read.of(Loaded(CHAT, item)).table
    decided: list[Decided] = []

    def turn_ends(table: Table | None, ids: Ids) -> Decided:
        events = table.act(speaker, Action(END_TURN, seat), context.clock())
        decided.append(shown(context, table, ids, events))
        return Decided(table)  # nothing sent: no Telegram here

    asyncio.run(hub.handle(context, asyncio.run(hub.read(context, CHAT)), turn_ends, 2))
    outs = decided[0].outs
    [closed] = [out for out in outs if isinstance(out, Edit) and out.chat == speaker]
    assert closed.msg == data["prompts"][str(speaker)]["msg"] and closed.close
    board = [out for out in outs if isinstance(out, Edit) and out.chat == CHAT]
    assert [out.msg for out in board] == [data["board"]["msg"]]
    [turn] = [out for out in outs if isinstance(out, Send) and out.chat == CHAT]
    assert "turn" in turn.text and table_before.name_of(seat % 5 + 1) in turn.text
    saved = stored_now(context)
    assert set(saved.data) == NEW_FORM
    table = Read.of(Loaded(CHAT, saved)).table
    assert table.state.version > data["engine"]["version"]
    assert table.state.turn == seat % 5 + 1
    anns = [
        table.name_of(table.record.seats.index(user) + 1) for user in (500_000_001, 500_000_002)
    ]
    assert anns == ["Ann·ann_w", "Ann·ann_k"]  # still told apart by their usernames


def test_a_game_stored_in_a_turncoats_window_plays_on_and_closes_its_prompt(context) -> None:
    """The window ends after the deploy: the Turncoat's prompt, whose message id the version
    before kept among the session's fields, is closed in place, saying time ran out."""
    item = stored_before(context, "turncoat_window")
    turncoat = 500_000_001
    context.clock.now = item.data["hold"]["until"]
    loaded = asyncio.run(hub.read(context, CHAT))
    decided: list[Decided] = []

    def window_ends(table: Table | None, ids: Ids) -> Decided:
        decided.append(shown(context, table, ids, table.catch_up(context.clock())))
        return Decided(table)  # nothing sent: no Telegram here

    asyncio.run(hub.handle(context, loaded, window_ends, 2))
    [closed] = [out for out in decided[0].outs if isinstance(out, Edit) and out.chat == turncoat]
    assert closed.msg == item.data["prompts"][str(turncoat)]["msg"] and closed.close
    assert "Time ran out" in closed.text
    saved = stored_now(context)
    assert set(saved.data) == NEW_FORM
    table = Read.of(Loaded(CHAT, saved)).table
    assert table.hold is None and table.state.phase == "speak"


def test_a_remove_keyboard_open_before_loses_its_buttons_when_the_game_ends(context) -> None:
    """The /remove keyboard the version before kept the id of (`remove_msg`) is still known
    to be live: cancelling the game takes its buttons away."""
    item = stored_before(context, "turncoat_window")
    decided: list[Decided] = []

    def cancel(table: Table | None, ids: Ids) -> Decided:
        decided.append(shown(context, table, ids, table.cancel("Ann")))
        return Decided(table, ids=ids)

    asyncio.run(hub.handle(context, asyncio.run(hub.read(context, CHAT)), cancel, 2))
    dropped = [out for out in decided[0].outs if isinstance(out, DropButtons)]
    assert (CHAT, item.data["remove_msg"]) in [(out.chat, out.msg) for out in dropped]
    assert ids_of(Read.of(Loaded(CHAT, stored_now(context)))).remove is None
