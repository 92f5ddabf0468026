"""Each stored part of a group's item carries its form: a reader lets go of the keys it does not
know, takes a default for an absent one, and leaves an item (or a part) in a form newer than it
knows as it is (neither set aside nor overwritten), waking its group again soon, so that a
rollback loses no game."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.codec import NewerForm
from handlers.display import ids
from handlers.session import record
from handlers.storage import keeper as keeper_module
from handlers.storage.keeper import NEWER_RETRY, SESSION, TELEGRAM, Keeper
from handlers.storage.keys import game_key
from handlers.telegram import item as item_codec
from handlers.telegram.item import Read
from infra.store import Item
from testing.drivers import Bot
from testing.players import Table

CHAT = -5


def game_mid_turn(memory_bot: Bot) -> dict[str, Any]:
    """The data of a group's item as this release writes it, a game dealt and a turn open."""
    table = Table.of(memory_bot, 4)
    table.open()
    table.start(seed=11)
    stored = memory_bot.item(table.group.id)
    assert stored is not None
    return copy.deepcopy(stored.data)


def keeper_on(store: Any, clock: Any, wakes: list[tuple[int, float]]) -> Keeper:
    """A host that reads as the bot does (its owners' checks) and notes the wakes it asks for."""
    host = Keeper(store, lambda chat, when: wakes.append((chat, when)), clock=clock)
    host.reading(item_codec.check, item_codec.notice)
    return host


def newer(data: dict[str, Any], where: str) -> dict[str, Any]:
    """`data` with the form of one of its parts (or of the item itself) a form ahead."""
    data = copy.deepcopy(data)
    part = data if where == "item" else data[where]
    part["form"] += 1
    return data


@pytest.mark.parametrize("where", ["item", SESSION, TELEGRAM])
def test_an_item_in_a_newer_form_is_left_as_it_is_and_its_group_woken_again(
    where: str, memory_bot: Bot
) -> None:
    store, clock = memory_bot.store, memory_bot.clock
    data = newer(game_mid_turn(memory_bot), where)
    kept = store.save(Item(game_key(CHAT), 0, data))
    wakes: list[tuple[int, float]] = []
    host = keeper_on(store, clock, wakes)
    with pytest.raises(NewerForm):  # the update fails, and is delivered again
        host.load(CHAT)
    assert store.load(game_key(CHAT)) == kept  # not overwritten
    assert list(store.keys("unreadable#")) == []  # not set aside
    assert wakes == [(CHAT, clock() + NEWER_RETRY)]  # its deadlines are looked at again soon


def test_a_game_state_in_a_newer_form_is_left_as_it_is(
    memory_bot: Bot,
) -> None:
    store, clock = memory_bot.store, memory_bot.clock
    data = game_mid_turn(memory_bot)
    data[SESSION]["engine"]["schema"] += 1
    kept = store.save(Item(game_key(CHAT), 0, data))
    wakes: list[tuple[int, float]] = []
    host = keeper_on(store, clock, wakes)
    with pytest.raises(NewerForm):
        host.load(CHAT)
    assert store.load(game_key(CHAT)) == kept
    assert list(store.keys("unreadable#")) == []
    assert wakes == [(CHAT, clock() + NEWER_RETRY)]


def test_keys_a_reader_does_not_know_are_let_go(
    memory_bot: Bot,
) -> None:
    store, clock = memory_bot.store, memory_bot.clock
    data = game_mid_turn(memory_bot)
    more = copy.deepcopy(data)
    more["replay"] = "r-7f3a"  # a field a later release adds, wherever it puts it
    more[SESSION]["replay"] = "r-7f3a"
    more[SESSION]["engine"]["replay"] = "r-7f3a"
    more[TELEGRAM]["replay"] = 12
    for batch in more.get("owed") or []:
        for out in batch["outs"]:
            out["replay"] = "r-7f3a"
    store.save(Item(game_key(CHAT), 0, data))
    store.save(Item(game_key(CHAT - 1), 0, more))
    host = keeper_on(store, clock, [])
    read, read_more = Read.of(host.load(CHAT)), Read.of(host.load(CHAT - 1))
    mine = [{**r.table.to_stored(), "engine": None} for r in (read, read_more)]
    assert mine[0] == mine[1]  # the engine's state is kept as stored, read below
    assert read_more.table.state == read.table.state
    assert read_more.ids() == read.ids() and read_more.wake == read.wake
    assert list(store.keys("unreadable#")) == []


def test_a_session_part_without_its_language_or_settings_reads_with_their_defaults(
    memory_bot: Bot,
) -> None:
    store, clock = memory_bot.store, memory_bot.clock
    data = game_mid_turn(memory_bot)
    del data[SESSION]["lang"], data[SESSION]["settings"]
    store.save(Item(game_key(CHAT), 0, data))
    table = Read.of(keeper_on(store, clock, []).load(CHAT)).table
    assert table is not None and table.record.lang == "en" and table.record.settings == {}
    assert list(store.keys("unreadable#")) == []


def test_a_release_that_moves_a_form_on_still_reads_the_form_before_in_its_parts(
    memory_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, clock = memory_bot.store, memory_bot.clock
    data = game_mid_turn(memory_bot)
    store.save(Item(game_key(CHAT), 0, data))
    before = Read.of(keeper_on(store, clock, []).load(CHAT))
    for module in (keeper_module, record, ids):  # the next form of each part, as a release may
        monkeypatch.setattr(module, "FORM", module.FORM + 1)
    read = Read.of(keeper_on(store, clock, []).load(CHAT))
    assert read.table.to_stored() == before.table.to_stored()
    assert read.ids() == before.ids() and read.wake == before.wake
    assert list(store.keys("unreadable#")) == []
