"""The hub: an update's item read once, its step (decide, render) run again only after a lost
race, a refusal saving nothing, a redelivery answered from the read itself."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from telegram.ext import ApplicationHandlerStop

from handlers.session.table import Refused, Table
from handlers.storage.keeper import ATTEMPTS, Keeper
from handlers.storage.keys import game_key
from handlers.telegram import hub
from handlers.telegram.context import Runtime
from handlers.telegram.hub import Decided
from infra.sqlite_store import SQLiteStore
from infra.store import Conflict, Item
from tests.support.tables import CHAT, NOW, lobby


@pytest.fixture
def store(tmp_path):
    with SQLiteStore(tmp_path / "store.sqlite3", clock=lambda: NOW) as opened:
        yield opened


@pytest.fixture
def context(store, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """What the hub reads of a callback's context: the runtime (a host on SQLite), and a bot
    that is never called (the steps here owe no messages)."""
    monkeypatch.setattr(hub, "backoff", lambda attempt: 0.0)
    return SimpleNamespace(
        runtime=Runtime(Keeper(store, clock=lambda: NOW), lambda: NOW), bot=None
    )


def run(coroutine):
    return asyncio.run(coroutine)


def seated(context: SimpleNamespace) -> None:
    """A lobby of four saved for the group."""
    run(hub.handle(context, run(hub.read(context, CHAT)), lambda *_: Decided(lobby(4)), 1))


def test_a_step_reads_the_item_once_and_saves_once(context, store) -> None:
    seated(context)
    reads, writes = store.reads, store.writes
    steps: list[Table] = []

    def leave(table: Table | None, ids) -> Decided:
        steps.append(table)
        table.leave(4, NOW)
        return Decided(table)

    loaded = run(hub.read(context, CHAT, 2))
    saved = run(hub.handle(context, loaded, leave, 2))
    assert (store.reads - reads, store.writes - writes) == (1, 1)
    assert steps == [loaded.table] and saved.version == 2
    assert len(store.load(game_key(CHAT)).data["session"]["players"]) == 3


def test_the_table_read_is_built_once_and_is_the_sessions_own_copy(context, store) -> None:
    seated(context)
    loaded = run(hub.read(context, CHAT))
    loaded.table.record.status = "over"  # the session changes its table in place
    assert loaded.table is loaded.table  # read once, built once
    assert loaded.item.data["session"]["status"] == "lobby"  # the item stays as read
    assert loaded.fresh_table().status == "lobby"


def test_a_saved_change_hands_storage_its_expiry_and_next_wake(context, store) -> None:
    """Storage never reads inside the session's part: the hub tells it when the table next
    wakes and whether its game is over (its item then lasts a day, else a week)."""
    woken: list[float] = []
    context.runtime.keeper.wake = lambda chat, when: woken.append(when)
    seated(context)
    live = store.load(game_key(CHAT)).expires_at
    woken.clear()  # the lobby's countdown

    def counting_down(table: Table | None, ids) -> Decided:
        table.record.deadline = NOW + 60
        return Decided(table)

    def cancel(table: Table | None, ids) -> Decided:
        table.cancel("Ann")
        return Decided(table)

    run(hub.handle(context, run(hub.read(context, CHAT)), counting_down, 2))
    run(hub.handle(context, run(hub.read(context, CHAT)), counting_down, 3))  # set already
    assert woken == [NOW + 60]
    run(hub.handle(context, run(hub.read(context, CHAT)), cancel, 4))
    over = store.load(game_key(CHAT)).expires_at
    assert live - over == 6 * 24 * 3600


def test_after_a_lost_race_the_step_runs_again_on_the_item_as_it_is_then(context, store) -> None:
    seated(context)
    loaded = run(hub.read(context, CHAT, 3))

    def another(table: Table | None, ids) -> Decided:
        table.leave(4, NOW)
        return Decided(table)

    run(hub.handle(context, run(hub.read(context, CHAT, 2)), another, 2))
    seen: list[int] = []

    def leave(table: Table | None, ids) -> Decided:
        seen.append(len(table.players))
        table.leave(3, NOW)
        return Decided(table)

    run(hub.handle(context, loaded, leave, 3))
    assert seen == [4, 3]  # decided on the stale read, then on the item another run saved
    assert len(store.load(game_key(CHAT)).data["session"]["players"]) == 2


def test_a_refused_step_is_not_run_again_and_saves_nothing(context, store) -> None:
    seated(context)
    writes = store.writes
    calls: list[int] = []

    def refusing(table: Table | None, ids) -> Decided:
        calls.append(1)
        raise Refused("only_host")

    with pytest.raises(Refused):
        run(hub.handle(context, run(hub.read(context, CHAT, 2)), refusing, 2))
    assert calls == [1] and store.writes == writes


def test_a_step_gives_up_with_conflict_after_every_attempt_lost(context, store) -> None:
    seated(context)
    saves: list[Item] = []

    def losing(item: Item) -> Item:
        saves.append(item)
        raise Conflict(item.key, item.version)

    store.save = losing
    with pytest.raises(Conflict):
        run(hub.handle(context, run(hub.read(context, CHAT, 2)), lambda t, _: Decided(t), 2))
    assert len(saves) == ATTEMPTS


def test_a_redelivered_update_is_answered_where_its_item_is_read(context, store) -> None:
    seated(context)
    reads, writes = store.reads, store.writes
    with pytest.raises(ApplicationHandlerStop):
        run(hub.read(context, CHAT, 1))
    assert (store.reads - reads, store.writes - writes) == (1, 0)
